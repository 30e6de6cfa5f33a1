/* The case tables of the convolutions (conv2d, depthwise_conv2d) and pool2d. Header-only so
 * that every backend's suite runs the same cases: tests/test_ops_conv.c and
 * tests/test_ops_pool.c on the CPU executors against plain-loop references in double
 * precision, tests/test_cuda_conv.c on the CUDA kernels (cuDNN and the fallbacks) against
 * the CPU kernels. Each row runs in both layouts (NCHW, NHWC) and both float types
 * (cc_variant / cp_variant); pool rows without a type run as max and as avg with exclusive
 * true and false. */
#ifndef IC_TESTS_CASES_CONV_H
#define IC_TESTS_CASES_CONV_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "icore/icore.h"

/* ---- conv2d, depthwise_conv2d ---- */

typedef struct cc_case {
  const char *op;       /* NULL: conv2d */
  int n, c, h, w;       /* input, logical NCHW */
  int oc, kh, kw;
  int groups;           /* 0: attribute omitted (1) */
  int sh, sw;           /* 0: strides omitted ([1, 1]) */
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
  bool mark;            /* CPU only: ic_blocked_out, the kernel may write a blocked Output */
  bool pad;             /* CPU only, with mark: ic_blocked_pad (nChw16c with padded channels) */
  bool wino;            /* CPU only: ic_winograd, Winograd's algorithm where eligible */
} cc_case;

