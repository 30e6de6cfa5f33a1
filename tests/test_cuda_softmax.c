/* softmax's CUDA kernel against its CPU kernel (tests/cuda_harness.h): every case of the
 * shared table cases_softmax.h (the one test_ops_softmax.c runs on the CPU executors: every
 * axis of ranks 0 to 4, rows short and long for the block-per-row kernel, columns for the
 * strided kernel, logits spread wide enough that the -64 clip matters, empty tensors), plus
 * more rows than one grid and more columns than one sweep, NaN in a row, and bad inputs.
 *
 * Tolerances (cs_gpu_tol): both sides take exp in X's type but with different libraries
 * (CUDA's expf is within 2 ulp) and sum in double in another order: float32 relative 2e-6
 * plus 1e-9 absolute (outputs near the clip are ~1e-28), float64 1e-13. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.h"
#include "cases_softmax.h"

#define NO_AXIS CS_NO_AXIS
#define softmax_program cs_program

static void check_on(ic_tensor *x, int axis) {
  ic_builder *b = softmax_program(x, axis);
  double rtol, atol;
  cs_gpu_tol(ic_tensor_dtype(x), &rtol, &atol);
  ch_check_builder(b, 1, TU_NAMES("x"), &x, rtol, atol);
  ic_builder_destroy(b);
}

static void check(ic_dtype dt, int nd, const int64_t *dims, int axis, double spread,
                  uint64_t seed) {
  ic_tensor *x = ew_rand(dt, nd, dims, seed, -spread, spread);
  check_on(x, axis);
  ic_tensor_destroy(x);
}

/* Every case of the shared table. */
START_TEST(table_cases) {
  for (size_t i = 0; i < CS_N_CASES; i++) {
    ic_tensor *x = cs_input(&cs_cases[i], 1000 + i);
    check_on(x, cs_cases[i].axis);
    ic_tensor_destroy(x);
  }
}
END_TEST

/* More rows than blocks in one grid, and more columns than threads in one sweep. */
START_TEST(row_lengths) {
  check(IC_FP32, 2, TU_DIMS(70001, 10), -1, 3, 80);
  check(IC_FP32, 3, TU_DIMS(2, 3, (1 << 23) + 5), 1, 3, 81);
}
END_TEST

START_TEST(large_values) {
  ic_tensor *x = tu_f32(2, TU_DIMS(2, 3), (const float[]){1000, 0, -1000, -1000, 1000, 999});
  check_on(x, -1);
  check_on(x, 0);
  ic_tensor_destroy(x);
}
END_TEST

START_TEST(edge_shapes) {
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
  tcase_add_test(tc, table_cases);
  tcase_add_test(tc, row_lengths);
  tcase_add_test(tc, large_values);
  tcase_add_test(tc, edge_shapes);
  tcase_add_test(tc, softmax_bad_inputs);
  return tc;
}

CH_MAIN("cuda_softmax", tc_softmax)
