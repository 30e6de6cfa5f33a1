/* merged_momentum: the momentum steps of several parameters in one op (phi
 * MergedMomentumKernel, CPU), what paddle.optimizer.Momentum(use_multi_tensor=True) writes:
 * slot k of Param, Grad, Velocity (and of LearningRate when it lists one per parameter)
 * belong together. Each parameter takes momentum.c's step in its own dtype:
 *   VelocityOut = mu Velocity + g,  ParamOut = Param - lr VelocityOut
 *                                   (use_nesterov: Param - (g + mu VelocityOut) lr)
 * Paddle's CPU kernel has two paths, followed here:
 *   - one LearningRate, use_nesterov false and no regularization_method list: g =
 *     rescale_grad * Grad;
 *   - otherwise (what Paddle's Python writes: one LearningRate per parameter and a
 *     regularization_method per parameter, "" or "l2_decay"): g = Grad, plus
 *     regularization_coeff[k] Param for "l2_decay"; rescale_grad is not applied.
 * Attributes: mu, use_nesterov (false), regularization_method (strings, empty or one per
 * parameter), regularization_coeff (floats, likewise), rescale_grad (1), multi_precision.
 * ParamOut[k] and VelocityOut[k] update Param[k] and Velocity[k] in place
 * (ic_merged_momentum_inplace, train.h). multi_precision (MasterParam) is not supported:
 * Paddle uses it only for float16 / bfloat16 parameters. */
#include <string.h>

#include "kernels/cpu/train.h"
#include "program/program.h"

typedef struct merged_momentum_attrs {
  float mu, rescale;
  bool nesterov, multi_precision;
  size_t n_methods, n_coeffs;
  const char *const *methods; /* borrowed from the program */
  const double *coeffs;
} merged_momentum_attrs;

enum { IN_PARAM, IN_GRAD, IN_VEL, IN_LR, IN_MASTER };
enum { OUT_PARAM, OUT_VEL, OUT_MASTER };

const ic_train_inplace ic_merged_momentum_inplace[] = {
    {"ParamOut", "Param"}, {"VelocityOut", "Velocity"}, {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  merged_momentum_attrs *a = attrs;
  a->mu = (float)ic_ar_float(r, "mu", 0.0);
  a->nesterov = ic_ar_bool(r, "use_nesterov", false);
  a->rescale = (float)ic_ar_float(r, "rescale_grad", 1.0);
  a->multi_precision = ic_ar_bool(r, "multi_precision", false);
  ic_ar_floats(r, "regularization_coeff", false, &a->coeffs, &a->n_coeffs);
  if (r->st) return r->st;
  const ic_attr *m = ic_op_attr(r->op, "regularization_method");
  if (m) {
    if (m->type != IC_ATTR_STRINGS) {
      return ic_ar_fail(r, "regularization_method", "expected a list of strings");
    }
    a->methods = m->strings;
    a->n_methods = m->n;
    for (size_t k = 0; k < m->n; k++) {
      if (*m->strings[k] && strcmp(m->strings[k], "l2_decay")) {
        return ic_ar_fail(r, "regularization_method", "[%zu] is '%s', expected \"\" or l2_decay",
                          k, m->strings[k]);
      }
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const merged_momentum_attrs *a = c->attrs;
  size_t n = c->in[IN_PARAM].n;
  ic_status st;
  if (ic_in(c, IN_MASTER, 0) || a->multi_precision) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "multi_precision (MasterParam) is not supported");
  }
  static const int counted[] = {IN_GRAD, IN_VEL};
  for (int j = 0; j < 2; j++) {
    if (c->in[counted[j]].n != n) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "input %s lists %zu variables, expected one "
                      "per Param (%zu)", c->def->inputs[counted[j]].name, c->in[counted[j]].n, n);
    }
  }
  if (c->in[IN_LR].n != 1 && c->in[IN_LR].n != n) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "input LearningRate lists %zu variables, "
                    "expected 1 or one per Param (%zu)", c->in[IN_LR].n, n);
  }
  if (c->out[OUT_PARAM].n != n || c->out[OUT_VEL].n != n) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "outputs ParamOut and VelocityOut list %zu and "
                    "%zu variables, expected one per Param (%zu)", c->out[OUT_PARAM].n,
                    c->out[OUT_VEL].n, n);
  }
  if (a->n_methods && (a->n_methods != n || a->n_coeffs != n)) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "attributes regularization_method and "
                    "regularization_coeff hold %zu and %zu values, expected one per Param (%zu)",
                    a->n_methods, a->n_coeffs, n);
  }
  for (size_t k = 0; k < n; k++) {
    const ic_tensor *p = ic_in(c, IN_PARAM, k);
    if ((st = ic_kcheck_dtype(c, IN_PARAM, k, IC_DT_FLOAT))) return st;
    static const int same[] = {IN_GRAD, IN_VEL};
    for (int j = 0; j < 2; j++) {
      const ic_tensor *t = ic_in(c, same[j], k);
      if (t->dtype != p->dtype || !ic_dims_equal(t->ndim, t->dims, p->ndim, p->dims)) {
        char d[128];
        return ic_kfail_in(c, same[j], k, "expected %s like input Param '%s'",
                           ic_tensor_describe(p, d, sizeof d), ic_in_name(c, IN_PARAM, k));
      }
    }
    size_t l = c->in[IN_LR].n == 1 ? 0 : k;
    const ic_tensor *lr = ic_in(c, IN_LR, l);
    if (lr->dtype != p->dtype || ic_tensor_numel_(lr) != 1) {
      return ic_kfail_in(c, IN_LR, l, "expected one %s value", ic_dtype_name(p->dtype));
    }
    ic_tensor_set_meta(ic_out(c, OUT_PARAM, k), p->dtype, p->ndim, p->dims);
    ic_tensor_set_meta(ic_out(c, OUT_VEL, k), p->dtype, p->ndim, p->dims);
  }
  return IC_OK;
}

