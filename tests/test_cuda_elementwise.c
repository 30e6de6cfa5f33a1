/* The binary elementwise ops' CUDA kernels against their CPU kernels (cuda_harness.h): every
 * case of the shared table cases_binary.h (the one tests/test_ops_elementwise.c runs on the
 * CPU executors: same shapes, scalars of shape [1] and rank 0, bias add with axis 1,
 * squeeze-excite, Paddle's axis placement, Y of higher rank, both operands broadcast,
 * trimmed trailing 1s, odd sizes, rank 6, empty dims) for every op and every dtype (float32,
 * float64, int32, int64), plus NaN operands, integer wrap-around and pow's integer rules, a
 * broadcast beyond one grid-stride sweep, and bad shapes failing the same way on both sides.
 *
 * Tolerances (cb_gpu_tol): everything bitwise except float pow, which goes through CUDA's
 * powf / pow: relative 1e-5 (float32) and 1e-13 (float64). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.h"
#include "cases_binary.h"

enum { ADD = CB_ADD, MUL = CB_MUL, N_OPS = CB_N_OPS };

/* The ops an integer zero divisor fails on the CPU (the GPU cannot fail and writes 0). */
static bool divides(int op) { return op == CB_DIV || op == CB_FLOORDIV || op == CB_MOD; }

static void check_pair(int op, ic_tensor *x, ic_tensor *y, int axis) {
  ic_builder *b = cb_program(op, x, y, axis, true);
  double rtol, atol;
  cb_gpu_tol(op, ic_tensor_dtype(x), &rtol, &atol);
  ch_check_builder(b, 2, TU_NAMES("x", "y"), (ic_tensor *const[]){x, y}, rtol, atol);
  ic_builder_destroy(b);
}

START_TEST(broadcast_cases) {
  const int op = _i;
  for (size_t k = 0; k < CB_N_CASES; k++) {
    const cb_case *c = &cb_cases[k];
    for (int dt = IC_INT32; dt <= IC_FP64; dt++) {
      if (dt == IC_FP16) continue;
      ic_tensor *x, *y;
      cb_inputs(c, op, (ic_dtype)dt, 10 + k, &x, &y);
      check_pair(op, x, y, c->axis);
      ic_tensor_destroy(x);
      ic_tensor_destroy(y);
    }
  }
}
END_TEST

/* bool elementwise_add and _mul over every broadcast case (bytes 0, 1, 2, 255). */
START_TEST(bool_cases) {
  for (size_t k = 0; k < CB_N_CASES; k++) {
    for (int op = CB_ADD; op <= CB_MUL; op += CB_MUL - CB_ADD) {
      ic_tensor *x, *y;
      cb_bool_inputs(&cb_cases[k], 40 + k, &x, &y);
      check_pair(op, x, y, cb_cases[k].axis);
      ic_tensor_destroy(x);
      ic_tensor_destroy(y);
    }
  }
}
END_TEST

/* NaN and infinities through every float op, in both operand positions. */
START_TEST(special_floats) {
  const float fx[] = {NAN, 1, NAN, -INFINITY, INFINITY, 0, -0.0f, 2, 0};
  const float fy[] = {1, NAN, NAN, INFINITY, INFINITY, 0, 0, -0.0f, -3};
  for (int op = 0; op < N_OPS; op++) {
    ic_tensor *x = tu_f32(1, TU_DIMS(9), fx), *y = tu_f32(1, TU_DIMS(9), fy);
    check_pair(op, x, y, -1);
    ic_tensor_destroy(x);
    ic_tensor_destroy(y);
    double dx[9], dy[9];
    for (int k = 0; k < 9; k++) dx[k] = fx[k], dy[k] = fy[k];
    x = tu_f64(1, TU_DIMS(9), dx);
    y = tu_f64(1, TU_DIMS(9), dy);
    check_pair(op, x, y, -1);
    ic_tensor_destroy(x);
    ic_tensor_destroy(y);
  }
}
END_TEST

/* Integer wrap-around, INT_MIN / -1, truncating division of negatives, and pow's integer
 * rules (negative exponents, 0^-k, overflow to INT_MIN). */
START_TEST(integer_edges) {
  const int32_t x32[] = {INT32_MAX, INT32_MIN, -7, 7, 0, 1, -1, 2, 3, 1 << 20, -2, 5};
  const int32_t y32[] = {1, -1, 2, -2, -3, -5, -3, 31, 20, 3, -1, 0};
  const int64_t x64[] = {INT64_MAX, INT64_MIN, -7, 7, 0, 1, -1, 2, 3, 1ll << 40, -2, 5};
  const int64_t y64[] = {1, -1, 2, -2, -3, -5, -3, 50, 33, 2, -1, 0};
  for (int op = 0; op < N_OPS; op++) {
    /* no zero divisor for div, floordiv, mod: the CPU fails there, the GPU cannot */
    ic_tensor *x = tu_i32(1, TU_DIMS(divides(op) ? 11 : 12), x32);
    ic_tensor *y = tu_i32(1, TU_DIMS(divides(op) ? 11 : 12), y32);
    check_pair(op, x, y, -1);
    ic_tensor_destroy(x);
    ic_tensor_destroy(y);
    x = tu_i64(1, TU_DIMS(divides(op) ? 11 : 12), x64);
    y = tu_i64(1, TU_DIMS(divides(op) ? 11 : 12), y64);
    check_pair(op, x, y, -1);
    ic_tensor_destroy(x);
    ic_tensor_destroy(y);
  }
}
END_TEST

/* A broadcast whose output has more elements than one launch has threads, through both the
 * flat kernel (same shape) and the strided one (bias add). */
START_TEST(large) {
  if (ch_quick()) return;
  ic_tensor *x = ew_rand(IC_FP32, 4, TU_DIMS(8, 64, 128, 300), 1, -2, 2);
  ic_tensor *y = ew_rand(IC_FP32, 1, TU_DIMS(64), 2, 0.5, 2);
  check_pair(ADD, x, y, 1);
  ic_tensor *x2 = ew_rand(IC_FP32, 4, TU_DIMS(8, 64, 128, 300), 3, -2, 2);
  check_pair(MUL, x, x2, -1);
  ic_tensor_destroy(x);
  ic_tensor_destroy(x2);
  ic_tensor_destroy(y);
}
END_TEST

/* Shapes that do not broadcast fail in infer on both sides, naming both inputs. */
START_TEST(bad_shapes) {
  ic_tensor *x = ew_rand(IC_FP32, 2, TU_DIMS(2, 3), 1, 0, 1);
  ic_tensor *y = ew_rand(IC_FP32, 1, TU_DIMS(4), 2, 0, 1);
  ic_builder *b = cb_program(ADD, x, y, -1, true);
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_status st = ch_check_op_status(p, 2, TU_NAMES("x", "y"), (ic_tensor *const[]){x, y}, 0, 0,
                                    err, sizeof err);
  ck_assert_int_eq(st, IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "Y 'y'", "do not broadcast", NULL);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  ic_tensor_destroy(x);
  ic_tensor_destroy(y);
}
END_TEST

static TCase *tc_elementwise(void) {
  TCase *tc = tcase_create("elementwise");
  tcase_set_timeout(tc, 600);
  tcase_add_loop_test(tc, broadcast_cases, 0, N_OPS);
  tcase_add_test(tc, bool_cases);
  tcase_add_test(tc, special_floats);
  tcase_add_test(tc, integer_edges);
  tcase_add_test(tc, large);
  tcase_add_test(tc, bad_shapes);
  return tc;
}

CH_MAIN("cuda_elementwise", tc_elementwise)
