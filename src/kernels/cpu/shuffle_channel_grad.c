/* shuffle_channel_grad as Paddle computes it (paddle/fluid/operators/shuffle_channel_op.h
 * ShuffleChannelGradOpKernel): Out@GRAD [N, C, H, W] (rank 4, C divisible by group) moved by
 * the forward's own permutation, not its inverse: with per = C / group,
 *   X@GRAD[n, j * group + i] = Out@GRAD[n, i * per + j].
 * That is the true gradient only when group * group = C (the permutation is then its own
 * inverse); otherwise it is what Paddle's training programs get, and icore gives the same
 * (checked against Paddle 3.3.1 with C = 6, group = 2). Paddle copies sizeof(int) bytes per
 * element, so its float64 result is only half written; icore moves whole elements. Input
 * Out@GRAD only, as Paddle writes the op. Any dtype. */
#include <string.h>

#include "kernels/kernel.h"

typedef struct scg_attrs {
  int64_t group;
} scg_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  scg_attrs *a = attrs;
  a->group = ic_ar_int(r, "group", 1);
  if (r->st == IC_OK && a->group <= 0) {
    ic_ar_fail(r, "group", "is %lld, expected > 0", (long long)a->group);
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const scg_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, 0, 0);
  if (g->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4 ([N, C, H, W])");
  if (g->dims[1] % a->group != 0) {
    return ic_kfail_in(c, 0, 0, "has %lld channels, not divisible by attribute 'group' (%lld)",
                       (long long)g->dims[1], (long long)a->group);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, 4, g->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const scg_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, 0, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const size_t es = ic_dtype_size(g->dtype);
  const int64_t N = g->dims[0], C = g->dims[1], HW = g->dims[2] * g->dims[3];
  const int64_t G = a->group, per = C / G;
  const size_t plane = (size_t)HW * es;
  for (int64_t n = 0; n < N; n++) {
    for (int64_t i = 0; i < G; i++) {
      for (int64_t j = 0; j < per; j++) {
        memcpy((char *)dx->data + (size_t)(n * C + j * G + i) * plane,
               (const char *)g->data + (size_t)(n * C + i * per + j) * plane, plane);
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_shuffle_channel_grad = {
    .name = "shuffle_channel_grad", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(scg_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
