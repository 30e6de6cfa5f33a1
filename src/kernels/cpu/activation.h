/* Unary activations (X -> Out, same dtype and shape): the shared slots, shape inference and
 * loop, so that an op file holds only its scalar formula:
 *
 *   static inline float relu_f32(float x, const ic_noattrs *a) { return x > 0 ? x : 0; }
 *   static inline double relu_f64(double x, const ic_noattrs *a) { return x > 0 ? x : 0; }
 *   IC_ACTIVATION_RUN(relu, ic_noattrs, relu_f32, relu_f64)
 *   const ic_opdef ic_op_relu = IC_ACTIVATION_DEF(relu, ic_noattrs, NULL, ic_activation_infer);
 *
 * The scalar functions see the op's parsed attributes. float32 is computed in float with
 * float libm (expf, tanhf, erff), as Paddle's Eigen kernels compute in T. */
#ifndef IC_KERNELS_CPU_ACTIVATION_H
#define IC_KERNELS_CPU_ACTIVATION_H

#include <math.h>

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

#endif
