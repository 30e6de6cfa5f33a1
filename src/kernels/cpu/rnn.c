/* rnn: Paddle's multi-layer, optionally bidirectional recurrent op (the cuDNN-style "rnn" op
 * paddle.nn.LSTM/GRU/SimpleRNN emit), modes LSTM, GRU, RNN_TANH and RNN_RELU, for inference
 * and training.
 *
 * Input is time-major [T, B, I]. PreState holds init_h and, for LSTM, init_c, each
 * [L * D, B, H] (L layers, D = 2 when is_bidirec, the row for layer l and direction d is
 * l * D + d). WeightList holds all weights, then all biases, each group ordered by layer then
 * direction (G = 4H for LSTM, 3H for GRU, H for RNN_*):
 *   for l, d: W_ih [G, in_l], W_hh [G, H]   (in_0 = I, in_l = D * H after)
 *   for l, d: b_ih [G], b_hh [G]
 * LSTM gate rows are ordered i, f, c~, o: i = sigmoid, f = sigmoid, c~ = tanh, o = sigmoid,
 * c' = f * c + i * c~, h' = o * tanh(c'). GRU rows are ordered r, z, c~ (paddle.nn.GRUCell):
 * r = sigmoid(x_r + h_r), z = sigmoid(x_z + h_z), c~ = tanh(x_c + r * h_c) with
 * x_* = W_ih x + b_ih and h_* = W_hh h + b_hh, h' = z * h + (1 - z) * c~. RNN_TANH / RNN_RELU:
 * h' = act(W_ih x + b_ih + W_hh h + b_hh). Out is [T, B, D * H] (direction d in columns
 * [d * H, (d + 1) * H)); the next layer reads the previous layer's Out. State receives the
 * last h (and c), shaped like PreState.
 *
 * SequenceLength (int32/int64 [B]) masks every step t >= len[b]: Out is zero there and the
 * state of sequence b is carried unchanged, so the forward direction ends at its last valid
 * step and the reverse direction starts from it (Paddle's mask in RunTestIter has the same
 * effect).
 *
 * Per layer and direction, X * W_ih^T for all T * B rows is one GEMM (plus the biases, in
 * Paddle's order; fp32 multiplies by W_ih transposed, kept across inference runs); each step
 * then adds h * W_hh^T for the batch with a second GEMM (fp32: on W_hh transposed, a GEMV per
 * row at batch 1: gemv.h) and applies the cell (fp32 LSTM: vectorized, vmath.h).
 *
 * Training (is_test false): the same computation, and Reserve receives what rnn_grad needs
 * (the activated gates, cells and starting states of every step and the outputs of the layers
 * below the last; layout in rnn.h). Paddle applies dropout_prob between layers in training;
 * icore refuses a training rnn with dropout_prob > 0 and more than one layer. DropoutState
 * stays empty; Reserve is empty for is_test. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/gemv.h"
#include "kernels/cpu/onednn.h"
#include "kernels/cpu/rnn.h"
#include "kernels/cpu/rowbias.h"
#include "kernels/cpu/vmath.h"
#include "kernels/kernel.h"

static const char *const k_modes[] = {"LSTM", "GRU", "RNN_TANH", "RNN_RELU"};

enum { IN_INPUT, IN_PRESTATE, IN_WEIGHTS, IN_SEQLEN };
enum { OUT_OUT, OUT_STATE, OUT_RESERVE, OUT_DROPOUT };

ic_status ic_rnn_parse(ic_attr_reader *r, void *attrs) {
  rnn_attrs *a = attrs;
  const char *mode = ic_ar_str(r, "mode", NULL);
  a->bidirec = ic_ar_bool(r, "is_bidirec", false);
  a->is_test = ic_ar_bool(r, "is_test", false);
  a->hidden = ic_ar_int(r, "hidden_size", 100);
  a->layers = ic_ar_int(r, "num_layers", 1);
  /* input_size is not used by Paddle's kernels (the weights say it); seed and dropout_prob
   * only matter in training. */
  (void)ic_ar_int(r, "input_size", 10);
  a->dropout = ic_ar_float(r, "dropout_prob", 0.0);
  (void)ic_ar_int(r, "seed", 0);
  if (r->st) return r->st;
  if (!mode) return ic_ar_fail(r, "mode", "is missing (required, STRING)");
  a->mode = -1;
  for (int m = 0; m < 4; m++) {
    if (strcmp(mode, k_modes[m]) == 0) a->mode = m;
  }
  if (a->mode < 0) {
    return ic_ar_fail(r, "mode", "is \"%s\", expected LSTM, GRU, RNN_TANH or RNN_RELU", mode);
  }
  if (a->hidden <= 0 || a->hidden > INT_MAX / 4) {
    return ic_ar_fail(r, "hidden_size", "is %lld, expected > 0", (long long)a->hidden);
  }
  if (a->layers <= 0 || a->layers > 1024) {
    return ic_ar_fail(r, "num_layers", "is %lld, expected 1 to 1024", (long long)a->layers);
  }
  if (!(a->dropout >= 0.0 && a->dropout <= 1.0)) {
    return ic_ar_fail(r, "dropout_prob", "is %g, expected in [0, 1]", a->dropout);
  }
  return IC_OK;
}

