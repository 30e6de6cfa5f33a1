/* fusion_gru: Paddle's fc + gru fusion (phi/kernels/fusion/cpu/fusion_gru_kernel.cc, written by
 * fc_gru_fuse_pass and mul_gru_fuse_pass) over LoD sequences. X [T, M] (or [T, 1, M]) with one
 * LoD level, WeightX [M, 3D], WeightH [D, 3D] ({W_update, W_reset} [D, 2D] then W_state
 * [D, D] in memory), Bias [1, 3D] (optional), H0 [sequences, D] (optional). Each row's gates
 * g = x WeightX + Bias (order update u, reset r, state s); per step, with h the previous
 * state of the sequence:
 *   u = gate_act(g_u + h W_u),  r = gate_act(g_r + h W_r),  s = act(g_s + (r * h) W_state),
 *   h' = u * s + (1 - u) * h
 * and without H0 a sequence's first step is h' = gate_act(g_u) * act(g_s). is_reverse walks
 * each sequence from its last row. Hidden [T, D] keeps X's LoD. origin_mode is accepted and,
 * as in Paddle's CPU kernel, changes nothing. Activations: sigmoid, tanh, relu, identity, as
 * Paddle's jit kernels compute them (seqact.h).
 *
 * The intermediates hold what Paddle's kernel leaves in them. use_seq (default), or a single
 * sequence: XX [T, 3D] is the gates after the kernel's in-place steps (u and s activated,
 * r activated where a previous state existed, else g_r as projected). Otherwise (batch mode)
 * BatchedInput [T, 3D] holds those rows in Paddle's batch order (seqbatch.h), BatchedOut
 * [T, D] the hidden states in that order (both with the batch LoD), ReorderedH0 H0's rows in
 * that order, and XX is x WeightX + Bias [T, 3D] when M > 3D, else X's rows in batch order
 * [T, M]. */
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/rowbias.h"
#include "kernels/cpu/seqact.h"
#include "kernels/cpu/seqbatch.h"
#include "kernels/kernel.h"

enum { IN_X, IN_H0, IN_WX, IN_WH, IN_BIAS };
enum { OUT_RH0, OUT_XX, OUT_BIN, OUT_BOUT, OUT_HIDDEN };

typedef struct fgru_attrs {
  int act, gate_act;
  bool reverse, use_seq;
} fgru_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fgru_attrs *a = attrs;
  a->reverse = ic_ar_bool(r, "is_reverse", false);
  a->use_seq = ic_ar_bool(r, "use_seq", true);
  (void)ic_ar_bool(r, "origin_mode", false);
  if (r->st || ic_seqact_parse(r, "activation", "tanh", &a->act)) return r->st;
  return ic_seqact_parse(r, "gate_activation", "sigmoid", &a->gate_act);
}

/* X as [T, M]. */
static bool x_mat(const ic_tensor *x, int64_t *T, int64_t *M) {
  if (x->ndim == 2 || (x->ndim == 3 && x->dims[1] == 1)) {
    *T = x->dims[0];
    *M = x->dims[x->ndim - 1];
    return true;
  }
  return false;
}

