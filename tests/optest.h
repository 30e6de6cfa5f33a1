/* One-op test programs for the shape and data-movement op suites: feed inputs, add one op,
 * fetch its outputs, run through tu_run, and compare against references computed in the test
 * by index arithmetic. Header-only (static functions) so each suite stays one file. */
#ifndef IC_TESTS_OPTEST_H
#define IC_TESTS_OPTEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define OT_MAX 32

typedef struct optest {
  ic_builder *b;
  ic_builder_op *op;                /* the op under test */
  size_t n_feeds;
  const char *feed_names[OT_MAX];
  ic_tensor *feeds[OT_MAX];         /* owned */
  size_t n_fetches;
  const char *fetch_names[OT_MAX];
  ic_tensor *out[OT_MAX];           /* fetched results (owned), by fetch order */
  char err[1024];
} optest;

static inline void ot_begin(optest *t) {
  memset(t, 0, sizeof *t);
  t->b = ic_builder_create();
}

/* Feed v (owned by t from now on) as `name`, declared with the same rank and unknown dims. */
static inline void ot_feed(optest *t, const char *name, ic_tensor *v) {
  int64_t d[IC_MAX_RANK];
  for (int i = 0; i < IC_MAX_RANK; i++) d[i] = -1;
  ic_builder_var(t->b, 0, name, ic_tensor_dtype(v), ic_tensor_ndim(v), d, false);
  ic_builder_feed(t->b, name);
  ck_assert_uint_lt(t->n_feeds, OT_MAX);
  t->feed_names[t->n_feeds] = name;
  t->feeds[t->n_feeds++] = v;
}

/* Add the op under test (after every ot_feed). */
static inline ic_builder_op *ot_op(optest *t, const char *type) {
  t->op = ic_builder_add_op(t->b, 0, type);
  return t->op;
}

static inline void ot_fetch(optest *t, const char *name) {
  ic_builder_var(t->b, 0, name, IC_FP32, 0, NULL, false);
  ic_builder_fetch(t->b, name);
  ck_assert_uint_lt(t->n_fetches, OT_MAX);
  t->fetch_names[t->n_fetches++] = name;
}

/* Output slot of the op with one variable, fetched. */
static inline void ot_out(optest *t, const char *slot, const char *name) {
  ic_builder_out(t->op, slot, name);
  ot_fetch(t, name);
}

/* Output slot with n variables, all fetched. */
static inline void ot_outs(optest *t, const char *slot, size_t n, const char *const *names) {
  ic_builder_output(t->op, slot, n, names);
  for (size_t i = 0; i < n; i++) ot_fetch(t, names[i]);
}

/* An XShape output `name`: it holds no data and cannot be fetched, so a `shape` op after the
 * op under test reads its dims into `dims_name`, which is fetched. */
static inline void ot_xshape(optest *t, const char *name, const char *dims_name) {
  ic_builder_out(t->op, "XShape", name);
  ic_builder_var(t->b, 0, name, IC_FP32, 0, NULL, false);
  ic_builder_op *sh = ic_builder_add_op(t->b, 0, "shape");
  ic_builder_in(sh, "Input", name);
  ic_builder_out(sh, "Out", dims_name);
  ot_fetch(t, dims_name);
}

static inline ic_status ot_run(optest *t) {
  return tu_run(t->b, t->n_feeds, t->feed_names, t->feeds, t->n_fetches, t->fetch_names, t->out,
                t->err, sizeof t->err);
}

/* Run and require success. */
static inline void ot_ok(optest *t) {
  ic_status st = ot_run(t);
  ck_assert_msg(st == IC_OK, "%s: %s", ic_status_name(st), t->err);
}

static inline void ot_end(optest *t) {
  for (size_t i = 0; i < t->n_feeds; i++) ic_tensor_destroy(t->feeds[i]);
  for (size_t i = 0; i < t->n_fetches; i++) ic_tensor_destroy(t->out[i]);
  ic_builder_destroy(t->b);
  memset(t, 0, sizeof *t);
}

/* A tensor whose elements are all distinct (per dtype), so a misplaced element shows. Ints
 * use the high bytes too, to catch moves of the wrong width; float16 gets raw bit patterns. */
