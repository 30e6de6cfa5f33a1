/* Helpers for the one-op suites of the math ops (test_ops_matmul.c, test_ops_reduce.c,
 * test_ops_softmax.c): random inputs of any dtype, a one-op program runner and conversion of
 * results to double for the references. Header-only, every function static inline. */
#ifndef IC_TESTS_MATHUTIL_H
#define IC_TESTS_MATHUTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define MU_MAX_FEEDS 8

/* A one-op program under construction: feeds first, then the op, then the fetch of "out". */
typedef struct mu_prog {
  ic_builder *b;
  size_t n;
  const char *names[MU_MAX_FEEDS];
  ic_tensor *feeds[MU_MAX_FEEDS];
} mu_prog;

static inline void mu_init(mu_prog *p) {
  memset(p, 0, sizeof *p);
  p->b = ic_builder_create();
  ck_assert_ptr_nonnull(p->b);
}

/* Declare variable `name` with t's dtype and dims and feed t to it (t stays the caller's). */
static inline void mu_feed(mu_prog *p, const char *name, ic_tensor *t) {
  ck_assert_uint_lt(p->n, MU_MAX_FEEDS);
  ic_builder_var(p->b, 0, name, ic_tensor_dtype(t), ic_tensor_ndim(t), ic_tensor_dims(t), false);
  ic_builder_feed(p->b, name);
  p->names[p->n] = name;
  p->feeds[p->n++] = t;
}

/* Append the op, writing its output slot `out_slot` to the variable "out". */
static inline ic_builder_op *mu_op(mu_prog *p, const char *type, const char *out_slot) {
  ic_builder_var(p->b, 0, "out", IC_FP32, 1, (const int64_t[]){-1}, false);
  ic_builder_op *op = ic_builder_add_op(p->b, 0, type);
  ic_builder_out(op, out_slot, "out");
  return op;
}

/* Fetch "out", run in every executor configuration and free the builder. *out is the result
 * (the caller destroys it) or NULL on failure, when err holds the message. */
static inline ic_status mu_run(mu_prog *p, ic_tensor **out, char *err, size_t errlen) {
  ic_builder_fetch(p->b, "out");
  ic_status st = tu_run(p->b, p->n, p->names, p->feeds, 1, TU_NAMES("out"), out, err, errlen);
  ic_builder_destroy(p->b);
  p->b = NULL;
  return st;
}

/* Deterministic values in [-1, 1) (floats) or [-50, 50] (integers). */
static inline ic_tensor *mu_rand(ic_dtype dt, int ndim, const int64_t *dims, uint64_t seed) {
  ic_tensor *t;
  ck_assert_int_eq(ic_tensor_create(dt, ndim, dims, &t), IC_OK);
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 12345;
  int64_t n = ic_tensor_numel(t);
  void *d = ic_tensor_data(t);
  for (int64_t i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    double u = (double)(s >> 11) * (1.0 / 9007199254740992.0); /* [0, 1) */
    switch (dt) {
      case IC_FP32: ((float *)d)[i] = (float)(2 * u - 1); break;
      case IC_FP64: ((double *)d)[i] = 2 * u - 1; break;
      case IC_INT32: ((int32_t *)d)[i] = (int32_t)(s % 101) - 50; break;
      case IC_INT64: ((int64_t *)d)[i] = (int64_t)(s % 101) - 50; break;
      case IC_BOOL: ((uint8_t *)d)[i] = (uint8_t)(s & 1); break;
      default: ck_abort_msg("mu_rand: dtype %d", (int)dt);
    }
  }
  return t;
}

/* The elements of t as doubles (malloc'd; at least one slot). */
static inline double *mu_f64(const ic_tensor *t) {
  int64_t n = ic_tensor_numel(t);
  double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
  ck_assert_ptr_nonnull(v);
  const void *d = ic_tensor_cdata(t);
  for (int64_t i = 0; i < n; i++) {
    switch (ic_tensor_dtype(t)) {
      case IC_FP32: v[i] = ((const float *)d)[i]; break;
      case IC_FP64: v[i] = ((const double *)d)[i]; break;
      case IC_INT32: v[i] = ((const int32_t *)d)[i]; break;
      case IC_INT64: v[i] = (double)((const int64_t *)d)[i]; break;
      case IC_BOOL: v[i] = ((const uint8_t *)d)[i]; break;
      default: ck_abort_msg("mu_f64: dtype %d", (int)ic_tensor_dtype(t));
    }
  }
  return v;
}

static inline int64_t mu_numel(int ndim, const int64_t *dims) {
  int64_t n = 1;
  for (int i = 0; i < ndim; i++) n *= dims[i];
  return n;
}

#endif