/* Every mode parse accepts is implemented; training with dropout between layers is not.
 * Checked at analysis time so that `icore info` and analysis name it before anything runs. */
static ic_status supports(const ic_op *op, const void *attrs, ic_err *err) {
  const rnn_attrs *a = attrs;
  char where[160];
  if (!a->is_test && a->dropout > 0.0 && a->layers > 1) {
    return ic_err_set(err, IC_ERR_UNSUPPORTED,
                      "%s: rnn in training (is_test false) with dropout_prob %g between its %lld "
                      "layers is not implemented in icore (dropout_prob 0 or one layer is)",
                      ic_op_where(op, where, sizeof where), a->dropout, (long long)a->layers);
  }
  return IC_OK;
}

/* Check one tensor's dtype and dims against what the weights layout needs: what names it,
 * of layer l and direction d when l >= 0 (formatted only on failure: infer runs before
 * every run). */
static ic_status expect(ic_kctx *c, size_t s, size_t i, ic_dtype dt, int ndim,
                        const int64_t *dims, const char *what, int64_t l, int64_t d) {
  const ic_tensor *t = ic_in(c, s, i);
  if (t->dtype == dt && ic_dims_equal(t->ndim, t->dims, ndim, dims)) return IC_OK;
  char want[128], of[64] = "";
  if (l >= 0) snprintf(of, sizeof of, " of layer %lld direction %lld", (long long)l, (long long)d);
  return ic_kfail_in(c, s, i, "expected %s%s (%s%s)", ic_dtype_name(dt),
                     ic_dims_str(ndim, dims, want, sizeof want), what, of);
}

static ic_status infer(ic_kctx *c) {
  const rnn_attrs *a = c->attrs;
  const bool lstm = a->mode == MODE_LSTM;
  const size_t ns = lstm ? 2 : 1;
  const int64_t G = (a->mode == MODE_LSTM ? 4 : a->mode == MODE_GRU ? 3 : 1) * a->hidden;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0);
  if (ic_kcheck_dtype(c, IN_INPUT, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim != 3) {
    return ic_kfail_in(c, IN_INPUT, 0, "expected rank 3 [seq_len, batch, input_size]");
  }
  const int64_t T = x->dims[0], B = x->dims[1], In = x->dims[2], H = a->hidden, L = a->layers;
  const int64_t D = a->bidirec ? 2 : 1;
  if (T * B > INT_MAX || In > INT_MAX) {
    return ic_kfail_in(c, IN_INPUT, 0, "expected seq_len * batch and input_size below 2^31");
  }
  if (c->in[IN_PRESTATE].n != ns) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                    "input PreState holds %zu variables, expected %s for %s",
                    c->in[IN_PRESTATE].n, lstm ? "2 (init_h, init_c)" : "1 (init_h)",
                    k_modes[a->mode]);
  }
  const int64_t sdims[3] = {L * D, B, H};
  for (size_t k = 0; k < ns; k++) {
    if (expect(c, IN_PRESTATE, k, x->dtype, 3, sdims,
               k ? "init_c: [num_layers * directions, batch, hidden_size]"
                 : "init_h: [num_layers * directions, batch, hidden_size]",
               -1, 0)) {
      return c->err->code;
    }
  }
  const size_t nw = (size_t)(4 * L * D);
  if (c->in[IN_WEIGHTS].n != nw) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                    "input WeightList holds %zu variables, expected %zu (W_ih, W_hh, b_ih and "
                    "b_hh for each of %lld layers x %lld directions)",
                    c->in[IN_WEIGHTS].n, nw, (long long)L, (long long)D);
  }
  for (int64_t l = 0; l < L; l++) {
    for (int64_t d = 0; d < D; d++) {
      size_t k = (size_t)(2 * (l * D + d)), kb = k + nw / 2;
      const int64_t wih[2] = {G, l == 0 ? In : D * H}, whh[2] = {G, H}, b[1] = {G};
      if (expect(c, IN_WEIGHTS, k, x->dtype, 2, wih, "W_ih", l, d) ||
          expect(c, IN_WEIGHTS, k + 1, x->dtype, 2, whh, "W_hh", l, d) ||
          expect(c, IN_WEIGHTS, kb, x->dtype, 1, b, "b_ih", l, d) ||
          expect(c, IN_WEIGHTS, kb + 1, x->dtype, 1, b, "b_hh", l, d)) {
        return c->err->code;
      }
    }
  }
  const ic_tensor *len = ic_in(c, IN_SEQLEN, 0);
  if (len) {
    if (ic_kcheck_dtype(c, IN_SEQLEN, 0, IC_DT_INT)) return c->err->code;
    if (len->ndim != 1 || len->dims[0] != B) {
      return ic_kfail_in(c, IN_SEQLEN, 0, "expected [%lld]: one length per batch entry",
                         (long long)B);
    }
  }
  if (c->out[OUT_STATE].n != ns) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                    "output State holds %zu variables, expected %s for %s", c->out[OUT_STATE].n,
                    lstm ? "2 (last_h, last_c)" : "1 (last_h)", k_modes[a->mode]);
  }
  const int64_t odims[3] = {T, B, D * H}, zero[1] = {0};
  ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, 3, odims);
  for (size_t k = 0; k < ns; k++) ic_tensor_set_meta(ic_out(c, OUT_STATE, k), x->dtype, 3, sdims);
  ic_tensor *res = ic_out(c, OUT_RESERVE, 0);
  if (!a->is_test) {
    if (!res) {
      return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                      "output Reserve is missing; training (is_test false) writes the state "
                      "rnn_grad reads there");
    }
    const int64_t rbytes[1] = {ic_rnn_reserve_elems(a, T, B) * (int64_t)ic_dtype_size(x->dtype)};
    ic_tensor_set_meta(res, IC_UINT8, 1, rbytes);
  } else if (res) {
    ic_tensor_set_meta(res, IC_UINT8, 1, zero);
  }
  if (ic_out(c, OUT_DROPOUT, 0)) ic_tensor_set_meta(ic_out(c, OUT_DROPOUT, 0), IC_UINT8, 1, zero);
  return IC_OK;
}

