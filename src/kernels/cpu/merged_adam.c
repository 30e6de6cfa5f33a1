/* merged_adam: the Adam steps of several parameters in one op (phi MergedAdamKernel, CPU),
 * what paddle.optimizer.Adam(use_multi_tensor=True) writes: slot k of Param, Grad,
 * LearningRate, Moment1, Moment2 (Moment2Max), Beta1Pow and Beta2Pow belong together, and each
 * parameter takes adam.c's step in its own dtype (phi's CPUAdam functor):
 *   Moment1Out = beta1 Moment1 + (1 - beta1) Grad,  Moment2Out = beta2 Moment2 + (1 - beta2) Grad^2
 *   lr = LearningRate * (sqrt(1 - Beta2Pow) / (1 - Beta1Pow))
 *   ParamOut = Param - lr (Moment1Out / (sqrt(M2) + epsilon sqrt(1 - Beta2Pow)))
 * where M2 is Moment2Out, or with amsgrad Moment2MaxOut = max(Moment2Max, Moment2Out). Unless
 * use_global_beta_pow, Beta1PowOut = beta1 Beta1Pow and Beta2PowOut = beta2 Beta2Pow.
 * Defaults beta1 0.9, beta2 0.999, epsilon 1e-8. Every *Out[k] updates its input [k] in place
 * (ic_merged_adam_inplace, train.h). multi_precision (MasterParam) is not supported: Paddle
 * uses it only for float16 / bfloat16 parameters. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/train.h"

typedef struct merged_adam_attrs {
  float beta1, beta2, epsilon;
  bool multi_precision, use_global_beta_pow, amsgrad;
} merged_adam_attrs;

enum { IN_PARAM, IN_GRAD, IN_LR, IN_M1, IN_M2, IN_M2MAX, IN_B1POW, IN_B2POW, IN_MASTER };
enum { OUT_PARAM, OUT_M1, OUT_M2, OUT_M2MAX, OUT_B1POW, OUT_B2POW, OUT_MASTER };

const ic_train_inplace ic_merged_adam_inplace[] = {
    {"ParamOut", "Param"},           {"Moment1Out", "Moment1"},   {"Moment2Out", "Moment2"},
    {"Moment2MaxOut", "Moment2Max"}, {"Beta1PowOut", "Beta1Pow"}, {"Beta2PowOut", "Beta2Pow"},
    {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  merged_adam_attrs *a = attrs;
  a->beta1 = (float)ic_ar_float(r, "beta1", 0.9);
  a->beta2 = (float)ic_ar_float(r, "beta2", 0.999);
  a->epsilon = (float)ic_ar_float(r, "epsilon", 1e-8);
  a->multi_precision = ic_ar_bool(r, "multi_precision", false);
  a->use_global_beta_pow = ic_ar_bool(r, "use_global_beta_pow", false);
  a->amsgrad = ic_ar_bool(r, "amsgrad", false);
  return r->st;
}

/* The input slot each output slot updates. */
static const int k_like[] = {IN_PARAM, IN_M1, IN_M2, IN_M2MAX, IN_B1POW, IN_B2POW};

static ic_status infer(ic_kctx *c) {
  const merged_adam_attrs *a = c->attrs;
  const size_t n = c->in[IN_PARAM].n;
  ic_status st;
  if (ic_in(c, IN_MASTER, 0) || a->multi_precision) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "multi_precision (MasterParam) is not supported");
  }
  if (a->amsgrad && c->in[IN_M2MAX].n == 0) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "attribute amsgrad is set but input Moment2Max "
                    "is absent");
  }
  for (int s = IN_GRAD; s <= IN_B2POW; s++) {
    if (s == IN_M2MAX && !a->amsgrad) continue;
    if (c->in[s].n != n) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "input %s lists %zu variables, expected one "
                      "per Param (%zu)", c->def->inputs[s].name, c->in[s].n, n);
    }
  }
  for (size_t k = 0; k < n; k++) {
    const ic_tensor *p = ic_in(c, IN_PARAM, k);
    if ((st = ic_kcheck_dtype(c, IN_PARAM, k, IC_DT_FLOAT))) return st;
    for (int s = IN_GRAD; s <= IN_B2POW; s++) {
      if (s == IN_M2MAX && !a->amsgrad) continue;
      const ic_tensor *t = ic_in(c, s, k);
      char d[128];
      if (s == IN_LR || s == IN_B1POW || s == IN_B2POW) {
        if (t->dtype != p->dtype || ic_tensor_numel_(t) != 1) {
          return ic_kfail_in(c, s, k, "expected one %s value", ic_dtype_name(p->dtype));
        }
      } else if (t->dtype != p->dtype || !ic_dims_equal(t->ndim, t->dims, p->ndim, p->dims)) {
        return ic_kfail_in(c, s, k, "expected %s like input Param '%s'",
                           ic_tensor_describe(p, d, sizeof d), ic_in_name(c, IN_PARAM, k));
      }
    }
  }
  for (int o = OUT_PARAM; o <= OUT_B2POW; o++) {
    if (o == OUT_M2MAX && !a->amsgrad) continue;
    bool required = o <= OUT_M2 || o == OUT_M2MAX || !a->use_global_beta_pow;
    if ((required || c->out[o].n) && c->out[o].n != n) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "output %s lists %zu variables, expected one "
                      "per Param (%zu)", c->def->outputs[o].name, c->out[o].n, n);
    }
  }
  for (size_t k = 0; k < n; k++) {
    for (int o = OUT_PARAM; o <= OUT_B2POW; o++) {
      ic_tensor *t = ic_out(c, o, k);
      const ic_tensor *i = ic_in(c, k_like[o], k);
      if (t && i) ic_tensor_set_meta(t, i->dtype, i->ndim, i->dims);
    }
  }
  return IC_OK;
}