static const cc_case cc_cases[] = {
    /* pointwise: C_in 5 -> 3 on an odd image; MobileNet's 32 -> 16, batch 3; stride 2; padding
     * (zero border rows) */
    {.n = 1, .c = 5, .h = 7, .w = 9, .oc = 3, .kh = 1, .kw = 1},
    {.n = 3, .c = 32, .h = 10, .w = 10, .oc = 16, .kh = 1, .kw = 1, .npads = 2, .bias = 1},
    {.n = 2, .c = 17, .h = 9, .w = 6, .oc = 5, .kh = 1, .kw = 1, .sh = 2, .sw = 2},
    {.n = 1, .c = 3, .h = 4, .w = 5, .oc = 8, .kh = 1, .kw = 1, .npads = 2, .pads = {1, 2}},
    /* spatial: 3x3 stride 1 padding 1 with channel counts not multiples of 8; stride 2 on odd
     * sizes; MobileNet's stem; per-axis strides and a non-square kernel; dilations */
    {.n = 3, .c = 3, .h = 8, .w = 8, .oc = 17, .kh = 3, .kw = 3, .sh = 1, .sw = 1, .npads = 2,
     .pads = {1, 1}, .bias = 1},
    {.n = 1, .c = 17, .h = 11, .w = 9, .oc = 5, .kh = 3, .kw = 3, .sh = 2, .sw = 2, .npads = 2,
     .pads = {1, 1}},
    {.n = 1, .c = 3, .h = 16, .w = 16, .oc = 32, .kh = 3, .kw = 3, .sh = 2, .sw = 2, .npads = 2,
     .pads = {1, 1}, .bias = 4},
    {.n = 2, .c = 4, .h = 9, .w = 12, .oc = 6, .kh = 2, .kw = 5, .sh = 2, .sw = 1, .npads = 2,
     .pads = {0, 2}},
    {.n = 1, .c = 4, .h = 9, .w = 10, .oc = 3, .kh = 3, .kw = 3, .dh = 2, .dw = 2, .npads = 2,
     .pads = {2, 2}},
    {.n = 2, .c = 5, .h = 11, .w = 7, .oc = 4, .kh = 3, .kw = 2, .dh = 3, .dw = 1, .sh = 2,
     .sw = 1, .npads = 2, .pads = {1, 0}},
    /* a bigger layer: 64 -> 64 channels, 3x3, batch 4 */
    {.n = 4, .c = 64, .h = 28, .w = 28, .oc = 64, .kh = 3, .kw = 3, .npads = 2, .pads = {1, 1},
     .bias = 1, .act = "relu"},
    /* groups: two groups; depthwise 3x3 stride 1 and 2 (MobileNet's 96 channels); 5x5
     * (PP-HGNet); a channel multiplier; depthwise through conv2d */
    {.n = 2, .c = 6, .h = 7, .w = 7, .oc = 4, .kh = 3, .kw = 3, .groups = 2, .npads = 2,
     .pads = {1, 1}, .bias = 1},
    {.op = "depthwise_conv2d", .n = 1, .c = 5, .h = 9, .w = 8, .oc = 5, .kh = 3, .kw = 3,
     .groups = 5, .npads = 2, .pads = {1, 1}},
    {.op = "depthwise_conv2d", .n = 3, .c = 96, .h = 13, .w = 13, .oc = 96, .kh = 3, .kw = 3,
     .groups = 96, .sh = 2, .sw = 2, .npads = 2, .pads = {1, 1}, .bias = 1, .act = "relu6",
     .beta = 6},
    {.op = "depthwise_conv2d", .n = 1, .c = 17, .h = 6, .w = 7, .oc = 17, .kh = 5, .kw = 5,
     .groups = 17, .npads = 2, .pads = {2, 2}},
    {.op = "depthwise_conv2d", .n = 1, .c = 3, .h = 5, .w = 6, .oc = 6, .kh = 3, .kw = 3,
     .groups = 3, .npads = 2, .pads = {1, 1}},
    {.n = 2, .c = 8, .h = 5, .w = 5, .oc = 8, .kh = 3, .kw = 3, .groups = 8, .sh = 2, .sw = 1,
     .npads = 2, .pads = {1, 1}},
    /* paddings: asymmetric 4-value [top, bottom, left, right]; SAME (output ceil(in /
     * stride), dilation dropped, the given paddings ignored); VALID; EXPLICIT */
    {.n = 1, .c = 3, .h = 7, .w = 6, .oc = 4, .kh = 3, .kw = 3, .npads = 4, .pads = {1, 2, 0, 3},
     .bias = 1},
    {.n = 2, .c = 5, .h = 8, .w = 9, .oc = 3, .kh = 3, .kw = 3, .sh = 2, .sw = 2, .npads = 4,
     .pads = {0, 1, 2, 0}},
    {.n = 1, .c = 4, .h = 7, .w = 8, .oc = 5, .kh = 3, .kw = 3, .sh = 2, .sw = 2, .algo = "SAME",
     .npads = 2, .pads = {5, 5}},
    {.n = 1, .c = 3, .h = 5, .w = 5, .oc = 2, .kh = 3, .kw = 3, .dh = 2, .dw = 2, .algo = "SAME",
     .npads = 2},
    {.n = 1, .c = 3, .h = 6, .w = 5, .oc = 2, .kh = 2, .kw = 4, .algo = "SAME", .npads = 4},
    {.n = 2, .c = 3, .h = 8, .w = 7, .oc = 4, .kh = 3, .kw = 3, .sh = 2, .sw = 2, .algo = "VALID",
     .npads = 2, .pads = {1, 1}},
    {.n = 1, .c = 2, .h = 5, .w = 5, .oc = 2, .kh = 3, .kw = 3, .algo = "EXPLICIT", .npads = 2,
     .pads = {1, 1}},
    /* small images: 1x1 images (a 3x3 kernel sees only its centre); a kernel larger than the
     * input; a kernel overhanging the input by less than a stride (Paddle's truncating
     * division still gives one output); padding wider than the kernel (bias alone) */
    {.n = 3, .c = 5, .h = 1, .w = 1, .oc = 7, .kh = 3, .kw = 3, .npads = 2, .pads = {1, 1},
     .bias = 1},
    {.n = 1, .c = 1, .h = 1, .w = 1, .oc = 1, .kh = 1, .kw = 1},
    {.n = 1, .c = 3, .h = 2, .w = 2, .oc = 4, .kh = 5, .kw = 5, .npads = 2, .pads = {2, 2}},
    {.n = 2, .c = 2, .h = 3, .w = 2, .oc = 3, .kh = 4, .kw = 3, .sh = 2, .sw = 1, .npads = 2,
     .pads = {1, 1}},
    {.n = 1, .c = 2, .h = 3, .w = 3, .oc = 2, .kh = 4, .kw = 4, .sh = 2, .sw = 2},
    {.n = 1, .c = 3, .h = 3, .w = 4, .oc = 2, .kh = 2, .kw = 2, .npads = 2, .pads = {3, 2},
     .bias = 1},
    /* residual: without activation, with bias; with relu; depthwise with hard_swish */
    {.n = 3, .c = 16, .h = 5, .w = 7, .oc = 24, .kh = 1, .kw = 1, .bias = 1, .residual = true},
    {.n = 1, .c = 5, .h = 6, .w = 6, .oc = 3, .kh = 3, .kw = 3, .npads = 2, .pads = {1, 1},
     .residual = true, .act = "relu"},
    {.op = "depthwise_conv2d", .n = 2, .c = 17, .h = 5, .w = 4, .oc = 17, .kh = 3, .kw = 3,
     .groups = 17, .npads = 2, .pads = {1, 1}, .bias = 4, .residual = true, .act = "hard_swish",
     .alpha = 1.0f / 6.0f, .beta = 0.5f},
    /* the three MobileNetV2 layers the benchmark times, reduced, with the fused batch-norm
     * bias and relu6 */
    {.n = 2, .c = 32, .h = 12, .w = 12, .oc = 16, .kh = 1, .kw = 1, .npads = 2, .bias = 1},
    {.op = "depthwise_conv2d", .n = 1, .c = 96, .h = 12, .w = 12, .oc = 96, .kh = 3, .kw = 3,
     .groups = 96, .sh = 2, .sw = 2, .npads = 2, .pads = {1, 1}, .bias = 1, .act = "relu6",
     .beta = 6},
    {.n = 1, .c = 320, .h = 3, .w = 3, .oc = 1280, .kh = 1, .kw = 1, .bias = 1, .act = "relu6",
     .beta = 6},
};
#define CC_N_CASES (sizeof cc_cases / sizeof cc_cases[0])

