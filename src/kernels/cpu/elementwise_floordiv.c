/* elementwise_floordiv: Out = floor(X / Y) with Paddle's broadcasting (see elementwise.c),
 * rounding toward -inf as Python's // (paddle/phi/kernels/funcs/elementwise_functor.h
 * FloorDivideFunctor); integers fail on a zero divisor, floats give inf or NaN. */
#include "kernels/cpu/elementwise.h"

static ic_status run(ic_kctx *c) { return ic_elementwise_run(c, IC_EW_FLOORDIV); }

const ic_opdef ic_op_elementwise_floordiv = IC_ELEMENTWISE_DEF("elementwise_floordiv", run);
