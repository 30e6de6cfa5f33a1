/* fusion_lstm: Paddle's fc + lstm fusion (phi/kernels/fusion/cpu/fusion_lstm_kernel.cc, written
 * by fc_lstm_fuse_pass and mul_lstm_fuse_pass) over LoD sequences. X [T, M] with one LoD
 * level, WeightX [M, 4D], WeightH [D, 4D] (gate columns in the order candidate c~, input i,
 * forget f, output o), Bias [1, 4D], or [1, 7D] with use_peepholes (default true), whose last
 * 3D are the peephole weights w_ic, w_fc, w_oc; H0 and C0 [sequences, D] (optional; C0 is
 * required with H0 and ignored without it). Each row's gates g = x WeightX + Bias[:4D]; per
 * step, with h and c the previous states of the sequence:
 *   g += h WeightH,  i = gate_act(g_i + c * w_ic),  f = gate_act(g_f + c * w_fc),
 *   c' = cand_act(g_c~) * i + c * f,  o = gate_act(g_o + c' * w_oc),  h' = o * cell_act(c')
 * (the w terms only with use_peepholes); without H0 a sequence's first step has no h and c
 * terms. is_reverse walks each sequence from its last row. Hidden and Cell [T, D] keep X's
 * LoD. Activations (gate_activation, cell_activation, candidate_activation): sigmoid, tanh,
 * relu, identity, as Paddle's jit kernels compute them (seqact.h). The int8 attributes
 * (Scale_data, Shift_data, Scale_weights, force_fp32_output) belong to the oneDNN kernel and
 * are ignored.
 *
 * The intermediates hold what Paddle's kernel leaves in them. use_seq (default), or a single
 * sequence: XX [T, 4D] is the gates after the kernel's in-place steps: per row cand_act(c~),
 * then c~ i (w_oc c' with peepholes; i alone on a first step without H0), cell_act(c'), o.
 * Otherwise (batch mode) BatchedInput [T, 4D] holds those rows in Paddle's batch order
 * (seqbatch.h), BatchedHidden and BatchedCell [T, D] the states in that order (all three
 * with the batch LoD), ReorderedH0/C0 H0's and C0's rows in that order, and XX is
 * x WeightX + Bias [T, 4D] when M > 4D, else X's rows in batch order [T, M]. CheckedCell
 * [2, D] (peepholes) is c * w_ic and c * w_fc of the last step that had a previous state. */
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/rowbias.h"
#include "kernels/cpu/seqact.h"
#include "kernels/cpu/seqbatch.h"
#include "kernels/kernel.h"

enum { IN_X, IN_WX, IN_WH, IN_BIAS, IN_H0, IN_C0 };
enum { OUT_HIDDEN, OUT_CELL, OUT_XX, OUT_BIN, OUT_BH, OUT_BC, OUT_RH0, OUT_RC0, OUT_CHK };

typedef struct flstm_attrs {
  int gate, cell, cand;
  bool reverse, use_seq, peep;
} flstm_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  flstm_attrs *a = attrs;
  a->reverse = ic_ar_bool(r, "is_reverse", false);
  a->use_seq = ic_ar_bool(r, "use_seq", true);
  a->peep = ic_ar_bool(r, "use_peepholes", true);
  if (r->st || ic_seqact_parse(r, "gate_activation", "sigmoid", &a->gate) ||
      ic_seqact_parse(r, "cell_activation", "tanh", &a->cell)) {
    return r->st;
  }
  return ic_seqact_parse(r, "candidate_activation", "tanh", &a->cand);
}

