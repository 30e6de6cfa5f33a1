/* nll_loss: the negative log-likelihood of X (log-probabilities) [N, C] or [N, C, H, W] at
 * Label (int64, [N] or [N, H, W], each in [0, C) or ignore_index), weighted by Weight [C]
 * (optional, ones otherwise): Out = -X[label] * Weight[label], 0 where Label is ignore_index.
 * reduction "none": Out of Label's dims; "sum": Out (0-D) the sum; "mean": the sum divided by
 * Total_weight (left as the sum when Total_weight is 0). Total_weight (0-D) is the sum of the
 * weights of the labels not ignored (0 for "none"). Sums accumulate in order in X's dtype
 * (float32 or float64), as Paddle's CPU kernel does; a label out of range fails
 * (paddle/phi/kernels/cpu/nll_loss_kernel.cc, NllLossRawInferMeta). */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_LABEL, IN_WEIGHT };
enum { OUT_OUT, OUT_TOTAL };
static const ic_slotdef k_inputs[3] = {{"X", 0}, {"Label", 0}, {"Weight", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[2] = {{"Out", 0}, {"Total_weight", IC_SLOT_OPTIONAL}};

enum { RED_NONE, RED_SUM, RED_MEAN };

typedef struct nll_attrs {
  int64_t ignore_index;
  int reduction;
} nll_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  nll_attrs *a = attrs;
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
  const nll_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *l = ic_in(c, IN_LABEL, 0), *w = ic_in(c, IN_WEIGHT, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (!st) st = ic_kcheck_dtype(c, IN_LABEL, 0, IC_DT(IC_INT64));
  if (st) return st;
  if (x->ndim != 2 && x->ndim != 4) {
    return ic_kfail_in(c, IN_X, 0, "expected rank 2 ([N, C]) or 4 ([N, C, H, W])");
  }
  int64_t want[3] = {x->dims[0], x->ndim == 4 ? x->dims[2] : 0, x->ndim == 4 ? x->dims[3] : 0};
  const int lr = x->ndim == 4 ? 3 : 1;
  if (!ic_dims_equal(l->ndim, l->dims, lr, want)) {
    char s[96];
    return ic_kfail_in(c, IN_LABEL, 0, "expected dims %s (X's without the class dim)",
                       ic_dims_str(lr, want, s, sizeof s));
  }
  if (w && (w->dtype != x->dtype || w->ndim != 1 || w->dims[0] != x->dims[1])) {
    return ic_kfail_in(c, IN_WEIGHT, 0, "expected %s[%lld] (one weight per class)",
                       ic_dtype_name(x->dtype), (long long)x->dims[1]);
  }
  if (a->reduction == RED_NONE) ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, lr, l->dims);
  else ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, 0, NULL);
  ic_tensor *tw = ic_out(c, OUT_TOTAL, 0);
  if (tw) ic_tensor_set_meta(tw, x->dtype, 0, NULL);
  return IC_OK;
}

#define NLL(T)                                                                             \
  do {                                                                                     \
    const T *xp = x->data, *wp = w ? (const T *)w->data : NULL;                            \
    T *op = ic_out(c, OUT_OUT, 0)->data;                                                   \
    T total = 0, acc = 0;                                                                  \
    for (int64_t i = 0; i < N; i++) {                                                      \
      for (int64_t p = 0; p < hw; p++) {                                                   \
        const int64_t li = i * hw + p, lab = lp[li];                                       \
        if (lab == a->ignore_index) {                                                      \
          if (a->reduction == RED_NONE) op[li] = 0;                                        \
          continue;                                                                        \
        }                                                                                  \
        if (lab < 0 || lab >= C) {                                                         \
          return ic_kfail_in(c, IN_LABEL, 0, "holds %lld at element %lld, expected in "    \
                             "[0, %lld) or ignore_index %lld", (long long)lab,             \
                             (long long)li, (long long)C, (long long)a->ignore_index);     \
        }                                                                                  \
        const T wv = wp ? wp[lab] : (T)1, xv = xp[(i * C + lab) * hw + p];                 \
        if (a->reduction == RED_NONE) {                                                    \
          op[li] = -xv * wv;                                                               \
        } else {                                                                           \
          total += wv;                                                                     \
          acc -= xv * wv;                                                                  \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
    if (a->reduction != RED_NONE) {                                                        \
      if (a->reduction == RED_MEAN && total != 0) acc /= total;                            \
      op[0] = acc;                                                                         \
    }                                                                                      \
    if (tw) *(T *)tw->data = total;                                                        \
  } while (0)

static ic_status run(ic_kctx *c) {
  const nll_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *l = ic_in(c, IN_LABEL, 0), *w = ic_in(c, IN_WEIGHT, 0);
  ic_tensor *tw = ic_out(c, OUT_TOTAL, 0);
  const int64_t N = x->dims[0], C = x->dims[1], hw = x->ndim == 4 ? x->dims[2] * x->dims[3] : 1;
  const int64_t *lp = l->data;
  if (x->dtype == IC_FP32) NLL(float);
  else NLL(double);
  return IC_OK;
}

const ic_opdef ic_op_nll_loss = {
    .name = "nll_loss", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 2, .outputs = k_outputs,
    .attrs_size = sizeof(nll_attrs), .parse = parse, .infer = infer, .cpu = run,
};
