/* pad3d_grad: X@GRAD = Out@GRAD gathered back onto X: each element of Out@GRAD is added at
 * the X position pad3d copied it from (several, at the edges, in reflect / replicate /
 * circular mode), the padded constant's positions giving nothing (phi Pad3dGradKernel).
 * Inputs X (meta only), Paddings (optional), Out@GRAD; pad3d's attributes; float32 and
 * float64. */
#include "kernels/cpu/padutil.h"

static const ic_slotdef k_inputs[3] = {
    {"X", IC_SLOT_NO_BUFFER}, {"Paddings", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

static ic_status infer(ic_kctx *c) {
  const pad3d_attrs *a = c->attrs;
  int64_t p[6], sp[3];
  ic_status st = ic_kcheck_dtype(c, 2, 0, IC_DT_FLOAT);
  if (st || (st = ic_pad3d_plan(c, p, sp))) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 2, 0);
  int64_t d[5];
  for (int i = 0; i < 5; i++) d[i] = x->dims[i];
  int s0 = a->channel_last ? 1 : 2;
  d[s0] += p[4] + p[5];
  d[s0 + 1] += p[2] + p[3];
  d[s0 + 2] += p[0] + p[1];
  if (!ic_dims_equal(g->ndim, g->dims, 5, d)) {
    char s[128];
    return ic_kfail_in(c, 2, 0, "expected dims %s (pad3d's Out)", ic_dims_str(5, d, s, sizeof s));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, 5, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const pad3d_attrs *a = c->attrs;
  int64_t p[6], sp[3];
  ic_status st = ic_pad3d_plan(c, p, sp);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 2, 0);
  int64_t N = x->dims[0], C = x->dims[a->channel_last ? 4 : 1];
  const int64_t before[3] = {p[4], p[2], p[0]}, after[3] = {p[5], p[3], p[1]};
  ic_pad_grad_run(g, ic_out(c, 0, 0), a->mode, a->channel_last, N, C, sp, before, after);
  return IC_OK;
}

const ic_opdef ic_op_pad3d_grad = {
    .name = "pad3d_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(pad3d_attrs), .parse = ic_pad3d_parse,
    .infer = infer, .cpu = run,
};
