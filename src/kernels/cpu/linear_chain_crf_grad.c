/* linear_chain_crf_grad (paddle/fluid/operators/linear_chain_crf_op.h): from the forward's
 * Alpha, EmissionExps and TransitionExps and LogLikelihood@GRAD g (one per sequence), per
 * sequence of n rows, in Emission's dtype as Paddle computes it:
 *   Beta_{n-1} = end_exp, Beta_k[i] = sum_j trans_exp[i][j] x_exp_{k+1}[j] Beta_{k+1}[j],
 *     each row L1-normalized;
 *   Emission@GRAD_k = g (Alpha_k Beta_k / sum(Alpha_k Beta_k)) - g onehot(l_k);
 *   Transition@GRAD: start row += Emission@GRAD_0, end row += Emission@GRAD_{n-1}; with
 *     P_k = Beta_k x_exp_k / sum(Beta_k x_exp_k), for k >= 1 the pair (i, j) gets
 *     g trans_exp[i][j] Alpha_{k-1}[i] P_k[j] / (sum over pairs of the same), and the
 *     labelled pair (l_{k-1}, l_k) loses g.
 * Emission@GRAD is 0 at padded positions and for empty sequences. Either output may be
 * absent. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/linear_chain_crf.h"

enum { IN_EMISSION, IN_TRANSITION, IN_LABEL, IN_LENGTH, IN_ALPHA, IN_EEXPS, IN_TEXPS, IN_LL_GRAD };
enum { OUT_EMISSION_GRAD, OUT_TRANSITION_GRAD };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *xe = ic_in(c, IN_EEXPS, 0), *we = ic_in(c, IN_TEXPS, 0);
  const ic_tensor *al = ic_in(c, IN_ALPHA, 0), *g = ic_in(c, IN_LL_GRAD, 0);
  const ic_tensor *lab = ic_in(c, IN_LABEL, 0), *len = ic_in(c, IN_LENGTH, 0);
  if (ic_kcheck_dtype(c, IN_EEXPS, 0, IC_DT_FLOAT) || ic_kcheck_dtype(c, IN_LABEL, 0, IC_DT(IC_INT64))) {
    return c->err->code;
  }
  const int want_rank = len ? 3 : 2;
  if (xe->ndim != want_rank) {
    return ic_kfail_in(c, IN_EEXPS, 0, "expected %s", len ? "[batch, steps, tags] with Length" : "[rows, tags] (Label's LoD)");
  }
  const int64_t tags = xe->dims[xe->ndim - 1], rows = ic_tensor_numel_(xe) / (tags ? tags : 1);
  char want[96];
  if (al->dtype != xe->dtype || !ic_dims_equal(al->ndim, al->dims, xe->ndim, xe->dims)) {
    return ic_kfail_in(c, IN_ALPHA, 0, "expected EmissionExps' %s%s", ic_dtype_name(xe->dtype),
                       ic_dims_str(xe->ndim, xe->dims, want, sizeof want));
  }
  if (we->dtype != xe->dtype || !ic_dims_equal(we->ndim, we->dims, 2, (int64_t[]){tags + 2, tags})) {
    return ic_kfail_in(c, IN_TEXPS, 0, "expected %s%s (tags + 2, tags)", ic_dtype_name(xe->dtype),
                       ic_dims_str(2, (int64_t[]){tags + 2, tags}, want, sizeof want));
  }
  if (ic_tensor_numel_(lab) != rows) {
    return ic_kfail_in(c, IN_LABEL, 0, "expected one tag per position (%lld)", (long long)rows);
  }
  int64_t seqs;
  if (len) {
    if (ic_kcheck_dtype(c, IN_LENGTH, 0, IC_DT(IC_INT64))) return c->err->code;
    if (ic_tensor_numel_(len) != xe->dims[0]) {
      return ic_kfail_in(c, IN_LENGTH, 0, "expected %lld lengths", (long long)xe->dims[0]);
    }
    seqs = xe->dims[0];
  } else {
    size_t ns;
    if (!ic_kseq(c, IN_LABEL, 0, 0, &ns)) return c->err->code;
    seqs = (int64_t)ns;
  }
  if (g->dtype != xe->dtype || ic_tensor_numel_(g) != seqs) {
    return ic_kfail_in(c, IN_LL_GRAD, 0, "expected %s with %lld values (one per sequence)",
                       ic_dtype_name(xe->dtype), (long long)seqs);
  }
  if (ic_out(c, OUT_EMISSION_GRAD, 0)) ic_tensor_set_meta(ic_out(c, OUT_EMISSION_GRAD, 0), xe->dtype, xe->ndim, xe->dims);
  if (ic_out(c, OUT_TRANSITION_GRAD, 0)) ic_tensor_set_meta(ic_out(c, OUT_TRANSITION_GRAD, 0), xe->dtype, 2, we->dims);
  return IC_OK;
}

/* One sequence of n >= 1 rows; dx (n x tags) and dw (or NULL) accumulate. beta and tmp hold
 * n x tags. False when a normalizer is not positive. */
