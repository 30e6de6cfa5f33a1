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
  static ic_status NAME##_cpu(ic_kctx *c) {                                                \
    const ATTRS *a = c->attrs;                                                             \
    const ic_tensor *x = ic_in(c, 0, 0);                                                   \
    ic_tensor *o = ic_out(c, 0, 0);                                                        \
    int64_t n = ic_numel(x->ndim, x->dims), i = 0;                                         \
    if (x->dtype == IC_FP32) {                                                             \
      const float *xp = x->data;                                                           \
      float *op = o->data;                                                                 \
      for (; i + 8 <= n; i += 8) NAME##_b32(op + i, xp + i, a);                            \
      for (; i < n; i++) op[i] = F32(xp[i], a);                                            \
    } else {                                                                               \
      const double *xp = x->data;                                                          \
      double *op = o->data;                                                                \
      for (; i + 8 <= n; i += 8) NAME##_b64(op + i, xp + i, a);                            \
      for (; i < n; i++) op[i] = F64(xp[i], a);                                            \
    }                                                                                      \
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

#endif
