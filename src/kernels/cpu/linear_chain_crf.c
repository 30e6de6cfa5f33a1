/* linear_chain_crf: the negative log-likelihood of label sequences under a linear-chain CRF
 * (paddle/fluid/operators/linear_chain_crf_op.h; fluid's layers.linear_chain_crf, the
 * sequence labeling models of the Paddle book). Emission [rows, tags] with Label [rows, 1]
 * (int64) whose one LoD level splits the rows into sequences, or padded [B, S, tags] with
 * Label [B, S] or [B, S, 1] and Length [B] (int64). Transition [tags + 2, tags]: row 0 the
 * start weights, row 1 the end weights, row 2 + i the weight of tag i followed by tag j.
 * Per sequence, in Emission's dtype as Paddle computes it:
 *   EmissionExps = exp(x - rowmax(x)),  TransitionExps = exp(Transition),
 *   Alpha_0 = start_exp * x_exp_0, then Alpha_k[i] = x_exp_k[i] sum_j Alpha_{k-1}[j]
 *     trans_exp[j][i], each row L1-normalized; log Z from the normalizers, the row maxima and
 *     the end weights;
 *   LogLikelihood = log Z - (start[l_0] + sum_k x_k[l_k] + sum_k trans[l_{k-1}][l_k] + end[l_n]).
 * LogLikelihood is [sequences, 1]; an empty sequence gives 0. Alpha and EmissionExps are
 * Emission's shape (Alpha 0 at padded positions, EmissionExps taken there too, as Paddle);
 * linear_chain_crf_grad reads them. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/linear_chain_crf.h"

enum { IN_EMISSION, IN_TRANSITION, IN_LABEL, IN_LENGTH };
enum { OUT_ALPHA, OUT_EEXPS, OUT_TEXPS, OUT_LL };

ic_status ic_crf_seqs_of(ic_kctx *c, size_t label, size_t length, const ic_tensor *e,
                         ic_crf_seqs *out) {
  const ic_tensor *lab = ic_in(c, label, 0), *len = ic_in(c, length, 0);
  const int64_t tags = e->dims[e->ndim - 1];
  memset(out, 0, sizeof *out);
  if (len) {
    out->n = (size_t)e->dims[0];
    out->steps = e->dims[1];
    out->len = len->data;
    for (size_t q = 0; q < out->n; q++) {
      if (out->len[q] < 0 || out->len[q] > out->steps) {
        return ic_kfail_in(c, length, 0, "has %lld at index %zu, expected 0 to %lld",
                           (long long)out->len[q], q, (long long)out->steps);
      }
    }
  } else {
    if (!(out->off = ic_kseq(c, label, 0, 0, &out->n))) return c->err->code;
    if (out->off[out->n] != (uint64_t)e->dims[0]) {
      return ic_kfail_in(c, label, 0, "has a LoD over %llu rows, expected Emission's %lld",
                         (unsigned long long)out->off[out->n], (long long)e->dims[0]);
    }
  }
  const int64_t *l = lab->data;
  for (size_t q = 0; q < out->n; q++) {
    int64_t first, n;
    ic_crf_seq(out, q, &first, &n);
    for (int64_t k = first; k < first + n; k++) {
      if (l[k] < 0 || l[k] >= tags) {
        return ic_kfail_in(c, label, 0, "has %lld at position %lld, expected a tag in [0, %lld)",
                           (long long)l[k], (long long)k, (long long)tags);
      }
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *e = ic_in(c, IN_EMISSION, 0), *tr = ic_in(c, IN_TRANSITION, 0);
  const ic_tensor *lab = ic_in(c, IN_LABEL, 0), *len = ic_in(c, IN_LENGTH, 0);
  if (ic_kcheck_dtype(c, IN_EMISSION, 0, IC_DT_FLOAT) || ic_kcheck_dtype(c, IN_LABEL, 0, IC_DT(IC_INT64))) {
    return c->err->code;
  }
  int64_t tags, seqs;
  if (len) {
    if (e->ndim != 3) return ic_kfail_in(c, IN_EMISSION, 0, "expected [batch, steps, tags] with Length");
    if (ic_kcheck_dtype(c, IN_LENGTH, 0, IC_DT(IC_INT64))) return c->err->code;
    if (ic_tensor_numel_(len) != e->dims[0]) {
      return ic_kfail_in(c, IN_LENGTH, 0, "expected %lld lengths (Emission's batch)", (long long)e->dims[0]);
    }
    const bool ok = (lab->ndim == 2 || (lab->ndim == 3 && lab->dims[2] == 1)) &&
                    lab->dims[0] == e->dims[0] && lab->dims[1] == e->dims[1];
    if (!ok) {
      return ic_kfail_in(c, IN_LABEL, 0, "expected [%lld, %lld] or [%lld, %lld, 1] (Emission's batch and steps)",
                         (long long)e->dims[0], (long long)e->dims[1], (long long)e->dims[0], (long long)e->dims[1]);
    }
    tags = e->dims[2];
    seqs = e->dims[0];
  } else {
    if (e->ndim != 2) return ic_kfail_in(c, IN_EMISSION, 0, "expected [rows, tags] (Label's LoD) or [batch, steps, tags] with Length");
    if (lab->ndim != 2 || lab->dims[0] != e->dims[0] || lab->dims[1] != 1) {
      return ic_kfail_in(c, IN_LABEL, 0, "expected [%lld, 1] (one tag per Emission row)", (long long)e->dims[0]);
    }
    size_t ns;
    if (!ic_kseq(c, IN_LABEL, 0, 0, &ns)) return c->err->code;
    tags = e->dims[1];
    seqs = (int64_t)ns;
  }
  char want[96];
  if (tr->dtype != e->dtype || !ic_dims_equal(tr->ndim, tr->dims, 2, (int64_t[]){tags + 2, tags})) {
    return ic_kfail_in(c, IN_TRANSITION, 0, "expected %s%s (tags + 2, tags)", ic_dtype_name(e->dtype),
                       ic_dims_str(2, (int64_t[]){tags + 2, tags}, want, sizeof want));
  }
  ic_tensor_set_meta(ic_out(c, OUT_ALPHA, 0), e->dtype, e->ndim, e->dims);
  ic_tensor_set_meta(ic_out(c, OUT_EEXPS, 0), e->dtype, e->ndim, e->dims);
  ic_tensor_set_meta(ic_out(c, OUT_TEXPS, 0), e->dtype, 2, tr->dims);
  ic_tensor_set_meta(ic_out(c, OUT_LL, 0), e->dtype, 2, (int64_t[]){seqs, 1});
  return IC_OK;
}

/* One sequence of n rows (n >= 1): Alpha and the negative log-likelihood (*nll), in T; false
 * when a normalizer is not positive (Paddle's enforce). */
