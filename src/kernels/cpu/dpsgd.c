/* dpsgd: one differentially private SGD step (phi DpsgdOpKernel, CPU; float32 and float64),
 * with clip, batch_size and sigma (defaults 10, 16, 1) and lr = LearningRate:
 *   norm  = sqrt(sum Grad^2)  (summed and rooted in float32, as Paddle does)
 *   scale = norm > clip ? norm / clip : 1
 *   noise = sigma X, X one standard normal draw
 *   ParamOut = Param - lr (Grad / scale + noise / batch_size)
 * The draw: Paddle seeds a fresh std::minstd_rand with `seed` every time the op runs and
 * takes one Gaussian value by Marsaglia's polar method from pairs of
 * uniform_real_distribution<T>(0, 1) draws (libstdc++'s generate_canonical: one engine call
 * per float32, two per float64), in float32 arithmetic; icore runs the same engine and the
 * same steps, so a fixed seed gives Paddle's noise. With seed 0 Paddle seeds from the clock
 * (time(NULL)), which no one can reproduce: icore then seeds from the executor's seed and
 * the op's position (ic_philox_key), reproducible for icore only. ParamOut updates Param in
 * place (ic_dpsgd_inplace, train.h). Paddle's kernel takes a dense Grad only. */
#include <math.h>

#include "kernels/cpu/philox.h"
#include "kernels/cpu/train.h"

typedef struct dpsgd_attrs {
  float clip, batch_size, sigma;
  int64_t seed;
} dpsgd_attrs;

enum { IN_PARAM, IN_GRAD, IN_LR };

const ic_train_inplace ic_dpsgd_inplace[] = {{"ParamOut", "Param"}, {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  dpsgd_attrs *a = attrs;
  a->clip = (float)ic_ar_float(r, "clip", 10.0);
  a->batch_size = (float)ic_ar_float(r, "batch_size", 16.0);
  a->sigma = (float)ic_ar_float(r, "sigma", 1.0);
  a->seed = ic_ar_int(r, "seed", 0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT_FLOAT)) ||
      (st = ic_train_same(c, IN_GRAD, 0, IN_PARAM)) || (st = ic_train_scalar(c, IN_LR, p->dtype))) {
    return st;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), p->dtype, p->ndim, p->dims);
  return IC_OK;
}

/* std::minstd_rand: x <- 48271 x mod (2^31 - 1), seeded with seed mod (2^31 - 1) (1 when that
 * is 0); values in [1, 2^31 - 2]. */
typedef struct minstd {
  uint64_t x;
} minstd;

static void minstd_seed(minstd *m, uint64_t seed) {
  m->x = seed % 2147483647u;
  if (m->x == 0) m->x = 1;
}

static uint64_t minstd_next(minstd *m) {
  m->x = (m->x * 48271u) % 2147483647u;
  return m->x;
}

/* uniform_real_distribution<float>(0, 1): generate_canonical<float, 24> takes one engine
 * value (libstdc++: k = max(1, (24 + 30 - 1) / 30)), divided by the engine's range
 * 2^31 - 2 held as a float (2^31); a result of 1 becomes the float just below 1. */
static float canon_f32(minstd *m) {
  const float r = (float)2147483646.0;
  float v = (float)(minstd_next(m) - 1) / r;
  if (v >= 1.0f) v = nextafterf(1.0f, 0.0f);
  return v;
}

/* uniform_real_distribution<double>(0, 1): two engine values, k = (53 + 29) / 30 = 2. */
static double canon_f64(minstd *m) {
  const double r = 2147483646.0;
  double sum = (double)(minstd_next(m) - 1);
  sum += (double)(minstd_next(m) - 1) * r;
  double v = sum / (r * r);
  if (v >= 1.0) v = nextafter(1.0, 0.0);
  return v;
}

/* One standard normal value by the polar method, in float32 as Paddle computes it. */
static float polar(minstd *m, bool f64) {
  float v1, v2, s;
  do {
    const float u1 = f64 ? (float)canon_f64(m) : canon_f32(m);
    const float u2 = f64 ? (float)canon_f64(m) : canon_f32(m);
    v1 = 2 * u1 - 1;
    v2 = 2 * u2 - 1;
    s = v1 * v1 + v2 * v2;
  } while (s >= 1 || s == 0);
  return v1 * sqrtf(-2 * logf(s) / s);
}

static ic_status run(ic_kctx *c) {
  const dpsgd_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0), *g = ic_in(c, IN_GRAD, 0);
  ic_status st;
  if ((st = ic_train_own(c, ic_out(c, 0, 0), p))) return st;
  const int64_t n = ic_tensor_numel_(p);
  const bool f64 = p->dtype == IC_FP64;
  uint64_t seed = (uint32_t)a->seed; /* Paddle keeps the seed as an unsigned int */
  if (!seed) seed = (uint32_t)ic_philox_key(0, c->env ? c->env->seed : 0, c->op_key);
  minstd m;
  minstd_seed(&m, seed);
  const float x = polar(&m, f64);
  if (!f64) {
    const float *restrict pp = p->data, *restrict gp = g->data;
    float *restrict po = ic_out(c, 0, 0)->data;
    const float lr = *(const float *)ic_in(c, IN_LR, 0)->data, clip = a->clip,
                bs = a->batch_size;
    float l2 = 0;
    for (int64_t i = 0; i < n; i++) l2 = l2 + gp[i] * gp[i];
    l2 = sqrtf(l2);
    const float scale = l2 > clip ? l2 / clip : 1.0f;
    const float noise = 0.0f + x * a->sigma;
    for (int64_t i = 0; i < n; i++) po[i] = pp[i] - lr * (gp[i] / scale + noise / bs);
  } else {
    const double *restrict pp = p->data, *restrict gp = g->data;
    double *restrict po = ic_out(c, 0, 0)->data;
    const double lr = *(const double *)ic_in(c, IN_LR, 0)->data, clip = (double)a->clip,
                 bs = (double)a->batch_size;
    float l2 = 0;
    for (int64_t i = 0; i < n; i++) l2 = (float)((double)l2 + gp[i] * gp[i]);
    l2 = sqrtf(l2);
    const float scale = l2 > clip ? (float)(l2 / clip) : 1.0f;
    const float noise = (float)(0.0f + (double)x * (double)a->sigma);
    for (int64_t i = 0; i < n; i++) {
      po[i] = pp[i] - lr * (gp[i] / (double)scale + (double)noise / bs);
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Param", 0}, {"Grad", 0}, {"LearningRate", 0}};
static const ic_slotdef outputs[] = {{"ParamOut", IC_SLOT_SHARE}};

const ic_opdef ic_op_dpsgd = {
    .name = "dpsgd",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(dpsgd_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_RANDOM,
    .resolve = ic_train_dense_grad_resolve,
};
