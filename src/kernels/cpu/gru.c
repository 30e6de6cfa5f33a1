/* gru: fluid's GRU over LoD sequences (paddle/fluid/operators/gru_op.h with
 * paddle/phi/kernels/funcs/gru_compute and detail/gru_kernel.h). Input [T, 3D] holds each
 * row's projected input x_t W_x, already split in the gate order update u, reset r,
 * candidate c; one LoD level splits the rows into sequences. Weight [D, 3D] is, in memory,
 * the gate weights W_ur [D, 2D] followed by the candidate weights W_c [D, D]. Bias [1, 3D]
 * (optional) is added to every input row. H0 [sequences, D] (optional, zeros otherwise) is
 * each sequence's initial state. Per step, with h the previous state:
 *   u = gate_act(x_u + h W_ur[:, :D]),  r = gate_act(x_r + h W_ur[:, D:]),
 *   c = act(x_c + (r * h) W_c),
 *   h' = u * h + (1 - u) * c  (origin_mode),   h' = (1 - u) * h + u * c  (otherwise).
 * is_reverse walks each sequence from its last row to its first. Hidden [T, D] keeps Input's
 * LoD. As Paddle's kernel, the op runs in Paddle's batch order (seqbatch.h: all sequences
 * advance together, longest first, one GEMM per step) and writes the intermediates that
 * gru_grad reads, in that order: BatchGate [T, 3D] (u, r and c after their activations),
 * BatchResetHiddenPrev [T, D] (r * h) and BatchHidden [T, D] (h'); BatchGate and BatchHidden
 * carry Paddle's three-level batch LoD, BatchResetHiddenPrev none. Absent intermediates live
 * in scratch. activation / gate_activation: sigmoid, tanh, relu or identity (seqact.h). */
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/rowbias.h"
#include "kernels/cpu/seqact.h"
#include "kernels/cpu/seqbatch.h"
#include "kernels/kernel.h"

enum { IN_INPUT, IN_H0, IN_WEIGHT, IN_BIAS };
enum { OUT_GATE, OUT_RESET, OUT_BHIDDEN, OUT_HIDDEN };

typedef struct gru_attrs {
  int act, gate_act;
  bool reverse, origin;
} gru_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gru_attrs *a = attrs;
  a->reverse = ic_ar_bool(r, "is_reverse", false);
  a->origin = ic_ar_bool(r, "origin_mode", false);
  (void)ic_ar_bool(r, "is_test", false);
  if (r->st || ic_seqact_parse(r, "activation", "tanh", &a->act)) return r->st;
  return ic_seqact_parse(r, "gate_activation", "sigmoid", &a->gate_act);
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *w = ic_in(c, IN_WEIGHT, 0);
  const ic_tensor *h0 = ic_in(c, IN_H0, 0), *b = ic_in(c, IN_BIAS, 0);
  if (ic_kcheck_dtype(c, IN_INPUT, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim != 2 || x->dims[1] % 3) {
    return ic_kfail_in(c, IN_INPUT, 0, "expected [rows, 3 * hidden]");
  }
  size_t ns;
  if (!ic_kseq(c, IN_INPUT, 0, 0, &ns)) return c->err->code;
  const int64_t D = x->dims[1] / 3;
  char want[96];
  if (w->dtype != x->dtype || !ic_dims_equal(w->ndim, w->dims, 2, (int64_t[]){D, 3 * D})) {
    return ic_kfail_in(c, IN_WEIGHT, 0, "expected %s%s (hidden, 3 * hidden)",
                       ic_dtype_name(x->dtype), ic_dims_str(2, (int64_t[]){D, 3 * D}, want, sizeof want));
  }
  if (b && (b->dtype != x->dtype || ic_tensor_numel_(b) != 3 * D || b->ndim != 2)) {
    return ic_kfail_in(c, IN_BIAS, 0, "expected %s[1, %lld]", ic_dtype_name(x->dtype),
                       (long long)(3 * D));
  }
  if (h0 && (h0->dtype != x->dtype ||
             !ic_dims_equal(h0->ndim, h0->dims, 2, (int64_t[]){(int64_t)ns, D}))) {
    return ic_kfail_in(c, IN_H0, 0, "expected %s[%zu, %lld] (one state per sequence of Input)",
                       ic_dtype_name(x->dtype), ns, (long long)D);
  }
  ic_tensor *h = ic_out(c, OUT_HIDDEN, 0);
  ic_tensor_set_meta(h, x->dtype, 2, (int64_t[]){x->dims[0], D});
  for (size_t k = OUT_GATE; k <= OUT_BHIDDEN; k++) {
    ic_tensor *t = ic_out(c, k, 0);
    if (t) ic_tensor_set_meta(t, x->dtype, 2, (int64_t[]){x->dims[0], k == OUT_GATE ? 3 * D : D});
  }
  if (ic_kset_lod(c, h, ic_lod_clone(x->lod), true)) return c->err->code;
  const gru_attrs *a = c->attrs;
  return ic_seqbatch_set_lods(c, IN_INPUT, a->reverse, (ic_tensor *[]){ic_out(c, OUT_GATE, 0),
                              ic_out(c, OUT_BHIDDEN, 0)}, 2);
}

