/* cummax and cummin share their attributes, shape rule and loop (cumext.c), and their
 * gradients one scatter-add (cumext_grad.c). */
#ifndef IC_KERNELS_CPU_CUMEXT_H
#define IC_KERNELS_CPU_CUMEXT_H

#include "kernels/kernel.h"

typedef struct ic_cumext_attrs {
  int64_t axis;
  ic_dtype idx; /* Indices' dtype */
} ic_cumext_attrs;

extern const ic_slotdef ic_cumext_inputs[1];
extern const ic_slotdef ic_cumext_outputs[2];
ic_status ic_cumext_parse(ic_attr_reader *r, void *attrs);
ic_status ic_cumext_infer(ic_kctx *c);
/* max: cummax's running maximum, else cummin's minimum. */
ic_status ic_cumext_run(ic_kctx *c, bool max);

/* Their gradients share one scatter-add (cumext_grad.c). */
typedef struct ic_cumext_grad_attrs {
  int64_t axis;
} ic_cumext_grad_attrs;
extern const ic_slotdef ic_cumext_grad_inputs[3];
extern const ic_slotdef ic_cumext_grad_outputs[1];
ic_status ic_cumext_grad_parse(ic_attr_reader *r, void *attrs);
ic_status ic_cumext_grad_infer(ic_kctx *c);
ic_status ic_cumext_grad_run(ic_kctx *c);

#endif
