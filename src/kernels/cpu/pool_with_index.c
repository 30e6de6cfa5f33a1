/* The engine of max_pool2d_with_index and max_pool3d_with_index (pool_with_index.h): a 2-D
 * pooling runs as a 3-D one of depth 1 (window 1, stride 1, no padding on that axis), which
 * gives the same windows, maxima and flat indices. */
#include "kernels/cpu/pool_with_index.h"

#include <float.h>
#include <string.h>

static const char *const k_axis[3] = {"depth", "height", "width"};

static ic_status ints(ic_attr_reader *r, const char *name, bool required, int64_t dflt, int nd,
                      int64_t *out) {
  const int64_t *v = NULL;
  size_t n = 0;
  if (!ic_ar_ints(r, name, required, &v, &n)) {
    for (int i = 0; i < nd; i++) out[i] = dflt;
    return r->st;
  }
  if (n != (size_t)nd) {
    return ic_ar_fail(r, name, "has %zu values, expected %d (%s)", n, nd,
                      nd == 3 ? "depth, height, width" : "height, width");
  }
  memcpy(out, v, (size_t)nd * sizeof *v);
  return IC_OK;
}

ic_status ic_mpi_parse(ic_attr_reader *r, ic_mpi_attrs *a, int nd) {
  a->nd = nd;
  a->global = ic_ar_bool(r, "global_pooling", false);
  a->adaptive = ic_ar_bool(r, "adaptive", false);
  a->ceil_mode = ic_ar_bool(r, "ceil_mode", false);
  if (r->st || ints(r, "ksize", true, 0, nd, a->k) || ints(r, "strides", false, 1, nd, a->s) ||
      ints(r, "paddings", false, 0, nd, a->p)) {
    return r->st;
  }
  for (int i = 0; i < nd; i++) {
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

/* The geometry as 3-D: input sizes n, windows k, strides s, paddings p, output sizes o (a 2-D
 * pooling gets a depth axis of 1 first). */
typedef struct mpi_geom {
  int64_t n[3], k[3], s[3], p[3], o[3];
} mpi_geom;

static ic_status geom(ic_kctx *c, mpi_geom *g) {
  const ic_mpi_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  const int off = 3 - a->nd;
  for (int i = 0; i < off; i++) g->n[i] = g->k[i] = g->s[i] = g->o[i] = 1, g->p[i] = 0;
  for (int j = 0; j < a->nd; j++) {
    const int i = off + j;
    const int64_t n = x->dims[2 + j];
    g->n[i] = n;
    g->k[i] = a->global ? n : a->k[j];
    g->p[i] = a->global ? 0 : a->p[j];
    g->s[i] = a->s[j];
    if (a->adaptive) {
      g->o[i] = g->k[i];
      continue;
    }
    const int64_t span = n - g->k[i] + 2 * g->p[i];
    g->o[i] = (a->ceil_mode ? span + g->s[i] - 1 : span) / g->s[i] + 1; /* C++'s truncation */
    if (g->o[i] <= 0) {
      return ic_kfail_in(c, 0, 0, "has %s %lld, too small for ksize %lld with paddings %lld: "
                         "no output", k_axis[i], (long long)n, (long long)g->k[i],
                         (long long)g->p[i]);
    }
  }
  return IC_OK;
}

ic_status ic_mpi_infer(ic_kctx *c) {
  const ic_mpi_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 2 + a->nd) {
    return ic_kfail_in(c, 0, 0, "expected rank %d (%s)", 2 + a->nd, a->nd == 3 ? "NCDHW" : "NCHW");
  }
  mpi_geom g;
  if ((st = geom(c, &g))) return st;
  int64_t d[5] = {x->dims[0], x->dims[1]};
  memcpy(d + 2, g.o + 3 - a->nd, (size_t)a->nd * sizeof *d);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 2 + a->nd, d);
  ic_tensor_set_meta(ic_out(c, 1, 0), IC_INT32, 2 + a->nd, d);
  return IC_OK;
}

static void window(const ic_mpi_attrs *a, const mpi_geom *g, int ax, int64_t i, int64_t *lo,
                   int64_t *hi) {
  const int64_t n = g->n[ax], o = g->o[ax];
  if (a->adaptive) {
    *lo = i * n / o;
    *hi = ((i + 1) * n + o - 1) / o;
    return;
  }
  const int64_t s = i * g->s[ax] - g->p[ax];
  *hi = s + g->k[ax] < n ? s + g->k[ax] : n;
  *lo = s > 0 ? s : 0;
}

