/* asin: Out = asin(X) (NaN outside [-1, 1]). float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(asin, ic_noattrs, asin_f32, asin_f64)

const ic_opdef ic_op_asin = IC_ACTIVATION_DEF(asin, ic_noattrs, NULL, ic_activation_infer);
