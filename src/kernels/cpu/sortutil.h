/* Stable index sorts for argsort and top_k: the order Paddle's CPU comparators define, with a
 * NaN ranked above every number (last ascending, first descending) and equal values kept in
 * index order. */
#ifndef IC_KERNELS_CPU_SORTUTIL_H
#define IC_KERNELS_CPU_SORTUTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/kernel.h"

/* Sort positions 0..n) of the row whose element k is at base + k * stride (elements of dt:
 * float32, float64, int32 or int64) into idx, ascending or descending. tmp: n scratch. */
void ic_argsort_row(ic_dtype dt, const void *base, int64_t stride, int64_t n, bool desc,
                    int64_t *idx, int64_t *tmp);

/* The kernel of argsort and top_k: along `axis` of X (input slot 0; any axis for a 0-D X),
 * the first k of each sorted row (ascending, or descending when desc) into Out (output slot
 * 0, X's dtype) and their positions into Indices (output slot 1, int64), both shaped as X
 * with the axis dim k. */
ic_status ic_sort_take(ic_kctx *c, int axis, int64_t k, bool desc);

#endif
