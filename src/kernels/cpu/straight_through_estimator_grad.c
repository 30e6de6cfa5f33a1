/* straight_through_estimator_grad: the gradient that Paddle 3's grad makers write for
 * moving_average_abs_max_scale (the fluid StraightThroughEstimatorMaker's name):
 * X@GRAD = Out@GRAD (quant_ste.h). */
#include "kernels/cpu/quant_ste.h"

IC_DEFINE_STE_GRAD(straight_through_estimator_grad);
