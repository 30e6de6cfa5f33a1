/* The 2-D convolution family (conv2d, depthwise_conv2d: one implementation in conv.c, the
 * oneDNN path in conv_dnnl.c, the reference path in conv_ref.c) and the window geometry it
 * shares with pool2d.
 *
 * Paddle's semantics (paddle/phi/infermeta/binary.cc ConvInferMeta, paddle/phi/kernels/
 * cpu/conv_util.h UpdatePaddingAndDilation, paddle/phi/kernels/onednn/conv_handler.h):
 *   Output = act(conv(Input, Filter) + Bias[c] + ResidualData)
 * with Filter always [C_out, C_in / groups, KH, KW] whatever the data_format, Bias and
 * ResidualData optional (ResidualData only when fuse_residual_connection), and act the
 * oneDNN post-op Paddle's oneDNN kernel appends for fuse_activation, with fuse_alpha /
 * fuse_beta as that kernel passes them (see ic_conv_act). */
#ifndef IC_KERNELS_CPU_CONV_H
#define IC_KERNELS_CPU_CONV_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* padding_algorithm */
typedef enum ic_pad_algo { IC_PAD_EXPLICIT = 0, IC_PAD_SAME = 1, IC_PAD_VALID = 2 } ic_pad_algo;

/* fuse_activation, as Paddle's oneDNN conv kernel maps it onto oneDNN eltwise algorithms
 * (paddle/phi/backends/onednn/onednn_reuse.h OneDNNActivationMap; alpha = fuse_alpha,
 * beta = fuse_beta; oneDNN 3 formulas, which are Paddle 3's):
 *   relu, leaky_relu  s > 0 ? s : alpha * s
 *   relu6, clip       s > beta ? beta : s > alpha ? s : alpha   (Paddle's fuse pass puts
 *                     relu6's threshold in fuse_beta, so relu6 is alpha = 0, beta = 6)
 *   hard_swish        s * max(0, min(1, alpha * s + beta))      (the pass sets 1/6, 1/2)
 *   hard_sigmoid      max(0, min(1, alpha * s + beta))          (slope, offset)
 *   swish             s * sigmoid(alpha * s)
 *   sigmoid, tanh, abs, sqrt, mish, gelu / gelu_erf, gelu_tanh: alpha, beta unused */
typedef enum ic_conv_act {
  IC_ACT_NONE = 0,
  IC_ACT_RELU,
  IC_ACT_CLIP,
  IC_ACT_HARD_SWISH,
  IC_ACT_HARD_SIGMOID,
  IC_ACT_SWISH,
  IC_ACT_SIGMOID,
  IC_ACT_TANH,
  IC_ACT_ABS,
  IC_ACT_SQRT,
  IC_ACT_MISH,
  IC_ACT_GELU_ERF,
  IC_ACT_GELU_TANH
} ic_conv_act;

typedef struct ic_conv_attrs {
  int64_t strides[2];    /* h, w */
  int64_t dilations[2];  /* h, w; 1 = none */
  int64_t paddings[4];   /* top, bottom, left, right as written (2 values expanded) */
  int64_t groups;
  ic_pad_algo pad_algo;
  bool nhwc;             /* data_format "NHWC"; "NCHW" and "AnyLayout" are NCHW */
  ic_conv_act act;
  float alpha, beta;     /* fuse_alpha, fuse_beta (float attributes in Paddle) */
  bool residual;         /* fuse_residual_connection: Output += ResidualData before act */
  bool blocked_out;      /* ic_blocked_out (set by icore's layout pass, never by Paddle): the
                            CPU kernel may write Output in oneDNN's blocked layout */
  bool blocked_pad;      /* ic_blocked_pad (the layout pass, with ic_blocked_out): every reader
                            takes IC_LAYOUT_NCHW16C_PAD, so Output may be nChw16c with its
                            channels padded to 16 */
  /* A 3 x 3 depthwise convolution fused after this 1 x 1 one (icore's own attributes, set by
   * fuse.c on CPU plans, never by Paddle): ic_dw_stride (1 or 2; 0 = none), padding 1, with
   * the filter ic_DwFilter [C_out, 1, 3, 3], the optional bias ic_DwBias [C_out] and its own
   * activation ic_dw_activation / ic_dw_alpha / ic_dw_beta (fuse_activation's names). Output
   * is then the depthwise convolution's: dwact(dwconv(act(conv(Input) + Bias)) + DwBias). */
  int64_t dw_stride;
  ic_conv_act dw_act;
  float dw_alpha, dw_beta;
  bool winograd;         /* ic_winograd (icore's, set on CPU plans with options.winograd,
                            never by Paddle): the CPU kernel may run this convolution by
                            Winograd's algorithm (conv_dnnl.c, wino_eligible) */
} ic_conv_attrs;

