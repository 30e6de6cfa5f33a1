/* softsign: Out = X / (1 + |X|). float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(softsign, ic_noattrs, softsign_f32, softsign_f64)

const ic_opdef ic_op_softsign = IC_ACTIVATION_DEF(softsign, ic_noattrs, NULL, ic_activation_infer);
