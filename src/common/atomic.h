/* An atomic int usable in headers that CUDA C++ (nvcc) also includes. C11's _Atomic int and
 * C++'s std::atomic<int> have the same size, alignment and representation with gcc and clang
 * (made official by C++23's <stdatomic.h>), so a struct holding one reads the same from
 * both languages. Only C code operates on it. */
#ifndef IC_COMMON_ATOMIC_H
#define IC_COMMON_ATOMIC_H

#ifdef __cplusplus
#include <atomic>
typedef std::atomic<int> ic_atomic_int;
#else
#include <stdatomic.h>
typedef atomic_int ic_atomic_int;
#endif

#endif
