/* data_norm_grad (paddle/fluid/operators/data_norm_op.cc DataNormGradKernel, CPU): the
 * gradient of data_norm's X and of its affine parameters, and the "gradients" of its
 * statistics, which are this batch's statistics for the optimizer's summary update:
 *   X@GRAD[n, c] = Y@GRAD[n, c] * Scales[c] (* scale_w[c] with enable_scale_and_shift),
 *   bias@GRAD[c] = sum over n of Y@GRAD[n, c],
 *   scale_w@GRAD[c] = sum over n of (X[n, c] - Means[c]) * Scales[c] * Y@GRAD[n, c],
 *   BatchSize@GRAD = N,  BatchSum@GRAD = sum of X,
 *   BatchSquareSum@GRAD = sum of (X - Means)^2 + N * epsilon.
 * With slot_dim > 0 rows are slots of slot_dim columns led by a show count: a slot whose show
 * is within 1e-7 of zero adds nothing to the statistics (nor, under enable_scale_and_shift,
 * to X@GRAD, scale_w@GRAD, bias@GRAD; without it X@GRAD is Y@GRAD * Scales everywhere, as in
 * Paddle); the statistics are then per column: count k, BatchSize@GRAD 1, BatchSum@GRAD the
 * mean, BatchSquareSum@GRAD the mean square deviation + k * epsilon (all 0 where k = 0).
 * X@GRAD has no LoD (as Paddle 2.6.2 gives it). Inputs X [N, C], Y@GRAD (X's dims), Means and Scales [C] (the forward's outputs), scale_w
 * and bias (when enable_scale_and_shift). The outputs BatchSize, BatchSum, BatchSquareSum
 * Paddle's grad maker lists (the statistics themselves) are accepted and left untouched, as
 * Paddle's CPU kernel does. Sums in double; float32, float64. sync_stats is not supported
 * (Paddle's CPU kernel ignores it too). */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_DY, IN_MEANS, IN_SCALES, IN_SCALE_W, IN_BIAS };
enum { OUT_DX, OUT_DSIZE, OUT_DSUM, OUT_DSQ, OUT_DSCALE, OUT_DBIAS };

typedef struct dng_attrs {
  int64_t slot_dim;
  double eps;
  bool shift;
} dng_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  dng_attrs *a = attrs;
  a->eps = (float)ic_ar_float(r, "epsilon", 1e-4);
  a->slot_dim = ic_ar_int(r, "slot_dim", -1);
  a->shift = ic_ar_bool(r, "enable_scale_and_shift", false);
  (void)ic_ar_float(r, "summary_decay_rate", 0.9999999);
  (void)ic_ar_bool(r, "sync_stats", false);
  const char *layout = ic_ar_str(r, "data_layout", "NCHW");
  if (r->st) return r->st;
  if (strcmp(layout, "NCHW") && strcmp(layout, "NHWC") && strcmp(layout, "AnyLayout")) {
    return ic_ar_fail(r, "data_layout", "is \"%s\", expected NCHW or NHWC", layout);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const dng_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *dy = ic_in(c, IN_DY, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 [batch, channels]");
  const int64_t C = x->dims[1];
  if (dy->dtype != x->dtype || !ic_dims_equal(dy->ndim, dy->dims, 2, x->dims)) {
    char d[96];
    return ic_kfail_in(c, IN_DY, 0, "expected %s%s, as X", ic_dtype_name(x->dtype),
                       ic_dims_str(2, x->dims, d, sizeof d));
  }
  for (size_t s = IN_MEANS; s <= IN_BIAS; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (!t) {
      if (s >= IN_SCALE_W && a->shift) {
        return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                        "enable_scale_and_shift is set but input %s is absent",
                        s == IN_SCALE_W ? "scale_w" : "bias");
      }
      continue;
    }
    if (t->dtype != x->dtype || t->ndim != 1 || t->dims[0] != C) {
      return ic_kfail_in(c, s, 0, "expected %s[%lld] (one value per channel of X)",
                         ic_dtype_name(x->dtype), (long long)C);
    }
  }
  if (a->slot_dim > 0 && C % a->slot_dim != 0) {
    return ic_kfail_in(c, IN_X, 0, "has %lld columns, expected a multiple of slot_dim %lld",
                       (long long)C, (long long)a->slot_dim);
  }
  if (!a->shift && (ic_out(c, OUT_DSCALE, 0) || ic_out(c, OUT_DBIAS, 0))) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "scale_w@GRAD or bias@GRAD is written, but "
                    "enable_scale_and_shift is not set");
  }
  ic_tensor *dx = ic_out(c, OUT_DX, 0);
  if (dx) {
    ic_tensor_set_meta(dx, x->dtype, 2, x->dims);
    if (ic_kset_lod(c, dx, NULL, false)) return c->err->code; /* none, as Paddle 2.6.2 */
  }
  for (size_t o = OUT_DSIZE; o <= OUT_DBIAS; o++) {
    ic_tensor *t = ic_out(c, o, 0);
    if (t) ic_tensor_set_meta(t, x->dtype, 1, &C);
  }
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}

