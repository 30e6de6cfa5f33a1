/* conv2d's, depthwise_conv2d's and pool2d's CUDA kernels against their CPU kernels
 * (tests/cuda_harness.h), on the shared case tables of cases_conv.h (the ones
 * test_ops_conv.c and test_ops_pool.c run on the CPU executors) in NCHW and NHWC, float32
 * and float64. Every case runs twice: with cuDNN
 * (when icore is built with it; cases cuDNN declines take the fallback anyway) and with
 * ICORE_CUDNN=0 (im2col + cuBLAS for convolutions, the direct kernel for pooling); and the
 * transposed convolutions' direct kernel on the table of cases_conv.h.
 *
 * Tolerances: convolutions sum up to 576 products in another order than oneDNN / BLAS, so
 * both sides carry rounding errors of their own: float32 1e-4 relative plus 1e-4 absolute,
 * float64 1e-10, as the CPU suite allows against its double reference; the activations go
 * through CUDA's math library. Max
 * pooling is exact; average pooling through the direct kernel adds in the CPU loops' order,
 * through cuDNN perhaps not (float32 1e-6, float64 1e-13). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.h"
#include "cases_conv.h"
#include "ew_testutil.h"

/* Run f twice: cuDNN allowed, then ICORE_CUDNN=0. */
#define BOTH_PATHS(stmt)            \
  do {                              \
    unsetenv("ICORE_CUDNN");        \
    stmt;                           \
    setenv("ICORE_CUDNN", "0", 1);  \
    stmt;                           \
    unsetenv("ICORE_CUDNN");        \
  } while (0)

static void var_any(ic_builder *b, const char *name, ic_dtype dt, int ndim) {
  int64_t d[IC_MAX_RANK];
  for (int i = 0; i < IC_MAX_RANK; i++) d[i] = -1;
  ic_builder_var(b, 0, name, dt, ndim, d, false);
}

/* ---- conv2d, depthwise_conv2d ---- */

typedef cc_case conv_case;

static ic_builder *conv_program(const conv_case *k) {
  ic_dtype dt = k->f64 ? IC_FP64 : IC_FP32;
  ic_builder *b = ic_builder_create();
  var_any(b, "x", dt, 4);
  var_any(b, "w", dt, 4);
  var_any(b, "y", dt, 4);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "w");
  if (k->bias) {
    var_any(b, "b", dt, k->bias);
    ic_builder_feed(b, "b");
  }
  if (k->residual) {
    var_any(b, "r", dt, 4);
    ic_builder_feed(b, "r");
  }
  ic_builder_op *op = ic_builder_add_op(b, 0, k->op ? k->op : "conv2d");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "Filter", "w");
  if (k->bias) ic_builder_in(op, "Bias", "b");
  else ic_builder_input(op, "Bias", 0, NULL);
  if (k->residual) ic_builder_in(op, "ResidualData", "r");
  ic_builder_out(op, "Output", "y");
  if (k->groups) ic_builder_attr_int(op, "groups", k->groups);
  if (k->sh) ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){k->sh, k->sw});
  if (k->dh) ic_builder_attr_ints(op, "dilations", 2, (const int32_t[]){k->dh, k->dw});
  if (k->npads) ic_builder_attr_ints(op, "paddings", (size_t)k->npads, k->pads);
  if (k->algo) ic_builder_attr_string(op, "padding_algorithm", k->algo);
  ic_builder_attr_string(op, "data_format", k->nhwc ? "NHWC" : "NCHW");
  if (k->act) {
    ic_builder_attr_string(op, "fuse_activation", k->act);
    ic_builder_attr_float(op, "fuse_alpha", k->alpha);
    ic_builder_attr_float(op, "fuse_beta", k->beta);
  }
  if (k->residual) ic_builder_attr_bool(op, "fuse_residual_connection", true);
  ic_builder_attr_bool(op, "use_cudnn", true);
  ic_builder_attr_bool(op, "use_mkldnn", false);
  ic_builder_attr_int(op, "workspace_size_MB", 512);
  ic_builder_attr_bool(op, "exhaustive_search", false);
  ic_builder_fetch(b, "y");
  return b;
}

