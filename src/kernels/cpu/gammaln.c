/* gammaln: out = log |Gamma(x)|, float32 and float64 (Paddle 3's paddle.gammaln, the phi
 * kernel gammaln: GammalnFunctor in paddle/phi/kernels/impl/gammaln_kernel_impl.h calls
 * std::lgamma in the element's own precision). The values are lgamma's: +inf at the poles
 * 0, -1, -2, ... and at +-inf, NaN for NaN. Through the reentrant lgammaf_r / lgamma_r, so
 * that the threads of the element loop do not write libm's global signgam (CMakeLists.txt
 * compiles this file with _DEFAULT_SOURCE). Legacy slots x, out. */
#include "kernels/cpu/activation.h"

static inline float gammaln_f32(float x, const ic_noattrs *a) {
  (void)a;
  int sign;
  return lgammaf_r(x, &sign);
}
static inline double gammaln_f64(double x, const ic_noattrs *a) {
  (void)a;
  int sign;
  return lgamma_r(x, &sign);
}

IC_ACTIVATION_RUN(gammaln, ic_noattrs, gammaln_f32, gammaln_f64)

static const ic_slotdef inputs[] = {{"x", 0}};
static const ic_slotdef outputs[] = {{"out", 0}};

const ic_opdef ic_op_gammaln = {
    .name = "gammaln", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_noattrs), .infer = ic_activation_infer, .cpu = gammaln_cpu,
};
