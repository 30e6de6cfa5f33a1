/* batch_norm's and layer_norm's CUDA kernels against their CPU kernels (tests/cuda_harness.h),
 * on the shared case tables of cases_norm.h (the ones test_ops_norm.c runs on the CPU
 * executors).
 *
 * batch_norm: NCHW and NHWC at ranks 2 to 5 with odd and single-element dims, Scale and Bias
 * each present or absent, epsilon 0 / 1e-3 / default, float64, use_global_stats while
 * training, training (batch statistics, MeanOut / VarianceOut / SavedMean / SavedVariance),
 * trainable_statistics, the one-element-per-channel copy, and a bad input. Mean/MeanOut and
 * Variance/VarianceOut are the same variables, as in exported programs.
 * Tolerances: inference computes the same per-channel a and b in double and y = x * a + b
 * in X's type on both sides: bitwise. Training statistics sum in double in another order:
 * float32 relative 1e-5 plus 1e-6, float64 1e-12.
 *
 * layer_norm: begin_norm_axis 1 to rank - 1, Scale / Bias present or absent, epsilon edge
 * values, float64, rows longer than a block and more rows than a grid, empty rows and empty
 * normalized dims, Mean / Variance outputs present or absent, and bad inputs. Tolerances as
 * for training (the statistics' order differs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.h"
#include "cases_norm.h"

static void var_any(ic_builder *b, const char *name, ic_dtype dt, int ndim) {
  int64_t d[IC_MAX_RANK];
  for (int i = 0; i < IC_MAX_RANK; i++) d[i] = -1;
  ic_builder_var(b, 0, name, dt, ndim, d, false);
}

/* ---- batch_norm ---- */

typedef cbn_case bn_case;


static ic_builder *bn_program(const bn_case *k) {
  ic_builder *b = ic_builder_create();
  var_any(b, "x", k->dt, k->ndim);
  var_any(b, "y", k->dt, k->ndim);
  const char *vecs[] = {"scale", "bias", "mean", "var", "saved_mean", "saved_var"};
  for (size_t i = 0; i < 6; i++) var_any(b, vecs[i], k->dt, 1);
  ic_builder_feed(b, "x");
  if (k->scale) ic_builder_feed(b, "scale");
  if (k->bias) ic_builder_feed(b, "bias");
  ic_builder_feed(b, "mean");
  ic_builder_feed(b, "var");
  ic_builder_op *op = ic_builder_add_op(b, 0, "batch_norm");
  ic_builder_in(op, "X", "x");
  if (k->scale) ic_builder_in(op, "Scale", "scale");
  if (k->bias) ic_builder_in(op, "Bias", "bias");
  ic_builder_in(op, "Mean", "mean");
  ic_builder_in(op, "Variance", "var");
  ic_builder_input(op, "MomentumTensor", 0, NULL);
  ic_builder_out(op, "Y", "y");
  ic_builder_out(op, "MeanOut", "mean");
  ic_builder_out(op, "VarianceOut", "var");
  ic_builder_out(op, "SavedMean", "saved_mean");
  ic_builder_out(op, "SavedVariance", "saved_var");
  if (k->eps >= 0) ic_builder_attr_float(op, "epsilon", (float)k->eps);
  if (k->momentum >= 0) ic_builder_attr_float(op, "momentum", (float)k->momentum);
  ic_builder_attr_string(op, "data_layout", k->nhwc ? "NHWC" : "NCHW");
  ic_builder_attr_bool(op, "is_test", k->is_test);
  ic_builder_attr_bool(op, "use_global_stats", k->use_global_stats);
  ic_builder_attr_bool(op, "trainable_statistics", k->trainable_statistics);
  ic_builder_fetch(b, "y");
  return b;
}

static ic_tensor *rand_as(ic_dtype dt, int ndim, const int64_t *dims, uint64_t seed, double lo,
                          double hi) {
  return ew_rand(dt, ndim, dims, seed, lo, hi);
}

static void bn_check(const bn_case *k, uint64_t seed) {
  const int64_t C = k->nhwc ? k->dims[k->ndim - 1] : k->dims[1];
  const bool global = (k->is_test && !k->trainable_statistics) || k->use_global_stats;
  ic_tensor *in[5];
  in[0] = rand_as(k->dt, k->ndim, k->dims, seed, -3, 5);
  in[1] = rand_as(k->dt, 1, TU_DIMS(C), seed + 1, -2, 2);
  in[2] = rand_as(k->dt, 1, TU_DIMS(C), seed + 2, -1, 1);
  in[3] = rand_as(k->dt, 1, TU_DIMS(C), seed + 3, -1, 1);
  in[4] = rand_as(k->dt, 1, TU_DIMS(C), seed + 4, 0.2, 2);
  ic_builder *b = bn_program(k);
  double tol = global ? 0 : k->dt == IC_FP64 ? 1e-12 : 1e-5;
  ch_check_builder(b, 5, TU_NAMES("x", "scale", "bias", "mean", "var"), in, tol,
                   global ? 0 : k->dt == IC_FP64 ? 1e-12 : 1e-6);
  ic_builder_destroy(b);
  for (int i = 0; i < 5; i++) ic_tensor_destroy(in[i]);
}

/* Every batch_norm row of the shared table. */
START_TEST(bn_table) {
  for (size_t i = 0; i < CBN_N_CASES; i++) bn_check(&cbn_cases[i], 10 + i);
}
END_TEST