/* Output dims as Paddle computes them (the residual needs them). */
static void out_dims(const conv_case *k, int64_t od[4]) {
  int64_t sh = k->sh ? k->sh : 1, sw = k->sw ? k->sw : 1;
  int64_t dh = k->dh ? k->dh : 1, dw = k->dw ? k->dw : 1;
  int64_t p[4] = {0, 0, 0, 0};
  if (k->npads == 2) p[0] = p[1] = k->pads[0], p[2] = p[3] = k->pads[1];
  if (k->npads == 4) p[0] = k->pads[0], p[1] = k->pads[1], p[2] = k->pads[2], p[3] = k->pads[3];
  int64_t in[2] = {k->h, k->w}, st[2] = {sh, sw}, ks[2] = {k->kh, k->kw};
  if (k->algo && !strcmp(k->algo, "SAME")) {
    for (int d = 0; d < 2; d++) {
      int64_t out = (in[d] + st[d] - 1) / st[d], total = (out - 1) * st[d] + ks[d] - in[d];
      if (total < 0) total = 0;
      p[2 * d] = total / 2;
      p[2 * d + 1] = total - total / 2;
    }
    dh = dw = 1;
  } else if (k->algo && !strcmp(k->algo, "VALID")) {
    memset(p, 0, sizeof p);
  }
  int64_t oh = (k->h + p[0] + p[1] - (dh * (k->kh - 1) + 1)) / sh + 1;
  int64_t ow = (k->w + p[2] + p[3] - (dw * (k->kw - 1) + 1)) / sw + 1;
  od[0] = k->n;
  od[1] = k->nhwc ? oh : k->oc;
  od[2] = k->nhwc ? ow : oh;
  od[3] = k->nhwc ? k->oc : ow;
}

static void conv_check(const conv_case *k, uint64_t seed) {
  ic_dtype dt = k->f64 ? IC_FP64 : IC_FP32;
  int g = k->groups ? k->groups : 1;
  int64_t xd[4] = {k->n, k->nhwc ? k->h : k->c, k->nhwc ? k->w : k->h, k->nhwc ? k->c : k->w};
  int64_t wd[4] = {k->oc, k->c / g, k->kh, k->kw}, od[4];
  out_dims(k, od);
  ic_tensor *in[4];
  const char *names[4] = {"x", "w"};
  size_t n = 2;
  in[0] = ew_rand(dt, 4, xd, seed, -1, 1);
  in[1] = ew_rand(dt, 4, wd, seed + 1, -1, 1);
  if (k->bias) {
    in[n] = k->bias == 1 ? ew_rand(dt, 1, TU_DIMS(k->oc), seed + 2, -1, 1)
                         : ew_rand(dt, 4, TU_DIMS(1, k->oc, 1, 1), seed + 2, -1, 1);
    names[n++] = "b";
  }
  if (k->residual) {
    in[n] = ew_rand(dt, 4, od, seed + 3, -2, 2);
    names[n++] = "r";
  }
  ic_builder *b = conv_program(k);
  BOTH_PATHS(ch_check_builder(b, n, names, in, k->f64 ? 1e-10 : 1e-4, k->f64 ? 1e-10 : 1e-4));
  ic_builder_destroy(b);
  for (size_t i = 0; i < n; i++) ic_tensor_destroy(in[i]);
}

/* Both layouts and both float types. */
static void conv_all(const conv_case *k) {
  for (int v = 0; v < 4; v++) {
    uint64_t seed;
    conv_case c = cc_variant(k, v, &seed);
    conv_check(&c, seed);
  }
}

/* Every row of the shared table, and every fused activation with and without bias and
 * residual (relu with bias and residual: cuDNN's fused form with Z). */
START_TEST(conv_table) {
  for (size_t i = 0; i < CC_N_CASES; i++) conv_all(&cc_cases[i]);
}
END_TEST

START_TEST(conv_activations) {
  for (size_t a = 0; a < CC_N_ACTS; a++) {
    for (int bias = 0; bias < 2; bias++) {
      for (int res = 0; res < 2; res++) {
        conv_case k = cc_act_case(a, bias, res != 0);
        conv_all(&k);
      }
    }
  }
}
END_TEST

START_TEST(conv_bad_inputs) {
  conv_case k = {.n = 1, .c = 4, .h = 8, .w = 8, .oc = 2, .kh = 3, .kw = 3};
  ic_tensor *in[2] = {ew_rand(IC_FP32, 4, TU_DIMS(1, 4, 8, 8), 1, -1, 1),
                      ew_rand(IC_FP32, 4, TU_DIMS(2, 3, 3, 3), 2, -1, 1)};
  ic_builder *b = conv_program(&k);
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_status st = ch_check_op_status(p, 2, TU_NAMES("x", "w"), in, 0, 0, err, sizeof err);
  ck_assert_int_eq(st, IC_ERR_SHAPE);
  tu_assert_msg(err, "Input", "'x'", "Filter", "'w'", "groups 1", NULL);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  ic_tensor_destroy(in[0]);
  ic_tensor_destroy(in[1]);
}
END_TEST

/* ---- pool2d ---- */

typedef cp_case pool_case;