#define DEFINE_GRU(T, SUF, ACT)                                                                 \
  /* the gates of m rows: u and r activated, rh = r * h (0 without a previous state) */        \
  static void gates_##SUF(const gru_attrs *a, T *g, const T *hp, T *rh, int64_t m, int64_t D) { \
    for (int64_t i = 0; i < m; i++, g += 3 * D, rh += D) {                                     \
      for (int64_t j = 0; j < 2 * D; j++) g[j] = ACT(a->gate_act, g[j]);                       \
      for (int64_t j = 0; j < D; j++) rh[j] = hp ? g[D + j] * hp[i * D + j] : (T)0;            \
    }                                                                                          \
  }                                                                                            \
  static void final_##SUF(const gru_attrs *a, T *g, const T *hp, T *hn, int64_t m, int64_t D) { \
    for (int64_t i = 0; i < m; i++, g += 3 * D, hn += D) {                                     \
      for (int64_t j = 0; j < D; j++) {                                                        \
        T u = g[j], p = hp ? hp[i * D + j] : (T)0, cand = ACT(a->act, g[2 * D + j]);           \
        g[2 * D + j] = cand;                                                                   \
        hn[j] = a->origin ? u * p + cand - u * cand : p - u * p + u * cand;                    \
      }                                                                                        \
    }                                                                                          \
  }

DEFINE_GRU(float, f32, ic_seqactf)
DEFINE_GRU(double, f64, ic_seqact)

static ic_status run(ic_kctx *c) {
  const gru_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *w = ic_in(c, IN_WEIGHT, 0);
  const ic_tensor *h0 = ic_in(c, IN_H0, 0), *b = ic_in(c, IN_BIAS, 0);
  ic_tensor *hid = ic_out(c, OUT_HIDDEN, 0), *tg = ic_out(c, OUT_GATE, 0);
  ic_tensor *trh = ic_out(c, OUT_RESET, 0), *th = ic_out(c, OUT_BHIDDEN, 0);
  const int64_t D = x->dims[1] / 3, T = x->dims[0];
  const bool f64 = x->dtype == IC_FP64;
  const size_t es = ic_dtype_size(x->dtype);
  if (!D || !T) return IC_OK;
  ic_seqbatch p;
  ic_buffer *pb = ic_seqbatch_plan(c, IN_INPUT, a->reverse, &p);
  if (!pb) return c->err->code;
  const int64_t ns = (int64_t)p.ns;
  /* scratch: the absent intermediates, the initial states in batch order */
  size_t need = 1 + (tg ? 0 : (size_t)(3 * T * D)) + (trh ? 0 : (size_t)(T * D)) +
                (th ? 0 : (size_t)(T * D)) + (h0 ? (size_t)(ns * D) : 0);
  ic_buffer *s = ic_kscratch(c, need * es);
  if (!s) {
    ic_buffer_release(pb);
    return c->err->code;
  }
  char *at = s->data;
#define TAKE(t, n) ((t) ? (char *)(t)->data : (at += (size_t)(n) * es) - (size_t)(n) * es)
  char *G = TAKE(tg, 3 * T * D), *RH = TAKE(trh, T * D), *H = TAKE(th, T * D);
#undef TAKE
  char *oh0 = h0 ? at : NULL;
  const size_t grow = (size_t)(3 * D) * es, hrow = (size_t)D * es;
  for (int64_t r = 0; r < T; r++) memcpy(G + (size_t)r * grow, (const char *)x->data + p.row[r] * grow, grow);
  if (b && f64) ic_rows_add_f64((double *)G, T, 3 * D, b->data);
  else if (b) ic_rows_add_f32((float *)G, T, 3 * D, b->data);
  for (int64_t i = 0; h0 && i < ns; i++) {
    memcpy(oh0 + (size_t)i * hrow, (const char *)h0->data + p.order[i] * hrow, hrow);
  }
  const char *wur = w->data, *wc = (const char *)w->data + (size_t)(2 * D * D) * es;
  ic_gemm gu = {.dtype = x->dtype, .n = 2 * D, .k = D, .lda = D, .ldb = 2 * D, .ldc = 3 * D,
                .alpha = 1.0, .beta = 1.0};
  ic_gemm gc = {.dtype = x->dtype, .n = D, .k = D, .lda = D, .ldb = D, .ldc = 3 * D,
                .alpha = 1.0, .beta = 1.0};
  gu.m = gc.m = ns;
  if (ic_gemm_check(c, &gu) || ic_gemm_check(c, &gc)) {
    ic_buffer_release(s);
    ic_buffer_release(pb);
    return c->err->code;
  }
  const char *hp = oh0;
  for (size_t k = 0; k < p.nb; k++) {
    const int64_t bs = (int64_t)p.starts[k], m = (int64_t)p.starts[k + 1] - bs;
    char *g = G + (size_t)bs * grow, *rh = RH + (size_t)bs * hrow, *hn = H + (size_t)bs * hrow;
    gu.m = gc.m = m;
    if (hp) ic_gemm_run(c, &gu, hp, wur, g);
    if (f64) gates_f64(a, (double *)g, (const double *)hp, (double *)rh, m, D);
    else gates_f32(a, (float *)g, (const float *)hp, (float *)rh, m, D);
    if (hp) ic_gemm_run(c, &gc, rh, wc, g + (size_t)(2 * D) * es);
    if (f64) final_f64(a, (double *)g, (const double *)hp, (double *)hn, m, D);
    else final_f32(a, (float *)g, (const float *)hp, (float *)hn, m, D);
    hp = hn;
  }
  for (int64_t r = 0; r < T; r++) memcpy((char *)hid->data + p.row[r] * hrow, H + (size_t)r * hrow, hrow);
  ic_buffer_release(s);
  ic_buffer_release(pb);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Input", 0}, {"H0", IC_SLOT_OPTIONAL}, {"Weight", 0}, {"Bias", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {
    {"BatchGate", IC_SLOT_OPTIONAL},
    {"BatchResetHiddenPrev", IC_SLOT_OPTIONAL},
    {"BatchHidden", IC_SLOT_OPTIONAL},
    {"Hidden", 0}};

const ic_opdef ic_op_gru = {
    .name = "gru",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 4, .outputs = outputs,
    .attrs_size = sizeof(gru_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
