/* Shared by unique and unique_consecutive: X's values as comparable keys (float32/float64 as
 * double, int32/int64 as int64, both exact), laid out as rows along one axis, and writing
 * the index outputs (int32 or int64). */
#ifndef IC_KERNELS_CPU_UNIQUEUTIL_H
#define IC_KERNELS_CPU_UNIQUEUTIL_H

#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

/* R rows of C keys each: row r is X's slice at index r along `axis`, its elements in the
 * order of X with dims 0 and `axis` swapped (Paddle's transpose before it compares rows);
 * axis -1: one row per element (R = numel, C = 1). */
typedef struct ic_uq_keys {
  bool flt;
  double *f;
  int64_t *i;
  int64_t R, C;
  ic_buffer *buf;
} ic_uq_keys;

static inline ic_status ic_uq_keys_make(ic_kctx *c, const ic_tensor *x, int axis,
                                        ic_uq_keys *k) {
  const int64_t n = ic_tensor_numel_(x);
  memset(k, 0, sizeof *k);
  k->flt = x->dtype == IC_FP32 || x->dtype == IC_FP64;
  k->buf = ic_kscratch(c, (size_t)(n ? n : 1) * 8);
  if (!k->buf) return c->err->code;
  if (k->flt) k->f = k->buf->data;
  else k->i = k->buf->data;
  if (axis < 0) {
    k->R = n;
    k->C = 1;
    for (int64_t j = 0; j < n; j++) {
      if (k->flt) k->f[j] = ic_read_f64(x, j);
      else k->i[j] = ic_read_i64(x, j);
    }
    return IC_OK;
  }
  const int nd = x->ndim;
  int64_t stride[IC_MAX_RANK], td[IC_MAX_RANK], ts[IC_MAX_RANK], coord[IC_MAX_RANK] = {0};
  stride[nd - 1] = 1;
  for (int d = nd - 2; d >= 0; d--) stride[d] = stride[d + 1] * x->dims[d + 1];
  for (int d = 0; d < nd; d++) {
    const int src = d == 0 ? axis : d == axis ? 0 : d; /* trans dim d is x's dim src */
    td[d] = x->dims[src];
    ts[d] = stride[src];
  }
  k->R = td[0];
  k->C = k->R ? n / k->R : 0;
  for (int64_t t = 0; t < n; t++) {
    int64_t off = 0;
    for (int d = 0; d < nd; d++) off += coord[d] * ts[d];
    if (k->flt) k->f[t] = ic_read_f64(x, off);
    else k->i[t] = ic_read_i64(x, off);
    for (int d = nd - 1; d >= 0; d--) {
      if (++coord[d] < td[d]) break;
      coord[d] = 0;
    }
  }
  return IC_OK;
}

/* Lexicographic `<` of rows a and b as Paddle's comparator does it: the first column where
 * one is less or greater decides (a NaN is neither, so that column is skipped). */
static inline bool ic_uq_row_less(const ic_uq_keys *k, int64_t a, int64_t b) {
  for (int64_t j = 0; j < k->C; j++) {
    if (k->flt) {
      const double x = k->f[a * k->C + j], y = k->f[b * k->C + j];
      if (x < y) return true;
      if (x > y) return false;
    } else {
      const int64_t x = k->i[a * k->C + j], y = k->i[b * k->C + j];
      if (x < y) return true;
      if (x > y) return false;
    }
  }
  return false;
}

/* Rows a and b equal element by element (a NaN equals nothing). */
static inline bool ic_uq_row_equal(const ic_uq_keys *k, int64_t a, int64_t b) {
  for (int64_t j = 0; j < k->C; j++) {
    if (k->flt ? !(k->f[a * k->C + j] == k->f[b * k->C + j])
               : k->i[a * k->C + j] != k->i[b * k->C + j]) {
      return false;
    }
  }
  return true;
}

/* Out = X's slices along `axis` at rows[0..G) (all of X's elements in flattened order when
 * axis < 0: Out [G] of elements rows[g]). Raw bytes, so -0.0 and NaN payloads keep. */
static inline void ic_uq_gather(const ic_tensor *x, int axis, const int64_t *rows, int64_t G,
                                ic_tensor *out) {
  const size_t es = ic_dtype_size(x->dtype);
  const char *src = x->data;
  char *dst = out->data;
  if (axis < 0) {
    for (int64_t g = 0; g < G; g++) memcpy(dst + (size_t)g * es, src + (size_t)rows[g] * es, es);
    return;
  }
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= x->dims[d];
  for (int d = axis + 1; d < x->ndim; d++) inner *= x->dims[d];
  const int64_t A = x->dims[axis];
  const size_t blk = (size_t)inner * es;
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t g = 0; g < G; g++) {
      memcpy(dst + (size_t)(o * G + g) * blk, src + (size_t)(o * A + rows[g]) * blk, blk);
    }
  }
}

/* Write v (n values) into the 1-D int32/int64 output (s, 0), allocating it; nothing for an
 * absent output. */
static inline ic_status ic_uq_write_index(ic_kctx *c, size_t s, ic_dtype dt, const int64_t *v,
                                          int64_t n) {
  ic_tensor *t = ic_out(c, s, 0);
  if (!t) return IC_OK;
  ic_status st = ic_kalloc_out(c, s, 0, dt, 1, &n);
  if (st) return st;
  t = ic_out(c, s, 0);
  for (int64_t j = 0; j < n; j++) {
    if (dt == IC_INT32) ((int32_t *)t->data)[j] = (int32_t)v[j];
    else ((int64_t *)t->data)[j] = v[j];
  }
  return IC_OK;
}

#endif
