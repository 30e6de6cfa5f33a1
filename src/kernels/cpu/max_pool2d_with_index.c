/* max_pool2d_with_index: max pooling of NCHW X that also returns where each maximum was
 * (paddle/phi/kernels/funcs/pooling.cc MaxPool2dWithIndexFunctor, MaxPoolWithIndexInferMeta).
 *
 * Out and Mask (int32) are [N, C, Ho, Wo]; Mask holds the flat h * W + w of the maximum in its
 * channel plane (-1 when the window is empty), the first one on ties. global_pooling: the
 * window is the whole map, paddings 0. adaptive: Ho, Wo = ksize and window i of an axis of
 * size n covers [floor(i * n / o), ceil((i + 1) * n / o)). Otherwise Ho = (H - kh + 2 * ph) /
 * sh + 1 (rounded up under ceil_mode) and window i covers [i * sh - ph, i * sh - ph + kh)
 * clipped to the map; padding never wins, and a window that holds no input gives -FLT_MAX
 * (in X's dtype) and index -1, as in Paddle. */
#include <float.h>
#include <string.h>

#include "kernels/kernel.h"

typedef struct mpi_attrs {
  int64_t k[2], s[2], p[2];
  bool global, adaptive, ceil_mode;
} mpi_attrs;

static ic_status pair(ic_attr_reader *r, const char *name, bool required, int64_t dflt,
                      int64_t *out) {
  const int64_t *v = NULL;
  size_t n = 0;
  if (!ic_ar_ints(r, name, required, &v, &n)) {
    out[0] = out[1] = dflt;
    return r->st;
  }
  if (n != 2) return ic_ar_fail(r, name, "has %zu values, expected 2 (height, width)", n);
  out[0] = v[0], out[1] = v[1];
  return IC_OK;
}

static ic_status parse(ic_attr_reader *r, void *attrs) {
  mpi_attrs *a = attrs;
  a->global = ic_ar_bool(r, "global_pooling", false);
  a->adaptive = ic_ar_bool(r, "adaptive", false);
  a->ceil_mode = ic_ar_bool(r, "ceil_mode", false);
  if (r->st || pair(r, "ksize", true, 0, a->k) || pair(r, "strides", false, 1, a->s) ||
      pair(r, "paddings", false, 0, a->p)) {
    return r->st;
  }
  for (int i = 0; i < 2; i++) {
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

/* Window sizes, paddings and output sizes for X's map. */
static ic_status geom(ic_kctx *c, int64_t *k, int64_t *p, int64_t *o) {
  const mpi_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  for (int i = 0; i < 2; i++) {
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
      return ic_kfail_in(c, 0, 0,
                         "has %s %lld, too small for ksize %lld with paddings %lld: no output",
                         i ? "width" : "height", (long long)n, (long long)k[i], (long long)p[i]);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4 (NCHW)");
  int64_t k[2], p[2], o[2];
  if ((st = geom(c, k, p, o))) return st;
  const int64_t d[4] = {x->dims[0], x->dims[1], o[0], o[1]};
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, d);
  ic_tensor_set_meta(ic_out(c, 1, 0), IC_INT32, 4, d);
  return IC_OK;
}

static void window(const mpi_attrs *a, int ax, int64_t i, int64_t n, int64_t o, const int64_t *k,
                   const int64_t *p, int64_t *lo, int64_t *hi) {
  if (a->adaptive) {
    *lo = i * n / o;
    *hi = ((i + 1) * n + o - 1) / o;
    return;
  }
  const int64_t s = i * a->s[ax] - p[ax];
  *hi = s + k[ax] < n ? s + k[ax] : n;
  *lo = s > 0 ? s : 0;
}

#define POOL(T)                                                                                \
  do {                                                                                         \
    const T *in = (const T *)x->data + pl * H * W;                                             \
    T *ov = (T *)out->data + pl * o[0] * o[1];                                                 \
    for (int64_t i = 0; i < o[0]; i++) {                                                       \
      int64_t h0, h1;                                                                          \
      window(a, 0, i, H, o[0], k, p, &h0, &h1);                                                \
      for (int64_t j = 0; j < o[1]; j++) {                                                     \
        int64_t w0, w1;                                                                        \
        window(a, 1, j, W, o[1], k, p, &w0, &w1);                                              \
        T best = (T)-FLT_MAX;                                                                  \
        int64_t at = -1;                                                                       \
        for (int64_t h = h0; h < h1; h++) {                                                    \
          for (int64_t w = w0; w < w1; w++) {                                                  \
            if (best < in[h * W + w]) best = in[h * W + w], at = h * W + w;                    \
          }                                                                                    \
        }                                                                                      \
        ov[i * o[1] + j] = best;                                                               \
        mv[i * o[1] + j] = (int32_t)at;                                                        \
      }                                                                                        \
    }                                                                                          \
  } while (0)

static ic_status run(ic_kctx *c) {
  const mpi_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0), *mask = ic_out(c, 1, 0);
  int64_t k[2], p[2], o[2];
  ic_status st = geom(c, k, p, o);
  if (st) return st;
  const int64_t H = x->dims[2], W = x->dims[3], planes = x->dims[0] * x->dims[1];
  if (H * W > INT32_MAX) return ic_kfail_in(c, 0, 0, "has a map too large for int32 Mask");
  for (int64_t pl = 0; pl < planes; pl++) {
    int32_t *mv = (int32_t *)mask->data + pl * o[0] * o[1];
    if (x->dtype == IC_FP32) POOL(float);
    else POOL(double);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"Mask", 0}};

const ic_opdef ic_op_max_pool2d_with_index = {
    .name = "max_pool2d_with_index",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(mpi_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
