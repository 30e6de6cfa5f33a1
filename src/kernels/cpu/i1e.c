/* i1e: out = exp(-|x|) I1(x), the exponentially scaled I1 (odd), float32 and float64 in
 * their precision by Cephes' Chebyshev series as Paddle's I1eFunctor evaluates them
 * (special_fn.h; paddle/phi/kernels/impl/bessel_kernel_impl.h): +-0 at +-inf, NaN for NaN.
 * Legacy slots x, out. */
#include "kernels/cpu/activation.h"
#include "kernels/cpu/special_fn.h"

static inline float i1e_f32(float x, const ic_noattrs *a) {
  (void)a;
  return ic_i1e_f32(x);
}
static inline double i1e_f64(double x, const ic_noattrs *a) {
  (void)a;
  return ic_i1e_f64(x);
}

IC_ACTIVATION_RUN(i1e, ic_noattrs, i1e_f32, i1e_f64)

static const ic_slotdef inputs[] = {{"x", 0}};
static const ic_slotdef outputs[] = {{"out", 0}};

const ic_opdef ic_op_i1e = {
    .name = "i1e", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = ic_activation_infer, .cpu = i1e_cpu,
};
