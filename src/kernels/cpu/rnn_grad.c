/* rnn_grad: the gradients of the rnn op (rnn.c) in training, modes LSTM, GRU, RNN_TANH and
 * RNN_RELU, any number of layers, bidirectional, with or without SequenceLength (phi
 * RnnGradKernel computes the same quantities from its own Reserve; icore's forward writes its
 * own layout, described in rnn.h, and only icore's forward feeds this kernel).
 *
 * Layers run from the last to the first, each direction backwards through time (the forward
 * direction from the last step, the reverse one from the first). Per step and batch row,
 * with dh = State@GRAD's carry + Out@GRAD at that step:
 *   LSTM (gates i, f, c~, o; c the new cell, c0 the previous one):
 *     dc = dc_carry + dh * o * (1 - tanh(c)^2),
 *     d(pre-activation) i: dc * c~ * i (1 - i), f: dc * c0 * f (1 - f), c~: dc * i (1 - c~^2),
 *     o: dh * tanh(c) * o (1 - o);  dc_carry = dc * f
 *   GRU (r, z, c~, hc = W_hh,c h0 + b_hh,c): dc~ = dh (1 - z) (1 - c~^2), dz = dh (h0 - c~),
 *     the x-side pre-activations are r: dc~ hc r (1 - r), z: dz z (1 - z), c~: dc~, the
 *     h-side ones the same except c~: dc~ r; the carry gets dh * z directly
 *   RNN_TANH / RNN_RELU: d(pre-activation) = dh (1 - h^2) / dh [h > 0]
 * and dh_carry = (h-side pre-activation grads) W_hh (+ the GRU term). Rows whose sequence
 * has ended pass both carries through unchanged and contribute nothing. Per layer and
 * direction, with dG the x-side and dGh the h-side pre-activation grads of all steps:
 *   W_ih@GRAD = dG^T X_l, W_hh@GRAD = dGh^T H_prev, b_ih@GRAD = column sums of dG,
 *   b_hh@GRAD = column sums of dGh, X_l@GRAD += dG W_ih (summed over both directions).
 * PreState@GRAD receives the carries left after the first step. Any gradient input may be
 * absent (zero); any output may be absent (not computed where nothing needs it). */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/rnn.h"
#include "kernels/kernel.h"

enum { IN_INPUT, IN_PRESTATE, IN_WEIGHTS, IN_SEQLEN, IN_OUT, IN_DOUT, IN_DSTATE, IN_RESERVE,
       IN_DROPOUT };
enum { OUT_DINPUT, OUT_DPRESTATE, OUT_DWEIGHTS };

