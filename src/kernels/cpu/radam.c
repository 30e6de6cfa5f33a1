/* radam: one RAdam step (phi RAdamKernel, CPU), in param's dtype. beta1_pow, beta2_pow and
 * rho have param's dims (paddle.optimizer.RAdam's accumulators, every element alike). With
 * rho_inf = 2 / (1 - beta2) - 1, per element
 *   beta1_pow_out = beta1 beta1_pow,  beta2_pow_out = beta2 beta2_pow
 *   rho_out = (rho (beta2 - beta2_pow_out) + beta2_pow_out) / (1 - beta2_pow_out)
 *   rho_t = rho_inf - 2 rho_out[0]   (the first element, as phi takes it)
 *   moment1_out = beta1 moment1 + (1 - beta1) grad,  moment2_out = beta2 moment2 + (1 - beta2) grad^2
 *   m1_hat = moment1_out / (1 - beta1_pow_out)
 *   rho_t > 5:  param_out = param - learning_rate m1_hat r_t l_t with
 *               l_t = sqrt(1 - beta2_pow_out) / (sqrt(moment2_out) + epsilon),
 *               r_t = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t))
 *   otherwise:  param_out = param - learning_rate m1_hat
 * Defaults beta1 0.9, beta2 0.999, epsilon 1e-8. Every *_out updates its input in place
 * (ic_radam_inplace, train.h). multi_precision (master_param) is not supported: Paddle uses
 * it only for float16 / bfloat16 parameters. */
#include <math.h>

#include "kernels/cpu/train.h"

typedef struct radam_attrs {
  float beta1, beta2, epsilon;
  bool multi_precision;
} radam_attrs;

enum { IN_PARAM, IN_GRAD, IN_LR, IN_B1P, IN_B2P, IN_RHO, IN_M1, IN_M2, IN_MASTER };
enum { OUT_PARAM, OUT_B1P, OUT_B2P, OUT_RHO, OUT_M1, OUT_M2, OUT_MASTER };

const ic_train_inplace ic_radam_inplace[] = {
    {"param_out", "param"}, {"beta1_pow_out", "beta1_pow"}, {"beta2_pow_out", "beta2_pow"},
    {"rho_out", "rho"},     {"moment1_out", "moment1"},     {"moment2_out", "moment2"},
    {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  radam_attrs *a = attrs;
  a->beta1 = (float)ic_ar_float(r, "beta1", 0.9);
  a->beta2 = (float)ic_ar_float(r, "beta2", 0.999);
  a->epsilon = (float)ic_ar_float(r, "epsilon", 1e-8);
  a->multi_precision = ic_ar_bool(r, "multi_precision", false);
  return r->st;
}

static const int k_like[] = {IN_PARAM, IN_B1P, IN_B2P, IN_RHO, IN_M1, IN_M2};

static ic_status infer(ic_kctx *c) {
  const radam_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT_FLOAT))) return st;
  if (ic_in(c, IN_MASTER, 0) || a->multi_precision) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "multi_precision (master_param) is not supported");
  }
  if ((st = ic_train_same(c, IN_GRAD, 0, IN_PARAM)) || (st = ic_train_same(c, IN_M1, 0, IN_PARAM)) ||
      (st = ic_train_same(c, IN_M2, 0, IN_PARAM)) || (st = ic_train_scalar(c, IN_LR, p->dtype)) ||
      (st = ic_train_same(c, IN_B1P, 0, IN_PARAM)) || (st = ic_train_same(c, IN_B2P, 0, IN_PARAM)) ||
      (st = ic_train_same(c, IN_RHO, 0, IN_PARAM))) {
    return st;
  }
  for (int k = OUT_PARAM; k <= OUT_M2; k++) {
    const ic_tensor *i = ic_in(c, k_like[k], 0);
    ic_tensor_set_meta(ic_out(c, k, 0), i->dtype, i->ndim, i->dims);
  }
  return IC_OK;
}

