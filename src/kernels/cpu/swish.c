/* swish: Out = X / (1 + exp(-beta X)), i.e. X sigmoid(beta X), beta default 1.
 * Paddle 3 defines swish without attributes and computes beta = 1 whatever an older
 * program's `beta` says (checked with Paddle 3.3.1); icore honours `beta`, as the Paddle
 * 2.x versions that wrote it did. Exported models write 1, where the two agree. float32 runs
 * vmath's vectorized form of the same formula (its exponential within 3 ulp of libm's, the
 * same bits at any vector width). */
#include "kernels/cpu/activation.h"
#include "kernels/cpu/vmath.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  swish_attrs *a = attrs;
  a->beta = (float)ic_ar_float(r, "beta", 1.0);
  return r->st;
}

#define SWISH_VEC(o, x, n, a) ic_vswishf(o, x, n, (a)->beta)
IC_ACTIVATION_RUN_VEC(swish, swish_attrs, swish_f32, swish_f64, SWISH_VEC)

const ic_opdef ic_op_swish = IC_ACTIVATION_DEF(swish, swish_attrs, parse, ic_activation_infer);
