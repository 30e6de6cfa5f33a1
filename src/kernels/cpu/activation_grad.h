/* Gradients of the unary activations (<op>_grad.c): the shared slots, shape inference and
 * loop, and every gradient's scalar formula, so that an op file holds only its attribute
 * parsing and definition:
 *
 *   IC_ACTGRAD_RUN(leaky_relu_grad, leaky_relu_attrs, 1, leaky_relu_grad_f32, ...)
 *   const ic_opdef ic_op_leaky_relu_grad = IC_ACTGRAD_DEF(leaky_relu_grad, leaky_relu_attrs,
 *                                                         parse, ic_actgrad_inputs_x);
 *
 * Each formula is phi's CPU functor (paddle/phi/kernels/funcs/activation_functor.h,
 * <Op>GradFunctor), computed in the data's type in the same order as Eigen evaluates it, and
 * reads the forward tensor Paddle's grad op is given: X (kDepX), Out (kDepOut), or both.
 * The scalar functions take the upstream gradient g, the first forward tensor's element u
 * (X, or Out for the Out-dependent ones), the second one's v (elu's Out; u again when the
 * op has one), and the attributes. The slot layouts are those Paddle 3.3.1 writes into a
 * legacy program (tools/gen_paddle_grad_oracle.py prints them). */
#ifndef IC_KERNELS_CPU_ACTIVATION_GRAD_H
#define IC_KERNELS_CPU_ACTIVATION_GRAD_H

#include "kernels/cpu/activation.h"

#ifdef __cplusplus
extern "C" {
#endif

/* C11 has no M_LN2 & co. */
#define IC_LN2 0.69314718055994530941723212145818
#define IC_LN10 2.30258509299404568401799145468437
#define IC_2_SQRTPI 1.12837916709551257389615890312155 /* 2 / sqrt(pi) */

/* Inputs: {X, Out@GRAD}, {Out, Out@GRAD}, {X, Out, Out@GRAD} (elu), {X, Out (optional,
 * unused), Out@GRAD} (silu), {Out@GRAD} (floor, ceil, round); output X@GRAD. */
extern const ic_slotdef ic_actgrad_inputs_x[2];
extern const ic_slotdef ic_actgrad_inputs_out[2];
extern const ic_slotdef ic_actgrad_inputs_x_out[3];
extern const ic_slotdef ic_actgrad_inputs_x_optout[3];
extern const ic_slotdef ic_actgrad_inputs_none[1];
extern const ic_slotdef ic_actgrad_outputs[1];
/* Out@GRAD (the last input slot) float32 or float64; every other input given has its dtype
 * and dims; X@GRAD gets them too. */
ic_status ic_actgrad_infer(ic_kctx *c);

/* Defines NAME_cpu: X@GRAD[i] = F(Out@GRAD[i], u[i], v[i], attrs), where u is input 0 and v
 * input 1 when GIDX (the index of the Out@GRAD slot) is 2 and input 1 is given, else u;
 * with GIDX 0 (no forward tensor) u and v are the gradient itself. */
#define IC_ACTGRAD_RUN(NAME, ATTRS, GIDX, F32, F64)                                        \
  static ic_status NAME##_cpu(ic_kctx *c) {                                                \
    const ATTRS *a = c->attrs;                                                             \
    const ic_tensor *g = ic_in(c, (GIDX), 0);                                              \
    const ic_tensor *u = (GIDX) > 0 ? ic_in(c, 0, 0) : g;                                  \
    const ic_tensor *v = (GIDX) > 1 && ic_in(c, 1, 0) &&                                   \
                                 !(c->def->inputs[1].flags & IC_SLOT_IGNORED)              \
                             ? ic_in(c, 1, 0)                                              \
                             : u;                                                          \
    ic_tensor *dx = ic_out(c, 0, 0);                                                       \
    int64_t n = ic_numel(g->ndim, g->dims);                                                \
    if (g->dtype == IC_FP32) {                                                             \
      const float *restrict gp = g->data, *restrict up = u->data, *restrict vp = v->data;  \
      float *restrict o = dx->data;                                                        \
      for (int64_t i = 0; i < n; i++) o[i] = F32(gp[i], up[i], vp[i], a);                  \
    } else {                                                                               \
      const double *restrict gp = g->data, *restrict up = u->data, *restrict vp = v->data; \
      double *restrict o = dx->data;                                                       \
      for (int64_t i = 0; i < n; i++) o[i] = F64(gp[i], up[i], vp[i], a);                  \
    }                                                                                      \
    return IC_OK;                                                                          \
  }

