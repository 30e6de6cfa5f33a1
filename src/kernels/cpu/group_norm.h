/* group_norm's attributes and slots, shared by the CPU kernel (group_norm.c), the CUDA
 * kernel (cuda/group_norm.cu) and group_norm_grad (group_norm_grad.c). */
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

/* group_norm's (and group_norm_grad's) attribute parser (group_norm.c). */
ic_status ic_group_norm_parse(ic_attr_reader *r, void *attrs); /* gn_attrs */

/* X's channel count: dim 1 (NCHW) or the last dim (NHWC). */
static inline int64_t ic_gn_channels(const gn_attrs *a, const ic_tensor *x) {
  return a->nhwc ? x->dims[x->ndim - 1] : x->dims[1];
}

#endif