static ic_status infer(ic_kctx *c) {
  const flstm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *h0 = ic_in(c, IN_H0, 0), *c0 = ic_in(c, IN_C0, 0);
  const ic_tensor *wx = ic_in(c, IN_WX, 0), *wh = ic_in(c, IN_WH, 0), *b = ic_in(c, IN_BIAS, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 [T, M]");
  const int64_t T = x->dims[0], M = x->dims[1];
  size_t ns;
  if (!ic_kseq(c, IN_X, 0, 0, &ns)) return c->err->code;
  if (wx->dtype != x->dtype || wx->ndim != 2 || wx->dims[0] != M || wx->dims[1] % 4) {
    return ic_kfail_in(c, IN_WX, 0, "expected %s[%lld, 4 * hidden]", ic_dtype_name(x->dtype),
                       (long long)M);
  }
  const int64_t D = wx->dims[1] / 4;
  if (wh->dtype != x->dtype || !ic_dims_equal(wh->ndim, wh->dims, 2, (int64_t[]){D, 4 * D})) {
    return ic_kfail_in(c, IN_WH, 0, "expected %s[%lld, %lld]", ic_dtype_name(x->dtype),
                       (long long)D, (long long)(4 * D));
  }
  const int64_t bw = (a->peep ? 7 : 4) * D;
  if (b->dtype != x->dtype || !ic_dims_equal(b->ndim, b->dims, 2, (int64_t[]){1, bw})) {
    return ic_kfail_in(c, IN_BIAS, 0, "expected %s[1, %lld]%s", ic_dtype_name(x->dtype),
                       (long long)bw, a->peep ? " (4D biases and 3D peephole weights)" : "");
  }
  if (h0 && !c0) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "input H0 '%s' needs input C0 as well",
                    ic_in_name(c, IN_H0, 0));
  }
  for (int s = IN_H0; h0 && s <= IN_C0; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != x->dtype ||
        !ic_dims_equal(t->ndim, t->dims, 2, (int64_t[]){(int64_t)ns, D})) {
      return ic_kfail_in(c, s, 0, "expected %s[%zu, %lld] (one state per sequence of X)",
                         ic_dtype_name(x->dtype), ns, (long long)D);
    }
  }
  const bool batch = !a->use_seq && ns > 1;
  const bool xx_batched = batch && M <= 4 * D;
  for (int s = OUT_HIDDEN; s <= OUT_CELL; s++) {
    ic_tensor *t = ic_out(c, s, 0);
    if (!t) continue;
    ic_tensor_set_meta(t, x->dtype, 2, (int64_t[]){T, D});
    if (ic_kset_lod(c, t, ic_lod_clone(x->lod), true)) return c->err->code;
  }
  ic_tensor *t;
  if ((t = ic_out(c, OUT_XX, 0))) {
    ic_tensor_set_meta(t, x->dtype, 2, (int64_t[]){T, xx_batched ? M : 4 * D});
    if (!xx_batched && ic_kset_lod(c, t, ic_lod_clone(x->lod), true)) return c->err->code;
  }
  if ((t = ic_out(c, OUT_BIN, 0))) ic_tensor_set_meta(t, x->dtype, 2, (int64_t[]){T, 4 * D});
  for (int s = OUT_BH; s <= OUT_BC; s++) {
    if ((t = ic_out(c, s, 0))) ic_tensor_set_meta(t, x->dtype, 2, (int64_t[]){T, D});
  }
  for (int s = OUT_RH0; s <= OUT_RC0; s++) {
    if ((t = ic_out(c, s, 0))) ic_tensor_set_meta(t, x->dtype, 2, (int64_t[]){(int64_t)ns, D});
  }
  if ((t = ic_out(c, OUT_CHK, 0))) ic_tensor_set_meta(t, x->dtype, 2, (int64_t[]){2, D});
  if (!batch) return IC_OK;
  return ic_seqbatch_set_lods(
      c, IN_X, a->reverse,
      (ic_tensor *[]){xx_batched ? ic_out(c, OUT_XX, 0) : NULL, ic_out(c, OUT_BIN, 0),
                      ic_out(c, OUT_BH, 0), ic_out(c, OUT_BC, 0)},
      4);
}

/* One step of row g (4D gates, left as Paddle's jit LSTMCtHt / LSTMC1H1 leave them) after the
 * WeightH GEMM, from the previous cell cp (NULL: none), peephole weights wp (NULL: none);
 * writes c, h and, with a previous cell and peepholes, the checked products chk (2D). */
#define DEFINE_STEP(T, SUF, ACT)                                                            \
  static void step_##SUF(const flstm_attrs *a, T *g, const T *cp, const T *wp, T *cn, T *hn, \
                         T *chk, int64_t D) {                                              \
    T *gc = g, *gi = g + D, *gf = g + 2 * D, *go = g + 3 * D;                              \
    for (int64_t j = 0; j < D; j++) {                                                      \
      if (cp) {                                                                            \
        if (wp) {                                                                          \
          chk[j] = wp[j] * cp[j];                                                          \
          chk[D + j] = wp[D + j] * cp[j];                                                  \
          gi[j] = ACT(a->gate, chk[j] + gi[j]);                                            \
          gf[j] = ACT(a->gate, chk[D + j] + gf[j]);                                        \
        } else {                                                                           \
          gi[j] = ACT(a->gate, gi[j]);                                                     \
          gf[j] = ACT(a->gate, gf[j]);                                                     \
          go[j] = ACT(a->gate, go[j]);                                                     \
        }                                                                                  \
        gc[j] = ACT(a->cand, gc[j]);                                                       \
        gi[j] = gc[j] * gi[j];                                                             \
        gf[j] = cp[j] * gf[j];                                                             \
        cn[j] = gi[j] + gf[j];                                                             \
        if (wp) {                                                                          \
          gi[j] = wp[2 * D + j] * cn[j];                                                   \
          go[j] = ACT(a->gate, gi[j] + go[j]);                                             \
        }                                                                                  \
      } else {                                                                             \
        gi[j] = ACT(a->gate, gi[j]);                                                       \
        gc[j] = ACT(a->cand, gc[j]);                                                       \
        cn[j] = gc[j] * gi[j];                                                             \
        if (wp) {                                                                          \
          gi[j] = wp[2 * D + j] * cn[j];                                                   \
          go[j] = gi[j] + go[j];                                                           \
        }                                                                                  \
        go[j] = ACT(a->gate, go[j]);                                                       \
      }                                                                                    \
      gf[j] = ACT(a->cell, cn[j]);                                                         \
      hn[j] = gf[j] * go[j];                                                               \
    }                                                                                      \
  }

