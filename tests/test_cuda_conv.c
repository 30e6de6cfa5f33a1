/* conv2d's, depthwise_conv2d's and pool2d's CUDA kernels against their CPU kernels
 * (tests/cuda_harness.h), with the cases of the CPU suites (test_ops_conv.c,
 * test_ops_pool.c) in NCHW and NHWC, float32 and float64. Every case runs twice: with cuDNN
 * (when icore is built with it; cases cuDNN declines take the fallback anyway) and with
 * ICORE_CUDNN=0 (im2col + cuBLAS for convolutions, the direct kernel for pooling).
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

typedef struct conv_case {
  const char *op;       /* NULL: conv2d */
  int n, c, h, w;       /* input, logical NCHW */
  int oc, kh, kw;
  int groups;           /* 0: attribute omitted (1) */
  int sh, sw;           /* 0: strides omitted */
  int dh, dw;           /* 0: dilations omitted */
  int npads;            /* 0 (omitted), 2 or 4 */
  int pads[4];
  const char *algo;     /* padding_algorithm, NULL: omitted */
  bool nhwc;
  int bias;             /* 0 none, 1 [C_out], 4 [1, C_out, 1, 1] */
  bool residual;
  const char *act;      /* fuse_activation, NULL: omitted */
  float alpha, beta;
  bool f64;
} conv_case;

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
    conv_case c = *k;
    c.nhwc = (v & 1) != 0;
    c.f64 = (v & 2) != 0;
    conv_check(&c, (uint64_t)(v + 1) * 1000 + (uint64_t)k->c * 7 + (uint64_t)k->kh);
  }
}

START_TEST(conv_pointwise) {
  conv_all(&(conv_case){.n = 1, .c = 5, .h = 7, .w = 9, .oc = 3, .kh = 1, .kw = 1});
  conv_all(&(conv_case){.n = 3, .c = 32, .h = 10, .w = 10, .oc = 16, .kh = 1, .kw = 1,
                        .npads = 2, .bias = 1});
  conv_all(&(conv_case){.n = 2, .c = 17, .h = 9, .w = 6, .oc = 5, .kh = 1, .kw = 1, .sh = 2,
                        .sw = 2});
  conv_all(&(conv_case){.n = 1, .c = 3, .h = 4, .w = 5, .oc = 8, .kh = 1, .kw = 1, .npads = 2,
                        .pads = {1, 2}});
}
END_TEST

START_TEST(conv_spatial) {
  conv_all(&(conv_case){.n = 3, .c = 3, .h = 8, .w = 8, .oc = 17, .kh = 3, .kw = 3, .sh = 1,
                        .sw = 1, .npads = 2, .pads = {1, 1}, .bias = 1});
  conv_all(&(conv_case){.n = 1, .c = 17, .h = 11, .w = 9, .oc = 5, .kh = 3, .kw = 3, .sh = 2,
                        .sw = 2, .npads = 2, .pads = {1, 1}});
  conv_all(&(conv_case){.n = 1, .c = 3, .h = 16, .w = 16, .oc = 32, .kh = 3, .kw = 3, .sh = 2,
                        .sw = 2, .npads = 2, .pads = {1, 1}, .bias = 4});
  conv_all(&(conv_case){.n = 2, .c = 4, .h = 9, .w = 12, .oc = 6, .kh = 2, .kw = 5, .sh = 2,
                        .sw = 1, .npads = 2, .pads = {0, 2}});
  conv_all(&(conv_case){.n = 1, .c = 4, .h = 9, .w = 10, .oc = 3, .kh = 3, .kw = 3, .dh = 2,
                        .dw = 2, .npads = 2, .pads = {2, 2}});
  conv_all(&(conv_case){.n = 2, .c = 5, .h = 11, .w = 7, .oc = 4, .kh = 3, .kw = 2, .dh = 3,
                        .dw = 1, .sh = 2, .sw = 1, .npads = 2, .pads = {1, 0}});
  /* a bigger layer: 64 -> 64 channels, 3x3, batch 4 */
  conv_all(&(conv_case){.n = 4, .c = 64, .h = 28, .w = 28, .oc = 64, .kh = 3, .kw = 3,
                        .npads = 2, .pads = {1, 1}, .bias = 1, .act = "relu"});
}
END_TEST

