/* Shared by graph_send_recv, graph_send_ue_recv and graph_send_uv (paddle.geometric's
 * send_u_recv, send_ue_recv, send_uv; paddle/phi/kernels/cpu/send_*_kernel.cc,
 * impl/graph_message_passing_impl.h): the edge indices, the broadcast of X's and Y's row
 * shapes (dims after the first, aligned to the right as numpy does), and the typed loops. */
#ifndef IC_KERNELS_CPU_GRAPH_SEND_H
#define IC_KERNELS_CPU_GRAPH_SEND_H

#include <string.h>

#include "kernels/kernel.h"

enum { GS_SUM, GS_MEAN, GS_MAX, GS_MIN };
enum { GS_ADD, GS_MUL };

static inline ic_status ic_gs_parse_reduce(ic_attr_reader *r, int *op) {
  const char *t = ic_ar_str(r, "reduce_op", "SUM");
  if (r->st) return r->st;
  if (!strcmp(t, "SUM")) *op = GS_SUM;
  else if (!strcmp(t, "MEAN")) *op = GS_MEAN;
  else if (!strcmp(t, "MAX")) *op = GS_MAX;
  else if (!strcmp(t, "MIN")) *op = GS_MIN;
  else return ic_ar_fail(r, "reduce_op", "is '%s', expected SUM, MEAN, MAX or MIN", t);
  return IC_OK;
}

static inline ic_status ic_gs_parse_message(ic_attr_reader *r, int *op) {
  const char *t = ic_ar_str(r, "message_op", "ADD");
  if (r->st) return r->st;
  if (!strcmp(t, "ADD")) *op = GS_ADD;
  else if (!strcmp(t, "MUL")) *op = GS_MUL;
  else return ic_ar_fail(r, "message_op", "is '%s', expected ADD or MUL", t);
  return IC_OK;
}

/* out_size: a list of one value (older programs: an int); <= 0 means X's dim 0. */
static inline int64_t ic_gs_parse_out_size(ic_attr_reader *r) {
  const int64_t *v = NULL;
  size_t n = 0;
  if (!ic_ar_has(r, "out_size")) return 0;
  const ic_attr *at = ic_op_attr(r->op, "out_size");
  if (at && (at->type == IC_ATTR_INT || at->type == IC_ATTR_LONG)) return ic_ar_int(r, "out_size", 0);
  ic_ar_ints(r, "out_size", false, &v, &n);
  return n ? v[0] : 0;
}

/* Check that src (slot s) and dst (slot d) are 1-D int32/int64 index tensors of one length
 * (dims [E] or [E, 1]). */
static inline ic_status ic_gs_check_index(ic_kctx *c, size_t s, size_t d) {
  ic_status st = ic_kcheck_dtype(c, s, 0, IC_DT_INT);
  if (!st) st = ic_kcheck_dtype(c, d, 0, IC_DT_INT);
  if (st) return st;
  const ic_tensor *a = ic_in(c, s, 0), *b = ic_in(c, d, 0);
  for (size_t k = 0; k < 2; k++) {
    const ic_tensor *t = k ? b : a;
    if (t->ndim < 1 || t->ndim > 2 || (t->ndim == 2 && t->dims[1] != 1)) {
      return ic_kfail_in(c, k ? d : s, 0, "expected 1-D (or [E, 1]) edge indices");
    }
  }
  if (a->dims[0] != b->dims[0]) {
    return ic_kfail_in(c, d, 0, "has %lld edges, expected as many as '%s' (%lld)",
                       (long long)b->dims[0], ic_in_name(c, s, 0), (long long)a->dims[0]);
  }
  return IC_OK;
}

/* Read the E indices of input slot s into v, each in [0, limit). */
static inline ic_status ic_gs_read_index(ic_kctx *c, size_t s, int64_t *v, int64_t limit,
                                         const char *what) {
  const ic_tensor *t = ic_in(c, s, 0);
  const int64_t E = t->dims[0];
  for (int64_t e = 0; e < E; e++) {
    v[e] = ic_read_i64(t, e);
    if (v[e] < 0 || v[e] >= limit) {
      return ic_kfail_in(c, s, 0, "holds %lld at %lld, expected in [0, %lld) (%s)",
                         (long long)v[e], (long long)e, (long long)limit, what);
    }
  }
  return IC_OK;
}

/* The broadcast row shape of x and y (dims after the first); false when they do not
 * broadcast. dims[0] is left for the caller. */
static inline bool ic_gs_bcast_dims(const ic_tensor *x, const ic_tensor *y, int *nd,
                                    int64_t *dims) {
  const int lx = x->ndim - 1, ly = y->ndim - 1, n = lx > ly ? lx : ly;
  for (int i = 0; i < n; i++) {
    const int64_t a = i < n - lx ? 1 : x->dims[1 + i - (n - lx)];
    const int64_t b = i < n - ly ? 1 : y->dims[1 + i - (n - ly)];
    if (a != b && a != 1 && b != 1) return false;
    dims[1 + i] = a == 1 ? b : a;
  }
  *nd = n + 1;
  return true;
}

