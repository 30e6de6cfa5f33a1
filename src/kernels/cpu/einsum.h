/* einsum and einsum_grad share the parsed equation (einsum.c). */
#ifndef IC_KERNELS_CPU_EINSUM_H
#define IC_KERNELS_CPU_EINSUM_H

#include "kernels/kernel.h"

#define N_LABELS 26

typedef struct einsum_attrs {
  int n_ops;
  char ops[2][IC_MAX_RANK + 1]; /* each operand's labels, one per dim */
  char out[IC_MAX_RANK + 1];
  /* the labels (0-25) by type, in order of first appearance (operand 0, then 1), classified
   * once at parse: batch, free in operand 0 / 1, contraction, reduced in operand 0 / 1 */
  int batch[N_LABELS], free0[N_LABELS], free1[N_LABELS], con[N_LABELS], red[2][N_LABELS];
  int nb, nf0, nf1, nc, nr[2];
} einsum_attrs;

/* Parses attribute `equation` (the explicit form, at most two operands) and classifies its
 * labels. */
ic_status ic_einsum_parse(ic_attr_reader *r, void *attrs);
/* The labels of operand o's InnerCache, in order (its dims are their sizes): [batch, free0,
 * contraction] for operand 0, [batch, contraction, free1] for operand 1; returns their count.
 * keep holds up to 26 entries. */
int ic_einsum_cache_labels(const einsum_attrs *a, int o, int *keep);

#endif
