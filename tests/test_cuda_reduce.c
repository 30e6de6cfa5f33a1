/* The reductions' CUDA kernels (reduce_sum, reduce_mean, reduce_max, mean) and sum (add_n) against
 * their CPU kernels (tests/cuda_harness.h): the shared case tables of cases_reduce.h, which
 * test_ops_reduce.c runs on the CPU executors (every axis pattern with and without keep_dim in
 * every dtype, reduce_all, an empty or absent `dim`, rank 0, axes of size 1, out_dtype conversions
 * (including floats out of an integer's range), wrapping integer sums and truncating integer
 * means, empty axes, NaN and -inf, and sizes that take each kernel shape: a block per output over
 * contiguous or strided elements, a thread per output, and more outputs than one grid sweep), plus
 * floats out of an integer's range, wrapping sums, truncating means, NaN and -inf.
 *
 * Tolerances: float sums accumulate in double on both sides in different orders, so a float32 Out
 * may differ by one rounding (relative 1e-6, absolute 1e-9 near 0) and a float64 Out in its last
 * bits (1e-12). Integer sums and means, max, and sum (add_n, which adds in the same order on both
 * sides) must agree bit for bit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.h"
#include "cases_reduce.h"

#define NO_ATTR INT32_MIN

typedef struct rcase {
  const char *type;    /* reduce_sum, reduce_mean, reduce_max */
  size_t n_dim;
  const int32_t *dim;  /* NULL: leave `dim` out */
  bool keep_dim, reduce_all;
  int out_dtype;       /* NO_ATTR: leave it out */
} rcase;

#define DIM(...)                                             \
  sizeof((const int32_t[]){__VA_ARGS__}) / sizeof(int32_t), \
      (const int32_t[]) { __VA_ARGS__ }
#define NODIM 0, NULL

static ic_builder *reduce_program(const rcase *rc, const ic_tensor *x) {
  ic_builder *b = ic_builder_create();
  int64_t d[IC_MAX_RANK];
  for (int i = 0; i < IC_MAX_RANK; i++) d[i] = -1;
  ic_builder_var(b, 0, "x", ic_tensor_dtype(x), ic_tensor_ndim(x), d, false);
  ic_builder_feed(b, "x");
  ic_builder_var(b, 0, "out", IC_FP32, 0, NULL, false);
  ic_builder_op *op = ic_builder_add_op(b, 0, rc->type);
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "out");
  if (rc->dim) ic_builder_attr_ints(op, "dim", rc->n_dim, rc->dim);
  ic_builder_attr_bool(op, "keep_dim", rc->keep_dim);
  ic_builder_attr_bool(op, "reduce_all", rc->reduce_all);
  if (rc->out_dtype != NO_ATTR) {
    ic_builder_attr_int(op, "in_dtype", -1);
    ic_builder_attr_int(op, "out_dtype", rc->out_dtype);
  }
  ic_builder_fetch(b, "out");
  return b;
}

/* Tolerance for Out of the reduction rc of an X of dtype xdt. */
static void tolerance(const rcase *rc, ic_dtype xdt, double *rtol, double *atol) {
  ic_dtype od = xdt;
  if (rc->out_dtype != NO_ATTR && rc->out_dtype >= 0) od = (ic_dtype)rc->out_dtype;
  *rtol = *atol = 0;
  if (strcmp(rc->type, "reduce_max") == 0) return;
  if (od == IC_FP32) *rtol = 1e-6, *atol = 1e-9;
  if (od == IC_FP64) *rtol = 1e-12, *atol = 1e-12;
}

static void check_on(const rcase *rc, ic_tensor *x) {
  ic_builder *b = reduce_program(rc, x);
  double rtol, atol;
  tolerance(rc, ic_tensor_dtype(x), &rtol, &atol);
  ch_check_builder(b, 1, TU_NAMES("x"), &x, rtol, atol);
  ic_builder_destroy(b);
}

static void check(const rcase *rc, ic_dtype dt, int nd, const int64_t *dims, uint64_t seed) {
  ic_tensor *x = mu_rand(dt, nd, dims, seed);
  check_on(rc, x);
  ic_tensor_destroy(x);
}

static const char *const k_types[] = {"reduce_sum", "reduce_mean", "reduce_max"};
static const ic_dtype k_dts[] = {IC_FP32, IC_FP64, IC_INT32, IC_INT64};

/* Every row of the shared table. */
START_TEST(table_cases) {
  for (size_t i = 0; i < CR_N_CASES; i++) {
    const cr_case *c = &cr_cases[i];
    ic_tensor *x = cr_input(c, 11 + i);
    ic_builder *b = cr_program(c, x);
    double rtol, atol;
    cr_gpu_tol(c, &rtol, &atol);
    ch_check_builder(b, 1, TU_NAMES("x"), &x, rtol, atol);
    ic_builder_destroy(b);
    ic_tensor_destroy(x);
  }
}
END_TEST

