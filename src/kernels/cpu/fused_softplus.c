/* fused_softplus: softplus with a fused activation, as Paddle's oneDNN passes write it
 * (softplus_activation_onednn_fuse_pass; phi/kernels/fusion/onednn/fused_softplus_kernel.cc):
 *   Out = act(log(1 + exp(beta x)) / beta)
 * with act the oneDNN post-op fuse_activation (onednn_act.h). threshold is accepted and, as in
 * Paddle's kernel, unused. float32, computed in double and rounded once. */
#include <math.h>

#include "kernels/cpu/onednn_act.h"
#include "kernels/kernel.h"

typedef struct fsp_attrs {
  double beta;
  ic_oda act;
} fsp_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fsp_attrs *a = attrs;
  a->beta = (float)ic_ar_float(r, "beta", 1.0);
  (void)ic_ar_float(r, "threshold", 20.0);
  if (r->st) return r->st;
  return ic_oda_parse(r, &a->act);
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT(IC_FP32));
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const fsp_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  const float *xp = x->data;
  float *y = ic_out(c, 0, 0)->data;
  const int64_t n = ic_tensor_numel_(x);
  for (int64_t i = 0; i < n; i++) {
    const double t = a->beta * (double)xp[i];
    double v = t > 0 ? t + log1p(exp(-t)) : log1p(exp(t));
    if (a->beta != 1.0) v *= 1.0 / a->beta;
    y[i] = (float)ic_oda_apply(&a->act, v);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_fused_softplus = {
    .name = "fused_softplus",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(fsp_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