DEFINE_STEP(float, f32, ic_seqact_jitf)
DEFINE_STEP(double, f64, ic_seqact_jit)

static ic_status run(ic_kctx *c) {
  const flstm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *h0 = ic_in(c, IN_H0, 0), *c0 = ic_in(c, IN_C0, 0);
  const ic_tensor *wx = ic_in(c, IN_WX, 0), *wh = ic_in(c, IN_WH, 0), *b = ic_in(c, IN_BIAS, 0);
  ic_tensor *xx = ic_out(c, OUT_XX, 0), *bin = ic_out(c, OUT_BIN, 0);
  ic_tensor *chk_out = ic_out(c, OUT_CHK, 0);
  const int64_t T = x->dims[0], M = x->dims[1], D = wx->dims[1] / 4;
  const bool f64 = x->dtype == IC_FP64;
  const size_t es = ic_dtype_size(x->dtype);
  ic_seqbatch p;
  ic_buffer *pb = ic_seqbatch_plan(c, IN_X, a->reverse, &p);
  if (!pb) return c->err->code;
  size_t ns;
  const uint64_t *off = ic_kseq(c, IN_X, 0, 0, &ns);
  const bool batch = !a->use_seq && ns > 1;
  if (c0 && !h0) c0 = NULL;
  /* scratch: gates G [T, 4D], hidden and cell [T, D] each where the outputs are absent, the
   * checked products [2D] (twice: the current step and the last one kept), each row's
   * sequence [T] */
  ic_tensor *hid = ic_out(c, OUT_HIDDEN, 0), *cel = ic_out(c, OUT_CELL, 0);
  const size_t need = (size_t)(4 * T * D + 2 * T * D + 4 * D + 1) * es + (size_t)T * sizeof(int64_t);
  ic_buffer *s = ic_kscratch(c, need);
  if (!s) {
    ic_buffer_release(pb);
    return c->err->code;
  }
  int64_t *seq_of = s->data; /* first: int64_t-aligned */
  char *G = (char *)(seq_of + T), *Hs = G + (size_t)(4 * T * D) * es;
  char *Cs = Hs + (size_t)(T * D) * es;
  char *CHK = Cs + (size_t)(T * D) * es, *LAST = CHK + (size_t)(2 * D) * es;
  char *H = hid ? (char *)hid->data : Hs, *C = cel ? (char *)cel->data : Cs;
  memset(LAST, 0, (size_t)(2 * D) * es);
  for (size_t q = 0; q < ns; q++) {
    for (uint64_t r = off[q]; r < off[q + 1]; r++) seq_of[r] = (int64_t)q;
  }
  ic_gemm gx = {.dtype = x->dtype, .m = T, .n = 4 * D, .k = M, .lda = M, .ldb = 4 * D,
                .ldc = 4 * D, .alpha = 1.0};
  ic_gemm gh = {.dtype = x->dtype, .m = 1, .n = 4 * D, .k = D, .lda = D, .ldb = 4 * D,
                .ldc = 4 * D, .alpha = 1.0, .beta = 1.0};
  if (ic_gemm_check(c, &gx) || ic_gemm_check(c, &gh)) {
    ic_buffer_release(s);
    ic_buffer_release(pb);
    return c->err->code;
  }
  ic_gemm_run(c, &gx, x->data, wx->data, G);
  if (f64) ic_rows_add_f64((double *)G, T, 4 * D, b->data);
  else ic_rows_add_f32((float *)G, T, 4 * D, b->data);
  if (xx && batch && M > 4 * D) memcpy(xx->data, G, (size_t)(4 * T * D) * es);
  const char *wp = a->peep ? (const char *)b->data + (size_t)(4 * D) * es : NULL;
  const size_t grow = (size_t)(4 * D) * es, hrow = (size_t)D * es;
  for (int64_t k = 0; k < T; k++) {
    /* Paddle's order: rows forward (backward with is_reverse), or batch by batch */
    const int64_t r = batch ? (int64_t)p.row[k] : a->reverse ? T - 1 - k : k;
    const int64_t q = seq_of[r];
    const bool first = a->reverse ? r + 1 == (int64_t)off[q + 1] : r == (int64_t)off[q];
    const int64_t pr = a->reverse ? r + 1 : r - 1;
    const char *hp = !first ? H + (size_t)pr * hrow
                     : h0   ? (const char *)h0->data + (size_t)q * hrow
                            : NULL;
    const char *cp = !first ? C + (size_t)pr * hrow
                     : h0   ? (const char *)c0->data + (size_t)q * hrow
                            : NULL;
    char *g = G + (size_t)r * grow;
    if (hp) ic_gemm_run(c, &gh, hp, wh->data, g);
    if (f64) {
      step_f64(a, (double *)g, (const double *)cp, (const double *)wp,
               (double *)(void *)(C + (size_t)r * hrow), (double *)(void *)(H + (size_t)r * hrow),
               (double *)(void *)CHK, D);
    } else {
      step_f32(a, (float *)g, (const float *)cp, (const float *)wp,
               (float *)(void *)(C + (size_t)r * hrow), (float *)(void *)(H + (size_t)r * hrow),
               (float *)(void *)CHK, D);
    }
    if (cp && wp) {
      memcpy(LAST, CHK, (size_t)(2 * D) * es);
    }
  }
  if (chk_out) memcpy(chk_out->data, LAST, (size_t)(2 * D) * es);
  if (!batch) {
    if (xx) memcpy(xx->data, G, (size_t)(4 * T * D) * es);
  } else {
    ic_tensor *bh = ic_out(c, OUT_BH, 0), *bc = ic_out(c, OUT_BC, 0);
    for (int64_t k = 0; k < T; k++) {
      const uint64_t r = p.row[k];
      if (bin) memcpy((char *)bin->data + (size_t)k * grow, G + r * grow, grow);
      if (bh) memcpy((char *)bh->data + (size_t)k * hrow, H + r * hrow, hrow);
      if (bc) memcpy((char *)bc->data + (size_t)k * hrow, C + r * hrow, hrow);
      if (xx && M <= 4 * D) {
        const size_t xrow = (size_t)M * es;
        memcpy((char *)xx->data + (size_t)k * xrow, (const char *)x->data + r * xrow, xrow);
      }
    }
  }
  for (int o = OUT_RH0; o <= OUT_RC0; o++) {
    ic_tensor *t = ic_out(c, o, 0);
    const ic_tensor *src = o == OUT_RH0 ? h0 : c0;
    if (!t) continue;
    memset(t->data, 0, ns * hrow);
    for (size_t i = 0; src && batch && i < ns; i++) {
      memcpy((char *)t->data + i * hrow, (const char *)src->data + p.order[i] * hrow, hrow);
    }
  }
  if (!batch) {
    if (bin) memset(bin->data, 0, (size_t)T * grow);
    for (int o = OUT_BH; o <= OUT_BC; o++) {
      ic_tensor *t = ic_out(c, o, 0);
      if (t) memset(t->data, 0, (size_t)T * hrow);
    }
  }
  ic_buffer_release(s);
  ic_buffer_release(pb);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0},
                                    {"WeightX", 0},
                                    {"WeightH", 0},
                                    {"Bias", 0},
                                    {"H0", IC_SLOT_OPTIONAL},
                                    {"C0", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Hidden", 0},
                                     {"Cell", IC_SLOT_OPTIONAL},
                                     {"XX", IC_SLOT_OPTIONAL},
                                     {"BatchedInput", IC_SLOT_OPTIONAL},
                                     {"BatchedHidden", IC_SLOT_OPTIONAL},
                                     {"BatchedCell", IC_SLOT_OPTIONAL},
                                     {"ReorderedH0", IC_SLOT_OPTIONAL},
                                     {"ReorderedC0", IC_SLOT_OPTIONAL},
                                     {"CheckedCell", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_fusion_lstm = {
    .name = "fusion_lstm",
    .n_inputs = 6, .inputs = inputs,
    .n_outputs = 9, .outputs = outputs,
    .attrs_size = sizeof(flstm_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
