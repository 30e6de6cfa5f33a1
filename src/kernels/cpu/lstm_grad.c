/* lstm_grad: the gradient of fluid's LoD lstm (paddle/fluid/operators/lstm_op.h LSTMGradKernel
 * with paddle/phi/kernels/funcs/lstm_compute LstmUnitGradFunctor and detail/lstm_kernel.h).
 * It reads what the forward (lstm.c) wrote: BatchGate (the activated gates c~, i, f, o in
 * Paddle's batch order, seqbatch.h; the order is rebuilt here from Input's LoD and is_reverse
 * and checked against BatchGate's LoD when it has one), BatchCellPreAct (cell_act(c') in batch
 * order), Hidden and Cell (sequence order), and walks the batches backwards. Per step, with dh
 * the gradient reaching h', dc the one reaching c' from the step after, p the previous cell:
 *   do = gate'(dh cell_act(c')),  dc += cell_act'(dh o) + do w_oc,
 *   dc~ = cand'(dc i),  di = gate'(dc c~),  df = gate'(dc p),
 *   dp = di w_ic + df w_fc + dc f,  dh_prev += [dc~ di df do] W^T,  W@GRAD += h_prev^T [...]
 * (the w terms with use_peepholes; their gradients w_ic += di p and w_fc += df p only where a
 * previous cell exists, w_oc += do c'). The first step's previous state is H0 / C0 (zeros
 * without): W@GRAD takes H0's term only with H0, H0@GRAD = [...] W^T of the first step,
 * C0@GRAD its dp. As Paddle, Cell's own gradient is not an input (Paddle's kernel ignores
 * it). Input@GRAD [T, 4D] holds the gate gradients per row (no LoD, as Paddle), Bias@GRAD
 * their sum over rows and the peephole gradients (in double). Every output optional.
 * float32 / float64. */
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/seqact.h"
#include "kernels/cpu/seqbatch.h"
#include "kernels/kernel.h"

enum { IN_INPUT, IN_H0, IN_C0, IN_WEIGHT, IN_BIAS, IN_HIDDEN, IN_CELL, IN_GATE, IN_CELLACT, IN_DHIDDEN };
enum { OUT_DINPUT, OUT_DH0, OUT_DC0, OUT_DWEIGHT, OUT_DBIAS };

typedef struct lstm_grad_attrs {
  int gate, cell, cand;
  bool reverse, peep;
} lstm_grad_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lstm_grad_attrs *a = attrs;
  a->reverse = ic_ar_bool(r, "is_reverse", false);
  a->peep = ic_ar_bool(r, "use_peepholes", true);
  (void)ic_ar_bool(r, "is_test", false);
  if (r->st || ic_seqact_parse(r, "gate_activation", "sigmoid", &a->gate) ||
      ic_seqact_parse(r, "cell_activation", "tanh", &a->cell)) {
    return r->st;
  }
  return ic_seqact_parse(r, "candidate_activation", "tanh", &a->cand);
}

/* Input s (when present) must be dtype[d0, d1]. */
static ic_status want2(ic_kctx *c, size_t s, ic_dtype dt, int64_t d0, int64_t d1, const char *why) {
  const ic_tensor *t = ic_in(c, s, 0);
  if (!t || (t->dtype == dt && ic_dims_equal(t->ndim, t->dims, 2, (int64_t[]){d0, d1}))) return IC_OK;
  return ic_kfail_in(c, s, 0, "expected %s[%lld, %lld] (%s)", ic_dtype_name(dt), (long long)d0,
                     (long long)d1, why);
}

