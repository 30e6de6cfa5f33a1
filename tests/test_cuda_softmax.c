/* softmax's CUDA kernel against its CPU kernel (tests/cuda_harness.h), with the cases of the
 * CPU suite (test_ops_softmax.c): every axis (positive and negative) of ranks 1 to 4, rows
 * short and long for the block-per-row kernel (1, 7, 33, 1000, 5003: fewer threads than the
 * row, more, and several sweeps), columns for the strided kernel, logits spread wide enough
 * that the -64 clip matters, NaN in a row, rank 0, empty tensors, and bad inputs.
 *
 * Tolerances: both sides take exp in X's type but with different libraries (CUDA's expf is
 * within 2 ulp) and sum in double in another order: float32 relative 2e-6 plus 1e-9 absolute
 * (outputs near the clip are ~1e-28), float64 1e-13. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.h"
#include "ew_testutil.h"

#define NO_AXIS INT32_MIN

static ic_builder *softmax_program(const ic_tensor *x, int axis) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ic_builder_op *op = ic_builder_add_op(b, 0, "softmax");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "out");
  if (axis != NO_AXIS) ic_builder_attr_int(op, "axis", axis);
  ic_builder_attr_bool(op, "use_cudnn", false);
  ic_builder_attr_string(op, "data_format", "AnyLayout");
  ic_builder_attr_bool(op, "is_test", true);
  ew_fetch(b, "out", ic_tensor_dtype(x));
  return b;
}

static void check_on(ic_tensor *x, int axis) {
  ic_builder *b = softmax_program(x, axis);
  bool f64 = ic_tensor_dtype(x) == IC_FP64;
  ch_check_builder(b, 1, TU_NAMES("x"), &x, f64 ? 1e-13 : 2e-6, f64 ? 1e-300 : 1e-9);
  ic_builder_destroy(b);
}

static void check(ic_dtype dt, int nd, const int64_t *dims, int axis, double spread,
                  uint64_t seed) {
  ic_tensor *x = ew_rand(dt, nd, dims, seed, -spread, spread);
  check_on(x, axis);
  ic_tensor_destroy(x);
}

START_TEST(every_axis) {
  for (int dt = IC_FP32; dt <= IC_FP64; dt++) {
    check((ic_dtype)dt, 3, TU_DIMS(3, 4, 5), NO_AXIS, 3, 1); /* default -1 */
    for (int axis = -3; axis < 3; axis++) {
      check((ic_dtype)dt, 3, TU_DIMS(3, 4, 5), axis, 3, 10 + axis);
      check((ic_dtype)dt, 3, TU_DIMS(7, 13, 17), axis, 5, 20 + axis);
    }
    for (int axis = -4; axis < 4; axis++) {
      check((ic_dtype)dt, 4, TU_DIMS(2, 3, 5, 9), axis, 4, 30 + axis);
    }
    check((ic_dtype)dt, 1, TU_DIMS(33), 0, 4, 40);
  }
}
END_TEST

START_TEST(row_lengths) {
  const int64_t lens[] = {1, 7, 31, 32, 33, 255, 256, 257, 1000, 5003};
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
    check(IC_FP32, 2, TU_DIMS(3, lens[i]), -1, 6, 50 + i);
    check(IC_FP64, 2, TU_DIMS(2, lens[i]), 1, 6, 60 + i);
    check(IC_FP32, 2, TU_DIMS(lens[i], 3), 0, 6, 70 + i); /* columns */
  }
  /* more rows than blocks in one grid, and more columns than threads in one sweep */
  check(IC_FP32, 2, TU_DIMS(70001, 10), -1, 3, 80);
  check(IC_FP32, 3, TU_DIMS(2, 3, (1 << 23) + 5), 1, 3, 81);
}
END_TEST

START_TEST(large_values) {
  ic_tensor *x = tu_f32(2, TU_DIMS(2, 3), (const float[]){1000, 0, -1000, -1000, 1000, 999});
  check_on(x, -1);
  check_on(x, 0);
  ic_tensor_destroy(x);
  for (int dt = IC_FP32; dt <= IC_FP64; dt++) {
    check((ic_dtype)dt, 3, TU_DIMS(4, 9, 5), -1, 500, 90); /* the -64 clip everywhere */
    check((ic_dtype)dt, 3, TU_DIMS(4, 9, 5), 1, 500, 91);
    check((ic_dtype)dt, 2, TU_DIMS(3, 700), -1, 100, 92);
  }
}
END_TEST

START_TEST(edge_shapes) {
  check(IC_FP32, 3, TU_DIMS(3, 1, 4), 1, 10, 100); /* an axis of one: all 1 */
  check(IC_FP64, 0, NULL, -1, 10, 101);             /* rank 0 */
  check(IC_FP32, 0, NULL, 0, 10, 102);
  check(IC_FP32, 2, TU_DIMS(2, 0), -1, 1, 103);     /* empty */
  check(IC_FP32, 2, TU_DIMS(0, 5), 0, 1, 104);
  /* NaN makes its whole slice NaN, along either axis */
  ic_tensor *x = tu_f32(2, TU_DIMS(2, 3), (const float[]){1, NAN, 2, 3, 4, 5});
  check_on(x, 1);
  check_on(x, 0);
  ic_tensor_destroy(x);
  x = ew_rand(IC_FP64, 2, TU_DIMS(4, 1500), 105, -2, 2);
  ((double *)ic_tensor_data(x))[1500 + 1234] = NAN;
  check_on(x, 1);
  check_on(x, 0);
  ic_tensor_destroy(x);
}
END_TEST

START_TEST(softmax_bad_inputs) {
  const struct {
    ic_dtype dt;
    int axis;
    const char *needle;
  } bad[] = {{IC_FP32, 3, "axis"}, {IC_FP32, -4, "axis"}, {IC_INT32, -1, "int32"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ic_tensor *x = ew_rand(bad[i].dt, 3, TU_DIMS(2, 3, 4), 1, -1, 1);
    ic_builder *b = softmax_program(x, bad[i].axis);
    ic_program *p;
    char err[1024];
    ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
    ic_status st = ch_check_op_status(p, 1, TU_NAMES("x"), &x, 0, 0, err, sizeof err);
    ck_assert_int_eq(st, IC_ERR_SHAPE);
    tu_assert_msg(err, "X 'x'", bad[i].needle, NULL);
    ic_program_destroy(p);
    ic_builder_destroy(b);
    ic_tensor_destroy(x);
  }
}
END_TEST

static TCase *tc_softmax(void) {
  TCase *tc = tcase_create("softmax");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, every_axis);
  tcase_add_test(tc, row_lengths);
  tcase_add_test(tc, large_values);
  tcase_add_test(tc, edge_shapes);
  tcase_add_test(tc, softmax_bad_inputs);
  return tc;
}

CH_MAIN("cuda_softmax", tc_softmax)