START_TEST(conv_groups) {
  conv_all(&(conv_case){.n = 2, .c = 6, .h = 7, .w = 7, .oc = 4, .kh = 3, .kw = 3, .groups = 2,
                        .npads = 2, .pads = {1, 1}, .bias = 1});
  conv_all(&(conv_case){.op = "depthwise_conv2d", .n = 1, .c = 5, .h = 9, .w = 8, .oc = 5,
                        .kh = 3, .kw = 3, .groups = 5, .npads = 2, .pads = {1, 1}});
  conv_all(&(conv_case){.op = "depthwise_conv2d", .n = 3, .c = 96, .h = 13, .w = 13, .oc = 96,
                        .kh = 3, .kw = 3, .groups = 96, .sh = 2, .sw = 2, .npads = 2,
                        .pads = {1, 1}, .bias = 1, .act = "relu6", .beta = 6});
  conv_all(&(conv_case){.op = "depthwise_conv2d", .n = 1, .c = 17, .h = 6, .w = 7, .oc = 17,
                        .kh = 5, .kw = 5, .groups = 17, .npads = 2, .pads = {2, 2}});
  conv_all(&(conv_case){.op = "depthwise_conv2d", .n = 1, .c = 3, .h = 5, .w = 6, .oc = 6,
                        .kh = 3, .kw = 3, .groups = 3, .npads = 2, .pads = {1, 1}});
  conv_all(&(conv_case){.n = 2, .c = 8, .h = 5, .w = 5, .oc = 8, .kh = 3, .kw = 3, .groups = 8,
                        .sh = 2, .sw = 1, .npads = 2, .pads = {1, 1}});
}
END_TEST

START_TEST(conv_paddings) {
  conv_all(&(conv_case){.n = 1, .c = 3, .h = 7, .w = 6, .oc = 4, .kh = 3, .kw = 3, .npads = 4,
                        .pads = {1, 2, 0, 3}, .bias = 1});
  conv_all(&(conv_case){.n = 2, .c = 5, .h = 8, .w = 9, .oc = 3, .kh = 3, .kw = 3, .sh = 2,
                        .sw = 2, .npads = 4, .pads = {0, 1, 2, 0}});
  conv_all(&(conv_case){.n = 1, .c = 4, .h = 7, .w = 8, .oc = 5, .kh = 3, .kw = 3, .sh = 2,
                        .sw = 2, .algo = "SAME", .npads = 2, .pads = {5, 5}});
  conv_all(&(conv_case){.n = 1, .c = 3, .h = 5, .w = 5, .oc = 2, .kh = 3, .kw = 3, .dh = 2,
                        .dw = 2, .algo = "SAME", .npads = 2});
  conv_all(&(conv_case){.n = 1, .c = 3, .h = 6, .w = 5, .oc = 2, .kh = 2, .kw = 4,
                        .algo = "SAME", .npads = 4});
  conv_all(&(conv_case){.n = 2, .c = 3, .h = 8, .w = 7, .oc = 4, .kh = 3, .kw = 3, .sh = 2,
                        .sw = 2, .algo = "VALID", .npads = 2, .pads = {1, 1}});
  conv_all(&(conv_case){.n = 1, .c = 2, .h = 5, .w = 5, .oc = 2, .kh = 3, .kw = 3,
                        .algo = "EXPLICIT", .npads = 2, .pads = {1, 1}});
}
END_TEST

START_TEST(conv_small_images) {
  conv_all(&(conv_case){.n = 3, .c = 5, .h = 1, .w = 1, .oc = 7, .kh = 3, .kw = 3, .npads = 2,
                        .pads = {1, 1}, .bias = 1});
  conv_all(&(conv_case){.n = 1, .c = 1, .h = 1, .w = 1, .oc = 1, .kh = 1, .kw = 1});
  conv_all(&(conv_case){.n = 1, .c = 3, .h = 2, .w = 2, .oc = 4, .kh = 5, .kw = 5, .npads = 2,
                        .pads = {2, 2}});
  conv_all(&(conv_case){.n = 2, .c = 2, .h = 3, .w = 2, .oc = 3, .kh = 4, .kw = 3, .sh = 2,
                        .sw = 1, .npads = 2, .pads = {1, 1}});
  /* a kernel overhanging the input by less than a stride (Paddle's truncating division) */
  conv_all(&(conv_case){.n = 1, .c = 2, .h = 3, .w = 3, .oc = 2, .kh = 4, .kw = 4, .sh = 2,
                        .sw = 2});
  /* padding wider than the kernel */
  conv_all(&(conv_case){.n = 1, .c = 3, .h = 3, .w = 4, .oc = 2, .kh = 2, .kw = 2, .npads = 2,
                        .pads = {3, 2}, .bias = 1});
}
END_TEST

