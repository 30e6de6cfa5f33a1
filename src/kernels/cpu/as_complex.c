/* as_complex (paddle.as_complex): real X [..., 2] (re, im pairs; float32 or float64) viewed
 * as complex [...] (complex64 or complex128). */
#include <string.h>

#include "kernels/cpu/complexutil.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  if (ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim < 1 || x->dims[x->ndim - 1] != 2) {
    return ic_kfail_in(c, 0, 0, "expected a last dimension of 2 (real, imaginary)");
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_complex_of(x->dtype), x->ndim - 1, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  if (o->data != x->data) memcpy(o->data, x->data, (size_t)ic_tensor_numel_(x) * ic_dtype_size(x->dtype));
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_as_complex = {
    .name = "as_complex", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
