/* Unary activations (X -> Out, same dtype and shape): the shared slots, shape inference and
 * loop, and every activation's attribute struct and scalar formula (at the end, shared with
 * the CUDA kernels), so that an op file holds only its parsing and definition:
 *
 *   IC_ACTIVATION_RUN(relu, ic_noattrs, relu_f32, relu_f64)
 *   const ic_opdef ic_op_relu = IC_ACTIVATION_DEF(relu, ic_noattrs, NULL, ic_activation_infer);
 *
 * The scalar functions see the op's parsed attributes. float32 is computed in float with
 * float libm (expf, tanhf, erff), as Paddle's Eigen kernels compute in T. */
#ifndef IC_KERNELS_CPU_ACTIVATION_H
#define IC_KERNELS_CPU_ACTIVATION_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The attribute struct of an op without attributes. */
typedef struct ic_noattrs {
  int unused;
} ic_noattrs;

extern const ic_slotdef ic_activation_inputs[1];
extern const ic_slotdef ic_activation_outputs[1];
/* X float32 or float64; Out = X's dtype and dims. */
ic_status ic_activation_infer(ic_kctx *c);
/* Same, also accepting int32 and int64 (abs). */
ic_status ic_activation_infer_num(ic_kctx *c);

/* The activation kernels split their elements into blocks of IC_ACT_BLOCK (a multiple of 8),
 * shared out across the kernel's threads from IC_ACT_PAR_MIN elements: elementwise, so the
 * same bits at any thread count. */
#define IC_ACT_BLOCK 16384
#define IC_ACT_PAR_MIN 65536

/* out[i] = EXPR for i < n, with the element as `v`. */
#define IC_UNARY_LOOP(T, IN, OUT, N, EXPR)                                                 \
  do {                                                                                     \
    const T *restrict in_ = (const T *)(IN);                                               \
    T *restrict out_ = (T *)(OUT);                                                         \
    for (int64_t i_ = 0; i_ < (N); i_++) {                                                 \
      T v = in_[i_];                                                                       \
      out_[i_] = (EXPR);                                                                   \
    }                                                                                      \
  } while (0)

/* For each block of IC_ACT_BLOCK elements out of N, [I, E), across NT threads: STMT. */
#define IC_ACT_FOR_BLOCKS(N, NT, I, E, STMT)                                               \
  do {                                                                                     \
    const int64_t nb_ = ((N) + IC_ACT_BLOCK - 1) / IC_ACT_BLOCK;                           \
    const int nt_ = (NT);                                                                  \
    _Pragma("omp parallel for num_threads(nt_) schedule(static) if (nt_ > 1)")             \
    for (int64_t b_ = 0; b_ < nb_; b_++) {                                                 \
      const int64_t I = b_ * IC_ACT_BLOCK;                                                 \
      const int64_t E = (N) - I < IC_ACT_BLOCK ? (N) : I + IC_ACT_BLOCK;                   \
      STMT;                                                                                \
    }                                                                                      \
  } while (0)

/* Defines NAME_cpu: Out = F32(X, attrs) or F64(X, attrs). Blocks of 8 through an inline
 * function with restrict arguments let gcc -O2 vectorize the formulas that are plain
 * arithmetic (relu, hard_swish, ...); see elementwise.c. */