#define DEFINE_BWD(T, SUF)                                                                     \
  static bool norm_##SUF(T *v, int64_t n) {                                                    \
    T s = 0;                                                                                   \
    for (int64_t i = 0; i < n; i++) s += v[i];                                                 \
    if (!(s > 0)) return false;                                                                \
    const T r = (T)1 / s;                                                                      \
    for (int64_t i = 0; i < n; i++) v[i] *= r;                                                 \
    return true;                                                                               \
  }                                                                                            \
  static bool bwd_##SUF(T g, const T *xe, const T *we, const T *al, const int64_t *l, int64_t n, \
                        int64_t tags, T *beta, T *tmp, T *dx, T *dw) {                         \
    for (int64_t i = 0; i < tags; i++) beta[(n - 1) * tags + i] = we[tags + i];                \
    if (!norm_##SUF(beta + (n - 1) * tags, tags)) return false;                                \
    for (int64_t k = n - 2; k >= 0; k--) {                                                     \
      for (int64_t i = 0; i < tags; i++) {                                                     \
        T sum = 0;                                                                             \
        for (int64_t j = 0; j < tags; j++) {                                                   \
          sum += we[(i + 2) * tags + j] * xe[(k + 1) * tags + j] * beta[(k + 1) * tags + j];   \
        }                                                                                      \
        beta[k * tags + i] = sum;                                                              \
      }                                                                                        \
      if (!norm_##SUF(beta + k * tags, tags)) return false;                                    \
    }                                                                                          \
    for (int64_t k = 0; k < n; k++) {                                                          \
      T rs = 0;                                                                                \
      for (int64_t i = 0; i < tags; i++) rs += al[k * tags + i] * beta[k * tags + i];          \
      for (int64_t i = 0; i < tags; i++) dx[k * tags + i] = al[k * tags + i] * beta[k * tags + i] / rs * g; \
      dx[k * tags + l[k]] -= g;                                                                \
    }                                                                                          \
    if (!dw) return true;                                                                      \
    for (int64_t i = 0; i < tags; i++) {                                                       \
      dw[i] += dx[i];                                                                          \
      dw[tags + i] += dx[(n - 1) * tags + i];                                                  \
    }                                                                                          \
    for (int64_t k = 0; k < n; k++) {                                                          \
      T rs = 0;                                                                                \
      for (int64_t i = 0; i < tags; i++) rs += beta[k * tags + i] * xe[k * tags + i];          \
      for (int64_t i = 0; i < tags; i++) tmp[k * tags + i] = beta[k * tags + i] * xe[k * tags + i] / rs; \
    }                                                                                          \
    for (int64_t k = 1; k < n; k++) {                                                          \
      T sum = 0;                                                                               \
      for (int64_t i = 0; i < tags; i++) {                                                     \
        for (int64_t j = 0; j < tags; j++) {                                                   \
          sum += we[(i + 2) * tags + j] * al[(k - 1) * tags + i] * tmp[k * tags + j];          \
        }                                                                                      \
      }                                                                                        \
      sum = (T)1 / sum;                                                                        \
      for (int64_t i = 0; i < tags; i++) {                                                     \
        for (int64_t j = 0; j < tags; j++) {                                                   \
          dw[(i + 2) * tags + j] +=                                                            \
              sum * we[(i + 2) * tags + j] * al[(k - 1) * tags + i] * tmp[k * tags + j] * g;   \
        }                                                                                      \
      }                                                                                        \
      dw[(l[k - 1] + 2) * tags + l[k]] -= g;                                                   \
    }                                                                                          \
    return true;                                                                               \
  }
DEFINE_BWD(float, f32)
DEFINE_BWD(double, f64)

static ic_status run(ic_kctx *c) {
  const ic_tensor *xe = ic_in(c, IN_EEXPS, 0), *we = ic_in(c, IN_TEXPS, 0);
  const ic_tensor *al = ic_in(c, IN_ALPHA, 0), *g = ic_in(c, IN_LL_GRAD, 0);
  const ic_tensor *lab = ic_in(c, IN_LABEL, 0);
  ic_tensor *dx = ic_out(c, OUT_EMISSION_GRAD, 0), *dw = ic_out(c, OUT_TRANSITION_GRAD, 0);
  ic_crf_seqs sq;
  ic_status st = ic_crf_seqs_of(c, IN_LABEL, IN_LENGTH, xe, &sq);
  if (st) return st;
  const int64_t tags = xe->dims[xe->ndim - 1];
  const size_t es = ic_dtype_size(xe->dtype);
  int64_t longest = 1;
  for (size_t q = 0; q < sq.n; q++) {
    int64_t first, n;
    ic_crf_seq(&sq, q, &first, &n);
    longest = n > longest ? n : longest;
  }
  /* Emission@GRAD into scratch when it is not asked for (the transition's needs it) */
  const size_t nx = (size_t)ic_tensor_numel_(xe);
  ic_buffer *b = ic_kscratch(c, (2 * (size_t)(longest * tags) + (dx ? 0 : nx)) * es + 1);
  if (!b) return c->err->code;
  char *beta = b->data, *tmp = beta + (size_t)(longest * tags) * es;
  char *gx = dx ? dx->data : tmp + (size_t)(longest * tags) * es;
  memset(gx, 0, nx * es);
  if (dw) memset(dw->data, 0, (size_t)ic_tensor_numel_(dw) * es);
  bool ok = true;
  for (size_t q = 0; q < sq.n && ok && tags; q++) {
    int64_t first, n;
    ic_crf_seq(&sq, q, &first, &n);
    if (!n) continue;
    const size_t o = (size_t)(first * tags);
    const int64_t *l = (const int64_t *)lab->data + first;
    if (xe->dtype == IC_FP64) {
      ok = bwd_f64(((const double *)g->data)[q], (const double *)xe->data + o, we->data,
                   (const double *)al->data + o, l, n, tags, (double *)beta, (double *)tmp,
                   (double *)gx + o, dw ? dw->data : NULL);
    } else {
      ok = bwd_f32(((const float *)g->data)[q], (const float *)xe->data + o, we->data,
                   (const float *)al->data + o, l, n, tags, (float *)beta, (float *)tmp,
                   (float *)gx + o, dw ? dw->data : NULL);
    }
  }
  ic_buffer_release(b);
  if (!ok) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                    "the unnormalized probabilities of the partial sequences summed to 0 or "
                    "less (or NaN): EmissionExps or TransitionExps not finite");
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Emission", IC_SLOT_OPTIONAL}, {"Transition", IC_SLOT_OPTIONAL}, {"Label", 0},
    {"Length", IC_SLOT_OPTIONAL},   {"Alpha", 0},                     {"EmissionExps", 0},
    {"TransitionExps", 0},          {"LogLikelihood@GRAD", 0}};
static const ic_slotdef outputs[] = {{"Emission@GRAD", IC_SLOT_OPTIONAL},
                                     {"Transition@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_linear_chain_crf_grad = {
    .name = "linear_chain_crf_grad",
    .n_inputs = 8, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
