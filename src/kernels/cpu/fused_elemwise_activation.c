/* fused_elemwise_activation: an elementwise add/mul fused with an activation, as Paddle's
 * fuse_elewise_add_act_pass writes it (see fused_elemwise.c for the semantics). */
#include "kernels/cpu/fused_elemwise.h"

const ic_opdef ic_op_fused_elemwise_activation = IC_FEA_DEF("fused_elemwise_activation");
