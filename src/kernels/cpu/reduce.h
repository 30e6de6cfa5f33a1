/* The reduction family: reduce_sum, reduce_mean, reduce_max, reduce_min, reduce_prod,
 * reduce_amax, reduce_amin, reduce_all, reduce_any, logsumexp and mean share their attributes,
 * shape inference and kernel here; each op file only picks the kind. */
#ifndef IC_KERNELS_CPU_REDUCE_H
#define IC_KERNELS_CPU_REDUCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ic_reduce_kind {
  IC_REDUCE_SUM = 0,
  IC_REDUCE_MEAN = 1,
  IC_REDUCE_MAX = 2,
  IC_REDUCE_MIN = 3,
  IC_REDUCE_PROD = 4,
  IC_REDUCE_AMAX = 5,
  IC_REDUCE_AMIN = 6,
  IC_REDUCE_ALL = 7,      /* Out bool: every element nonzero */
  IC_REDUCE_ANY = 8,      /* Out bool: some element nonzero */
  IC_REDUCE_LOGSUMEXP = 9 /* attributes axis / keepdim / reduce_all */
} ic_reduce_kind;

typedef struct ic_reduce_attrs {
  ic_reduce_kind kind;
  size_t n_dim;        /* axes to reduce (may be negative); none means every axis */
  const int64_t *dim;  /* borrowed from the program */
  bool keep_dim;       /* keep reduced axes as 1s */
  bool reduce_all;     /* reduce every axis whatever `dim` says */
  int out_dtype;       /* reduce_sum: Paddle VarType of Out, -1 for the default */
  const char *dim_name; /* the attribute `dim` came from, for messages */
} ic_reduce_attrs;

/* Read the legacy reduce_* attributes: dim (default [0]), keep_dim, reduce_all and, for sums,
 * out_dtype (in_dtype is accepted and ignored, as current Paddle does). logsumexp names them
 * axis (default [0]) and keepdim. */
ic_status ic_reduce_parse(ic_attr_reader *r, ic_reduce_attrs *a, ic_reduce_kind kind);
/* Check X against the attributes and set Out's dtype and dims. */
ic_status ic_reduce_infer(ic_kctx *c);
/* Compute Out. */
ic_status ic_reduce_cpu(ic_kctx *c);

/* X's axes merged into groups of adjacent reduced or kept axes (axes of size 1 dropped), in
 * X's memory order. The CPU and CUDA kernels both walk X through it. */
typedef struct ic_reduce_geom {
  int n;                         /* groups, at least 1 */
  int64_t size[IC_MAX_RANK];
  bool red[IC_MAX_RANK];
  int64_t ostride[IC_MAX_RANK];  /* Out elements per step of a kept group; 0 when reduced */
  int64_t in_n, out_n;           /* elements of X and of Out */
} ic_reduce_geom;

/* The reduced axes of the op's X under its attributes, as groups (fails like infer). */
ic_status ic_reduce_geometry(ic_kctx *c, ic_reduce_geom *g);

/* Runs BODY for each element i of X in memory order, with o the index in Out of the
 * reduction it belongs to (the gradients' walk: Out and Out@GRAD broadcast over X). */
#define IC_REDUCE_WALK(GEO, BODY)                                                           \
  do {                                                                                     \
    int64_t idx_[IC_MAX_RANK] = {0}, o = 0;                                                \
    for (int64_t i = 0; i < (GEO).in_n; i++) {                                             \
      BODY;                                                                                \
      for (int k_ = (GEO).n - 1; k_ >= 0; k_--) {                                          \
        o += (GEO).ostride[k_];                                                            \
        if (++idx_[k_] < (GEO).size[k_]) break;                                            \
        o -= (GEO).ostride[k_] * (GEO).size[k_];                                           \
        idx_[k_] = 0;                                                                      \
      }                                                                                    \
    }                                                                                      \
  } while (0)

/* Float to integer as the kernels convert for out_dtype: C's conversion is undefined out of
 * range, and x86 gives the lowest value there, so both kernels do that explicitly. */
static inline IC_HD int64_t ic_reduce_f2i64(double v) {
  return v >= -9223372036854775808.0 && v < 9223372036854775808.0 ? (int64_t)v : INT64_MIN;
}
static inline IC_HD int32_t ic_reduce_f2i32(double v) {
  return v > -2147483649.0 && v < 2147483648.0 ? (int32_t)v : INT32_MIN;
}

#ifdef __cplusplus
}
#endif

#endif
