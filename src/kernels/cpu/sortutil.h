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

#endif
