/* ftrl: one FTRL-Proximal step (phi FTRLOpKernel, CPU; float32 only, as Paddle registers
 * it). With l1' = l1 + 1e-10, l2' = l2 + 1e-10 (in float32), s = SquaredAccumulator,
 * n = s + Grad^2 and, for lr_power -0.5 (the default), root(v) = sqrt(v), else
 * root(v) = v^(-lr_power):
 *   LinearAccumOut  = LinearAccumulator + Grad - ((root(n) - root(s)) / LearningRate) Param
 *   ParamOut        = |L| > l1' ? (l1' sign(L) - L) / (root(n) / LearningRate + 2 l2') : 0
 *                     where L = LinearAccumOut
 *   SquaredAccumOut = n
 * Every *Out updates its input in place (ic_ftrl_inplace, train.h). A Grad declared
 * SelectedRows (an embedding with is_sparse) takes Paddle's sparse update: only the rows the
 * gradient holds move; icore's gradient of such an embedding is dense, and a row that is all
 * zeros is taken as one the gradient does not hold (as adam.c does). */
#include <math.h>
#include <string.h>

#include "kernels/cpu/train.h"

typedef struct ftrl_attrs {
  float l1, l2, lr_power;
} ftrl_attrs;

enum { IN_PARAM, IN_SQ, IN_LIN, IN_GRAD, IN_LR };
enum { OUT_PARAM, OUT_SQ, OUT_LIN };

const ic_train_inplace ic_ftrl_inplace[] = {{"ParamOut", "Param"},
                                            {"SquaredAccumOut", "SquaredAccumulator"},
                                            {"LinearAccumOut", "LinearAccumulator"},
                                            {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ftrl_attrs *a = attrs;
  a->l1 = (float)ic_ar_float(r, "l1", 0.0);
  a->l2 = (float)ic_ar_float(r, "l2", 0.0);
  a->lr_power = (float)ic_ar_float(r, "lr_power", -0.5);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT(IC_FP32)))) return st;
  if ((st = ic_train_same(c, IN_SQ, 0, IN_PARAM)) || (st = ic_train_same(c, IN_LIN, 0, IN_PARAM)) ||
      (st = ic_train_same(c, IN_GRAD, 0, IN_PARAM)) || (st = ic_train_scalar(c, IN_LR, IC_FP32))) {
    return st;
  }
  for (int k = OUT_PARAM; k <= OUT_LIN; k++) {
    ic_tensor_set_meta(ic_out(c, k, 0), p->dtype, p->ndim, p->dims);
  }
  return IC_OK;
}

static inline float root(float v, float lr_power, bool half) {
  return half ? sqrtf(v) : powf(v, -lr_power);
}

static ic_status run_common(ic_kctx *c, bool sparse) {
  const ftrl_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0), *sq = ic_in(c, IN_SQ, 0),
                  *lin = ic_in(c, IN_LIN, 0);
  ic_status st;
  if ((st = ic_train_own(c, ic_out(c, OUT_PARAM, 0), p)) ||
      (st = ic_train_own(c, ic_out(c, OUT_SQ, 0), sq)) ||
      (st = ic_train_own(c, ic_out(c, OUT_LIN, 0), lin))) {
    return st;
  }
  const float *restrict pp = p->data, *restrict sp = sq->data, *restrict lp = lin->data,
                        *restrict gp = ic_in(c, IN_GRAD, 0)->data;
  float *restrict po = ic_out(c, OUT_PARAM, 0)->data, *restrict so = ic_out(c, OUT_SQ, 0)->data,
                  *restrict lo = ic_out(c, OUT_LIN, 0)->data;
  const float lr = *(const float *)ic_in(c, IN_LR, 0)->data;
  const float l1 = a->l1 + 1e-10f, l2 = a->l2 + 1e-10f, lrp = a->lr_power;
  const bool half = lrp == -0.5f;
  const int64_t n = ic_tensor_numel_(p);
  const int64_t rows = sparse ? (p->ndim ? p->dims[0] : 1) : 1;
  const int64_t width = rows ? n / rows : 0;
  for (int64_t r = 0; r < rows; r++) {
    const int64_t o = r * width;
    bool held = !sparse;
    for (int64_t k = 0; k < width && !held; k++) held = gp[o + k] != 0;
    if (!held) {
      memcpy(po + o, pp + o, (size_t)width * sizeof *po);
      memcpy(so + o, sp + o, (size_t)width * sizeof *so);
      memcpy(lo + o, lp + o, (size_t)width * sizeof *lo);
      continue;
    }
    for (int64_t i = o; i < o + width; i++) {
      const float g = gp[i], s = sp[i], na = s + g * g;
      const float L = lp[i] + g - ((root(na, lrp, half) - root(s, lrp, half)) / lr) * pp[i];
      lo[i] = L;
      if (fabsf(L) > l1) {
        const float sign = L > 0 ? 1.0f : (L < 0 ? -1.0f : 0.0f);
        po[i] = (l1 * sign - L) / (root(na, lrp, half) / lr + 2.0f * l2);
      } else {
        po[i] = 0.0f;
      }
      so[i] = na;
    }
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) { return run_common(c, false); }
static ic_status run_sparse(ic_kctx *c) { return run_common(c, true); }

static const ic_slotdef inputs[] = {
    {"Param", 0}, {"SquaredAccumulator", 0}, {"LinearAccumulator", 0}, {"Grad", 0},
    {"LearningRate", 0},
};
static const ic_slotdef outputs[] = {
    {"ParamOut", IC_SLOT_SHARE}, {"SquaredAccumOut", IC_SLOT_SHARE},
    {"LinearAccumOut", IC_SLOT_SHARE},
};

/* ftrl over an embedding's SelectedRows Grad: the rows the gradient holds move. */
static const ic_opdef ftrl_sparse = {
    .name = "ftrl",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(ftrl_attrs), .parse = parse,
    .infer = infer, .cpu = run_sparse,
};

static ic_status resolve(const ic_program *p, const ic_op *op, const ic_opdef **def, ic_err *err) {
  (void)err;
  if (ic_train_selected_rows(p, op, "Grad")) *def = &ftrl_sparse;
  return IC_OK;
}

const ic_opdef ic_op_ftrl = {
    .name = "ftrl",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(ftrl_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .resolve = resolve,
};
