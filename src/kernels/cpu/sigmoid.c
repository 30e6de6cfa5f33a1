/* sigmoid: Out = 1 / (1 + exp(-X)) (sigmoid_f32 / sigmoid_f64 in activation.h). float32 runs
 * vmath's vectorized form of the same formula (vmath.h: its exponential is within 3 ulp of
 * libm's and gives the same bits at any vector width; the tails differ only below 1e-38):
 * PP-OCRv4's detector ends in a sigmoid over 640 x 640 values, 0.76 ms with expf against
 * 0.13 ms. */
#include "kernels/cpu/activation.h"
#include "kernels/cpu/vmath.h"

#define SIGMOID_VEC(o, x, n, a) ic_vsigmoidf(o, x, n)
IC_ACTIVATION_RUN_VEC(sigmoid, ic_noattrs, sigmoid_f32, sigmoid_f64, SIGMOID_VEC)

const ic_opdef ic_op_sigmoid = IC_ACTIVATION_DEF(sigmoid, ic_noattrs, NULL, ic_activation_infer);
