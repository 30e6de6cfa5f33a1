/* shuffle_channel: X [N, C, H, W] (rank 4; C divisible by `group`, group > 0) with its
 * channels seen as [group, C / group] and transposed: Out channel j * group + i = X channel
 * i * (C / group) + j. Any dtype (paddle/fluid/operators/shuffle_channel_op.h). */
#include <string.h>

#include "kernels/kernel.h"

typedef struct shuffle_channel_attrs {
  int64_t group;
} shuffle_channel_attrs;

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  shuffle_channel_attrs *a = attrs;
  a->group = ic_ar_int(r, "group", 1);
  if (r->st == IC_OK && a->group <= 0) {
    ic_ar_fail(r, "group", "is %lld, expected > 0", (long long)a->group);
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const shuffle_channel_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4 ([N, C, H, W])");
  if (x->dims[1] % a->group != 0) {
    return ic_kfail_in(c, 0, 0, "has %lld channels, not divisible by attribute 'group' (%lld)",
                       (long long)x->dims[1], (long long)a->group);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const shuffle_channel_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  const int64_t N = x->dims[0], C = x->dims[1], g = a->group, per = C / g;
  const size_t plane = (size_t)ic_numel(x->ndim - 2, x->dims + 2) * ic_dtype_size(x->dtype);
  const char *src = x->data;
  char *dst = ic_out(c, 0, 0)->data;
  for (int64_t n = 0; n < N; n++) {
    for (int64_t i = 0; i < g; i++) {
      for (int64_t j = 0; j < per; j++) {
        memcpy(dst + (size_t)(n * C + j * g + i) * plane,
               src + (size_t)(n * C + i * per + j) * plane, plane);
      }
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_shuffle_channel = {
    .name = "shuffle_channel", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(shuffle_channel_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