START_TEST(integer_dtypes_and_out_dtype) {
  const int64_t *d = TU_DIMS(3, 4, 5);
  rcase rc;
  /* floats beyond an integer's range convert to its lowest value, as on x86 */
  ic_tensor *big = ew_rand(IC_FP32, 2, TU_DIMS(6, 7), 340, -1e10, 1e10);
  rc = (rcase){"reduce_sum", DIM(1), false, false, IC_INT32};
  check_on(&rc, big);
  ic_tensor_destroy(big);
  big = ew_rand(IC_FP64, 2, TU_DIMS(6, 7), 341, -3e19, 3e19);
  rc.out_dtype = IC_INT64;
  check_on(&rc, big);
  ic_tensor_destroy(big);
  /* integer means truncate toward zero */
  rc = (rcase){"reduce_mean", DIM(1), false, false, NO_ATTR};
  check(&rc, IC_INT32, 3, d, 350);
  check(&rc, IC_INT64, 3, d, 351);
  ic_tensor *x = tu_i32(1, TU_DIMS(3), (const int32_t[]){-4, -5, -6});
  rc.dim = (const int32_t[]){0};
  check_on(&rc, x);
  ic_tensor_destroy(x);
  /* int64 sums wrap */
  x = tu_i64(1, TU_DIMS(2), (const int64_t[]){INT64_MAX, 2});
  rc = (rcase){"reduce_sum", DIM(0), false, false, NO_ATTR};
  check_on(&rc, x);
  ic_tensor_destroy(x);
  x = tu_i32(2, TU_DIMS(2, 2), (const int32_t[]){INT32_MAX, INT32_MAX, 5, INT32_MIN});
  rc.out_dtype = IC_INT32;
  check_on(&rc, x);
  ic_tensor_destroy(x);
}
END_TEST

START_TEST(empty_and_nan) {
  rcase rc;
  ic_tensor *x = tu_f32(2, TU_DIMS(3, 3), (const float[]){NAN, 1, 2, 3, NAN, 4, 5, 6, 7});
  for (int t = 0; t < 3; t++) {
    for (int ax = 0; ax < 2; ax++) {
      rc = (rcase){k_types[t], DIM(ax), false, false, NO_ATTR};
      check_on(&rc, x);
    }
  }
  ic_tensor_destroy(x);
  x = tu_f64(1, TU_DIMS(2), (const double[]){-INFINITY, -INFINITY});
  rc = (rcase){"reduce_max", DIM(0), false, false, NO_ATTR};
  check_on(&rc, x);
  ic_tensor_destroy(x);
  /* a NaN deep in a long row, and one in a column, for the block reductions */
  x = mu_rand(IC_FP32, 2, TU_DIMS(5, 3001), 405);
  ((float *)ic_tensor_data(x))[2 * 3001 + 1777] = NAN;
  for (int t = 0; t < 3; t++) {
    for (int ax = 0; ax < 2; ax++) {
      rc = (rcase){k_types[t], DIM(ax), false, false, NO_ATTR};
      check_on(&rc, x);
    }
  }
  ic_tensor_destroy(x);
}
END_TEST

START_TEST(reduce_bad_inputs) {
  ic_tensor *x = mu_rand(IC_FP32, 2, TU_DIMS(2, 3), 1);
  const struct {
    rcase rc;
    const char *needle;
  } bad[] = {
      {{"reduce_sum", DIM(2), false, false, NO_ATTR}, "expected in [-2, 2)"},
      {{"reduce_mean", DIM(1, -1), false, false, NO_ATTR}, "twice"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ic_builder *b = reduce_program(&bad[i].rc, x);
    ic_program *p;
    char err[1024];
    ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
    ic_status st = ch_check_op_status(p, 1, TU_NAMES("x"), &x, 0, 0, err, sizeof err);
    ck_assert_int_eq(st, IC_ERR_SHAPE);
    tu_assert_msg(err, "X 'x'", bad[i].needle, NULL);
    ic_program_destroy(p);
    ic_builder_destroy(b);
  }
  ic_tensor_destroy(x);
  /* the max of an empty axis is refused */
  x = mu_rand(IC_FP32, 2, TU_DIMS(2, 0), 1);
  rcase rc = {"reduce_max", DIM(1), false, false, NO_ATTR};
  ic_builder *b = reduce_program(&rc, x);
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ck_assert_int_eq(ch_check_op_status(p, 1, TU_NAMES("x"), &x, 0, 0, err, sizeof err),
                   IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "empty", NULL);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- mean ---- */

static ic_builder *mean_program(const ic_tensor *x) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ic_builder_op *op = ic_builder_add_op(b, 0, "mean");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "out");
  ew_fetch(b, "out", ic_tensor_dtype(x));
  return b;
}