START_TEST(bn_bad_inputs) {
  bn_case k = cbn_cases[6]; /* [2, 3, 4, 5] NCHW inference */
  ck_assert(k.ndim == 4 && k.dims[1] == 3 && !k.nhwc && k.is_test);
  ic_tensor *in[5] = {rand_as(IC_FP32, 4, k.dims, 1, -1, 1),
                      rand_as(IC_FP32, 1, TU_DIMS(4), 2, 0, 1),
                      rand_as(IC_FP32, 1, TU_DIMS(3), 3, 0, 1),
                      rand_as(IC_FP32, 1, TU_DIMS(3), 4, 0, 1),
                      rand_as(IC_FP32, 1, TU_DIMS(3), 5, 0, 1)};
  ic_builder *b = bn_program(&k);
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_status st = ch_check_op_status(p, 5, TU_NAMES("x", "scale", "bias", "mean", "var"), in, 0,
                                    0, err, sizeof err);
  ck_assert_int_eq(st, IC_ERR_SHAPE);
  tu_assert_msg(err, "Scale 'scale'", "[3]", NULL);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  for (int i = 0; i < 5; i++) ic_tensor_destroy(in[i]);
}
END_TEST

/* ---- layer_norm ---- */

typedef cln_case ln_case;

static ic_builder *ln_program(const ln_case *k) {
  ic_builder *b = ic_builder_create();
  var_any(b, "x", k->dt, k->ndim);
  var_any(b, "y", k->dt, k->ndim);
  var_any(b, "scale", k->dt, 1);
  var_any(b, "bias", k->dt, 1);
  var_any(b, "mean", k->dt, 1);
  var_any(b, "var", k->dt, 1);
  ic_builder_feed(b, "x");
  if (k->scale) ic_builder_feed(b, "scale");
  if (k->bias) ic_builder_feed(b, "bias");
  ic_builder_op *op = ic_builder_add_op(b, 0, "layer_norm");
  ic_builder_in(op, "X", "x");
  if (k->scale) ic_builder_in(op, "Scale", "scale");
  if (k->bias) ic_builder_in(op, "Bias", "bias");
  ic_builder_out(op, "Y", "y");
  if (!k->no_stats) {
    ic_builder_out(op, "Mean", "mean");
    ic_builder_out(op, "Variance", "var");
  }
  if (k->axis >= 0) ic_builder_attr_int(op, "begin_norm_axis", k->axis);
  if (k->eps >= 0) ic_builder_attr_float(op, "epsilon", (float)k->eps);
  ic_builder_fetch(b, "y");
  return b;
}

static void ln_check(const ln_case *k, uint64_t seed) {
  int axis = k->axis >= 0 ? k->axis : 1;
  int64_t right = 1;
  for (int i = axis; i < k->ndim; i++) right *= k->dims[i];
  ic_tensor *in[3] = {rand_as(k->dt, k->ndim, k->dims, seed, -3, 5),
                      rand_as(k->dt, 1, TU_DIMS(right), seed + 1, -2, 2),
                      rand_as(k->dt, 1, TU_DIMS(right), seed + 2, -1, 1)};
  ic_builder *b = ln_program(k);
  bool f64 = k->dt == IC_FP64;
  ch_check_builder(b, 3, TU_NAMES("x", "scale", "bias"), in, f64 ? 1e-12 : 1e-5,
                   f64 ? 1e-12 : 1e-6);
  ic_builder_destroy(b);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(in[i]);
}

/* Every layer_norm row of the shared table. */
START_TEST(ln_table) {
  for (size_t i = 0; i < CLN_N_CASES; i++) ln_check(&cln_cases[i], 100 + i);
}
END_TEST

START_TEST(ln_bad_inputs) {
  const struct {
    int axis;
    int64_t right;
    const char *needle;
  } bad[] = {{0, 24, "begin_norm_axis"}, {3, 1, "begin_norm_axis"}, {2, 5, "Scale 'scale'"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ln_case k = {.ndim = 3, .dims = {2, 3, 4}, .axis = bad[i].axis, .scale = true, .eps = -1,
                 .dt = IC_FP32};
    ic_tensor *in[2] = {rand_as(IC_FP32, 3, k.dims, 1, -1, 1),
                        rand_as(IC_FP32, 1, TU_DIMS(bad[i].right), 2, -1, 1)};
    ic_builder *b = ln_program(&k);
    ic_program *p;
    char err[1024];
    ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
    ic_status st = ch_check_op_status(p, 2, TU_NAMES("x", "scale"), in, 0, 0, err, sizeof err);
    ck_assert_int_eq(st, IC_ERR_SHAPE);
    tu_assert_msg(err, bad[i].needle, NULL);
    ic_program_destroy(p);
    ic_builder_destroy(b);
    ic_tensor_destroy(in[0]);
    ic_tensor_destroy(in[1]);
  }
}
END_TEST

static TCase *tc_batch_norm(void) {
  TCase *tc = tcase_create("batch_norm");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, bn_table);
  tcase_add_test(tc, bn_bad_inputs);
  return tc;
}

static TCase *tc_layer_norm(void) {
  TCase *tc = tcase_create("layer_norm");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, ln_table);
  tcase_add_test(tc, ln_bad_inputs);
  return tc;
}

CH_MAIN("cuda_norm", tc_batch_norm, tc_layer_norm)
