/* viterbi_decode (paddle.text.viterbi_decode, PaddleNLP's CRF heads): Input [B, T, N]
 * emissions, Transition [N, N] (from tag i to tag j at [i, j]), Length [B] int64 (each <= T).
 * Per sequence of length L, alpha_0 = emission_0 and
 *   alpha_t[j] = max_i (alpha_{t-1}[i] + Transition[i, j]) + emission_t[j],
 * the first maximizing i remembered; with include_bos_eos_tag (default true) the last row of
 * Transition (start) is added at t = 0 and the one before it (stop) at t = L - 1. Scores [B] is
 * the largest final alpha, Path [B, max(Length)] int64 the tags backtracked from its first
 * maximizing tag, 0 past each sequence's end. A sequence of length 0 scores max(alpha_0) with
 * a path of zeros. Every operation is Paddle's (paddle/phi/kernels/cpu/viterbi_decode_kernel.cc,
 * which computes the same quantities for all sequences at once through masks), in the dtype.
 * float32, float64. */
#include "kernels/kernel.h"

typedef struct vd_attrs {
  bool bos_eos;
} vd_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  vd_attrs *a = attrs;
  a->bos_eos = ic_ar_bool(r, "include_bos_eos_tag", true);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const vd_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *tr = ic_in(c, 1, 0), *len = ic_in(c, 2, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st || (st = ic_kcheck_dtype(c, 2, 0, IC_DT(IC_INT64)))) return st;
  if (x->ndim != 3) return ic_kfail_in(c, 0, 0, "expected [batch, time, tags]");
  const int64_t B = x->dims[0], T = x->dims[1], N = x->dims[2];
  if (tr->dtype != x->dtype || tr->ndim != 2 || tr->dims[0] != N || tr->dims[1] != N) {
    return ic_kfail_in(c, 1, 0, "expected %s[%lld, %lld]", ic_dtype_name(x->dtype),
                       (long long)N, (long long)N);
  }
  if (a->bos_eos && N < 2) return ic_kfail_in(c, 1, 0, "needs a start and a stop tag (N >= 2)");
  if (ic_tensor_numel_(len) != B) {
    return ic_kfail_in(c, 2, 0, "expected one length per sequence (%lld)", (long long)B);
  }
  int64_t mx = 0;
  for (int64_t b = 0; b < B; b++) {
    const int64_t l = ic_read_i64(len, b);
    if (l < 0 || l > T) {
      return ic_kfail_in(c, 2, 0, "entry %lld is %lld, expected in [0, %lld]", (long long)b,
                         (long long)l, (long long)T);
    }
    mx = l > mx ? l : mx;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 1, &B);
  ic_tensor_set_meta(ic_out(c, 1, 0), IC_INT64, 2, (int64_t[]){B, mx});
  return IC_OK;
}

#define VITERBI(T)                                                                         \
  do {                                                                                     \
    const T *em = x->data, *tr = ic_in(c, 1, 0)->data;                                     \
    int64_t *hist = ws, *path = ic_out(c, 1, 0)->data;                                     \
    T *sc = ic_out(c, 0, 0)->data, *alpha = (T *)(hist + (Tn ? Tn : 1) * N), *next = alpha + N; \
    const T *stop = tr + (N - 2) * N, *start = tr + (N - 1) * N;                           \
    for (int64_t b = 0; b < B; b++) {                                                      \
      const int64_t L = ic_read_i64(ic_in(c, 2, 0), b);                                    \
      const T *e = em + b * Tn * N;                                                        \
      for (int64_t j = 0; j < N; j++) {                                                    \
        alpha[j] = e[j];                                                                   \
        if (a->bos_eos) alpha[j] = (T)(alpha[j] + start[j]);                               \
        if (a->bos_eos && L == 1) alpha[j] = (T)(alpha[j] + stop[j]);                      \
      }                                                                                    \
      for (int64_t t = 1; t < L; t++) {                                                    \
        for (int64_t j = 0; j < N; j++) {                                                  \
          int64_t best = 0;                                                                \
          T m = (T)(alpha[0] + tr[j]);                                                     \
          for (int64_t i = 1; i < N; i++) {                                                \
            const T v = (T)(alpha[i] + tr[i * N + j]);                                     \
            if (v > m) m = v, best = i;                                                    \
          }                                                                                \
          hist[(t - 1) * N + j] = best;                                                    \
          next[j] = (T)(m + e[t * N + j]);                                                 \
          if (a->bos_eos && t == L - 1) next[j] = (T)(next[j] + stop[j]);                  \
        }                                                                                  \
        for (int64_t j = 0; j < N; j++) alpha[j] = next[j];                                \
      }                                                                                    \
      int64_t last = 0;                                                                    \
      for (int64_t j = 1; j < N; j++) {                                                    \
        if (alpha[j] > alpha[last]) last = j;                                              \
      }                                                                                    \
      sc[b] = alpha[last];                                                                 \
      int64_t *p = path + b * P;                                                           \
      for (int64_t t = 0; t < P; t++) p[t] = 0;                                            \
      if (L > 0) {                                                                         \
        p[L - 1] = last;                                                                   \
        for (int64_t t = L - 2; t >= 0; t--) p[t] = hist[t * N + p[t + 1]];                \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const vd_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  const int64_t B = x->dims[0], Tn = x->dims[1], N = x->dims[2], P = ic_out(c, 1, 0)->dims[1];
  ic_buffer *scr = ic_kscratch(c, (size_t)(2 * N) * sizeof(double) +
                                      (size_t)((Tn ? Tn : 1) * N) * sizeof(int64_t));
  if (!scr) return c->err->code;
  void *ws = scr->data;
  if (x->dtype == IC_FP32) VITERBI(float);
  else VITERBI(double);
  ic_buffer_release(scr);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", 0}, {"Transition", 0}, {"Length", IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Scores", 0}, {"Path", 0}};

const ic_opdef ic_op_viterbi_decode = {
    .name = "viterbi_decode", .n_inputs = 3, .inputs = inputs, .n_outputs = 2,
    .outputs = outputs, .attrs_size = sizeof(vd_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
