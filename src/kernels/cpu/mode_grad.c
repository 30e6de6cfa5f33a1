/* mode_grad: for Out = the most frequent value (mode) of X along `axis` and Indices its position
 * there (mode), X@GRAD = zeros with each Out@GRAD element at its Indices position (phi
 * ModeGradKernel). Inputs X (meta only), Indices (int64), Out@GRAD (X's dims with the axis kept as
 * 1 or removed, per keepdim); attributes axis, keepdim. Float32 and float64. */
#include "kernels/cpu/kgrad.h"

enum { IN_X, IN_IDX, IN_DOUT };
static const ic_slotdef k_inputs[3] = {
    {"X", IC_SLOT_NO_BUFFER}, {"Indices", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

typedef struct mode_grad_attrs {
  int64_t axis;
} mode_grad_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((mode_grad_attrs *)attrs)->axis = ic_ar_int(r, "axis", -1);
  (void)ic_ar_bool(r, "keepdim", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  return kg_pick_infer(c, ((const mode_grad_attrs *)c->attrs)->axis, IN_X, IN_IDX, IN_DOUT);
}

static ic_status run(ic_kctx *c) {
  return kg_pick_run(c, ((const mode_grad_attrs *)c->attrs)->axis, IN_X, IN_IDX, IN_DOUT);
}

const ic_opdef ic_op_mode_grad = {
    .name = "mode_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(mode_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