static ic_status infer(ic_kctx *c) {
  const rnn_attrs *a = c->attrs;
  const bool lstm = a->mode == MODE_LSTM;
  const size_t ns = lstm ? 2 : 1;
  if (a->is_test) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                    "attribute is_test is true: rnn_grad needs the Reserve of a training rnn");
  }
  const ic_tensor *x = ic_in(c, IN_INPUT, 0);
  if (ic_kcheck_dtype(c, IN_INPUT, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim != 3) {
    return ic_kfail_in(c, IN_INPUT, 0, "expected rank 3 [seq_len, batch, input_size]");
  }
  const int64_t T = x->dims[0], B = x->dims[1], In = x->dims[2], H = a->hidden, L = a->layers;
  const int64_t D = a->bidirec ? 2 : 1, G = ic_rnn_gates(a);
  if (T * B > INT_MAX || In > INT_MAX) {
    return ic_kfail_in(c, IN_INPUT, 0, "expected seq_len * batch and input_size below 2^31");
  }
  const size_t nw = (size_t)(4 * L * D);
  if (c->in[IN_PRESTATE].n != ns || c->in[IN_WEIGHTS].n != nw) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                    "inputs PreState and WeightList hold %zu and %zu variables, expected %zu "
                    "and %zu for %lld layers x %lld directions",
                    c->in[IN_PRESTATE].n, c->in[IN_WEIGHTS].n, ns, nw, (long long)L,
                    (long long)D);
  }
  const int64_t sdims[3] = {L * D, B, H};
  for (size_t k = 0; k < ns; k++) {
    const ic_tensor *s = ic_in(c, IN_PRESTATE, k);
    if (s->dtype != x->dtype || !ic_dims_equal(s->ndim, s->dims, 3, sdims)) {
      return ic_kfail_in(c, IN_PRESTATE, k, "expected [%lld, %lld, %lld] like the forward's",
                         (long long)sdims[0], (long long)B, (long long)H);
    }
  }
  for (int64_t l = 0; l < L; l++) {
    for (int64_t d = 0; d < D; d++) {
      const size_t k = (size_t)(2 * (l * D + d)), kb = k + nw / 2;
      const int64_t want[4] = {G * (l == 0 ? In : D * H), G * H, G, G};
      const size_t idx[4] = {k, k + 1, kb, kb + 1};
      for (int q = 0; q < 4; q++) {
        const ic_tensor *w = ic_in(c, IN_WEIGHTS, idx[q]);
        if (w->dtype != x->dtype || ic_tensor_numel_(w) != want[q]) {
          return ic_kfail_in(c, IN_WEIGHTS, idx[q], "expected %lld elements of %s",
                             (long long)want[q], ic_dtype_name(x->dtype));
        }
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
  const ic_tensor *dy = ic_in(c, IN_DOUT, 0);
  const int64_t odims[3] = {T, B, D * H};
  if (dy && (dy->dtype != x->dtype || !ic_dims_equal(dy->ndim, dy->dims, 3, odims))) {
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s[%lld, %lld, %lld] like Out",
                       ic_dtype_name(x->dtype), (long long)T, (long long)B, (long long)(D * H));
  }
  if (c->in[IN_DSTATE].n > ns) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "input State@GRAD holds %zu variables, expected "
                    "at most %zu", c->in[IN_DSTATE].n, ns);
  }
  for (size_t k = 0; k < c->in[IN_DSTATE].n; k++) {
    const ic_tensor *s = ic_in(c, IN_DSTATE, k);
    if (s && s->data && (s->dtype != x->dtype || !ic_dims_equal(s->ndim, s->dims, 3, sdims))) {
      return ic_kfail_in(c, IN_DSTATE, k, "expected [%lld, %lld, %lld] like State",
                         (long long)sdims[0], (long long)B, (long long)H);
    }
  }
  const ic_tensor *r = ic_in(c, IN_RESERVE, 0);
  const int64_t rbytes = ic_rnn_reserve_elems(a, T, B) * (int64_t)ic_dtype_size(x->dtype);
  if (!r || r->dtype != IC_UINT8 || ic_tensor_numel_(r) != rbytes) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                    "input Reserve '%s' holds %lld bytes, expected %lld written by icore's rnn "
                    "in training (is_test false) on the same input",
                    ic_in_name(c, IN_RESERVE, 0), r ? (long long)ic_tensor_numel_(r) : 0LL,
                    (long long)rbytes);
  }
  ic_tensor *dx = ic_out(c, OUT_DINPUT, 0);
  if (dx) ic_tensor_set_meta(dx, x->dtype, x->ndim, x->dims);
  for (size_t k = 0; k < c->out[OUT_DPRESTATE].n; k++) {
    ic_tensor *t = ic_out(c, OUT_DPRESTATE, k);
    if (t && k < ns) ic_tensor_set_meta(t, x->dtype, 3, sdims);
  }
  for (size_t k = 0; k < c->out[OUT_DWEIGHTS].n && k < nw; k++) {
    ic_tensor *t = ic_out(c, OUT_DWEIGHTS, k);
    const ic_tensor *w = ic_in(c, IN_WEIGHTS, k);
    if (t) ic_tensor_set_meta(t, w->dtype, w->ndim, w->dims);
  }
  return IC_OK;
}

static void gemm(const ic_kctx *c, bool f64, bool ta, bool tb, int64_t M, int64_t N, int64_t K,
                 const void *A, int64_t lda, const void *B, int64_t ldb, double beta, void *C,
                 int64_t ldc) {
  ic_gemm g = {.dtype = f64 ? IC_FP64 : IC_FP32, .trans_a = ta, .trans_b = tb, .m = M, .n = N,
               .k = K, .lda = lda, .ldb = ldb, .ldc = ldc, .alpha = 1.0, .beta = beta};
  ic_gemm_run(c, &g, A, B, C);
}

/* One backward step for the batch at time t. dy: Out@GRAD rows of this step and direction
 * (ld ldy; NULL: zero). a, cc, hp, cp: the Reserve rows of the step. dg / dgh receive the x-
 * and h-side pre-activation grads; dh, dc are the carries (dc updated here, dh read here and
 * completed by the caller from dgh W_hh plus, for GRU, direct). */
