/* Unary activations against references computed in double precision with libm, on the same
 * (float-rounded) inputs and attribute values: the shared table cases_activation.h (the CUDA
 * suite runs the same).
 *
 * Tolerances: float32 kernels compute in float (expf, tanhf, erff), a few ulps from the
 * double result: relative 1e-5 plus absolute 1e-6 for results near 0 (gelu of a negative
 * input, hard_swish near its knee). float64 uses 1e-12 relative. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cases_activation.h"
#include "ew_testutil.h"

typedef cact_case act_case;
#define k_cases cact_cases

static ic_builder *act_program(const act_case *c, const ic_tensor *x) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ic_builder_op *o = ic_builder_add_op(b, 0, c->type);
  ic_builder_in(o, "X", "x");
  ic_builder_out(o, "Out", "out");
  for (int k = 0; k < 3 && c->names[k]; k++) {
    ic_builder_attr_float(o, c->names[k], (float)c->vals[k]);
  }
  if (c->approximate >= 0) ic_builder_attr_bool(o, "approximate", c->approximate != 0);
  ew_fetch(b, "out", ic_tensor_dtype(x));
  return b;
}

static ic_status run_act(const act_case *c, ic_tensor *x, ic_tensor **out, char *err) {
  ic_builder *b = act_program(c, x);
  ic_status st = ew_run(b, 1, TU_NAMES("x"), &x, out, err, 1024);
  ic_builder_destroy(b);
  return st;
}

static void check(const act_case *c, ic_tensor *x) {
  ic_tensor *out[1];
  char err[1024];
  ic_status st = run_act(c, x, out, err);
  ck_assert_msg(st == IC_OK, "%s: %s", c->type, err);
  ic_dtype dt = ic_tensor_dtype(x);
  tu_assert_shape(out[0], dt, ic_tensor_ndim(x), ic_tensor_dims(x));
  int64_t n = ic_tensor_numel(x);
  double p[3];
  for (int k = 0; k < 3; k++) {
    /* Attributes are floats. GCC 12 at -O2 drops this double->float->double rounding when it
     * inlines check() over the constant case table (seen in the Release build); the
     * volatile keeps the rounding the kernel sees. */
    volatile float f = (float)c->vals[k];
    p[k] = f;
  }
  double *ref = calloc((size_t)(n ? n : 1), sizeof *ref);
  for (int64_t i = 0; i < n; i++) ref[i] = c->ref(ew_at(x, i), p);
  bool f32 = dt == IC_FP32;
  tu_assert_close(out[0], ref, (size_t)n, f32 ? 1e-5 : dt == IC_FP64 ? 1e-12 : 0,
                  f32 ? 1e-6 : dt == IC_FP64 ? 1e-13 : 0);
  free(ref);
  ic_tensor_destroy(out[0]);
}

/* Every op and attribute setting in float32 and float64, over shapes of one element,
 * sizes not divisible by 4/8/16, a larger batch, an empty tensor, and one large enough for
 * the kernels to share out blocks across their threads (67893 elements: 4 whole blocks and a
 * last one with a tail of 5; tu_run's 2- and 4-thread runs must give the serial bits). */
START_TEST(all_ops) {
  static const struct {
    int ndim;
    int64_t dims[4];
  } shapes[] = {{1, {1}},          {1, {13}}, {3, {2, 3, 5}}, {4, {2, 16, 9, 7}},
                {2, {0, 4}},       {4, {3, 7, 61, 53}}};
  for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
      for (int f64 = 0; f64 < 2; f64++) {
        ic_tensor *x = ew_rand(f64 ? IC_FP64 : IC_FP32, shapes[s].ndim, shapes[s].dims,
                               i * 31 + s, k_cases[i].lo, k_cases[i].hi);
        check(&k_cases[i], x);
        ic_tensor_destroy(x);
      }
    }
  }
}
END_TEST

/* Hand-picked points: the knees of the piecewise ops, 0, and large magnitudes. */
START_TEST(edge_values) {
  const float v[] = {-100, -6, -3, -1, -0.5f, 0, 0.5f, 1, 3, 6, 100};
  ic_tensor *x = tu_f32(1, TU_DIMS(11), v);
  for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
    if (!strcmp(k_cases[i].type, "sqrt") || !strcmp(k_cases[i].type, "exp")) continue;
    check(&k_cases[i], x);
  }
  ic_tensor_destroy(x);
}
END_TEST

static ic_tensor *run_named(const char *type, ic_tensor *x) {
  act_case c = {type, {NULL}, {0}, -1, NULL, 0, 0, false};
  ic_tensor *out[1];
  char err[1024];
  ck_assert_msg(run_act(&c, x, out, err) == IC_OK, "%s: %s", type, err);
  return out[0];
}

/* NaN handling follows Paddle's CPU kernels: relu (x > 0 ? x : 0) maps NaN to 0, the
 * clipping ones (std::max/min) keep it, sqrt of a negative is NaN. */
