/* top_k and top_k_v2: the k largest (or smallest) values along an axis and their int64
 * positions, best first (see top_k_v2.c). */
#ifndef IC_KERNELS_CPU_TOPK_H
#define IC_KERNELS_CPU_TOPK_H

#include "kernels/kernel.h"

typedef struct topk_attrs {
  int64_t k, axis;
  bool largest, sorted;
} topk_attrs;

extern const ic_slotdef ic_topk_inputs[2];
extern const ic_slotdef ic_topk_outputs[2];
ic_status ic_topk_infer(ic_kctx *c);
ic_status ic_topk_run(ic_kctx *c);
/* top_k's (and top_k_grad's) attribute parser (top_k.c): `k`, the last axis, largest first. */
ic_status ic_top_k_parse(ic_attr_reader *r, void *attrs); /* topk_attrs */
/* top_k_v2's (and top_k_v2_grad's) attribute parser (top_k_v2.c). */
ic_status ic_top_k_v2_parse(ic_attr_reader *r, void *attrs); /* topk_attrs */

#endif
