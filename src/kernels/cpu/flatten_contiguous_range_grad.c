/* flatten_contiguous_range_grad: X@GRAD = Out@GRAD with the dims of the forward op's input,
 * read from XShape (meta only, dims [0, X's dims...]); the output shares Out@GRAD's buffer
 * (train.h). */
#include "kernels/cpu/train.h"

const ic_opdef ic_op_flatten_contiguous_range_grad = IC_XSHAPE_GRAD_DEF("flatten_contiguous_range_grad");