/* C[M x N] = A[M x K] * B[N x K]^T + beta * C, row-major. */
/* C[M x N] = A[M x K] * B[K x N] + beta * C, float32 (B row-major, ldb >= N). */
static void gemm_nn(const ic_kctx *c, int64_t M, int64_t N, int64_t K, const float *A,
                    int64_t lda, const float *B, int64_t ldb, double beta, void *C, int64_t ldc) {
  ic_gemm g = {.dtype = IC_FP32, .m = M, .n = N, .k = K, .lda = lda, .ldb = ldb, .ldc = ldc,
               .alpha = 1.0, .beta = beta};
  ic_gemm_run(c, &g, A, B, C);
}

static void gemm_nt(const ic_kctx *c, bool f64, int64_t M, int64_t N, int64_t K, const void *A,
                    int64_t lda, const void *B, int64_t ldb, double beta, void *C, int64_t ldc) {
  ic_gemm g = {.dtype = f64 ? IC_FP64 : IC_FP32, .trans_b = true, .m = M, .n = N, .k = K,
               .lda = lda, .ldb = ldb, .ldc = ldc, .alpha = 1.0, .beta = beta};
  ic_gemm_run(c, &g, A, B, C);
}

/* Per type: add both biases to every row of the gate pre-activations (rowbias.h: blocks of 8
 * that GCC's -O2 vectorizes; a plain loop stayed scalar, about 1% of CRNN's run), and one
 * LSTM step for the batch (rows whose sequence has ended write zeros and keep their state). sigmoid and
 * tanh are Paddle's sigmoid_v2 and tanh_v2, 1 / (1 + e^-x) and 2 / (1 + e^-2x) - 1: no
 * clipping, and tanh through exp is several times faster than libm's tanhf. fp32 LSTM steps
 * use step_vf32 below (the scalar step stays for fp64). */
#define DEFINE_LSTM(T, SUF, EXP)                                                              \
  static inline T sigm_##SUF(T v) { return (T)1 / ((T)1 + EXP(-v)); }                         \
  static inline T tanh_##SUF(T v) { return (T)2 / ((T)1 + EXP((T)-2 * v)) - (T)1; }

#define DEFINE_LSTM_STEP(T, SUF)                                                              \
  static void step_##SUF(const T *g, T *h, T *c, T *out, int64_t ldo, int64_t B, int64_t H,   \
                         const bool *live, const rec_t *rec) {                                \
    for (int64_t b = 0; b < B; b++) {                                                         \
      T *o = out + b * ldo;                                                                   \
      if (!live[b]) {                                                                         \
        memset(o, 0, (size_t)H * sizeof(T));                                                  \
        continue;                                                                             \
      }                                                                                       \
      const T *gb = g + b * 4 * H;                                                            \
      T *hb = h + b * H, *cb = c + b * H;                                                     \
      T *ra = rec ? (T *)rec->a + b * 4 * H : NULL;                                           \
      if (rec) {                                                                              \
        memcpy((T *)rec->hp + b * H, hb, (size_t)H * sizeof(T));                              \
        memcpy((T *)rec->cp + b * H, cb, (size_t)H * sizeof(T));                              \
      }                                                                                       \
      for (int64_t j = 0; j < H; j++) {                                                       \
        T ig = sigm_##SUF(gb[j]), fg = sigm_##SUF(gb[H + j]);                                 \
        T cand = tanh_##SUF(gb[2 * H + j]), og = sigm_##SUF(gb[3 * H + j]);                   \
        T cn = cand * ig + cb[j] * fg;                                                        \
        T hn = og * tanh_##SUF(cn);                                                           \
        if (ra) {                                                                             \
          ra[j] = ig;                                                                         \
          ra[H + j] = fg;                                                                     \
          ra[2 * H + j] = cand;                                                               \
          ra[3 * H + j] = og;                                                                 \
          ((T *)rec->c)[b * H + j] = cn;                                                      \
        }                                                                                     \
        cb[j] = cn;                                                                           \
        hb[j] = hn;                                                                           \
        o[j] = hn;                                                                            \
      }                                                                                       \
    }                                                                                         \
  }

