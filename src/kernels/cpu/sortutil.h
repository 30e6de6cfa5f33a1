/* Index sorts for argsort and top_k in the order Paddle's CPU comparators define, with a NaN
 * ranked above every number (last ascending, first descending). Equal values: kept in index
 * order by the stable sort, else placed as libstdc++'s unstable algorithms place them
 * (stdsort.h), as Paddle's kernels do. */
#ifndef IC_KERNELS_CPU_SORTUTIL_H
#define IC_KERNELS_CPU_SORTUTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/kernel.h"

/* Sort positions 0..n) of the row whose element k is at base + k * stride (elements of dt:
 * float32, float64, int32, int64, uint8, int16, float16 or bfloat16, the last two compared as
 * float) into idx, ascending or descending. tmp: n scratch. */
void ic_argsort_row(ic_dtype dt, const void *base, int64_t stride, int64_t n, bool desc,
                    int64_t *idx, int64_t *tmp);

/* How a row is ordered before its first k are taken. */
typedef enum ic_sort_how {
  IC_SORT_STABLE,     /* equal values in index order (argsort with `stable`) */
  IC_SORT_STD,        /* std::sort (argsort without `stable`) */
  IC_SORT_TOPK,       /* Paddle's FullTopK: std::partial_sort of the first k when k * 64 is
                         under the row's length, else std::nth_element at k - 1 and a
                         std::sort of the first k - 1 (top_k, top_k_v2 with `sorted`) */
  IC_SORT_TOPK_NTH,   /* the same without that std::sort (top_k_v2 `sorted` false) */
} ic_sort_how;

/* Positions 0..n) of the row whose element j is at base + j * stride into idx, ordered by
 * `how` (not IC_SORT_STABLE) as libstdc++ leaves them: all of them under IC_SORT_STD, else
 * the first k (k in [1, n]). Paddle's comparator: ascending, or descending when desc; a NaN
 * ranks above every number. kthvalue's order is IC_SORT_TOPK_NTH with k, mode's IC_SORT_STD. */
void ic_std_order_row(ic_dtype dt, const void *base, int64_t stride, int64_t n, int64_t k,
                      bool desc, ic_sort_how how, int64_t *idx);

/* infer of kthvalue and mode (kthvalue.c): X (slot 0) numeric; Out (slot 0, X's dtype) and
 * Indices (slot 1, int64) shaped as X without `axis` (kept with size 1 when keepdim; a 0-D X
 * takes axis -1 or 0 and gives 0-D outputs). *ax receives the normalized axis. */
ic_status ic_kth_infer(ic_kctx *c, int64_t axis, bool keepdim, int *ax);
/* run of kthvalue and mode (kthvalue.c): for each row of X along `axis`, pick (given the row,
 * its element stride and length, and a scratch of len indices) returns the position whose
 * value goes to Out and whose index to Indices. */
typedef int64_t (*ic_kth_pick)(const ic_kctx *c, const char *row, int64_t stride, int64_t len,
                               int64_t *idx);
ic_status ic_kth_run(ic_kctx *c, int64_t axis, ic_kth_pick pick);

/* The kernel of argsort and top_k: along `axis` of X (input slot 0; any axis for a 0-D X),
 * the first k of each row ordered by `how` (ascending, or descending when desc) into Out
 * (output slot 0, X's dtype) and their positions into Indices (output slot 1, int64), both
 * shaped as X with the axis dim k. */
ic_status ic_sort_take(ic_kctx *c, int axis, int64_t k, bool desc, ic_sort_how how);

#endif
