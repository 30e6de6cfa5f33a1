/* adam: one Adam step (phi AdamDenseKernel, CPU), in Param's dtype:
 *   Moment1Out = beta1 Moment1 + (1 - beta1) Grad
 *   Moment2Out = beta2 Moment2 + (1 - beta2) Grad^2
 *   lr  = LearningRate * (sqrt(1 - Beta2Pow) / (1 - Beta1Pow)),  eps = epsilon sqrt(1 - Beta2Pow)
 *   ParamOut = Param + (-lr) (Moment1Out / (sqrt(M2) + eps))
 * where M2 is Moment2Out, or with `amsgrad` Moment2MaxOut = max(Moment2Max, Moment2Out).
 * Unless use_global_beta_pow, Beta1PowOut = beta1 Beta1Pow and Beta2PowOut = beta2 Beta2Pow
 * (computed from the old powers, which the step uses). beta1, beta2 and epsilon come from
 * Beta1Tensor / Beta2Tensor / EpsilonTensor when given, else from the attributes (defaults
 * 0.9, 0.999, 1e-8). SkipUpdate, when given and true, copies every input to its output.
 * Every *Out updates its input in place (ic_adam_inplace, train.h). adamw.c shares this code. A Grad declared
 * SelectedRows (an embedding with is_sparse) takes Paddle's sparse CPU update instead
 * (SPARSE_STEP, ic_adam_resolve); multi_precision (MasterParam) is not supported. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/train.h"


enum {
  IN_PARAM, IN_GRAD, IN_LR, IN_M1, IN_M2, IN_M2MAX, IN_B1POW, IN_B2POW, IN_MASTER, IN_SKIP,
  IN_B1T, IN_B2T, IN_EPST
};
enum { OUT_PARAM, OUT_M1, OUT_M2, OUT_M2MAX, OUT_B1POW, OUT_B2POW, OUT_MASTER };

const ic_train_inplace ic_adam_inplace[] = {
    {"ParamOut", "Param"},         {"Moment1Out", "Moment1"},   {"Moment2Out", "Moment2"},
    {"Moment2MaxOut", "Moment2Max"}, {"Beta1PowOut", "Beta1Pow"}, {"Beta2PowOut", "Beta2Pow"},
    {NULL, NULL}};

ic_status ic_adam_parse(ic_attr_reader *r, void *attrs) {
  ic_adam_attrs *a = attrs;
  a->beta1 = (float)ic_ar_float(r, "beta1", 0.9);
  a->beta2 = (float)ic_ar_float(r, "beta2", 0.999);
  a->epsilon = (float)ic_ar_float(r, "epsilon", 1e-8);
  a->multi_precision = ic_ar_bool(r, "multi_precision", false);
  a->use_global_beta_pow = ic_ar_bool(r, "use_global_beta_pow", false);
  a->amsgrad = ic_ar_bool(r, "amsgrad", false);
  a->lr_ratio = 1.0f;
  return r->st;
}

ic_status ic_adam_infer(ic_kctx *c) {
  const ic_adam_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT_FLOAT))) return st;
  if (ic_in(c, IN_MASTER, 0) || a->multi_precision) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "multi_precision (MasterParam) is not supported");
  }
  if (a->amsgrad && !ic_in(c, IN_M2MAX, 0)) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "attribute amsgrad is set but input Moment2Max "
                    "is absent");
  }
  if ((st = ic_train_same(c, IN_GRAD, 0, IN_PARAM)) || (st = ic_train_same(c, IN_M1, 0, IN_PARAM)) ||
      (st = ic_train_same(c, IN_M2, 0, IN_PARAM)) ||
      (a->amsgrad && (st = ic_train_same(c, IN_M2MAX, 0, IN_PARAM))) ||
      (st = ic_train_scalar(c, IN_LR, p->dtype)) || (st = ic_train_scalar(c, IN_B1POW, p->dtype)) ||
      (st = ic_train_scalar(c, IN_B2POW, p->dtype)) || (st = ic_train_scalar(c, IN_B1T, p->dtype)) ||
      (st = ic_train_scalar(c, IN_B2T, p->dtype)) || (st = ic_train_scalar(c, IN_EPST, p->dtype))) {
    return st;
  }
  const ic_tensor *skip = ic_in(c, IN_SKIP, 0);
  if (skip && (skip->dtype != IC_BOOL || ic_tensor_numel_(skip) != 1)) {
    return ic_kfail_in(c, IN_SKIP, 0, "expected one bool value");
  }
  static const int like[] = {IN_PARAM, IN_M1, IN_M2, IN_M2MAX, IN_B1POW, IN_B2POW};
  for (int k = OUT_PARAM; k <= OUT_B2POW; k++) {
    ic_tensor *o = ic_out(c, k, 0);
    const ic_tensor *i = ic_in(c, like[k], 0);
    if (o && i) ic_tensor_set_meta(o, i->dtype, i->ndim, i->dims);
  }
  return IC_OK;
}

static double scalar(const ic_tensor *t) {
  return t->dtype == IC_FP32 ? *(const float *)t->data : *(const double *)t->data;
}

#define STEP(T, SQRT)                                                                      \
  do {                                                                                     \
    const T b1 = (T)beta1, b2 = (T)beta2, b1p = (T)scalar(ic_in(c, IN_B1POW, 0)),          \
            b2p = (T)scalar(ic_in(c, IN_B2POW, 0));                                        \
    const T lr = (T)scalar(ic_in(c, IN_LR, 0)) * (SQRT(1 - b2p) / (1 - b1p));              \
    const T eps = (T)epsilon * SQRT(1 - b2p), nlr = -lr * (T)a->lr_ratio;                  \
    const T decay = (T)scalar(ic_in(c, IN_LR, 0)) * (T)a->lr_ratio * (T)a->coeff;         \
    const T *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, 0)->data,             \
                      *restrict m1 = ic_in(c, IN_M1, 0)->data,                             \
                      *restrict m2 = ic_in(c, IN_M2, 0)->data;                             \
    const T *restrict mx = a->amsgrad ? ic_in(c, IN_M2MAX, 0)->data : NULL;                \
    T *restrict po = ic_out(c, OUT_PARAM, 0)->data, *restrict m1o = ic_out(c, OUT_M1, 0)->data, \
      *restrict m2o = ic_out(c, OUT_M2, 0)->data;                                          \
    T *restrict mxo = a->amsgrad && ic_out(c, OUT_M2MAX, 0) ? ic_out(c, OUT_M2MAX, 0)->data \
                                                           : NULL;                         \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T g = gp[i];                                                                         \
      T v1 = b1 * m1[i] + (1 - b1) * g;                                                    \
      T v2 = b2 * m2[i] + (1 - b2) * g * g;                                                \
      m1o[i] = v1;                                                                         \
      m2o[i] = v2;                                                                         \
      if (mx) {                                                                            \
        v2 = mx[i] > v2 ? mx[i] : v2;                                                      \
        if (mxo) mxo[i] = v2;                                                              \
      }                                                                                    \
      T pv = a->with_decay ? pp[i] - decay * pp[i] : pp[i];                                \
      po[i] = pv + nlr * (v1 / (SQRT(v2) + eps));                                          \
    }                                                                                      \
    if (!a->use_global_beta_pow) {                                                         \
      if (ic_out(c, OUT_B1POW, 0)) *(T *)ic_out(c, OUT_B1POW, 0)->data = b1 * b1p;         \
      if (ic_out(c, OUT_B2POW, 0)) *(T *)ic_out(c, OUT_B2POW, 0)->data = b2 * b2p;         \
    }                                                                                      \
  } while (0)

/* The update of Paddle's CPU Adam for a SelectedRows Grad (phi SparseAdamFunctor<T, CPUAdam>):
 * a row the gradient holds takes the dense step; a row it does not hold, lazy_mode false,
 * decays its moments and moves by them with epsilon itself, not epsilon sqrt(1 - Beta2Pow),
 * and with lazy_mode keeps its parameter and moments as they are.
 * icore's gradient of an is_sparse embedding is dense: a row that is all zeros is taken as
 * one the gradient does not hold (a looked-up row whose gradient sums to exactly 0 would be
 * held in Paddle's: with its moments at 0, as a padding row's, both give the same). */