/* Where a training step records (rows of one step in the Reserve block; NULL: inference). */
typedef struct rec_t {
  void *a, *c, *hp, *cp;
} rec_t;

DEFINE_LSTM(float, f32, expf)
DEFINE_LSTM(double, f64, exp)
DEFINE_LSTM_STEP(double, f64)

/* The fp32 LSTM step, vectorized (vmath.h): the activations are applied in place to the
 * step's gate rows (scratch), then c' and h' are formed four lanes at a time. Same formulas
 * as the scalar step, with vmath's exponential instead of libm's; training records the same
 * values the scalar step would (rec: activated gates, new cell, previous h and c), so a
 * training forward gives the bits of an inference one. All rows' gates go through one
 * sigmoid pass: c~ = tanh(x) is taken as 2 * sigmoid(2x) - 1, which with vmath's forms
 * (2 / (1 + e^-2x) - 1 and 1 / (1 + e^-x)) is the same float for every float x at every
 * vector width (checked exhaustively; doubling and halving are exact). */
static void step_vf32(float *g, float *h, float *c, float *out, int64_t ldo, int64_t B,
                      int64_t H, const bool *live, const rec_t *rec) {
  const ic_v4f two = ic_v4_splat(2.0f), one = ic_v4_splat(1.0f);
  for (int64_t b = 0; b < B; b++) {
    float *cand = g + b * 4 * H + 2 * H;
    int64_t j = 0;
    for (; j + 4 <= H; j += 4) ic_v4_store(cand + j, two * ic_v4_load(cand + j));
    for (; j < H; j++) cand[j] = 2.0f * cand[j];
  }
  ic_vsigmoidf(g, g, B * 4 * H);
  for (int64_t b = 0; b < B; b++) {
    float *cand = g + b * 4 * H + 2 * H;
    int64_t j = 0;
    for (; j + 4 <= H; j += 4) ic_v4_store(cand + j, two * ic_v4_load(cand + j) - one);
    for (; j < H; j++) cand[j] = 2.0f * cand[j] - 1.0f;
  }
  for (int64_t b = 0; b < B; b++) {
    float *o = out + b * ldo;
    if (!live[b]) {
      memset(o, 0, (size_t)H * sizeof(float));
      continue;
    }
    float *gb = g + b * 4 * H, *hb = h + b * H, *cb = c + b * H;
    if (rec) {
      memcpy((float *)rec->hp + b * H, hb, (size_t)H * sizeof(float));
      memcpy((float *)rec->cp + b * H, cb, (size_t)H * sizeof(float));
    }
    const float *ig = gb, *fg = gb + H, *cand = gb + 2 * H, *og = gb + 3 * H;
    int64_t j = 0;
    for (; j + 4 <= H; j += 4) {
      ic_v4f cn = ic_v4_load(cand + j) * ic_v4_load(ig + j) + ic_v4_load(cb + j) * ic_v4_load(fg + j);
      ic_v4_store(cb + j, cn);
    }
    for (; j < H; j++) cb[j] = cand[j] * ig[j] + cb[j] * fg[j];
    if (rec) {
      memcpy((float *)rec->a + b * 4 * H, gb, (size_t)(4 * H) * sizeof(float));
      memcpy((float *)rec->c + b * H, cb, (size_t)H * sizeof(float));
    }
    ic_vtanhf(hb, cb, H);
    for (j = 0; j + 4 <= H; j += 4) {
      ic_v4f hn = ic_v4_load(og + j) * ic_v4_load(hb + j);
      ic_v4_store(hb + j, hn);
      ic_v4_store(o + j, hn);
    }
    for (; j < H; j++) o[j] = hb[j] = og[j] * hb[j];
  }
}