static ic_builder *pool_program(const pool_case *k) {
  ic_dtype dt = k->f64 ? IC_FP64 : IC_FP32;
  ic_builder *b = ic_builder_create();
  var_any(b, "x", dt, 4);
  var_any(b, "y", dt, 4);
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "pool2d");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  ic_builder_attr_string(op, "pooling_type", k->type);
  ic_builder_attr_ints(op, "ksize", 2, (const int32_t[]){k->kh, k->kw});
  if (k->sh) ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){k->sh, k->sw});
  if (k->npads) ic_builder_attr_ints(op, "paddings", (size_t)k->npads, k->pads);
  if (k->exclusive_set) ic_builder_attr_bool(op, "exclusive", k->exclusive);
  ic_builder_attr_bool(op, "ceil_mode", k->ceil_mode);
  ic_builder_attr_bool(op, "global_pooling", k->global);
  ic_builder_attr_bool(op, "adaptive", k->adaptive);
  if (k->algo) ic_builder_attr_string(op, "padding_algorithm", k->algo);
  ic_builder_attr_string(op, "data_format", k->nhwc ? "NHWC" : "NCHW");
  ic_builder_attr_bool(op, "use_cudnn", true);
  ic_builder_attr_bool(op, "is_test", true);
  ic_builder_fetch(b, "y");
  return b;
}

static void pool_check(const pool_case *k, uint64_t seed) {
  int64_t xd[4] = {k->n, k->nhwc ? k->h : k->c, k->nhwc ? k->w : k->h, k->nhwc ? k->c : k->w};
  ic_tensor *x = ew_rand(k->f64 ? IC_FP64 : IC_FP32, 4, xd, seed, -1, 1);
  ic_builder *b = pool_program(k);
  bool max = !strcmp(k->type, "max");
  double tol = max ? 0 : k->f64 ? 1e-13 : 1e-6;
  BOTH_PATHS(ch_check_builder(b, 1, TU_NAMES("x"), &x, tol, tol));
  ic_builder_destroy(b);
  ic_tensor_destroy(x);
}

static void pool_all(const pool_case *k) {
  for (int v = 0; v < 4; v++) {
    for (int t = 0; t < 3; t++) {
      pool_case c;
      uint64_t seed;
      if (cp_variant(k, v, t, &c, &seed)) pool_check(&c, seed);
    }
  }
}

/* Every row of the shared table. */
START_TEST(pool_table) {
  for (size_t i = 0; i < CP_N_CASES; i++) pool_all(&cp_cases[i]);
}
END_TEST

START_TEST(pool_bad_inputs) {
  pool_case k = {.type = "max", .n = 1, .c = 2, .h = 3, .w = 3, .kh = 2, .kw = 2};
  ic_tensor *x = ew_rand(IC_INT32, 4, TU_DIMS(1, 2, 3, 3), 1, -5, 5);
  ic_builder *b = pool_program(&k);
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_status st = ch_check_op_status(p, 1, TU_NAMES("x"), &x, 0, 0, err, sizeof err);
  ck_assert_int_eq(st, IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "int32", NULL);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- conv2d_transpose, depthwise_conv2d_transpose: the shared table ---- */

/* Every row in float32 and float64. The direct kernel sums in another order than the CPU's
 * GEMM + col2im: float32 1e-4 relative plus 1e-4 absolute, float64 1e-10. */
START_TEST(conv_transpose_table) {
  for (size_t i = 0; i < CCT_N_CASES; i++) {
    const cct_case *k = &cct_cases[i];
    for (int f64 = 0; f64 < 2; f64++) {
      ic_dtype dt = f64 ? IC_FP64 : IC_FP32;
      int64_t xd[4] = {k->n, k->c, k->h, k->w};
      if (k->nhwc) xd[1] = k->h, xd[2] = k->w, xd[3] = k->c;
      ic_tensor *in[3] = {ew_rand(dt, 4, xd, 21 + i, -1, 1),
                          ew_rand(dt, 4, TU_DIMS(k->c, k->og, k->kh, k->kw), 22 + i, -0.5, 0.5),
                          ew_rand(dt, 1, TU_DIMS(k->og * k->groups), 23 + i, -0.5, 0.5)};
      ic_builder *b = cct_program(k, dt);
      ch_check_builder(b, k->bias ? 3 : 2, TU_NAMES("x", "f", "b"), in, f64 ? 1e-10 : 1e-4,
                       f64 ? 1e-10 : 1e-4);
      ic_builder_destroy(b);
      for (int j = 0; j < 3; j++) ic_tensor_destroy(in[j]);
    }
  }
}
END_TEST

static TCase *tc_conv(void) {
  TCase *tc = tcase_create("conv");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, conv_table);
  tcase_add_test(tc, conv_activations);
  tcase_add_test(tc, conv_bad_inputs);
  tcase_add_test(tc, conv_transpose_table);
  return tc;
}

static TCase *tc_pool(void) {
  TCase *tc = tcase_create("pool2d");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, pool_table);
  tcase_add_test(tc, pool_bad_inputs);
  return tc;
}

CH_MAIN("cuda_conv", tc_conv, tc_pool)