#define IC_ACTGRAD_DEF(NAME, ATTRS, PARSE, INPUTS)                                         \
  {                                                                                        \
    .name = #NAME, .n_inputs = sizeof(INPUTS) / sizeof(INPUTS[0]), .inputs = INPUTS,       \
    .n_outputs = 1, .outputs = ic_actgrad_outputs, .attrs_size = sizeof(ATTRS),            \
    .parse = PARSE, .infer = ic_actgrad_infer, .cpu = NAME##_cpu,                          \
  }

/* Both precisions of one formula: EXPR in T, with g, u, v and a in scope and the libm
 * functions named through the F() wrapper below (expf / exp ...). */
#define IC_ACTGRAD_FN(NAME, ATTRS, EXPR32, EXPR64)                                         \
  static inline float NAME##_f32(float g, float u, float v, const ATTRS *a) {              \
    return (EXPR32);                                                                       \
  }                                                                                        \
  static inline double NAME##_f64(double g, double u, double v, const ATTRS *a) {          \
    return (EXPR64);                                                                       \
  }

/* ---- depending on X (u = X) ---- */

/* leaky_relu: g (alpha (x < 0) + (x >= 0)): 1 at x = 0. */
IC_ACTGRAD_FN(leaky_relu_grad, leaky_relu_attrs,
              g * ((float)a->alpha * (float)(u < 0.0f) + (float)(u >= 0.0f)),
              g * ((double)(float)a->alpha * (double)(u < 0.0) + (double)(u >= 0.0)))

/* hard_swish: with t = (x + offset < threshold):
 * g ((x + offset > 0) (2x + offset) / scale t + (1 - t)). */
static inline float hard_swish_grad_f32(float g, float u, float v, const hard_swish_attrs *a) {
  float t = (float)(u + a->offset < a->threshold);
  return g * ((float)(u + a->offset > 0.0f) * (2.0f * u + a->offset) / a->scale * t +
              1.0f * (1.0f - t));
}
static inline double hard_swish_grad_f64(double g, double u, double v,
                                         const hard_swish_attrs *a) {
  double off = a->offset, t = (double)(u + off < (double)a->threshold);
  return g * ((double)(u + off > 0.0) * (2.0 * u + off) / (double)a->scale * t + 1.0 * (1.0 - t));
}

/* swish: s = 1 / (1 + exp(-beta x)), o = x s: g (beta o + s (1 - beta o)). */
static inline float swish_grad_f32(float g, float u, float v, const swish_attrs *a) {
  float s = 1.0f / (1.0f + expf(-a->beta * u)), o = u * s;
  return g * (a->beta * o + s * (1.0f - a->beta * o));
}
static inline double swish_grad_f64(double g, double u, double v, const swish_attrs *a) {
  double b = a->beta, s = 1.0 / (1.0 + exp(-b * u)), o = u * s;
  return g * (b * o + s * (1.0 - b * o));
}

/* silu: with d = 1 + exp(-x): g ((1 / d) (1 + x exp(-x) / d)) (Out is given but unused). */
static inline float silu_grad_f32(float g, float u, float v, const ic_noattrs *a) {
  float e = expf(-u), d = 1.0f + e;
  return g * ((1.0f / d) * (1.0f + u * e / d));
}
static inline double silu_grad_f64(double g, double u, double v, const ic_noattrs *a) {
  double e = exp(-u), d = 1.0 + e;
  return g * ((1.0 / d) * (1.0 + u * e / d));
}

/* elu (u = X, v = Out; p = alpha): alpha >= 0: Out > 0 ? g : g (Out + alpha);
 * alpha < 0: X > 0 ? g : g alpha exp(X) (phi's two functors, chosen by alpha's sign). */
static inline float elu_grad_f32(float g, float u, float v, const ic_act1_attrs *a) {
  if (a->p >= 0.0f) return v > 0.0f ? g : g * (v + a->p);
  return u > 0.0f ? g : g * a->p * expf(u);
}
static inline double elu_grad_f64(double g, double u, double v, const ic_act1_attrs *a) {
  double al = a->p;
  if (al >= 0.0) return v > 0.0 ? g : g * (v + al);
  return u > 0.0 ? g : g * al * exp(u);
}

/* celu (p = alpha), as phi writes it, a sum of four masked terms: with e = exp(x / alpha),
 * ap = (alpha > 0), an = 1 - ap, xp = (x > 0), xn = (x <= 0):
 * g ap xp + g e ap xn + g an xp + g e an xn. So e = inf (x > 88 alpha in float32) gives
 * inf * 0 = NaN even where x > 0, as in Paddle. */
