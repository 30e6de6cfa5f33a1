/* unpool3d_grad: the gradient of unpool3d (phi Unpool3dGradKernel, Unpool3dMaxGradFunctor):
 *   X@GRAD[n, c, i] = Out@GRAD[n, c].flat[Indices[n, c, i]]
 * over each channel's output volume; unpool_grad.c's code at rank 5. Inputs X (dims only),
 * Indices (int32 / int64, X's dims), Out (optional, unused), Out@GRAD [N, C, OD, OH, OW];
 * unpool3d's attributes (unpooling_type "max", data_format "NCDHW"). float32, float64. */
#include <string.h>

#include "kernels/kernel.h"

ic_status ic_unpool_grad_infer_nd(ic_kctx *c, int nd);
ic_status ic_unpool_grad_run(ic_kctx *c);

static ic_status parse(ic_attr_reader *r, void *attrs) {
  (void)attrs;
  const char *type = ic_ar_str(r, "unpooling_type", "max");
  const char *fmt = ic_ar_str(r, "data_format", "NCDHW");
  if (r->st) return r->st;
  if (strcmp(type, "max") != 0) {
    return ic_ar_fail(r, "unpooling_type", "is \"%s\", expected \"max\"", type);
  }
  if (strcmp(fmt, "NCDHW") != 0) {
    return ic_ar_fail(r, "data_format", "is \"%s\", expected \"NCDHW\"", fmt);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) { return ic_unpool_grad_infer_nd(c, 5); }

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER},
                                    {"Indices", 0},
                                    {"Out", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
                                    {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_unpool3d_grad = {
    .name = "unpool3d_grad", .n_inputs = 4, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = 0, .parse = parse, .infer = infer, .cpu = ic_unpool_grad_run,
};