#define SPARSE_STEP(T, SQRT)                                                               \
  do {                                                                                     \
    const T b1 = (T)beta1, b2 = (T)beta2, b1p = (T)scalar(ic_in(c, IN_B1POW, 0)),          \
            b2p = (T)scalar(ic_in(c, IN_B2POW, 0));                                        \
    const T u1 = pow_after ? b1 * b1p : b1p, u2 = pow_after ? b2 * b2p : b2p;              \
    const T lr = (T)scalar(ic_in(c, IN_LR, 0)) * (SQRT(1 - u2) / (1 - u1));                \
    const T e = (T)epsilon, eps = e * SQRT(1 - u2), nlr = -lr;                             \
    const T *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, 0)->data,             \
                      *restrict m1 = ic_in(c, IN_M1, 0)->data,                             \
                      *restrict m2 = ic_in(c, IN_M2, 0)->data;                             \
    T *restrict po = ic_out(c, OUT_PARAM, 0)->data, *restrict m1o = ic_out(c, OUT_M1, 0)->data, \
      *restrict m2o = ic_out(c, OUT_M2, 0)->data;                                          \
    for (int64_t r = 0; r < rows; r++) {                                                   \
      const int64_t o = r * width;                                                         \
      bool held = false;                                                                   \
      for (int64_t k = 0; k < width && !held; k++) held = gp[o + k] != 0;                  \
      if (!held && lazy) {                                                                 \
        for (int64_t i = o; i < o + width; i++) {                                          \
          m1o[i] = m1[i];                                                                  \
          m2o[i] = m2[i];                                                                  \
          po[i] = pp[i];                                                                   \
        }                                                                                  \
        continue;                                                                          \
      }                                                                                    \
      for (int64_t i = o; i < o + width; i++) {                                            \
        const T g = gp[i];                                                                 \
        const T v1 = held ? b1 * m1[i] + (1 - b1) * g : b1 * m1[i];                        \
        const T v2 = held ? b2 * m2[i] + (1 - b2) * g * g : b2 * m2[i];                    \
        m1o[i] = v1;                                                                       \
        m2o[i] = v2;                                                                       \
        po[i] = pp[i] + nlr * (v1 / (SQRT(v2) + (held ? eps : e)));                        \
      }                                                                                    \
    }                                                                                      \
    if (!a->use_global_beta_pow) {                                                         \
      if (ic_out(c, OUT_B1POW, 0)) *(T *)ic_out(c, OUT_B1POW, 0)->data = b1 * b1p;         \
      if (ic_out(c, OUT_B2POW, 0)) *(T *)ic_out(c, OUT_B2POW, 0)->data = b2 * b2p;         \
    }                                                                                      \
  } while (0)