#define IC_ACTIVATION_RUN(NAME, ATTRS, F32, F64)                                           \
  static inline void NAME##_b32(float *restrict o, const float *restrict x,                \
                                const ATTRS *restrict a) {                                 \
    for (int k = 0; k < 8; k++) o[k] = F32(x[k], a);                                       \
  }                                                                                        \
  static inline void NAME##_b64(double *restrict o, const double *restrict x,              \
                                const ATTRS *restrict a) {                                 \
    for (int k = 0; k < 8; k++) o[k] = F64(x[k], a);                                       \
  }                                                                                        \
  static void NAME##_f32_range(float *o, const float *x, int64_t i, int64_t e,             \
                               const ATTRS *a) {                                           \
    for (; i + 8 <= e; i += 8) NAME##_b32(o + i, x + i, a);                                \
    for (; i < e; i++) o[i] = F32(x[i], a);                                                \
  }                                                                                        \
  static void NAME##_f64_range(double *o, const double *x, int64_t i, int64_t e,           \
                               const ATTRS *a) {                                           \
    for (; i + 8 <= e; i += 8) NAME##_b64(o + i, x + i, a);                                \
    for (; i < e; i++) o[i] = F64(x[i], a);                                                \
  }                                                                                        \
  static ic_status NAME##_cpu(ic_kctx *c) {                                                \
    const ATTRS *a = c->attrs;                                                             \
    const ic_tensor *x = ic_in(c, 0, 0);                                                   \
    ic_tensor *o = ic_out(c, 0, 0);                                                        \
    const int64_t n = ic_numel(x->ndim, x->dims);                                          \
    const int nt = n >= IC_ACT_PAR_MIN ? ic_omp_threads(c->env) : 1;                       \
    if (x->dtype == IC_FP32) {                                                             \
      IC_ACT_FOR_BLOCKS(n, nt, i, e, NAME##_f32_range(o->data, x->data, i, e, a));         \
    } else {                                                                               \
      IC_ACT_FOR_BLOCKS(n, nt, i, e, NAME##_f64_range(o->data, x->data, i, e, a));         \
    }                                                                                      \
    return IC_OK;                                                                          \
  }

/* The same with the float32 blocks handed to a vectorized array function (vmath.h):
 * VEC(out, in, n, attrs) computes the block. float64 runs F64 as above. */
#define IC_ACTIVATION_RUN_VEC(NAME, ATTRS, F32, F64, VEC)                                  \
  IC_ACTIVATION_RUN(NAME##_scalar, ATTRS, F32, F64)                                        \
  static ic_status NAME##_cpu(ic_kctx *c) {                                                \
    const ATTRS *a = c->attrs;                                                             \
    const ic_tensor *x = ic_in(c, 0, 0);                                                   \
    ic_tensor *o = ic_out(c, 0, 0);                                                        \
    if (x->dtype != IC_FP32) return NAME##_scalar_cpu(c);                                  \
    const int64_t n = ic_numel(x->ndim, x->dims);                                          \
    const int nt = n >= IC_ACT_PAR_MIN ? ic_omp_threads(c->env) : 1;                       \
    float *op = o->data;                                                                   \
    const float *xp = x->data;                                                             \
    (void)a;                                                                               \
    IC_ACT_FOR_BLOCKS(n, nt, i, e, VEC(op + i, xp + i, e - i, a));                         \
    return IC_OK;                                                                          \
  }

#define IC_ACTIVATION_DEF(NAME, ATTRS, PARSE, INFER)                                       \
  {                                                                                        \
    .name = #NAME, .n_inputs = 1, .inputs = ic_activation_inputs, .n_outputs = 1,          \
    .outputs = ic_activation_outputs, .attrs_size = sizeof(ATTRS), .parse = PARSE,         \
    .infer = INFER, .cpu = NAME##_cpu,                                                     \
  }

/* Paddle's std::max / std::min as its Eigen cwiseMax / cwiseMin compute them: a NaN in x
 * comes through, a NaN bound does not matter. */
#define IC_MAXV(x, lo) ((x) < (lo) ? (lo) : (x))
#define IC_MINV(x, hi) ((hi) < (x) ? (hi) : (x))

/* ---- each activation's attributes and scalar formula ----
 * Shared by the CPU kernels (cpu/<op>.c: parse, loop, op definition) and the CUDA kernels
 * (cuda/<op>.cu), so both compute the same expression in the same order. Each op's header
 * comment in its .c file says what it computes and where Paddle defines it. */

/* relu: a NaN gives 0, as Paddle's CPU kernel (x > 0 ? x : 0) does. */
static inline IC_HD float relu_f32(float x, const ic_noattrs *a) { return x > 0 ? x : 0.0f; }
static inline IC_HD double relu_f64(double x, const ic_noattrs *a) { return x > 0 ? x : 0.0; }

typedef struct relu6_attrs {
  float threshold;
} relu6_attrs;

static inline IC_HD float relu6_f32(float x, const relu6_attrs *a) {
  return IC_MINV(IC_MAXV(x, 0.0f), a->threshold);
}
static inline IC_HD double relu6_f64(double x, const relu6_attrs *a) {
  return IC_MINV(IC_MAXV(x, 0.0), (double)a->threshold);
}

static inline IC_HD float sigmoid_f32(float x, const ic_noattrs *a) {
  return 1.0f / (1.0f + expf(-x));
}
static inline IC_HD double sigmoid_f64(double x, const ic_noattrs *a) {
  return 1.0 / (1.0 + exp(-x));
}

static inline IC_HD float tanh_f32(float x, const ic_noattrs *a) { return tanhf(x); }
static inline IC_HD double tanh_f64(double x, const ic_noattrs *a) { return tanh(x); }

typedef struct gelu_attrs {
  bool approximate;
} gelu_attrs;

#define IC_GELU_SQRT_2_OVER_PI 0.79788456080286535587989211986876 /* M_2_SQRTPI * M_SQRT1_2 */
#define IC_GELU_SQRT1_2 0.70710678118654752440084436210485       /* M_SQRT1_2 */
#define IC_GELU_C 0.044715

static inline IC_HD float gelu_f32(float x, const gelu_attrs *a) {
  float t = a->approximate
                ? tanhf((float)IC_GELU_SQRT_2_OVER_PI * (x + (float)IC_GELU_C * (x * x * x)))
                : erff(x * (float)IC_GELU_SQRT1_2);
  return x * 0.5f * (1.0f + t);
}
static inline IC_HD double gelu_f64(double x, const gelu_attrs *a) {
  double t = a->approximate ? tanh(IC_GELU_SQRT_2_OVER_PI * (x + IC_GELU_C * (x * x * x)))
                            : erf(x * IC_GELU_SQRT1_2);
  return x * 0.5 * (1.0 + t);
}

typedef struct swish_attrs {
  float beta;
} swish_attrs;

static inline IC_HD float swish_f32(float x, const swish_attrs *a) {
  return x / (1.0f + expf(-a->beta * x));
}
static inline IC_HD double swish_f64(double x, const swish_attrs *a) {
  return x / (1.0 + exp(-(double)a->beta * x));
}

typedef struct hard_swish_attrs {
  float threshold, scale, offset;
} hard_swish_attrs;

static inline IC_HD float hard_swish_f32(float x, const hard_swish_attrs *a) {
  return IC_MINV(IC_MAXV(x + a->offset, 0.0f), a->threshold) * x / a->scale;
}
static inline IC_HD double hard_swish_f64(double x, const hard_swish_attrs *a) {
  return IC_MINV(IC_MAXV(x + (double)a->offset, 0.0), (double)a->threshold) * x /
         (double)a->scale;
}

typedef struct hard_sigmoid_attrs {
  float slope, offset;
} hard_sigmoid_attrs;

static inline IC_HD float hard_sigmoid_f32(float x, const hard_sigmoid_attrs *a) {
  return IC_MINV(IC_MAXV(x * a->slope + a->offset, 0.0f), 1.0f);
}
static inline IC_HD double hard_sigmoid_f64(double x, const hard_sigmoid_attrs *a) {
  return IC_MINV(IC_MAXV(x * (double)a->slope + (double)a->offset, 0.0), 1.0);
}

typedef struct leaky_relu_attrs {
  double alpha; /* as written (a float attribute widened); cast to the data's type */
} leaky_relu_attrs;

static inline IC_HD float leaky_relu_f32(float x, const leaky_relu_attrs *a) {
  float ax = (float)a->alpha * x;
  return a->alpha < 1.0 ? IC_MAXV(x, ax) : IC_MINV(x, ax);
}
static inline IC_HD double leaky_relu_f64(double x, const leaky_relu_attrs *a) {
  double ax = a->alpha * x;
  return a->alpha < 1.0 ? IC_MAXV(x, ax) : IC_MINV(x, ax);
}

static inline IC_HD float exp_f32(float x, const ic_noattrs *a) { return expf(x); }
static inline IC_HD double exp_f64(double x, const ic_noattrs *a) { return exp(x); }

static inline IC_HD float sqrt_f32(float x, const ic_noattrs *a) { return sqrtf(x); }
static inline IC_HD double sqrt_f64(double x, const ic_noattrs *a) { return sqrt(x); }

/* abs: the most negative integer stays itself (two's complement wrap), as in Paddle. */
static inline IC_HD float abs_f32(float x) { return fabsf(x); }
static inline IC_HD double abs_f64(double x) { return fabs(x); }
static inline IC_HD int32_t abs_i32(int32_t v) { return v < 0 ? (int32_t)(0u - (uint32_t)v) : v; }
static inline IC_HD int64_t abs_i64(int64_t v) {
  return v < 0 ? (int64_t)(0u - (uint64_t)v) : v;
}

/* ---- math activations (silu ... stanh): Paddle's functors in
 * paddle/phi/kernels/funcs/activation_functor.h, each computed in T as Eigen evaluates it. */

static inline IC_HD float silu_f32(float x, const ic_noattrs *a) { return x / (1.0f + expf(-x)); }
static inline IC_HD double silu_f64(double x, const ic_noattrs *a) { return x / (1.0 + exp(-x)); }

static inline IC_HD float log_f32(float x, const ic_noattrs *a) { return logf(x); }
static inline IC_HD double log_f64(double x, const ic_noattrs *a) { return log(x); }
static inline IC_HD float log2_f32(float x, const ic_noattrs *a) { return log2f(x); }
static inline IC_HD double log2_f64(double x, const ic_noattrs *a) { return log2(x); }
static inline IC_HD float log10_f32(float x, const ic_noattrs *a) { return log10f(x); }
static inline IC_HD double log10_f64(double x, const ic_noattrs *a) { return log10(x); }
static inline IC_HD float log1p_f32(float x, const ic_noattrs *a) { return log1pf(x); }
static inline IC_HD double log1p_f64(double x, const ic_noattrs *a) { return log1p(x); }
static inline IC_HD float rsqrt_f32(float x, const ic_noattrs *a) { return 1.0f / sqrtf(x); }
static inline IC_HD double rsqrt_f64(double x, const ic_noattrs *a) { return 1.0 / sqrt(x); }
static inline IC_HD float erf_f32(float x, const ic_noattrs *a) { return erff(x); }
static inline IC_HD double erf_f64(double x, const ic_noattrs *a) { return erf(x); }
static inline IC_HD float reciprocal_f32(float x, const ic_noattrs *a) { return 1.0f / x; }
static inline IC_HD double reciprocal_f64(double x, const ic_noattrs *a) { return 1.0 / x; }
static inline IC_HD float sin_f32(float x, const ic_noattrs *a) { return sinf(x); }
static inline IC_HD double sin_f64(double x, const ic_noattrs *a) { return sin(x); }
static inline IC_HD float cos_f32(float x, const ic_noattrs *a) { return cosf(x); }
static inline IC_HD double cos_f64(double x, const ic_noattrs *a) { return cos(x); }
static inline IC_HD float tan_f32(float x, const ic_noattrs *a) { return tanf(x); }
static inline IC_HD double tan_f64(double x, const ic_noattrs *a) { return tan(x); }
static inline IC_HD float acos_f32(float x, const ic_noattrs *a) { return acosf(x); }
static inline IC_HD double acos_f64(double x, const ic_noattrs *a) { return acos(x); }
static inline IC_HD float asin_f32(float x, const ic_noattrs *a) { return asinf(x); }
static inline IC_HD double asin_f64(double x, const ic_noattrs *a) { return asin(x); }
static inline IC_HD float atan_f32(float x, const ic_noattrs *a) { return atanf(x); }
static inline IC_HD double atan_f64(double x, const ic_noattrs *a) { return atan(x); }
static inline IC_HD float sinh_f32(float x, const ic_noattrs *a) { return sinhf(x); }
static inline IC_HD double sinh_f64(double x, const ic_noattrs *a) { return sinh(x); }
static inline IC_HD float cosh_f32(float x, const ic_noattrs *a) { return coshf(x); }
static inline IC_HD double cosh_f64(double x, const ic_noattrs *a) { return cosh(x); }
static inline IC_HD float expm1_f32(float x, const ic_noattrs *a) { return expm1f(x); }
static inline IC_HD double expm1_f64(double x, const ic_noattrs *a) { return expm1(x); }
static inline IC_HD float softsign_f32(float x, const ic_noattrs *a) {
  return x / (1.0f + fabsf(x));
}
static inline IC_HD double softsign_f64(double x, const ic_noattrs *a) {
  return x / (1.0 + fabs(x));
}
static inline IC_HD float tanh_shrink_f32(float x, const ic_noattrs *a) { return x - tanhf(x); }
static inline IC_HD double tanh_shrink_f64(double x, const ic_noattrs *a) { return x - tanh(x); }

/* logsigmoid: -log(1 + exp(-x)) in Paddle's overflow-free form: with t = max(-x, 0),
 * -t - log(exp(-t) + exp(-x - t)). */
static inline IC_HD float logsigmoid_f32(float x, const ic_noattrs *a) {
  float t = IC_MAXV(-x, 0.0f);
  return -t - logf(expf(-t) + expf(-x - t));
}
static inline IC_HD double logsigmoid_f64(double x, const ic_noattrs *a) {
  double t = IC_MAXV(-x, 0.0);
  return -t - log(exp(-t) + exp(-x - t));
}

/* One float attribute (mish threshold, elu/celu alpha, hard_shrink threshold, softshrink
 * lambda); two (softplus beta/threshold, selu scale/alpha, brelu t_min/t_max,
 * thresholded_relu threshold/value, stanh scale_a/scale_b). */
typedef struct ic_act1_attrs {
  float p;
} ic_act1_attrs;
typedef struct ic_act2_attrs {
  float p, q;
} ic_act2_attrs;

/* mish: x tanh(sp), sp = x above threshold, else log(1 + exp(x)) (not log1p, as Paddle). */
static inline IC_HD float mish_f32(float x, const ic_act1_attrs *a) {
  float sp = x > a->p ? x : logf(1.0f + expf(x));
  return x * tanhf(sp);
}
static inline IC_HD double mish_f64(double x, const ic_act1_attrs *a) {
  double sp = x > (double)a->p ? x : log(1.0 + exp(x));
  return x * tanh(sp);
}

/* softplus (p = beta, q = threshold): x when beta x > threshold, else log(1 + exp(beta x)) /
 * beta. */
static inline IC_HD float softplus_f32(float x, const ic_act2_attrs *a) {
  float xb = a->p * x;
  return xb > a->q ? x : logf(1.0f + expf(xb)) / a->p;
}
static inline IC_HD double softplus_f64(double x, const ic_act2_attrs *a) {
  double xb = (double)a->p * x;
  return xb > (double)a->q ? x : log(1.0 + exp(xb)) / (double)a->p;
}

/* soft_relu (p = threshold): log(1 + exp(x clipped to [-threshold, threshold])), a NaN
 * staying NaN. */
static inline IC_HD float soft_relu_f32(float x, const ic_act1_attrs *a) {
  return logf(1.0f + expf(IC_MINV(IC_MAXV(x, -a->p), a->p)));
}
static inline IC_HD double soft_relu_f64(double x, const ic_act1_attrs *a) {
  double t = a->p;
  return log(1.0 + exp(IC_MINV(IC_MAXV(x, -t), t)));
}

/* elu (p = alpha): x < 0 ? alpha (exp(x) - 1) : x. */
static inline IC_HD float elu_f32(float x, const ic_act1_attrs *a) {
  return x < 0.0f ? a->p * (expf(x) - 1.0f) : x;
}
static inline IC_HD double elu_f64(double x, const ic_act1_attrs *a) {
  return x < 0.0 ? (double)a->p * (exp(x) - 1.0) : x;
}

/* celu (p = alpha): max(0, x) + min(0, alpha (exp(x / alpha) - 1)). */
static inline IC_HD float celu_f32(float x, const ic_act1_attrs *a) {
  return IC_MAXV(x, 0.0f) + IC_MINV(a->p * (expf(x / a->p) - 1.0f), 0.0f);
}
static inline IC_HD double celu_f64(double x, const ic_act1_attrs *a) {
  double al = a->p;
  return IC_MAXV(x, 0.0) + IC_MINV(al * (exp(x / al) - 1.0), 0.0);
}

/* selu (p = scale, q = alpha): scale (x <= 0 ? alpha exp(x) - alpha : x). */
static inline IC_HD float selu_f32(float x, const ic_act2_attrs *a) {
  float r = x <= 0.0f ? a->q * expf(x) - a->q : x;
  return r * a->p;
}
static inline IC_HD double selu_f64(double x, const ic_act2_attrs *a) {
  double al = a->q, r = x <= 0.0 ? al * exp(x) - al : x;
  return r * (double)a->p;
}

/* brelu (hard_tanh; p = t_min, q = t_max): min(max(x, t_min), t_max). */
static inline IC_HD float brelu_f32(float x, const ic_act2_attrs *a) {
  return IC_MINV(IC_MAXV(x, a->p), a->q);
}
static inline IC_HD double brelu_f64(double x, const ic_act2_attrs *a) {
  return IC_MINV(IC_MAXV(x, (double)a->p), (double)a->q);
}

/* thresholded_relu (p = threshold, q = value): x where x > threshold, else value, computed
 * as x (x > t) + value (x <= t) the way Paddle 3.3 does: a NaN, and -inf (-inf * 0), give NaN. */
static inline IC_HD float thresholded_relu_f32(float x, const ic_act2_attrs *a) {
  return x * (float)(x > a->p) + a->q * (float)(x <= a->p);
}
static inline IC_HD double thresholded_relu_f64(double x, const ic_act2_attrs *a) {
  double t = a->p;
  return x * (double)(x > t) + (double)a->q * (double)(x <= t);
}

/* stanh (p = scale_a, q = scale_b): scale_b tanh(scale_a x). */
static inline IC_HD float stanh_f32(float x, const ic_act2_attrs *a) {
  return a->q * tanhf(a->p * x);
}
static inline IC_HD double stanh_f64(double x, const ic_act2_attrs *a) {
  return (double)a->q * tanh((double)a->p * x);
}

/* hard_shrink (p = threshold): x times (x <= -t or x >= t), so a NaN stays NaN and |x| = t
 * is kept (as Paddle 3.3 computes it). */
static inline IC_HD float hard_shrink_f32(float x, const ic_act1_attrs *a) {
  return x * (float)((x <= -a->p) || (x >= a->p));
}
static inline IC_HD double hard_shrink_f64(double x, const ic_act1_attrs *a) {
  double t = a->p;
  return x * (double)((x <= -t) || (x >= t));
}

/* softshrink (p = lambda): (x > l)(x - l) + (x < -l)(x + l). */
static inline IC_HD float softshrink_f32(float x, const ic_act1_attrs *a) {
  float l = a->p;
  return (float)(x > l) * (x - l) + (float)(x < -l) * (x + l);
}
static inline IC_HD double softshrink_f64(double x, const ic_act1_attrs *a) {
  double l = a->p;
  return (double)(x > l) * (x - l) + (double)(x < -l) * (x + l);
}

/* prelu (prelu.c): the mode, where the channel is, and which alpha each element uses. */
enum { IC_PRELU_ALL, IC_PRELU_CHANNEL, IC_PRELU_ELEMENT };

typedef struct prelu_attrs {
  int mode;
  bool channel_last;
} prelu_attrs;
/* prelu's attribute parser (prelu.c), shared with prelu_grad. */
ic_status ic_prelu_parse(ic_attr_reader *r, void *attrs);

/* The number of alpha values the mode needs for X (na), and the divisor with which element i
 * of X uses alpha (i / inner) % na. Shared by the CPU and CUDA kernels. */
static inline void ic_prelu_plan(const prelu_attrs *a, const ic_tensor *x, int64_t *na,
                                 int64_t *inner) {
  int64_t n = ic_numel(x->ndim, x->dims);
  *inner = 1;
  switch (a->mode) {
    case IC_PRELU_CHANNEL:
      *na = x->dims[a->channel_last ? x->ndim - 1 : 1];
      if (!a->channel_last) *inner = ic_numel(x->ndim - 2, x->dims + 2);
      break;
    case IC_PRELU_ELEMENT:
      *na = x->dims[0] ? n / x->dims[0] : ic_numel(x->ndim - 1, x->dims + 1);
      break;
    default: *na = 1; break;
  }
}

/* pow (pow.c): the exponent attribute, and X^e for integers in the integer type, wrapping on
 * overflow (unsigned arithmetic, then the low bits); a negative exponent gives 1 / X^e
 * truncated: +-1 for X = +-1, else 0. Shared by the CPU and CUDA kernels. */
typedef struct pow_attrs {
  float factor;
} pow_attrs;

static inline IC_HD uint64_t ic_ipow_wrap(uint64_t a, int64_t e) {
  uint64_t r = 1;
  for (; e > 0; e >>= 1) {
    if (e & 1) r *= a;
    a *= a;
  }
  return r;
}
static inline IC_HD int64_t ic_pow_i64(int64_t a, int64_t e) {
  if (e < 0) return a == 1 ? 1 : a == -1 ? ((e & 1) ? -1 : 1) : 0;
  return (int64_t)ic_ipow_wrap((uint64_t)a, e);
}
static inline IC_HD int32_t ic_pow_i32(int32_t a, int32_t e) {
  return (int32_t)(uint32_t)(uint64_t)ic_pow_i64(a, e);
}

/* round: half to even (rint in the default rounding mode, as Paddle 3.3 rounds: 2.5 -> 2,
 * -0.5 -> -0); with `decimals` d != 0, rint(x 10^d) / 10^d. */
typedef struct round_attrs {
  int decimals;
} round_attrs;

static inline IC_HD float round_f32(float x, const round_attrs *a) {
  if (a->decimals == 0) return rintf(x);
  float p = powf(10.0f, (float)a->decimals);
  return rintf(x * p) / p;
}
static inline IC_HD double round_f64(double x, const round_attrs *a) {
  if (a->decimals == 0) return rint(x);
  double p = pow(10.0, (double)a->decimals);
  return rint(x * p) / p;
}

#ifdef __cplusplus
}
#endif

#endif
