/* See sortutil.h: a bottom-up merge sort of positions, one comparator per dtype. */
#include "kernels/cpu/sortutil.h"

#include <string.h>

/* before(a, b): element a goes strictly before element b. */
#define SORT_FN(SUF, T, ISNAN)                                                             \
  static bool before_##SUF(const T *p, int64_t s, int64_t a, int64_t b, bool desc) {       \
    T x = p[a * s], y = p[b * s];                                                          \
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

#define IS_NAN(v) ((v) != (v))
#define NEVER_NAN(v) ((void)(v), false)

SORT_FN(f32, float, IS_NAN)
SORT_FN(f64, double, IS_NAN)
SORT_FN(i32, int32_t, NEVER_NAN)
SORT_FN(i64, int64_t, NEVER_NAN)

void ic_argsort_row(ic_dtype dt, const void *base, int64_t stride, int64_t n, bool desc,
                    int64_t *idx, int64_t *tmp) {
  for (int64_t k = 0; k < n; k++) idx[k] = k;
  switch (dt) {
    case IC_FP32: sort_f32(base, stride, n, desc, idx, tmp); break;
    case IC_FP64: sort_f64(base, stride, n, desc, idx, tmp); break;
    case IC_INT32: sort_i32(base, stride, n, desc, idx, tmp); break;
    default: sort_i64(base, stride, n, desc, idx, tmp); break;
  }
}