/* sparse: SPARSE_STEP (lazy: its lazy_mode); pow_after: with the beta powers already
 * advanced (see ic_adam_resolve, which decides all three from the program). */
static ic_status run_common(ic_kctx *c, bool sparse, bool lazy, bool pow_after);

ic_status ic_adam_run(ic_kctx *c) { return run_common(c, false, false, false); }
static ic_status run_sparse(ic_kctx *c) { return run_common(c, true, false, false); }
static ic_status run_sparse_after(ic_kctx *c) { return run_common(c, true, false, true); }
static ic_status run_lazy(ic_kctx *c) { return run_common(c, true, true, false); }
static ic_status run_lazy_after(ic_kctx *c) { return run_common(c, true, true, true); }

static ic_status run_common(ic_kctx *c, bool sparse, bool lazy, bool pow_after) {
  const ic_adam_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  static const int like[] = {IN_PARAM, IN_M1, IN_M2, IN_M2MAX, IN_B1POW, IN_B2POW};
  const ic_tensor *skip = ic_in(c, IN_SKIP, 0);
  const bool skipping = skip && *(const bool *)skip->data;
  for (int k = OUT_PARAM; k <= OUT_B2POW; k++) {
    ic_tensor *o = ic_out(c, k, 0);
    const ic_tensor *i = ic_in(c, like[k], 0);
    if (!o || !i) continue;
    if (k == OUT_M2MAX && !a->amsgrad && !skipping) continue;
    /* use_global_beta_pow: the powers stay as they are (the output keeps the input's buffer) */
    if ((k == OUT_B1POW || k == OUT_B2POW) && a->use_global_beta_pow && !skipping) {
      if (o != i) ic_tensor_share(o, i);
      continue;
    }
    ic_status st = ic_train_own(c, o, i);
    if (st) return st;
    if (skipping) memcpy(o->data, i->data, ic_tensor_nbytes(i));
  }
  if (skipping) return IC_OK;
  double beta1 = ic_in(c, IN_B1T, 0) ? scalar(ic_in(c, IN_B1T, 0)) : a->beta1;
  double beta2 = ic_in(c, IN_B2T, 0) ? scalar(ic_in(c, IN_B2T, 0)) : a->beta2;
  double epsilon = ic_in(c, IN_EPST, 0) ? scalar(ic_in(c, IN_EPST, 0)) : a->epsilon;
  int64_t n = ic_tensor_numel_(p);
  if (sparse) {
    const int64_t rows = p->ndim ? p->dims[0] : 1, width = rows ? n / rows : 0;
    if (p->dtype == IC_FP32) SPARSE_STEP(float, sqrtf);
    else SPARSE_STEP(double, sqrt);
    return IC_OK;
  }
  if (p->dtype == IC_FP32) STEP(float, sqrtf);
  else STEP(double, sqrt);
  return IC_OK;
}

