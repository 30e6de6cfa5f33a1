/* nadam: one NAdam step (phi NAdamKernel, CPU), in param's dtype. momentum_decay_pow,
 * beta2_pow and mu_product have param's dims (paddle.optimizer.NAdam's accumulators, every
 * element alike; Paddle's kernel computes them element by element). Per element:
 *   momentum_decay_pow_out = 0.96 momentum_decay_pow,  beta2_pow_out = beta2 beta2_pow
 *   mu_t   = beta1 (1 - 0.5 momentum_decay_pow_out^momentum_decay)
 *   mu_t1  = beta1 (1 - 0.5 momentum_decay_pow_out^momentum_decay 0.96^momentum_decay)
 *   mu_product_out = mu_product mu_t,  mu_product_t1 = mu_product_out mu_t1
 *   moment1_out = beta1 moment1 + (1 - beta1) grad,  moment2_out = beta2 moment2 + (1 - beta2) grad^2
 *   m1_hat = mu_t1 moment1_out / (1 - mu_product_t1) + (1 - mu_t) grad / (1 - mu_product_out)
 *   m2_hat = moment2_out / (1 - beta2_pow_out)
 *   param_out = param - learning_rate m1_hat / (sqrt(m2_hat) + epsilon)
 * Defaults beta1 0.9, beta2 0.999, epsilon 1e-8, momentum_decay 0.004. Every *_out updates its
 * input in place (ic_nadam_inplace, train.h). multi_precision (master_param) is not
 * supported: Paddle uses it only for float16 / bfloat16 parameters. */
#include <math.h>

#include "kernels/cpu/train.h"

typedef struct nadam_attrs {
  float beta1, beta2, epsilon, momentum_decay;
  bool multi_precision;
} nadam_attrs;

enum { IN_PARAM, IN_GRAD, IN_LR, IN_MDP, IN_B2P, IN_MUP, IN_M1, IN_M2, IN_MASTER };
enum { OUT_PARAM, OUT_MDP, OUT_B2P, OUT_MUP, OUT_M1, OUT_M2, OUT_MASTER };

const ic_train_inplace ic_nadam_inplace[] = {{"param_out", "param"},
                                             {"momentum_decay_pow_out", "momentum_decay_pow"},
                                             {"beta2_pow_out", "beta2_pow"},
                                             {"mu_product_out", "mu_product"},
                                             {"moment1_out", "moment1"},
                                             {"moment2_out", "moment2"},
                                             {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  nadam_attrs *a = attrs;
  a->beta1 = (float)ic_ar_float(r, "beta1", 0.9);
  a->beta2 = (float)ic_ar_float(r, "beta2", 0.999);
  a->epsilon = (float)ic_ar_float(r, "epsilon", 1e-8);
  a->momentum_decay = (float)ic_ar_float(r, "momentum_decay", 0.004);
  a->multi_precision = ic_ar_bool(r, "multi_precision", false);
  return r->st;
}

static const int k_like[] = {IN_PARAM, IN_MDP, IN_B2P, IN_MUP, IN_M1, IN_M2};

static ic_status infer(ic_kctx *c) {
  const nadam_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT_FLOAT))) return st;
  if (ic_in(c, IN_MASTER, 0) || a->multi_precision) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "multi_precision (master_param) is not supported");
  }
  if ((st = ic_train_same(c, IN_GRAD, 0, IN_PARAM)) || (st = ic_train_same(c, IN_M1, 0, IN_PARAM)) ||
      (st = ic_train_same(c, IN_M2, 0, IN_PARAM)) || (st = ic_train_scalar(c, IN_LR, p->dtype)) ||
      (st = ic_train_same(c, IN_MDP, 0, IN_PARAM)) || (st = ic_train_same(c, IN_B2P, 0, IN_PARAM)) ||
      (st = ic_train_same(c, IN_MUP, 0, IN_PARAM))) {
    return st;
  }
  for (int k = OUT_PARAM; k <= OUT_M2; k++) {
    const ic_tensor *i = ic_in(c, k_like[k], 0);
    ic_tensor_set_meta(ic_out(c, k, 0), i->dtype, i->ndim, i->dims);
  }
  return IC_OK;
}

