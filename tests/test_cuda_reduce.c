/* The reductions' CUDA kernels (reduce_sum, reduce_mean, reduce_max, mean) and sum (add_n)
 * against their CPU kernels (tests/cuda_harness.h), with the cases of the CPU suite
 * (test_ops_reduce.c): every axis pattern with and without keep_dim in every dtype, reduce_all,
 * an empty or absent `dim`, rank 0, axes of size 1, out_dtype conversions (including floats
 * out of an integer's range), wrapping integer sums and truncating integer means, empty axes,
 * NaN and -inf, and sizes that take each kernel shape: a block per output over contiguous or
 * strided elements, a thread per output, and more outputs than one grid sweep.
 *
 * Tolerances: float sums accumulate in double on both sides in different orders, so a float32
 * Out may differ by one rounding (relative 1e-6, absolute 1e-9 near 0) and a float64 Out in
 * its last bits (1e-12). Integer sums and means, max, and sum (add_n, which adds in the same
 * order on both sides) must agree bit for bit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.h"
#include "ew_testutil.h"
#include "mathutil.h"

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

START_TEST(axes_and_keep_dim) {
  const int64_t *d = TU_DIMS(2, 3, 4, 5);
  for (int t = 0; t < 3; t++) {
    for (int k = 0; k < 4; k++) {
      for (int keep = 0; keep < 2; keep++) {
        const rcase cases[] = {
            {k_types[t], DIM(1), keep, false, NO_ATTR},
            {k_types[t], DIM(-1), keep, false, NO_ATTR},
            {k_types[t], DIM(0, 2), keep, false, NO_ATTR},
            {k_types[t], DIM(1, 2), keep, false, NO_ATTR},
            {k_types[t], DIM(0, -1), keep, false, NO_ATTR},
            {k_types[t], DIM(-4, 1, 3), keep, false, NO_ATTR},
            {k_types[t], DIM(3, 0), keep, false, NO_ATTR},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
          check(&cases[i], k_dts[k], 4, d, 100 + i);
        }
      }
    }
  }
}
END_TEST

START_TEST(reduce_everything) {
  for (int t = 0; t < 3; t++) {
    for (int k = 0; k < 2; k++) {
      const rcase all[] = {
          {k_types[t], DIM(1), false, true, NO_ATTR},   /* reduce_all wins over dim */
          {k_types[t], DIM(1), true, true, NO_ATTR},
          {k_types[t], 0, (const int32_t[]){0}, false, false, NO_ATTR}, /* empty dim */
          {k_types[t], NODIM, false, false, NO_ATTR},   /* no dim: Paddle's default [0] */
          {k_types[t], DIM(0, 1, 2), false, false, NO_ATTR},
          {k_types[t], DIM(2, -2, 0), true, false, NO_ATTR},
      };
      for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        check(&all[i], k_dts[k], 3, TU_DIMS(3, 5, 7), 200 + i);
      }
      /* rank 0 takes 0 and -1 */
      const rcase r0[] = {{k_types[t], DIM(0), false, false, NO_ATTR},
                          {k_types[t], DIM(-1), true, false, NO_ATTR}};
      for (size_t i = 0; i < 2; i++) check(&r0[i], k_dts[k], 0, NULL, 210 + i);
      /* axes of size 1 vanish from the groups */
      rcase r = {k_types[t], DIM(1), false, false, NO_ATTR};
      check(&r, k_dts[k], 2, TU_DIMS(1, 1), 220);
      check(&r, k_dts[k], 3, TU_DIMS(4, 1, 3), 221);
      rcase r2 = {k_types[t], DIM(0, 2), false, false, NO_ATTR};
      check(&r2, k_dts[k], 4, TU_DIMS(1, 6, 1, 5), 222);
    }
  }
}
END_TEST

