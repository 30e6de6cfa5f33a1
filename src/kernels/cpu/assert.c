/* assert (paddle.static.nn.control_flow.Assert; dy2static writes it for a Python assert on a
 * tensor): when Cond, a one-element bool, is false, the run fails, naming the op, Cond and
 * the first `summarize` values (-1: all) of each Data tensor, as Paddle's AssertOp raises;
 * otherwise nothing. */
#include <stdio.h>
#include <string.h>

#include "kernels/kernel.h"

typedef struct assert_attrs {
  int64_t summarize;
} assert_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((assert_attrs *)attrs)->summarize = ic_ar_int(r, "summarize", -1);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *cond = ic_in(c, 0, 0);
  if (cond->dtype != IC_BOOL || ic_tensor_numel_(cond) != 1) {
    return ic_kfail_in(c, 0, 0, "expected one bool (the condition)");
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const assert_attrs *a = c->attrs;
  const ic_tensor *cond = ic_in(c, 0, 0);
  if (((const uint8_t *)cond->data)[0]) return IC_OK;
  char msg[1024];
  size_t len = (size_t)snprintf(msg, sizeof msg, "the condition '%s' is false",
                                ic_in_name(c, 0, 0));
  for (size_t i = 0; i < c->in[1].n && len < sizeof msg; i++) {
    const ic_tensor *t = ic_in(c, 1, i);
    char d[128];
    len += (size_t)snprintf(msg + len, sizeof msg - len, "; %s %s: [", ic_in_name(c, 1, i),
                            ic_tensor_describe(t, d, sizeof d));
    const int64_t n = ic_tensor_numel_(t);
    const int64_t show = a->summarize < 0 || a->summarize > n ? n : a->summarize;
    for (int64_t k = 0; k < show && len < sizeof msg; k++) {
      if (t->dtype == IC_FP32 || t->dtype == IC_FP64) {
        len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%g", k ? " " : "", ic_read_f64(t, k));
      } else if (t->dtype != IC_COMPLEX64 && t->dtype != IC_COMPLEX128) {
        len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%lld", k ? " " : "",
                                (long long)ic_read_i64(t, k));
      }
    }
    if (len < sizeof msg) len += (size_t)snprintf(msg + len, sizeof msg - len, "]");
  }
  return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "%s", msg);
}

static const ic_slotdef inputs[] = {{"Cond", 0}, {"Data", IC_SLOT_OPTIONAL | IC_SLOT_MULTI}};

const ic_opdef ic_op_assert = {
    .name = "assert",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 0, .outputs = NULL,
    .attrs_size = sizeof(assert_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_EXTERNAL_STATE,
};