/* For each element j of an output row (out_len of them): its element in x's row and in
 * y's row (offsets l[j], r[j]), with x and y broadcast to the output's row shape. */
static inline void ic_gs_bcast_offsets(const ic_tensor *x, const ic_tensor *y, int nd,
                                       const int64_t *odims, int64_t *l, int64_t *r) {
  const int n = nd - 1, lx = x->ndim - 1, ly = y->ndim - 1;
  int64_t out_len = 1;
  for (int i = 1; i < nd; i++) out_len *= odims[i];
  int64_t coord[IC_MAX_RANK] = {0};
  for (int64_t j = 0; j < out_len; j++) {
    int64_t lo = 0, ro = 0;
    for (int i = 0; i < n; i++) {
      if (i >= n - lx) {
        const int64_t d = x->dims[1 + i - (n - lx)];
        lo = lo * d + (d == 1 ? 0 : coord[i]);
      }
      if (i >= n - ly) {
        const int64_t d = y->dims[1 + i - (n - ly)];
        ro = ro * d + (d == 1 ? 0 : coord[i]);
      }
    }
    l[j] = lo;
    r[j] = ro;
    for (int i = n - 1; i >= 0; i--) {
      if (++coord[i] < odims[1 + i]) break;
      coord[i] = 0;
    }
  }
}

/* One edge pass: out row dst[e] gathers the message of edge e, x row src[e] (ADD/MUL y's row
 * e when y is given; x's row as is otherwise), reduced by `red` (MEAN: the sum, divided
 * afterwards by cnt, the edges into each row). Rows no edge reaches stay 0. Offsets l/r
 * NULL: no broadcast (rows of len elements). */
#define IC_GS_RECV(T, NAME)                                                                  \
  static inline void NAME(const T *x, const T *y, int msg, const int64_t *src,              \
                          const int64_t *dst, int64_t E, int64_t xl, int64_t yl,           \
                          int64_t len, const int64_t *l, const int64_t *r, int red, T *out, \
                          int32_t *cnt, uint8_t *seen, int64_t rows) {                      \
    memset(out, 0, (size_t)(rows * len) * sizeof(T));                                       \
    memset(cnt, 0, (size_t)rows * sizeof(int32_t));                                         \
    memset(seen, 0, (size_t)rows);                                                          \
    for (int64_t e = 0; e < E; e++) {                                                       \
      const T *xr = x + src[e] * xl, *yr = y ? y + e * yl : NULL;                           \
      T *o = out + dst[e] * len;                                                            \
      const bool first = !seen[dst[e]];                                                     \
      seen[dst[e]] = 1;                                                                     \
      cnt[dst[e]]++;                                                                        \
      for (int64_t j = 0; j < len; j++) {                                                   \
        T v = xr[l ? l[j] : j];                                                             \
        if (yr) v = msg == GS_MUL ? (T)(v * yr[r ? r[j] : j]) : (T)(v + yr[r ? r[j] : j]);  \
        if (red == GS_SUM || red == GS_MEAN) {                                              \
          if (v != 0) o[j] += v;                                                            \
        } else if (first) {                                                                 \
          o[j] = v;                                                                         \
        } else if (red == GS_MAX) {                                                         \
          o[j] = o[j] < v ? v : o[j];                                                       \
        } else {                                                                            \
          o[j] = v < o[j] ? v : o[j];                                                       \
        }                                                                                   \
      }                                                                                     \
    }                                                                                       \
    if (red == GS_MEAN) {                                                                   \
      for (int64_t i = 0; i < rows; i++) {                                                  \
        if (!cnt[i]) continue;                                                              \
        for (int64_t j = 0; j < len; j++) out[i * len + j] = out[i * len + j] / (T)cnt[i];  \
      }                                                                                     \
    }                                                                                       \
  }
IC_GS_RECV(float, ic_gs_recv_f32)
IC_GS_RECV(double, ic_gs_recv_f64)
IC_GS_RECV(int32_t, ic_gs_recv_i32)
IC_GS_RECV(int64_t, ic_gs_recv_i64)

static inline void ic_gs_recv(ic_dtype dt, const void *x, const void *y, int msg,
                              const int64_t *src, const int64_t *dst, int64_t E, int64_t xl,
                              int64_t yl, int64_t len, const int64_t *l, const int64_t *r,
                              int red, void *out, int32_t *cnt, uint8_t *seen, int64_t rows) {
  switch (dt) {
    case IC_FP32:
      ic_gs_recv_f32(x, y, msg, src, dst, E, xl, yl, len, l, r, red, out, cnt, seen, rows);
      break;
    case IC_FP64:
      ic_gs_recv_f64(x, y, msg, src, dst, E, xl, yl, len, l, r, red, out, cnt, seen, rows);
      break;
    case IC_INT32:
      ic_gs_recv_i32(x, y, msg, src, dst, E, xl, yl, len, l, r, red, out, cnt, seen, rows);
      break;
    default:
      ic_gs_recv_i64(x, y, msg, src, dst, E, xl, yl, len, l, r, red, out, cnt, seen, rows);
      break;
  }
}

#endif