static ic_status infer(ic_kctx *c) {
  const fgru_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *h0 = ic_in(c, IN_H0, 0);
  const ic_tensor *wx = ic_in(c, IN_WX, 0), *wh = ic_in(c, IN_WH, 0), *b = ic_in(c, IN_BIAS, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  int64_t T, M;
  if (!x_mat(x, &T, &M)) return ic_kfail_in(c, IN_X, 0, "expected [T, M] or [T, 1, M]");
  size_t ns;
  if (!ic_kseq(c, IN_X, 0, 0, &ns)) return c->err->code;
  if (wx->dtype != x->dtype || wx->ndim != 2 || wx->dims[0] != M || wx->dims[1] % 3) {
    return ic_kfail_in(c, IN_WX, 0, "expected %s[%lld, 3 * hidden]", ic_dtype_name(x->dtype),
                       (long long)M);
  }
  const int64_t D = wx->dims[1] / 3;
  if (wh->dtype != x->dtype || !ic_dims_equal(wh->ndim, wh->dims, 2, (int64_t[]){D, 3 * D})) {
    return ic_kfail_in(c, IN_WH, 0, "expected %s[%lld, %lld]", ic_dtype_name(x->dtype),
                       (long long)D, (long long)(3 * D));
  }
  if (b && (b->dtype != x->dtype || !ic_dims_equal(b->ndim, b->dims, 2, (int64_t[]){1, 3 * D}))) {
    return ic_kfail_in(c, IN_BIAS, 0, "expected %s[1, %lld]", ic_dtype_name(x->dtype),
                       (long long)(3 * D));
  }
  if (h0 && (h0->dtype != x->dtype ||
             !ic_dims_equal(h0->ndim, h0->dims, 2, (int64_t[]){(int64_t)ns, D}))) {
    return ic_kfail_in(c, IN_H0, 0, "expected %s[%zu, %lld] (one state per sequence of X)",
                       ic_dtype_name(x->dtype), ns, (long long)D);
  }
  const bool batch = !a->use_seq && ns > 1;
  const bool xx_batched = batch && M <= 3 * D;
  ic_tensor *h = ic_out(c, OUT_HIDDEN, 0), *t;
  ic_tensor_set_meta(h, x->dtype, 2, (int64_t[]){T, D});
  if (ic_kset_lod(c, h, ic_lod_clone(x->lod), true)) return c->err->code;
  if ((t = ic_out(c, OUT_XX, 0))) {
    ic_tensor_set_meta(t, x->dtype, 2, (int64_t[]){T, xx_batched ? M : 3 * D});
    if (!xx_batched && ic_kset_lod(c, t, ic_lod_clone(x->lod), true)) return c->err->code;
  }
  if ((t = ic_out(c, OUT_RH0, 0))) ic_tensor_set_meta(t, x->dtype, 2, (int64_t[]){(int64_t)ns, D});
  if ((t = ic_out(c, OUT_BIN, 0))) ic_tensor_set_meta(t, x->dtype, 2, (int64_t[]){T, 3 * D});
  if ((t = ic_out(c, OUT_BOUT, 0))) ic_tensor_set_meta(t, x->dtype, 2, (int64_t[]){T, D});
  if (!batch) return IC_OK;
  return ic_seqbatch_set_lods(c, IN_X, a->reverse,
                              (ic_tensor *[]){xx_batched ? ic_out(c, OUT_XX, 0) : NULL,
                                              ic_out(c, OUT_BIN, 0), ic_out(c, OUT_BOUT, 0)},
                              3);
}

/* One step of row g (3D gates, in place as Paddle's jit kernels leave them) from the previous
 * state hp (NULL: none), its reset product in rh (D), the new state in h. The GEMMs with
 * WeightH happen between the phases (see run). */
#define DEFINE_STEP(T, SUF, ACT)                                                            \
  static void part1_##SUF(const fgru_attrs *a, T *g, const T *hp, T *rh, int64_t D) {       \
    for (int64_t j = 0; j < D; j++) {                                                      \
      g[D + j] = ACT(a->gate_act, g[D + j]);                                               \
      rh[j] = hp[j] * g[D + j];                                                            \
    }                                                                                      \
  }                                                                                        \
  static void part2_##SUF(const fgru_attrs *a, T *g, const T *hp, T *h, int64_t D) {        \
    for (int64_t j = 0; j < D; j++) {                                                      \
      g[j] = ACT(a->gate_act, g[j]);                                                       \
      g[2 * D + j] = ACT(a->act, g[2 * D + j]);                                            \
      h[j] = hp ? g[j] * g[2 * D + j] + ((T)1 - g[j]) * hp[j] : g[j] * g[2 * D + j];       \
    }                                                                                      \
  }

DEFINE_STEP(float, f32, ic_seqact_jitf)
DEFINE_STEP(double, f64, ic_seqact_jit)

