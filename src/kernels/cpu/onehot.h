/* one_hot_v2 and fluid's one_hot share their attributes, depth, slots and fill
 * (one_hot_v2.c); they differ only in Out's dims (infer). */
#ifndef IC_KERNELS_CPU_ONEHOT_H
#define IC_KERNELS_CPU_ONEHOT_H

#include "kernels/kernel.h"

typedef struct ic_one_hot_attrs {
  int64_t depth;
  ic_dtype dtype;
  bool allow; /* allow_out_of_range */
} ic_one_hot_attrs;

extern const ic_slotdef ic_one_hot_inputs[2];
extern const ic_slotdef ic_one_hot_outputs[1];
ic_status ic_one_hot_parse(ic_attr_reader *r, void *attrs);
/* The depth: depth_tensor when given, else the attribute; an error below 1. */
ic_status ic_one_hot_depth(ic_kctx *c, int64_t *depth);
/* Out (dims set by infer, the depth last) from X's ids. */
ic_status ic_one_hot_run(ic_kctx *c);

#endif
