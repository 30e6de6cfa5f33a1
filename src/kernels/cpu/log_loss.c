/* log_loss: Loss = -Labels * log(Predicted + epsilon) - (1 - Labels) * log(1 - Predicted +
 * epsilon), elementwise over Predicted and Labels [N, 1] (float32 or float64); attribute
 * epsilon (float, default 1e-4) (paddle/phi/kernels/impl/log_loss_kernel_impl.h,
 * LogLossInferMeta). */
#include <math.h>

#include "kernels/kernel.h"

enum { IN_PRED, IN_LABELS };
static const ic_slotdef k_inputs[2] = {{"Predicted", 0}, {"Labels", 0}};
static const ic_slotdef k_outputs[1] = {{"Loss", 0}};

typedef struct log_loss_attrs {
  float eps;
} log_loss_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  log_loss_attrs *a = attrs;
  a->eps = (float)ic_ar_float(r, "epsilon", 1e-4);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *p = ic_in(c, IN_PRED, 0), *l = ic_in(c, IN_LABELS, 0);
  ic_status st = ic_kcheck_dtype(c, IN_PRED, 0, IC_DT_FLOAT);
  if (st) return st;
  if (p->ndim != 2 || p->dims[1] != 1) {
    return ic_kfail_in(c, IN_PRED, 0, "expected rank 2 with dim 1 equal to 1 ([N, 1])");
  }
  if (l->dtype != p->dtype || !ic_dims_equal(p->ndim, p->dims, l->ndim, l->dims)) {
    return ic_kfail_in(c, IN_LABELS, 0, "expected %s[%lld, 1] (Predicted's dtype and dims)",
                       ic_dtype_name(p->dtype), (long long)p->dims[0]);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), p->dtype, 2, p->dims);
  return IC_OK;
}

#define LOGLOSS(T, LOG)                                                                    \
  do {                                                                                     \
    const T *pp = p->data, *lp = l->data, e = (T)a->eps;                                   \
    T *op = ic_out(c, 0, 0)->data;                                                         \
    for (int64_t i = 0; i < n; i++) {                                                      \
      op[i] = -(lp[i] * LOG(pp[i] + e)) - ((T)1 - lp[i]) * LOG((T)1 - pp[i] + e);          \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const log_loss_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PRED, 0), *l = ic_in(c, IN_LABELS, 0);
  const int64_t n = p->dims[0];
  if (p->dtype == IC_FP32) LOGLOSS(float, logf);
  else LOGLOSS(double, log);
  return IC_OK;
}

const ic_opdef ic_op_log_loss = {
    .name = "log_loss", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(log_loss_attrs), .parse = parse, .infer = infer, .cpu = run,
};