static void store(ic_tensor *t, const double *v) {
  if (t) ic_store_acc(t, v);
}

static ic_status run(ic_kctx *c) {
  const dng_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *dy = ic_in(c, IN_DY, 0);
  const ic_tensor *mt = ic_in(c, IN_MEANS, 0), *st = ic_in(c, IN_SCALES, 0);
  const ic_tensor *wt = ic_in(c, IN_SCALE_W, 0);
  const int64_t N = x->dims[0], C = x->dims[1];
  const size_t n = (size_t)(N * C + 5 * C + 1);
  ic_buffer *s = ic_kscratch(c, n * sizeof(double));
  if (!s) return c->err->code;
  double *dx = s->data, *bsz = dx + N * C, *bsum = bsz + C, *bsq = bsum + C;
  double *dsc = bsq + C, *dbi = dsc + C;
  memset(dx, 0, n * sizeof(double));
  const bool slots = a->slot_dim > 0;
  for (int64_t r = 0; r < N; r++) {
    for (int64_t j = 0; j < C; j++) {
      const int64_t k = r * C + j;
      const double show = slots ? get(x, r * C + j - j % a->slot_dim) : 1.0;
      const bool on = !slots || !(show > -1e-7 && show < 1e-7);
      const double g = get(dy, k), xv = get(x, k), m = get(mt, j), sc = get(st, j);
      if (!a->shift) {
        dx[k] = g * sc;
      } else if (on) {
        dx[k] = g * sc * get(wt, j);
        dbi[j] += g;
        dsc[j] += (xv - m) * sc * g;
      }
      if (on) {
        bsz[j] += 1;
        bsum[j] += xv;
        bsq[j] += (xv - m) * (xv - m);
      }
    }
  }
  for (int64_t j = 0; j < C; j++) {
    if (!slots) {
      bsq[j] += bsz[j] * a->eps;
    } else if (bsz[j] >= 1) {
      bsum[j] /= bsz[j];
      bsq[j] = bsq[j] / bsz[j] + bsz[j] * a->eps;
      bsz[j] = 1;
    }
  }
  store(ic_out(c, OUT_DX, 0), dx);
  store(ic_out(c, OUT_DSIZE, 0), bsz);
  store(ic_out(c, OUT_DSUM, 0), bsum);
  store(ic_out(c, OUT_DSQ, 0), bsq);
  store(ic_out(c, OUT_DSCALE, 0), dsc);
  store(ic_out(c, OUT_DBIAS, 0), dbi);
  ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0},
                                    {"Y@GRAD", 0},
                                    {"Means", 0},
                                    {"Scales", 0},
                                    {"scale_w", IC_SLOT_OPTIONAL},
                                    {"bias", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                     {"BatchSize@GRAD", IC_SLOT_OPTIONAL},
                                     {"BatchSum@GRAD", IC_SLOT_OPTIONAL},
                                     {"BatchSquareSum@GRAD", IC_SLOT_OPTIONAL},
                                     {"scale_w@GRAD", IC_SLOT_OPTIONAL},
                                     {"bias@GRAD", IC_SLOT_OPTIONAL},
                                     /* the statistics themselves: left as they are */
                                     {"BatchSize", IC_SLOT_OPTIONAL | IC_SLOT_SHARE},
                                     {"BatchSum", IC_SLOT_OPTIONAL | IC_SLOT_SHARE},
                                     {"BatchSquareSum", IC_SLOT_OPTIONAL | IC_SLOT_SHARE}};

const ic_opdef ic_op_data_norm_grad = {
    .name = "data_norm_grad",
    .n_inputs = 6, .inputs = inputs,
    .n_outputs = 9, .outputs = outputs,
    .attrs_size = sizeof(dng_attrs), .parse = parse,
    .infer = infer, .cpu = run, .flags = IC_OP_LOD,
};
