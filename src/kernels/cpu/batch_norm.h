/* batch_norm's attributes, shared by the CPU kernel (batch_norm.c) and the CUDA kernel
 * (cuda/batch_norm.cu). */
#ifndef IC_KERNELS_CPU_BATCH_NORM_H
#define IC_KERNELS_CPU_BATCH_NORM_H

#include <stdbool.h>

typedef struct bn_attrs {
  double epsilon;    /* Paddle's float attribute, exactly */
  double momentum;
  bool nhwc;         /* channels last */
  bool global_stats; /* normalize with Mean/Variance rather than batch statistics */
} bn_attrs;

#endif