#define DEFINE_FWD(T, SUF, EXP, LOG)                                                           \
  static bool fwd_##SUF(const T *x, const T *xmax, const T *xe, const T *w, const T *we,        \
                        const int64_t *l, int64_t n, int64_t tags, T *alpha, T *nll) {          \
    T s = 0;                                                                                   \
    for (int64_t i = 0; i < tags; i++) s += alpha[i] = we[i] * xe[i];                          \
    if (!(s > 0)) return false;                                                                \
    for (int64_t i = 0; i < tags; i++) alpha[i] *= (T)1 / s;                                   \
    T ll = -xmax[0] - LOG(s);                                                                  \
    for (int64_t k = 1; k < n; k++) {                                                          \
      T *a = alpha + k * tags;                                                                 \
      const T *p = a - tags;                                                                   \
      s = 0;                                                                                   \
      for (int64_t i = 0; i < tags; i++) {                                                     \
        T sum = 0;                                                                             \
        for (int64_t j = 0; j < tags; j++) sum += p[j] * we[(j + 2) * tags + i];               \
        a[i] = xe[k * tags + i] * sum;                                                         \
        s += a[i];                                                                             \
      }                                                                                        \
      if (!(s > 0)) return false;                                                              \
      for (int64_t i = 0; i < tags; i++) a[i] *= (T)1 / s;                                     \
      ll -= xmax[k] + LOG(s);                                                                  \
    }                                                                                          \
    T sum = 0;                                                                                 \
    for (int64_t i = 0; i < tags; i++) sum += alpha[(n - 1) * tags + i] * we[tags + i];        \
    ll -= LOG(sum);                                                                            \
    ll += w[l[0]] + x[l[0]] + w[tags + l[n - 1]];                                              \
    for (int64_t k = 1; k < n; k++) ll += x[k * tags + l[k]] + w[(l[k - 1] + 2) * tags + l[k]]; \
    *nll = -ll;                                                                                \
    return true;                                                                               \
  }                                                                                            \
  static bool run_##SUF(const ic_crf_seqs *sq, const T *x, const T *w, const int64_t *l,       \
                        int64_t rows, int64_t tags, T *xe, T *we, T *alpha, T *nll, T *xmax) { \
    for (int64_t i = 0; i < (tags + 2) * tags; i++) we[i] = EXP(w[i]);                         \
    /* every row, padded ones too (Paddle's EmissionExps has them) */                          \
    for (int64_t r = 0; r < rows; r++) {                                                       \
      T m = x[r * tags];                                                                       \
      for (int64_t i = 1; i < tags; i++) m = x[r * tags + i] > m ? x[r * tags + i] : m;        \
      xmax[r] = m;                                                                             \
      for (int64_t i = 0; i < tags; i++) xe[r * tags + i] = EXP(x[r * tags + i] - m);          \
    }                                                                                          \
    for (size_t q = 0; q < sq->n; q++) {                                                       \
      int64_t first, n;                                                                        \
      ic_crf_seq(sq, q, &first, &n);                                                           \
      nll[q] = 0;                                                                              \
      if (n && !fwd_##SUF(x + first * tags, xmax + first, xe + first * tags, w, we, l + first,  \
                          n, tags, alpha + first * tags, &nll[q])) {                           \
        return false;                                                                          \
      }                                                                                        \
    }                                                                                          \
    return true;                                                                               \
  }
