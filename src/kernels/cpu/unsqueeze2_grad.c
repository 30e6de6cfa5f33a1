/* unsqueeze2_grad: X@GRAD = Out@GRAD with the dims of unsqueeze2's input, read from XShape
 * (meta only, dims [0, X's dims...]); the output shares Out@GRAD's buffer (train.h). */
#include "kernels/cpu/train.h"

const ic_opdef ic_op_unsqueeze2_grad = IC_XSHAPE_GRAD_DEF("unsqueeze2_grad");
