/* The shared kernel of fractional_max_pool2d_grad / 3d_grad: x@GRAD = 0, then each
 * out@GRAD element added at its mask position in its (N, C) plane, in out's order, in the
 * element type (phi FractionalMaxPool{2,3}dGradFunctor). A mask of -1 (a window without a
 * value, whose out is -FLT_MAX) adds nothing: Paddle writes before the plane there (out of
 * bounds); any other mask outside the plane is refused. Slots mask, out@GRAD, x -> x@GRAD. */
#ifndef IC_KERNELS_CPU_FRACTIONAL_MAX_POOL_GRAD_H
#define IC_KERNELS_CPU_FRACTIONAL_MAX_POOL_GRAD_H

#include "kernels/cpu/fractional_max_pool.h"

ic_status ic_fmp_grad_infer(ic_kctx *c);
ic_status ic_fmp_grad_cpu(ic_kctx *c);

#endif