#define STEP(T, SQRT)                                                                      \
  do {                                                                                     \
    const T b1 = (T)a->beta1, b2 = (T)a->beta2, eps = (T)a->epsilon, one = 1, two = 2;     \
    const T rho_inf = two / (one - b2) - one, lr = *(const T *)ic_in(c, IN_LR, 0)->data;   \
    const T *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, 0)->data,             \
                      *restrict m1 = ic_in(c, IN_M1, 0)->data,                             \
                      *restrict m2 = ic_in(c, IN_M2, 0)->data,                             \
                      *restrict b1i = ic_in(c, IN_B1P, 0)->data,                           \
                      *restrict b2i = ic_in(c, IN_B2P, 0)->data,                           \
                      *restrict rhi = ic_in(c, IN_RHO, 0)->data;                           \
    T *restrict po = ic_out(c, OUT_PARAM, 0)->data, *restrict m1o = ic_out(c, OUT_M1, 0)->data, \
      *restrict m2o = ic_out(c, OUT_M2, 0)->data, *restrict b1o = ic_out(c, OUT_B1P, 0)->data, \
      *restrict b2o = ic_out(c, OUT_B2P, 0)->data, *restrict rho = ic_out(c, OUT_RHO, 0)->data; \
    for (int64_t i = 0; i < n; i++) {                                                      \
      b1o[i] = b1i[i] * b1;                                                                \
      b2o[i] = b2i[i] * b2;                                                                \
      rho[i] = (rhi[i] * (b2 - b2o[i]) + b2o[i]) / (one - b2o[i]);                         \
    }                                                                                      \
    /* phi takes rho_t from the first element */                                           \
    const T rho_t = rho_inf - two * rho[0];                                                \
    const bool rect = rho_t > (T)5;                                                        \
    const T r_t = rect ? SQRT(((rho_t - (T)4) * (rho_t - two) * rho_inf) /                 \
                              ((rho_inf - (T)4) * (rho_inf - two) * rho_t))                \
                       : one;                                                              \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T g = gp[i], v1 = b1 * m1[i] + (one - b1) * g, v2 = b2 * m2[i] + (one - b2) * g * g; \
      m1o[i] = v1;                                                                         \
      m2o[i] = v2;                                                                         \
      T h1 = v1 / (one - b1o[i]);                                                          \
      if (rect) {                                                                          \
        T l_t = SQRT(one - b2o[i]) / (SQRT(v2) + eps);                                     \
        po[i] = pp[i] - lr * h1 * r_t * l_t;                                               \
      } else {                                                                             \
        po[i] = pp[i] - lr * h1;                                                           \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const radam_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  for (int k = OUT_PARAM; k <= OUT_M2; k++) {
    ic_status st = ic_train_own(c, ic_out(c, k, 0), ic_in(c, k_like[k], 0));
    if (st) return st;
  }
  int64_t n = ic_tensor_numel_(p);
  if (p->dtype == IC_FP32) STEP(float, sqrtf);
  else STEP(double, sqrt);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"param", 0},     {"grad", 0}, {"learning_rate", 0}, {"beta1_pow", 0}, {"beta2_pow", 0},
    {"rho", 0},       {"moment1", 0}, {"moment2", 0},    {"master_param", IC_SLOT_OPTIONAL},
};
static const ic_slotdef outputs[] = {
    {"param_out", IC_SLOT_SHARE},     {"beta1_pow_out", IC_SLOT_SHARE},
    {"beta2_pow_out", IC_SLOT_SHARE}, {"rho_out", IC_SLOT_SHARE},
    {"moment1_out", IC_SLOT_SHARE},   {"moment2_out", IC_SLOT_SHARE},
    {"master_param_out", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
};

const ic_opdef ic_op_radam = {
    .name = "radam",
    .n_inputs = 9, .inputs = inputs,
    .n_outputs = 7, .outputs = outputs,
    .attrs_size = sizeof(radam_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