/* Every fused activation with its fuse_alpha / fuse_beta, run on cc_act_case with and
 * without bias and residual (outputs of magnitude up to ~6 so every branch is reached). */
static const struct {
  const char *act;
  float alpha, beta;
} cc_acts[] = {
    {"", 0, 0},           {"relu", 0, 0},         {"leaky_relu", 0.1f, 0},
    {"relu6", 0, 6},      {"relu6", 0, 0.25f},    {"clip", -0.3f, 0.4f},
    {"hard_swish", 1.0f / 6.0f, 0.5f},            {"hard_swish", 0.4f, 0.3f},
    {"hard_sigmoid", 0.2f, 0.5f},                 {"hard_sigmoid", 1.0f / 6.0f, 0.5f},
    {"swish", 1.0f, 0},   {"swish", 1.7f, 0},     {"sigmoid", 0, 0},
    {"tanh", 0, 0},       {"abs", 0, 0},          {"sqrt", 0, 0},
    {"mish", 0, 0},       {"gelu", 0, 0},         {"gelu_erf", 0, 0},
    {"gelu_tanh", 0, 0},
};
#define CC_N_ACTS (sizeof cc_acts / sizeof cc_acts[0])

/* Activation row a (of cc_acts) with bias 0 or 1 and residual or not. */
static inline cc_case cc_act_case(size_t a, int bias, bool residual) {
  cc_case k = {.n = 2, .c = 9, .h = 6, .w = 5, .oc = 11, .kh = 3, .kw = 3, .npads = 2,
               .pads = {1, 1}, .bias = bias, .residual = residual, .act = cc_acts[a].act,
               .alpha = cc_acts[a].alpha, .beta = cc_acts[a].beta};
  return k;
}

