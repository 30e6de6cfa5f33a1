/* lookup_table and lookup_table_v2 (embedding) share one kernel (lookup_table.c), and so do
 * their gradients (lookup_table_grad.c). */
#ifndef IC_KERNELS_CPU_LOOKUP_TABLE_H
#define IC_KERNELS_CPU_LOOKUP_TABLE_H

#include "kernels/kernel.h"

typedef struct lookup_attrs {
  int64_t padding_idx;  /* -1: none (v1's kNoPadding) */
  bool v2;
} lookup_attrs;

ic_status ic_lookup_parse(ic_attr_reader *r, lookup_attrs *a);
ic_status ic_lookup_infer(ic_kctx *c);
ic_status ic_lookup_run(ic_kctx *c);

/* lookup_table_grad and lookup_table_v2_grad share one kernel (lookup_table_grad.c). */
typedef struct lgrad_attrs {
  lookup_attrs l;
  bool is_sparse;
} lgrad_attrs;

ic_status ic_lookup_grad_parse(ic_attr_reader *r, lgrad_attrs *a); /* a->l.v2 set by caller */
ic_status ic_lookup_grad_infer(ic_kctx *c);
ic_status ic_lookup_grad_run(ic_kctx *c);

#endif
