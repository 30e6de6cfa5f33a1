/* The resize family: nearest_interp, bilinear_interp, bicubic_interp, trilinear_interp (v1)
 * and nearest_interp_v2,
 * bilinear_interp_v2, linear_interp_v2, bicubic_interp_v2, trilinear_interp_v2: one
 * implementation (interp.c), one thin opdef file per op type. */
#ifndef IC_KERNELS_CPU_INTERP_H
#define IC_KERNELS_CPU_INTERP_H

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ic_interp_method {
  IC_INTERP_NEAREST,
  IC_INTERP_LINEAR,
  IC_INTERP_BILINEAR,
  IC_INTERP_TRILINEAR,
  IC_INTERP_BICUBIC
} ic_interp_method;

typedef struct ic_interp_attrs {
  bool v2;                 /* v2: `scale` is a list (v1: one float) */
  ic_interp_method method; /* interp_method (default: the op type's) */
  bool nhwc;               /* channel-last: every data_layout but "NCHW" (see interp.c) */
  bool align_corners;
  int align_mode;          /* 0 or 1 */
  int64_t out_size[3];     /* out_d, out_h, out_w attributes */
  float scale[3];          /* the scale attribute (v1: one value) */
  size_t n_scale;
  bool blocked_out;        /* ic_blocked_out (layout pass, nearest only): Out may keep X's
                              channel-blocked layout */
  bool blocked_pad;        /* ic_blocked_pad: that layout may be nChw16c with padded channels */
  bool size_ratio;         /* the ratio is in / out even when a scale set the size: the v1
                              ops that only Paddle 2.6's fluid kernel runs (bicubic_interp,
                              trilinear_interp) */
} ic_interp_attrs;

/* Slots, as Paddle names them. */
enum { IC_INTERP_X, IC_INTERP_OUTSIZE, IC_INTERP_SIZETENSOR, IC_INTERP_SCALE };
#define IC_INTERP_N_INPUTS 4
extern const ic_slotdef ic_interp_inputs[IC_INTERP_N_INPUTS];
/* The nearest ops' slots: X also takes a channel-blocked tensor (interp.c). */
extern const ic_slotdef ic_interp_nearest_inputs[IC_INTERP_N_INPUTS];
extern const ic_slotdef ic_interp_outputs[1];

/* The sizes and ratios of one run (interp.c documents the rules). */
typedef struct ic_interp_geom {
  int nd;              /* spatial dims: 1 to 3 */
  int64_t n, c;
  int64_t in[3], out[3];
  float scale[3];      /* -1: none */
  float ratio[3];
} ic_interp_geom;

/* Check X and the size inputs and compute the geometry (IC_ERR_SHAPE / INVALID_PROGRAM naming
 * the variable or attribute). */
ic_status ic_interp_geometry(ic_kctx *c, ic_interp_geom *g);

/* Per-axis source positions, shared by the CPU and CUDA kernels so both compute the same
 * bits. Linear family: neighbours lo, hi with weights w0 = 1 - d, w1 = d (float). */
static inline IC_HD void ic_interp_lin(float ratio, int64_t in, int64_t k, bool align_flag,
                                       int64_t *lo_out, int64_t *hi_out, float *w0,
                                       float *w1) {
  int64_t lo = align_flag ? (int64_t)(ratio * (k + 0.5) - 0.5) : (int64_t)(ratio * (float)k);
  if (lo < 0) lo = 0;
  if (lo > in - 1) lo = in - 1;
  const int64_t hi = lo + 1 < in - 1 ? lo + 1 : in - 1;
  float src = (float)(ratio * (k + 0.5) - 0.5);
  if (!(src > 0)) src = 0;
  const float d = align_flag ? src - (float)lo : ratio * (float)k - (float)lo;
  *lo_out = lo;
  *hi_out = hi;
  *w0 = 1.f - d;
  *w1 = d;
}