/* Variant v (0..3) of a row: NHWC when v & 1, float64 when v & 2; and its input seed. */
static inline cc_case cc_variant(const cc_case *k, int v, uint64_t *seed) {
  cc_case c = *k;
  c.nhwc = (v & 1) != 0;
  c.f64 = (v & 2) != 0;
  *seed = (uint64_t)(v + 1) * 1000 + (uint64_t)k->c * 7 + (uint64_t)k->kh;
  return c;
}

/* ---- pool2d ---- */

typedef struct cp_case {
  const char *type;     /* "max" or "avg"; NULL: every kind */
  int n, c, h, w;       /* input, logical NCHW */
  int kh, kw;
  int sh, sw;           /* 0: strides omitted ([1, 1]) */
  int npads;            /* 0 (omitted), 2 or 4 */
  int pads[4];
  bool exclusive_set, exclusive;  /* exclusive_set false: attribute omitted (true) */
  bool ceil_mode, global, adaptive;
  const char *algo;
  bool nhwc, f64;
} cp_case;

static const cp_case cp_cases[] = {
    /* windows: 2x2 stride 2 on odd sizes (the last row/column dropped); 3x3 stride 2 padding 1
     * (ResNet's max pool), 17 channels; stride 1 with a non-square window and padding on one
     * axis; strides and exclusive omitted; a 1x1 image and window; a window larger than the
     * input (Paddle's truncating division gives one output); a large layer */
    {.n = 2, .c = 3, .h = 7, .w = 9, .kh = 2, .kw = 2, .sh = 2, .sw = 2},
    {.n = 1, .c = 17, .h = 8, .w = 8, .kh = 3, .kw = 3, .sh = 2, .sw = 2, .npads = 2,
     .pads = {1, 1}},
    {.n = 3, .c = 5, .h = 6, .w = 5, .kh = 3, .kw = 2, .npads = 2, .pads = {0, 1}},
    {.n = 1, .c = 2, .h = 4, .w = 4, .kh = 2, .kw = 2, .npads = 2, .pads = {1, 1}},
    {.type = "avg", .n = 1, .c = 2, .h = 4, .w = 4, .kh = 3, .kw = 3, .npads = 2, .pads = {1, 1}},
    {.n = 2, .c = 3, .h = 1, .w = 1, .kh = 1, .kw = 1},
    {.n = 2, .c = 3, .h = 1, .w = 1, .kh = 3, .kw = 3, .npads = 2, .pads = {1, 1}},
    {.n = 1, .c = 2, .h = 2, .w = 2, .kh = 3, .kw = 3, .sh = 2, .sw = 2},
    {.n = 8, .c = 64, .h = 56, .w = 56, .kh = 3, .kw = 3, .sh = 2, .sw = 2, .npads = 2,
     .pads = {1, 1}},
    /* paddings: asymmetric 4-value (the bottom/right paddings size the output, windows are
     * bounded by H + top and W + left); SAME (PP-HGNet's 2x2 stride 1 max pool with ceil_mode)
     * and VALID; padding as large as the window (empty border windows: -FLT_MAX, 0 / 0) */
    {.n = 1, .c = 3, .h = 5, .w = 5, .kh = 3, .kw = 3, .sh = 2, .sw = 2, .npads = 4,
     .pads = {0, 2, 0, 2}},
    {.n = 2, .c = 4, .h = 7, .w = 6, .kh = 3, .kw = 2, .sh = 2, .sw = 1, .npads = 4,
     .pads = {2, 0, 1, 0}},
    {.n = 1, .c = 9, .h = 6, .w = 7, .kh = 2, .kw = 3, .sh = 1, .sw = 2, .npads = 4,
     .pads = {1, 1, 0, 1}},
    {.n = 1, .c = 3, .h = 6, .w = 5, .kh = 2, .kw = 2, .algo = "SAME", .ceil_mode = true,
     .npads = 2},
    {.n = 2, .c = 3, .h = 7, .w = 8, .kh = 3, .kw = 3, .sh = 2, .sw = 2, .algo = "SAME",
     .npads = 2, .pads = {4, 4}},
    {.n = 1, .c = 5, .h = 7, .w = 7, .kh = 3, .kw = 3, .sh = 2, .sw = 2, .algo = "VALID",
     .npads = 2, .pads = {1, 1}},
    {.n = 1, .c = 2, .h = 3, .w = 3, .kh = 2, .kw = 2, .sh = 2, .sw = 2, .npads = 2,
     .pads = {2, 2}},
    /* ceil mode: where it adds a window, where it changes nothing, and a window that starts
     * past the input (empty) */
    {.n = 1, .c = 3, .h = 5, .w = 5, .kh = 2, .kw = 2, .sh = 2, .sw = 2, .ceil_mode = true},
    {.n = 2, .c = 17, .h = 7, .w = 8, .kh = 3, .kw = 3, .sh = 2, .sw = 2, .ceil_mode = true,
     .npads = 2, .pads = {1, 0}},
    {.n = 1, .c = 2, .h = 6, .w = 6, .kh = 2, .kw = 2, .sh = 2, .sw = 2, .ceil_mode = true},
    {.n = 1, .c = 2, .h = 4, .w = 4, .kh = 1, .kw = 1, .sh = 2, .sw = 2, .ceil_mode = true,
     .npads = 2, .pads = {1, 1}},
    /* global pooling (ksize ignored, window = H x W; older Paddle writes ksize [-1, -1]);
     * adaptive avg (output = ksize: 1x1, 2x3, larger than the input); global and adaptive
     * together; adaptive max (Paddle's kernel uses ksize windows at the strides) */
    {.n = 2, .c = 20, .h = 7, .w = 7, .kh = 1, .kw = 1, .global = true},
    {.n = 1, .c = 3, .h = 5, .w = 9, .kh = 3, .kw = 3, .sh = 2, .sw = 2, .global = true,
     .npads = 2, .pads = {1, 1}},
    {.type = "avg", .n = 1, .c = 4, .h = 5, .w = 6, .kh = -1, .kw = -1, .global = true},
    {.type = "max", .n = 2, .c = 3, .h = 3, .w = 2, .kh = -1, .kw = -1, .global = true},
    {.type = "avg", .n = 2, .c = 21, .h = 7, .w = 7, .kh = 1, .kw = 1, .adaptive = true,
     .npads = 2},
    {.type = "avg", .n = 1, .c = 3, .h = 5, .w = 7, .kh = 2, .kw = 3, .adaptive = true},
    {.type = "avg", .n = 1, .c = 2, .h = 3, .w = 2, .kh = 5, .kw = 4, .adaptive = true,
     .exclusive_set = true, .exclusive = false},
    {.type = "avg", .n = 1, .c = 2, .h = 3, .w = 4, .kh = 1, .kw = 1, .adaptive = true,
     .global = true},
    {.type = "max", .n = 1, .c = 3, .h = 6, .w = 5, .kh = 3, .kw = 2, .adaptive = true},
    /* an empty input with a non-empty output */
    {.n = 1, .c = 2, .h = 0, .w = 3, .kh = 1, .kw = 1, .npads = 2, .pads = {1, 0}},
};
#define CP_N_CASES (sizeof cp_cases / sizeof cp_cases[0])

