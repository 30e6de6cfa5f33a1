/* attention_lstm (fluid's fused CPU LSTM with attention over each sequence): X [T, M] with a
 * one-level LoD of N sequences, C0 [N, D], H0 [N, D] (optional), AttentionWeight [M + D, 1],
 * AttentionBias [1, 1], AttentionScalar [1, 1], AttentionScalarBias [1, 1] (optional),
 * LSTMWeight [D + M, 4D] (rows: hidden part, then input part; columns: forget, input,
 * output, candidate), LSTMBias [1, 4D]; float32 or float64. AttentionedX = X . w[0..M) + b.
 * For sequence i (rows r0 .. r0 + L) and each step, with c, h the previous cell and hidden
 * (C0[i], H0[i] or none at the first step):
 *   a = relu(AttentionedX[r0 ..] + c . w[M..M+D)); with AttentionScalar:
 *   a = relu(a * scalar (+ scalar bias)); a = softmax(a) (times the reciprocal of the sum);
 *   LSTMX = a . X[r0 .. r0 + L); g = LSTMX Wx (+ h Wh) + bias;
 *   f, i, o = gate_act(g[0..3D)); t = candidate_act(g[3D..4D));
 *   c = f c + i t; h = cell_act(c) o.
 * Hidden and Cell [T, D] keep X's LoD; AttentionFCOut [max length, 1], LSTMX [1, M] and
 * LSTMOUT [1, 4D] hold what the last step leaves in them, as Paddle's buffers do. The
 * activations (sigmoid, tanh, relu, identity) are Paddle's vector ones: sigmoid clips its
 * input to [-40, 13], tanh is 2 sigmoid(2x) - 1 (seqact.h), and identity writes nothing, so
 * with cell_activation identity Paddle's h is (f c_prev) o, not c o: icore does the same
 * (paddle/phi/kernels/cpu/attention_lstm_kernel.cc). Dot products sum in the inputs' type. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/seqact.h"
#include "kernels/kernel.h"

enum { IN_X, IN_C0, IN_H0, IN_AW, IN_AB, IN_AS, IN_ASB, IN_LW, IN_LB };
enum { OUT_HIDDEN, OUT_CELL, OUT_ATTX, OUT_FC, OUT_LSTMX, OUT_LSTMOUT };

typedef struct alstm_attrs {
  int gate, cell, cand;
} alstm_attrs;

static ic_status parse_act(ic_attr_reader *r, const char *name, const char *dflt, int *out) {
  const char *s = ic_ar_str(r, name, dflt);
  if (r->st) return r->st;
  /* Paddle's VecActivations: no "linear" */
  if (!strcmp(s, "linear")) {
    return ic_ar_fail(r, name, "is \"linear\", expected sigmoid, tanh, relu or identity");
  }
  return ic_seqact_parse(r, name, dflt, out);
}

static ic_status parse(ic_attr_reader *r, void *attrs) {
  alstm_attrs *a = attrs;
  if (parse_act(r, "gate_activation", "sigmoid", &a->gate)) return r->st;
  if (parse_act(r, "cell_activation", "tanh", &a->cell)) return r->st;
  return parse_act(r, "candidate_activation", "tanh", &a->cand);
}