static ic_status run(ic_kctx *c) {
  const fgru_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *h0 = ic_in(c, IN_H0, 0);
  const ic_tensor *wx = ic_in(c, IN_WX, 0), *wh = ic_in(c, IN_WH, 0), *b = ic_in(c, IN_BIAS, 0);
  ic_tensor *hid = ic_out(c, OUT_HIDDEN, 0), *xx = ic_out(c, OUT_XX, 0);
  ic_tensor *rh0 = ic_out(c, OUT_RH0, 0), *bin = ic_out(c, OUT_BIN, 0);
  ic_tensor *bout = ic_out(c, OUT_BOUT, 0);
  int64_t T = 0, M = 0;
  x_mat(x, &T, &M);
  const int64_t D = wx->dims[1] / 3;
  const bool f64 = x->dtype == IC_FP64;
  const size_t es = ic_dtype_size(x->dtype);
  ic_seqbatch p;
  ic_buffer *pb = ic_seqbatch_plan(c, IN_X, a->reverse, &p);
  if (!pb) return c->err->code;
  size_t ns;
  const uint64_t *off = ic_kseq(c, IN_X, 0, 0, &ns);
  const bool batch = !a->use_seq && ns > 1;
  /* scratch: the gates G [T, 3D] in X's row order, rh [D], each row's sequence [T] */
  ic_buffer *s = ic_kscratch(c, (size_t)(3 * T * D + D + 1) * es + (size_t)T * sizeof(int64_t));
  if (!s) {
    ic_buffer_release(pb);
    return c->err->code;
  }
  int64_t *seq_of = s->data; /* first: int64_t-aligned */
  char *G = (char *)(seq_of + T), *RH = G + (size_t)(3 * T * D) * es;
  for (size_t q = 0; q < ns; q++) {
    for (uint64_t r = off[q]; r < off[q + 1]; r++) seq_of[r] = (int64_t)q;
  }
  ic_gemm gx = {.dtype = x->dtype, .m = T, .n = 3 * D, .k = M, .lda = M, .ldb = 3 * D,
                .ldc = 3 * D, .alpha = 1.0};
  ic_gemm gu = {.dtype = x->dtype, .m = 1, .n = 2 * D, .k = D, .lda = D, .ldb = 2 * D,
                .ldc = 3 * D, .alpha = 1.0, .beta = 1.0};
  ic_gemm gs = {.dtype = x->dtype, .m = 1, .n = D, .k = D, .lda = D, .ldb = D, .ldc = 3 * D,
                .alpha = 1.0, .beta = 1.0};
  if (ic_gemm_check(c, &gx) || ic_gemm_check(c, &gu) || ic_gemm_check(c, &gs)) {
    ic_buffer_release(s);
    ic_buffer_release(pb);
    return c->err->code;
  }
  ic_gemm_run(c, &gx, x->data, wx->data, G);
  if (b && f64) ic_rows_add_f64((double *)G, T, 3 * D, b->data);
  else if (b) ic_rows_add_f32((float *)G, T, 3 * D, b->data);
  if (xx && batch && M > 3 * D) memcpy(xx->data, G, (size_t)(3 * T * D) * es);
  const size_t grow = (size_t)(3 * D) * es, hrow = (size_t)D * es;
  const char *wur = wh->data, *wst = (const char *)wh->data + (size_t)(2 * D * D) * es;
  char *H = hid->data;
  for (int64_t k = 0; k < T; k++) {
    /* Paddle's order: rows forward (backward with is_reverse), or batch by batch */
    const int64_t r = batch ? (int64_t)p.row[k] : a->reverse ? T - 1 - k : k;
    const int64_t q = seq_of[r];
    const bool first = a->reverse ? r + 1 == (int64_t)off[q + 1] : r == (int64_t)off[q];
    const char *hp = !first ? H + (size_t)(a->reverse ? r + 1 : r - 1) * hrow
                     : h0   ? (const char *)h0->data + (size_t)q * hrow
                            : NULL;
    char *g = G + (size_t)r * grow, *h = H + (size_t)r * hrow;
    if (hp) {
      ic_gemm_run(c, &gu, hp, wur, g);
      if (f64) part1_f64(a, (double *)g, (const double *)hp, (double *)RH, D);
      else part1_f32(a, (float *)g, (const float *)hp, (float *)RH, D);
      ic_gemm_run(c, &gs, RH, wst, g + (size_t)(2 * D) * es);
    }
    if (f64) part2_f64(a, (double *)g, (const double *)hp, (double *)h, D);
    else part2_f32(a, (float *)g, (const float *)hp, (float *)h, D);
  }
  if (!batch) {
    if (xx) memcpy(xx->data, G, (size_t)(3 * T * D) * es);
  } else {
    for (int64_t k = 0; k < T; k++) {
      const uint64_t r = p.row[k];
      if (bin) memcpy((char *)bin->data + (size_t)k * grow, G + r * grow, grow);
      if (bout) memcpy((char *)bout->data + (size_t)k * hrow, H + r * hrow, hrow);
      if (xx && M <= 3 * D) {
        const size_t xrow = (size_t)M * es;
        memcpy((char *)xx->data + (size_t)k * xrow, (const char *)x->data + r * xrow, xrow);
      }
    }
  }
  if (rh0) {
    memset(rh0->data, 0, ns * hrow);
    for (size_t i = 0; h0 && batch && i < ns; i++) {
      memcpy((char *)rh0->data + i * hrow, (const char *)h0->data + p.order[i] * hrow, hrow);
    }
  }
  if (!batch) {
    if (bin) memset(bin->data, 0, (size_t)T * grow);
    if (bout) memset(bout->data, 0, (size_t)T * hrow);
  }
  ic_buffer_release(s);
  ic_buffer_release(pb);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0},
                                    {"H0", IC_SLOT_OPTIONAL},
                                    {"WeightX", 0},
                                    {"WeightH", 0},
                                    {"Bias", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"ReorderedH0", IC_SLOT_OPTIONAL},
                                     {"XX", IC_SLOT_OPTIONAL},
                                     {"BatchedInput", IC_SLOT_OPTIONAL},
                                     {"BatchedOut", IC_SLOT_OPTIONAL},
                                     {"Hidden", 0}};

const ic_opdef ic_op_fusion_gru = {
    .name = "fusion_gru",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 5, .outputs = outputs,
    .attrs_size = sizeof(fgru_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
