/* scale's attributes, shared by its CPU kernel (scale.c) and its CUDA kernel. */
#ifndef IC_KERNELS_CPU_SCALE_H
#define IC_KERNELS_CPU_SCALE_H

#include <stdbool.h>

typedef struct scale_attrs {
  double scale; /* float attributes, widened */
  double bias;
  bool bias_after_scale;
} scale_attrs;

/* Input slots. */
enum { IC_SCALE_X, IC_SCALE_SCALE, IC_SCALE_BIAS };

#endif
