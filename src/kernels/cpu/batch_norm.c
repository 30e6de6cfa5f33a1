/* batch_norm: per-channel normalization of X (rank 2 to 5, channels at dim 1 for NCHW or at
 * the last dim for NHWC).
 *
 * Inference (is_test && !trainable_statistics, or use_global_stats): the running Mean and
 * Variance normalize; MeanOut/VarianceOut are the same variables as Mean/Variance in the
 * programs Paddle exports, so they share the input buffers and nothing is copied. Paddle's CPU
 * kernel allocates SavedMean/SavedVariance there but never writes them (their contents are
 * garbage), so icore leaves them empty (meta [C], no storage) instead of paying for them.
 *
 * Training: the batch's biased mean and variance over N and the spatial dims normalize;
 * MeanOut = momentum * Mean + (1 - momentum) * batch_mean, VarianceOut likewise with the same
 * biased batch variance; SavedMean = batch mean, SavedVariance = 1 / sqrt(batch_var + eps) (the
 * inverse std the gradient reuses). A batch of one element per channel (N * spatial == 1)
 * copies X to Y and leaves the running statistics alone, with SavedMean/SavedVariance zero.
 *
 * Rounding: statistics, a = scale / sqrt(var + eps) and b = bias - mean * a are computed in
 * double once per call, rounded to X's dtype, and every element is y = x * a + b in X's dtype
 * (the same factoring as Paddle's kernel, which does it all in X's dtype). */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "kernels/cpu/batch_norm.h"
#include "kernels/kernel.h"

enum { IN_X, IN_SCALE, IN_BIAS, IN_MEAN, IN_VAR, IN_MOMENTUM };
enum { OUT_Y, OUT_MEAN, OUT_VAR, OUT_SMEAN, OUT_SVAR, OUT_RESERVE };

static bool same_ci(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    if (toupper((unsigned char)*a) != toupper((unsigned char)*b)) return false;
  }
  return *a == *b;
}

ic_status ic_batch_norm_parse(ic_attr_reader *r, void *attrs) {
  bn_attrs *a = attrs;
  a->epsilon = ic_ar_float(r, "epsilon", (double)1e-5f); /* Paddle's float default */
  a->momentum = ic_ar_float(r, "momentum", (double)0.9f);
  const char *layout = ic_ar_str(r, "data_layout", "NCHW");
  bool is_test = ic_ar_bool(r, "is_test", false);
  bool use_global = ic_ar_bool(r, "use_global_stats", false);
  bool trainable = ic_ar_bool(r, "trainable_statistics", false);
  if (r->st) return r->st;
  /* Paddle's op maker checks the float value against 0.001f. */
  if (!((float)a->epsilon >= 0.0f && (float)a->epsilon <= 0.001f)) {
    return ic_ar_fail(r, "epsilon", "is %g, expected in [0, 0.001]", a->epsilon);
  }
  if (same_ci(layout, "NCHW")) {
    a->nhwc = false;
  } else if (same_ci(layout, "NHWC")) {
    a->nhwc = true;
  } else if (same_ci(layout, "AnyLayout")) {
    /* Paddle's CPU kernel fails the same way ("Unknown storage order"): only its oneDNN
     * kernel accepts AnyLayout. */
    char where[160];
    r->st = ic_err_set(r->err, IC_ERR_UNSUPPORTED,
                       "%s: attribute 'data_layout' is \"%s\": batch_norm runs NCHW or NHWC "
                       "only (Paddle's CPU kernel rejects AnyLayout too)",
                       ic_op_where(r->op, where, sizeof where), layout);
    return r->st;
  } else {
    return ic_ar_fail(r, "data_layout", "is \"%s\", expected \"NCHW\" or \"NHWC\"", layout);
  }
  a->global_stats = (is_test && !trainable) || use_global;
  return IC_OK;
}

static int64_t channels(const bn_attrs *a, const ic_tensor *x) {
  return a->nhwc ? x->dims[x->ndim - 1] : x->dims[1];
}

