/* elementwise_mod: Out = X mod Y with Paddle's broadcasting (see elementwise.c); the result
 * takes Y's sign as Python's % (paddle/phi/kernels/funcs/elementwise_functor.h
 * RemainderFunctor): integers fail on a zero divisor, floats give NaN. */
#include "kernels/cpu/elementwise.h"

static ic_status run(ic_kctx *c) { return ic_elementwise_run(c, IC_EW_MOD); }

const ic_opdef ic_op_elementwise_mod = IC_ELEMENTWISE_DEF("elementwise_mod", run);
