/* p_norm's attributes and reduction plan, shared with p_norm_grad (p_norm.c). */
#ifndef IC_KERNELS_CPU_P_NORM_H
#define IC_KERNELS_CPU_P_NORM_H

#include "kernels/kernel.h"

typedef struct p_norm_attrs {
  float porder;
  int64_t axis;
  bool keepdim, asvector;
} p_norm_attrs;

ic_status ic_p_norm_parse(ic_attr_reader *r, void *attrs); /* p_norm_attrs */
/* The reduction of the op's X (slot 0): X as [outer, len, inner], Out as [outer, inner];
 * fails naming attribute 'axis' when it is outside X's rank. */
ic_status ic_p_norm_plan(ic_kctx *c, int64_t *outer, int64_t *len, int64_t *inner);

#endif
