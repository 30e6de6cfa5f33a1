/* top_k_v2_grad: X@GRAD = zeros with Out@GRAD's elements put back at the positions Indices
 * gives along `axis` (train.h). top_k_v2's attributes (k, axis, largest, sorted); only axis
 * matters. */
#include "kernels/cpu/topk.h"
#include "kernels/cpu/train.h"

const ic_opdef ic_op_top_k_v2_grad = {
    .name = "top_k_v2_grad", .n_inputs = 4, .inputs = ic_topk_grad_inputs, .n_outputs = 1,
    .outputs = ic_topk_grad_outputs, .attrs_size = sizeof(topk_attrs),
    .parse = ic_top_k_v2_parse, .infer = ic_topk_grad_infer, .cpu = ic_topk_grad_run,
};
