/* polygamma: out = psi^(n)(x), the n-th derivative of digamma, float32 and float64 in their
 * precision as Paddle's PolygammaFunctor computes it for every n (special_fn.h):
 * (-1)^(n+1) exp(lgamma(n + 1)) zeta(n + 1, x). So n = 0 gives -inf everywhere (the op, unlike
 * paddle.polygamma's Python code, does not turn n = 0 into digamma) and n < 0 NaN, as in
 * Paddle, which does not check n. Legacy slots x, out; attribute n (int, default 0)
 * (paddle/phi/kernels/impl/polygamma_kernel_impl.h). */
#include "kernels/cpu/activation.h"
#include "kernels/cpu/special_fn.h"

typedef struct polygamma_attrs {
  int32_t n;
  float factor32; /* (-1)^(n+1) n!, in float and in double */
  double factor64;
} polygamma_attrs;

/* n's factor (-1)^(n+1) exp(lgamma(n + 1)), once per op; through the reentrant lgamma
 * (CMakeLists.txt compiles this file with _DEFAULT_SOURCE), as plans may be built on
 * several threads at once. */
static float factor_f32(int32_t n) {
  int sign;
  return ((n % 2) ? 1.0f : -1.0f) * expf(lgammaf_r((float)n + 1.0f, &sign));
}
static double factor_f64(int32_t n) {
  int sign;
  return ((n % 2) ? 1.0 : -1.0) * exp(lgamma_r((double)n + 1.0, &sign));
}

static ic_status parse(ic_attr_reader *r, void *attrs) {
  polygamma_attrs *a = attrs;
  int64_t n = ic_ar_int(r, "n", 0);
  if (r->st) return r->st;
  if (n < INT32_MIN || n > INT32_MAX) {
    return ic_ar_fail(r, "n", "is %lld, expected an int32", (long long)n);
  }
  a->n = (int32_t)n;
  a->factor32 = factor_f32(a->n);
  a->factor64 = factor_f64(a->n);
  return IC_OK;
}

static inline float polygamma_f32(float x, const polygamma_attrs *a) {
  return ic_polygamma_f32(a->n, a->factor32, x);
}
static inline double polygamma_f64(double x, const polygamma_attrs *a) {
  return ic_polygamma_f64(a->n, a->factor64, x);
}

IC_ACTIVATION_RUN(polygamma, polygamma_attrs, polygamma_f32, polygamma_f64)

static const ic_slotdef inputs[] = {{"x", 0}};
static const ic_slotdef outputs[] = {{"out", 0}};

const ic_opdef ic_op_polygamma = {
    .name = "polygamma", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(polygamma_attrs), .parse = parse, .infer = ic_activation_infer,
    .cpu = polygamma_cpu,
};