#define DEFINE_BACK(T, SUF, EXP)                                                              \
  static inline T tanh_##SUF(T v) { return (T)2 / ((T)1 + EXP((T)-2 * v)) - (T)1; }           \
  static void back_##SUF(int mode, int64_t B, int64_t H, const bool *live, const T *dy,       \
                         int64_t ldy, const T *a, const T *cc, const T *hp, const T *cp,      \
                         T *dg, T *dgh, T *dh, T *dc, T *direct) {                            \
    const int64_t G = (mode == MODE_LSTM ? 4 : mode == MODE_GRU ? 3 : 1) * H;                 \
    for (int64_t b = 0; b < B; b++) {                                                         \
      T *g = dg + b * G, *gh = dgh + b * G;                                                   \
      if (!live[b]) {                                                                         \
        memset(g, 0, (size_t)G * sizeof(T));                                                  \
        if (gh != g) memset(gh, 0, (size_t)G * sizeof(T));                                    \
        continue;                                                                             \
      }                                                                                       \
      const T *ab = a + b * G;                                                                \
      for (int64_t j = 0; j < H; j++) {                                                       \
        const int64_t s = b * H + j;                                                          \
        const T d = dh[s] + (dy ? dy[b * ldy + j] : (T)0);                                    \
        if (mode == MODE_LSTM) {                                                              \
          const T i = ab[j], f = ab[H + j], cd = ab[2 * H + j], o = ab[3 * H + j];            \
          const T tc = tanh_##SUF(cc[s]);                                                     \
          const T dcv = dc[s] + d * o * ((T)1 - tc * tc);                                     \
          g[j] = dcv * cd * i * ((T)1 - i);                                                   \
          g[H + j] = dcv * cp[s] * f * ((T)1 - f);                                            \
          g[2 * H + j] = dcv * i * ((T)1 - cd * cd);                                          \
          g[3 * H + j] = d * tc * o * ((T)1 - o);                                             \
          dc[s] = dcv * f;                                                                    \
        } else if (mode == MODE_GRU) {                                                        \
          const T r = ab[j], z = ab[H + j], cd = ab[2 * H + j];                               \
          const T dac = d * ((T)1 - z) * ((T)1 - cd * cd);                                    \
          const T dar = dac * cc[s] * r * ((T)1 - r);                                         \
          const T daz = d * (hp[s] - cd) * z * ((T)1 - z);                                    \
          g[j] = gh[j] = dar;                                                                 \
          g[H + j] = gh[H + j] = daz;                                                         \
          g[2 * H + j] = dac;                                                                 \
          gh[2 * H + j] = dac * r;                                                            \
          direct[s] = d * z;                                                                  \
        } else if (mode == MODE_RNN_TANH) {                                                   \
          g[j] = d * ((T)1 - ab[j] * ab[j]);                                                  \
        } else {                                                                              \
          g[j] = ab[j] > (T)0 ? d : (T)0;                                                     \
        }                                                                                     \
      }                                                                                       \
    }                                                                                         \
  }                                                                                           \
  /* dh = tmp (+ direct) for live rows; ended rows keep their carry. Column sums of m        \
   * [rows, n] into out (accumulated in T, rows in order). */                                 \
  static void carry_##SUF(int64_t B, int64_t H, const bool *live, const T *tmp,               \
                          const T *direct, T *dh) {                                           \
    for (int64_t b = 0; b < B; b++) {                                                         \
      if (!live[b]) continue;                                                                 \
      for (int64_t j = 0; j < H; j++) {                                                       \
        dh[b * H + j] = tmp[b * H + j] + (direct ? direct[b * H + j] : (T)0);                 \
      }                                                                                       \
    }                                                                                         \
  }                                                                                           \
  static void colsum_##SUF(const T *m, int64_t rows, int64_t n, T *out) {                     \
    for (int64_t j = 0; j < n; j++) out[j] = 0;                                               \
    for (int64_t r = 0; r < rows; r++) {                                                      \
      for (int64_t j = 0; j < n; j++) out[j] += m[r * n + j];                                 \
    }                                                                                         \
  }

DEFINE_BACK(float, f32, expf)
DEFINE_BACK(double, f64, exp)

