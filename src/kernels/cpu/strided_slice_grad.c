/* strided_slice_grad: Input@GRAD = zeros of Input's dims with Out@GRAD written back at the
 * positions strided_slice read (phi StridedSliceGradKernel); the window is strided_slice's
 * own plan (shapeops.h), so negative strides, repeated axes and decrease_axis behave alike.
 * Inputs Input (meta only), the six starts / ends / strides inputs (optional), Out@GRAD;
 * output Input@GRAD. Any dtype (elements are moved). */
#include <string.h>

#include "kernels/cpu/shapeops.h"

enum { INPUT, DOUT = 7 };

static const ic_slotdef k_inputs[8] = {
    {"Input", IC_SLOT_NO_BUFFER},
    {"StartsTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"StartsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"EndsTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"EndsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"StridesTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"StridesTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"Out@GRAD", 0},
};
static const ic_slotdef k_outputs[1] = {{"Input@GRAD", 0}};

static ic_status infer(ic_kctx *c) {
  ss_plan p;
  ic_status st = ic_strided_slice_plan(c, &p);
  if (st) return st;
  const ic_tensor *x = ic_in(c, INPUT, 0), *g = ic_in(c, DOUT, 0);
  int64_t d[IC_MAX_RANK];
  int n = ic_strided_slice_out_dims(&p, x->ndim, d);
  if (!ic_dims_equal(g->ndim, g->dims, n, d)) {
    char s[128];
    return ic_kfail_in(c, DOUT, 0, "expected dims %s (strided_slice's Out)",
                       ic_dims_str(n, d, s, sizeof s));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  ss_plan p;
  ic_status st = ic_strided_slice_plan(c, &p);
  if (st) return st;
  const ic_tensor *x = ic_in(c, INPUT, 0), *g = ic_in(c, DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  size_t es = ic_dtype_size(g->dtype);
  memset(dx->data, 0, (size_t)ic_tensor_numel_(dx) * es);
  ic_strided_slice_move(&p, x, es, dx->data, g->data, false);
  return IC_OK;
}

const ic_opdef ic_op_strided_slice_grad = {
    .name = "strided_slice_grad", .n_inputs = 8, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(strided_slice_attrs),
    .parse = ic_strided_slice_parse, .infer = infer, .cpu = run,
};
