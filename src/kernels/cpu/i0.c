/* i0: out = I0(x), the modified Bessel function of the first kind of order 0 (even),
 * float32 and float64 in their precision by Cephes' Chebyshev series as Paddle's I0Functor
 * evaluates them (special_fn.h; paddle/phi/kernels/impl/bessel_kernel_impl.h): inf beyond
 * float's or double's range, NaN for NaN. Legacy slots x, out. */
#include "kernels/cpu/activation.h"
#include "kernels/cpu/special_fn.h"

static inline float i0_f32(float x, const ic_noattrs *a) {
  (void)a;
  return ic_i0_f32(x);
}
static inline double i0_f64(double x, const ic_noattrs *a) {
  (void)a;
  return ic_i0_f64(x);
}

IC_ACTIVATION_RUN(i0, ic_noattrs, i0_f32, i0_f64)

static const ic_slotdef inputs[] = {{"x", 0}};
static const ic_slotdef outputs[] = {{"out", 0}};

const ic_opdef ic_op_i0 = {
    .name = "i0", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = ic_activation_infer, .cpu = i0_cpu,
};
