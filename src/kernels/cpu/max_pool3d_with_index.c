/* max_pool3d_with_index: max pooling of NCDHW X that also returns where each maximum was
 * (paddle/phi/kernels/funcs/pooling.cc MaxPool3dWithIndexFunctor, MaxPoolWithIndexInferMeta).
 *
 * Out and Mask (int32) are [N, C, Do, Ho, Wo]; Mask holds the flat (d * H + h) * W + w of the
 * maximum in its channel volume (-1 when the window is empty), the first one on ties.
 * global_pooling: the window is the whole volume, paddings 0. adaptive: Do, Ho, Wo = ksize and
 * window i of an axis of size n covers [floor(i * n / o), ceil((i + 1) * n / o)). Otherwise
 * Do = (D - kd + 2 * pd) / sd + 1 (rounded up under ceil_mode) and window i covers
 * [i * sd - pd, i * sd - pd + kd) clipped to the volume; padding never wins, and a window that
 * holds no input gives -FLT_MAX (in X's dtype) and index -1, as in Paddle. */
#include <float.h>
#include <string.h>

#include "kernels/kernel.h"

typedef struct mpi3_attrs {
  int64_t k[3], s[3], p[3];
  bool global, adaptive, ceil_mode;
} mpi3_attrs;

static const char *const k_axis[3] = {"depth", "height", "width"};

static ic_status triple(ic_attr_reader *r, const char *name, bool required, int64_t dflt,
                        int64_t *out) {
  const int64_t *v = NULL;
  size_t n = 0;
  if (!ic_ar_ints(r, name, required, &v, &n)) {
    out[0] = out[1] = out[2] = dflt;
    return r->st;
  }
  if (n != 3) return ic_ar_fail(r, name, "has %zu values, expected 3 (depth, height, width)", n);
  memcpy(out, v, 3 * sizeof *v);
  return IC_OK;
}

static ic_status parse(ic_attr_reader *r, void *attrs) {
  mpi3_attrs *a = attrs;
  a->global = ic_ar_bool(r, "global_pooling", false);
  a->adaptive = ic_ar_bool(r, "adaptive", false);
  a->ceil_mode = ic_ar_bool(r, "ceil_mode", false);
  if (r->st || triple(r, "ksize", true, 0, a->k) || triple(r, "strides", false, 1, a->s) ||
      triple(r, "paddings", false, 0, a->p)) {
    return r->st;
  }
  for (int i = 0; i < 3; i++) {
    if (!a->global && a->k[i] <= 0) {
      return ic_ar_fail(r, "ksize", "holds %lld, expected > 0", (long long)a->k[i]);
    }
    if (!a->global && !a->adaptive && a->s[i] <= 0) {
      return ic_ar_fail(r, "strides", "holds %lld, expected > 0", (long long)a->s[i]);
    }
    if (a->p[i] < 0) return ic_ar_fail(r, "paddings", "holds %lld, expected >= 0", (long long)a->p[i]);
  }
  return IC_OK;
}

/* Window sizes, paddings and output sizes for X's volume. */
static ic_status geom(ic_kctx *c, int64_t *k, int64_t *p, int64_t *o) {
  const mpi3_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  for (int i = 0; i < 3; i++) {
    const int64_t n = x->dims[2 + i];
    k[i] = a->global ? n : a->k[i];
    p[i] = a->global ? 0 : a->p[i];
    if (a->adaptive) {
      o[i] = k[i];
      continue;
    }
    const int64_t span = n - k[i] + 2 * p[i];
    o[i] = (a->ceil_mode ? span + a->s[i] - 1 : span) / a->s[i] + 1; /* C++'s truncation */
    if (o[i] <= 0) {
      return ic_kfail_in(c, 0, 0, "has %s %lld, too small for ksize %lld with paddings %lld: "
                         "no output", k_axis[i], (long long)n, (long long)k[i], (long long)p[i]);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 5) return ic_kfail_in(c, 0, 0, "expected rank 5 (NCDHW)");
  int64_t k[3], p[3], o[3];
  if ((st = geom(c, k, p, o))) return st;
  const int64_t d[5] = {x->dims[0], x->dims[1], o[0], o[1], o[2]};
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 5, d);
  ic_tensor_set_meta(ic_out(c, 1, 0), IC_INT32, 5, d);
  return IC_OK;
}

static void window(const mpi3_attrs *a, int ax, int64_t i, int64_t n, int64_t o,
                   const int64_t *k, const int64_t *p, int64_t *lo, int64_t *hi) {
  if (a->adaptive) {
    *lo = i * n / o;
    *hi = ((i + 1) * n + o - 1) / o;
    return;
  }
  const int64_t s = i * a->s[ax] - p[ax];
  *hi = s + k[ax] < n ? s + k[ax] : n;
  *lo = s > 0 ? s : 0;
}

#define POOL(T)                                                                           \
  do {                                                                                    \
    const T *in = (const T *)x->data + pl * vol;                                          \
    T *ov = (T *)out->data + pl * ovol;                                                   \
    for (int64_t i = 0; i < o[0]; i++) {                                                  \
      int64_t d0, d1;                                                                     \
      window(a, 0, i, D, o[0], k, p, &d0, &d1);                                           \
      for (int64_t j = 0; j < o[1]; j++) {                                                \
        int64_t h0, h1;                                                                   \
        window(a, 1, j, H, o[1], k, p, &h0, &h1);                                         \
        for (int64_t l = 0; l < o[2]; l++) {                                              \
          int64_t w0, w1;                                                                 \
          window(a, 2, l, W, o[2], k, p, &w0, &w1);                                       \
          T best = (T)-FLT_MAX;                                                           \
          int64_t at = -1;                                                                \
          for (int64_t d = d0; d < d1; d++) {                                             \
            for (int64_t h = h0; h < h1; h++) {                                           \
              for (int64_t w = w0; w < w1; w++) {                                         \
                const int64_t q = (d * H + h) * W + w;                                    \
                if (best < in[q]) best = in[q], at = q;                                   \
              }                                                                           \
            }                                                                             \
          }                                                                               \
          const int64_t r = (i * o[1] + j) * o[2] + l;                                    \
          ov[r] = best;                                                                   \
          mv[r] = (int32_t)at;                                                            \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
  } while (0)

static ic_status run(ic_kctx *c) {
  const mpi3_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0), *mask = ic_out(c, 1, 0);
  int64_t k[3], p[3], o[3];
  ic_status st = geom(c, k, p, o);
  if (st) return st;
  const int64_t D = x->dims[2], H = x->dims[3], W = x->dims[4], planes = x->dims[0] * x->dims[1];
  const int64_t vol = D * H * W, ovol = o[0] * o[1] * o[2];
  if (vol > INT32_MAX) return ic_kfail_in(c, 0, 0, "has a volume too large for int32 Mask");
  for (int64_t pl = 0; pl < planes; pl++) {
    int32_t *mv = (int32_t *)mask->data + pl * ovol;
    if (x->dtype == IC_FP32) POOL(float);
    else POOL(double);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"Mask", 0}};

const ic_opdef ic_op_max_pool3d_with_index = {
    .name = "max_pool3d_with_index",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(mpi3_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