static inline ic_tensor *ot_iota(ic_dtype dt, int ndim, const int64_t *dims, uint64_t seed) {
  ic_tensor *t;
  ck_assert_int_eq(ic_tensor_create(dt, ndim, dims, &t), IC_OK);
  void *p = ic_tensor_data(t);
  for (int64_t k = 0; k < ic_tensor_numel(t); k++) {
    switch (dt) {
      case IC_FP32: ((float *)p)[k] = 0.25f * (float)k + (float)seed; break;
      case IC_FP64: ((double *)p)[k] = 0.125 * (double)k - (double)seed; break;
      case IC_INT32: ((int32_t *)p)[k] = (int32_t)(k * 65599 + (int64_t)seed); break;
      case IC_INT64: ((int64_t *)p)[k] = (int64_t)(((seed + 1) << 40) + (uint64_t)k * 1000003u); break;
      case IC_FP16: case IC_BF16: case IC_INT16: ((uint16_t *)p)[k] = (uint16_t)(k * 40503u + seed); break;
      default: ((uint8_t *)p)[k] = (uint8_t)(k * 37u + seed); break;
    }
  }
  return t;
}

/* Element k of t as a double (the dtypes tu_assert_close reads). */
static inline double ot_val(const ic_tensor *t, int64_t k) {
  const void *p = ic_tensor_cdata(t);
  switch (ic_tensor_dtype(t)) {
    case IC_FP32: return ((const float *)p)[k];
    case IC_FP64: return ((const double *)p)[k];
    case IC_INT32: return ((const int32_t *)p)[k];
    case IC_INT64: return (double)((const int64_t *)p)[k];
    default: return ((const uint8_t *)p)[k];
  }
}

/* Assert out[k] == in[src[k]] for every k < n: as doubles through tu_assert_close for the
 * numeric dtypes, byte for byte for the others. */
static inline void ot_check_gather(const ic_tensor *out, const ic_tensor *in, const int64_t *src,
                                   size_t n) {
  ck_assert_ptr_nonnull(out);
  ck_assert_int_eq(ic_tensor_dtype(out), ic_tensor_dtype(in));
  ck_assert_int_eq(ic_tensor_numel(out), (int64_t)n);
  ic_dtype dt = ic_tensor_dtype(in);
  if (dt == IC_FP32 || dt == IC_FP64 || dt == IC_INT32 || dt == IC_INT64) {
    double *ref = malloc((n ? n : 1) * sizeof *ref);
    for (size_t k = 0; k < n; k++) ref[k] = ot_val(in, src[k]);
    tu_assert_close(out, ref, n, 0, 0);
    free(ref);
    return;
  }
  size_t es = ic_dtype_size(dt);
  const uint8_t *o = ic_tensor_cdata(out), *x = ic_tensor_cdata(in);
  for (size_t k = 0; k < n; k++) {
    ck_assert_msg(memcmp(o + k * es, x + (size_t)src[k] * es, es) == 0,
                  "element %zu differs from input element %lld", k, (long long)src[k]);
  }
}

/* Assert out holds exactly in's elements in order (a view op) with the given dims. */
static inline void ot_check_same_data(const ic_tensor *out, const ic_tensor *in, int ndim,
                                      const int64_t *dims) {
  tu_assert_shape(out, ic_tensor_dtype(in), ndim, dims);
  ck_assert_uint_eq(ic_tensor_nbytes(out), ic_tensor_nbytes(in));
  ck_assert(memcmp(ic_tensor_cdata(out), ic_tensor_cdata(in), ic_tensor_nbytes(in)) == 0);
}

/* Assert an int32 tensor (a fetched shape) holds exactly the n values given. */
static inline void ot_check_i32(const ic_tensor *t, size_t n, const int64_t *v) {
  int64_t d = (int64_t)n;
  tu_assert_shape(t, IC_INT32, 1, &d);
  for (size_t i = 0; i < n; i++) {
    ck_assert_msg(((const int32_t *)ic_tensor_cdata(t))[i] == v[i], "value %zu is %d, expected %lld",
                  i, ((const int32_t *)ic_tensor_cdata(t))[i], (long long)v[i]);
  }
}

static inline int64_t ot_numel(int nd, const int64_t *dims) {
  int64_t n = 1;
  for (int i = 0; i < nd; i++) n *= dims[i];
  return n;
}

/* Multi-index of flat position k in dims (C order), and back. */
static inline void ot_unravel(int64_t k, int nd, const int64_t *dims, int64_t *idx) {
  for (int i = nd - 1; i >= 0; i--) {
    idx[i] = dims[i] ? k % dims[i] : 0;
    k = dims[i] ? k / dims[i] : 0;
  }
}
static inline int64_t ot_ravel(int nd, const int64_t *dims, const int64_t *idx) {
  int64_t k = 0;
  for (int i = 0; i < nd; i++) k = k * dims[i] + idx[i];
  return k;
}

#endif
