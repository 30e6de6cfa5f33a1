/* logit_grad: X@GRAD = Out@GRAD / ((1 - X) X) where eps <= X <= 1 - eps, and outside 0,
 * except with eps 0, where it is NaN outside [0, 1] (as the forward's Out; Paddle 3.3.1,
 * checked in cases33j.txt). Reads X; attribute eps (float, default 1e-6); the bounds rounded
 * to the data's type as phi's LogitGradFunctor does (1 - eps taken in double). */
#include <math.h>

#include "kernels/cpu/activation_grad.h"

typedef struct logit_grad_attrs {
  float eps;
} logit_grad_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  logit_grad_attrs *a = attrs;
  a->eps = (float)ic_ar_float(r, "eps", 1e-6);
  return r->st;
}

static inline float logit_grad_f32(float g, float u, float v, const logit_grad_attrs *a) {
  (void)v;
  if (a->eps == 0.0f) return u < 0.0f || u > 1.0f ? NAN : g * (1.0f / ((1.0f - u) * u));
  return u < a->eps || u > (float)(1.0 - (double)a->eps) ? 0.0f : g * (1.0f / ((1.0f - u) * u));
}
static inline double logit_grad_f64(double g, double u, double v, const logit_grad_attrs *a) {
  (void)v;
  if (a->eps == 0.0f) return u < 0.0 || u > 1.0 ? NAN : g * (1.0 / ((1.0 - u) * u));
  return u < (double)a->eps || u > 1.0 - (double)a->eps ? 0.0 : g * (1.0 / ((1.0 - u) * u));
}

IC_ACTGRAD_RUN(logit_grad, logit_grad_attrs, 1, logit_grad_f32, logit_grad_f64)

const ic_opdef ic_op_logit_grad =
    IC_ACTGRAD_DEF(logit_grad, logit_grad_attrs, parse, ic_actgrad_inputs_x);
