/* lars_momentum: LARS momentum steps (phi LarsMomentumKernel, CPU), what
 * paddle.incubate.optimizer.LarsMomentumOptimizer writes (one parameter per op; the slots
 * may list several, slot k of Param, Grad, Velocity, LearningRate and lars_weight_decay[k]
 * belonging together). In Param's dtype, with g = rescale_grad * Grad and wd =
 * lars_weight_decay[k]:
 *   local_lr = LearningRate * lars_coeff * ||Param|| / (||g|| + wd ||Param|| + epsilon)
 *              when wd > 0 and both norms are > 0, else LearningRate
 *   VelocityOut = mu Velocity + local_lr (g + wd Param),  ParamOut = Param - VelocityOut
 * The squared norms are summed in double and rounded to Param's dtype before the square root
 * (Paddle sums them with Eigen in the dtype: the last bits may differ). Attributes: mu,
 * lars_coeff (0.001), lars_weight_decay (floats, one per parameter; default [0.0005]),
 * epsilon (0), rescale_grad (1), multi_precision. ParamOut[k] and VelocityOut[k] update
 * Param[k] and Velocity[k] in place (ic_lars_momentum_inplace, train.h). multi_precision
 * (MasterParam) is not supported: Paddle uses it only for float16 / bfloat16 parameters. */
#include <math.h>

#include "kernels/cpu/train.h"

typedef struct lars_attrs {
  float mu, lars_coeff, epsilon, rescale;
  bool multi_precision;
  size_t n_wd;
  const double *wd; /* borrowed from the program; NULL: the default 0.0005 */
} lars_attrs;

enum { IN_PARAM, IN_GRAD, IN_VEL, IN_LR, IN_MASTER };
enum { OUT_PARAM, OUT_VEL, OUT_MASTER };

const ic_train_inplace ic_lars_momentum_inplace[] = {
    {"ParamOut", "Param"}, {"VelocityOut", "Velocity"}, {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lars_attrs *a = attrs;
  a->mu = (float)ic_ar_float(r, "mu", 0.0);
  a->lars_coeff = (float)ic_ar_float(r, "lars_coeff", 0.001);
  a->epsilon = (float)ic_ar_float(r, "epsilon", 0.0);
  a->rescale = (float)ic_ar_float(r, "rescale_grad", 1.0);
  a->multi_precision = ic_ar_bool(r, "multi_precision", false);
  if (!ic_ar_floats(r, "lars_weight_decay", false, &a->wd, &a->n_wd)) a->wd = NULL;
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const lars_attrs *a = c->attrs;
  const size_t n = c->in[IN_PARAM].n;
  if (ic_in(c, IN_MASTER, 0) || a->multi_precision) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "multi_precision (MasterParam) is not supported");
  }
  for (int s = IN_GRAD; s <= IN_LR; s++) {
    if (c->in[s].n != n) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "input %s lists %zu variables, expected one "
                      "per Param (%zu)", c->def->inputs[s].name, c->in[s].n, n);
    }
  }
  if (c->out[OUT_PARAM].n != n || c->out[OUT_VEL].n != n) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "outputs ParamOut and VelocityOut list %zu and "
                    "%zu variables, expected one per Param (%zu)", c->out[OUT_PARAM].n,
                    c->out[OUT_VEL].n, n);
  }
  if (a->wd ? a->n_wd != n : n != 1) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "attribute lars_weight_decay holds %zu values, "
                    "expected one per Param (%zu)", a->wd ? a->n_wd : (size_t)1, n);
  }
  for (size_t k = 0; k < n; k++) {
    const ic_tensor *p = ic_in(c, IN_PARAM, k);
    ic_status st = ic_kcheck_dtype(c, IN_PARAM, k, IC_DT_FLOAT);
    if (st) return st;
    static const int same[] = {IN_GRAD, IN_VEL};
    for (int j = 0; j < 2; j++) {
      const ic_tensor *t = ic_in(c, same[j], k);
      if (t->dtype != p->dtype || !ic_dims_equal(t->ndim, t->dims, p->ndim, p->dims)) {
        char d[128];
        return ic_kfail_in(c, same[j], k, "expected %s like input Param '%s'",
                           ic_tensor_describe(p, d, sizeof d), ic_in_name(c, IN_PARAM, k));
      }
    }
    const ic_tensor *lr = ic_in(c, IN_LR, k);
    if (lr->dtype != p->dtype || ic_tensor_numel_(lr) != 1) {
      return ic_kfail_in(c, IN_LR, k, "expected one %s value", ic_dtype_name(p->dtype));
    }
    ic_tensor_set_meta(ic_out(c, OUT_PARAM, k), p->dtype, p->ndim, p->dims);
    ic_tensor_set_meta(ic_out(c, OUT_VEL, k), p->dtype, p->ndim, p->dims);
  }
  return IC_OK;
}

#define STEP(T, SQRT)                                                                      \
  do {                                                                                     \
    const T *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, k)->data,             \
                      *restrict vp = ic_in(c, IN_VEL, k)->data;                            \
    T *restrict po = ic_out(c, OUT_PARAM, k)->data, *restrict vo = ic_out(c, OUT_VEL, k)->data; \
    const T mu = (T)a->mu, rs = (T)a->rescale, wd = (T)wdk, lr = *(const T *)ic_in(c, IN_LR, k)->data; \
    double pn2 = 0, gn2 = 0;                                                               \
    for (int64_t i = 0; i < m; i++) {                                                      \
      T rg = rs * gp[i];                                                                   \
      pn2 += (double)pp[i] * pp[i];                                                        \
      gn2 += (double)rg * rg;                                                              \
    }                                                                                      \
    const T pn = SQRT((T)pn2), gn = SQRT((T)gn2);                                          \
    T local = lr;                                                                          \
    if (wd > 0 && pn > 0 && gn > 0) {                                                      \
      local = lr * (T)a->lars_coeff * pn / (gn + wd * pn + (T)a->epsilon);                 \
    }                                                                                      \
    for (int64_t i = 0; i < m; i++) {                                                      \
      T vn = vp[i] * mu + local * (rs * gp[i] + wd * pp[i]);                               \
      vo[i] = vn;                                                                          \
      po[i] = pp[i] - vn;                                                                  \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const lars_attrs *a = c->attrs;
  const size_t n = c->in[IN_PARAM].n;
  for (size_t k = 0; k < n; k++) {
    const ic_tensor *p = ic_in(c, IN_PARAM, k);
    ic_status st;
    if ((st = ic_train_own(c, ic_out(c, OUT_PARAM, k), p)) ||
        (st = ic_train_own(c, ic_out(c, OUT_VEL, k), ic_in(c, IN_VEL, k)))) {
      return st;
    }
    const float wdk = a->wd ? (float)a->wd[k] : 0.0005f;
    const int64_t m = ic_tensor_numel_(p);
    if (p->dtype == IC_FP32) STEP(float, sqrtf);
    else STEP(double, sqrt);
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

const ic_opdef ic_op_lars_momentum = {
    .name = "lars_momentum",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(lars_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
