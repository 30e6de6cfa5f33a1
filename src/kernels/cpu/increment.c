/* increment: Out = X + step for a one-element tensor (Paddle's loop counter op), in X's
 * dtype. */
#include "kernels/kernel.h"

typedef struct attrs {
  double step;
} attrs;

static ic_status parse(ic_attr_reader *r, void *p) {
  attrs *a = p;
  a->step = ic_ar_float(r, "step", 1.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st) return st;
  if (ic_tensor_numel_(x) != 1) return ic_kfail_in(c, 0, 0, "expected exactly one element");
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  switch (x->dtype) {
    case IC_FP32: *(float *)o->data = (float)(*(const float *)x->data + (float)a->step); break;
    case IC_FP64: *(double *)o->data = *(const double *)x->data + a->step; break;
    case IC_INT32: *(int32_t *)o->data = (int32_t)(*(const int32_t *)x->data + (int32_t)a->step); break;
    default: *(int64_t *)o->data = *(const int64_t *)x->data + (int64_t)a->step; break;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_increment = {
    .name = "increment",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