/* Variant (v, t) of a row, v in 0..3 (NHWC when v & 1, float64 when v & 2), t in 0..2 (a row
 * without a type: max, avg exclusive, avg not exclusive); false when the row has a type and
 * t > 0. Also the input seed. */
static inline bool cp_variant(const cp_case *k, int v, int t, cp_case *c, uint64_t *seed) {
  *c = *k;
  c->nhwc = (v & 1) != 0;
  c->f64 = (v & 2) != 0;
  if (!k->type) {
    c->type = t == 0 ? "max" : "avg";
    if (t > 0) {
      c->exclusive_set = true;
      c->exclusive = t == 1;
    }
  } else if (t > 0) {
    return false;
  }
  *seed = (uint64_t)(v * 3 + t + 1) * 977 + (uint64_t)k->h;
  return true;
}

/* ---- conv2d_transpose, depthwise_conv2d_transpose ---- */

typedef struct cct_case {
  const char *op;          /* NULL: conv2d_transpose */
  int64_t n, c, h, w;      /* input, logical NCHW */
  int64_t og, kh, kw;      /* Filter [c, og, kh, kw] */
  int groups;
  int sh, sw, dh, dw;      /* 0: 1 */
  int npads;
  int pads[4];
  int opad[2];             /* output_padding (written when has_opad) */
  bool has_opad;
  int osize[2];            /* output_size, 0: absent */
  const char *algo;
  bool nhwc, bias;
} cct_case;

