/* cummin_grad: the gradient of cummin's running minimum, a scatter-add of out@GRAD at the
 * indices cummin wrote (cumext_grad.c). */
#include "kernels/cpu/cumext.h"

const ic_opdef ic_op_cummin_grad = {
    .name = "cummin_grad", .n_inputs = 3, .inputs = ic_cumext_grad_inputs, .n_outputs = 1,
    .outputs = ic_cumext_grad_outputs, .attrs_size = sizeof(ic_cumext_grad_attrs),
    .parse = ic_cumext_grad_parse, .infer = ic_cumext_grad_infer, .cpu = ic_cumext_grad_run,
};
