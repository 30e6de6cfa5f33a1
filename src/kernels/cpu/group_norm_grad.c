/* group_norm_grad: the gradients of group_norm. Per image and group of M elements (G
 * channels by the spatial size), with xh = (X - Mean) / sqrt(Variance + epsilon) and
 * g = Y@GRAD * Scale[c] (Scale 1 when absent),
 *   X@GRAD     = (g - mean(g) - xh * mean(g * xh)) / sqrt(Variance + epsilon),
 *   Scale@GRAD = sum over images and elements of Y@GRAD * xh,   Bias@GRAD = sum of Y@GRAD.
 * Paddle's kernel recovers xh from Y, Scale and Bias ((Y - Bias) / Scale); icore reads X,
 * which Paddle's op also passes: the same values, except that a channel whose Scale is 0
 * still gets its Scale@GRAD here. Computed in double, rounded once. Inputs X, Scale, Bias
 * (unused), Y (unused), Mean, Variance, Y@GRAD; outputs X@GRAD, Scale@GRAD, Bias@GRAD (each
 * optional); group_norm's attributes. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/group_norm.h"
#include "kernels/cpu/train.h"

enum { IN_X, IN_SCALE, IN_BIAS, IN_Y, IN_MEAN, IN_VAR, IN_DY };
enum { OUT_DX, OUT_DSCALE, OUT_DBIAS };

static ic_status infer(ic_kctx *c) {
  const gn_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if (x->ndim < 2) return ic_kfail_in(c, IN_X, 0, "expected rank >= 2 ([N, C, ...])");
  const int64_t C = ic_gn_channels(a, x), NG = x->dims[0] * a->groups;
  if (a->groups > C) {
    return ic_kfail_in(c, IN_X, 0, "has %lld channels, fewer than groups %lld", (long long)C,
                       (long long)a->groups);
  }
  const int64_t want[7] = {0, C, C, 0, NG, NG, 0};
  for (size_t s = IN_SCALE; s <= IN_VAR; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (!t || s == IN_Y) continue;
    if (t->dtype != x->dtype || ic_numel(t->ndim, t->dims) != want[s]) {
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
  const gn_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *sc = ic_in(c, IN_SCALE, 0),
                  *mean = ic_in(c, IN_MEAN, 0), *var = ic_in(c, IN_VAR, 0),
                  *dy = ic_in(c, IN_DY, 0);
  ic_tensor *dx = ic_out(c, OUT_DX, 0), *ds = ic_out(c, OUT_DSCALE, 0),
            *db = ic_out(c, OUT_DBIAS, 0);
  const int64_t N = x->dims[0], C = ic_gn_channels(a, x), groups = a->groups;
  const int64_t S = C ? ic_numel(x->ndim, x->dims) / N / C : 0, G = (C - 1) / groups + 1;
  ic_buffer *buf = ic_kscratch(c, (size_t)(2 * C + 1) * sizeof(double));
  if (!buf) return c->err->code;
  double *sum_s = buf->data, *sum_b = sum_s + C;
  memset(sum_s, 0, (size_t)(2 * C) * sizeof(double));
  /* element (n, ch, p) of X */
#define AT(n, ch, p) (a->nhwc ? ((n) * S + (p)) * C + (ch) : ((n) * C + (ch)) * S + (p))
  for (int64_t n = 0; n < N; n++) {
    for (int64_t gi = 0; gi < groups; gi++) {
      const int64_t c0 = gi * G, c1 = c0 + G < C ? c0 + G : C;
      if (c0 >= C) continue;
      const double m = rd(mean, n * groups + gi);
      const double inv = 1.0 / sqrt(rd(var, n * groups + gi) + a->epsilon);
      double sg = 0, sgx = 0;
      for (int64_t ch = c0; ch < c1; ch++) {
        const double s = sc ? rd(sc, ch) : 1.0;
        for (int64_t p = 0; p < S; p++) {
          const int64_t e = AT(n, ch, p);
          const double d = rd(dy, e), xh = (rd(x, e) - m) * inv;
          sg += d * s;
          sgx += d * s * xh;
          sum_s[ch] += d * xh;
          sum_b[ch] += d;
        }
      }
      if (!dx) continue;
      const double M = (double)((c1 - c0) * S), a1 = M ? sg / M : 0, a2 = M ? sgx / M : 0;
      for (int64_t ch = c0; ch < c1; ch++) {
        const double s = sc ? rd(sc, ch) : 1.0;
        for (int64_t p = 0; p < S; p++) {
          const int64_t e = AT(n, ch, p);
          const double xh = (rd(x, e) - m) * inv;
          wr(dx, e, inv * (rd(dy, e) * s - a1 - xh * a2));
        }
      }
    }
  }
#undef AT
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
    {"Y", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED},
    {"Mean", 0},
    {"Variance", 0},
    {"Y@GRAD", 0},
};
static const ic_slotdef outputs[] = {
    {"X@GRAD", IC_SLOT_OPTIONAL},
    {"Scale@GRAD", IC_SLOT_OPTIONAL},
    {"Bias@GRAD", IC_SLOT_OPTIONAL},
};

const ic_opdef ic_op_group_norm_grad = {
    .name = "group_norm_grad", .n_inputs = 7, .inputs = inputs, .n_outputs = 3,
    .outputs = outputs, .attrs_size = sizeof(gn_attrs), .parse = ic_group_norm_parse,
    .infer = infer, .cpu = run,
};