START_TEST(nan_and_domain) {
  ic_tensor *x = tu_f32(1, TU_DIMS(3), (const float[]){NAN, -1, 2});
  ic_tensor *o = run_named("relu", x);
  tu_assert_close(o, (const double[]){0, 0, 2}, 3, 0, 0);
  ic_tensor_destroy(o);
  o = run_named("relu6", x);
  tu_assert_close(o, (const double[]){NAN, 0, 2}, 3, 0, 0);
  ic_tensor_destroy(o);
  o = run_named("hard_sigmoid", x);
  tu_assert_close(o, (const double[]){NAN, 0.3, 0.9}, 3, 1e-6, 0);
  ic_tensor_destroy(o);
  o = run_named("leaky_relu", x);
  tu_assert_close(o, (const double[]){NAN, -0.02, 2}, 3, 1e-6, 0);
  ic_tensor_destroy(o);
  o = run_named("sqrt", x);
  tu_assert_close(o, (const double[]){NAN, NAN, sqrt(2.0)}, 3, 1e-7, 0);
  ic_tensor_destroy(o);
  o = run_named("sigmoid", x);
  tu_assert_close(o, (const double[]){NAN, 1 / (1 + exp(1.0)), 1 / (1 + exp(-2.0))}, 3, 1e-6,
                  0);
  ic_tensor_destroy(o);
  ic_tensor_destroy(x);
}
END_TEST

START_TEST(abs_integers) {
  ic_tensor *x = tu_i32(1, TU_DIMS(5), (const int32_t[]){-3, 0, 7, INT32_MIN, INT32_MAX});
  ic_tensor *o = run_named("abs", x);
  tu_assert_shape(o, IC_INT32, 1, TU_DIMS(5));
  tu_assert_close(o, (const double[]){3, 0, 7, INT32_MIN, INT32_MAX}, 5, 0, 0);
  ic_tensor_destroy(o);
  ic_tensor_destroy(x);
  x = tu_i64(1, TU_DIMS(3), (const int64_t[]){-((1ll << 60) + 1), 5, INT64_MIN});
  o = run_named("abs", x);
  const int64_t *d = ic_tensor_cdata(o);
  ck_assert(d[0] == (1ll << 60) + 1 && d[1] == 5 && d[2] == INT64_MIN);
  ic_tensor_destroy(o);
  ic_tensor_destroy(x);
}
END_TEST

/* Integer inputs to float-only activations and unsupported dtypes are refused, naming the
 * variable and the dtypes expected. */
START_TEST(bad_dtype) {
  ic_tensor *xi = tu_i32(1, TU_DIMS(2), (const int32_t[]){1, 2});
  const char *float_only[] = {"relu", "relu6", "sigmoid", "tanh", "gelu", "swish",
                              "hard_swish", "hard_sigmoid", "leaky_relu", "exp", "sqrt"};
  for (size_t i = 0; i < sizeof float_only / sizeof float_only[0]; i++) {
    act_case c = {float_only[i], {NULL}, {0}, -1, NULL, 0, 0, false};
    ic_tensor *out[1];
    char err[1024];
    ck_assert_int_eq(run_act(&c, xi, out, err), IC_ERR_SHAPE);
    tu_assert_msg(err, float_only[i], "input X 'x'", "int32[2]", "float32 or float64", NULL);
  }
  ic_tensor *xb;
  ck_assert_int_eq(ic_tensor_create(IC_BOOL, 1, TU_DIMS(2), &xb), IC_OK);
  act_case c = {"abs", {NULL}, {0}, -1, NULL, 0, 0, false};
  ic_tensor *out[1];
  char err[1024];
  ck_assert_int_eq(run_act(&c, xb, out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "(abs)", "input X 'x'", "bool[2]", "int64", NULL);
  /* an attribute of the wrong kind names the op and attribute */
  ic_tensor *xf = tu_f32(1, TU_DIMS(1), (const float[]){1});
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", xf);
  ic_builder_op *o = ic_builder_add_op(b, 0, "gelu");
  ic_builder_in(o, "X", "x");
  ic_builder_out(o, "Out", "out");
  ic_builder_attr_string(o, "approximate", "yes");
  ew_fetch(b, "out", IC_FP32);
  ck_assert_int_eq(ew_run(b, 1, TU_NAMES("x"), &xf, out, err, sizeof err),
                   IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "(gelu)", "'approximate'", "STRING", NULL);
  ic_builder_destroy(b);
  ic_tensor_destroy(xf);
  ic_tensor_destroy(xb);
  ic_tensor_destroy(xi);
}
END_TEST

static TCase *tc_values(void) {
  TCase *tc = tcase_create("values");
  tcase_add_test(tc, all_ops);
  tcase_add_test(tc, edge_values);
  tcase_add_test(tc, nan_and_domain);
  tcase_add_test(tc, abs_integers);
  return tc;
}

static TCase *tc_errors(void) {
  TCase *tc = tcase_create("errors");
  tcase_add_test(tc, bad_dtype);
  return tc;
}

TU_MAIN("ops_activation", tc_values, tc_errors)
