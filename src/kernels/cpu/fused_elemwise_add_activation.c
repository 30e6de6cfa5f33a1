/* fused_elemwise_add_activation: Paddle's other name for fused_elemwise_activation (the same
 * phi kernel and shape inference; see fused_elemwise.c). */
#include "kernels/cpu/fused_elemwise.h"

const ic_opdef ic_op_fused_elemwise_add_activation =
    IC_FEA_DEF("fused_elemwise_add_activation");