/* GRU step: g holds x_* (W_ih x + b_ih) for the batch, gh holds W_hh h (b_hh added here). */
#define DEFINE_GRU(T, SUF)                                                                    \
  static void gru_step_##SUF(const T *g, const T *gh, const T *bh, T *h, T *out, int64_t ldo, \
                             int64_t B, int64_t H, const bool *live, const rec_t *rec) {      \
    for (int64_t b = 0; b < B; b++) {                                                         \
      T *o = out + b * ldo;                                                                   \
      if (!live[b]) {                                                                         \
        memset(o, 0, (size_t)H * sizeof(T));                                                  \
        continue;                                                                             \
      }                                                                                       \
      const T *gb = g + b * 3 * H, *hb_ = gh + b * 3 * H;                                     \
      T *hb = h + b * H;                                                                      \
      T *ra = rec ? (T *)rec->a + b * 3 * H : NULL;                                           \
      if (rec) memcpy((T *)rec->hp + b * H, hb, (size_t)H * sizeof(T));                       \
      for (int64_t j = 0; j < H; j++) {                                                       \
        T r = sigm_##SUF(gb[j] + (hb_[j] + bh[j]));                                           \
        T z = sigm_##SUF(gb[H + j] + (hb_[H + j] + bh[H + j]));                               \
        T hc = hb_[2 * H + j] + bh[2 * H + j];                                                \
        T cand = tanh_##SUF(gb[2 * H + j] + r * hc);                                          \
        T hn = z * hb[j] + ((T)1 - z) * cand;                                                 \
        if (ra) {                                                                             \
          ra[j] = r;                                                                          \
          ra[H + j] = z;                                                                      \
          ra[2 * H + j] = cand;                                                               \
          ((T *)rec->c)[b * H + j] = hc;                                                      \
        }                                                                                     \
        hb[j] = hn;                                                                           \
        o[j] = hn;                                                                            \
      }                                                                                       \
    }                                                                                         \
  }                                                                                           \
  static void rnn_step_##SUF(const T *g, T *h, T *out, int64_t ldo, int64_t B, int64_t H,     \
                             const bool *live, bool relu, const rec_t *rec) {                 \
    for (int64_t b = 0; b < B; b++) {                                                         \
      T *o = out + b * ldo;                                                                   \
      if (!live[b]) {                                                                         \
        memset(o, 0, (size_t)H * sizeof(T));                                                  \
        continue;                                                                             \
      }                                                                                       \
      const T *gb = g + b * H;                                                                \
      T *hb = h + b * H;                                                                      \
      if (rec) memcpy((T *)rec->hp + b * H, hb, (size_t)H * sizeof(T));                       \
      for (int64_t j = 0; j < H; j++) {                                                       \
        T hn = relu ? (gb[j] > 0 ? gb[j] : (T)0) : tanh_##SUF(gb[j]);                         \
        if (rec) ((T *)rec->a)[b * H + j] = hn;                                               \
        hb[j] = hn;                                                                           \
        o[j] = hn;                                                                            \
      }                                                                                       \
    }                                                                                         \
  }

DEFINE_GRU(float, f32)
DEFINE_GRU(double, f64)

static void add_bias_one(bool f64, void *g, int64_t rows, int64_t n, const void *b) {
  for (int64_t r = 0; r < rows; r++) {
    for (int64_t j = 0; j < n; j++) {
      if (f64) ((double *)g)[r * n + j] += ((const double *)b)[j];
      else ((float *)g)[r * n + j] += ((const float *)b)[j];
    }
  }
}

typedef struct rnn_wt_cache rnn_wt_cache;

/* What every layer and direction of one run shares (run() below). */
typedef struct rnn_run {
  const rnn_attrs *a;
  int64_t T, B, H, G, D, L;
  bool lstm, gru, f64, use_wt, use_gemv;
  size_t es, nw, n_state, n_layer;
  int64_t blk;
  const int64_t *len;
  const ic_tensor *init_h, *init_c;
  ic_tensor *last_h, *last_c;
  char *reserve; /* training: Reserve's data; NULL for inference */
  rnn_wt_cache *wt_cache; /* fp32 inference: the kept W_hh^T and W_ih^T; else NULL */
} rnn_run;

/* One direction's scratch: gates [T*B, G], h and c [B, H] (for GRU c holds W_hh h, [B, 3H]),
 * W_hh transposed [H, G] and W_ih transposed [in, G] (fp32 without the kept copies:
 * training) and per-step live flags. */
typedef struct rnn_dir {
  void *gates, *h, *cst;
  float *wt, *wiht;
  bool *live;
} rnn_dir;

/* Kept across runs of an fp32 inference rnn (ic_kctx.state): W_hh transposed, [H, G], and
 * W_ih transposed, [in, G], per layer and direction, each keyed like conv's reordered filters
 * by the weight's address, size and a 64-value sample (ic_dnnl_filter_sample), so that new
 * values loaded into the same buffer are transposed again. Training transposes on every run
 * instead: its optimizer rewrites the weights in place between runs. */
typedef struct wt_key {
  const void *ptr;
  uint64_t sample;
  bool packed; /* W_hh packed for ic_gemv_packed_acc_f32 rather than transposed */
} wt_key;

struct rnn_wt_cache {
  int64_t n, gh, in0; /* blocks (layers x directions), floats per W_hh block (wt_floats), input size */
  float *wt, *wih;    /* W_ih^T of block k at wih + wih_off(k) */
  wt_key *key, *key_ih;
};

static void wt_cache_free(void *p) {
  rnn_wt_cache *k = p;
  free(k->wt);
  free(k->wih);
  free(k->key);
  free(k->key_ih);
  free(k);
}

/* W [G, K] transposed into wt [K, G]. */
static void transpose_w(const float *w, float *wt, int64_t G, int64_t K) {
  for (int64_t gi = 0; gi < G; gi++) {
    for (int64_t k2 = 0; k2 < K; k2++) wt[k2 * G + gi] = w[gi * K + k2];
  }
}

/* Where block blk (layer l = blk / D) keeps W_ih^T: layer 0's blocks hold in0 x G floats,
 * the later ones D * H x G. */
static int64_t wih_off(int64_t blk, int64_t D, int64_t in0, int64_t H, int64_t G) {
  return blk < D ? blk * in0 * G : (D * in0 + (blk - D) * D * H) * G;
}

/* Floats of one W_hh copy ([G, H]): transposed, or packed for the batch-1 GEMV, whichever a
 * run needs (a cache slot holds either). */
static int64_t wt_floats(int64_t G, int64_t H) {
  const int64_t packed = ic_gemv_available() ? ic_gemv_packed_size(H, G) : 0;
  return packed > G * H ? packed : G * H;
}