static ic_status infer(ic_kctx *c) {
  const bn_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim < 2 || x->ndim > 5) return ic_kfail_in(c, IN_X, 0, "expected rank 2 to 5");
  for (int d = 0; d < x->ndim; d++) {
    if (x->dims[d] <= 0) {
      return ic_kfail_in(c, IN_X, 0, "expected every dim > 0 (dim %d is empty)", d);
    }
  }
  int64_t C = channels(a, x);
  const int params[] = {IN_SCALE, IN_BIAS, IN_MEAN, IN_VAR};
  for (size_t k = 0; k < sizeof params / sizeof params[0]; k++) {
    const ic_tensor *t = ic_in(c, params[k], 0);
    if (!t) continue;
    if (t->dtype != x->dtype) {
      return ic_kfail_in(c, params[k], 0, "expected dtype %s like X", ic_dtype_name(x->dtype));
    }
    if (t->ndim != 1 || t->dims[0] != C) {
      return ic_kfail_in(c, params[k], 0, "expected [%lld]: one value per channel of X (%s)",
                         (long long)C, a->nhwc ? "NHWC" : "NCHW");
    }
  }
  const int64_t cdims[1] = {C}, zero[1] = {0};
  ic_tensor_set_meta(ic_out(c, OUT_Y, 0), x->dtype, x->ndim, x->dims);
  if (ic_out(c, OUT_MEAN, 0)) ic_tensor_set_meta(ic_out(c, OUT_MEAN, 0), x->dtype, 1, cdims);
  if (ic_out(c, OUT_VAR, 0)) ic_tensor_set_meta(ic_out(c, OUT_VAR, 0), x->dtype, 1, cdims);
  if (ic_out(c, OUT_SMEAN, 0)) ic_tensor_set_meta(ic_out(c, OUT_SMEAN, 0), x->dtype, 1, cdims);
  if (ic_out(c, OUT_SVAR, 0)) ic_tensor_set_meta(ic_out(c, OUT_SVAR, 0), x->dtype, 1, cdims);
  if (ic_out(c, OUT_RESERVE, 0)) {
    ic_tensor_set_meta(ic_out(c, OUT_RESERVE, 0), x->dtype, 1, zero);
  }
  return IC_OK;
}

/* Batch statistics in double: mean[C] and biased var[C]. Two passes, as Paddle does. */
#define DEFINE_STATS(T, SUF)                                                                \
  static void stats_##SUF(const T *x, int64_t N, int64_t C, int64_t S, bool nhwc,           \
                          double *mean, double *var) {                                      \
    for (int64_t ch = 0; ch < C; ch++) mean[ch] = var[ch] = 0;                              \
    double cnt = (double)N * (double)S;                                                     \
    if (nhwc) {                                                                             \
      for (int64_t r = 0; r < N * S; r++) {                                                 \
        for (int64_t ch = 0; ch < C; ch++) mean[ch] += x[r * C + ch];                       \
      }                                                                                     \
      for (int64_t ch = 0; ch < C; ch++) mean[ch] /= cnt;                                   \
      for (int64_t r = 0; r < N * S; r++) {                                                 \
        for (int64_t ch = 0; ch < C; ch++) {                                                \
          double d = x[r * C + ch] - mean[ch];                                              \
          var[ch] += d * d;                                                                 \
        }                                                                                   \
      }                                                                                     \
    } else {                                                                                \
      for (int64_t n = 0; n < N; n++) {                                                     \
        for (int64_t ch = 0; ch < C; ch++) {                                                \
          const T *p = x + (n * C + ch) * S;                                                \
          double s = 0;                                                                     \
          for (int64_t i = 0; i < S; i++) s += p[i];                                        \
          mean[ch] += s;                                                                    \
        }                                                                                   \
      }                                                                                     \
      for (int64_t ch = 0; ch < C; ch++) mean[ch] /= cnt;                                   \
      for (int64_t n = 0; n < N; n++) {                                                     \
        for (int64_t ch = 0; ch < C; ch++) {                                                \
          const T *p = x + (n * C + ch) * S;                                                \
          double m = mean[ch], s = 0;                                                       \
          for (int64_t i = 0; i < S; i++) s += (p[i] - m) * (p[i] - m);                     \
          var[ch] += s;                                                                     \
        }                                                                                   \
      }                                                                                     \
    }                                                                                       \
    for (int64_t ch = 0; ch < C; ch++) var[ch] /= cnt;                                      \
  }