DEFINE_FWD(float, f32, expf, logf)
DEFINE_FWD(double, f64, exp, log)

static ic_status run(ic_kctx *c) {
  const ic_tensor *e = ic_in(c, IN_EMISSION, 0), *tr = ic_in(c, IN_TRANSITION, 0);
  const ic_tensor *lab = ic_in(c, IN_LABEL, 0);
  ic_tensor *alpha = ic_out(c, OUT_ALPHA, 0), *xe = ic_out(c, OUT_EEXPS, 0);
  ic_tensor *we = ic_out(c, OUT_TEXPS, 0), *ll = ic_out(c, OUT_LL, 0);
  ic_crf_seqs sq;
  ic_status st = ic_crf_seqs_of(c, IN_LABEL, IN_LENGTH, e, &sq);
  if (st) return st;
  const int64_t tags = e->dims[e->ndim - 1], rows = ic_tensor_numel_(e) / (tags ? tags : 1);
  const size_t es = ic_dtype_size(e->dtype);
  memset(alpha->data, 0, (size_t)ic_tensor_numel_(alpha) * es);
  memset(xe->data, 0, (size_t)ic_tensor_numel_(xe) * es);
  if (!tags) {
    memset(ll->data, 0, (size_t)ic_tensor_numel_(ll) * es);
    return IC_OK;
  }
  ic_buffer *b = ic_kscratch(c, (size_t)(rows > 0 ? rows : 1) * es);
  if (!b) return c->err->code;
  const bool ok = e->dtype == IC_FP64
                      ? run_f64(&sq, e->data, tr->data, lab->data, rows, tags, xe->data, we->data,
                                alpha->data, ll->data, b->data)
                      : run_f32(&sq, e->data, tr->data, lab->data, rows, tags, xe->data, we->data,
                                alpha->data, ll->data, b->data);
  ic_buffer_release(b);
  if (!ok) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                    "the unnormalized probabilities of the partial sequences summed to 0 or "
                    "less (or NaN): Emission or Transition too large or not finite");
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Emission", 0}, {"Transition", 0}, {"Label", 0}, {"Length", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {
    {"Alpha", 0}, {"EmissionExps", 0}, {"TransitionExps", 0}, {"LogLikelihood", 0}};

const ic_opdef ic_op_linear_chain_crf = {
    .name = "linear_chain_crf",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 4, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