#define STEP(T, SQRT)                                                                      \
  do {                                                                                     \
    const T b1 = (T)a->beta1, b2 = (T)a->beta2, eps = (T)a->epsilon;                       \
    const T b1p = *(const T *)ic_in(c, IN_B1POW, k)->data,                                 \
            b2p = *(const T *)ic_in(c, IN_B2POW, k)->data;                                 \
    const T lr = *(const T *)ic_in(c, IN_LR, k)->data * (SQRT((T)1 - b2p) / ((T)1 - b1p)); \
    const T epst = eps * SQRT((T)1 - b2p);                                                 \
    const T *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, k)->data,             \
                      *restrict m1 = ic_in(c, IN_M1, k)->data,                             \
                      *restrict m2 = ic_in(c, IN_M2, k)->data;                             \
    const T *restrict mx = a->amsgrad ? ic_in(c, IN_M2MAX, k)->data : NULL;                \
    T *restrict po = ic_out(c, OUT_PARAM, k)->data, *restrict m1o = ic_out(c, OUT_M1, k)->data, \
      *restrict m2o = ic_out(c, OUT_M2, k)->data;                                          \
    T *restrict mxo = a->amsgrad ? ic_out(c, OUT_M2MAX, k)->data : NULL;                   \
    for (int64_t i = 0; i < m; i++) {                                                      \
      T g = gp[i], v1 = b1 * m1[i] + ((T)1 - b1) * g, v2 = b2 * m2[i] + ((T)1 - b2) * g * g; \
      m1o[i] = v1;                                                                         \
      m2o[i] = v2;                                                                         \
      if (mx) {                                                                            \
        v2 = mx[i] > v2 ? mx[i] : v2;                                                      \
        mxo[i] = v2;                                                                       \
      }                                                                                    \
      po[i] = pp[i] - lr * (v1 / (SQRT(v2) + epst));                                       \
    }                                                                                      \
    if (!a->use_global_beta_pow) {                                                         \
      *(T *)ic_out(c, OUT_B1POW, k)->data = b1 * b1p;                                      \
      *(T *)ic_out(c, OUT_B2POW, k)->data = b2 * b2p;                                      \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const merged_adam_attrs *a = c->attrs;
  const size_t n = c->in[IN_PARAM].n;
  for (size_t k = 0; k < n; k++) {
    for (int o = OUT_PARAM; o <= OUT_B2POW; o++) {
      ic_tensor *t = ic_out(c, o, k);
      const ic_tensor *i = ic_in(c, k_like[o], k);
      if (!t || !i) continue;
      if (o == OUT_M2MAX && !a->amsgrad) continue;
      if ((o == OUT_B1POW || o == OUT_B2POW) && a->use_global_beta_pow) {
        if (t != i) ic_tensor_share(t, i); /* the powers stay as they are */
        continue;
      }
      ic_status st = ic_train_own(c, t, i);
      if (st) return st;
    }
    const ic_tensor *p = ic_in(c, IN_PARAM, k);
    const int64_t m = ic_tensor_numel_(p);
    if (p->dtype == IC_FP32) STEP(float, sqrtf);
    else STEP(double, sqrt);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Param", IC_SLOT_MULTI},
    {"Grad", IC_SLOT_MULTI},
    {"LearningRate", IC_SLOT_MULTI},
    {"Moment1", IC_SLOT_MULTI},
    {"Moment2", IC_SLOT_MULTI},
    {"Moment2Max", IC_SLOT_OPTIONAL | IC_SLOT_MULTI},
    {"Beta1Pow", IC_SLOT_MULTI},
    {"Beta2Pow", IC_SLOT_MULTI},
    {"MasterParam", IC_SLOT_OPTIONAL | IC_SLOT_MULTI},
};
static const ic_slotdef outputs[] = {
    {"ParamOut", IC_SLOT_SHARE | IC_SLOT_MULTI},
    {"Moment1Out", IC_SLOT_SHARE | IC_SLOT_MULTI},
    {"Moment2Out", IC_SLOT_SHARE | IC_SLOT_MULTI},
    {"Moment2MaxOut", IC_SLOT_OPTIONAL | IC_SLOT_SHARE | IC_SLOT_MULTI},
    {"Beta1PowOut", IC_SLOT_OPTIONAL | IC_SLOT_SHARE | IC_SLOT_MULTI},
    {"Beta2PowOut", IC_SLOT_OPTIONAL | IC_SLOT_SHARE | IC_SLOT_MULTI},
    {"MasterParamOut", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER | IC_SLOT_MULTI},
};

const ic_opdef ic_op_merged_adam = {
    .name = "merged_adam",
    .n_inputs = 9, .inputs = inputs,
    .n_outputs = 7, .outputs = outputs,
    .attrs_size = sizeof(merged_adam_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
