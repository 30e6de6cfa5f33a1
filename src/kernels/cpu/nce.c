/* nce (fluid NCEKernel, paddle.static.nn.nce): noise-contrastive estimation. Each row i of
 * Input [N, D] gets SampleLabels[i] = its true classes Label[i] ([N, T] int64), then
 * num_neg_samples negatives: custom_neg_classes when given (the same list for every row),
 * else drawn by the sampler (0 uniform over [0, C), 1 log-uniform, 2 custom_dist through
 * the alias tables CustomDistProbs / CustomDistAlias / CustomDistAliasProbs), C =
 * num_total_classes. Then, in Input's precision,
 *   SampleLogits[i][j] = sigmoid(Bias[s] + Input[i] . Weight[s])   (s = SampleLabels[i][j];
 *                        the sigmoid as Paddle computes it: 1 / (1 + exp(-v)) in double)
 *   b = P(s) num_neg_samples (a float; P is the sampler's probability, nce.h)
 *   Cost[i] = SampleWeight[i] sum_j (j < T ? -log(o / (o + b)) : -log(b / (o + b))).
 * With is_test Paddle leaves SampleLogits and SampleLabels unwritten; icore writes them
 * whenever the program names them.
 *
 * The draws: Paddle seeds a fresh std::mt19937_64 with `seed` each time the op runs, so
 * every run draws the same negatives; icore runs the same generator and the same mappings
 * (libstdc++'s uniform_int_distribution as GCC 11 built Paddle 3.x, with Lemire's
 * multiply-and-reject; generate_canonical for the reals), row by row. With seed 0 Paddle
 * draws from its global generator, which icore does not have: icore then seeds the
 * generator from the executor's seed and the op's position (ic_philox_key), reproducible
 * for icore but not Paddle's draws. float32 and float64. */
#include <math.h>

#include "kernels/cpu/mt64.h"
#include "kernels/cpu/nce.h"
#include "kernels/cpu/philox.h"

enum { IN_INPUT, IN_LABEL, IN_WEIGHT, IN_BIAS, IN_SW, IN_PROBS, IN_ALIAS, IN_APROBS };
enum { OUT_COST, OUT_LOGITS, OUT_LABELS };

static const nce_slots k_slots = {IN_INPUT, IN_LABEL, IN_WEIGHT, IN_BIAS,
                                  IN_SW,    IN_PROBS, IN_ALIAS,  IN_APROBS};

/* uniform_real_distribution<double>(0, 1): generate_canonical<double, 53>. */
static double mt64_real(mt64 *m) {
  double r = (double)mt64_next(m) / 18446744073709551616.0;
  return r >= 1.0 ? nextafter(1.0, 0.0) : r;
}

static int64_t draw(const nce_attrs *a, mt64 *m, const ic_tensor *alias,
                    const ic_tensor *aprobs) {
  const uint64_t range = (uint64_t)(a->num_total_classes - 1);
  switch (a->sampler) {
    case 0: return mt64_int(m, range);
    case 1: {
      const float log_range = (float)log((double)a->num_total_classes);
      const double u = mt64_real(m);
      const int64_t v = (int64_t)exp(u * (double)log_range) - 1;
      return v % (int64_t)range;
    }
    default: {
      const int64_t k = mt64_int(m, range);
      const double p = mt64_real(m);
      if (p > (double)((const float *)aprobs->data)[k]) {
        const int32_t al = ((const int32_t *)alias->data)[k];
        return al == -1 ? k : al;
      }
      return k;
    }
  }
}

static ic_status infer(ic_kctx *c) {
  const nce_attrs *a = c->attrs;
  ic_status st = nce_check(c, a, &k_slots);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *lab = ic_in(c, IN_LABEL, 0);
  const int64_t cd[2] = {x->dims[0], 1}, sd[2] = {x->dims[0], lab->dims[1] + a->num_neg_samples};
  ic_tensor_set_meta(ic_out(c, OUT_COST, 0), x->dtype, 2, cd);
  if (ic_out(c, OUT_LOGITS, 0)) ic_tensor_set_meta(ic_out(c, OUT_LOGITS, 0), x->dtype, 2, sd);
  if (ic_out(c, OUT_LABELS, 0)) ic_tensor_set_meta(ic_out(c, OUT_LABELS, 0), IC_INT64, 2, sd);
  return IC_OK;
}

