/* mul's attributes, shared by the CPU kernel (mul.c) and the CUDA kernel (cuda/mul.cu). */
#ifndef IC_KERNELS_CPU_MUL_H
#define IC_KERNELS_CPU_MUL_H

#include <stdint.h>

typedef struct mul_attrs {
  int64_t x_ncd, y_ncd;
} mul_attrs;

#endif
