/* rprop: one Rprop step (phi RpropKernel, CPU), in param's dtype. learning_rate holds a
 * step size per element (param's dims); learning_rate_range = [min, max] and
 * etas = [eta_negative, eta_positive] hold two values each. Per element, with s = grad prev:
 *   s > 0:  eta = eta_positive
 *   s = 0:  eta = 1
 *   s < 0:  eta = eta_negative and the gradient counts as 0
 *   learning_rate_out = learning_rate eta, clamped to [min, max]
 *   param_out = param - sign(g) learning_rate_out,  prev_out = g
 * where g is the gradient after that zeroing (a NaN product leaves eta unset in Paddle's
 * kernel; here it counts as 1). param_out, prev_out and learning_rate_out update param, prev
 * and learning_rate in place (ic_rprop_inplace, train.h). multi_precision (master_param) is
 * not supported: Paddle uses it only for float16 / bfloat16 parameters. */
#include "kernels/cpu/train.h"

typedef struct rprop_attrs {
  bool multi_precision;
} rprop_attrs;

enum { IN_PARAM, IN_GRAD, IN_PREV, IN_LR, IN_MASTER, IN_RANGE, IN_ETAS };
enum { OUT_PARAM, OUT_PREV, OUT_LR, OUT_MASTER };

const ic_train_inplace ic_rprop_inplace[] = {{"param_out", "param"},
                                             {"prev_out", "prev"},
                                             {"learning_rate_out", "learning_rate"},
                                             {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  rprop_attrs *a = attrs;
  a->multi_precision = ic_ar_bool(r, "multi_precision", false);
  return r->st;
}

static const int k_like[] = {IN_PARAM, IN_PREV, IN_LR};

static ic_status infer(ic_kctx *c) {
  const rprop_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT_FLOAT))) return st;
  if (ic_in(c, IN_MASTER, 0) || a->multi_precision) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "multi_precision (master_param) is not supported");
  }
  if ((st = ic_train_same(c, IN_GRAD, 0, IN_PARAM)) ||
      (st = ic_train_same(c, IN_PREV, 0, IN_PARAM)) || (st = ic_train_same(c, IN_LR, 0, IN_PARAM))) {
    return st;
  }
  static const int pairs[] = {IN_RANGE, IN_ETAS};
  for (int j = 0; j < 2; j++) {
    const ic_tensor *t = ic_in(c, pairs[j], 0);
    if (t->dtype != p->dtype || ic_tensor_numel_(t) != 2) {
      return ic_kfail_in(c, pairs[j], 0, "expected two %s values", ic_dtype_name(p->dtype));
    }
  }
  for (int k = OUT_PARAM; k <= OUT_LR; k++) {
    ic_tensor_set_meta(ic_out(c, k, 0), p->dtype, p->ndim, p->dims);
  }
  return IC_OK;
}

#define STEP(T)                                                                            \
  do {                                                                                     \
    const T *range = ic_in(c, IN_RANGE, 0)->data, *etas = ic_in(c, IN_ETAS, 0)->data;      \
    const T lo = range[0], hi = range[1], eneg = etas[0], epos = etas[1], zero = 0, one = 1; \
    const T *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, 0)->data,             \
                      *restrict vp = ic_in(c, IN_PREV, 0)->data,                           \
                      *restrict lp = ic_in(c, IN_LR, 0)->data;                             \
    T *restrict po = ic_out(c, OUT_PARAM, 0)->data, *restrict vo = ic_out(c, OUT_PREV, 0)->data, \
      *restrict lo_ = ic_out(c, OUT_LR, 0)->data;                                          \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T g = gp[i], s = g * vp[i], eta = one;                                               \
      if (s > zero) {                                                                      \
        eta = epos;                                                                        \
      } else if (s < zero) {                                                               \
        g = zero;                                                                          \
        eta = eneg;                                                                        \
      }                                                                                    \
      T l = lp[i] * eta;                                                                   \
      if (l > hi) l = hi;                                                                  \
      else if (l < lo) l = lo;                                                             \
      T sg = g > zero ? one : g < zero ? -one : zero;                                      \
      po[i] = pp[i] - sg * l;                                                              \
      vo[i] = g;                                                                           \
      lo_[i] = l;                                                                          \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  for (int k = OUT_PARAM; k <= OUT_LR; k++) {
    ic_status st = ic_train_own(c, ic_out(c, k, 0), ic_in(c, k_like[k], 0));
    if (st) return st;
  }
  int64_t n = ic_tensor_numel_(p);
  if (p->dtype == IC_FP32) STEP(float);
  else STEP(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"param", 0},
    {"grad", 0},
    {"prev", 0},
    {"learning_rate", 0},
    {"master_param", IC_SLOT_OPTIONAL},
    {"learning_rate_range", 0},
    {"etas", 0},
};
static const ic_slotdef outputs[] = {
    {"param_out", IC_SLOT_SHARE},
    {"prev_out", IC_SLOT_SHARE},
    {"learning_rate_out", IC_SLOT_SHARE},
    {"master_param_out", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
};

const ic_opdef ic_op_rprop = {
    .name = "rprop",
    .n_inputs = 7, .inputs = inputs,
    .n_outputs = 4, .outputs = outputs,
    .attrs_size = sizeof(rprop_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
