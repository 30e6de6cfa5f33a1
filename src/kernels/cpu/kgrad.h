/* Small helpers shared by the gradient kernels of the matrix, index and scatter ops
 * (bmm_grad.c, dot_grad.c, mv_grad.c, addmm_grad.c, index_sample_grad.c, ...). Not an op
 * file. Values are read and written as double and stored back in the tensor's float type
 * (float32 or float64), so sums are accumulated in double and rounded once. */
#ifndef IC_KERNELS_CPU_KGRAD_H
#define IC_KERNELS_CPU_KGRAD_H

#include <string.h>

#include "kernels/kernel.h"

static inline double kg_get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? (double)((const float *)t->data)[i]
                             : ((const double *)t->data)[i];
}

static inline void kg_put(ic_tensor *t, int64_t i, double v) {
  if (t->dtype == IC_FP32) ((float *)t->data)[i] = (float)v;
  else ((double *)t->data)[i] = v;
}

/* t[i] += v in t's own type (accumulation order as the caller visits). */
static inline void kg_add(ic_tensor *t, int64_t i, double v) {
  if (t->dtype == IC_FP32) ((float *)t->data)[i] += (float)v;
  else ((double *)t->data)[i] += v;
}

static inline void kg_zero(ic_tensor *t) {
  if (t) memset(t->data, 0, (size_t)ic_tensor_numel_(t) * ic_dtype_size(t->dtype));
}

static inline void kg_copy(ic_tensor *dst, const ic_tensor *src) {
  if (dst->data != src->data) {
    memcpy(dst->data, src->data, (size_t)ic_tensor_numel_(src) * ic_dtype_size(src->dtype));
  }
}

/* Input (s, 0) must have exactly dims [nd]d and dtype dt; `what` says whose dims they are. */
static inline ic_status kg_expect(ic_kctx *c, size_t s, ic_dtype dt, int nd, const int64_t *d,
                                  const char *what) {
  const ic_tensor *t = ic_in(c, s, 0);
  if (t->dtype != dt || !ic_dims_equal(t->ndim, t->dims, nd, d)) {
    char b[160];
    return ic_kfail_in(c, s, 0, "expected %s%s (%s)", ic_dtype_name(dt),
                       ic_dims_str(nd, d, b, sizeof b), what);
  }
  return IC_OK;
}

/* Output s (if written) gets dtype dt and dims [nd]d. */
static inline void kg_out(ic_kctx *c, size_t s, ic_dtype dt, int nd, const int64_t *d) {
  ic_tensor *o = ic_out(c, s, 0);
  if (o) ic_tensor_set_meta(o, dt, nd, d);
}

/* An output written although the op lacks the input it is the gradient of. */
static inline ic_status kg_no_input(ic_kctx *c, size_t out, const char *in) {
  return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "%s: output %s '%s' is written, but the op has no %s",
                  c->def->name, c->def->outputs[out].name, ic_out_name(c, out, 0), in);
}

/* Batched C[b] = op(A[b]) op(B[b]) (M x N, inner K), every element a double sum, each
 * operand addressed by (batch, row, col) strides so transposes cost nothing; scale applied
 * to the sum. */
typedef struct kg_mat {
  const ic_tensor *t;
  int64_t sb, sr, sc; /* strides of batch, row, col */
} kg_mat;

static inline void kg_gemm(ic_tensor *out, int64_t batch, int64_t M, int64_t N, int64_t K,
                           kg_mat a, kg_mat b, double scale) {
  for (int64_t q = 0; q < batch; q++) {
    for (int64_t i = 0; i < M; i++) {
      for (int64_t j = 0; j < N; j++) {
        double s = 0;
        for (int64_t k = 0; k < K; k++) {
          s += kg_get(a.t, q * a.sb + i * a.sr + k * a.sc) *
               kg_get(b.t, q * b.sb + k * b.sr + j * b.sc);
        }
        kg_put(out, (q * M + i) * N + j, s * scale);
      }
    }
  }
}

/* The gradient of an op that picks one element per row along an axis (kthvalue, mode):
 * X@GRAD = zeros with Out@GRAD[r] at Indices[r] along `axis` (Out@GRAD and Indices: X's dims
 * with the axis kept as 1 or removed). Slots: X (meta only), Indices, Out@GRAD; output
 * X@GRAD. */
static inline ic_status kg_pick_infer(ic_kctx *c, int64_t axis, size_t s_x, size_t s_idx,
                                      size_t s_g) {
  ic_status st = ic_kcheck_dtype(c, s_idx, 0, IC_DT_INT);
  if (st || (st = ic_kcheck_dtype(c, s_g, 0, IC_DT_FLOAT))) return st;
  const ic_tensor *x = ic_in(c, s_x, 0), *idx = ic_in(c, s_idx, 0), *g = ic_in(c, s_g, 0);
  const int rank = x->ndim > 0 ? x->ndim : 1;
  const int ax = ic_kaxis(c, axis, rank, "axis");
  if (ax < 0) return c->err->code;
  int64_t keep[IC_MAX_RANK], drop[IC_MAX_RANK];
  for (int i = 0, j = 0; i < x->ndim; i++) {
    keep[i] = i == ax ? 1 : x->dims[i];
    if (i != ax) drop[j++] = x->dims[i];
  }
  const int nd = x->ndim > 0 ? x->ndim - 1 : 0;
  if (!ic_dims_equal(g->ndim, g->dims, x->ndim, keep) &&
      !ic_dims_equal(g->ndim, g->dims, nd, drop)) {
    char s[128];
    return ic_kfail_in(c, s_g, 0, "expected X's dims %s with dim %d kept as 1 or removed",
                       ic_dims_str(x->ndim, x->dims, s, sizeof s), ax);
  }
  if (!ic_dims_equal(idx->ndim, idx->dims, g->ndim, g->dims)) {
    return ic_kfail_in(c, s_idx, 0, "expected Out@GRAD's dims");
  }
  kg_out(c, 0, g->dtype, x->ndim, x->dims);
  return IC_OK;
}

