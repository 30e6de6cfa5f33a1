/* diagonal and trace share their attributes and the walk over the diagonals (diagonal.c). */
#ifndef IC_KERNELS_CPU_DIAGONAL_H
#define IC_KERNELS_CPU_DIAGONAL_H

#include "kernels/kernel.h"

typedef struct diagonal_attrs {
  int64_t offset, axis1, axis2;
} diagonal_attrs;

/* Input (slot 0) without axis1 and axis2: n dims with their element strides in Input; each
 * diagonal has len elements, the first at `start` past the matrix's origin, `step` apart. */
typedef struct diag_plan {
  int n;
  int64_t dims[IC_MAX_RANK], stride[IC_MAX_RANK];
  int64_t len, start, step;
} diag_plan;

ic_status ic_diagonal_parse(ic_attr_reader *r, void *attrs);
/* Validates the attributes against Input (at least 2 dims, distinct axes in range). */
ic_status ic_diagonal_plan(ic_kctx *c, diag_plan *p);

/* diagonal_grad and trace_grad (diagonal_grad.c): inputs Input (meta only), Out@GRAD; output
 * Input@GRAD; `trace` says Out@GRAD holds one value per matrix (spread along the diagonal). */
extern const ic_slotdef ic_diag_grad_inputs[2];
extern const ic_slotdef ic_diag_grad_outputs[1];
ic_status ic_diag_grad_infer(ic_kctx *c, bool trace);
ic_status ic_diag_grad_run(ic_kctx *c, bool trace);

#endif
