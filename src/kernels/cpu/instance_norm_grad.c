/* instance_norm_grad: the gradients of instance_norm (phi InstanceNormGradKernel) from its
 * saved statistics: per (image, channel) of S elements, with xh = (X - SavedMean) *
 * SavedVariance (SavedVariance holds 1 / sqrt(var + epsilon)) and s = Scale[c] (1 when
 * absent),
 *   X@GRAD     = s * SavedVariance * (dY - mean(dY) - xh * mean(dY * xh)),
 *   Scale@GRAD = sum over images and elements of dY * xh,   Bias@GRAD = sum of dY.
 * Computed in double, rounded once. Inputs X, Scale (optional), Bias (optional, unused),
 * SavedMean, SavedVariance, Y@GRAD; outputs X@GRAD, Scale@GRAD, Bias@GRAD (each optional). */
#include <math.h>
#include <string.h>

#include "kernels/cpu/train.h"

typedef struct in_grad_attrs {
  double epsilon;
} in_grad_attrs;

enum { IN_X, IN_SCALE, IN_BIAS, IN_MEAN, IN_VAR, IN_DY };
enum { OUT_DX, OUT_DSCALE, OUT_DBIAS };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  in_grad_attrs *a = attrs;
  a->epsilon = ic_ar_float(r, "epsilon", (double)1e-5f);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if (x->ndim < 2 || x->ndim > 5) {
    return ic_kfail_in(c, IN_X, 0, "expected rank 2 to 5 ([N, C, ...])");
  }
  const int64_t C = x->dims[1], NC = x->dims[0] * C;
  const int64_t want[6] = {0, C, C, NC, NC, 0};
  for (size_t s = IN_SCALE; s <= IN_VAR; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t && (t->dtype != x->dtype || ic_numel(t->ndim, t->dims) != want[s])) {
      return ic_kfail_in(c, s, 0, "expected %s with %lld elements", ic_dtype_name(x->dtype),
                         (long long)want[s]);
    }
  }
  return ic_norm_grad_outputs(c, x, IN_DY, C);
}

static double rd(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? (double)((const float *)t->data)[i]
                             : ((const double *)t->data)[i];
}
static void wr(ic_tensor *t, int64_t i, double v) {
  if (t->dtype == IC_FP32) ((float *)t->data)[i] = (float)v;
  else ((double *)t->data)[i] = v;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *sc = ic_in(c, IN_SCALE, 0),
                  *mean = ic_in(c, IN_MEAN, 0), *var = ic_in(c, IN_VAR, 0),
                  *dy = ic_in(c, IN_DY, 0);
  ic_tensor *dx = ic_out(c, OUT_DX, 0), *ds = ic_out(c, OUT_DSCALE, 0),
            *db = ic_out(c, OUT_DBIAS, 0);
  const int64_t N = x->dims[0], C = x->dims[1], S = ic_numel(x->ndim - 2, x->dims + 2);
  ic_buffer *buf = ic_kscratch(c, (size_t)(2 * C + 1) * sizeof(double));
  if (!buf) return c->err->code;
  double *sum_s = buf->data, *sum_b = sum_s + C;
  memset(sum_s, 0, (size_t)(2 * C) * sizeof(double));
  for (int64_t nc = 0; nc < N * C; nc++) {
    const int64_t ch = nc % C, o = nc * S;
    const double m = rd(mean, nc), inv = rd(var, nc), s = sc ? rd(sc, ch) : 1.0;
    double sdy = 0, sdyx = 0;
    for (int64_t p = 0; p < S; p++) {
      const double g = rd(dy, o + p);
      sdy += g;
      sdyx += g * (rd(x, o + p) - m) * inv;
    }
    sum_s[ch] += sdyx;
    sum_b[ch] += sdy;
    if (!dx) continue;
    const double a1 = S ? sdy / (double)S : 0, a2 = S ? sdyx / (double)S : 0;
    for (int64_t p = 0; p < S; p++) {
      const double xh = (rd(x, o + p) - m) * inv;
      wr(dx, o + p, s * inv * (rd(dy, o + p) - a1 - xh * a2));
    }
  }
  for (int64_t ch = 0; ch < C; ch++) {
    if (ds) wr(ds, ch, sum_s[ch]);
    if (db) wr(db, ch, sum_b[ch]);
  }
  ic_buffer_release(buf);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0},
    {"Scale", IC_SLOT_OPTIONAL},
    {"Bias", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED},
    {"SavedMean", 0},
    {"SavedVariance", 0},
    {"Y@GRAD", 0},
};
static const ic_slotdef outputs[] = {
    {"X@GRAD", IC_SLOT_OPTIONAL},
    {"Scale@GRAD", IC_SLOT_OPTIONAL},
    {"Bias@GRAD", IC_SLOT_OPTIONAL},
};

const ic_opdef ic_op_instance_norm_grad = {
    .name = "instance_norm_grad", .n_inputs = 6, .inputs = inputs, .n_outputs = 3,
    .outputs = outputs, .attrs_size = sizeof(in_grad_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
