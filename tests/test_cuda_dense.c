/* The CUDA kernels of the resize ops (nearest_interp, bilinear_interp and the _v2 family: the
 * shared table cases_resize.h, the one test_ops_resize.c runs on the CPU executors), arg_max /
 * arg_min (the shared table cases_arg.h) and group_norm (cases_norm.h) against their CPU kernels
 * (cuda_harness.h).
 *
 * Resize and arg_max / arg_min agree bit for bit (the same per-axis functions and sum order, no
 * FMA contraction). group_norm sums its statistics in double in another order: float32 within 1e-5
 * relative plus 1e-6, float64 1e-12. Size inputs (OutSize, SizeTensor, Scale) stay on the host
 * (IC_SLOT_VALUE). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.h"
#include "cases_arg.h"
#include "cases_norm.h"
#include "cases_resize.h"
#include "ew_testutil.h"

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

/* ---- group_norm: the shared table of cases_norm.h ---- */

START_TEST(group_norm) {
  for (size_t i = 0; i < CG_N_CASES; i++) {
    for (int f = 0; f < 2; f++) {
      ic_dtype dt = f ? IC_FP64 : IC_FP32;
      ic_tensor *in[3];
      cg_inputs(&cg_cases[i], dt, in);
      ic_builder *b = cg_program(&cg_cases[i], dt);
      ch_check_builder(b, cg_cases[i].sb ? 3 : 1, TU_NAMES("x", "s", "b"), in,
                       f ? 1e-12 : 1e-5, f ? 1e-12 : 1e-6);
      for (int k = 0; k < 3; k++) ic_tensor_destroy(in[k]);
      ic_builder_destroy(b);
    }
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
