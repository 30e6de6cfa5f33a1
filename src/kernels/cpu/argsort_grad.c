/* argsort_grad: X@GRAD = zeros with each Out@GRAD element put back at the position Indices
 * gives along `axis` (phi ArgsortGradKernel): top_k_v2_grad's scatter (train.h) with k the
 * whole axis. Inputs Indices, X (meta only), Out@GRAD; attributes axis (default -1),
 * descending and stable (which do not change the scatter). */
#include "kernels/cpu/topk.h"
#include "kernels/cpu/train.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  topk_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", -1);
  a->largest = ic_ar_bool(r, "descending", false);
  (void)ic_ar_bool(r, "stable", false);
  a->k = -1;
  a->sorted = true;
  return r->st;
}

const ic_opdef ic_op_argsort_grad = {
    .name = "argsort_grad", .n_inputs = 4, .inputs = ic_topk_grad_inputs, .n_outputs = 1,
    .outputs = ic_topk_grad_outputs, .attrs_size = sizeof(topk_attrs), .parse = parse,
    .infer = ic_topk_grad_infer, .cpu = ic_topk_grad_run,
};