START_TEST(mean_all) {
  for (size_t i = 0; i < CM_N_CASES; i++) {
    for (int dt = 0; dt < 2; dt++) {
      ic_tensor *x = mu_rand(dt ? IC_FP64 : IC_FP32, cm_cases[i].nd, cm_cases[i].dims, 3 + i);
      ic_builder *b = mean_program(x);
      ch_check_builder(b, 1, TU_NAMES("x"), &x, dt ? 1e-12 : 1e-6, dt ? 1e-12 : 1e-9);
      ic_builder_destroy(b);
      ic_tensor_destroy(x);
    }
  }
  /* no integer mean */
  ic_tensor *x = mu_rand(IC_INT32, 1, TU_DIMS(3), 1);
  ic_builder *b = mean_program(x);
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ck_assert_int_eq(ch_check_op_status(p, 1, TU_NAMES("x"), &x, 0, 0, err, sizeof err),
                   IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "int32[3]", NULL);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- sum (add_n) ---- */

#define SUM_MAX CSUM_MAX

static ic_status sum_status(size_t n, ic_tensor *const *xs, char *err, size_t errlen,
                            bool expect_ok) {
  char names[SUM_MAX][24];
  const char *np[SUM_MAX];
  ic_builder *b = ic_builder_create();
  for (size_t i = 0; i < n; i++) {
    snprintf(names[i], sizeof names[i], "x%zu", i);
    np[i] = names[i];
    ew_feed(b, np[i], xs[i]);
  }
  ic_builder_op *op = ic_builder_add_op(b, 0, "sum");
  ic_builder_input(op, "X", n, np);
  ic_builder_out(op, "Out", "out");
  ic_builder_attr_bool(op, "use_mkldnn", false);
  ew_fetch(b, "out", ic_tensor_dtype(xs[0]));
  ic_program *p;
  ck_assert_msg(ic_builder_build(b, &p, err, errlen) == IC_OK, "%s", err);
  /* the same additions in the same order: bitwise */
  ic_status st = ch_check_op_status(p, n, np, xs, 0, 0, err, errlen);
  if (expect_ok) ck_assert_msg(st == IC_OK, "%s: %s", ic_status_name(st), err);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  return st;
}

START_TEST(sum_inputs) {
  const size_t *counts = csum_counts;
  char err[1024];
  for (int d = 0; d < 4; d++) {
    for (size_t c = 0; c < CSUM_N_COUNTS; c++) {
      ic_tensor *xs[SUM_MAX];
      for (size_t i = 0; i < counts[c]; i++) {
        xs[i] = mu_rand(k_dts[d], 3, TU_DIMS(3, 1, 7), 700 + i);
      }
      sum_status(counts[c], xs, err, sizeof err, true);
      for (size_t i = 0; i < counts[c]; i++) ic_tensor_destroy(xs[i]);
    }
  }
  /* large, rank 0, empty, and integer wrap-around */
  ic_tensor *xs[3] = {mu_rand(IC_FP32, 1, TU_DIMS(1000003), 1),
                      mu_rand(IC_FP32, 1, TU_DIMS(1000003), 2),
                      mu_rand(IC_FP32, 1, TU_DIMS(1000003), 3)};
  sum_status(3, xs, err, sizeof err, true);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(xs[i]);
  ic_tensor *r0[3] = {tu_f32(0, NULL, (const float[]){1.0f}),
                      tu_f32(0, NULL, (const float[]){0x1p-24f}),
                      tu_f32(0, NULL, (const float[]){0x1p-24f})};
  sum_status(3, r0, err, sizeof err, true);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(r0[i]);
  ic_tensor *e[2] = {mu_rand(IC_FP32, 2, TU_DIMS(0, 3), 1), mu_rand(IC_FP32, 2, TU_DIMS(0, 3), 2)};
  sum_status(2, e, err, sizeof err, true);
  ic_tensor_destroy(e[0]);
  ic_tensor_destroy(e[1]);
  ic_tensor *w[2] = {tu_i32(1, TU_DIMS(2), (const int32_t[]){INT32_MAX, INT32_MIN}),
                     tu_i32(1, TU_DIMS(2), (const int32_t[]){1, -1})};
  sum_status(2, w, err, sizeof err, true);
  ic_tensor_destroy(w[0]);
  ic_tensor_destroy(w[1]);
}
END_TEST

START_TEST(sum_bad_inputs) {
  ic_tensor *xs[3] = {mu_rand(IC_FP32, 2, TU_DIMS(2, 3), 1), mu_rand(IC_FP32, 2, TU_DIMS(2, 3), 2),
                      mu_rand(IC_FP32, 2, TU_DIMS(1, 3), 3)};
  char err[1024];
  ck_assert_int_eq(sum_status(3, xs, err, sizeof err, false), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x2'", "float32[1, 3]", "float32[2, 3]", NULL);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(xs[i]);
}
END_TEST

static TCase *tc_reduce(void) {
  TCase *tc = tcase_create("reduce");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, table_cases);
  tcase_add_test(tc, integer_dtypes_and_out_dtype);
  tcase_add_test(tc, empty_and_nan);
  tcase_add_test(tc, reduce_bad_inputs);
  return tc;
}

static TCase *tc_mean_sum(void) {
  TCase *tc = tcase_create("mean_sum");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, mean_all);
  tcase_add_test(tc, sum_inputs);
  tcase_add_test(tc, sum_bad_inputs);
  return tc;
}

CH_MAIN("cuda_reduce", tc_reduce, tc_mean_sum)
