/* softmax against a double-precision loop that applies Paddle's rule of clipping the shifted
 * logits at -64 (phi funcs/softmax_impl.h, checked against Paddle 3.3.1): every case of the
 * shared table cases_softmax.h (the CUDA suite runs the same table), plus exact values at the
 * clip, 1-element axes, and NaN. */
#include "cases_softmax.h"
#include "mathutil.h"

#define NO_AXIS CS_NO_AXIS /* leave `axis` out */

static ic_status run_softmax(ic_tensor *x, int axis, ic_tensor **out, char *err) {
  mu_prog p;
  mu_init(&p);
  mu_feed(&p, "x", x);
  ic_builder_op *op = mu_op(&p, "softmax", "Out");
  ic_builder_in(op, "X", "x");
  if (axis != NO_AXIS) ic_builder_attr_int(op, "axis", axis);
  /* what Paddle exports beside it */
  ic_builder_attr_bool(op, "use_cudnn", false);
  ic_builder_attr_string(op, "data_format", "AnyLayout");
  ic_builder_attr_bool(op, "is_test", true);
  return mu_run(&p, out, err, 1024);
}

/* Softmax of every slice along axis (already normalized), one slice at a time. */
static double *ref_softmax(const ic_tensor *t, int axis) {
  double *x = mu_f64(t), *y = mu_f64(t);
  int nd = ic_tensor_ndim(t);
  const int64_t *d = ic_tensor_dims(t);
  int64_t outer = 1, n = nd ? d[axis] : 1, inner = 1;
  for (int i = 0; i < axis; i++) outer *= d[i];
  for (int i = axis + 1; i < nd; i++) inner *= d[i];
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t j = 0; j < inner; j++) {
      double *xs = x + o * n * inner + j, *ys = y + o * n * inner + j;
      double m = -INFINITY, s = 0;
      bool nan = false;
      for (int64_t i = 0; i < n; i++) {
        nan |= isnan(xs[i * inner]);
        m = fmax(m, xs[i * inner]);
      }
      for (int64_t i = 0; i < n; i++) s += exp(fmax(xs[i * inner] - m, -64.0));
      for (int64_t i = 0; i < n; i++) {
        ys[i * inner] = nan ? NAN : exp(fmax(xs[i * inner] - m, -64.0)) / s;
      }
    }
  }
  free(x);
  return y;
}

static void check_on(ic_tensor *x, int axis_attr, int axis, double atol) {
  ic_tensor *out;
  char err[1024];
  ck_assert_msg(run_softmax(x, axis_attr, &out, err) == IC_OK, "%s", err);
  tu_assert_shape(out, ic_tensor_dtype(x), ic_tensor_ndim(x), ic_tensor_dims(x));
  double *ref = ref_softmax(x, axis);
  double rtol = ic_tensor_dtype(x) == IC_FP32 ? 2e-6 : 1e-13;
  tu_assert_close(out, ref, (size_t)ic_tensor_numel(x), rtol, atol);
  free(ref);
  ic_tensor_destroy(out);
}

/* Random logits in [-scale, scale). */
static ic_tensor *logits(ic_dtype dt, int nd, const int64_t *dims, uint64_t seed, double scale) {
  ic_tensor *x = mu_rand(dt, nd, dims, seed);
  int64_t n = ic_tensor_numel(x);
  for (int64_t i = 0; i < n; i++) {
    if (dt == IC_FP32) ((float *)ic_tensor_data(x))[i] *= (float)scale;
    else ((double *)ic_tensor_data(x))[i] *= scale;
  }
  return x;
}

/* Every case of the shared table. */
START_TEST(table_cases) {
  for (size_t i = 0; i < CS_N_CASES; i++) {
    const cs_case *c = &cs_cases[i];
    ic_tensor *x = cs_input(c, 1000 + i);
    check_on(x, c->axis, cs_axis(c), 0);
    ic_tensor_destroy(x);
  }
}
END_TEST

