/* batch_norm_grad: the gradients of batch_norm (phi BatchNormGradKernel), NCHW or NHWC, any
 * rank >= 2 with channels on axis 1 (or last). Per channel, over its M = N * spatial elements:
 *   training (batch statistics): mean = SavedMean, inv = SavedVariance (the forward saved
 *     1 / sqrt(var + epsilon)), xhat = (x - mean) inv,
 *     Bias@GRAD = sum dy,  Scale@GRAD = sum dy xhat,
 *     X@GRAD = Scale inv / M (M dy - Bias@GRAD - xhat Scale@GRAD);
 *   global statistics (use_global_stats, or is_test without trainable_statistics):
 *     inv = 1 / sqrt(Variance + epsilon), xhat from Mean, X@GRAD = dy Scale inv.
 * Each output is optional; sums run in double. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/batch_norm.h"
#include "kernels/cpu/train.h"

enum { IN_X, IN_SCALE, IN_BIAS, IN_MEAN, IN_VAR, IN_SMEAN, IN_SVAR, IN_DY, IN_RESERVE };
enum { OUT_DX, OUT_DSCALE, OUT_DBIAS };

static ic_status infer(ic_kctx *c) {
  const bn_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *dy = ic_in(c, IN_DY, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim < 2) return ic_kfail_in(c, IN_X, 0, "expected rank >= 2");
  int64_t C = a->nhwc ? x->dims[x->ndim - 1] : x->dims[1];
  if (dy->dtype != x->dtype || !ic_dims_equal(dy->ndim, dy->dims, x->ndim, x->dims)) {
    char d[128];
    return ic_kfail_in(c, IN_DY, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
  }
  const int need[] = {IN_SCALE, a->global_stats ? IN_MEAN : IN_SMEAN,
                      a->global_stats ? IN_VAR : IN_SVAR};
  for (int k = 0; k < 3; k++) {
    const ic_tensor *t = ic_in(c, need[k], 0);
    if (!t) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "input %s is needed (%s statistics)",
                      c->def->inputs[need[k]].name, a->global_stats ? "global" : "batch");
    }
    if (t->dtype != x->dtype || ic_tensor_numel_(t) != C) {
      return ic_kfail_in(c, need[k], 0, "expected %s[%lld], one value per channel",
                         ic_dtype_name(x->dtype), (long long)C);
    }
  }
  if (ic_out(c, OUT_DX, 0)) ic_tensor_set_meta(ic_out(c, OUT_DX, 0), x->dtype, x->ndim, x->dims);
  for (int s = OUT_DSCALE; s <= OUT_DBIAS; s++) {
    if (ic_out(c, s, 0)) ic_tensor_set_meta(ic_out(c, s, 0), x->dtype, 1, &C);
  }
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}
static void put(ic_tensor *t, int64_t i, double v) {
  if (t->dtype == IC_FP32) ((float *)t->data)[i] = (float)v;
  else ((double *)t->data)[i] = v;
}

static ic_status run(ic_kctx *c) {
  const bn_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *scale = ic_in(c, IN_SCALE, 0),
                  *dy = ic_in(c, IN_DY, 0);
  ic_tensor *dx = ic_out(c, OUT_DX, 0), *ds = ic_out(c, OUT_DSCALE, 0),
            *db = ic_out(c, OUT_DBIAS, 0);
  const int64_t C = a->nhwc ? x->dims[x->ndim - 1] : x->dims[1], N = x->dims[0];
  const int64_t total = ic_tensor_numel_(x), S = C ? total / N / C : 0, M = N * S;
  ic_buffer *s = ic_kscratch(c, (size_t)(4 * C + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *mean = s->data, *inv = mean + C, *sum_dy = inv + C, *sum_dyx = sum_dy + C;
  for (int64_t ch = 0; ch < C; ch++) {
    if (a->global_stats) {
      mean[ch] = get(ic_in(c, IN_MEAN, 0), ch);
      inv[ch] = 1.0 / sqrt(get(ic_in(c, IN_VAR, 0), ch) + a->epsilon);
    } else {
      mean[ch] = get(ic_in(c, IN_SMEAN, 0), ch);
      inv[ch] = get(ic_in(c, IN_SVAR, 0), ch);
    }
    sum_dy[ch] = sum_dyx[ch] = 0;
  }
  /* Elements in memory order e = (b * C + ch) * inner + i (NCHW: b the sample, inner the
   * spatial size; NHWC: b the pixel, inner 1), so the channel comes from the loops rather
   * than from two divisions per element; each channel's sums still add in order of e. */
  const int64_t blocks = a->nhwc ? M : N, inner = a->nhwc ? 1 : S;
  for (int64_t b = 0, e = 0; b < blocks; b++) {
    for (int64_t ch = 0; ch < C; ch++) {
      double sdy = sum_dy[ch], sdyx = sum_dyx[ch];
      const double mu = mean[ch], iv = inv[ch];
      for (int64_t i = 0; i < inner; i++, e++) {
        double g = get(dy, e);
        sdy += g;
        sdyx += g * (get(x, e) - mu) * iv;
      }
      sum_dy[ch] = sdy;
      sum_dyx[ch] = sdyx;
    }
  }
  if (dx) {
    for (int64_t b = 0, e = 0; b < blocks; b++) {
      for (int64_t ch = 0; ch < C; ch++) {
        const double sc = get(scale, ch), mu = mean[ch], iv = inv[ch];
        for (int64_t i = 0; i < inner; i++, e++) {
          double g = get(dy, e), v;
          if (a->global_stats) {
            v = g * sc * iv;
          } else {
            double xh = (get(x, e) - mu) * iv;
            v = sc * iv / (double)M * ((double)M * g - sum_dy[ch] - xh * sum_dyx[ch]);
          }
          put(dx, e, v);
        }
      }
    }
  }
  for (int64_t ch = 0; ch < C; ch++) {
    if (ds) put(ds, ch, sum_dyx[ch]);
    if (db) put(db, ch, sum_dy[ch]);
  }
  ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0},
    {"Scale", IC_SLOT_OPTIONAL},
    {"Bias", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
    {"Mean", IC_SLOT_OPTIONAL},
    {"Variance", IC_SLOT_OPTIONAL},
    {"SavedMean", IC_SLOT_OPTIONAL},
    {"SavedVariance", IC_SLOT_OPTIONAL},
    {"Y@GRAD", 0},
    {"ReserveSpace", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED},
    {"MeanOut", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED},     /* Paddle passes the running */
    {"VarianceOut", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED}, /* statistics' outputs too */
};
static const ic_slotdef outputs[] = {
    {"X@GRAD", IC_SLOT_OPTIONAL},
    {"Scale@GRAD", IC_SLOT_OPTIONAL},
    {"Bias@GRAD", IC_SLOT_OPTIONAL},
};

const ic_opdef ic_op_batch_norm_grad = {
    .name = "batch_norm_grad",
    .n_inputs = 11, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(bn_attrs), .parse = ic_batch_norm_parse,
    .infer = infer, .cpu = run,
};
