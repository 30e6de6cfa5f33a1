/* take_along_axis_grad: for Result[p] = Input[p with coordinate Axis replaced by Index[p]]
 * (take_along_axis), Input@GRAD = zeros with Result@GRAD[p] added at that place, in Index's
 * row-major order in the data's type (phi TakeAlongAxisGradKernel, a scatter-add). Inputs
 * Input (meta only), Index (int32/int64, Input's rank, dims off the axis at most Input's),
 * Result@GRAD (Index's dims); attribute Axis (negative counts from the end). Float32 and
 * float64. */
#include "kernels/cpu/kgrad.h"

enum { IN_INPUT, IN_INDEX, IN_DOUT };
static const ic_slotdef k_inputs[3] = {
    {"Input", IC_SLOT_NO_BUFFER}, {"Index", 0}, {"Result@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"Input@GRAD", 0}};

typedef struct taa_grad_attrs {
  int64_t axis;
} taa_grad_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((taa_grad_attrs *)attrs)->axis = ic_ar_int(r, "Axis", 0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const taa_grad_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, IN_INDEX, 0, IC_DT_INT);
  if (st || (st = ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT))) return st;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *idx = ic_in(c, IN_INDEX, 0);
  const ic_tensor *g = ic_in(c, IN_DOUT, 0);
  const int rank = x->ndim;
  if (rank < 1) return ic_kfail_in(c, IN_INPUT, 0, "expected rank >= 1");
  const int ax = ic_kaxis(c, a->axis, rank, "Axis");
  if (ax < 0) return c->err->code;
  if (idx->ndim != rank) return ic_kfail_in(c, IN_INDEX, 0, "expected Input's rank %d", rank);
  for (int i = 0; i < rank; i++) {
    if (i != ax && idx->dims[i] > x->dims[i]) {
      return ic_kfail_in(c, IN_INDEX, 0, "has dim %d of %lld, expected at most Input's %lld", i,
                         (long long)idx->dims[i], (long long)x->dims[i]);
    }
  }
  if ((st = kg_expect(c, IN_DOUT, g->dtype, rank, idx->dims, "Index's"))) return st;
  kg_out(c, 0, g->dtype, rank, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const taa_grad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *idx = ic_in(c, IN_INDEX, 0);
  const ic_tensor *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int ax = (int)(a->axis < 0 ? a->axis + x->ndim : a->axis);
  ic_status st = kg_along_check(c, IN_INDEX, idx, x->dims[ax], ax);
  if (st) return st;
  const int64_t n = ic_tensor_numel_(idx);
  ic_buffer *b = ic_kscratch(c, (size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  if (!b) return c->err->code;
  int64_t *off = b->data;
  kg_along_offsets(idx, ax, x->dims, NULL, off, NULL);
  kg_zero(dx);
  for (int64_t i = 0; i < n; i++) kg_add(dx, off[i], kg_get(g, i));
  ic_buffer_release(b);
  return IC_OK;
}

const ic_opdef ic_op_take_along_axis_grad = {
    .name = "take_along_axis_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(taa_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
