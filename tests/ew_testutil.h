/* Helpers for the op suites (test_ops_elementwise.c, test_ops_activation.c,
 * test_ops_misc.c): one-op programs fed from tensors, deterministic inputs of any dtype, and
 * tensors read back as doubles for reference comparisons. Header-only (static functions). */
#ifndef IC_EW_TESTUTIL_H
#define IC_EW_TESTUTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Declare variable `name` with t's dtype and rank (every dim -1) and feed it. */
static inline void ew_feed(ic_builder *b, const char *name, const ic_tensor *t) {
  int64_t dims[IC_MAX_RANK];
  for (int i = 0; i < IC_MAX_RANK; i++) dims[i] = -1;
  ic_builder_var(b, 0, name, ic_tensor_dtype(t), ic_tensor_ndim(t), dims, false);
  ic_builder_feed(b, name);
}

/* Declare output variable `name` and fetch it. */
static inline void ew_fetch(ic_builder *b, const char *name, ic_dtype dt) {
  ic_builder_var(b, 0, name, dt, 0, NULL, false);
  ic_builder_fetch(b, name);
}

/* Deterministic values in [lo, hi) for seed (xorshift, as tu_rand_f32). */
/* A program of one op `type` fed by `in` (a slot listed twice holds several variables) and
 * writing "Out" into the fetched variable "out" of dtype out_dt. */
typedef struct ew_in {
  const char *slot;
  const char *var;
  ic_tensor *t;
} ew_in;

static inline ic_builder_op *ew_op_program(ic_builder **bp, const char *type, size_t n,
                                           const ew_in *in, ic_dtype out_dt) {
  ic_builder *b = *bp = ic_builder_create();
  for (size_t i = 0; i < n; i++) ew_feed(b, in[i].var, in[i].t);
  ic_builder_op *o = ic_builder_add_op(b, 0, type);
  for (size_t i = 0; i < n; i++) {
    bool seen = false;
    for (size_t j = 0; j < i; j++) seen |= !strcmp(in[j].slot, in[i].slot);
    if (seen) continue;
    const char *args[8];
    size_t k = 0;
    for (size_t j = i; j < n && k < 8; j++) {
      if (!strcmp(in[j].slot, in[i].slot)) args[k++] = in[j].var;
    }
    ic_builder_input(o, in[i].slot, k, args);
  }
  ic_builder_out(o, "Out", "out");
  ew_fetch(b, "out", out_dt);
  return o;
}

static inline double ew_uniform(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

/* A tensor of dtype dt (float32, float64, int32 or int64) with values in [lo, hi); integer
 * tensors get whole numbers. */
static inline ic_tensor *ew_rand(ic_dtype dt, int ndim, const int64_t *dims, uint64_t seed,
                                 double lo, double hi) {
  ic_tensor *t;
  ck_assert_int_eq(ic_tensor_create(dt, ndim, dims, &t), IC_OK);
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 12345;
  int64_t n = ic_tensor_numel(t);
  void *d = ic_tensor_data(t);
  for (int64_t i = 0; i < n; i++) {
    double v = lo + (hi - lo) * ew_uniform(&s);
    switch (dt) {
      case IC_FP32: ((float *)d)[i] = (float)v; break;
      case IC_FP64: ((double *)d)[i] = v; break;
      case IC_INT32: ((int32_t *)d)[i] = (int32_t)floor(v); break;
      case IC_INT64: ((int64_t *)d)[i] = (int64_t)floor(v); break;
      default: ck_abort_msg("ew_rand: dtype %d", dt);
    }
  }
  return t;
}

/* Element k of a numeric tensor as a double. */
static inline double ew_at(const ic_tensor *t, int64_t k) {
  const void *d = ic_tensor_cdata(t);
  switch (ic_tensor_dtype(t)) {
    case IC_FP32: return ((const float *)d)[k];
    case IC_FP64: return ((const double *)d)[k];
    case IC_INT32: return ((const int32_t *)d)[k];
    case IC_INT64: return (double)((const int64_t *)d)[k];
    case IC_INT16: return ((const int16_t *)d)[k];
    case IC_INT8: return ((const int8_t *)d)[k];
    case IC_BOOL: case IC_UINT8: return ((const uint8_t *)d)[k];
    default: ck_abort_msg("ew_at: dtype %d", ic_tensor_dtype(t)); return 0;
  }
}

/* Build b, feed the named tensors, run, fetch "out"; returns the status (error text in
 * err). */
static inline ic_status ew_run(ic_builder *b, size_t n, const char *const *names,
                               ic_tensor *const *feeds, ic_tensor **out, char *err,
                               size_t errlen) {
  return tu_run(b, n, names, feeds, 1, TU_NAMES("out"), out, err, errlen);
}

/* Assert two tensors hold the same dtype, dims and bytes. */
static inline void ew_assert_same(const ic_tensor *a, const ic_tensor *b) {
  tu_assert_bitwise(a, b, "same");
}

#endif
