/* index_select's attributes, shape rule and index check, shared with index_select_grad
 * (index_select.c). */
#ifndef IC_KERNELS_CPU_INDEX_SELECT_H
#define IC_KERNELS_CPU_INDEX_SELECT_H

#include "kernels/kernel.h"

typedef struct index_select_attrs {
  int64_t dim;
} index_select_attrs;

ic_status ic_index_select_parse(ic_attr_reader *r, void *attrs); /* index_select_attrs */
/* Checks the op's Index (slot 1: rank 1, or [n, 1]) and `dim` against X (slot 0), writes
 * index_select's Out dims (X's rank) into d and returns the axis, or -1 on failure. */
int ic_index_select_out_dims(ic_kctx *c, int64_t d[IC_MAX_RANK]);
/* Fails naming the position when an index lies outside [-size, size) of X's dim `axis`. */
ic_status ic_index_select_check(ic_kctx *c, const ic_tensor *x, const ic_tensor *idx, int axis);

#endif
