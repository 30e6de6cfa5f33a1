/* group_norm's attributes and slots, shared by the CPU kernel (group_norm.c) and the CUDA
 * kernel (cuda/group_norm.cu). */
#ifndef IC_KERNELS_CPU_GROUP_NORM_H
#define IC_KERNELS_CPU_GROUP_NORM_H

#include "kernels/kernel.h"

typedef struct gn_attrs {
  double epsilon;
  int64_t groups;
  bool nhwc;  /* data_layout NHWC: channel last */
} gn_attrs;

enum { IC_GN_X, IC_GN_SCALE, IC_GN_BIAS };
enum { IC_GN_Y, IC_GN_MEAN, IC_GN_VAR };

#endif
