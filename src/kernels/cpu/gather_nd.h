/* gather_nd's shape rule and index check, shared with gather_nd_grad (gather_nd.c). */
#ifndef IC_KERNELS_CPU_GATHER_ND_H
#define IC_KERNELS_CPU_GATHER_ND_H

#include "kernels/kernel.h"

/* Checks the op's X (slot 0) and Index (slot 1, int already checked) and writes gather_nd's
 * Out dims into d[*n]. */
ic_status ic_gather_nd_out_dims(ic_kctx *c, int64_t d[IC_MAX_RANK], int *n);
/* The offset, in slices of X's dims from k on, of Index's row r (k = Index's last dim); fails
 * naming the row and dim when an index is outside [0, dim). */
ic_status ic_gather_nd_row(ic_kctx *c, const ic_tensor *x, const ic_tensor *idx, int64_t r,
                           int64_t *off);

#endif
