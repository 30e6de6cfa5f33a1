/* pad2d (Paddle 1.x/2.x; Paddle 3 exports pad3d): pads the height and width of a 4-D X
 * (NCHW, the default, or NHWC) by paddings [top, bottom, left, right] (the attribute, or the
 * 4-element int32 input Paddings when given), each >= 0, in `mode`: "constant" (default,
 * the float pad_value, default 0), "reflect" (mirrored without the edge, each pad < its
 * dim) or "edge" (the edge repeated) (paddle/fluid/operators/pad2d_op.cc). float32, float64,
 * int32, int64. */
#include <string.h>

#include "kernels/cpu/padutil.h"

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Paddings", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

ic_status ic_pad2d_parse(ic_attr_reader *r, void *attrs) {
  pad2d_attrs *a = attrs;
  bool tensor = ic_op_input(r->op, "Paddings") && ic_op_input(r->op, "Paddings")->n > 0;
  ic_ar_ints(r, "paddings", !tensor, &a->pads, &a->n_pads);
  const char *mode = ic_ar_str(r, "mode", "constant");
  a->value = ic_ar_float(r, "pad_value", 0.0);
  const char *fmt = ic_ar_str(r, "data_format", "NCHW");
  if (r->st) return r->st;
  if (!strcmp(mode, "constant")) {
    a->mode = IC_PAD_CONSTANT;
  } else if (!strcmp(mode, "reflect")) {
    a->mode = IC_PAD_REFLECT;
  } else if (!strcmp(mode, "edge")) {
    a->mode = IC_PAD_REPLICATE;
  } else {
    return ic_ar_fail(r, "mode", "must be constant, reflect or edge, got \"%s\"", mode);
  }
  if (!strcmp(fmt, "NHWC")) {
    a->channel_last = true;
  } else if (strcmp(fmt, "NCHW")) {
    return ic_ar_fail(r, "data_format", "must be NCHW or NHWC, got \"%s\"", fmt);
  }
  return r->st;
}

/* The 4 paddings [top, bottom, left, right] and the spatial dims [H, W]. */
ic_status ic_pad2d_plan(ic_kctx *c, int64_t *p, int64_t *sp) {
  const pad2d_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4");
  sp[0] = x->dims[a->channel_last ? 1 : 2];
  sp[1] = x->dims[a->channel_last ? 2 : 3];
  const int64_t pdim[4] = {sp[0], sp[0], sp[1], sp[1]};
  return ic_pad_read(c, a->pads, a->n_pads, 4, a->mode, pdim, p);
}

static ic_status infer(ic_kctx *c) {
  const pad2d_attrs *a = c->attrs;
  int64_t p[4], sp[2];
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st || (st = ic_pad2d_plan(c, p, sp))) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t d[4];
  for (int i = 0; i < 4; i++) d[i] = x->dims[i];
  int s0 = a->channel_last ? 1 : 2;
  d[s0] += p[0] + p[1];
  d[s0 + 1] += p[2] + p[3];
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, d);
  return IC_OK;
}

static ic_status pad2d_cpu(ic_kctx *c) {
  const pad2d_attrs *a = c->attrs;
  int64_t p[4], sp[2];
  ic_status st = ic_pad2d_plan(c, p, sp);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  if (ic_numel(4, o->dims) == 0) return IC_OK;
  int64_t N = x->dims[0], C = x->dims[a->channel_last ? 3 : 1];
  /* As a 5-D pad with a depth of 1 that is not padded. */
  const int64_t sp3[3] = {1, sp[0], sp[1]};
  const int64_t before[3] = {0, p[0], p[2]}, after[3] = {0, p[1], p[3]};
  ic_pad_run(x, o, a->mode, a->channel_last, a->value, N, C, sp3, before, after);
  return IC_OK;
}

const ic_opdef ic_op_pad2d = {
    .name = "pad2d", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(pad2d_attrs), .parse = ic_pad2d_parse, .infer = infer, .cpu = pad2d_cpu,
};
