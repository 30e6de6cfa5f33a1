/* prelu: Out = X for X > 0, alpha X otherwise, with alpha from input Alpha by `mode`:
 *   "all" (default)  one alpha for every element;
 *   "channel"        one per channel: dim 1 for a channel-first data_format (NCHW, NCDHW,
 *                    the default), the last dim for a channel-last one (NHWC, NDHWC);
 *   "element"        one per element of an instance: Alpha holds numel(X) / dim 0 values.
 * As paddle/phi/kernels/cpu/prelu_kernel.cc and PReluInferMeta (paddle/phi/infermeta/
 * binary.cc); float32 and float64, Alpha of X's dtype. A NaN input gives alpha NaN. */
#include <string.h>

#include "kernels/cpu/activation.h"

enum { PRELU_ALL = IC_PRELU_ALL, PRELU_CHANNEL = IC_PRELU_CHANNEL,
       PRELU_ELEMENT = IC_PRELU_ELEMENT };

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Alpha", 0}};

ic_status ic_prelu_parse(ic_attr_reader *r, void *attrs) {
  prelu_attrs *a = attrs;
  const char *mode = ic_ar_str(r, "mode", "all");
  const char *fmt = ic_ar_str(r, "data_format", "NCHW");
  if (r->st) return r->st;
  if (!strcmp(mode, "all")) {
    a->mode = PRELU_ALL;
  } else if (!strcmp(mode, "channel")) {
    a->mode = PRELU_CHANNEL;
  } else if (!strcmp(mode, "element")) {
    a->mode = PRELU_ELEMENT;
  } else {
    return ic_ar_fail(r, "mode", "must be \"all\", \"channel\" or \"element\", got \"%s\"",
                      mode);
  }
  if (!strcmp(fmt, "NHWC") || !strcmp(fmt, "NDHWC") || !strcmp(fmt, "NLC")) {
    a->channel_last = true;
  } else if (strcmp(fmt, "NCHW") && strcmp(fmt, "NCDHW") && strcmp(fmt, "NCL") &&
             strcmp(fmt, "AnyLayout")) {
    return ic_ar_fail(r, "data_format",
                      "must be NCHW, NHWC, NCDHW, NDHWC, NCL or NLC, got \"%s\"", fmt);
  }
  return r->st;
}

/* The number of alpha values the mode needs for X. */
static int64_t alpha_count(const prelu_attrs *a, const ic_tensor *x) {
  int64_t na, inner;
  ic_prelu_plan(a, x, &na, &inner);
  return na;
}

static ic_status infer(ic_kctx *c) {
  const prelu_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *al = ic_in(c, 1, 0);
  if (al->dtype != x->dtype) return ic_kfail_in(c, 1, 0, "expected X's dtype");
  if (a->mode != PRELU_ALL && x->ndim < (a->mode == PRELU_CHANNEL ? 2 : 1)) {
    return ic_kfail_in(c, 0, 0, "expected rank >= %d for mode %s",
                       a->mode == PRELU_CHANNEL ? 2 : 1,
                       a->mode == PRELU_CHANNEL ? "channel" : "element");
  }
  int64_t want = alpha_count(a, x);
  if (ic_numel(al->ndim, al->dims) != want) {
    return ic_kfail_in(c, 1, 0, "expected %lld values for mode %s", (long long)want,
                       a->mode == PRELU_ALL ? "all"
                       : a->mode == PRELU_CHANNEL ? "channel" : "element");
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define PRELU_LOOP(T)                                                                      \
  do {                                                                                     \
    const T *restrict xp = x->data, *restrict ap = al->data;                               \
    T *restrict op = o->data;                                                              \
    for (int64_t i = 0; i < n; i++) {                                                      \
      int64_t k = a->mode == PRELU_ALL ? 0 : (i / inner) % na;                             \
      op[i] = xp[i] > 0 ? xp[i] : ap[k] * xp[i];                                           \
    }                                                                                      \
  } while (0)

static ic_status prelu_cpu(ic_kctx *c) {
  const prelu_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *al = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  if (n == 0) return IC_OK;
  int64_t na, inner; /* element i uses alpha (i / inner) % na */
  ic_prelu_plan(a, x, &na, &inner);
  if (x->dtype == IC_FP32) {
    PRELU_LOOP(float);
  } else {
    PRELU_LOOP(double);
  }
  return IC_OK;
}

const ic_opdef ic_op_prelu = {
    .name = "prelu", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = ic_activation_outputs, .attrs_size = sizeof(prelu_attrs), .parse = ic_prelu_parse,
    .infer = infer, .cpu = prelu_cpu,
};
