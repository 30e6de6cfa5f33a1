/* ic_fold_bn (internal; analysis inserts it when it fuses conv + batch_norm for inference):
 * the convolution's filter and bias with an inference batch_norm folded in,
 *   a[o]           = Scale[o] / sqrt(Variance[o] + epsilon)
 *   FoldedFilter   = Filter[o, ...] * a[o]
 *   FoldedBias[o]  = (Bias[o] - Mean[o]) * a[o] + BnBias[o]      (Bias 0 when absent)
 * computed in double and rounded once. Its inputs are parameters and its outputs are kept
 * across runs, so the executor recomputes it only when a parameter buffer changes. With
 * ic_transposed (a transposed convolution's Filter [C_in, C_out / groups, KH, KW]) output
 * channel o is Filter[g * C_in / groups + i, o - g * C_out / groups, ...] for i < C_in /
 * groups, group g = o / (C_out / groups). */
#include <math.h>

#include "kernels/kernel.h"

typedef struct fold_attrs {
  double epsilon;
  bool transposed;
  int64_t groups;
} fold_attrs;

enum { IN_FILTER, IN_BIAS, IN_SCALE, IN_BNBIAS, IN_MEAN, IN_VAR };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fold_attrs *a = attrs;
  a->epsilon = (float)ic_ar_float(r, "epsilon", (double)1e-5f);
  a->transposed = ic_ar_bool(r, "ic_transposed", false);
  a->groups = ic_ar_int(r, "groups", 1);
  if (!r->st && a->groups < 1) ic_ar_fail(r, "groups", "is %lld, expected >= 1", (long long)a->groups);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *f = ic_in(c, IN_FILTER, 0);
  ic_status st = ic_kcheck_dtype(c, IN_FILTER, 0, IC_DT(IC_FP32));
  if (st) return st;
  if (f->ndim != 4) return ic_kfail_in(c, IN_FILTER, 0, "expected rank 4");
  const fold_attrs *a = c->attrs;
  if (a->transposed && f->dims[0] % a->groups) {
    return ic_kfail_in(c, IN_FILTER, 0, "expected dims[0] a multiple of groups %lld",
                       (long long)a->groups);
  }
  int64_t oc = a->transposed ? f->dims[1] * a->groups : f->dims[0];
  for (size_t s = IN_BIAS; s <= IN_VAR; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (!t) continue;
    if ((st = ic_kcheck_dtype(c, s, 0, IC_DT(IC_FP32)))) return st;
    if (ic_tensor_numel_(t) != oc) return ic_kfail_in(c, s, 0, "expected %lld elements", (long long)oc);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_FP32, 4, f->dims);
  ic_tensor_set_meta(ic_out(c, 1, 0), IC_FP32, 1, &oc);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const fold_attrs *a = c->attrs;
  const ic_tensor *f = ic_in(c, IN_FILTER, 0), *b = ic_in(c, IN_BIAS, 0);
  const float *scale = ic_in(c, IN_SCALE, 0)->data, *beta = ic_in(c, IN_BNBIAS, 0)->data;
  const float *mean = ic_in(c, IN_MEAN, 0)->data, *var = ic_in(c, IN_VAR, 0)->data;
  const float *w = f->data, *bias = b ? b->data : NULL;
  float *fw = ic_out(c, 0, 0)->data, *fb = ic_out(c, 1, 0)->data;
  if (a->transposed) {
    const int64_t og = f->dims[1], cg = f->dims[0] / a->groups, khw = f->dims[2] * f->dims[3];
    for (int64_t o = 0; o < og * a->groups; o++) {
      double k = (double)scale[o] / sqrt((double)var[o] + a->epsilon);
      const int64_t gi = o / og, oo = o % og;
      for (int64_t i = gi * cg; i < (gi + 1) * cg; i++) {
        const int64_t base = (i * og + oo) * khw;
        for (int64_t j = 0; j < khw; j++) fw[base + j] = (float)(w[base + j] * k);
      }
      fb[o] = (float)(((bias ? (double)bias[o] : 0.0) - mean[o]) * k + beta[o]);
    }
    return IC_OK;
  }
  int64_t oc = f->dims[0], per = f->dims[1] * f->dims[2] * f->dims[3];
  for (int64_t o = 0; o < oc; o++) {
    double k = (double)scale[o] / sqrt((double)var[o] + a->epsilon);
    for (int64_t j = 0; j < per; j++) fw[o * per + j] = (float)(w[o * per + j] * k);
    fb[o] = (float)(((bias ? (double)bias[o] : 0.0) - mean[o]) * k + beta[o]);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Filter", 0}, {"Bias", IC_SLOT_OPTIONAL}, {"Scale", 0}, {"BnBias", 0}, {"Mean", 0}, {"Variance", 0},
};
static const ic_slotdef outputs[] = {{"FoldedFilter", 0}, {"FoldedBias", 0}};

const ic_opdef ic_op_ic_fold_bn = {
    .name = "ic_fold_bn",
    .n_inputs = 6, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(fold_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_DERIVED,
};
