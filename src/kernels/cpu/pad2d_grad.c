/* pad2d_grad: X@GRAD = Out@GRAD gathered back onto X: each element of Out@GRAD is added at
 * the X position pad2d copied it from (several, at the edges, in reflect and edge mode), the
 * constant's positions giving nothing (paddle/fluid/operators/pad2d_op.cc, Pad2dGradMaker and
 * the Pad2DGrad* kernels). Inputs X (meta only), Paddings (optional int32 / int64 tensor of
 * 4, else the attribute), Out@GRAD; pad2d's attributes (mode constant / reflect / edge,
 * data_format NCHW / NHWC); float32 and float64. */
#include "kernels/cpu/padutil.h"

static const ic_slotdef k_inputs[3] = {
    {"X", IC_SLOT_NO_BUFFER}, {"Paddings", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

static ic_status infer(ic_kctx *c) {
  const pad2d_attrs *a = c->attrs;
  int64_t p[4], sp[2];
  ic_status st = ic_kcheck_dtype(c, 2, 0, IC_DT_FLOAT);
  if (st || (st = ic_pad2d_plan(c, p, sp))) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 2, 0);
  int64_t d[4];
  for (int i = 0; i < 4; i++) d[i] = x->dims[i];
  int s0 = a->channel_last ? 1 : 2;
  d[s0] += p[0] + p[1];
  d[s0 + 1] += p[2] + p[3];
  if (!ic_dims_equal(g->ndim, g->dims, 4, d)) {
    char s[128];
    return ic_kfail_in(c, 2, 0, "expected dims %s (pad2d's Out for X '%s')",
                       ic_dims_str(4, d, s, sizeof s), ic_in_name(c, 0, 0));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, 4, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const pad2d_attrs *a = c->attrs;
  int64_t p[4], sp[2];
  ic_status st = ic_pad2d_plan(c, p, sp);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 2, 0);
  const int64_t N = x->dims[0], C = x->dims[a->channel_last ? 3 : 1];
  /* as a 5-D pad with an unpadded depth of 1 */
  const int64_t sp3[3] = {1, sp[0], sp[1]};
  const int64_t before[3] = {0, p[0], p[2]}, after[3] = {0, p[1], p[3]};
  ic_pad_grad_run(g, ic_out(c, 0, 0), a->mode, a->channel_last, N, C, sp3, before, after);
  return IC_OK;
}

const ic_opdef ic_op_pad2d_grad = {
    .name = "pad2d_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(pad2d_attrs), .parse = ic_pad2d_parse,
    .infer = infer, .cpu = run,
};