const ic_slotdef ic_adam_inputs[13] = {
    {"Param", 0},
    {"Grad", 0},
    {"LearningRate", 0},
    {"Moment1", 0},
    {"Moment2", 0},
    {"Moment2Max", IC_SLOT_OPTIONAL},
    {"Beta1Pow", 0},
    {"Beta2Pow", 0},
    {"MasterParam", IC_SLOT_OPTIONAL},
    {"SkipUpdate", IC_SLOT_OPTIONAL},
    {"Beta1Tensor", IC_SLOT_OPTIONAL},
    {"Beta2Tensor", IC_SLOT_OPTIONAL},
    {"EpsilonTensor", IC_SLOT_OPTIONAL},
};
const ic_slotdef ic_adam_outputs[7] = {
    {"ParamOut", IC_SLOT_SHARE},
    {"Moment1Out", IC_SLOT_SHARE},
    {"Moment2Out", IC_SLOT_SHARE},
    {"Moment2MaxOut", IC_SLOT_OPTIONAL | IC_SLOT_SHARE},
    {"Beta1PowOut", IC_SLOT_OPTIONAL | IC_SLOT_SHARE},
    {"Beta2PowOut", IC_SLOT_OPTIONAL | IC_SLOT_SHARE},
    {"MasterParamOut", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
};

/* adam over an embedding's SelectedRows Grad (is_sparse; icore's gradient holds the same
 * values dense): SPARSE_STEP's rows, with the powers as read or already advanced. */
static const ic_opdef adam_sparse = {
    .name = "adam",
    .n_inputs = 13, .inputs = ic_adam_inputs,
    .n_outputs = 7, .outputs = ic_adam_outputs,
    .attrs_size = sizeof(ic_adam_attrs), .parse = ic_adam_parse,
    .infer = ic_adam_infer, .cpu = run_sparse,
};
static const ic_opdef adam_sparse_after = {
    .name = "adam",
    .n_inputs = 13, .inputs = ic_adam_inputs,
    .n_outputs = 7, .outputs = ic_adam_outputs,
    .attrs_size = sizeof(ic_adam_attrs), .parse = ic_adam_parse,
    .infer = ic_adam_infer, .cpu = run_sparse_after,
};
/* the same with lazy_mode: only the rows the gradient holds move */
static const ic_opdef adam_lazy = {
    .name = "adam",
    .n_inputs = 13, .inputs = ic_adam_inputs,
    .n_outputs = 7, .outputs = ic_adam_outputs,
    .attrs_size = sizeof(ic_adam_attrs), .parse = ic_adam_parse,
    .infer = ic_adam_infer, .cpu = run_lazy,
};
static const ic_opdef adam_lazy_after = {
    .name = "adam",
    .n_inputs = 13, .inputs = ic_adam_inputs,
    .n_outputs = 7, .outputs = ic_adam_outputs,
    .attrs_size = sizeof(ic_adam_attrs), .parse = ic_adam_parse,
    .infer = ic_adam_infer, .cpu = run_lazy_after,
};

/* Whether op's output slot `out` names exactly the variable of its input slot `in`. */
static bool same_var(const ic_op *op, const char *out, const char *in) {
  const ic_slot *o = ic_op_output(op, out), *i = ic_op_input(op, in);
  return o && i && o->n == 1 && i->n == 1 && !strcmp(o->args[0], i->args[0]);
}

/* A Grad declared SelectedRows (an embedding with is_sparse) takes Paddle's sparse update
 * (adam_sparse, or adam_lazy with lazy_mode: only the held rows move); what icore cannot
 * follow there is refused by name: amsgrad and adamw (their sparse CPU kernels were not
 * checked). */
ic_status ic_adam_resolve(const ic_program *p, const ic_op *op, const ic_opdef **def, ic_err *err) {
  const ic_slot *g = ic_op_input(op, "Grad");
  if (!g || g->n != 1) return IC_OK;
  const ic_vardesc *d = ic_program_find_var(p, op->block, g->args[0]);
  if (!d || d->type != IC_VAR_SELECTED_ROWS) return IC_OK;
  const ic_attr *lazy = ic_op_attr(op, "lazy_mode"), *ams = ic_op_attr(op, "amsgrad");
  const char *why = ams && ams->i ? "amsgrad"
                    : strcmp(op->type, "adam") ? op->type
                                               : NULL;
  if (!why) {
    /* Paddle's sparse kernel writes Beta1PowOut and Beta2PowOut before its update reads
     * Beta1Pow and Beta2Pow: where they are the same variables (as every optimizer program
     * names them), the update runs with the next step's powers. */
    const ic_attr *global = ic_op_attr(op, "use_global_beta_pow");
    const bool after = !(global && global->i) && same_var(op, "Beta1PowOut", "Beta1Pow") &&
                       same_var(op, "Beta2PowOut", "Beta2Pow");
    const bool lz = lazy && lazy->i;
    *def = lz ? (after ? &adam_lazy_after : &adam_lazy) : after ? &adam_sparse_after : &adam_sparse;
    return IC_OK;
  }
  char where[160];
  return ic_err_set(err, IC_ERR_UNSUPPORTED,
                    "%s: %s over the SelectedRows gradient '%s' (an embedding with is_sparse) "
                    "is not supported: expected adam without amsgrad",
                    ic_op_where(op, where, sizeof where), why, g->args[0]);
}

const ic_opdef ic_op_adam = {
    .name = "adam",
    .n_inputs = 13, .inputs = ic_adam_inputs,
    .n_outputs = 7, .outputs = ic_adam_outputs,
    .attrs_size = sizeof(ic_adam_attrs), .parse = ic_adam_parse,
    .infer = ic_adam_infer, .cpu = ic_adam_run,
    .resolve = ic_adam_resolve,
};
