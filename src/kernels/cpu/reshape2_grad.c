/* reshape2_grad: X@GRAD = Out@GRAD with the dims of reshape2's input, read from XShape
 * (meta only, dims [0, X's dims...]); the output shares Out@GRAD's buffer (train.h). */
#include "kernels/cpu/train.h"

const ic_opdef ic_op_reshape2_grad = IC_XSHAPE_GRAD_DEF("reshape2_grad");
