/* nll_loss_grad: X@GRAD is 0 except at each label's class, where it is -Out@GRAD * w with w
 * = Weight[label] (1 without Weight): Out@GRAD per element for reduction "none", the one
 * Out@GRAD element otherwise, and for "mean" divided by Total_weight (phi NllLossGradKernel);
 * positions whose label is ignore_index stay 0. X [N, C] with Label [N], or X [N, C, H, W]
 * with Label [N, H, W] (int64). Inputs X (dims only), Label, Weight (optional),
 * Total_weight, Out@GRAD; attributes ignore_index (default -100), reduction (default
 * "mean"); float32 and float64, in the data's type. A label out of [0, C) fails. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_LABEL, IN_WEIGHT, IN_TOTAL, IN_GRAD };
enum { RED_NONE, RED_SUM, RED_MEAN };

typedef struct nllg_attrs {
  int64_t ignore_index;
  int reduction;
} nllg_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  nllg_attrs *a = attrs;
  a->ignore_index = ic_ar_int(r, "ignore_index", -100);
  const char *s = ic_ar_str(r, "reduction", "mean");
  if (r->st) return r->st;
  if (strcmp(s, "none") == 0) a->reduction = RED_NONE;
  else if (strcmp(s, "sum") == 0) a->reduction = RED_SUM;
  else if (strcmp(s, "mean") == 0) a->reduction = RED_MEAN;
  else return ic_ar_fail(r, "reduction", "is \"%s\", expected none, sum or mean", s);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const nllg_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *l = ic_in(c, IN_LABEL, 0);
  const ic_tensor *w = ic_in(c, IN_WEIGHT, 0), *tw = ic_in(c, IN_TOTAL, 0);
  const ic_tensor *g = ic_in(c, IN_GRAD, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (!st) st = ic_kcheck_dtype(c, IN_LABEL, 0, IC_DT(IC_INT64));
  if (st) return st;
  if (x->ndim != 2 && x->ndim != 4) {
    return ic_kfail_in(c, IN_X, 0, "expected rank 2 ([N, C]) or 4 ([N, C, H, W])");
  }
  int64_t want[3] = {x->dims[0], x->ndim == 4 ? x->dims[2] : 0, x->ndim == 4 ? x->dims[3] : 0};
  const int lr = x->ndim == 4 ? 3 : 1;
  char s[96];
  if (!ic_dims_equal(l->ndim, l->dims, lr, want)) {
    return ic_kfail_in(c, IN_LABEL, 0, "expected dims %s (X's without the class dim)",
                       ic_dims_str(lr, want, s, sizeof s));
  }
  if (w && (w->dtype != x->dtype || w->ndim != 1 || w->dims[0] != x->dims[1])) {
    return ic_kfail_in(c, IN_WEIGHT, 0, "expected %s[%lld] (one weight per class)",
                       ic_dtype_name(x->dtype), (long long)x->dims[1]);
  }
  if (tw->dtype != x->dtype || ic_tensor_numel_(tw) != 1) {
    return ic_kfail_in(c, IN_TOTAL, 0, "expected one %s element", ic_dtype_name(x->dtype));
  }
  if (g->dtype != x->dtype) {
    return ic_kfail_in(c, IN_GRAD, 0, "expected dtype %s like X", ic_dtype_name(x->dtype));
  }
  if (a->reduction == RED_NONE ? !ic_dims_equal(g->ndim, g->dims, lr, l->dims)
                               : ic_tensor_numel_(g) != 1) {
    if (a->reduction == RED_NONE) {
      return ic_kfail_in(c, IN_GRAD, 0, "expected Label's dims %s (reduction none)",
                         ic_dims_str(l->ndim, l->dims, s, sizeof s));
    }
    return ic_kfail_in(c, IN_GRAD, 0, "expected one element (reduction sum or mean)");
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define NLLG(T)                                                                            \
  do {                                                                                     \
    const T *wp = w ? (const T *)w->data : NULL, *gp = g->data;                            \
    const T total = *(const T *)tw->data;                                                  \
    T *dp = dx->data;                                                                      \
    memset(dp, 0, sizeof(T) * (size_t)ic_tensor_numel_(dx));                               \
    for (int64_t i = 0; i < N; i++) {                                                      \
      for (int64_t p = 0; p < hw; p++) {                                                   \
        const int64_t li = i * hw + p, lab = lp[li];                                       \
        if (lab == a->ignore_index) continue;                                              \
        if (lab < 0 || lab >= C) {                                                         \
          return ic_kfail_in(c, IN_LABEL, 0, "holds %lld at element %lld, expected in "    \
                             "[0, %lld) or ignore_index %lld", (long long)lab,             \
                             (long long)li, (long long)C, (long long)a->ignore_index);     \
        }                                                                                  \
        const T wv = wp ? wp[lab] : (T)1;                                                  \
        T v;                                                                               \
        if (a->reduction == RED_NONE) {                                                    \
          v = -wv * gp[li];                                                                \
        } else {                                                                           \
          v = -gp[0] * wv;                                                                 \
          if (a->reduction == RED_MEAN) v /= total;                                        \
        }                                                                                  \
        dp[(i * C + lab) * hw + p] = v;                                                    \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const nllg_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *l = ic_in(c, IN_LABEL, 0);
  const ic_tensor *w = ic_in(c, IN_WEIGHT, 0), *tw = ic_in(c, IN_TOTAL, 0);
  const ic_tensor *g = ic_in(c, IN_GRAD, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t N = x->dims[0], C = x->dims[1], hw = x->ndim == 4 ? x->dims[2] * x->dims[3] : 1;
  const int64_t *lp = l->data;
  if (x->dtype == IC_FP32) NLLG(float);
  else NLLG(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER},
                                    {"Label", 0},
                                    {"Weight", IC_SLOT_OPTIONAL},
                                    {"Total_weight", 0},
                                    {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_nll_loss_grad = {
    .name = "nll_loss_grad",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(nllg_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