/* W [G, K] into wt: packed for ic_gemv_packed_acc_f32, or transposed ([K, G]). */
static void prepare_w(const float *w, float *wt, int64_t G, int64_t K, bool pack) {
  if (pack) ic_gemv_pack_f32(w, G, K, wt);
  else transpose_w(w, wt, G, K);
}

/* prepare_w's copy of weight w ([G, K]) in cache slot wt, redone when the key changes. */
static const float *kept_transpose(wt_key *key, float *wt, const float *w, int64_t G, int64_t K,
                                   bool pack) {
  uint64_t sample = ic_dnnl_filter_sample(w, (size_t)(G * K));
  if (key->ptr != w || key->sample != sample || key->packed != pack) {
    prepare_w(w, wt, G, K, pack);
    key->ptr = w;
    key->sample = sample;
    key->packed = pack;
  }
  return wt;
}

/* Layer l, direction d: input `in` [T*B, in_size], output columns [d*H, (d+1)*H) of dst. */
static void run_direction(const ic_kctx *c, const rnn_run *r, const rnn_dir *s, int64_t l,
                          int64_t d, const void *in, int64_t in_size, void *dst) {
  const rnn_attrs *a = r->a;
  const int64_t T = r->T, B = r->B, H = r->H, G = r->G, D = r->D, L = r->L;
  const bool lstm = r->lstm, gru = r->gru, f64 = r->f64, use_wt = r->use_wt;
  const bool use_gemv = r->use_gemv;
  const size_t es = r->es, nw = r->nw, n_state = r->n_state, n_layer = r->n_layer;
  void *gates = s->gates, *h = s->h, *cst = s->cst;
  float *wt = s->wt;
  bool *live = s->live;
  rnn_wt_cache *wc = r->wt_cache;
  const size_t k = (size_t)(2 * (l * D + d)), kb = k + nw / 2;
  const void *w_ih = ic_in(c, IN_WEIGHTS, k)->data, *w_hh = ic_in(c, IN_WEIGHTS, k + 1)->data;
  const void *b_ih = ic_in(c, IN_WEIGHTS, kb)->data, *b_hh = ic_in(c, IN_WEIGHTS, kb + 1)->data;
  const size_t row = (size_t)(l * D + d) * n_state;
  /* this layer and direction's Reserve block: A, C, HP, CP */
  char *rb = r->reserve
                 ? r->reserve + (size_t)((L - 1) * (int64_t)n_layer + (l * D + d) * r->blk) * es
                 : NULL;
  /* X * W_ih^T for all T * B rows: fp32 as NN on W_ih transposed, which beat the
   * transposed-operand sgemm (CRNN's [640, 480] x [480, 384]: 913 against 1057 us) */
  if (f64) {
    gemm_nt(c, f64, T * B, G, in_size, in, in_size, w_ih, in_size, 0.0, gates, G);
  } else {
    const float *wiht = s->wiht;
    if (wc) {
      const int64_t blk = l * D + d;
      wiht = kept_transpose(&wc->key_ih[blk], wc->wih + wih_off(blk, D, wc->in0, r->H, G),
                            w_ih, G, in_size, false);
    } else {
      transpose_w(w_ih, s->wiht, G, in_size);
    }
    gemm_nn(c, T * B, G, in_size, in, in_size, wiht, G, 0.0, gates, G);
  }
  if (gru) add_bias_one(f64, gates, T * B, G, b_ih);
  else if (f64) ic_rows_add2_f64(gates, T * B, G, b_ih, b_hh);
  else ic_rows_add2_f32(gates, T * B, G, b_ih, b_hh);
  if (use_wt && wc) {
    /* Only this direction's thread touches block l * D + d. */
    const int64_t blk = l * D + d;
    wt = (float *)kept_transpose(&wc->key[blk], wc->wt + blk * wc->gh, w_hh, G, H, use_gemv);
  } else if (use_wt) {
    prepare_w(w_hh, wt, G, H, use_gemv);
  }
  memcpy(h, (const char *)r->init_h->data + row * es, n_state * es);
  if (lstm) memcpy(cst, (const char *)r->init_c->data + row * es, n_state * es);
  for (int64_t st = 0; st < T; st++) {
    const int64_t t = d == 0 ? st : T - 1 - st;
    bool any = false;
    for (int64_t b = 0; b < B; b++) any |= (live[b] = t < r->len[b]);
    char *g_t = (char *)gates + (size_t)(t * B * G) * es;
    char *o_t = (char *)dst + (size_t)((t * B) * D * H + d * H) * es;
    rec_t rec_s, *rec = NULL;
    if (rb) {
      const size_t tb = (size_t)(t * B);
      rec_s.a = rb + tb * (size_t)G * es;
      rec_s.c = rb + ((size_t)(T * B * G) + tb * (size_t)H) * es;
      rec_s.hp = (char *)rec_s.c + n_layer / (size_t)D * es;
      rec_s.cp = (char *)rec_s.hp + n_layer / (size_t)D * es;
      rec = &rec_s;
    }
    /* The GEMM gives rows whose sequence has ended a product too; the step ignores them. */
    if (gru && use_gemv) {
      for (int64_t b = 0; b < B; b++) {
        float *gh = (float *)cst + b * G;
        memset(gh, 0, (size_t)G * sizeof(float));
        if (live[b]) ic_gemv_packed_acc_f32(wt, (const float *)h + b * H, gh, H, G);
      }
    } else if (gru && use_wt && any) {
      gemm_nn(c, B, G, H, h, H, wt, G, 0.0, cst, G);
    } else if (gru && any) {
      gemm_nt(c, f64, B, G, H, h, H, w_hh, H, 0.0, cst, G);
    } else if (use_gemv) {
      for (int64_t b = 0; b < B; b++) {
        if (live[b]) ic_gemv_packed_acc_f32(wt, (const float *)h + b * H, (float *)g_t + b * G, H, G);
      }
    } else if (use_wt && any) {
      gemm_nn(c, B, G, H, h, H, wt, G, 1.0, g_t, G);
    } else if (any) {
      gemm_nt(c, f64, B, G, H, h, H, w_hh, H, 1.0, g_t, G);
    }
    if (gru) {
      if (f64) gru_step_f64((double *)g_t, cst, b_hh, h, (double *)o_t, D * H, B, H, live, rec);
      else gru_step_f32((float *)g_t, cst, b_hh, h, (float *)o_t, D * H, B, H, live, rec);
      continue;
    }
    const bool relu = a->mode == MODE_RNN_RELU;
    if (lstm && f64) step_f64((double *)g_t, h, cst, (double *)o_t, D * H, B, H, live, rec);
    else if (lstm) step_vf32((float *)g_t, h, cst, (float *)o_t, D * H, B, H, live, rec);
    else if (f64) rnn_step_f64((double *)g_t, h, (double *)o_t, D * H, B, H, live, relu, rec);
    else rnn_step_f32((float *)g_t, h, (float *)o_t, D * H, B, H, live, relu, rec);
  }
  memcpy((char *)r->last_h->data + row * es, h, n_state * es);
  if (lstm) memcpy((char *)r->last_c->data + row * es, cst, n_state * es);
}

