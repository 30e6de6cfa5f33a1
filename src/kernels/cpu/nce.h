/* nce and nce_grad (fluid nce_op.h, phi funcs/math/sampler.cc): attributes, input checks and
 * the samplers' probabilities, shared by both ops. */
#ifndef IC_KERNELS_CPU_NCE_H
#define IC_KERNELS_CPU_NCE_H

#include <math.h>

#include "kernels/kernel.h"

typedef struct nce_attrs {
  int64_t num_total_classes, num_neg_samples, sampler, seed;
  bool is_test, is_sparse;
  const int64_t *custom_neg;
  size_t n_custom_neg;
} nce_attrs;

static inline ic_status nce_parse(ic_attr_reader *r, void *attrs) {
  nce_attrs *a = attrs;
  a->num_total_classes = ic_ar_int_req(r, "num_total_classes");
  a->num_neg_samples = ic_ar_int(r, "num_neg_samples", 10);
  a->sampler = ic_ar_int(r, "sampler", 0);
  a->seed = ic_ar_int(r, "seed", 0);
  a->is_test = ic_ar_bool(r, "is_test", false);
  a->is_sparse = ic_ar_bool(r, "is_sparse", false);
  (void)ic_ar_bool(r, "remote_prefetch", false);
  if (!ic_ar_ints(r, "custom_neg_classes", false, &a->custom_neg, &a->n_custom_neg)) {
    a->custom_neg = NULL;
    a->n_custom_neg = 0;
  }
  if (r->st) return r->st;
  if (a->sampler < 0 || a->sampler > 2) {
    return ic_ar_fail(r, "sampler", "is %lld, expected 0 (uniform), 1 (log_uniform) or 2 "
                      "(custom_dist)", (long long)a->sampler);
  }
  if (a->num_total_classes < 2) {
    return ic_ar_fail(r, "num_total_classes", "is %lld, expected at least 2",
                      (long long)a->num_total_classes);
  }
  if (a->num_neg_samples < 0) {
    return ic_ar_fail(r, "num_neg_samples", "is %lld, expected at least 0",
                      (long long)a->num_neg_samples);
  }
  if (a->n_custom_neg && (int64_t)a->n_custom_neg != a->num_neg_samples) {
    return ic_ar_fail(r, "custom_neg_classes", "holds %zu classes, expected num_neg_samples (%lld)",
                      a->n_custom_neg, (long long)a->num_neg_samples);
  }
  for (size_t k = 0; k < a->n_custom_neg; k++) {
    if (a->custom_neg[k] < 0 || a->custom_neg[k] >= a->num_total_classes) {
      return ic_ar_fail(r, "custom_neg_classes", "holds %lld, expected a class in [0, %lld)",
                        (long long)a->custom_neg[k], (long long)a->num_total_classes);
    }
  }
  return IC_OK;
}

/* The probability Paddle's sampler gives class v (a float, as its Probability returns):
 * uniform 1 / num_total_classes; log-uniform log((v + 2) / (v + 1)) / log(num_total_classes)
 * (the log of the range held as a float); custom CustomDistProbs[v]. */
static inline float nce_prob(const nce_attrs *a, const float *custom_probs, int64_t v) {
  switch (a->sampler) {
    case 0: return 1.0f / (float)a->num_total_classes;
    case 1: {
      const float log_range = (float)log((double)a->num_total_classes);
      return (float)(log((v + 2.0) / (v + 1.0)) / (double)log_range);
    }
    default: return custom_probs[v];
  }
}

/* Checks of the inputs both ops read. Slot numbers of the op: */
typedef struct nce_slots {
  size_t input, label, weight, bias, sample_weight, probs, alias, alias_probs;
} nce_slots;

static inline ic_status nce_check(ic_kctx *c, const nce_attrs *a, const nce_slots *s) {
  const ic_tensor *x = ic_in(c, s->input, 0), *lab = ic_in(c, s->label, 0),
                  *w = ic_in(c, s->weight, 0), *b = ic_in(c, s->bias, 0),
                  *sw = ic_in(c, s->sample_weight, 0);
  ic_status st = ic_kcheck_dtype(c, s->input, 0, IC_DT_FLOAT);
  if (st || (st = ic_kcheck_dtype(c, s->label, 0, IC_DT(IC_INT64)))) return st;
  if (x->ndim != 2) return ic_kfail_in(c, s->input, 0, "expected rank 2 ([batch, features])");
  if (lab->ndim != 2 || lab->dims[0] != x->dims[0]) {
    return ic_kfail_in(c, s->label, 0, "expected [%lld, true classes] (one row per row of Input)",
                       (long long)x->dims[0]);
  }
  if (w->dtype != x->dtype || w->ndim != 2 || w->dims[0] != a->num_total_classes ||
      w->dims[1] != x->dims[1]) {
    return ic_kfail_in(c, s->weight, 0, "expected %s [%lld, %lld] ([num_total_classes, Input's width])",
                       ic_dtype_name(x->dtype), (long long)a->num_total_classes,
                       (long long)x->dims[1]);
  }
  if (b && (b->dtype != x->dtype || ic_tensor_numel_(b) != a->num_total_classes)) {
    return ic_kfail_in(c, s->bias, 0, "expected %s with num_total_classes (%lld) elements",
                       ic_dtype_name(x->dtype), (long long)a->num_total_classes);
  }
  if (sw && (sw->dtype != x->dtype || ic_tensor_numel_(sw) != x->dims[0])) {
    return ic_kfail_in(c, s->sample_weight, 0, "expected %s with %lld elements (one per row)",
                       ic_dtype_name(x->dtype), (long long)x->dims[0]);
  }
  if (a->sampler == 2) {
    const size_t sl[3] = {s->probs, s->alias, s->alias_probs};
    const uint64_t dt[3] = {IC_DT(IC_FP32), IC_DT(IC_INT32), IC_DT(IC_FP32)};
    for (int k = 0; k < 3; k++) {
      const ic_tensor *t = ic_in(c, sl[k], 0);
      if (!t) {
        return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                        "nce: sampler 2 (custom_dist) needs CustomDistProbs, CustomDistAlias "
                        "and CustomDistAliasProbs");
      }
      if ((st = ic_kcheck_dtype(c, sl[k], 0, dt[k]))) return st;
      if (ic_tensor_numel_(t) != a->num_total_classes) {
        return ic_kfail_in(c, sl[k], 0, "expected num_total_classes (%lld) elements",
                           (long long)a->num_total_classes);
      }
    }
  }
  return IC_OK;
}

#endif
