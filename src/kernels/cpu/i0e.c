/* i0e: out = exp(-|x|) I0(x), the exponentially scaled I0 (even), float32 and float64 in
 * their precision by Cephes' Chebyshev series as Paddle's I0eFunctor evaluates them
 * (special_fn.h; paddle/phi/kernels/impl/bessel_kernel_impl.h): 0 at +-inf, NaN for NaN.
 * Legacy slots x, out. */
#include "kernels/cpu/activation.h"
#include "kernels/cpu/special_fn.h"

static inline float i0e_f32(float x, const ic_noattrs *a) {
  (void)a;
  return ic_i0e_f32(x);
}
static inline double i0e_f64(double x, const ic_noattrs *a) {
  (void)a;
  return ic_i0e_f64(x);
}

IC_ACTIVATION_RUN(i0e, ic_noattrs, i0e_f32, i0e_f64)

static const ic_slotdef inputs[] = {{"x", 0}};
static const ic_slotdef outputs[] = {{"out", 0}};

const ic_opdef ic_op_i0e = {
    .name = "i0e", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = ic_activation_infer, .cpu = i0e_cpu,
};