/* Input slots, in the order of ic_conv_inputs. ic_AffineScale and ic_AffineBias are icore's
 * own (fuse.c adds them on CPU plans, never Paddle): one-element float tensors, the scalar
 * elementwise_mul and elementwise_add that follow the activation (PP-HGNetV2's
 * LearnableAffineBlock), Output = act(...) * scale + bias; either may be absent (1, 0).
 * ic_PreAffineScale and ic_PreAffineBias (also icore's, also one element) are the same
 * before the activation (PP-LCNetV3's affine between the convolution and its hard_swish):
 * Output = act((conv + Bias + ResidualData) * pre_scale + pre_bias) * scale + bias. */
enum {
  IC_CONV_INPUT = 0,
  IC_CONV_FILTER = 1,
  IC_CONV_BIAS = 2,
  IC_CONV_RESIDUAL = 3,
  IC_CONV_AFF_SCALE = 4,
  IC_CONV_AFF_BIAS = 5,
  IC_CONV_PRE_SCALE = 6,
  IC_CONV_PRE_BIAS = 7,
  IC_CONV_DW_FILTER = 8, /* ic_DwFilter, ic_DwBias: see ic_conv_attrs.dw_stride */
  IC_CONV_DW_BIAS = 9,
  IC_CONV_IN_SCALE = 10  /* ic_InScale: see below */
};
/* ic_InScale (icore's, fuse.c on CPU plans, never Paddle): a float32 [N or 1, C_in, 1, 1]
 * scale of the Input's channels, per image (a squeeze-and-excitation scale, elementwise_mul
 * (x, s) -> Input): Output = conv(Input * s, Filter) + ..., computed as a convolution of the
 * unscaled Input with the Filter scaled per input channel (groups 1, NCHW only). */
#define IC_CONV_N_INPUTS 11
#define IC_CONV_N_OUTPUTS 1
extern const ic_slotdef ic_conv_inputs[IC_CONV_N_INPUTS];
extern const ic_slotdef ic_conv_outputs[IC_CONV_N_OUTPUTS];

ic_status ic_conv_parse(ic_attr_reader *r, void *attrs);
ic_status ic_conv_infer(ic_kctx *c);
ic_status ic_conv_cpu(ic_kctx *c);
void ic_conv_free_state(void *state);
/* Whether the CPU kernel state (ctx->state) runs its convolution by Winograd's algorithm
 * (ic_winograd, where eligible and oneDNN has it): for tests. */
bool ic_conv_state_winograd(const void *state);
/* Whether it runs a batch of 1 x 1 images as one image of N pixels (conv_dnnl.c
 * images_as_pixels): for tests. */
bool ic_conv_state_images_as_pixels(const void *state);
/* Whether it runs one 1 x 1 image as a GEMV (conv_dnnl.c pixel_gemv): for tests. */
bool ic_conv_state_gemv(const void *state);

/* The convolution's geometry after padding_algorithm, from the op's inputs and attributes;
 * shared by the CPU and CUDA kernels. */
typedef struct ic_conv_geom {
  int64_t n, c, h, w;      /* input, as logical NCHW */
  int64_t oc, kh, kw;      /* filter */
  int64_t oh, ow;          /* output spatial size */
  int64_t sh, sw, dh, dw;  /* strides, dilations (1 = none) after padding_algorithm */
  int64_t pt, pb, pl, pr;  /* paddings after padding_algorithm */
  int64_t g;               /* groups */
} ic_conv_geom;