/* Nearest: the source index of output index k. */
static inline IC_HD int64_t ic_interp_nearest(float ratio, int64_t in, int64_t k, bool align) {
  const int64_t i = align ? (int64_t)(ratio * (float)k + 0.5) : (int64_t)(ratio * (float)k);
  return i < 0 ? 0 : i > in - 1 ? in - 1 : i;
}

/* Keys' cubic convolution (A = -0.75) of x0..x3 at t in [0, 1), in T, as Paddle computes it:
 * defines ic_interp_cubic_T. */
#define IC_INTERP_DEFINE_CUBIC(T)                                                           \
  static inline IC_HD T ic_interp_cubic_##T(T x0, T x1, T x2, T x3, T t) {                  \
    const T A = (T)-0.75;                                                                   \
    const T u = (T)(t + 1.0), v = (T)(1.0 - t), w = (T)(v + 1.0);                           \
    const T c0 = ((A * u - 5 * A) * u + 8 * A) * u - 4 * A;                                 \
    const T c1 = ((A + 2) * t - (A + 3)) * t * t + 1;                                       \
    const T c2 = ((A + 2) * v - (A + 3)) * v * v + 1;                                       \
    const T c3 = ((A * w - 5 * A) * w + 8 * A) * w - 4 * A;                                 \
    return x0 * c0 + x1 * c1 + x2 * c2 + x3 * c3;                                           \
  }

/* parse for an op type: v2 or not, and its default interp_method. */
ic_status ic_interp_parse(ic_attr_reader *r, ic_interp_attrs *a, bool v2,
                          ic_interp_method dflt);
ic_status ic_interp_infer(ic_kctx *c);
ic_status ic_interp_cpu(ic_kctx *c);

/* ---- gradients: the *_interp_v2_grad ops (nearest, linear, bilinear, trilinear, bicubic)
 * and the v1 nearest_interp_grad, bilinear_interp_grad ----
 * Inputs X (meta only), OutSize, SizeTensor, Scale (as the forward op, for the geometry),
 * Out@GRAD; output X@GRAD: every Out@GRAD element added back onto the X elements the forward
 * op read for it, with the forward's weights (nearest: its one source; bicubic: the products
 * of the row and column cubic coefficients on the clamped 4 x 4 neighbours), accumulated in
 * double and rounded once. */
#define IC_INTERP_GRAD_N_INPUTS 5
extern const ic_slotdef ic_interp_grad_inputs[IC_INTERP_GRAD_N_INPUTS];
extern const ic_slotdef ic_interp_grad_outputs[1];
ic_status ic_interp_grad_infer(ic_kctx *c);
ic_status ic_interp_grad_cpu(ic_kctx *c);

#define IC_INTERP_GRAD_DEF(NAME, PARSE)                                            \
  {                                                                                \
    .name = NAME, .n_inputs = IC_INTERP_GRAD_N_INPUTS,                             \
    .inputs = ic_interp_grad_inputs, .n_outputs = 1,                               \
    .outputs = ic_interp_grad_outputs,                                             \
    .attrs_size = sizeof(ic_interp_attrs), .parse = PARSE,                         \
    .infer = ic_interp_grad_infer, .cpu = ic_interp_grad_cpu,                      \
  }

#define IC_INTERP_DEF(NAME, PARSE) IC_INTERP_DEF_SLOTS(NAME, PARSE, ic_interp_inputs)
#define IC_INTERP_DEF_SLOTS(NAME, PARSE, INPUTS)                                   \
  {                                                                                \
    .name = NAME, .n_inputs = IC_INTERP_N_INPUTS, .inputs = INPUTS,                \
    .n_outputs = 1, .outputs = ic_interp_outputs,                                  \
    .attrs_size = sizeof(ic_interp_attrs), .parse = PARSE,                         \
    .infer = ic_interp_infer, .cpu = ic_interp_cpu,                                \
  }

#ifdef __cplusplus
}
#endif

#endif