static inline float celu_grad_f32(float g, float u, float v, const ic_act1_attrs *a) {
  float e = expf(u / a->p), ap = (float)(a->p > 0.0f), an = (float)(a->p <= 0.0f);
  float xp = (float)(u > 0.0f), xn = (float)(u <= 0.0f);
  return g * ap * xp + g * e * ap * xn + g * an * xp + g * e * an * xn;
}
static inline double celu_grad_f64(double g, double u, double v, const ic_act1_attrs *a) {
  double al = a->p, e = exp(u / al), ap = (double)(a->p > 0.0f), an = (double)(a->p <= 0.0f);
  double xp = (double)(u > 0.0), xn = (double)(u <= 0.0);
  return g * ap * xp + g * e * ap * xn + g * an * xp + g * e * an * xn;
}

/* softplus (p = beta, q = threshold): beta x > threshold ? g : g / (1 + exp(-beta x)). */
static inline float softplus_grad_f32(float g, float u, float v, const ic_act2_attrs *a) {
  float xb = a->p * u;
  return xb > a->q ? g : g / (1.0f + expf(-xb));
}
static inline double softplus_grad_f64(double g, double u, double v, const ic_act2_attrs *a) {
  double xb = (double)a->p * u;
  return xb > (double)a->q ? g : g / (1.0 + exp(-xb));
}

/* softsign: g / (1 + |x|)^2. */
IC_ACTGRAD_FN(softsign_grad, ic_noattrs, g / ((1.0f + fabsf(u)) * (1.0f + fabsf(u))),
              g / ((1.0 + fabs(u)) * (1.0 + fabs(u))))

/* mish (p = threshold): sp = x > threshold ? x : log(1 + exp(x)), t = tanh(sp):
 * g (t + x (1 - t^2) (1 - exp(-sp))). Above the threshold d sp / dx is 1, not 1 - exp(-x):
 * phi's CPU functor (and Paddle 3.3.1, checked in unary_cases.txt) is off there by
 * x (1 - t^2) exp(-x), negligible at the default threshold 20; icore computes as Paddle. */
static inline float mish_grad_f32(float g, float u, float v, const ic_act1_attrs *a) {
  float sp = u > a->p ? u : logf(1.0f + expf(u)), t = tanhf(sp);
  return g * (t + u * (1.0f - t * t) * (1.0f - expf(-sp)));
}
static inline double mish_grad_f64(double g, double u, double v, const ic_act1_attrs *a) {
  double sp = u > (double)a->p ? u : log(1.0 + exp(u)), t = tanh(sp);
  return g * (t + u * (1.0 - t * t) * (1.0 - exp(-sp)));
}

/* log: g (1 / x); log2, log10: g / (x ln 2), g / (x ln 10) (ln taken in double, then
 * rounded to T, as static_cast<T>(log(2))); log1p: g (1 / (x + 1)). */
IC_ACTGRAD_FN(log_grad, ic_noattrs, g * (1.0f / u), g * (1.0 / u))
IC_ACTGRAD_FN(log2_grad, ic_noattrs, g / (u * (float)IC_LN2), g / (u * IC_LN2))
IC_ACTGRAD_FN(log10_grad, ic_noattrs, g / (u * (float)IC_LN10), g / (u * IC_LN10))
IC_ACTGRAD_FN(log1p_grad, ic_noattrs, g * (1.0f / (u + 1.0f)), g * (1.0 / (u + 1.0)))

/* square: g 2 x. */
IC_ACTGRAD_FN(square_grad, ic_noattrs, g * 2.0f * u, g * 2.0 * u)

/* abs: g sign(x), 0 at x = 0. */
IC_ACTGRAD_FN(abs_grad, ic_noattrs, g * (float)((u > 0.0f) - (u < 0.0f)),
              g * (double)((u > 0.0) - (u < 0.0)))

/* tanh_shrink: g tanh(x)^2. */
IC_ACTGRAD_FN(tanh_shrink_grad, ic_noattrs, g * (tanhf(u) * tanhf(u)), g * (tanh(u) * tanh(u)))

