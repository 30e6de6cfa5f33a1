/* p_norm_grad: X@GRAD for p_norm's Out = (sum |x|^p)^(1/p) along `axis` (or every element with
 * `asvector`), as Paddle 3.3.1 computes it (checked against it, tests/data/grad_oracle):
 *   p finite, nonzero:  sign(x) |x|^(p - 1) Out@GRAD / Out^(p - 1), 0 where x = 0 (so a zero
 *                       norm gives 0, not NaN);
 *   p = +inf / -inf:    sign(x) Out@GRAD where |x| equals the norm: ties each get the whole
 *                       gradient (not a share);
 *   p = 0:              0.
 * Computed in double, rounded once. Inputs X, Out, Out@GRAD; p_norm's attributes (porder,
 * axis, keepdim, asvector, epsilon: not used). */
#include <math.h>

#include "kernels/cpu/p_norm.h"

static const ic_slotdef k_inputs[3] = {{"X", 0}, {"Out", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  int64_t outer, len, inner;
  if (st || (st = ic_p_norm_plan(c, &outer, &len, &inner))) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  for (size_t s = 1; s < 3; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != x->dtype || ic_tensor_numel_(t) != outer * inner) {
      return ic_kfail_in(c, s, 0, "expected %s with %lld elements (X reduced)",
                         ic_dtype_name(x->dtype), (long long)(outer * inner));
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static double at(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? (double)((const float *)t->data)[i]
                             : ((const double *)t->data)[i];
}

static ic_status run(ic_kctx *c) {
  const p_norm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *out = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int64_t outer, len, inner;
  ic_status st = ic_p_norm_plan(c, &outer, &len, &inner);
  if (st) return st;
  const double p = a->porder;
  for (int64_t r = 0; r < outer; r++) {
    for (int64_t i = 0; i < inner; i++) {
      const double nv = at(out, r * inner + i), gv = at(g, r * inner + i);
      for (int64_t k = 0; k < len; k++) {
        const int64_t e = (r * len + k) * inner + i;
        const double v = at(x, e), s = (double)((v > 0) - (v < 0));
        double d;
        if (p == 0) {
          d = 0;
        } else if (isinf(p)) {
          d = fabs(v) == nv ? s * gv : 0.0;
        } else {
          d = v == 0 ? 0.0 : s * pow(fabs(v), p - 1) * gv / pow(nv, p - 1);
        }
        if (dx->dtype == IC_FP32) ((float *)dx->data)[e] = (float)d;
        else ((double *)dx->data)[e] = d;
      }
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_p_norm_grad = {
    .name = "p_norm_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(p_norm_attrs), .parse = ic_p_norm_parse,
    .infer = infer, .cpu = run,
};
