/* The unary activations' CUDA kernels against their CPU kernels (tests/cuda_harness.h): the
 * shared case tables cases_activation.h (relu ... leaky_relu, which test_ops_activation.c
 * runs on the CPU executors) and cases_unary.h (silu ... pow, which test_ops_math.c runs), on
 * random inputs plus the special values (NaN, +-inf, +-0, the most negative integer for abs)
 * in float32 and float64, at sizes 0, 1, 7, 3 x 5 x 17 (not a multiple of any vector width)
 * and one beyond a single grid-stride sweep (2^24 + 3 elements).
 *
 * Tolerances: formulas of plain arithmetic and comparisons (relu, relu6, abs, leaky_relu,
 * hard_sigmoid, hard_swish; sqrt, correctly rounded on both sides) must agree bit for bit,
 * the build having no FMA contraction on either side. Formulas through expf, tanhf or erff
 * differ by CUDA's few ulps: float32 relative 1e-5 plus 1e-6 absolute near 0 (gelu of a
 * negative input), float64 relative 1e-12 plus 1e-14; the cases_unary.h ops likewise, their
 * integer inputs exactly. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.h"
#include "cases_activation.h"
#include "cases_unary.h"
#include "ew_testutil.h"

/* Random values in [lo, hi), with NaN, +inf, -inf, -0 and 0 in the first five elements. */
static ic_tensor *act_input(ic_dtype dt, int ndim, const int64_t *dims, uint64_t seed,
                            double lo, double hi) {
  ic_tensor *t = ew_rand(dt, ndim, dims, seed, lo, hi);
  const double special[] = {NAN, INFINITY, -INFINITY, -0.0, 0.0};
  int64_t n = ic_tensor_numel(t);
  for (int64_t k = 0; k < n && k < 5; k++) {
    if (dt == IC_FP32) ((float *)ic_tensor_data(t))[k] = (float)special[k];
    else if (dt == IC_FP64) ((double *)ic_tensor_data(t))[k] = special[k];
  }
  return t;
}

/* One op of `type` on x with float attributes names/vals (names NULL-terminated) and gelu's
 * approximate (-1: absent). */
static void check_op(const char *type, const char *const *names, const double *vals,
                     int approximate, ic_tensor *x, double rtol, double atol) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ic_builder_op *o = ic_builder_add_op(b, 0, type);
  ic_builder_in(o, "X", "x");
  ic_builder_out(o, "Out", "out");
  for (int k = 0; k < 3 && names[k]; k++) ic_builder_attr_float(o, names[k], (float)vals[k]);
  if (approximate >= 0) ic_builder_attr_bool(o, "approximate", approximate != 0);
  ew_fetch(b, "out", ic_tensor_dtype(x));
  ch_check_builder(b, 1, TU_NAMES("x"), &x, rtol, atol);
  ic_builder_destroy(b);
}

static void check_case(const cact_case *c, ic_dtype dt, int ndim, const int64_t *dims,
                       uint64_t seed) {
  ic_tensor *x = act_input(dt, ndim, dims, seed, c->lo, c->hi);
  double rtol = 0, atol = 0;
  if (!c->gpu_exact) {
    rtol = dt == IC_FP32 ? 1e-5 : 1e-12;
    atol = dt == IC_FP32 ? 1e-6 : 1e-14;
  }
  check_op(c->type, c->names, c->vals, c->approximate, x, rtol, atol);
  ic_tensor_destroy(x);
}

/* A cases_unary.h row: float inputs with the special values; integers (int_too) exactly. */
static void check_unary(const cu_case *c, ic_dtype dt, int ndim, const int64_t *dims,
                        uint64_t seed) {
  bool is_int = dt == IC_INT32 || dt == IC_INT64;
  ic_tensor *x = is_int ? ew_rand(dt, ndim, dims, seed, c->lo, c->hi)
                        : act_input(dt, ndim, dims, seed, c->lo, c->hi);
  double rtol = is_int ? 0 : dt == IC_FP32 ? 1e-5 : 1e-12;
  double atol = is_int ? 0 : dt == IC_FP32 ? 1e-6 : 1e-14;
  check_op(c->type, c->names, c->vals, -1, x, rtol, atol);
  ic_tensor_destroy(x);
}

START_TEST(every_unary_every_size) {
  const cu_case *c = &cu_cases[_i];
  static const int64_t shape3[] = {3, 5, 17};
  for (int dt = IC_INT32; dt <= IC_FP64; dt++) {
    if (dt == IC_FP16) continue;
    if ((dt == IC_INT32 || dt == IC_INT64) && !c->int_too) continue;
    check_unary(c, (ic_dtype)dt, 1, TU_DIMS(0), 1);
    check_unary(c, (ic_dtype)dt, 0, NULL, 2);
    check_unary(c, (ic_dtype)dt, 1, TU_DIMS(1), 3);
    check_unary(c, (ic_dtype)dt, 1, TU_DIMS(7), 4);
    check_unary(c, (ic_dtype)dt, 3, shape3, 5);
  }
}
END_TEST