/* Read fuse_activation-style attribute `name` into *out (conv.c), failing the reader on a
 * name Paddle's oneDNN convolution does not know. */
void ic_conv_read_act(ic_attr_reader *r, const char *name, ic_conv_act *out);

/* Check Input and Filter (IC_ERR_SHAPE naming them) and compute the geometry. */
ic_status ic_conv_geometry(ic_kctx *c, ic_conv_geom *g);

/* Activation s -> act(s) in double, exactly the formulas above (reference and fallback; the
 * CUDA kernels apply it on the device). */
static inline IC_HD double ic_conv_act_apply(ic_conv_act act, double alpha, double beta,
                                             double s) {
  switch (act) {
    case IC_ACT_NONE: return s;
    case IC_ACT_RELU: return s > 0 ? s : alpha * s;
    case IC_ACT_CLIP: return s > beta ? beta : s > alpha ? s : alpha;
    case IC_ACT_HARD_SWISH: return s * fmax(0.0, fmin(1.0, alpha * s + beta));
    case IC_ACT_HARD_SIGMOID: return fmax(0.0, fmin(1.0, alpha * s + beta));
    case IC_ACT_SWISH: return s / (1.0 + exp(-alpha * s));
    case IC_ACT_SIGMOID: return 1.0 / (1.0 + exp(-s));
    case IC_ACT_TANH: return tanh(s);
    case IC_ACT_ABS: return fabs(s);
    case IC_ACT_SQRT: return sqrt(s);
    case IC_ACT_MISH: return s * tanh(log1p(exp(s)));
    case IC_ACT_GELU_ERF: return 0.5 * s * (1.0 + erf(s / sqrt(2.0)));
    case IC_ACT_GELU_TANH: {
      const double k = sqrt(2.0 / 3.14159265358979323846);
      return 0.5 * s * (1.0 + tanh(k * (s + 0.044715 * s * s * s)));
    }
  }
  return s;
}

/* ---- window geometry shared with pool2d ---- */

/* Read `paddings` (2 values [h, w] or 4 values [top, bottom, left, right]) into out[4]. */
bool ic_read_paddings(ic_attr_reader *r, int64_t out[4]);
/* conv3d and pool3d: read `paddings` (3 values [d, h, w] or 6 values [front, back, top,
 * bottom, left, right]) into out[6], each >= 0; out is untouched when the attribute is absent. */
void ic_read_paddings3(ic_attr_reader *r, int64_t out[6]);
/* Read "EXPLICIT" / "SAME" / "VALID". */
ic_pad_algo ic_read_pad_algo(ic_attr_reader *r);
/* Read data_format: true for "NHWC", false for "NCHW" / "AnyLayout". */
bool ic_read_nhwc(ic_attr_reader *r);

/* Paddle's "SAME" padding of one spatial dimension: output ceil(in / stride), the padding
 * total split with the extra element at the end (funcs::UpdatePadding). */
static inline void ic_same_pads(int64_t in, int64_t stride, int64_t k, int64_t *p0,
                                int64_t *p1) {
  int64_t out = (in + stride - 1) / stride;
  int64_t sum = (out - 1) * stride + k - in;
  if (sum < 0) sum = 0;
  *p0 = sum / 2;
  *p1 = sum - *p0;
}

/* The 2-D paddings [top, bottom, left, right] after padding_algorithm for an h x w input with
 * strides sh, sw and window kh x kw: SAME recomputes them (ic_same_pads), VALID zeroes them,
 * EXPLICIT keeps `given`. Returns true for SAME, where the convolutions drop the dilation. */
static inline bool ic_apply_pad_algo(ic_pad_algo algo, const int64_t given[4], int64_t h,
                                     int64_t w, int64_t sh, int64_t sw, int64_t kh, int64_t kw,
                                     int64_t out[4]) {
  for (int i = 0; i < 4; i++) out[i] = algo == IC_PAD_VALID ? 0 : given[i];
  if (algo != IC_PAD_SAME) return false;
  ic_same_pads(h, sh, kh, &out[0], &out[1]);
  ic_same_pads(w, sw, kw, &out[2], &out[3]);
  return true;
}

#ifdef __cplusplus
}
#endif

#endif
