/* gammaincc: out = Q(x, y) = Gamma(x, y) / Gamma(x), the regularized upper incomplete gamma
 * function of shape x at y (Paddle 3's paddle.gammaincc; paddle.gammainc exports as 1 - this
 * through a scale op). float32 and float64, each in its own precision, by the Cephes scheme
 * phi's igamc / igam use (paddle/phi/kernels/impl/gammaincc_kernel_impl.h): 1 when x <= 0 or
 * y <= 0; the power series of P (1 - P) when y < 1 or y < x, else the continued fraction;
 * 0 when x log y - y - lgamma(x) < -MAXLOG; NaN through NaN operands. Both series stop at
 * Cephes' double epsilon 2^-53 whatever the precision, as in Paddle (the continued fraction
 * after at most GI_MAXITER steps in icore).
 * x and y must have the same dims (Paddle's kernel reads y as x's shape without checking;
 * icore refuses what would read past y). Legacy slots x, y, out. */
#include <math.h>

#include "kernels/kernel.h"

#define GI_MAXLOG 7.09782712893383996732E2
#define GI_MACHEP 1.11022302462515654042E-16
/* A bound on the continued fraction's steps, which Paddle does not have: a float32 fraction
 * that never settles to 2^-53 stops there instead of looping forever. */
#define GI_MAXITER 100000

/* One precision's P (igam) and Q (igamc): T the type, S the libm suffix (f or nothing). */
#define GI_DEFINE(T, S)                                                                    \
  static T igamc_##T(T a, T x);                                                            \
  static T igam_##T(T a, T x) {                                                            \
    if (x <= (T)0 || a <= (T)0) return (T)0;                                               \
    if (x > (T)1 && x > a) return (T)1 - igamc_##T(a, x);                                  \
    int sg;                                                                                \
    T ax = a * log##S(x) - x - lgamma##S##_r(a, &sg);                                      \
    if (ax < (T)-GI_MAXLOG) return (T)0;                                                   \
    ax = exp##S(ax);                                                                       \
    T r = a, c = (T)1, ans = (T)1;                                                         \
    do {                                                                                   \
      r += (T)1;                                                                           \
      c *= x / r;                                                                          \
      ans += c;                                                                            \
    } while (c / ans > (T)GI_MACHEP);                                                      \
    return ans * ax / a;                                                                   \
  }                                                                                        \
  static T igamc_##T(T a, T x) {                                                           \
    const T big = (T)4.503599627370496e15, biginv = (T)2.22044604925031308085e-16;         \
    if (x <= (T)0 || a <= (T)0) return (T)1;                                               \
    if (x < (T)1 || x < a) return (T)1 - igam_##T(a, x);                                   \
    int sg;                                                                                \
    T ax = a * log##S(x) - x - lgamma##S##_r(a, &sg);                                      \
    if (ax < (T)-GI_MAXLOG) return (T)0;                                                   \
    ax = exp##S(ax);                                                                       \
    T y = (T)1 - a, z = x + y + (T)1, c = (T)0;                                            \
    T pkm2 = (T)1, qkm2 = x, pkm1 = x + (T)1, qkm1 = z * x;                                \
    T ans = pkm1 / qkm1, t;                                                                \
    int it = 0;                                                                            \
    do {                                                                                   \
      c += (T)1;                                                                           \
      y += (T)1;                                                                           \
      z += (T)2;                                                                           \
      T yc = y * c, pk = pkm1 * z - pkm2 * yc, qk = qkm1 * z - qkm2 * yc;                  \
      if (qk != (T)0) {                                                                    \
        T r = pk / qk;                                                                     \
        t = fabs##S((ans - r) / r);                                                        \
        ans = r;                                                                           \
      } else {                                                                             \
        t = (T)1;                                                                          \
      }                                                                                    \
      pkm2 = pkm1;                                                                         \
      pkm1 = pk;                                                                           \
      qkm2 = qkm1;                                                                         \
      qkm1 = qk;                                                                           \
      if (fabs##S(pk) > big) {                                                             \
        pkm2 *= biginv;                                                                    \
        pkm1 *= biginv;                                                                    \
        qkm2 *= biginv;                                                                    \
        qkm1 *= biginv;                                                                    \
      }                                                                                    \
    } while (t > (T)GI_MACHEP && ++it < GI_MAXITER);                                      \
    return ans * ax;                                                                       \
  }

GI_DEFINE(float, f)
GI_DEFINE(double, )

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (y->dtype != x->dtype) {
    return ic_kfail_in(c, 1, 0, "expected x's dtype %s", ic_dtype_name(x->dtype));
  }
  bool same = x->ndim == y->ndim;
  for (int k = 0; same && k < x->ndim; k++) same = x->dims[k] == y->dims[k];
  if (!same) return ic_kfail_in(c, 1, 0, "expected x's dims (gammaincc does not broadcast)");
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_numel(x->ndim, x->dims);
  const int nt = n >= 4096 ? ic_omp_threads(c->env) : 1;
  if (x->dtype == IC_FP32) {
    const float *a = x->data, *v = y->data;
    float *out = o->data;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t i = 0; i < n; i++) out[i] = igamc_float(a[i], v[i]);
  } else {
    const double *a = x->data, *v = y->data;
    double *out = o->data;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t i = 0; i < n; i++) out[i] = igamc_double(a[i], v[i]);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"x", 0}, {"y", 0}};
static const ic_slotdef outputs[] = {{"out", 0}};

const ic_opdef ic_op_gammaincc = {
    .name = "gammaincc", .n_inputs = 2, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