static ic_status want(ic_kctx *c, size_t s, int64_t d0, int64_t d1) {
  const ic_tensor *t = ic_in(c, s, 0);
  if (!t) return IC_OK;
  ic_status st = ic_kcheck_dtype(c, s, 0, IC_DT(ic_in(c, IN_X, 0)->dtype));
  if (st) return st;
  if (t->ndim != 2 || t->dims[0] != d0 || t->dims[1] != d1) {
    return ic_kfail_in(c, s, 0, "expected [%lld, %lld]", (long long)d0, (long long)d1);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *lw = ic_in(c, IN_LW, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 [T, M]");
  if (!x->lod || x->lod->n_levels != 1) {
    return ic_kfail_in(c, IN_X, 0, "expected a one-level LoD (the sequences)");
  }
  const size_t nl = x->lod->lens[0];
  if (nl < 2 || x->lod->offsets[0][nl - 1] != (uint64_t)x->dims[0]) {
    return ic_kfail_in(c, IN_X, 0, "expected a LoD of at least one sequence covering its rows");
  }
  const int64_t M = x->dims[1], N = (int64_t)nl - 1;
  if (lw->ndim != 2 || lw->dims[1] % 4 != 0 || lw->dims[1] == 0) {
    return ic_kfail_in(c, IN_LW, 0, "expected [D + M, 4D]");
  }
  const int64_t D = lw->dims[1] / 4;
  st = want(c, IN_LW, D + M, 4 * D);
  if (!st) st = want(c, IN_LB, 1, 4 * D);
  if (!st) st = want(c, IN_C0, N, D);
  if (!st) st = want(c, IN_H0, N, D);
  if (!st) st = want(c, IN_AW, M + D, 1);
  if (!st) st = want(c, IN_AB, 1, 1);
  if (!st) st = want(c, IN_AS, 1, 1);
  if (!st) st = want(c, IN_ASB, 1, 1);
  if (st) return st;
  int64_t maxlen = 0;
  for (size_t i = 0; i + 1 < nl; i++) {
    const int64_t len = (int64_t)(x->lod->offsets[0][i + 1] - x->lod->offsets[0][i]);
    maxlen = len > maxlen ? len : maxlen;
  }
  const ic_dtype dt = x->dtype;
  const int64_t T = x->dims[0];
  ic_tensor_set_meta(ic_out(c, OUT_HIDDEN, 0), dt, 2, (int64_t[]){T, D});
  ic_tensor_set_meta(ic_out(c, OUT_CELL, 0), dt, 2, (int64_t[]){T, D});
  if (ic_out(c, OUT_ATTX, 0)) ic_tensor_set_meta(ic_out(c, OUT_ATTX, 0), dt, 2, (int64_t[]){T, 1});
  if (ic_out(c, OUT_FC, 0)) ic_tensor_set_meta(ic_out(c, OUT_FC, 0), dt, 2, (int64_t[]){maxlen, 1});
  if (ic_out(c, OUT_LSTMX, 0)) ic_tensor_set_meta(ic_out(c, OUT_LSTMX, 0), dt, 2, (int64_t[]){1, M});
  if (ic_out(c, OUT_LSTMOUT, 0)) {
    ic_tensor_set_meta(ic_out(c, OUT_LSTMOUT, 0), dt, 2, (int64_t[]){1, 4 * D});
  }
  st = ic_kset_lod(c, ic_out(c, OUT_HIDDEN, 0), ic_lod_clone(x->lod), true);
  if (!st) st = ic_kset_lod(c, ic_out(c, OUT_CELL, 0), ic_lod_clone(x->lod), true);
  return st;
}

#define ALSTM_RUN(T, NAME, ACT, EXP)                                                          \
  static void NAME(ic_kctx *c, const alstm_attrs *a, T *attx, T *fc, T *lx, T *lo) {          \
    const ic_tensor *x = ic_in(c, IN_X, 0);                                                   \
    const int64_t M = x->dims[1], D = ic_in(c, IN_LW, 0)->dims[1] / 4, D4 = 4 * D;            \
    const T *xs = x->data, *c0 = ic_in(c, IN_C0, 0)->data;                                    \
    const T *h0 = ic_in(c, IN_H0, 0) ? ic_in(c, IN_H0, 0)->data : NULL;                       \
    const T *aw = ic_in(c, IN_AW, 0)->data;                                                   \
    const T *ab = ic_in(c, IN_AB, 0) ? ic_in(c, IN_AB, 0)->data : NULL;                       \
    const T *as = ic_in(c, IN_AS, 0) ? ic_in(c, IN_AS, 0)->data : NULL;                       \
    const T *asb = ic_in(c, IN_ASB, 0) ? ic_in(c, IN_ASB, 0)->data : NULL;                    \
    const T *lw = ic_in(c, IN_LW, 0)->data, *lb = ic_in(c, IN_LB, 0)->data;                   \
    T *hid = ic_out(c, OUT_HIDDEN, 0)->data, *cel = ic_out(c, OUT_CELL, 0)->data;             \
    const int64_t rows = x->dims[0];                                                          \
    for (int64_t r = 0; r < rows; r++) {                                                      \
      T acc = 0;                                                                              \
      for (int64_t k = 0; k < M; k++) acc += xs[r * M + k] * aw[k];                           \
      attx[r] = ab ? acc + ab[0] : acc;                                                       \
    }                                                                                         \
    const uint64_t *off = x->lod->offsets[0];                                                 \
    const size_t n = x->lod->lens[0] - 1;                                                     \
    for (size_t i = 0; i < n; i++) {                                                          \
      const int64_t r0 = (int64_t)off[i], L = (int64_t)(off[i + 1] - off[i]);                 \
      const T *pc = c0 + (int64_t)i * D, *ph = h0 ? h0 + (int64_t)i * D : NULL;               \
      for (int64_t s = 0; s < L; s++) {                                                       \
        T cb = 0;                                                                             \
        for (int64_t k = 0; k < D; k++) cb += pc[k] * aw[M + k];                              \
        for (int64_t j = 0; j < L; j++) {                                                     \
          const T v = attx[r0 + j] + cb;                                                      \
          fc[j] = v > 0 ? v : 0;                                                              \
        }                                                                                     \
        if (as) {                                                                             \
          for (int64_t j = 0; j < L; j++) {                                                   \
            T v = as[0] * fc[j];                                                              \
            if (asb) v = v + asb[0];                                                          \
            fc[j] = v > 0 ? v : 0;                                                            \
          }                                                                                   \
        }                                                                                     \
        T mx = fc[0];                                                                         \
        for (int64_t j = 1; j < L; j++) mx = mx < fc[j] ? fc[j] : mx;                         \
        T sum = 0;                                                                            \
        for (int64_t j = 0; j < L; j++) {                                                     \
          fc[j] = EXP(fc[j] + -mx);                                                           \
          sum += fc[j];                                                                       \
        }                                                                                     \
        const T inv = (T)1 / sum;                                                             \
        for (int64_t j = 0; j < L; j++) fc[j] = inv * fc[j];                                  \
        for (int64_t k = 0; k < M; k++) {                                                     \
          T acc = 0;                                                                          \
          for (int64_t j = 0; j < L; j++) acc += fc[j] * xs[(r0 + j) * M + k];                \
          lx[k] = acc;                                                                        \
        }                                                                                     \
        for (int64_t q = 0; q < D4; q++) {                                                    \
          T acc = 0;                                                                          \
          for (int64_t k = 0; k < M; k++) acc += lx[k] * lw[(D + k) * D4 + q];                \
          if (ph) {                                                                           \
            T hh = 0;                                                                         \
            for (int64_t k = 0; k < D; k++) hh += ph[k] * lw[k * D4 + q];                     \
            acc = acc + hh;                                                                   \
          }                                                                                   \
          lo[q] = lb[q] + acc;                                                                \
        }                                                                                     \
        for (int64_t q = 0; q < 3 * D; q++) lo[q] = ACT(a->gate, lo[q]);                      \
        for (int64_t q = 3 * D; q < D4; q++) lo[q] = ACT(a->cand, lo[q]);                     \
        T *cc = cel + (r0 + s) * D, *hc = hid + (r0 + s) * D;                                 \
        for (int64_t k = 0; k < D; k++) {                                                     \
          lo[k] = lo[k] * pc[k];                                                              \
          lo[D + k] = lo[D + k] * lo[3 * D + k];                                              \
          cc[k] = lo[k] + lo[D + k];                                                          \
          /* Paddle's identity writes nothing: lo keeps f c */                              \
          if (a->cell != SEQACT_IDENTITY) lo[k] = ACT(a->cell, cc[k]);                        \
          hc[k] = lo[k] * lo[2 * D + k];                                                      \
        }                                                                                     \
        pc = cc;                                                                              \
        ph = hc;                                                                              \
      }                                                                                       \
    }                                                                                         \
  }
ALSTM_RUN(float, run_f32, ic_seqact_jitf, expf)
ALSTM_RUN(double, run_f64, ic_seqact_jit, exp)
#undef ALSTM_RUN

static ic_status run(ic_kctx *c) {
  const alstm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  const int64_t T = x->dims[0], M = x->dims[1], D4 = ic_in(c, IN_LW, 0)->dims[1];
  const size_t es = ic_dtype_size(x->dtype);
  /* the intermediate outputs, or scratch where the program leaves them out */
  ic_buffer *buf = ic_kscratch(c, (size_t)(2 * T + M + D4 + 1) * es);
  if (!buf) return c->err->code;
  char *p = buf->data;
  void *attx = ic_out(c, OUT_ATTX, 0) ? ic_out(c, OUT_ATTX, 0)->data : p;
  void *fc = p + (size_t)T * es;
  void *lx = ic_out(c, OUT_LSTMX, 0) ? ic_out(c, OUT_LSTMX, 0)->data : p + (size_t)(2 * T) * es;
  void *lo = ic_out(c, OUT_LSTMOUT, 0) ? ic_out(c, OUT_LSTMOUT, 0)->data
                                       : p + (size_t)(2 * T + M) * es;
  memset(fc, 0, (size_t)T * es);
  if (x->dtype == IC_FP32) run_f32(c, a, attx, fc, lx, lo);
  else run_f64(c, a, attx, fc, lx, lo);
  ic_tensor *ofc = ic_out(c, OUT_FC, 0);
  if (ofc) memcpy(ofc->data, fc, (size_t)ic_tensor_numel_(ofc) * es);
  ic_buffer_release(buf);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0},           {"C0", 0},
    {"H0", IC_SLOT_OPTIONAL},
    {"AttentionWeight", 0},
    {"AttentionBias", IC_SLOT_OPTIONAL},
    {"AttentionScalar", IC_SLOT_OPTIONAL},
    {"AttentionScalarBias", IC_SLOT_OPTIONAL},
    {"LSTMWeight", 0},  {"LSTMBias", 0}};
static const ic_slotdef outputs[] = {{"Hidden", 0},
                                     {"Cell", 0},
                                     {"AttentionedX", IC_SLOT_OPTIONAL},
                                     {"AttentionFCOut", IC_SLOT_OPTIONAL},
                                     {"LSTMX", IC_SLOT_OPTIONAL},
                                     {"LSTMOUT", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_attention_lstm = {
    .name = "attention_lstm", .n_inputs = 9, .inputs = inputs, .n_outputs = 6,
    .outputs = outputs, .attrs_size = sizeof(alstm_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_LOD,
};