#define STEP(T)                                                                            \
  do {                                                                                     \
    const T *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, k)->data,             \
                      *restrict vp = ic_in(c, IN_VEL, k)->data;                            \
    T *restrict po = ic_out(c, OUT_PARAM, k)->data, *restrict vo = ic_out(c, OUT_VEL, k)->data; \
    const T lr = *(const T *)ic_in(c, IN_LR, l)->data, mu = (T)a->mu, rs = (T)a->rescale,  \
            rc = (T)coeff;                                                                 \
    for (int64_t i = 0; i < m; i++) {                                                      \
      T g = fast ? gp[i] * rs : gp[i];                                                     \
      if (l2) g = pp[i] * rc + g;                                                          \
      T vn = vp[i] * mu + g;                                                               \
      vo[i] = vn;                                                                          \
      po[i] = a->nesterov ? pp[i] - (g + vn * mu) * lr : pp[i] - lr * vn;                  \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const merged_momentum_attrs *a = c->attrs;
  size_t n = c->in[IN_PARAM].n;
  const bool fast = c->in[IN_LR].n == 1 && !a->nesterov && a->n_methods == 0;
  for (size_t k = 0; k < n; k++) {
    const ic_tensor *p = ic_in(c, IN_PARAM, k);
    ic_status st;
    if ((st = ic_train_own(c, ic_out(c, OUT_PARAM, k), p)) ||
        (st = ic_train_own(c, ic_out(c, OUT_VEL, k), ic_in(c, IN_VEL, k)))) {
      return st;
    }
    const size_t l = c->in[IN_LR].n == 1 ? 0 : k;
    const bool l2 = !fast && a->n_methods && !strcmp(a->methods[k], "l2_decay");
    const double coeff = !fast && a->n_coeffs ? (double)(float)a->coeffs[k] : 0.0;
    const int64_t m = ic_tensor_numel_(p);
    if (p->dtype == IC_FP32) STEP(float);
    else STEP(double);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Param", IC_SLOT_MULTI},
    {"Grad", IC_SLOT_MULTI},
    {"Velocity", IC_SLOT_MULTI},
    {"LearningRate", IC_SLOT_MULTI},
    {"MasterParam", IC_SLOT_OPTIONAL | IC_SLOT_MULTI},
};
static const ic_slotdef outputs[] = {
    {"ParamOut", IC_SLOT_SHARE | IC_SLOT_MULTI},
    {"VelocityOut", IC_SLOT_SHARE | IC_SLOT_MULTI},
    {"MasterParamOut", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER | IC_SLOT_MULTI},
};

const ic_opdef ic_op_merged_momentum = {
    .name = "merged_momentum",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(merged_momentum_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
