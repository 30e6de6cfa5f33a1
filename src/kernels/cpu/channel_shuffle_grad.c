/* channel_shuffle_grad: X@GRAD = Out@GRAD moved back by the inverse of channel_shuffle's
 * permutation (phi ChannelShuffleGradKernel): with per = C / groups,
 *   X@GRAD[n, g * per + j] = Out@GRAD[n, j * groups + g]
 * (NCHW; NHWC with the channels last). Input Out@GRAD only, channel_shuffle's attributes
 * (groups, data_format). Any dtype (elements are moved). */
#include <string.h>

#include "kernels/kernel.h"

typedef struct csg_attrs {
  int64_t groups;
  bool nhwc;
} csg_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  csg_attrs *a = attrs;
  a->groups = ic_ar_int_req(r, "groups");
  const char *f = ic_ar_str(r, "data_format", "NCHW");
  if (r->st) return r->st;
  if (a->groups < 1) return ic_ar_fail(r, "groups", "is %lld, expected >= 1", (long long)a->groups);
  a->nhwc = !strcmp(f, "NHWC");
  if (!a->nhwc && strcmp(f, "NCHW") && strcmp(f, "AnyLayout")) {
    return ic_ar_fail(r, "data_format", "is \"%s\", expected NCHW or NHWC", f);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const csg_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, 0, 0);
  if (g->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4 (%s)", a->nhwc ? "NHWC" : "NCHW");
  const int64_t ch = a->nhwc ? g->dims[3] : g->dims[1];
  if (ch % a->groups) {
    return ic_kfail_in(c, 0, 0, "has %lld channels, expected a multiple of groups %lld",
                       (long long)ch, (long long)a->groups);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, 4, g->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const csg_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, 0, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const size_t es = ic_dtype_size(g->dtype);
  const int64_t N = g->dims[0], C = a->nhwc ? g->dims[3] : g->dims[1];
  const int64_t HW = a->nhwc ? g->dims[1] * g->dims[2] : g->dims[2] * g->dims[3];
  const int64_t G = a->groups, per = C / G;
  const char *src = g->data;
  char *dst = dx->data;
  for (int64_t n = 0; n < N; n++) {
    for (int64_t gi = 0; gi < G; gi++) {
      for (int64_t j = 0; j < per; j++) {
        const int64_t to = gi * per + j, from = j * G + gi;
        if (!a->nhwc) {
          memcpy(dst + (size_t)((n * C + to) * HW) * es, src + (size_t)((n * C + from) * HW) * es,
                 (size_t)HW * es);
        } else {
          for (int64_t p = 0; p < HW; p++) {
            memcpy(dst + (size_t)((n * HW + p) * C + to) * es,
                   src + (size_t)((n * HW + p) * C + from) * es, es);
          }
        }
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_channel_shuffle_grad = {
    .name = "channel_shuffle_grad", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(csg_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