/* y = x * a[ch] + b[ch] with a and b rounded to T first. */
#define DEFINE_APPLY(T, SUF)                                                                \
  static void apply_##SUF(const T *x, T *y, int64_t N, int64_t C, int64_t S, bool nhwc,     \
                          const double *ad, const double *bd, T *a, T *b, int nt) {         \
    for (int64_t ch = 0; ch < C; ch++) {                                                    \
      a[ch] = (T)ad[ch];                                                                    \
      b[ch] = (T)bd[ch];                                                                    \
    }                                                                                       \
    if (nhwc) {                                                                             \
      _Pragma("omp parallel for num_threads(nt) schedule(static) if (nt > 1)")              \
      for (int64_t r = 0; r < N * S; r++) {                                                 \
        const T *xp = x + r * C;                                                            \
        T *yp = y + r * C;                                                                  \
        for (int64_t ch = 0; ch < C; ch++) yp[ch] = xp[ch] * a[ch] + b[ch];                 \
      }                                                                                     \
    } else {                                                                                \
      _Pragma("omp parallel for num_threads(nt) schedule(static) if (nt > 1)")              \
      for (int64_t q = 0; q < N * C; q++) {                                                 \
        const T *xp = x + q * S;                                                            \
        T *yp = y + q * S;                                                                  \
        const T av = a[q % C], bv = b[q % C];                                               \
        for (int64_t i = 0; i < S; i++) yp[i] = xp[i] * av + bv;                            \
      }                                                                                     \
    }                                                                                       \
  }

DEFINE_STATS(float, f32)
DEFINE_STATS(double, f64)
DEFINE_APPLY(float, f32)
DEFINE_APPLY(double, f64)

static double get(const ic_tensor *t, int64_t i) { return ic_read_f64(t, i); }

static void put(ic_tensor *t, int64_t i, double v) {
  if (t->dtype == IC_FP32) ((float *)t->data)[i] = (float)v;
  else ((double *)t->data)[i] = v;
}

/* Give a SHARE output its own buffer (training writes the statistics). The running
 * statistics are persistable variables of the caller's scope in real programs, and that scope
 * may outlive the executor whose caching allocator would otherwise own their buffers, so
 * those come from the system allocator (a == NULL). */
static ic_status own(ic_kctx *c, ic_tensor *t, ic_allocator *a) {
  return t ? ic_tensor_alloc(t, a, c->err) : IC_OK;
}

