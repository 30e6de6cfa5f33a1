/* pad3d: pads the depth, height and width of a 5-D X (NCDHW, the default, or NDHWC) by
 * paddings [left, right, top, bottom, front, back] (the attribute, or the 6-element int32
 * input Paddings when given), each >= 0, in `mode`:
 *   "constant" (default)  the float `value` (default 0);
 *   "reflect"             mirrored without repeating the edge (each pad < its dim);
 *   "replicate"           the edge repeated;
 *   "circular"            wrapped around (each pad <= its dim).
 * As paddle/phi/kernels/cpu/pad3d_kernel.cc and Pad3dInferMeta; float32, float64, int32,
 * int64. */
#include <string.h>

#include "kernels/cpu/padutil.h"

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Paddings", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};
static const char *const k_modes[] = {"constant", "reflect", "replicate", "circular"};

ic_status ic_pad3d_parse(ic_attr_reader *r, void *attrs) {
  pad3d_attrs *a = attrs;
  bool tensor = ic_op_input(r->op, "Paddings") && ic_op_input(r->op, "Paddings")->n > 0;
  ic_ar_ints(r, "paddings", !tensor, &a->pads, &a->n_pads);
  const char *mode = ic_ar_str(r, "mode", "constant");
  a->value = ic_ar_float(r, "value", 0.0);
  const char *fmt = ic_ar_str(r, "data_format", "NCDHW");
  if (r->st) return r->st;
  a->mode = -1;
  for (int i = 0; i < 4; i++) {
    if (!strcmp(mode, k_modes[i])) a->mode = i;
  }
  if (a->mode < 0) {
    return ic_ar_fail(r, "mode", "must be constant, reflect, replicate or circular, got \"%s\"",
                      mode);
  }
  if (!strcmp(fmt, "NDHWC")) {
    a->channel_last = true;
  } else if (strcmp(fmt, "NCDHW")) {
    return ic_ar_fail(r, "data_format", "must be NCDHW or NDHWC, got \"%s\"", fmt);
  }
  return r->st;
}

ic_status ic_pad3d_plan(ic_kctx *c, int64_t *p, int64_t *sp) {
  const pad3d_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim != 5) return ic_kfail_in(c, 0, 0, "expected rank 5");
  for (int i = 0; i < 3; i++) sp[i] = x->dims[a->channel_last ? 1 + i : 2 + i];
  /* left/right pad W, top/bottom H, front/back D */
  const int64_t pdim[6] = {sp[2], sp[2], sp[1], sp[1], sp[0], sp[0]};
  return ic_pad_read(c, a->pads, a->n_pads, 6, a->mode, pdim, p);
}

static ic_status infer(ic_kctx *c) {
  const pad3d_attrs *a = c->attrs;
  int64_t p[6], sp[3];
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st || (st = ic_pad3d_plan(c, p, sp))) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t d[5];
  for (int i = 0; i < 5; i++) d[i] = x->dims[i];
  int s0 = a->channel_last ? 1 : 2;
  d[s0] += p[4] + p[5];
  d[s0 + 1] += p[2] + p[3];
  d[s0 + 2] += p[0] + p[1];
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 5, d);
  return IC_OK;
}

static ic_status pad3d_cpu(ic_kctx *c) {
  const pad3d_attrs *a = c->attrs;
  int64_t p[6], sp[3];
  ic_status st = ic_pad3d_plan(c, p, sp);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  if (ic_numel(5, o->dims) == 0) return IC_OK;
  int64_t N = x->dims[0], C = x->dims[a->channel_last ? 4 : 1];
  const int64_t before[3] = {p[4], p[2], p[0]}, after[3] = {p[5], p[3], p[1]};
  ic_pad_run(x, o, a->mode, a->channel_last, a->value, N, C, sp, before, after);
  return IC_OK;
}

const ic_opdef ic_op_pad3d = {
    .name = "pad3d", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(pad3d_attrs), .parse = ic_pad3d_parse, .infer = infer, .cpu = pad3d_cpu,
};