static ic_status run(ic_kctx *c) {
  const rnn_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *len_t = ic_in(c, IN_SEQLEN, 0);
  const int64_t T = x->dims[0], B = x->dims[1], In = x->dims[2], H = a->hidden, L = a->layers;
  const int64_t D = a->bidirec ? 2 : 1, G = ic_rnn_gates(a);
  const bool lstm = a->mode == MODE_LSTM, gru = a->mode == MODE_GRU;
  const bool f64 = x->dtype == IC_FP64;
  const size_t es = ic_dtype_size(x->dtype);
  const size_t nw = (size_t)(4 * L * D);
  const size_t n_layer = (size_t)(T * B * D * H), n_state = (size_t)(B * H);
  const int64_t blk = ic_rnn_block(a, T, B);
  const char *reserve = ic_in(c, IN_RESERVE, 0)->data;
  const ic_tensor *dout = ic_in(c, IN_DOUT, 0);
  if (dout && !dout->data) dout = NULL;
  const ic_tensor *dstate[2] = {NULL, NULL};
  for (size_t k = 0; k < c->in[IN_DSTATE].n && k < 2; k++) {
    dstate[k] = ic_in(c, IN_DSTATE, k);
    if (dstate[k] && !dstate[k]->data) dstate[k] = NULL;
  }
  ic_tensor *dx_t = ic_out(c, OUT_DINPUT, 0);

  /* Scratch: lengths; dG and (GRU) dGh for all steps [T*B, G]; the gradient of the layer
   * below's output (two alternate) [T*B, D*H]; carries dh, dc, the GEMM result and the GRU
   * direct term [B, H]; weight grads nobody asked for; live flags. */
  const int64_t in_max = In > D * H ? In : D * H;
  const size_t n_dg = (size_t)(T * B * G), n_w = (size_t)(G * in_max + G * H + 2 * G);
  const size_t n_bufs = L > 1 ? 2 : 0;
  const size_t bytes = (size_t)B * sizeof(int64_t) +
                       (n_dg * (gru ? 2 : 1) + n_bufs * n_layer + 4 * n_state + n_w) * es +
                       (size_t)B * sizeof(bool);
  ic_buffer *scratch = ic_kscratch(c, bytes);
  if (!scratch) return c->err->code;
  int64_t *len = scratch->data;
  char *p = (char *)(len + B);
  char *dg = p;
  p += n_dg * es;
  char *dgh = dg;
  if (gru) {
    dgh = p;
    p += n_dg * es;
  }
  char *bufs[2] = {p, p + n_layer * es};
  p += n_bufs * n_layer * es;
  char *dh = p, *dc = p + n_state * es, *tmp = p + 2 * n_state * es;
  char *direct = p + 3 * n_state * es;
  p += 4 * n_state * es;
  char *wscratch = p;
  p += n_w * es;
  bool *live = (bool *)p;
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

  for (int64_t l = L - 1; l >= 0; l--) {
    /* the gradient flowing into this layer's output, and where its input's goes */
    const char *dy = l == L - 1 ? (dout ? dout->data : NULL) : bufs[l % 2];
    char *dxl = l > 0 ? bufs[(l - 1) % 2] : dx_t ? dx_t->data : NULL;
    const char *xl = l == 0 ? x->data : reserve + (size_t)((l - 1) * (int64_t)n_layer) * es;
    const int64_t in_size = l == 0 ? In : D * H;
    for (int64_t d = 0; d < D; d++) {
      const size_t k = (size_t)(2 * (l * D + d)), kb = k + nw / 2;
      const size_t row = (size_t)(l * D + d) * n_state;
      const void *w_ih = ic_in(c, IN_WEIGHTS, k)->data, *w_hh = ic_in(c, IN_WEIGHTS, k + 1)->data;
      const char *rb = reserve + (size_t)((L - 1) * (int64_t)n_layer + (l * D + d) * blk) * es;
      const char *ra = rb, *rc = rb + n_dg * es;
      const char *rhp = rc + (size_t)(T * B * H) * es, *rcp = rhp + (size_t)(T * B * H) * es;
      for (size_t q = 0; q < 2; q++) {
        char *dst = q == 0 ? dh : dc;
        if (dstate[q]) memcpy(dst, (const char *)dstate[q]->data + row * es, n_state * es);
        else memset(dst, 0, n_state * es);
      }
      for (int64_t s = 0; s < T; s++) {
        const int64_t t = d == 0 ? T - 1 - s : s;
        bool any = false;
        for (int64_t b = 0; b < B; b++) any |= (live[b] = t < len[b]);
        const size_t tb = (size_t)(t * B);
        const char *dy_t = dy ? dy + ((size_t)(t * B * D * H) + (size_t)(d * H)) * es : NULL;
        char *dg_t = dg + tb * (size_t)G * es, *dgh_t = dgh + tb * (size_t)G * es;
        const char *a_t = ra + tb * (size_t)G * es, *c_t = rc + tb * (size_t)H * es;
        const char *hp_t = rhp + tb * (size_t)H * es, *cp_t = rcp + tb * (size_t)H * es;
        if (f64) {
          back_f64(a->mode, B, H, live, (const double *)dy_t, D * H, (const double *)a_t,
                   (const double *)c_t, (const double *)hp_t, (const double *)cp_t,
                   (double *)dg_t, (double *)dgh_t, (double *)dh, (double *)dc,
                   (double *)direct);
        } else {
          back_f32(a->mode, B, H, live, (const float *)dy_t, D * H, (const float *)a_t,
                   (const float *)c_t, (const float *)hp_t, (const float *)cp_t, (float *)dg_t,
                   (float *)dgh_t, (float *)dh, (float *)dc, (float *)direct);
        }
        if (!any) continue;
        gemm(c, f64, false, false, B, H, G, dgh_t, G, w_hh, H, 0.0, tmp, H);
        if (f64) carry_f64(B, H, live, (const double *)tmp, gru ? (const double *)direct : NULL,
                           (double *)dh);
        else carry_f32(B, H, live, (const float *)tmp, gru ? (const float *)direct : NULL,
                       (float *)dh);
      }
      /* PreState@GRAD */
      for (size_t q = 0; q < (lstm ? 2u : 1u); q++) {
        ic_tensor *o = ic_out(c, OUT_DPRESTATE, q);
        if (o && o->data) memcpy((char *)o->data + row * es, q == 0 ? dh : dc, n_state * es);
      }
      /* weight grads */
      ic_tensor *ow[4] = {ic_out(c, OUT_DWEIGHTS, k), ic_out(c, OUT_DWEIGHTS, k + 1),
                          ic_out(c, OUT_DWEIGHTS, kb), ic_out(c, OUT_DWEIGHTS, kb + 1)};
      char *wd[4] = {wscratch, wscratch + (size_t)(G * in_max) * es,
                     wscratch + (size_t)(G * in_max + G * H) * es,
                     wscratch + (size_t)(G * in_max + G * H + G) * es};
      for (int q = 0; q < 4; q++) {
        if (ow[q] && ow[q]->data) wd[q] = ow[q]->data;
      }
      gemm(c, f64, true, false, G, in_size, T * B, dg, G, xl, in_size, 0.0, wd[0], in_size);
      gemm(c, f64, true, false, G, H, T * B, dgh, G, rhp, H, 0.0, wd[1], H);
      if (f64) {
        colsum_f64((const double *)dg, T * B, G, (double *)wd[2]);
        colsum_f64((const double *)dgh, T * B, G, (double *)wd[3]);
      } else {
        colsum_f32((const float *)dg, T * B, G, (float *)wd[2]);
        colsum_f32((const float *)dgh, T * B, G, (float *)wd[3]);
      }
      /* the input's gradient, summed over the directions */
      if (dxl) gemm(c, f64, false, false, T * B, in_size, G, dg, G, w_ih, in_size,
                    d == 0 ? 0.0 : 1.0, dxl, in_size);
    }
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
    {"Out", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
    {"Out@GRAD", IC_SLOT_OPTIONAL},
    {"State@GRAD", IC_SLOT_OPTIONAL | IC_SLOT_MULTI},
    {"Reserve", 0},
    {"DropoutState", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED},
};
static const ic_slotdef outputs[] = {
    {"Input@GRAD", IC_SLOT_OPTIONAL},
    {"PreState@GRAD", IC_SLOT_OPTIONAL | IC_SLOT_MULTI},
    {"WeightList@GRAD", IC_SLOT_OPTIONAL | IC_SLOT_MULTI},
};

const ic_opdef ic_op_rnn_grad = {
    .name = "rnn_grad",
    .n_inputs = 9, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(rnn_attrs), .parse = ic_rnn_parse,
    .infer = infer, .cpu = run,
};
