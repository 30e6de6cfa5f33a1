/* poisson: Out[i] = a draw of the Poisson distribution of mean X[i] (paddle.poisson; phi
 * PoissonKernel draws std::poisson_distribution and stores it in X's dtype), float32 and
 * float64, a mean >= 0 (0 draws 0; a negative or NaN mean is refused). Draws come from icore's
 * Philox stream seeded by the executor (not Paddle's): Knuth's product of uniforms below a
 * mean of 10, Hormann's transformed rejection (PTRS, 1993) above. */
#include <math.h>

#include "kernels/cpu/randutil.h"
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static double draw(ic_rstream *s, double lam) {
  if (lam <= 0) return 0;
  if (lam < 10) {
    const double lim = exp(-lam);
    double p = 1;
    int64_t k = -1;
    do {
      p *= ic_rstream_u53(s);
      k++;
    } while (p > lim);
    return (double)k;
  }
  const double slam = sqrt(lam), loglam = log(lam);
  const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  const double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const double u = ic_rstream_u53(s) - 0.5, v = ic_rstream_u53(s);
    const double us = 0.5 - fabs(u);
    const double k = floor((2 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lam + k * loglam - lgamma(k + 1)) {
      return k;
    }
  }
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  const bool f32 = x->dtype == IC_FP32;
  for (int64_t i = 0; i < n; i++) {
    const double lam = f32 ? ((const float *)x->data)[i] : ((const double *)x->data)[i];
    if (!(lam >= 0) || isinf(lam)) {
      return ic_kfail_in(c, 0, 0, "holds %g at element %lld, expected a finite mean >= 0", lam,
                         (long long)i);
    }
  }
  const uint64_t key = ic_philox_key(0, c->env->seed, c->op_key);
  for (int64_t i = 0; i < n; i++) {
    ic_rstream s = ic_rstream_at(key, (uint64_t)i);
    const double lam = f32 ? ((const float *)x->data)[i] : ((const double *)x->data)[i];
    const double y = draw(&s, lam);
    if (f32) ((float *)o->data)[i] = (float)y;
    else ((double *)o->data)[i] = y;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_poisson = {
    .name = "poisson", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run, .flags = IC_OP_RANDOM,
};