#define POOL(T)                                                                           \
  do {                                                                                    \
    const T *in = (const T *)x->data + pl * vol;                                          \
    T *ov = (T *)out->data + pl * ovol;                                                   \
    for (int64_t i = 0; i < g.o[0]; i++) {                                                \
      int64_t d0, d1;                                                                     \
      window(a, &g, 0, i, &d0, &d1);                                                      \
      for (int64_t j = 0; j < g.o[1]; j++) {                                              \
        int64_t h0, h1;                                                                   \
        window(a, &g, 1, j, &h0, &h1);                                                    \
        for (int64_t l = 0; l < g.o[2]; l++) {                                            \
          int64_t w0, w1;                                                                 \
          window(a, &g, 2, l, &w0, &w1);                                                  \
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
          const int64_t r = (i * g.o[1] + j) * g.o[2] + l;                                \
          ov[r] = best;                                                                   \
          mv[r] = (int32_t)at;                                                            \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
  } while (0)

ic_status ic_mpi_run(ic_kctx *c) {
  const ic_mpi_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0), *mask = ic_out(c, 1, 0);
  mpi_geom g;
  ic_status st = geom(c, &g);
  if (st) return st;
  const int64_t H = g.n[1], W = g.n[2], planes = x->dims[0] * x->dims[1];
  const int64_t vol = g.n[0] * H * W, ovol = g.o[0] * g.o[1] * g.o[2];
  if (vol > INT32_MAX) {
    return ic_kfail_in(c, 0, 0, "has a %s too large for int32 Mask", a->nd == 3 ? "volume" : "map");
  }
  for (int64_t pl = 0; pl < planes; pl++) {
    int32_t *mv = (int32_t *)mask->data + pl * ovol;
    if (x->dtype == IC_FP32) POOL(float);
    else POOL(double);
  }
  return IC_OK;
}

/* ---- the gradient: inputs X (dims only), Mask, Out@GRAD; X@GRAD ---- */

ic_status ic_mpi_grad_infer(ic_kctx *c) {
  const ic_mpi_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *m = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st || (st = ic_kcheck_dtype(c, 1, 0, IC_DT_INT))) return st;
  if (x->ndim != 2 + a->nd) {
    return ic_kfail_in(c, 0, 0, "expected rank %d (%s)", 2 + a->nd, a->nd == 3 ? "NCDHW" : "NCHW");
  }
  mpi_geom q;
  if ((st = geom(c, &q))) return st;
  int64_t d[5] = {x->dims[0], x->dims[1]};
  memcpy(d + 2, q.o + 3 - a->nd, (size_t)a->nd * sizeof *d);
  char e[128];
  if (!ic_dims_equal(m->ndim, m->dims, 2 + a->nd, d)) {
    return ic_kfail_in(c, 1, 0, "expected dims %s, the pooling's output",
                       ic_dims_str(2 + a->nd, d, e, sizeof e));
  }
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, 2 + a->nd, d)) {
    return ic_kfail_in(c, 2, 0, "expected %s%s, the pooling's output", ic_dtype_name(x->dtype),
                       ic_dims_str(2 + a->nd, d, e, sizeof e));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

/* X@GRAD[n, c].flat[Mask[n, c, o]] += Out@GRAD[n, c, o] in output order, in the dtype as
 * Paddle's MaxPool2d/3dWithIndexGradFunctor; a Mask of -1 (a window without input) adds
 * nothing. */
#define MPI_GRAD(T)                                                                       \
  do {                                                                                    \
    const T *gd = g->data;                                                                \
    T *dd = dx->data;                                                                     \
    memset(dd, 0, (size_t)(planes * vol) * sizeof(T));                                    \
    for (int64_t pl = 0; pl < planes; pl++) {                                             \
      for (int64_t r = 0; r < ovol; r++) {                                                \
        const int64_t at = ic_read_i64(m, pl * ovol + r);                                 \
        if (at == -1) continue;                                                           \
        if (at < 0 || at >= vol) {                                                        \
          return ic_kfail_in(c, 1, 0, "entry %lld is %lld, expected -1 or in [0, %lld)",  \
                             (long long)(pl * ovol + r), (long long)at, (long long)vol);  \
        }                                                                                 \
        dd[pl * vol + at] += gd[pl * ovol + r];                                           \
      }                                                                                   \
    }                                                                                     \
  } while (0)

ic_status ic_mpi_grad_run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *m = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t planes = x->dims[0] * x->dims[1];
  const int64_t vol = planes ? ic_tensor_numel_(x) / planes : 0;
  const int64_t ovol = planes ? ic_tensor_numel_(g) / planes : 0;
  if (x->dtype == IC_FP32) MPI_GRAD(float);
  else MPI_GRAD(double);
  return IC_OK;
}