#define FORWARD(T, EXP, LOG)                                                               \
  do {                                                                                     \
    const T *xp = x->data, *wp = ic_in(c, IN_WEIGHT, 0)->data;                             \
    const T *bp = ic_in(c, IN_BIAS, 0) ? ic_in(c, IN_BIAS, 0)->data : NULL;                \
    const T *swp = ic_in(c, IN_SW, 0) ? ic_in(c, IN_SW, 0)->data : NULL;                   \
    T *lg = logits, *cost = ic_out(c, OUT_COST, 0)->data;                                  \
    for (int64_t k = 0; k < N * S; k++) {                                                  \
      const int64_t s = labels[k], i = k / S;                                              \
      T v = bp ? bp[s] : (T)0, dot = 0;                                                    \
      for (int64_t d = 0; d < D; d++) dot += xp[i * D + d] * wp[s * D + d];                \
      v += dot;                                                                            \
      lg[k] = (T)(1. / (1. + EXP(-v)));                                                    \
    }                                                                                      \
    for (int64_t i = 0; i < N; i++) {                                                      \
      T acc = 0;                                                                           \
      const T w = swp ? swp[i] : (T)1;                                                     \
      for (int64_t j = 0; j < S; j++) {                                                    \
        const T o = lg[i * S + j];                                                         \
        const float b = nce_prob(a, probs, labels[i * S + j]) * (float)a->num_neg_samples; \
        const T cst = j < Tn ? -LOG(o / (o + b)) : -LOG(b / (o + b));                      \
        acc += w * cst;                                                                    \
      }                                                                                    \
      cost[i] = acc;                                                                       \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const nce_attrs *a = c->attrs;
  ic_status st = nce_check(c, a, &k_slots);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *lab = ic_in(c, IN_LABEL, 0);
  const int64_t N = x->dims[0], D = x->dims[1], Tn = lab->dims[1], S = Tn + a->num_neg_samples;
  const size_t es = ic_dtype_size(x->dtype);
  ic_tensor *lt = ic_out(c, OUT_LABELS, 0), *ot = ic_out(c, OUT_LOGITS, 0);
  ic_buffer *sb = ic_kscratch(c, (size_t)(N * S) * (sizeof(int64_t) + es) + sizeof(mt64) + 8);
  if (!sb) return c->err->code;
  mt64 *m = sb->data;
  int64_t *labels = lt ? (int64_t *)lt->data : (int64_t *)(m + 1);
  void *logits = ot ? ot->data : (char *)((int64_t *)(m + 1) + N * S);
  const float *probs = a->sampler == 2 ? ic_in(c, IN_PROBS, 0)->data : NULL;
  uint64_t seed = (uint32_t)a->seed; /* Paddle keeps the seed as an unsigned int */
  if (!seed) seed = ic_philox_key(0, c->env ? c->env->seed : 0, c->op_key);
  if (!a->n_custom_neg) mt64_seed(m, seed);
  const int64_t *lp = lab->data;
  for (int64_t i = 0, k = 0; i < N; i++) {
    for (int64_t j = 0; j < Tn; j++) labels[k++] = lp[i * Tn + j];
    for (int64_t j = 0; j < a->num_neg_samples; j++) {
      labels[k++] = a->n_custom_neg ? a->custom_neg[j]
                                    : draw(a, m, ic_in(c, IN_ALIAS, 0), ic_in(c, IN_APROBS, 0));
    }
  }
  for (int64_t k = 0; k < N * S; k++) {
    if (labels[k] < 0 || labels[k] >= a->num_total_classes) {
      st = ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                    "nce: sample label %lld (row %lld) is %lld, expected a class in [0, %lld)%s",
                    (long long)k % S, (long long)(k / S), (long long)labels[k],
                    (long long)a->num_total_classes,
                    k % S < Tn ? " (from Label)" : " (from CustomDistAlias)");
      ic_buffer_release(sb);
      return st;
    }
  }
  if (x->dtype == IC_FP32) FORWARD(float, expf, logf);
  else FORWARD(double, exp, log);
  ic_buffer_release(sb);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Input", 0},
    {"Label", 0},
    {"Weight", 0},
    {"Bias", IC_SLOT_OPTIONAL},
    {"SampleWeight", IC_SLOT_OPTIONAL},
    {"CustomDistProbs", IC_SLOT_OPTIONAL},
    {"CustomDistAlias", IC_SLOT_OPTIONAL},
    {"CustomDistAliasProbs", IC_SLOT_OPTIONAL},
};
static const ic_slotdef outputs[] = {{"Cost", 0},
                                     {"SampleLogits", IC_SLOT_OPTIONAL},
                                     {"SampleLabels", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_nce = {
    .name = "nce",
    .n_inputs = 8, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(nce_attrs), .parse = nce_parse,
    .infer = infer, .cpu = run, .flags = IC_OP_RANDOM,
};