START_TEST(conv_activations) {
  static const struct {
    const char *act;
    float alpha, beta;
  } acts[] = {
      {"", 0, 0},          {"relu", 0, 0},      {"leaky_relu", 0.1f, 0},
      {"relu6", 0, 6},     {"relu6", 0, 0.25f}, {"clip", -0.3f, 0.4f},
      {"hard_swish", 1.0f / 6.0f, 0.5f},        {"hard_swish", 0.4f, 0.3f},
      {"hard_sigmoid", 0.2f, 0.5f},             {"swish", 1.0f, 0},
      {"swish", 1.7f, 0},  {"sigmoid", 0, 0},   {"tanh", 0, 0},
      {"abs", 0, 0},       {"sqrt", 0, 0},      {"mish", 0, 0},
      {"gelu", 0, 0},      {"gelu_erf", 0, 0},  {"gelu_tanh", 0, 0},
  };
  for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++) {
    for (int bias = 0; bias < 2; bias++) {
      conv_case k = {.n = 2, .c = 9, .h = 6, .w = 5, .oc = 11, .kh = 3, .kw = 3, .npads = 2,
                     .pads = {1, 1}, .bias = bias, .act = acts[i].act, .alpha = acts[i].alpha,
                     .beta = acts[i].beta};
      conv_all(&k);
      k.residual = true; /* relu with bias and residual: cuDNN's fused form with Z */
      conv_all(&k);
    }
  }
}
END_TEST

START_TEST(conv_residual_and_models) {
  conv_all(&(conv_case){.n = 3, .c = 16, .h = 5, .w = 7, .oc = 24, .kh = 1, .kw = 1, .bias = 1,
                        .residual = true});
  conv_all(&(conv_case){.op = "depthwise_conv2d", .n = 2, .c = 17, .h = 5, .w = 4, .oc = 17,
                        .kh = 3, .kw = 3, .groups = 17, .npads = 2, .pads = {1, 1}, .bias = 4,
                        .residual = true, .act = "hard_swish", .alpha = 1.0f / 6.0f,
                        .beta = 0.5f});
  conv_all(&(conv_case){.n = 2, .c = 32, .h = 12, .w = 12, .oc = 16, .kh = 1, .kw = 1,
                        .npads = 2, .bias = 1});
  conv_all(&(conv_case){.n = 1, .c = 320, .h = 3, .w = 3, .oc = 1280, .kh = 1, .kw = 1,
                        .bias = 1, .act = "relu6", .beta = 6});
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

typedef struct pool_case {
  const char *type;     /* "max" or "avg"; NULL: every kind */
  int n, c, h, w;
  int kh, kw;
  int sh, sw;
  int npads;
  int pads[4];
  bool exclusive_set, exclusive;
  bool ceil_mode, global, adaptive;
  const char *algo;
  bool nhwc, f64;
} pool_case;

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
      pool_case c = *k;
      c.nhwc = (v & 1) != 0;
      c.f64 = (v & 2) != 0;
      if (!k->type) {
        c.type = t == 0 ? "max" : "avg";
        if (t > 0) {
          c.exclusive_set = true;
          c.exclusive = t == 1;
        }
      } else if (t > 0) {
        continue;
      }
      pool_check(&c, (uint64_t)(v * 3 + t + 1) * 977 + (uint64_t)k->h);
    }
  }
}

START_TEST(pool_windows) {
  pool_all(&(pool_case){.n = 2, .c = 3, .h = 7, .w = 9, .kh = 2, .kw = 2, .sh = 2, .sw = 2});
  pool_all(&(pool_case){.n = 1, .c = 17, .h = 8, .w = 8, .kh = 3, .kw = 3, .sh = 2, .sw = 2,
                        .npads = 2, .pads = {1, 1}});
  pool_all(&(pool_case){.n = 3, .c = 5, .h = 6, .w = 5, .kh = 3, .kw = 2, .npads = 2,
                        .pads = {0, 1}});
  pool_all(&(pool_case){.n = 1, .c = 2, .h = 4, .w = 4, .kh = 2, .kw = 2, .npads = 2,
                        .pads = {1, 1}});
  pool_all(&(pool_case){.n = 2, .c = 3, .h = 1, .w = 1, .kh = 1, .kw = 1});
  pool_all(&(pool_case){.n = 2, .c = 3, .h = 1, .w = 1, .kh = 3, .kw = 3, .npads = 2,
                        .pads = {1, 1}});
  pool_all(&(pool_case){.n = 1, .c = 2, .h = 2, .w = 2, .kh = 3, .kw = 3, .sh = 2, .sw = 2});
  pool_all(&(pool_case){.n = 8, .c = 64, .h = 56, .w = 56, .kh = 3, .kw = 3, .sh = 2, .sw = 2,
                        .npads = 2, .pads = {1, 1}});
}
END_TEST

