/* The reduction family: reduce_sum, reduce_mean, reduce_max and mean share their attributes,
 * shape inference and kernel here; each op file only picks the kind. */
#ifndef IC_KERNELS_CPU_REDUCE_H
#define IC_KERNELS_CPU_REDUCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/kernel.h"

typedef enum ic_reduce_kind {
  IC_REDUCE_SUM = 0,
  IC_REDUCE_MEAN = 1,
  IC_REDUCE_MAX = 2
} ic_reduce_kind;

typedef struct ic_reduce_attrs {
  ic_reduce_kind kind;
  size_t n_dim;        /* axes to reduce (may be negative); none means every axis */
  const int64_t *dim;  /* borrowed from the program */
  bool keep_dim;       /* keep reduced axes as 1s */
  bool reduce_all;     /* reduce every axis whatever `dim` says */
  int out_dtype;       /* reduce_sum: Paddle VarType of Out, -1 for the default */
} ic_reduce_attrs;

/* Read the legacy reduce_* attributes: dim (default [0]), keep_dim, reduce_all and, for sums,
 * out_dtype (in_dtype is accepted and ignored, as current Paddle does). */
ic_status ic_reduce_parse(ic_attr_reader *r, ic_reduce_attrs *a, ic_reduce_kind kind);
/* Check X against the attributes and set Out's dtype and dims. */
ic_status ic_reduce_infer(ic_kctx *c);
/* Compute Out. */
ic_status ic_reduce_cpu(ic_kctx *c);

#endif
