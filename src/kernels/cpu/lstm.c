/* lstm: fluid's LSTM over LoD sequences (paddle/fluid/operators/lstm_op.h with
 * paddle/phi/kernels/funcs/lstm_compute and detail/lstm_kernel.h). Input [T, 4D] holds each
 * row's projected input, split in the gate order candidate c~, input i, forget f, output o;
 * one LoD level splits the rows into sequences. Weight [D, 4D] (same column order) is the
 * recurrent weight. Bias is [1, 4D], or [1, 7D] with use_peepholes, whose last 3D are the
 * peephole weights w_ic, w_fc, w_oc. H0 and C0 [sequences, D] (optional, zeros otherwise)
 * are the initial states. Per step, with g = x + b + h W and previous cell c:
 *   c~ = cand_act(g_c),  i = gate_act(g_i + c * w_ic),  f = gate_act(g_f + c * w_fc),
 *   c' = c~ * i + c * f,  o = gate_act(g_o + c' * w_oc),  h' = o * cell_act(c')
 * (the w_* terms only with use_peepholes). is_reverse walks each sequence backwards. Hidden
 * and Cell [T, D] keep Input's LoD. As Paddle's kernel, the op runs in Paddle's batch order
 * (seqbatch.h: all sequences advance together, longest first, one GEMM per step) and writes
 * the intermediates that lstm_grad reads, in that order: BatchGate [T, 4D] (the gates after
 * their activations, with Paddle's three-level batch LoD) and BatchCellPreAct [T, D]
 * (cell_act(c'), no LoD: Paddle's name notwithstanding, the cell after its activation).
 * Absent intermediates live in scratch. Activations: sigmoid, tanh, relu or identity
 * (seqact.h). */
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/rowbias.h"
#include "kernels/cpu/seqact.h"
#include "kernels/cpu/seqbatch.h"
#include "kernels/kernel.h"

enum { IN_INPUT, IN_H0, IN_C0, IN_WEIGHT, IN_BIAS };
enum { OUT_HIDDEN, OUT_CELL, OUT_BGATE, OUT_BCELL };

typedef struct lstm_attrs {
  int gate, cell, cand;
  bool reverse, peep;
} lstm_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lstm_attrs *a = attrs;
  a->reverse = ic_ar_bool(r, "is_reverse", false);
  a->peep = ic_ar_bool(r, "use_peepholes", true);
  (void)ic_ar_bool(r, "is_test", false);
  if (r->st || ic_seqact_parse(r, "gate_activation", "sigmoid", &a->gate) ||
      ic_seqact_parse(r, "cell_activation", "tanh", &a->cell)) {
    return r->st;
  }
  return ic_seqact_parse(r, "candidate_activation", "tanh", &a->cand);
}