static inline ic_status kg_pick_run(ic_kctx *c, int64_t axis, size_t s_x, size_t s_idx,
                                    size_t s_g) {
  const ic_tensor *x = ic_in(c, s_x, 0), *idx = ic_in(c, s_idx, 0), *g = ic_in(c, s_g, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  kg_zero(dx);
  if (x->ndim == 0) {
    kg_put(dx, 0, kg_get(g, 0));
    return IC_OK;
  }
  const int ax = (int)(axis < 0 ? axis + x->ndim : axis);
  const int64_t outer = ic_numel(ax, x->dims), len = x->dims[ax];
  const int64_t inner = ic_numel(x->ndim - ax - 1, x->dims + ax + 1);
  for (int64_t r = 0; r < outer; r++) {
    for (int64_t i = 0; i < inner; i++) {
      const int64_t at = r * inner + i, p = ic_read_i64(idx, at);
      if (p < 0 || p >= len) {
        return ic_kfail_in(c, s_idx, 0, "holds %lld at %lld, expected in [0, %lld)",
                           (long long)p, (long long)at, (long long)len);
      }
      kg_put(dx, (r * len + p) * inner + i, kg_get(g, at));
    }
  }
  return IC_OK;
}

/* Square double matrices (row-major, n x n): c = op(a) op(b), op a transpose when ta / tb. */
static inline void kg_mm(const double *a, bool ta, const double *b, bool tb, double *c,
                         int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    for (int64_t j = 0; j < n; j++) {
      double s = 0;
      for (int64_t k = 0; k < n; k++)
        s += (ta ? a[k * n + i] : a[i * n + k]) * (tb ? b[j * n + k] : b[k * n + j]);
      c[i * n + j] = s;
    }
  }
}

/* The batch of square matrices in the last two dims of input s: rank >= 2, [.., n, n]. */
static inline ic_status kg_square(ic_kctx *c, size_t s) {
  const ic_tensor *t = ic_in(c, s, 0);
  if (t->ndim < 2 || t->dims[t->ndim - 1] != t->dims[t->ndim - 2]) {
    return ic_kfail_in(c, s, 0, "expected square matrices in the last two dims [.., n, n]");
  }
  return IC_OK;
}

/* Walk of an index tensor along an axis (take_along_axis, put_along_axis and their grads):
 * for Index position p (row-major over Index's dims), the flat offset in X (strides of X's
 * dims) of p with coordinate `ax` replaced by Index[p] (negative counting from the end).
 * kg_along_check verifies every index first. */
static inline ic_status kg_along_check(ic_kctx *c, size_t s_idx, const ic_tensor *idx,
                                       int64_t dax, int ax) {
  for (int64_t i = 0; i < ic_tensor_numel_(idx); i++) {
    const int64_t k = ic_read_i64(idx, i);
    if (k < -dax || k >= dax) {
      return ic_kfail_in(c, s_idx, 0, "entry %lld is %lld, expected in [%lld, %lld) (dim %d)",
                         (long long)i, (long long)k, (long long)-dax, (long long)dax, ax);
    }
  }
  return IC_OK;
}

/* Flat offsets: xoff[i] of Index element i in a tensor of dims xd (coordinate ax from the
 * index), poff[i] of the same position in a tensor of dims pd (all coordinates from the
 * position; pd NULL: i itself). */
static inline void kg_along_offsets(const ic_tensor *idx, int ax, const int64_t *xd,
                                    const int64_t *pd, int64_t *xoff, int64_t *poff) {
  const int rank = idx->ndim;
  int64_t xs[IC_MAX_RANK], ps[IC_MAX_RANK], pos[IC_MAX_RANK] = {0};
  xs[rank - 1] = ps[rank - 1] = 1;
  for (int i = rank - 2; i >= 0; i--) {
    xs[i] = xs[i + 1] * xd[i + 1];
    ps[i] = ps[i + 1] * (pd ? pd[i + 1] : idx->dims[i + 1]);
  }
  const int64_t n = ic_tensor_numel_(idx), dax = xd[ax];
  for (int64_t i = 0; i < n; i++) {
    int64_t k = ic_read_i64(idx, i), at = 0, pat = 0;
    if (k < 0) k += dax;
    for (int j = 0; j < rank; j++) {
      at += (j == ax ? k : pos[j]) * xs[j];
      pat += pos[j] * ps[j];
    }
    xoff[i] = at;
    if (poff) poff[i] = pat;
    for (int j = rank - 1; j >= 0 && ++pos[j] == idx->dims[j]; j--) pos[j] = 0;
  }
}

#endif