static ic_status infer(ic_kctx *c) {
  const lstm_grad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *b = ic_in(c, IN_BIAS, 0);
  const ic_tensor *h0 = ic_in(c, IN_H0, 0), *c0 = ic_in(c, IN_C0, 0);
  if (ic_kcheck_dtype(c, IN_INPUT, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim != 2 || x->dims[1] % 4) return ic_kfail_in(c, IN_INPUT, 0, "expected [rows, 4 * hidden]");
  size_t ns;
  if (!ic_kseq(c, IN_INPUT, 0, 0, &ns)) return c->err->code;
  const int64_t T = x->dims[0], D = x->dims[1] / 4;
  const ic_dtype dt = x->dtype;
  if (!b && a->peep) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "use_peepholes is true but input Bias is missing");
  }
  if (want2(c, IN_WEIGHT, dt, D, 4 * D, "hidden, 4 * hidden") ||
      want2(c, IN_H0, dt, (int64_t)ns, D, "one state per sequence of Input") ||
      want2(c, IN_C0, dt, (int64_t)ns, D, "one state per sequence of Input") ||
      want2(c, IN_BIAS, dt, 1, (a->peep ? 7 : 4) * D,
            a->peep ? "4 gate biases + 3 peepholes: use_peepholes" : "4 gate biases") ||
      want2(c, IN_HIDDEN, dt, T, D, "the forward's Hidden: rows, hidden") ||
      want2(c, IN_CELL, dt, T, D, "the forward's Cell: rows, hidden") ||
      want2(c, IN_GATE, dt, T, 4 * D, "the forward's BatchGate: Input's dims") ||
      want2(c, IN_CELLACT, dt, T, D, "the forward's BatchCellPreAct: rows, hidden") ||
      want2(c, IN_DHIDDEN, dt, T, D, "Hidden's gradient: rows, hidden")) {
    return c->err->code;
  }
  if (ic_seqbatch_check(c, IN_INPUT, a->reverse, IN_GATE)) return c->err->code;
  static const char *const names[] = {"Input", "H0", "C0", "Weight", "Bias"};
  const ic_tensor *src[] = {x, h0, c0, ic_in(c, IN_WEIGHT, 0), b};
  for (size_t k = OUT_DINPUT; k <= OUT_DBIAS; k++) {
    ic_tensor *t = ic_out(c, k, 0);
    if (!t) continue;
    if (!src[k]) {
      return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "output %s@GRAD is requested but input %s is missing",
                      names[k], names[k]);
    }
    ic_tensor_set_meta(t, dt, src[k]->ndim, src[k]->dims);
  }
  return IC_OK;
}

#define DEFINE_LSTM_GRAD(T, SUF, DACT)                                                           \
  static void cell_##SUF(const lstm_grad_attrs *a, const T *g, T *dg, const T *cs, const T *ca,  \
                         const T *dh, T *dc, const T *cp, T *dcp, const T *peep, double *pacc,   \
                         int64_t m, int64_t D) {                                                 \
    for (int64_t i = 0; i < m; i++, g += 4 * D, dg += 4 * D) {                                   \
      for (int64_t j = 0; j < D; j++) {                                                          \
        const int64_t e = i * D + j;                                                             \
        const T in = g[j], ig = g[D + j], fg = g[2 * D + j], og = g[3 * D + j];                  \
        const T wi = peep ? peep[j] : 0, wf = peep ? peep[D + j] : 0;                            \
        const T wo = peep ? peep[2 * D + j] : 0, pv = cp ? cp[e] : (T)0, o = dh[e];              \
        const T dog = DACT(a->gate, o * ca[e], og);                                              \
        const T ds = dc[e] + (DACT(a->cell, o * og, ca[e]) + dog * wo);                          \
        const T din = DACT(a->cand, ds * ig, in), dig = DACT(a->gate, ds * in, ig);              \
        const T dfg = DACT(a->gate, ds * pv, fg);                                                \
        if (dcp) dcp[e] = dig * wi + dfg * wf + ds * fg;                                         \
        dc[e] = ds;                                                                              \
        dg[j] = din, dg[D + j] = dig, dg[2 * D + j] = dfg, dg[3 * D + j] = dog;                  \
        if (pacc && cp) pacc[j] += (double)(dig * pv), pacc[D + j] += (double)(dfg * pv);        \
        if (pacc) pacc[2 * D + j] += (double)(dog * cs[e]);                                      \
      }                                                                                          \
    }                                                                                            \
  }

DEFINE_LSTM_GRAD(float, f32, ic_seqact_gradf)
DEFINE_LSTM_GRAD(double, f64, ic_seqact_grad)