START_TEST(pool_paddings_and_ceil) {
  pool_all(&(pool_case){.n = 1, .c = 3, .h = 5, .w = 5, .kh = 3, .kw = 3, .sh = 2, .sw = 2,
                        .npads = 4, .pads = {0, 2, 0, 2}});
  pool_all(&(pool_case){.n = 2, .c = 4, .h = 7, .w = 6, .kh = 3, .kw = 2, .sh = 2, .sw = 1,
                        .npads = 4, .pads = {2, 0, 1, 0}});
  pool_all(&(pool_case){.n = 1, .c = 9, .h = 6, .w = 7, .kh = 2, .kw = 3, .sh = 1, .sw = 2,
                        .npads = 4, .pads = {1, 1, 0, 1}});
  pool_all(&(pool_case){.n = 1, .c = 3, .h = 6, .w = 5, .kh = 2, .kw = 2, .algo = "SAME",
                        .ceil_mode = true, .npads = 2});
  pool_all(&(pool_case){.n = 2, .c = 3, .h = 7, .w = 8, .kh = 3, .kw = 3, .sh = 2, .sw = 2,
                        .algo = "SAME", .npads = 2, .pads = {4, 4}});
  pool_all(&(pool_case){.n = 1, .c = 5, .h = 7, .w = 7, .kh = 3, .kw = 3, .sh = 2, .sw = 2,
                        .algo = "VALID", .npads = 2, .pads = {1, 1}});
  /* empty border windows: -FLT_MAX and 0 / 0 */
  pool_all(&(pool_case){.n = 1, .c = 2, .h = 3, .w = 3, .kh = 2, .kw = 2, .sh = 2, .sw = 2,
                        .npads = 2, .pads = {2, 2}});
  pool_all(&(pool_case){.n = 1, .c = 3, .h = 5, .w = 5, .kh = 2, .kw = 2, .sh = 2, .sw = 2,
                        .ceil_mode = true});
  pool_all(&(pool_case){.n = 2, .c = 17, .h = 7, .w = 8, .kh = 3, .kw = 3, .sh = 2, .sw = 2,
                        .ceil_mode = true, .npads = 2, .pads = {1, 0}});
  pool_all(&(pool_case){.n = 1, .c = 2, .h = 6, .w = 6, .kh = 2, .kw = 2, .sh = 2, .sw = 2,
                        .ceil_mode = true});
  pool_all(&(pool_case){.n = 1, .c = 2, .h = 4, .w = 4, .kh = 1, .kw = 1, .sh = 2, .sw = 2,
                        .ceil_mode = true, .npads = 2, .pads = {1, 1}});
}
END_TEST

START_TEST(pool_global_and_adaptive) {
  pool_all(&(pool_case){.n = 2, .c = 20, .h = 7, .w = 7, .kh = 1, .kw = 1, .global = true});
  pool_all(&(pool_case){.n = 1, .c = 3, .h = 5, .w = 9, .kh = 3, .kw = 3, .sh = 2, .sw = 2,
                        .global = true, .npads = 2, .pads = {1, 1}});
  pool_all(&(pool_case){.type = "avg", .n = 2, .c = 21, .h = 7, .w = 7, .kh = 1, .kw = 1,
                        .adaptive = true, .npads = 2});
  pool_all(&(pool_case){.type = "avg", .n = 1, .c = 3, .h = 5, .w = 7, .kh = 2, .kw = 3,
                        .adaptive = true});
  pool_all(&(pool_case){.type = "avg", .n = 1, .c = 2, .h = 3, .w = 2, .kh = 5, .kw = 4,
                        .adaptive = true, .exclusive_set = true, .exclusive = false});
  pool_all(&(pool_case){.type = "avg", .n = 1, .c = 2, .h = 3, .w = 4, .kh = 1, .kw = 1,
                        .adaptive = true, .global = true});
  pool_all(&(pool_case){.type = "max", .n = 1, .c = 3, .h = 6, .w = 5, .kh = 3, .kw = 2,
                        .adaptive = true});
  /* an empty input with a non-empty output: NaN */
  pool_all(&(pool_case){.n = 1, .c = 2, .h = 0, .w = 3, .kh = 1, .kw = 1, .npads = 2,
                        .pads = {1, 0}});
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

static TCase *tc_conv(void) {
  TCase *tc = tcase_create("conv");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, conv_pointwise);
  tcase_add_test(tc, conv_spatial);
  tcase_add_test(tc, conv_groups);
  tcase_add_test(tc, conv_paddings);
  tcase_add_test(tc, conv_small_images);
  tcase_add_test(tc, conv_activations);
  tcase_add_test(tc, conv_residual_and_models);
  tcase_add_test(tc, conv_bad_inputs);
  return tc;
}

static TCase *tc_pool(void) {
  TCase *tc = tcase_create("pool2d");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, pool_windows);
  tcase_add_test(tc, pool_paddings_and_ceil);
  tcase_add_test(tc, pool_global_and_adaptive);
  tcase_add_test(tc, pool_bad_inputs);
  return tc;
}

CH_MAIN("cuda_conv", tc_conv, tc_pool)