START_TEST(large_values) {
  /* exp of the raw logits would overflow; the smallest outputs are clipped at exp(-64), not 0 */
  ic_tensor *x = tu_f32(2, TU_DIMS(2, 3), (const float[]){1000, 0, -1000, -1000, 1000, 999});
  check_on(x, -1, 1, 0);
  check_on(x, 0, 0, 0);
  ic_tensor *out;
  char err[1024];
  ck_assert_msg(run_softmax(x, -1, &out, err) == IC_OK, "%s", err);
  const float *y = ic_tensor_cdata(out);
  ck_assert(y[0] == 1.0f && y[1] > 1e-28f && y[1] < 2e-28f && y[1] == y[2]);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  for (int dt = 0; dt < 2; dt++) {
    x = logits(dt ? IC_FP64 : IC_FP32, 3, TU_DIMS(4, 9, 5), 3, 500.0);
    for (int axis = 0; axis < 3; axis++) check_on(x, axis, axis, 0);
    ic_tensor_destroy(x);
  }
}
END_TEST

START_TEST(edge_shapes) {
  /* a 1-element axis gives 1s */
  ic_tensor *x = logits(IC_FP32, 3, TU_DIMS(3, 1, 4), 4, 10.0), *out;
  char err[1024];
  ck_assert_msg(run_softmax(x, 1, &out, err) == IC_OK, "%s", err);
  double ones[12];
  for (int i = 0; i < 12; i++) ones[i] = 1.0;
  tu_assert_close(out, ones, 12, 0, 0);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  /* rank 0 is 1 (axis 0 or -1); rank 1 */
  for (int axis = -1; axis <= 0; axis++) {
    x = tu_f64(0, NULL, (const double[]){-3.5});
    ck_assert_msg(run_softmax(x, axis, &out, err) == IC_OK, "%s", err);
    tu_assert_shape(out, IC_FP64, 0, NULL);
    tu_assert_close(out, ones, 1, 0, 0);
    ic_tensor_destroy(out);
    ic_tensor_destroy(x);
  }
  x = logits(IC_FP32, 1, TU_DIMS(33), 5, 4.0);
  check_on(x, 0, 0, 0);
  ic_tensor_destroy(x);
  /* empty tensors, along the empty axis or another */
  x = mu_rand(IC_FP32, 2, TU_DIMS(2, 0), 6);
  check_on(x, -1, 1, 0);
  check_on(x, 0, 0, 0);
  ic_tensor_destroy(x);
  /* NaN poisons its own slice only */
  x = tu_f32(2, TU_DIMS(2, 3), (const float[]){1, NAN, 2, 3, 4, 5});
  check_on(x, -1, 1, 0);
  check_on(x, 0, 0, 0);
  ic_tensor_destroy(x);
}
END_TEST

START_TEST(softmax_bad_inputs) {
  ic_tensor *x = mu_rand(IC_FP32, 3, TU_DIMS(2, 3, 4), 1), *out;
  char err[1024];
  ck_assert_int_eq(run_softmax(x, 3, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "softmax", "X 'x'", "float32[2, 3, 4]", "'axis' is 3", "[-3, 3)", NULL);
  ck_assert_ptr_null(out);
  ck_assert_int_eq(run_softmax(x, -4, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "'axis' is -4", NULL);
  ic_tensor_destroy(x);
  x = mu_rand(IC_FP32, 0, NULL, 1);
  ck_assert_int_eq(run_softmax(x, 1, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "[-1, 1)", NULL);
  ic_tensor_destroy(x);
  x = mu_rand(IC_INT32, 1, TU_DIMS(3), 1);
  ck_assert_int_eq(run_softmax(x, -1, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "int32[3]", "float32 or float64", NULL);
  ic_tensor_destroy(x);
}
END_TEST

static TCase *tc_softmax(void) {
  TCase *tc = tcase_create("softmax");
  tcase_add_test(tc, table_cases);
  tcase_add_test(tc, large_values);
  tcase_add_test(tc, edge_shapes);
  tcase_add_test(tc, softmax_bad_inputs);
  return tc;
}

TU_MAIN("ops_softmax", tc_softmax)
