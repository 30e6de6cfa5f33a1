/* data_norm (PaddleRec's CTR models; paddle/fluid/operators/data_norm_op.cc): X [N, C]
 * normalized by running statistics kept as parameters, BatchSize, BatchSum and BatchSquareSum
 * [C]:
 *   Means = BatchSum / BatchSize,   Scales = sqrt(BatchSize / BatchSquareSum),
 *   Y = (X - Means) * Scales.
 * enable_scale_and_shift multiplies by scale_w [C] and adds bias [C]; without slot_dim as
 * Paddle folds them, Y = X * (Scales * scale_w) + (bias - Means * Scales * scale_w), with it
 * as ((X - Means) * Scales) * scale_w + bias. slot_dim > 0 reads each row as slots of
 * slot_dim columns whose first is a show count: a slot whose show is within 1e-7 of zero
 * gives zeros. Y keeps X's LoD; Means and Scales [C] are written when present. The
 * statistics' update is data_norm_grad's (training), which icore does not have.
 * float32 or float64, the statistics of X's dtype. */
#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_SIZE, IN_SUM, IN_SQSUM, IN_SCALE_W, IN_BIAS };
enum { OUT_Y, OUT_MEANS, OUT_SCALES };

typedef struct dn_attrs {
  int64_t slot_dim;
  bool shift;
} dn_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  dn_attrs *a = attrs;
  const double eps = ic_ar_float(r, "epsilon", 1e-4);
  a->slot_dim = ic_ar_int(r, "slot_dim", -1);
  a->shift = ic_ar_bool(r, "enable_scale_and_shift", false);
  (void)ic_ar_float(r, "summary_decay_rate", 0.9999999);
  (void)ic_ar_bool(r, "sync_stats", false);
  const char *layout = ic_ar_str(r, "data_layout", "NCHW");
  if (r->st) return r->st;
  if (!(eps >= 0.0 && eps <= 0.001)) {
    return ic_ar_fail(r, "epsilon", "is %g, expected a value in [0, 0.001]", eps);
  }
  if (strcmp(layout, "NCHW") && strcmp(layout, "NHWC") && strcmp(layout, "AnyLayout")) {
    return ic_ar_fail(r, "data_layout", "is \"%s\", expected NCHW or NHWC", layout);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const dn_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 [batch, channels]");
  const int64_t C = x->dims[1];
  for (size_t s = IN_SIZE; s <= IN_BIAS; s++) {
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
  ic_tensor *y = ic_out(c, OUT_Y, 0);
  ic_tensor_set_meta(y, x->dtype, 2, x->dims);
  for (size_t o = OUT_MEANS; o <= OUT_SCALES; o++) {
    ic_tensor *t = ic_out(c, o, 0);
    if (t) ic_tensor_set_meta(t, x->dtype, 1, &C);
  }
  return ic_kset_lod(c, y, x->lod ? ic_lod_clone(x->lod) : NULL, x->lod != NULL);
}

#define DEFINE_DN(T, SUF, SQRT)                                                                \
  static void dn_##SUF(const dn_attrs *a, const T *x, const T *bs, const T *sum, const T *sq,  \
                       const T *w, const T *b, T *y, T *m, T *s, int64_t N, int64_t C) {       \
    for (int64_t j = 0; j < C; j++) {                                                          \
      m[j] = sum[j] / bs[j];                                                                   \
      s[j] = SQRT(bs[j] / sq[j]);                                                              \
    }                                                                                          \
    const T tiny = (T)1e-7f;                                                                   \
    for (int64_t i = 0; i < N; i++, x += C, y += C) {                                          \
      if (a->slot_dim > 0) {                                                                   \
        for (int64_t k = 0; k < C; k += a->slot_dim) {                                         \
          const bool empty = x[k] > -tiny && x[k] < tiny;                                      \
          for (int64_t j = k; j < k + a->slot_dim; j++) {                                      \
            y[j] = empty ? (T)0 : a->shift ? ((x[j] - m[j]) * s[j]) * w[j] + b[j]              \
                                           : (x[j] - m[j]) * s[j];                             \
          }                                                                                    \
        }                                                                                      \
      } else if (a->shift) {                                                                   \
        for (int64_t j = 0; j < C; j++) {                                                      \
          const T ns = s[j] * w[j], nb = b[j] - m[j] * s[j] * w[j];                            \
          y[j] = x[j] * ns + nb;                                                               \
        }                                                                                      \
      } else {                                                                                 \
        for (int64_t j = 0; j < C; j++) y[j] = (x[j] - m[j]) * s[j];                           \
      }                                                                                        \
    }                                                                                          \
  }
DEFINE_DN(float, f32, sqrtf)
DEFINE_DN(double, f64, sqrt)

static ic_status run(ic_kctx *c) {
  const dn_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  const ic_tensor *w = ic_in(c, IN_SCALE_W, 0), *b = ic_in(c, IN_BIAS, 0);
  ic_tensor *y = ic_out(c, OUT_Y, 0), *mo = ic_out(c, OUT_MEANS, 0), *so = ic_out(c, OUT_SCALES, 0);
  const int64_t N = x->dims[0], C = x->dims[1];
  const size_t es = ic_dtype_size(x->dtype);
  ic_buffer *sb = NULL;
  void *m = mo ? mo->data : NULL, *s = so ? so->data : NULL;
  if (!m || !s) {
    sb = ic_kscratch(c, 2 * (size_t)C * es + es);
    if (!sb) return c->err->code;
    if (!m) m = sb->data;
    if (!s) s = (char *)sb->data + (size_t)C * es;
  }
  const void *bs = ic_in(c, IN_SIZE, 0)->data, *sum = ic_in(c, IN_SUM, 0)->data;
  const void *sq = ic_in(c, IN_SQSUM, 0)->data;
  if (x->dtype == IC_FP64) {
    dn_f64(a, x->data, bs, sum, sq, w ? w->data : NULL, b ? b->data : NULL, y->data, m, s, N, C);
  } else {
    dn_f32(a, x->data, bs, sum, sq, w ? w->data : NULL, b ? b->data : NULL, y->data, m, s, N, C);
  }
  if (sb) ic_buffer_release(sb);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0},
                                    {"BatchSize", 0},
                                    {"BatchSum", 0},
                                    {"BatchSquareSum", 0},
                                    {"scale_w", IC_SLOT_OPTIONAL},
                                    {"bias", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {
    {"Y", 0}, {"Means", IC_SLOT_OPTIONAL}, {"Scales", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_data_norm = {
    .name = "data_norm",
    .n_inputs = 6, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(dn_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
