/* multinomial: Out (int64) = num_samples category indices drawn from each row of X, a rank-1
 * [K] or rank-2 [B, K] tensor of non-negative weights (float32, float64, float16, bfloat16);
 * Out is [num_samples] or [B, num_samples] (paddle/phi/kernels/cpu/multinomial_kernel.cc,
 * funcs/multinomial_functor.h, MultinomialInferMeta). Attributes num_samples (default 1, > 0)
 * and replacement (default false).
 *
 * Per row, as Paddle: the weights' running sums divided by their total are the cumulative
 * distribution, its last entry forced to 1; a draw u in [0, 1) picks the first category whose
 * cumulative value is >= u (a binary search). Without replacement the picked category's
 * share p is then taken out (the entries from it on lowered by p, all divided by 1 - p)
 * before the next draw. Errors, each naming X, the row and the value: a negative or NaN weight
 * (Paddle's "should be >= 0"), a row whose sum is not > 0, more samples than non-zero weights
 * without replacement; icore also refuses an infinite weight (Paddle's sums turn to NaN).
 *
 * The draws are icore's (philox.h): sample s of row i reads the Philox block for element
 * i * num_samples + s and makes u from 53 bits of its first two words, so a seed gives the
 * same indices on every run and thread count; they cannot equal Paddle's, which draws from
 * its global mt19937_64. The distribution is computed in double for every input dtype. */
#include <math.h>
#include <stdlib.h>

#include "kernels/kernel.h"
#include "kernels/cpu/philox.h"

typedef struct multinomial_attrs {
  int64_t num_samples;
  bool replacement;
} multinomial_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  multinomial_attrs *a = attrs;
  a->num_samples = ic_ar_int(r, "num_samples", 1);
  a->replacement = ic_ar_bool(r, "replacement", false);
  if (!r->st && a->num_samples <= 0) {
    ic_ar_fail(r, "num_samples", "is %lld, expected > 0", (long long)a->num_samples);
  }
  return r->st;
}

#define DTYPES (IC_DT(IC_FP32) | IC_DT(IC_FP64) | IC_DT(IC_FP16) | IC_DT(IC_BF16))

static ic_status infer(ic_kctx *c) {
  const multinomial_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, DTYPES);
  if (st) return st;
  if (x->ndim != 1 && x->ndim != 2) {
    return ic_kfail_in(c, 0, 0, "expected rank 1 [categories] or 2 [distributions, categories]");
  }
  int64_t d[2] = {x->dims[0], a->num_samples};
  if (x->ndim == 1) d[0] = a->num_samples;
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_INT64, x->ndim, d);
  return IC_OK;
}

/* u in [0, 1) with 53 random bits from two words. */
static double draw(uint64_t key, int64_t k) {
  ic_philox4 r = ic_philox_block(key, (uint64_t)k * 4);
  return ((double)(r.v[0] >> 5) * 67108864.0 + (double)(r.v[1] >> 6)) * (1.0 / 9007199254740992.0);
}

static ic_status run(ic_kctx *c) {
  const multinomial_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t K = x->dims[x->ndim - 1], rows = x->ndim == 2 ? x->dims[0] : 1;
  const int64_t S = a->num_samples;
  if (rows == 0) return IC_OK;
  if (K == 0) return ic_kfail_in(c, 0, 0, "has no categories (its last dim is 0)");
  ic_buffer *sb = ic_kscratch(c, (size_t)K * sizeof(double));
  if (!sb) return c->err->code;
  double *cum = sb->data;
  int64_t *out = o->data;
  const uint64_t key = ic_philox_key(0, c->env->seed, c->op_key);
  ic_status st = IC_OK;
  for (int64_t i = 0; i < rows && !st; i++) {
    double sum = 0;
    int64_t nonzero = 0;
    for (int64_t j = 0; j < K; j++) {
      const double v = ic_read_f64(x, i * K + j);
      if (!(v >= 0) || isinf(v)) {
        st = ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                      "input X '%s': row %lld holds %g at category %lld, expected a finite "
                      "weight >= 0",
                      ic_in_name(c, 0, 0), (long long)i, v, (long long)j);
        break;
      }
      sum += v;
      nonzero += v != 0;
      cum[j] = sum;
    }
    if (st) break;
    if (!(sum > 0)) {
      st = ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "input X '%s': row %lld sums to %g, expected > 0",
                    ic_in_name(c, 0, 0), (long long)i, sum);
      break;
    }
    if (!a->replacement && nonzero < S) {
      st = ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                    "input X '%s': row %lld has %lld non-zero weights; without replacement "
                    "num_samples (%lld) must not exceed them",
                    ic_in_name(c, 0, 0), (long long)i, (long long)nonzero, (long long)S);
      break;
    }
    for (int64_t j = 0; j < K; j++) cum[j] /= sum;
    for (int64_t s = 0; s < S; s++) {
      const double u = draw(key, i * S + s);
      cum[K - 1] = 1;
      int64_t lo = 0, hi = K;
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (cum[mid] < u) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      out[i * S + s] = lo;
      if (!a->replacement && s + 1 < S) {
        const double p = cum[lo] - (lo ? cum[lo - 1] : 0), rest = 1.0 - p;
        for (int64_t j = 0; j < K; j++) cum[j] = (j >= lo ? cum[j] - p : cum[j]) / rest;
      }
    }
  }
  ic_buffer_release(sb);
  return st;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_multinomial = {
    .name = "multinomial",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(multinomial_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_RANDOM,
};
