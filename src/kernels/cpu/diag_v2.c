/* diag_v2 (paddle.diag): a 1-D X of n values becomes the square matrix of side n + |offset|
 * with X on diagonal `offset` (above the main one when > 0) and padding_value elsewhere; a
 * 2-D X gives its diagonal `offset` as a 1-D tensor (empty when the offset leaves the matrix);
 * a 0-D X counts as one value (paddle/phi/kernels/cpu/diag_kernel.cc, DiagInferMeta).
 * float32, float64, int32, int64. */
#include "kernels/kernel.h"

typedef struct diag_attrs {
  int64_t offset;
  double pad;
} diag_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  diag_attrs *a = attrs;
  a->offset = ic_ar_int(r, "offset", 0);
  a->pad = (float)ic_ar_float(r, "padding_value", 0.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const diag_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st) return st;
  const int64_t off = a->offset < 0 ? -a->offset : a->offset;
  if (x->ndim <= 1) {
    const int64_t n = x->ndim ? x->dims[0] : 1, side = n + off;
    ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 2, (int64_t[]){side, side});
    return IC_OK;
  }
  if (x->ndim != 2) return ic_kfail_in(c, 0, 0, "expected rank 0, 1 or 2");
  const int64_t R = x->dims[0], C = x->dims[1];
  int64_t len = a->offset >= 0 ? (C - a->offset < R ? C - a->offset : R)
                               : (R + a->offset < C ? R + a->offset : C);
  if (len < 0) len = 0;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 1, &len);
  return IC_OK;
}

static void put(ic_tensor *t, int64_t i, double v) {
  switch (t->dtype) {
    case IC_FP32: ((float *)t->data)[i] = (float)v; break;
    case IC_FP64: ((double *)t->data)[i] = v; break;
    case IC_INT32: ((int32_t *)t->data)[i] = (int32_t)v; break;
    default: ((int64_t *)t->data)[i] = (int64_t)v; break;
  }
}

static void copy(ic_tensor *o, int64_t i, const ic_tensor *x, int64_t j) {
  switch (x->dtype) {
    case IC_FP32: ((float *)o->data)[i] = ((const float *)x->data)[j]; break;
    case IC_FP64: ((double *)o->data)[i] = ((const double *)x->data)[j]; break;
    case IC_INT32: ((int32_t *)o->data)[i] = ((const int32_t *)x->data)[j]; break;
    default: ((int64_t *)o->data)[i] = ((const int64_t *)x->data)[j]; break;
  }
}

static ic_status run(ic_kctx *c) {
  const diag_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  if (x->ndim <= 1) {
    const int64_t n = x->ndim ? x->dims[0] : 1, side = o->dims[0];
    for (int64_t i = 0; i < side * side; i++) put(o, i, a->pad);
    for (int64_t i = 0; i < n; i++) {
      const int64_t r = a->offset >= 0 ? i : i - a->offset, cc = a->offset >= 0 ? i + a->offset : i;
      copy(o, r * side + cc, x, i);
    }
    return IC_OK;
  }
  const int64_t C = x->dims[1];
  for (int64_t i = 0; i < o->dims[0]; i++) {
    const int64_t r = a->offset >= 0 ? i : i - a->offset, cc = a->offset >= 0 ? i + a->offset : i;
    copy(o, i, x, r * C + cc);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_diag_v2 = {
    .name = "diag_v2", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(diag_attrs), .parse = parse, .infer = infer, .cpu = run,
};