static ic_status run(ic_kctx *c) {
  const rnn_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *len_t = ic_in(c, IN_SEQLEN, 0);
  const int64_t T = x->dims[0], B = x->dims[1], In = x->dims[2], H = a->hidden, L = a->layers;
  const int64_t D = a->bidirec ? 2 : 1;
  const bool lstm = a->mode == MODE_LSTM, gru = a->mode == MODE_GRU;
  const int64_t G = (lstm ? 4 : gru ? 3 : 1) * H;
  const bool f64 = x->dtype == IC_FP64;
  const size_t es = ic_dtype_size(x->dtype);
  ic_tensor *out = ic_out(c, OUT_OUT, 0);

  /* Scratch: lengths, one rnn_dir per direction run at once, and the outputs of the layers
   * below the last (two buffers alternate from the third layer on). */
  const size_t n_gates = (size_t)(T * B * G), n_state = (size_t)(B * H);
  const size_t n_c = gru ? (size_t)(B * G) : n_state;
  const bool train = !a->is_test;
  const size_t n_layer = (size_t)(T * B * D * H);
  const size_t n_bufs = train ? 0 : L > 2 ? 2 : (size_t)(L - 1);
  char *reserve = train ? ic_out(c, OUT_RESERVE, 0)->data : NULL;
  if (train) memset(reserve, 0, (size_t)ic_tensor_numel_(ic_out(c, OUT_RESERVE, 0)));
  /* fp32: the recurrent product h * W_hh^T reads W_hh transposed once per layer and
   * direction (wt, [H, G]; kept across inference runs, rnn_wt_cache): at batch 1 with AVX2 or
   * AVX-512 as a GEMV on W_hh packed in column panels (ic_gemv_packed_acc_f32; CRNN's
   * [96] x [96, 384] at AVX-512: 1.50 against 1.75 us per step for the GEMV on [H, G], whose
   * strided rows the prefetchers follow less well: the same bits), instead of an sgemm call
   * per step whose setup costs more than its arithmetic; at larger batches as sgemm on the transposed matrix, which beat the
   * transposed-operand sgemm (CRNN's [8, 96] x [96, 384]: 2.4-2.6 against 3.5 us per step;
   * the GEMV there, one pass over wt per row, took 7.2). */
  const bool use_wt = !f64;
  const bool use_gemv = use_wt && B == 1 && ic_gemv_available();
  rnn_wt_cache *wc = NULL;
  if (use_wt && !train && c->state) {
    wc = *c->state;
    if (wc && (wc->n != L * D || wc->gh != wt_floats(G, H) || wc->in0 != In)) {
      wt_cache_free(wc);
      wc = *c->state = NULL;
    }
    if (!wc) {
      wc = calloc(1, sizeof *wc);
      if (wc) {
        wc->n = L * D;
        wc->gh = wt_floats(G, H);
        wc->in0 = In;
        wc->wt = malloc((size_t)(L * D * wc->gh) * sizeof(float));
        wc->wih = malloc((size_t)wih_off(L * D, D, In, H, G) * sizeof(float));
        wc->key = calloc((size_t)(L * D), sizeof *wc->key);
        wc->key_ih = calloc((size_t)(L * D), sizeof *wc->key_ih);
      }
      if (!wc || !wc->wt || !wc->wih || !wc->key || !wc->key_ih) {
        if (wc) wt_cache_free(wc);
        return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
      }
      *c->state = wc;
    }
  }
  const size_t n_wt = use_wt && !wc ? (size_t)wt_floats(G, H) : 0;
  const size_t n_wih = use_wt && !wc ? (size_t)(G * (In > D * H ? In : D * H)) : 0;
  /* The two directions of a layer are independent: with two threads or more each runs on
   * its own (float32; each direction single-threaded, so the bits are the same either way).
   * float64 stays serial: its GEMMs are OpenBLAS's. */
  const int nt = D == 2 && !f64 && ic_omp_threads(c->env) > 1 ? 2 : 1;
  const size_t n_dir = (n_gates + n_state + n_c + n_wt + n_wih) * es;
  const size_t bytes = (size_t)nt * n_dir + n_bufs * n_layer * es +
                       (size_t)B * sizeof(int64_t) + (size_t)nt * (size_t)B * sizeof(bool);
  ic_buffer *scratch = ic_kscratch(c, bytes);
  if (!scratch) return c->err->code;
  /* Lengths first: the float arrays after them stay aligned for any element size. */
  int64_t *len = scratch->data;
  char *p = (char *)(len + B);
  rnn_dir dirs[2];
  for (int k = 0; k < nt; k++) {
    dirs[k].gates = p;
    p += n_gates * es;
    dirs[k].h = p;
    p += n_state * es;
    dirs[k].cst = p;
    p += n_c * es;
    dirs[k].wt = (float *)p;
    p += n_wt * es;
    dirs[k].wiht = (float *)p;
    p += n_wih * es;
  }
  void *bufs[2] = {p, n_bufs > 1 ? p + n_layer * es : p};
  p += n_bufs * n_layer * es;
  for (int k = 0; k < nt; k++) {
    dirs[k].live = (bool *)p;
    p += B * sizeof(bool);
  }
  ic_status st = IC_OK;

  for (int64_t b = 0; b < B; b++) {
    len[b] = len_t ? ic_read_i64(len_t, b) : T;
    if (len[b] < 0 || len[b] > T) {
      st = ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                    "input SequenceLength '%s' has %lld at index %lld, expected 0 to seq_len %lld",
                    ic_in_name(c, IN_SEQLEN, 0), (long long)len[b], (long long)b, (long long)T);
      goto done;
    }
  }

  const rnn_run r = {
      .a = a, .T = T, .B = B, .H = H, .G = G, .D = D, .L = L, .lstm = lstm, .gru = gru,
      .f64 = f64, .use_wt = use_wt, .use_gemv = use_gemv, .es = es, .nw = (size_t)(4 * L * D),
      .n_state = n_state, .n_layer = n_layer, .blk = ic_rnn_block(a, T, B), .len = len,
      .init_h = ic_in(c, IN_PRESTATE, 0), .init_c = lstm ? ic_in(c, IN_PRESTATE, 1) : NULL,
      .last_h = ic_out(c, OUT_STATE, 0), .last_c = lstm ? ic_out(c, OUT_STATE, 1) : NULL,
      .reserve = reserve, .wt_cache = wc};
  /* Inside the two-thread region each direction's GEMMs run single-threaded. */
  ic_kenv env1;
  ic_kctx c1 = *c;
  if (nt > 1) {
    env1 = *c->env;
    env1.intra_threads = 1;
    c1.env = &env1;
  }
  const void *in = x->data;
  int64_t in_size = In;
  for (int64_t l = 0; l < L; l++) {
    void *dst = l == L - 1 ? out->data
                : train ? reserve + (size_t)(l * (int64_t)n_layer) * es
                        : bufs[l % 2];
    if (nt > 1) {
#pragma omp parallel for num_threads(2) schedule(static)
      for (int64_t d = 0; d < 2; d++) run_direction(&c1, &r, &dirs[d], l, d, in, in_size, dst);
    } else {
      for (int64_t d = 0; d < D; d++) run_direction(c, &r, &dirs[0], l, d, in, in_size, dst);
    }
    in = dst;
    in_size = D * H;
  }
done:
  ic_buffer_release(scratch);
  return st;
}

static const ic_slotdef inputs[] = {
    {"Input", 0},
    {"PreState", IC_SLOT_MULTI},
    {"WeightList", IC_SLOT_MULTI},
    {"SequenceLength", IC_SLOT_OPTIONAL},
};
static const ic_slotdef outputs[] = {
    {"Out", 0},
    {"State", IC_SLOT_MULTI},
    {"Reserve", IC_SLOT_OPTIONAL},
    {"DropoutState", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
};

const ic_opdef ic_op_rnn = {
    .name = "rnn",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 4, .outputs = outputs,
    .attrs_size = sizeof(rnn_attrs), .parse = ic_rnn_parse,
    .infer = infer, .cpu = run,
    .supports = supports,
    .free_state = wt_cache_free,
};