/* logsigmoid: with t = max(-x, 0): g exp(-x - t) / (exp(-t) + exp(-x - t)). */
static inline float logsigmoid_grad_f32(float g, float u, float v, const ic_noattrs *a) {
  float t = IC_MAXV(-u, 0.0f), e = expf(-u - t);
  return g * (e / (expf(-t) + e));
}
static inline double logsigmoid_grad_f64(double g, double u, double v, const ic_noattrs *a) {
  double t = IC_MAXV(-u, 0.0), e = exp(-u - t);
  return g * (e / (exp(-t) + e));
}

/* sin: g cos(x); cos: -g sin(x). */
IC_ACTGRAD_FN(sin_grad, ic_noattrs, g * cosf(u), g * cos(u))
IC_ACTGRAD_FN(cos_grad, ic_noattrs, -g * sinf(u), -g * sin(u))

/* erf: g (2 / sqrt(pi)) exp(-x^2). */
IC_ACTGRAD_FN(erf_grad, ic_noattrs, g * (float)IC_2_SQRTPI * expf(-(u * u)),
              g * IC_2_SQRTPI * exp(-(u * u)))

/* thresholded_relu (p = threshold): g (x > threshold). */
IC_ACTGRAD_FN(thresholded_relu_grad, ic_act2_attrs, g * (float)(u > a->p),
              g * (double)(u > (double)a->p))

/* brelu (p = t_min, q = t_max): g (t_min < x < t_max). */
IC_ACTGRAD_FN(brelu_grad, ic_act2_attrs, g * (float)((u > a->p) && (u < a->q)),
              g * (double)((u > (double)a->p) && (u < (double)a->q)))

/* hard_shrink (p = threshold): g (x <= -t or x >= t): g at |x| = t, where the forward keeps x
 * (Paddle 3.3.1; older phi sources had strict comparisons). */
IC_ACTGRAD_FN(hard_shrink_grad, ic_act1_attrs, g * (float)((u <= -a->p) || (u >= a->p)),
              g * (double)((u <= -(double)a->p) || (u >= (double)a->p)))

/* softshrink (p = lambda): g ((x > l) + (x < -l)). */
IC_ACTGRAD_FN(softshrink_grad, ic_act1_attrs, g * ((float)(u > a->p) + (float)(u < -a->p)),
              g * ((double)(u > (double)a->p) + (double)(u < -(double)a->p)))

/* stanh (p = scale_a, q = scale_b): g a b (1 - tanh(a x)^2). */
static inline float stanh_grad_f32(float g, float u, float v, const ic_act2_attrs *a) {
  float t = tanhf(a->p * u);
  return g * a->p * a->q * (1.0f - t * t);
}
static inline double stanh_grad_f64(double g, double u, double v, const ic_act2_attrs *a) {
  double t = tanh((double)a->p * u);
  return g * (double)a->p * (double)a->q * (1.0 - t * t);
}

/* ---- depending on Out (u = Out) ---- */

/* relu6: g (0 < out < threshold). */
IC_ACTGRAD_FN(relu6_grad, relu6_attrs, g * (float)((u > 0.0f) && (u < a->threshold)),
              g * (double)((u > 0.0) && (u < (double)a->threshold)))

/* hard_sigmoid: g (0 < out < 1) slope. */
IC_ACTGRAD_FN(hard_sigmoid_grad, hard_sigmoid_attrs,
              g * (float)((u > 0.0f) && (u < 1.0f)) * a->slope,
              g * (double)((u > 0.0) && (u < 1.0)) * (double)a->slope)

/* selu (p = scale, q = alpha): out <= 0 ? g (out + scale alpha) : g scale. */
IC_ACTGRAD_FN(selu_grad, ic_act2_attrs, u <= 0.0f ? g * (u + a->p * a->q) : g * a->p,
              u <= 0.0 ? g * (u + (double)a->p * (double)a->q) : g * (double)a->p)

/* exp: g out; sqrt: 0.5 g / out; rsqrt: -0.5 g out^3; reciprocal: -g out^2. */
IC_ACTGRAD_FN(exp_grad, ic_noattrs, g * u, g * u)
IC_ACTGRAD_FN(sqrt_grad, ic_noattrs, 0.5f * g / u, 0.5 * g / u)
IC_ACTGRAD_FN(rsqrt_grad, ic_noattrs, -0.5f * g * u * u * u, -0.5 * g * u * u * u)
IC_ACTGRAD_FN(reciprocal_grad, ic_noattrs, g * -1.0f * u * u, g * -1.0 * u * u)

/* ---- no forward tensor: floor, ceil, round have a zero gradient ---- */
IC_ACTGRAD_FN(zero_grad, ic_noattrs, 0.0f, 0.0)

#ifdef __cplusplus
}
#endif

#endif
