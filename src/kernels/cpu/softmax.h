/* softmax's attributes, shared by the CPU kernel (softmax.c) and the CUDA kernel
 * (cuda/softmax.cu). */
#ifndef IC_KERNELS_CPU_SOFTMAX_H
#define IC_KERNELS_CPU_SOFTMAX_H

#include <stdint.h>

typedef struct softmax_attrs {
  int64_t axis;
} softmax_attrs;

#endif