static const cct_case cct_cases[] = {
    /* plain, strides and paddings */
    {NULL, 2, 4, 5, 4, 3, 3, 3, 1, 2, 2, .npads = 2, .pads = {1, 1}},
    /* four paddings, dilation, unequal strides */
    {NULL, 1, 3, 4, 5, 2, 3, 2, 1, 2, 3, 2, 1, .npads = 4, .pads = {0, 1, 2, 1}},
    /* groups with output_padding */
    {NULL, 2, 4, 3, 3, 2, 3, 2, 2, 2, 2, .has_opad = true, .opad = {1, 1}},
    /* output_size, inside [base, base + stride) */
    {NULL, 1, 4, 5, 4, 3, 3, 3, 1, 3, 2, .npads = 2, .pads = {1, 1}, .osize = {13, 8}},
    /* SAME resets the dilations; VALID ignores paddings */
    {NULL, 1, 2, 5, 4, 3, 3, 3, 1, 2, 2, 2, 2, .algo = "SAME"},
    {NULL, 1, 2, 5, 4, 3, 3, 3, 1, 2, 1, .npads = 2, .pads = {3, 3}, .algo = "VALID"},
    /* NHWC, Bias; NHWC with groups */
    {NULL, 1, 4, 3, 4, 3, 3, 3, 1, 2, 2, .npads = 2, .pads = {1, 0}, .nhwc = true, .bias = true},
    {NULL, 2, 3, 4, 4, 2, 2, 2, 1, 2, 2, .bias = true},
    {NULL, 2, 6, 3, 5, 2, 3, 3, 3, 2, 1, .npads = 2, .pads = {1, 1}, .nhwc = true, .bias = true},
    /* depthwise: groups = channels, one filter each; NHWC with output_padding */
    {"depthwise_conv2d_transpose", 1, 4, 5, 4, 1, 3, 3, 4, 2, 2, .npads = 2, .pads = {1, 1}},
    {"depthwise_conv2d_transpose", 2, 8, 6, 6, 1, 4, 4, 8, 2, 2, .npads = 2, .pads = {1, 1},
     .has_opad = true, .opad = {1, 0}, .nhwc = true, .bias = true},
    /* 1 x 1, stride 1: a per-pixel matrix product */
    {NULL, 2, 5, 3, 3, 4, 1, 1, 1, 1, 1, .algo = "EXPLICIT"},
    /* a decoder's 2x upsampling: 32 -> 16 channels, 4 x 4 kernel, stride 2, padding 1 */
    {NULL, 2, 32, 16, 16, 16, 4, 4, 1, 2, 2, .npads = 2, .pads = {1, 1}, .bias = true},
    /* Channels in whole blocks of 8 or 16 (the CPU kernel's oneDNN path): PP-OCRv4 DB's 2x2
     * stride-2 upsampling at 24 channels, and its 24 -> 1 head (the GEMM path) */
    {NULL, 1, 24, 10, 12, 24, 2, 2, 1, 2, 2, .bias = true},
    {NULL, 1, 24, 9, 7, 1, 2, 2, 1, 2, 2, .npads = 0},
    /* groups with four paddings; SAME; VALID */
    {NULL, 2, 32, 5, 6, 16, 3, 3, 2, 2, 2, .npads = 4, .pads = {1, 0, 2, 1}, .bias = true},
    {NULL, 1, 16, 5, 4, 16, 3, 3, 1, 2, 2, 2, 2, .algo = "SAME", .bias = true},
    {NULL, 1, 16, 5, 4, 16, 3, 3, 1, 2, 1, .npads = 2, .pads = {3, 3}, .algo = "VALID"},
    /* dilation (oneDNN 2.6's kernels: only at stride 1) with output_padding; extra rows
     * beyond the right padding (output_size) */
    {NULL, 1, 16, 5, 4, 16, 3, 3, 1, 1, 1, 2, 2, .npads = 2, .pads = {1, 1}, .has_opad = true,
     .opad = {1, 1}},
    {NULL, 1, 16, 4, 4, 16, 3, 3, 1, 3, 3, .npads = 2, .pads = {1, 0}, .osize = {12, 13}},
    /* output_padding beyond the stride (dilation 3, stride 1): oneDNN cannot, GEMM path */
    {NULL, 1, 8, 4, 4, 8, 3, 3, 1, 1, 1, 3, 3, .has_opad = true, .opad = {2, 2}},
    /* NHWC with groups, output_padding and Bias; depthwise NCHW with 16 channels */
    {NULL, 2, 16, 4, 5, 8, 3, 3, 2, 2, 1, .npads = 2, .pads = {1, 1}, .has_opad = true,
     .opad = {1, 0}, .nhwc = true, .bias = true},
    {"depthwise_conv2d_transpose", 2, 16, 5, 5, 1, 3, 3, 16, 2, 2, .npads = 2, .pads = {1, 1},
     .bias = true},
};
#define CCT_N_CASES (sizeof cct_cases / sizeof cct_cases[0])

