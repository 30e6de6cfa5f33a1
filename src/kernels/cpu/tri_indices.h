/* Shared by tril_indices and triu_indices (paddle/phi/kernels/cpu/tril_indices_kernel.cc,
 * triu_indices_kernel.cc): out [2, count] of `dtype` (a VarType number, int32 or int64;
 * default int64), the row and column indices of the elements of a rows x cols matrix on or
 * below (tril: col - row <= offset) or on or above (triu: col - row >= offset) the diagonal
 * at `offset`, row-major. */
#ifndef IC_KERNELS_CPU_TRI_INDICES_H
#define IC_KERNELS_CPU_TRI_INDICES_H

#include "kernels/cpu/fill.h"

typedef struct ic_tri_attrs {
  int64_t rows, cols, offset;
  ic_dtype dtype;
  bool upper;
} ic_tri_attrs;

static inline ic_status ic_tri_parse(ic_attr_reader *r, ic_tri_attrs *a, const char *rn,
                                     const char *cn, bool upper) {
  a->upper = upper;
  a->rows = ic_ar_int_req(r, rn);
  a->cols = ic_ar_int(r, cn, a->rows);
  a->offset = ic_ar_int(r, "offset", 0);
  ic_fill_parse_dtype(r, "dtype", IC_INT64, IC_DT_INT, &a->dtype);
  if (r->st) return r->st;
  if (a->rows < 0) return ic_ar_fail(r, rn, "is %lld, expected >= 0", (long long)a->rows);
  if (a->cols < 0) return ic_ar_fail(r, cn, "is %lld, expected >= 0", (long long)a->cols);
  return IC_OK;
}

/* The columns [*lo, *hi) of row r. */
static inline void ic_tri_row(const ic_tri_attrs *a, int64_t r, int64_t *lo, int64_t *hi) {
  if (a->upper) {
    *lo = r + a->offset < 0 ? 0 : r + a->offset;
    *hi = a->cols;
  } else {
    *lo = 0;
    *hi = r + a->offset + 1 > a->cols ? a->cols : r + a->offset + 1;
  }
  if (*lo > *hi) *lo = *hi;
  if (*hi < 0) *lo = *hi = 0;
}

static inline int64_t ic_tri_count(const ic_tri_attrs *a) {
  int64_t n = 0, lo, hi;
  for (int64_t r = 0; r < a->rows; r++) {
    ic_tri_row(a, r, &lo, &hi);
    n += hi - lo;
  }
  return n;
}

static inline ic_status ic_tri_infer(ic_kctx *c) {
  const ic_tri_attrs *a = c->attrs;
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, 2, (int64_t[]){2, ic_tri_count(a)});
  return IC_OK;
}

static inline ic_status ic_tri_run(ic_kctx *c) {
  const ic_tri_attrs *a = c->attrs;
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = o->dims[1];
  int64_t k = 0, lo, hi;
  for (int64_t r = 0; r < a->rows; r++) {
    ic_tri_row(a, r, &lo, &hi);
    for (int64_t col = lo; col < hi; col++, k++) {
      if (a->dtype == IC_INT32) {
        ((int32_t *)o->data)[k] = (int32_t)r;
        ((int32_t *)o->data)[n + k] = (int32_t)col;
      } else {
        ((int64_t *)o->data)[k] = r;
        ((int64_t *)o->data)[n + k] = col;
      }
    }
  }
  return IC_OK;
}

#endif