static ic_status infer(ic_kctx *c) {
  const lstm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *w = ic_in(c, IN_WEIGHT, 0);
  const ic_tensor *b = ic_in(c, IN_BIAS, 0);
  if (ic_kcheck_dtype(c, IN_INPUT, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim != 2 || x->dims[1] % 4) return ic_kfail_in(c, IN_INPUT, 0, "expected [rows, 4 * hidden]");
  size_t ns;
  if (!ic_kseq(c, IN_INPUT, 0, 0, &ns)) return c->err->code;
  const int64_t D = x->dims[1] / 4;
  char want[96];
  if (w->dtype != x->dtype || !ic_dims_equal(w->ndim, w->dims, 2, (int64_t[]){D, 4 * D})) {
    return ic_kfail_in(c, IN_WEIGHT, 0, "expected %s%s (hidden, 4 * hidden)", ic_dtype_name(x->dtype),
                       ic_dims_str(2, (int64_t[]){D, 4 * D}, want, sizeof want));
  }
  const int64_t nb = (a->peep ? 7 : 4) * D;
  if (!b && a->peep) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "use_peepholes is true but input Bias is missing");
  }
  if (b && (b->dtype != x->dtype || b->ndim != 2 || b->dims[0] != 1 || b->dims[1] != nb)) {
    return ic_kfail_in(c, IN_BIAS, 0, "expected %s[1, %lld] (%s)", ic_dtype_name(x->dtype),
                       (long long)nb, a->peep ? "4 gate biases + 3 peepholes: use_peepholes" : "4 gate biases");
  }
  for (size_t s = IN_H0; s <= IN_C0; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t && (t->dtype != x->dtype || !ic_dims_equal(t->ndim, t->dims, 2, (int64_t[]){(int64_t)ns, D}))) {
      return ic_kfail_in(c, s, 0, "expected %s[%zu, %lld] (one state per sequence of Input)",
                         ic_dtype_name(x->dtype), ns, (long long)D);
    }
  }
  for (size_t k = OUT_HIDDEN; k <= OUT_BCELL; k++) {
    ic_tensor *t = ic_out(c, k, 0);
    if (!t) continue;
    ic_tensor_set_meta(t, x->dtype, 2, (int64_t[]){x->dims[0], k == OUT_BGATE ? 4 * D : D});
    if (k <= OUT_CELL && ic_kset_lod(c, t, ic_lod_clone(x->lod), true)) return c->err->code;
  }
  return ic_seqbatch_set_lods(c, IN_INPUT, a->reverse, (ic_tensor *[]){ic_out(c, OUT_BGATE, 0)}, 1);
}

#define DEFINE_CELL(T, SUF, ACT)                                                               \
  /* m rows of one batch: g (pre-activation gates) becomes the activated gates; cp: the       \
   * previous cells (NULL: zeros) */                                                           \
  static void cell_##SUF(const lstm_attrs *a, T *g, const T *cp, T *cn, T *ca, T *hn,           \
                         const T *peep, int64_t m, int64_t D) {                                \
    for (int64_t i = 0; i < m; i++, g += 4 * D, cn += D, ca += D, hn += D) {                   \
      for (int64_t j = 0; j < D; j++) {                                                        \
        T c0 = cp ? cp[i * D + j] : (T)0;                                                      \
        T wi = peep ? peep[j] : 0, wf = peep ? peep[D + j] : 0, wo = peep ? peep[2 * D + j] : 0; \
        T cand = ACT(a->cand, g[j]);                                                           \
        T ig = ACT(a->gate, g[D + j] + c0 * wi), fg = ACT(a->gate, g[2 * D + j] + c0 * wf);     \
        T cs = cand * ig + c0 * fg;                                                            \
        T og = ACT(a->gate, g[3 * D + j] + cs * wo);                                           \
        g[j] = cand, g[D + j] = ig, g[2 * D + j] = fg, g[3 * D + j] = og;                      \
        cn[j] = cs;                                                                            \
        ca[j] = ACT(a->cell, cs);                                                              \
        hn[j] = og * ca[j];                                                                    \
      }                                                                                        \
    }                                                                                          \
  }

DEFINE_CELL(float, f32, ic_seqactf)
DEFINE_CELL(double, f64, ic_seqact)

