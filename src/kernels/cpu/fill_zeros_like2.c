/* fill_zeros_like2: Out = zeros with X's dims and the dtype attribute's type (default
 * float32; Paddle 2.6.2's CPU kernel takes bool, int32, int64, float32, float64, complex64 and
 * complex128). X is read for its dims only. */
#include <string.h>

#include "kernels/cpu/fill.h"

#define ALLOWED                                                                            \
  (IC_DT(IC_BOOL) | IC_DT(IC_INT32) | IC_DT(IC_INT64) | IC_DT(IC_FP32) | IC_DT(IC_FP64) |  \
   IC_DT(IC_COMPLEX64) | IC_DT(IC_COMPLEX128))

typedef struct fzl2_attrs {
  ic_dtype dtype;
} fzl2_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fzl2_attrs *a = attrs;
  ic_fill_parse_dtype(r, "dtype", IC_FP32, ALLOWED, &a->dtype);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const fzl2_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  ic_tensor *o = ic_out(c, 0, 0);
  memset(o->data, 0, ic_tensor_nbytes(o));
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_fill_zeros_like2 = {
    .name = "fill_zeros_like2",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(fzl2_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
