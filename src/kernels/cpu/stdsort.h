/* The element orders of GNU libstdc++'s std::sort, std::nth_element and std::partial_sort,
 * which Paddle's CPU kernels use (argsort without `stable`, top_k, top_k_v2). None of the
 * three is stable: equal elements come out in an order that only the algorithm defines, and
 * Paddle's wheels are built with libstdc++, so its results follow libstdc++'s introsort,
 * introselect and heap select step by step. These reproduce those steps on an array of
 * positions: the same comparisons in the same order, hence the same order of ties
 * (stdsort.c says which steps; checked against g++'s std:: on random rows full of ties). */
#ifndef IC_KERNELS_CPU_STDSORT_H
#define IC_KERNELS_CPU_STDSORT_H

#include <stdbool.h>
#include <stdint.h>

/* A strict weak order on positions: before(ctx, a, b) when a goes strictly before b. */
typedef bool (*ic_before_fn)(const void *ctx, int64_t a, int64_t b);

/* std::sort(v, v + n, before). */
void ic_std_sort(int64_t *v, int64_t n, ic_before_fn before, const void *ctx);
/* std::nth_element(v, v + nth, v + n, before); nth in [0, n]. */
void ic_std_nth_element(int64_t *v, int64_t nth, int64_t n, ic_before_fn before,
                        const void *ctx);
/* std::partial_sort(v, v + mid, v + n, before); mid in [0, n]. */
void ic_std_partial_sort(int64_t *v, int64_t mid, int64_t n, ic_before_fn before,
                         const void *ctx);

#endif
