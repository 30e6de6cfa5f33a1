/* See sortutil.h: a bottom-up merge sort of positions, one comparator per dtype, for the
 * stable order; libstdc++'s algorithms (stdsort.c) through the same comparators else. */
#include "kernels/cpu/sortutil.h"

#include <string.h>

#include "kernels/cpu/half.h"
#include "kernels/cpu/stdsort.h"

/* A row for the unstable sorts' comparators. */
typedef struct row {
  const void *base;
  int64_t stride;
  bool desc;
} row;

/* before(a, b): element a goes strictly before element b. */
#define SORT_FN(SUF, T, CT, LOAD, ISNAN)                                                    \
  static bool before_##SUF(const T *p, int64_t s, int64_t a, int64_t b, bool desc) {       \
    CT x = LOAD(p[a * s]), y = LOAD(p[b * s]);                                             \
    bool nx = ISNAN(x), ny = ISNAN(y);                                                     \
    if (desc) return (nx && !ny) || (!nx && !ny && x > y);                                 \
    return (!nx && ny) || (!nx && !ny && x < y);                                           \
  }                                                                                        \
  static void sort_##SUF(const T *p, int64_t s, int64_t n, bool desc, int64_t *idx,        \
                         int64_t *tmp) {                                                   \
    for (int64_t w = 1; w < n; w *= 2) {                                                   \
      for (int64_t lo = 0; lo < n; lo += 2 * w) {                                          \
        int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;       \
        int64_t i = lo, j = mid, k = lo;                                                   \
        while (i < mid && j < hi) {                                                        \
          tmp[k++] = before_##SUF(p, s, idx[j], idx[i], desc) ? idx[j++] : idx[i++];       \
        }                                                                                  \
        while (i < mid) tmp[k++] = idx[i++];                                               \
        while (j < hi) tmp[k++] = idx[j++];                                                \
      }                                                                                    \
      memcpy(idx, tmp, (size_t)n * sizeof *idx);                                           \
    }                                                                                      \
  }

#define STD_BEFORE(SUF, T)                                                                 \
  static bool std_before_##SUF(const void *ctx, int64_t a, int64_t b) {                    \
    const row *r = ctx;                                                                    \
    return before_##SUF(r->base, r->stride, a, b, r->desc);                                \
  }

#define IS_NAN(v) ((v) != (v))
#define NEVER_NAN(v) ((void)(v), false)

#define AS_IS(v) (v)

SORT_FN(f32, float, float, AS_IS, IS_NAN)
SORT_FN(f64, double, double, AS_IS, IS_NAN)
SORT_FN(i32, int32_t, int32_t, AS_IS, NEVER_NAN)
SORT_FN(i64, int64_t, int64_t, AS_IS, NEVER_NAN)
SORT_FN(u8, uint8_t, uint8_t, AS_IS, NEVER_NAN)
SORT_FN(i16, int16_t, int16_t, AS_IS, NEVER_NAN)
SORT_FN(f16, uint16_t, float, ic_f16_to_f32, IS_NAN)
SORT_FN(bf16, uint16_t, float, ic_bf16_to_f32, IS_NAN)
STD_BEFORE(f32, float)
STD_BEFORE(f64, double)
STD_BEFORE(i32, int32_t)
STD_BEFORE(i64, int64_t)
STD_BEFORE(u8, uint8_t)
STD_BEFORE(i16, int16_t)
STD_BEFORE(f16, uint16_t)
STD_BEFORE(bf16, uint16_t)

void ic_std_order_row(ic_dtype dt, const void *base, int64_t stride, int64_t n, int64_t k,
                      bool desc, ic_sort_how how, int64_t *idx) {
  const row r = {base, stride, desc};
  ic_before_fn f = dt == IC_FP32    ? std_before_f32
                   : dt == IC_FP64  ? std_before_f64
                   : dt == IC_INT32 ? std_before_i32
                   : dt == IC_UINT8 ? std_before_u8
                   : dt == IC_INT16 ? std_before_i16
                   : dt == IC_FP16  ? std_before_f16
                   : dt == IC_BF16  ? std_before_bf16
                                    : std_before_i64;
  for (int64_t j = 0; j < n; j++) idx[j] = j;
  if (how == IC_SORT_STD) {
    ic_std_sort(idx, n, f, &r);
  } else if (k * 64 < n) {
    ic_std_partial_sort(idx, k, n, f, &r);
  } else {
    ic_std_nth_element(idx, k - 1, n, f, &r);
    if (how == IC_SORT_TOPK && k > 1) ic_std_sort(idx, k - 1, f, &r);
  }
}

void ic_argsort_row(ic_dtype dt, const void *base, int64_t stride, int64_t n, bool desc,
                    int64_t *idx, int64_t *tmp) {
  for (int64_t k = 0; k < n; k++) idx[k] = k;
  switch (dt) {
    case IC_FP32: sort_f32(base, stride, n, desc, idx, tmp); break;
    case IC_FP64: sort_f64(base, stride, n, desc, idx, tmp); break;
    case IC_INT32: sort_i32(base, stride, n, desc, idx, tmp); break;
    case IC_UINT8: sort_u8(base, stride, n, desc, idx, tmp); break;
    case IC_INT16: sort_i16(base, stride, n, desc, idx, tmp); break;
    case IC_FP16: sort_f16(base, stride, n, desc, idx, tmp); break;
    case IC_BF16: sort_bf16(base, stride, n, desc, idx, tmp); break;
    default: sort_i64(base, stride, n, desc, idx, tmp); break;
  }
}

ic_status ic_sort_take(ic_kctx *c, int axis, int64_t k, bool desc, ic_sort_how how) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0), *oi = ic_out(c, 1, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  if (n == 0 || k == 0) return IC_OK;
  int64_t len = x->ndim == 0 ? 1 : x->dims[axis];
  int64_t inner = x->ndim == 0 ? 1 : ic_numel(x->ndim - axis - 1, x->dims + axis + 1);
  int64_t outer = n / (len * inner);
  ic_buffer *buf = ic_kscratch(c, (size_t)len * 2 * sizeof(int64_t));
  if (!buf) return c->err->code;
  int64_t *idx = buf->data, *tmp = idx + len, *ip = oi->data;
  size_t es = ic_dtype_size(x->dtype);
  const char *xp = x->data;
  char *op = o->data;
  for (int64_t r = 0; r < outer; r++) {
    for (int64_t i = 0; i < inner; i++) {
      int64_t base = r * len * inner + i, obase = r * k * inner + i;
      if (how == IC_SORT_STABLE) {
        ic_argsort_row(x->dtype, xp + (size_t)base * es, inner, len, desc, idx, tmp);
      } else {
        ic_std_order_row(x->dtype, xp + (size_t)base * es, inner, len, k, desc, how, idx);
      }
      for (int64_t j = 0; j < k; j++) {
        int64_t at = obase + j * inner;
        ip[at] = idx[j];
        memcpy(op + (size_t)at * es, xp + (size_t)(base + idx[j] * inner) * es, es);
      }
    }
  }
  ic_buffer_release(buf);
  return IC_OK;
}