static ic_status run(ic_kctx *c) {
  const lstm_grad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *w = ic_in(c, IN_WEIGHT, 0), *b = ic_in(c, IN_BIAS, 0);
  const ic_tensor *h0 = ic_in(c, IN_H0, 0), *c0 = ic_in(c, IN_C0, 0);
  const ic_tensor *th = ic_in(c, IN_HIDDEN, 0), *tc = ic_in(c, IN_CELL, 0);
  const ic_tensor *tg = ic_in(c, IN_GATE, 0), *tca = ic_in(c, IN_CELLACT, 0);
  const ic_tensor *tdh = ic_in(c, IN_DHIDDEN, 0);
  ic_tensor *dx = ic_out(c, OUT_DINPUT, 0), *dh0 = ic_out(c, OUT_DH0, 0), *dc0 = ic_out(c, OUT_DC0, 0);
  ic_tensor *dw = ic_out(c, OUT_DWEIGHT, 0), *db = ic_out(c, OUT_DBIAS, 0);
  const int64_t T = x->dims[0], D = x->dims[1] / 4;
  const bool f64 = x->dtype == IC_FP64;
  const size_t es = ic_dtype_size(x->dtype), grow = (size_t)(4 * D) * es, hrow = (size_t)D * es;
  if (dw) memset(dw->data, 0, (size_t)ic_tensor_numel_(dw) * es);
  if (dh0) memset(dh0->data, 0, (size_t)ic_tensor_numel_(dh0) * es);
  if (dc0) memset(dc0->data, 0, (size_t)ic_tensor_numel_(dc0) * es);
  if (db) memset(db->data, 0, (size_t)ic_tensor_numel_(db) * es);
  if (!D || !T) {
    if (dx) memset(dx->data, 0, (size_t)T * grow);
    return IC_OK;
  }
  ic_seqbatch p;
  ic_buffer *pb = ic_seqbatch_plan(c, IN_INPUT, a->reverse, &p);
  if (!pb) return c->err->code;
  const int64_t ns = (int64_t)p.ns, nb = db ? ic_tensor_numel_(db) : 0;
  /* scratch: Bias@GRAD's double accumulator, dG [T, 4D], in batch order: hidden, cell, dh and
   * dc [T, D] each; H0, C0, H0@GRAD and C0@GRAD in batch order */
  const size_t acc = (size_t)nb * sizeof(double);
  size_t need = (size_t)(8 * T * D) + (size_t)(4 * ns * D);
  ic_buffer *s = ic_kscratch(c, acc + need * es + 8);
  if (!s) {
    ic_buffer_release(pb);
    return c->err->code;
  }
  double *bacc = s->data;
  char *dG = (char *)s->data + acc, *BH = dG + (size_t)T * grow, *BC = BH + (size_t)T * hrow;
  char *dH = BC + (size_t)T * hrow, *dC = dH + (size_t)T * hrow, *oh0 = dC + (size_t)T * hrow;
  char *oc0 = oh0 + (size_t)ns * hrow, *odh0 = oc0 + (size_t)ns * hrow, *odc0 = odh0 + (size_t)ns * hrow;
  memset(dC, 0, (size_t)T * hrow);
  memset(odh0, 0, 2 * (size_t)ns * hrow); /* H0@GRAD, C0@GRAD: 0 for empty sequences */
  if (db) memset(bacc, 0, acc);
  for (int64_t r = 0; r < T; r++) {
    const size_t src = p.row[r] * hrow, dst = (size_t)r * hrow;
    memcpy(BH + dst, (const char *)th->data + src, hrow);
    memcpy(BC + dst, (const char *)tc->data + src, hrow);
    memcpy(dH + dst, (const char *)tdh->data + src, hrow);
  }
  for (int64_t i = 0; i < ns; i++) {
    if (h0) memcpy(oh0 + (size_t)i * hrow, (const char *)h0->data + p.order[i] * hrow, hrow);
    if (c0) memcpy(oc0 + (size_t)i * hrow, (const char *)c0->data + p.order[i] * hrow, hrow);
  }
  const char *G = tg->data, *CA = tca->data;
  const char *peep = a->peep ? (const char *)b->data + (size_t)(4 * D) * es : NULL;
  double *pacc = db && a->peep ? bacc + 4 * D : NULL;
  /* dh_prev += dG W^T;  W@GRAD += h_prev^T dG */
  ic_gemm g_dh = {.dtype = x->dtype, .trans_b = true, .m = ns, .n = D, .k = 4 * D, .lda = 4 * D,
                  .ldb = 4 * D, .ldc = D, .alpha = 1.0, .beta = 1.0};
  ic_gemm g_dw = {.dtype = x->dtype, .trans_a = true, .m = D, .n = 4 * D, .k = ns, .lda = D,
                  .ldb = 4 * D, .ldc = 4 * D, .alpha = 1.0, .beta = 1.0};
  if (ic_gemm_check(c, &g_dh) || ic_gemm_check(c, &g_dw)) {
    ic_buffer_release(s);
    ic_buffer_release(pb);
    return c->err->code;
  }
  for (size_t k = p.nb; k-- > 0;) {
    const int64_t bs = (int64_t)p.starts[k], m = (int64_t)p.starts[k + 1] - bs;
    const size_t go = (size_t)bs * grow, ho = (size_t)bs * hrow;
    const char *cp, *hp;
    char *dcp, *dhp;
    if (k == 0) {
      cp = c0 ? oc0 : NULL;
      dcp = c0 && dc0 ? odc0 : NULL;
      hp = h0 ? oh0 : NULL;
      dhp = h0 && dh0 ? odh0 : NULL;
    } else {
      cp = BC + p.starts[k - 1] * hrow;
      dcp = dC + p.starts[k - 1] * hrow;
      hp = BH + p.starts[k - 1] * hrow;
      dhp = dH + p.starts[k - 1] * hrow;
    }
    if (f64) {
      cell_f64(a, (const double *)(G + go), (double *)(dG + go), (const double *)(BC + ho),
               (const double *)(CA + ho), (const double *)(dH + ho), (double *)(dC + ho),
               (const double *)cp, (double *)dcp, (const double *)peep, pacc, m, D);
    } else {
      cell_f32(a, (const float *)(G + go), (float *)(dG + go), (const float *)(BC + ho),
               (const float *)(CA + ho), (const float *)(dH + ho), (float *)(dC + ho),
               (const float *)cp, (float *)dcp, (const float *)peep, pacc, m, D);
    }
    g_dh.m = m;
    g_dw.k = m;
    g_dh.beta = k == 0 ? 0.0 : 1.0; /* H0@GRAD is this product alone */
    if (dhp) ic_gemm_run(c, &g_dh, dG + go, w->data, dhp);
    if (hp && dw) ic_gemm_run(c, &g_dw, hp, dG + go, dw->data);
  }
  if (dx) {
    for (int64_t r = 0; r < T; r++) memcpy((char *)dx->data + p.row[r] * grow, dG + (size_t)r * grow, grow);
  }
  if (db) {
    for (int64_t r = 0; r < T; r++) {
      for (int64_t j = 0; j < 4 * D; j++) {
        bacc[j] += f64 ? ((const double *)dG)[r * 4 * D + j] : (double)((const float *)dG)[r * 4 * D + j];
      }
    }
    ic_store_acc(db, bacc);
  }
  for (int64_t i = 0; i < ns; i++) {
    if (dh0 && h0) memcpy((char *)dh0->data + p.order[i] * hrow, odh0 + (size_t)i * hrow, hrow);
    if (dc0 && c0) memcpy((char *)dc0->data + p.order[i] * hrow, odc0 + (size_t)i * hrow, hrow);
  }
  ic_buffer_release(s);
  ic_buffer_release(pb);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Input", 0}, {"H0", IC_SLOT_OPTIONAL}, {"C0", IC_SLOT_OPTIONAL}, {"Weight", 0},
    {"Bias", IC_SLOT_OPTIONAL}, {"Hidden", 0}, {"Cell", 0}, {"BatchGate", 0},
    {"BatchCellPreAct", 0}, {"Hidden@GRAD", 0}};
static const ic_slotdef outputs[] = {
    {"Input@GRAD", IC_SLOT_OPTIONAL}, {"H0@GRAD", IC_SLOT_OPTIONAL}, {"C0@GRAD", IC_SLOT_OPTIONAL},
    {"Weight@GRAD", IC_SLOT_OPTIONAL}, {"Bias@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_lstm_grad = {
    .name = "lstm_grad",
    .n_inputs = 10, .inputs = inputs,
    .n_outputs = 5, .outputs = outputs,
    .attrs_size = sizeof(lstm_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