/* The program of row k: feeds x, f (and b with Bias), fetches y. */
static inline ic_builder *cct_program(const cct_case *k, ic_dtype dt) {
  ic_builder *b = ic_builder_create();
  int64_t d[4] = {-1, -1, -1, -1};
  ic_builder_var(b, 0, "x", dt, 4, d, false);
  ic_builder_var(b, 0, "f", dt, 4, d, false);
  ic_builder_var(b, 0, "b", dt, 1, d, false);
  ic_builder_var(b, 0, "y", dt, 4, d, false);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "f");
  if (k->bias) ic_builder_feed(b, "b");
  ic_builder_op *op = ic_builder_add_op(b, 0, k->op ? k->op : "conv2d_transpose");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "Filter", "f");
  if (k->bias) ic_builder_in(op, "Bias", "b");
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){k->sh ? k->sh : 1, k->sw ? k->sw : 1});
  ic_builder_attr_ints(op, "dilations", 2, (const int32_t[]){k->dh ? k->dh : 1, k->dw ? k->dw : 1});
  if (k->npads) ic_builder_attr_ints(op, "paddings", (size_t)k->npads, k->pads);
  ic_builder_attr_int(op, "groups", k->groups);
  ic_builder_attr_ints(op, "output_padding", k->has_opad ? 2 : 0, k->opad);
  ic_builder_attr_ints(op, "output_size", k->osize[0] ? 2 : 0, k->osize);
  if (k->algo) ic_builder_attr_string(op, "padding_algorithm", k->algo);
  ic_builder_attr_string(op, "data_format", k->nhwc ? "NHWC" : "NCHW");
  ic_builder_out(op, "Output", "y");
  ic_builder_fetch(b, "y");
  return b;
}

#endif