static ic_status run(ic_kctx *c) {
  const lstm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *w = ic_in(c, IN_WEIGHT, 0);
  const ic_tensor *b = ic_in(c, IN_BIAS, 0), *h0 = ic_in(c, IN_H0, 0), *c0 = ic_in(c, IN_C0, 0);
  ic_tensor *hid = ic_out(c, OUT_HIDDEN, 0), *cell = ic_out(c, OUT_CELL, 0);
  ic_tensor *tg = ic_out(c, OUT_BGATE, 0), *tca = ic_out(c, OUT_BCELL, 0);
  const int64_t D = x->dims[1] / 4, T = x->dims[0];
  const bool f64 = x->dtype == IC_FP64;
  const size_t es = ic_dtype_size(x->dtype);
  if (!D || !T) return IC_OK;
  ic_seqbatch p;
  ic_buffer *pb = ic_seqbatch_plan(c, IN_INPUT, a->reverse, &p);
  if (!pb) return c->err->code;
  const int64_t ns = (int64_t)p.ns;
  /* scratch: hidden and cell in batch order, the absent intermediates, the initial states in
   * batch order */
  size_t need = 1 + (size_t)(2 * T * D) + (tg ? 0 : (size_t)(4 * T * D)) +
                (tca ? 0 : (size_t)(T * D)) + (h0 ? (size_t)(ns * D) : 0) +
                (c0 ? (size_t)(ns * D) : 0);
  ic_buffer *s = ic_kscratch(c, need * es);
  if (!s) {
    ic_buffer_release(pb);
    return c->err->code;
  }
  char *at = s->data;
#define TAKE(t, n) ((t) ? (char *)(t)->data : (at += (size_t)(n) * es) - (size_t)(n) * es)
  char *G = TAKE(tg, 4 * T * D), *CA = TAKE(tca, T * D);
  char *H = TAKE((ic_tensor *)NULL, T * D), *C = TAKE((ic_tensor *)NULL, T * D);
  char *oh0 = h0 ? TAKE((ic_tensor *)NULL, ns * D) : NULL;
  char *oc0 = c0 ? TAKE((ic_tensor *)NULL, ns * D) : NULL;
#undef TAKE
  const size_t grow = (size_t)(4 * D) * es, hrow = (size_t)D * es;
  for (int64_t r = 0; r < T; r++) memcpy(G + (size_t)r * grow, (const char *)x->data + p.row[r] * grow, grow);
  if (b && f64) ic_rows_add_f64((double *)G, T, 4 * D, b->data);
  else if (b) ic_rows_add_f32((float *)G, T, 4 * D, b->data);
  for (int64_t i = 0; i < ns; i++) {
    if (h0) memcpy(oh0 + (size_t)i * hrow, (const char *)h0->data + p.order[i] * hrow, hrow);
    if (c0) memcpy(oc0 + (size_t)i * hrow, (const char *)c0->data + p.order[i] * hrow, hrow);
  }
  const char *peep = a->peep ? (const char *)b->data + (size_t)(4 * D) * es : NULL;
  ic_gemm gm = {.dtype = x->dtype, .m = ns, .n = 4 * D, .k = D, .lda = D, .ldb = 4 * D,
                .ldc = 4 * D, .alpha = 1.0, .beta = 1.0};
  if (ic_gemm_check(c, &gm)) {
    ic_buffer_release(s);
    ic_buffer_release(pb);
    return c->err->code;
  }
  const char *hp = oh0, *cp = oc0;
  for (size_t k = 0; k < p.nb; k++) {
    const int64_t bs = (int64_t)p.starts[k], m = (int64_t)p.starts[k + 1] - bs;
    char *g = G + (size_t)bs * grow;
    char *cn = C + (size_t)bs * hrow, *ca = CA + (size_t)bs * hrow, *hn = H + (size_t)bs * hrow;
    gm.m = m;
    if (hp) ic_gemm_run(c, &gm, hp, w->data, g);
    if (f64) cell_f64(a, (double *)g, (const double *)cp, (double *)cn, (double *)ca, (double *)hn, (const double *)peep, m, D);
    else cell_f32(a, (float *)g, (const float *)cp, (float *)cn, (float *)ca, (float *)hn, (const float *)peep, m, D);
    hp = hn;
    cp = cn;
  }
  for (int64_t r = 0; r < T; r++) {
    memcpy((char *)hid->data + p.row[r] * hrow, H + (size_t)r * hrow, hrow);
    memcpy((char *)cell->data + p.row[r] * hrow, C + (size_t)r * hrow, hrow);
  }
  ic_buffer_release(s);
  ic_buffer_release(pb);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", 0}, {"H0", IC_SLOT_OPTIONAL}, {"C0", IC_SLOT_OPTIONAL},
                                    {"Weight", 0}, {"Bias", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Hidden", 0}, {"Cell", 0},
                                     {"BatchGate", IC_SLOT_OPTIONAL},
                                     {"BatchCellPreAct", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_lstm = {
    .name = "lstm",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 4, .outputs = outputs,
    .attrs_size = sizeof(lstm_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