#define STEP(T, SQRT, POW)                                                                 \
  do {                                                                                     \
    const T b1 = (T)a->beta1, b2 = (T)a->beta2, eps = (T)a->epsilon,                       \
            md = (T)a->momentum_decay, c96 = (T)0.96, half = (T)0.5, one = 1;              \
    const T c96md = POW(c96, md), lr = *(const T *)ic_in(c, IN_LR, 0)->data;               \
    const T *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, 0)->data,             \
                      *restrict m1 = ic_in(c, IN_M1, 0)->data,                             \
                      *restrict m2 = ic_in(c, IN_M2, 0)->data,                             \
                      *restrict dp = ic_in(c, IN_MDP, 0)->data,                            \
                      *restrict bp = ic_in(c, IN_B2P, 0)->data,                            \
                      *restrict up = ic_in(c, IN_MUP, 0)->data;                            \
    T *restrict po = ic_out(c, OUT_PARAM, 0)->data, *restrict m1o = ic_out(c, OUT_M1, 0)->data, \
      *restrict m2o = ic_out(c, OUT_M2, 0)->data, *restrict dpo = ic_out(c, OUT_MDP, 0)->data, \
      *restrict bpo = ic_out(c, OUT_B2P, 0)->data, *restrict upo = ic_out(c, OUT_MUP, 0)->data; \
    for (int64_t i = 0; i < n; i++) {                                                      \
      const T mdp = dp[i] * c96, b2p = bp[i] * b2, pw = POW(mdp, md);                      \
      const T mu_t = b1 * (one - half * pw), mu_t1 = b1 * (one - half * pw * c96md);       \
      const T mup = up[i] * mu_t, mup1 = mup * mu_t1;                                      \
      T g = gp[i], v1 = b1 * m1[i] + (one - b1) * g, v2 = b2 * m2[i] + (one - b2) * g * g; \
      dpo[i] = mdp;                                                                        \
      bpo[i] = b2p;                                                                        \
      upo[i] = mup;                                                                        \
      m1o[i] = v1;                                                                         \
      m2o[i] = v2;                                                                         \
      T h1 = mu_t1 * v1 / (one - mup1) + (one - mu_t) * g / (one - mup);                   \
      T h2 = v2 / (one - b2p);                                                             \
      po[i] = pp[i] - lr * h1 / (SQRT(h2) + eps);                                          \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const nadam_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  for (int k = OUT_PARAM; k <= OUT_M2; k++) {
    ic_status st = ic_train_own(c, ic_out(c, k, 0), ic_in(c, k_like[k], 0));
    if (st) return st;
  }
  int64_t n = ic_tensor_numel_(p);
  if (p->dtype == IC_FP32) STEP(float, sqrtf, powf);
  else STEP(double, sqrt, pow);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"param", 0},      {"grad", 0},    {"learning_rate", 0}, {"momentum_decay_pow", 0},
    {"beta2_pow", 0},  {"mu_product", 0}, {"moment1", 0},    {"moment2", 0},
    {"master_param", IC_SLOT_OPTIONAL},
};
static const ic_slotdef outputs[] = {
    {"param_out", IC_SLOT_SHARE},
    {"momentum_decay_pow_out", IC_SLOT_SHARE},
    {"beta2_pow_out", IC_SLOT_SHARE},
    {"mu_product_out", IC_SLOT_SHARE},
    {"moment1_out", IC_SLOT_SHARE},
    {"moment2_out", IC_SLOT_SHARE},
    {"master_param_out", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
};

const ic_opdef ic_op_nadam = {
    .name = "nadam",
    .n_inputs = 9, .inputs = inputs,
    .n_outputs = 7, .outputs = outputs,
    .attrs_size = sizeof(nadam_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