START_TEST(every_activation_every_size) {
  const cact_case *c = &cact_cases[_i];
  static const int64_t shape3[] = {3, 5, 17};
  for (int dt = IC_FP32; dt <= IC_FP64; dt++) {
    check_case(c, (ic_dtype)dt, 1, TU_DIMS(0), 1);
    check_case(c, (ic_dtype)dt, 0, NULL, 2); /* a 0-D tensor: one element */
    check_case(c, (ic_dtype)dt, 1, TU_DIMS(1), 3);
    check_case(c, (ic_dtype)dt, 1, TU_DIMS(7), 4);
    check_case(c, (ic_dtype)dt, 3, shape3, 5);
  }
}
END_TEST

/* More elements than one launch's threads (65536 blocks of 256): the grid-stride loop. */
START_TEST(beyond_one_sweep) {
  if (ch_quick()) return;
  check_case(&cact_cases[0], IC_FP32, 2, TU_DIMS(4, (1 << 22) + 1), 6);
  check_case(&cact_cases[3], IC_FP64, 1, TU_DIMS((1 << 24) + 3), 7);
}
END_TEST

START_TEST(abs_integers) {
  for (int dt = IC_INT32; dt <= IC_INT64; dt++) {
    ic_tensor *x = ew_rand((ic_dtype)dt, 2, TU_DIMS(9, 13), 8, -1000, 1000);
    if (dt == IC_INT32) ((int32_t *)ic_tensor_data(x))[0] = INT32_MIN;
    else ((int64_t *)ic_tensor_data(x))[0] = INT64_MIN;
    ic_builder *b = ic_builder_create();
    ew_feed(b, "x", x);
    ic_builder_op *o = ic_builder_add_op(b, 0, "abs");
    ic_builder_in(o, "X", "x");
    ic_builder_out(o, "Out", "out");
    ew_fetch(b, "out", (ic_dtype)dt);
    ch_check_builder(b, 1, TU_NAMES("x"), &x, 0, 0);
    ic_builder_destroy(b);
    ic_tensor_destroy(x);
  }
}
END_TEST

/* An integer input to a float-only activation fails in infer on both sides, naming X. */
START_TEST(bad_dtype) {
  ic_tensor *x = ew_rand(IC_INT32, 1, TU_DIMS(4), 9, 0, 5);
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ic_builder_op *o = ic_builder_add_op(b, 0, "sigmoid");
  ic_builder_in(o, "X", "x");
  ic_builder_out(o, "Out", "out");
  ew_fetch(b, "out", IC_INT32);
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_status st = ch_check_op_status(p, 1, TU_NAMES("x"), &x, 0, 0, err, sizeof err);
  ck_assert_int_eq(st, IC_ERR_SHAPE);
  tu_assert_msg(err, "input X 'x'", "int32", "float32", NULL);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  ic_tensor_destroy(x);
}
END_TEST

/* Every prelu row of cases_unary.h: X in [-2, 2) with the special values, Alpha in [0, 0.5),
 * float32 and float64, bit for bit. */
START_TEST(prelu_table) {
  for (size_t i = 0; i < CPR_N_CASES; i++) {
    const cpr_case *c = &cpr_cases[i];
    for (int dt = IC_FP32; dt <= IC_FP64; dt++) {
      ic_tensor *in[2] = {act_input((ic_dtype)dt, c->nd, c->dims, 7 + i, -2, 2),
                          ew_rand((ic_dtype)dt, c->and_, c->adims, 8 + i, 0, 0.5)};
      ic_builder *b = ic_builder_create();
      ew_feed(b, "x", in[0]);
      ew_feed(b, "a", in[1]);
      ic_builder_op *o = ic_builder_add_op(b, 0, "prelu");
      ic_builder_in(o, "X", "x");
      ic_builder_in(o, "Alpha", "a");
      ic_builder_out(o, "Out", "out");
      ic_builder_attr_string(o, "mode", c->mode);
      if (c->fmt) ic_builder_attr_string(o, "data_format", c->fmt);
      ew_fetch(b, "out", (ic_dtype)dt);
      ch_check_builder(b, 2, TU_NAMES("x", "a"), in, 0, 0);
      ic_builder_destroy(b);
      ic_tensor_destroy(in[0]);
      ic_tensor_destroy(in[1]);
    }
  }
}
END_TEST

static TCase *tc_activation(void) {
  TCase *tc = tcase_create("activation");
  tcase_set_timeout(tc, 600);
  tcase_add_loop_test(tc, every_activation_every_size, 0, (int)CACT_N_CASES);
  tcase_add_loop_test(tc, every_unary_every_size, 0, (int)(sizeof cu_cases / sizeof cu_cases[0]));
  tcase_add_test(tc, beyond_one_sweep);
  tcase_add_test(tc, abs_integers);
  tcase_add_test(tc, prelu_table);
  tcase_add_test(tc, bad_dtype);
  return tc;
}

CH_MAIN("cuda_activation", tc_activation)
