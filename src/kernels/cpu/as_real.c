/* as_real (paddle.as_real): complex X [...] viewed as real [..., 2] (re, im). */
#include <string.h>

#include "kernels/cpu/complexutil.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  if (ic_kcheck_dtype(c, 0, 0, IC_DT_COMPLEX)) return c->err->code;
  if (x->ndim >= IC_MAX_RANK) return ic_kfail_in(c, 0, 0, "expected rank < %d", IC_MAX_RANK);
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)x->ndim);
  d[x->ndim] = 2;
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_complex_part_dtype(x->dtype), x->ndim + 1, d);
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

const ic_opdef ic_op_as_real = {
    .name = "as_real", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