static ic_status run(ic_kctx *c) {
  const bn_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *scale = ic_in(c, IN_SCALE, 0),
                  *bias = ic_in(c, IN_BIAS, 0), *rmean = ic_in(c, IN_MEAN, 0),
                  *rvar = ic_in(c, IN_VAR, 0);
  ic_tensor *y = ic_out(c, OUT_Y, 0), *mean_out = ic_out(c, OUT_MEAN, 0),
            *var_out = ic_out(c, OUT_VAR, 0), *saved_mean = ic_out(c, OUT_SMEAN, 0),
            *saved_var = ic_out(c, OUT_SVAR, 0);
  const bool f64 = x->dtype == IC_FP64;
  const int64_t N = x->dims[0], C = channels(a, x);
  const int64_t S = ic_tensor_numel_(x) / N / C;
  const size_t es = ic_dtype_size(x->dtype);
  ic_buffer *scratch = ic_kscratch(c, (size_t)C * (4 * sizeof(double) + 2 * es));
  if (!scratch) return c->err->code;
  double *mean = scratch->data, *var = mean + C, *ad = var + C, *bd = ad + C;
  void *at = bd + C, *bt = (char *)at + (size_t)C * es;
  ic_status st = IC_OK;

  if (a->global_stats) {
    if (mean_out) ic_tensor_share(mean_out, rmean);
    if (var_out) ic_tensor_share(var_out, rvar);
    if (saved_mean) ic_tensor_reset(saved_mean);
    if (saved_var) ic_tensor_reset(saved_var);
    for (int64_t ch = 0; ch < C; ch++) {
      mean[ch] = get(rmean, ch);
      var[ch] = get(rvar, ch);
    }
  } else {
    if ((st = own(c, mean_out, NULL)) || (st = own(c, var_out, NULL)) ||
        (st = own(c, saved_mean, c->env->alloc)) || (st = own(c, saved_var, c->env->alloc))) {
      goto done;
    }
    if (N * S == 1) {
      /* Paddle skips normalization for a single element per channel: y = x, running
       * statistics untouched, saved statistics zero. */
      memcpy(y->data, x->data, (size_t)C * es);
      for (int64_t ch = 0; ch < C; ch++) {
        if (mean_out) put(mean_out, ch, get(rmean, ch));
        if (var_out) put(var_out, ch, get(rvar, ch));
        if (saved_mean) put(saved_mean, ch, 0);
        if (saved_var) put(saved_var, ch, 0);
      }
      goto done;
    }
    if (f64) stats_f64(x->data, N, C, S, a->nhwc, mean, var);
    else stats_f32(x->data, N, C, S, a->nhwc, mean, var);
    for (int64_t ch = 0; ch < C; ch++) {
      if (mean_out) put(mean_out, ch, get(rmean, ch) * a->momentum + mean[ch] * (1 - a->momentum));
      if (var_out) put(var_out, ch, get(rvar, ch) * a->momentum + var[ch] * (1 - a->momentum));
      if (saved_mean) put(saved_mean, ch, mean[ch]);
      if (saved_var) put(saved_var, ch, 1.0 / sqrt(var[ch] + a->epsilon));
    }
  }
  for (int64_t ch = 0; ch < C; ch++) {
    double inv = 1.0 / sqrt(var[ch] + a->epsilon);
    double s = scale ? get(scale, ch) : 1.0, b = bias ? get(bias, ch) : 0.0;
    ad[ch] = s * inv;
    bd[ch] = b - mean[ch] * ad[ch];
  }
  /* Elementwise: the kernel's threads share the planes (rows in NHWC), the same bits. */
  const int nt = N * C * S >= 65536 ? ic_omp_threads(c->env) : 1;
  if (f64) apply_f64(x->data, y->data, N, C, S, a->nhwc, ad, bd, at, bt, nt);
  else apply_f32(x->data, y->data, N, C, S, a->nhwc, ad, bd, at, bt, nt);
done:
  ic_buffer_release(scratch);
  return st;
}

static const ic_slotdef inputs[] = {
    {"X", 0},
    {"Scale", IC_SLOT_OPTIONAL},
    {"Bias", IC_SLOT_OPTIONAL},
    {"Mean", 0},
    {"Variance", 0},
    {"MomentumTensor", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED}, /* Paddle's phi kernel ignores it */
};
static const ic_slotdef outputs[] = {
    {"Y", 0},
    {"MeanOut", IC_SLOT_OPTIONAL | IC_SLOT_SHARE},
    {"VarianceOut", IC_SLOT_OPTIONAL | IC_SLOT_SHARE},
    {"SavedMean", IC_SLOT_OPTIONAL | IC_SLOT_SHARE},
    {"SavedVariance", IC_SLOT_OPTIONAL | IC_SLOT_SHARE},
    {"ReserveSpace", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER}, /* cuDNN only; empty on CPU */
};

/* With global statistics (is_test and not trainable_statistics, or use_global_stats)
 * Paddle passes Mean and Variance through: MeanOut and VarianceOut, which inference
 * programs name as the same persistables, are left unchanged. */
static bool output_unchanged(const ic_op *op, size_t k) {
  if (k != 1 && k != 2) return false; /* MeanOut, VarianceOut */
  const ic_attr *t = ic_op_attr(op, "is_test"), *g = ic_op_attr(op, "use_global_stats"),
                *tr = ic_op_attr(op, "trainable_statistics");
  bool is_test = t && t->i, global = g && g->i, trainable = tr && tr->i;
  return (is_test && !trainable) || global;
}

const ic_opdef ic_op_batch_norm = {
    .name = "batch_norm",
    .n_inputs = 6, .inputs = inputs,
    .n_outputs = 6, .outputs = outputs,
    .attrs_size = sizeof(bn_attrs), .parse = ic_batch_norm_parse,
    .infer = infer, .cpu = run, .output_unchanged = output_unchanged,
};