START_TEST(integer_dtypes_and_out_dtype) {
  const int64_t *d = TU_DIMS(3, 4, 5);
  rcase rc = {"reduce_sum", DIM(1), false, false, NO_ATTR};
  check(&rc, IC_INT32, 3, d, 300); /* int64 Out */
  check(&rc, IC_INT64, 3, d, 301);
  check(&rc, IC_BOOL, 3, d, 302);  /* int64 Out */
  rc = (rcase){"reduce_sum", DIM(0, 2), true, false, NO_ATTR};
  check(&rc, IC_INT32, 3, d, 303);
  check(&rc, IC_BOOL, 3, d, 304);
  /* out_dtype, every conversion the CPU performs */
  const struct {
    ic_dtype x;
    int od;
  } conv[] = {{IC_INT32, IC_INT32}, {IC_INT64, IC_INT32}, {IC_INT64, IC_FP64},
              {IC_INT32, IC_FP32},  {IC_FP32, IC_FP64},   {IC_FP64, IC_FP32},
              {IC_FP32, IC_INT64},  {IC_FP64, IC_INT32},  {IC_BOOL, IC_FP32},
              {IC_BOOL, IC_INT32},  {IC_FP32, -1},        {IC_INT32, -1}};
  for (size_t i = 0; i < sizeof conv / sizeof conv[0]; i++) {
    rc = (rcase){"reduce_sum", DIM(2), false, false, conv[i].od};
    check(&rc, conv[i].x, 3, d, 310 + i);
    rc.dim = (const int32_t[]){0};
    rc.n_dim = 1;
    check(&rc, conv[i].x, 3, d, 330 + i);
  }
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
  const int64_t *d = TU_DIMS(2, 0, 3);
  rcase rc = {"reduce_sum", DIM(1), false, false, NO_ATTR};
  check(&rc, IC_FP32, 3, d, 400);
  check(&rc, IC_INT64, 3, d, 401);
  rc.type = "reduce_mean"; /* NaN for floats, 0 for integers */
  check(&rc, IC_FP64, 3, d, 402);
  check(&rc, IC_INT32, 3, d, 403);
  for (int t = 0; t < 3; t++) { /* an empty kept axis: empty Out */
    rc = (rcase){k_types[t], DIM(2), false, false, NO_ATTR};
    check(&rc, IC_FP32, 3, d, 404);
  }
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

/* Each kernel shape: block per output (contiguous, strided, two reduced groups), thread per
 * output, and grids that loop. */
START_TEST(kernel_shapes) {
  for (int t = 0; t < 3; t++) {
    rcase a0 = {k_types[t], DIM(0), false, false, NO_ATTR};
    rcase a1 = {k_types[t], DIM(1), false, false, NO_ATTR};
    rcase a02 = {k_types[t], DIM(0, 2), false, false, NO_ATTR};
    check(&a0, IC_FP32, 2, TU_DIMS(100003, 3), 500);   /* few outputs, strided: blocks */
    check(&a1, IC_FP32, 2, TU_DIMS(3, 100003), 501);   /* contiguous rows: blocks */
    check(&a02, IC_FP64, 3, TU_DIMS(17, 13, 19), 502); /* two reduced groups */
    check(&a0, IC_FP32, 2, TU_DIMS(64, 4099), 503);    /* many outputs, strided: threads */
    check(&a1, IC_INT32, 3, TU_DIMS(4099, 3, 8), 504); /* threads, integer */
    check(&a1, IC_FP32, 2, TU_DIMS(70001, 33), 505);   /* more blocks than one grid */
    check(&a02, IC_INT64, 3, TU_DIMS(3, 5000, 7), 506);
  }
  /* more outputs than one grid sweep of threads (65536 blocks of 256) */
  rcase a0 = {"reduce_sum", DIM(0), false, false, NO_ATTR};
  check(&a0, IC_FP32, 2, TU_DIMS(2, (1 << 24) + 3), 507);
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
  const int64_t *shapes[] = {TU_DIMS(2, 3), TU_DIMS(7, 1, 5, 3), TU_DIMS(1), TU_DIMS(0, 4), NULL,
                             TU_DIMS(1 << 20), TU_DIMS(3, 333, 7)};
  const int ranks[] = {2, 4, 1, 2, 0, 1, 3};
  for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++) {
    for (int dt = 0; dt < 2; dt++) {
      ic_tensor *x = mu_rand(dt ? IC_FP64 : IC_FP32, ranks[i], shapes[i], 600 + i);
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

#define SUM_MAX 40

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
  const size_t counts[] = {1, 2, 3, 5, 16, 17, 33};
  char err[1024];
  for (int d = 0; d < 4; d++) {
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
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
  tcase_add_test(tc, axes_and_keep_dim);
  tcase_add_test(tc, reduce_everything);
  tcase_add_test(tc, integer_dtypes_and_out_dtype);
  tcase_add_test(tc, empty_and_nan);
  tcase_add_test(tc, kernel_shapes);
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
