/* layer_norm's attributes, shared by the CPU kernel (layer_norm.c) and the CUDA kernel
 * (cuda/layer_norm.cu). */
#ifndef IC_KERNELS_CPU_LAYER_NORM_H
#define IC_KERNELS_CPU_LAYER_NORM_H

#include <stdint.h>

typedef struct ln_attrs {
  int64_t begin_norm_axis;
  double epsilon;
} ln_attrs;

#endif
