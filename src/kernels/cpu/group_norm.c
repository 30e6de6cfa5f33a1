/* group_norm, as paddle/phi/infermeta/ternary.cc GroupNormInferMeta and
 * paddle/phi/kernels/cpu/group_norm_kernel.cc: the C channels of X [N, C, ...] (data_layout
 * NCHW) or [N, ..., C] (NHWC) form `groups` groups of G = (C - 1) / groups + 1 consecutive
 * channels (the last ones possibly fewer); each image's group is normalized by its mean and
 * variance (E[x^2] - mean^2, at least 0):
 *   Y = (X - mean) / sqrt(var + epsilon) * Scale[c] + Bias[c]
 * with Scale and Bias optional ([C]). Mean and Variance are [N, groups]. Statistics are
 * accumulated in double; every element is rounded once to X's dtype. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/group_norm.h"

enum { IN_X = IC_GN_X, IN_SCALE = IC_GN_SCALE, IN_BIAS = IC_GN_BIAS };
enum { OUT_Y = IC_GN_Y, OUT_MEAN = IC_GN_MEAN, OUT_VAR = IC_GN_VAR };

ic_status ic_group_norm_parse(ic_attr_reader *r, void *attrs) {
  gn_attrs *a = attrs;
  a->epsilon = ic_ar_float(r, "epsilon", (double)1e-5f);
  a->groups = ic_ar_int(r, "groups", -1);
  const char *f = ic_ar_str(r, "data_layout", "NCHW");
  if (r->st) return r->st;
  if (a->groups < 1) return ic_ar_fail(r, "groups", "is %lld, expected >= 1", (long long)a->groups);
  a->nhwc = !strcmp(f, "NHWC");
  if (!a->nhwc && strcmp(f, "NCHW") && strcmp(f, "AnyLayout")) {
    return ic_ar_fail(r, "data_layout", "is \"%s\", expected NCHW or NHWC", f);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const gn_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim < 2) return ic_kfail_in(c, IN_X, 0, "expected rank >= 2 ([N, C, ...])");
  const int64_t C = ic_gn_channels(a, x);
  if (a->groups > C) {
    return ic_kfail_in(c, IN_X, 0, "has %lld channels, fewer than attribute 'groups' %lld",
                       (long long)C, (long long)a->groups);
  }
  for (size_t s = IN_SCALE; s <= IN_BIAS; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t && (t->dtype != x->dtype || ic_numel(t->ndim, t->dims) != C)) {
      return ic_kfail_in(c, s, 0, "expected %s with %lld elements (one per channel)",
                         ic_dtype_name(x->dtype), (long long)C);
    }
  }
  ic_tensor_set_meta(ic_out(c, OUT_Y, 0), x->dtype, x->ndim, x->dims);
  int64_t md[2] = {x->dims[0], a->groups};
  if (ic_out(c, OUT_MEAN, 0)) ic_tensor_set_meta(ic_out(c, OUT_MEAN, 0), x->dtype, 2, md);
  if (ic_out(c, OUT_VAR, 0)) ic_tensor_set_meta(ic_out(c, OUT_VAR, 0), x->dtype, 2, md);
  return IC_OK;
}

#define GN(T)                                                                                \
  do {                                                                                       \
    const T *xp = x->data, *sp = sc ? sc->data : NULL, *bp = bi ? bi->data : NULL;           \
    T *yp = y->data, *mp = mo ? mo->data : NULL, *vp = vo ? vo->data : NULL;                 \
    for (int64_t n = 0; n < N; n++)                                                          \
      for (int64_t gi = 0; gi < a->groups; gi++) {                                           \
        const int64_t c0 = gi * G, c1 = c0 + G < C ? c0 + G : C;                             \
        double s = 0, s2 = 0;                                                                \
        for (int64_t ch = c0; ch < c1; ch++)                                                 \
          for (int64_t p = 0; p < S; p++) {                                                  \
            double v = xp[at(n, ch, p)];                                                     \
            s += v, s2 += v * v;                                                             \
          }                                                                                  \
        const double cnt = (double)((c1 > c0 ? c1 - c0 : 0) * S);                            \
        const double mean = cnt > 0 ? s / cnt : 0, m2 = cnt > 0 ? s2 / cnt : 0;              \
        double var = m2 - mean * mean;                                                       \
        if (var < 0) var = 0;                                                                \
        const double inv = 1.0 / sqrt(var + a->epsilon);                                     \
        if (mp) mp[n * a->groups + gi] = (T)mean;                                            \
        if (vp) vp[n * a->groups + gi] = (T)var;                                             \
        for (int64_t ch = c0; ch < c1; ch++) {                                               \
          const double k = inv * (sp ? (double)sp[ch] : 1.0), b = bp ? (double)bp[ch] : 0.0; \
          for (int64_t p = 0; p < S; p++) {                                                  \
            const int64_t q = at(n, ch, p);                                                  \
            yp[q] = (T)(((double)xp[q] - mean) * k + b);                                     \
          }                                                                                  \
        }                                                                                    \
      }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const gn_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *sc = ic_in(c, IN_SCALE, 0), *bi = ic_in(c, IN_BIAS, 0);
  ic_tensor *y = ic_out(c, OUT_Y, 0), *mo = ic_out(c, OUT_MEAN, 0), *vo = ic_out(c, OUT_VAR, 0);
  const int64_t N = x->dims[0], C = ic_gn_channels(a, x);
  const int64_t S = C ? ic_numel(x->ndim, x->dims) / (N ? N : 1) / C : 0;
  const int64_t G = (C - 1) / a->groups + 1;
  const bool nhwc = a->nhwc;
#define at(n, ch, p) (nhwc ? ((n) * S + (p)) * C + (ch) : ((n) * C + (ch)) * S + (p))
  if (x->dtype == IC_FP64) GN(double);
  else GN(float);
#undef at
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0},
    {"Scale", IC_SLOT_OPTIONAL},
    {"Bias", IC_SLOT_OPTIONAL},
};
static const ic_slotdef outputs[] = {
    {"Y", 0},
    {"Mean", IC_SLOT_OPTIONAL},
    {"Variance", IC_SLOT_OPTIONAL},
};

const ic_opdef ic_op_group_norm = {
    .name = "group_norm",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(gn_attrs), .parse = ic_group_norm_parse,
    .infer = infer, .cpu = run,
};
