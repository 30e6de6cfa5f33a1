/* The CUDA kernels of the resize ops (nearest_interp, bilinear_interp and the _v2 family:
 * the shared table cases_resize.h, the one test_ops_resize.c runs on the CPU executors),
 * arg_max / arg_min (the shared table cases_arg.h) and group_norm against their CPU kernels (cuda_harness.h).
 *
 * Resize and arg_max / arg_min agree bit for bit (the same per-axis functions and sum order,
 * no FMA contraction). group_norm sums its statistics in double in another order: float32
 * within 1e-5 relative plus 1e-6, float64 1e-12. Size inputs (OutSize, SizeTensor, Scale)
 * stay on the host (IC_SLOT_VALUE). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.h"
#include "cases_arg.h"
#include "cases_resize.h"
#include "ew_testutil.h"

static void var_any(ic_builder *b, const char *name, ic_dtype dt, int ndim) {
  int64_t d[IC_MAX_RANK];
  for (int i = 0; i < IC_MAX_RANK; i++) d[i] = -1;
  ic_builder_var(b, 0, name, dt, ndim, d, false);
}

static ic_tensor *rand_dt(ic_dtype dt, int nd, const int64_t *d, uint64_t seed) {
  return ew_rand(dt, nd, d, seed, -2, 2);
}

/* ---- resize ---- */

static void run_rz(const cz_case *k, ic_dtype dt) {
  cz_inputs in;
  ic_builder *b = cz_program(k, cz_x(k, dt), &in);
  ch_check_builder(b, in.n, in.names, in.t, 0, 0);
  cz_inputs_free(&in);
  ic_builder_destroy(b);
}

/* Every case of the shared table (cases_resize.h) in float32 and float64, and nearest of
 * integers. */
START_TEST(resize) {
  for (size_t i = 0; i < CZ_N_CASES; i++) {
    run_rz(&cz_cases[i], IC_FP32);
    run_rz(&cz_cases[i], IC_FP64);
    if (cz_cases[i].method && !strcmp(cz_cases[i].method, "nearest")) {
      run_rz(&cz_cases[i], IC_INT32);
      run_rz(&cz_cases[i], IC_INT64);
    }
  }
}
END_TEST

/* ---- arg_max / arg_min: the shared table cases_arg.h ---- */

START_TEST(arg_max_min) {
  const char *types[] = {"arg_max", "arg_min"};
  for (int t = 0; t < 2; t++) {
    for (size_t i = 0; i < CA_N_CASES; i++) {
      ic_tensor *x = ca_input(&ca_cases[i]);
      ic_builder *b = ca_program(types[t], &ca_cases[i], x);
      ch_check_builder(b, 1, TU_NAMES("x"), &x, 0, 0);
      ic_tensor_destroy(x);
      ic_builder_destroy(b);
    }
  }
}
END_TEST

/* ---- group_norm ---- */

static void run_gn(ic_dtype dt, int nd, const int64_t *d, int groups, bool nhwc, bool sb) {
  ic_builder *b = ic_builder_create();
  var_any(b, "x", dt, nd);
  var_any(b, "s", dt, 1);
  var_any(b, "bi", dt, 1);
  var_any(b, "y", dt, nd);
  var_any(b, "m", dt, 2);
  var_any(b, "v", dt, 2);
  ic_builder_feed(b, "x");
  if (sb) {
    ic_builder_feed(b, "s");
    ic_builder_feed(b, "bi");
  }
  ic_builder_op *op = ic_builder_add_op(b, 0, "group_norm");
  ic_builder_in(op, "X", "x");
  if (sb) {
    ic_builder_in(op, "Scale", "s");
    ic_builder_in(op, "Bias", "bi");
  }
  ic_builder_out(op, "Y", "y");
  ic_builder_out(op, "Mean", "m");
  ic_builder_out(op, "Variance", "v");
  ic_builder_attr_int(op, "groups", groups);
  ic_builder_attr_float(op, "epsilon", 1e-5f);
  ic_builder_attr_string(op, "data_layout", nhwc ? "NHWC" : "NCHW");
  ic_builder_fetch(b, "y");
  const int64_t C = nhwc ? d[nd - 1] : d[1];
  ic_tensor *in[3] = {rand_dt(dt, nd, d, 5), ew_rand(dt, 1, &C, 6, 0.5, 1.5),
                      ew_rand(dt, 1, &C, 7, -0.5, 0.5)};
  bool f64 = dt == IC_FP64;
  ch_check_builder(b, 3, TU_NAMES("x", "s", "bi"), in, f64 ? 1e-12 : 1e-5, f64 ? 1e-12 : 1e-6);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(in[i]);
  ic_builder_destroy(b);
}

START_TEST(group_norm) {
  for (int f = 0; f < 2; f++) {
    ic_dtype dt = f ? IC_FP64 : IC_FP32;
    run_gn(dt, 4, TU_DIMS(2, 6, 3, 4), 3, false, true);
    run_gn(dt, 4, TU_DIMS(2, 6, 3, 4), 2, false, false);
    run_gn(dt, 4, TU_DIMS(2, 3, 5, 6), 3, true, true);
    run_gn(dt, 3, TU_DIMS(1, 8, 5), 4, false, true);
    run_gn(dt, 4, TU_DIMS(1, 6, 2, 2), 4, false, true); /* an empty last group */
    run_gn(dt, 4, TU_DIMS(2, 64, 32, 32), 32, false, true); /* the SD VAE's shape, reduced */
  }
}
END_TEST

static TCase *tc_dense(void) {
  TCase *tc = tcase_create("dense");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, resize);
  tcase_add_test(tc, arg_max_min);
  tcase_add_test(tc, group_norm);
  return tc;
}

CH_MAIN("cuda_dense", tc_dense)
