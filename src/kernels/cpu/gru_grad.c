/* gru_grad: the gradient of fluid's LoD gru (paddle/fluid/operators/gru_op.h GRUGradKernel with
 * paddle/phi/kernels/funcs/gru_compute GRUUnitGradFunctor and detail/gru_kernel.h). It reads
 * what the forward (gru.c) wrote in Paddle's batch order (seqbatch.h; rebuilt here from
 * Input's LoD and is_reverse, and checked against BatchGate's LoD when it has one): BatchGate
 * (u, r, c activated), BatchResetHiddenPrev (r * h), BatchHidden (h'), and walks the batches
 * backwards. Per step, with dh the gradient reaching h' and p the previous state:
 *   du = dh (c - p) (dh (p - c) with origin_mode),  dp += dh (1 - u) (dh u),
 *   dc = act'(dh u) (act'(dh (1 - u))),  d(rh) = dc W_c^T,  W_c@GRAD += (rh)^T dc,
 *   dr = gate'(d(rh) p),  dp += d(rh) r,  du = gate'(du),
 *   dp += [du dr] W_ur^T,  W_ur@GRAD += p^T [du dr],
 * where act'(g) / gate'(g) multiply by the derivative read from the activation's output
 * (seqact.h). The first step has p = H0 (zeros without H0). As Paddle, the recurrent products
 * of the first step (d(rh), the Weight@GRAD terms, dp) are skipped unless H0 is given AND
 * H0@GRAD is wanted: without H0@GRAD the first step adds nothing to Weight@GRAD and dr is 0
 * there. Input@GRAD [T, 3D] holds [du dr dc] per row (no LoD, as Paddle), Bias@GRAD [1, 3D]
 * their sum over rows (in double), H0@GRAD the first step's dp per sequence. Inputs Hidden
 * (dims only) and Hidden@GRAD [T, D]; every output optional. float32 / float64. */
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/seqact.h"
#include "kernels/cpu/seqbatch.h"
#include "kernels/kernel.h"

enum { IN_INPUT, IN_H0, IN_WEIGHT, IN_BIAS, IN_GATE, IN_RESET, IN_BHIDDEN, IN_HIDDEN, IN_DHIDDEN };
enum { OUT_DINPUT, OUT_DH0, OUT_DWEIGHT, OUT_DBIAS };

typedef struct gru_grad_attrs {
  int act, gate_act;
  bool reverse, origin;
} gru_grad_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gru_grad_attrs *a = attrs;
  a->reverse = ic_ar_bool(r, "is_reverse", false);
  a->origin = ic_ar_bool(r, "origin_mode", false);
  (void)ic_ar_bool(r, "is_test", false);
  if (r->st || ic_seqact_parse(r, "activation", "tanh", &a->act)) return r->st;
  return ic_seqact_parse(r, "gate_activation", "sigmoid", &a->gate_act);
}

/* Input s (when present) must be dtype[d0, d1]. */
static ic_status want2(ic_kctx *c, size_t s, ic_dtype dt, int64_t d0, int64_t d1, const char *why) {
  const ic_tensor *t = ic_in(c, s, 0);
  if (!t || (t->dtype == dt && ic_dims_equal(t->ndim, t->dims, 2, (int64_t[]){d0, d1}))) return IC_OK;
  return ic_kfail_in(c, s, 0, "expected %s[%lld, %lld] (%s)", ic_dtype_name(dt), (long long)d0,
                     (long long)d1, why);
}

static ic_status infer(ic_kctx *c) {
  const gru_grad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *h0 = ic_in(c, IN_H0, 0), *b = ic_in(c, IN_BIAS, 0);
  if (ic_kcheck_dtype(c, IN_INPUT, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim != 2 || x->dims[1] % 3) return ic_kfail_in(c, IN_INPUT, 0, "expected [rows, 3 * hidden]");
  size_t ns;
  if (!ic_kseq(c, IN_INPUT, 0, 0, &ns)) return c->err->code;
  const int64_t T = x->dims[0], D = x->dims[1] / 3;
  const ic_dtype dt = x->dtype;
  if (want2(c, IN_WEIGHT, dt, D, 3 * D, "hidden, 3 * hidden") ||
      want2(c, IN_H0, dt, (int64_t)ns, D, "one state per sequence of Input") ||
      want2(c, IN_BIAS, dt, 1, 3 * D, "the gate and candidate biases") ||
      want2(c, IN_GATE, dt, T, 3 * D, "the forward's BatchGate: Input's dims") ||
      want2(c, IN_RESET, dt, T, D, "the forward's BatchResetHiddenPrev: rows, hidden") ||
      want2(c, IN_BHIDDEN, dt, T, D, "the forward's BatchHidden: rows, hidden") ||
      want2(c, IN_HIDDEN, dt, T, D, "the forward's Hidden: rows, hidden") ||
      want2(c, IN_DHIDDEN, dt, T, D, "Hidden's gradient: rows, hidden")) {
    return c->err->code;
  }
  if (ic_seqbatch_check(c, IN_INPUT, a->reverse, IN_GATE)) return c->err->code;
  if (ic_out(c, OUT_DH0, 0) && !h0) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "output H0@GRAD is requested but input H0 is missing");
  }
  if (ic_out(c, OUT_DBIAS, 0) && !b) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "output Bias@GRAD is requested but input Bias is missing");
  }
  const ic_tensor *src[] = {x, h0, ic_in(c, IN_WEIGHT, 0), b};
  for (size_t k = OUT_DINPUT; k <= OUT_DBIAS; k++) {
    ic_tensor *t = ic_out(c, k, 0);
    if (t) ic_tensor_set_meta(t, dt, src[k]->ndim, src[k]->dims);
  }
  return IC_OK;
}

#define DEFINE_GRU_GRAD(T, SUF, DACT)                                                           \
  /* dh -> du (before gate'), dc (after act'), dp (when dhp) */                                 \
  static void state_##SUF(const gru_grad_attrs *a, const T *g, T *dg, const T *hp, T *dhp,      \
                          const T *dh, int64_t m, int64_t D) {                                  \
    for (int64_t i = 0; i < m; i++, g += 3 * D, dg += 3 * D) {                                  \
      for (int64_t j = 0; j < D; j++) {                                                         \
        const T u = g[j], cand = g[2 * D + j], p = hp ? hp[i * D + j] : (T)0, o = dh[i * D + j]; \
        if (a->origin) {                                                                        \
          dg[j] = o * (p - cand);                                                               \
          if (dhp) dhp[i * D + j] += o * u;                                                     \
          dg[2 * D + j] = DACT(a->act, o * ((T)1 - u), cand);                                   \
        } else {                                                                                \
          dg[j] = o * (cand - p);                                                               \
          if (dhp) dhp[i * D + j] += o * ((T)1 - u);                                            \
          dg[2 * D + j] = DACT(a->act, o * u, cand);                                            \
        }                                                                                       \
      }                                                                                         \
    }                                                                                           \
  }                                                                                             \
  /* d(rh) -> dr, dp; gate' on du and dr */                                                     \
  static void reset_##SUF(const gru_grad_attrs *a, const T *g, T *dg, const T *hp, T *dhp,      \
                          const T *drh, int64_t m, int64_t D) {                                 \
    for (int64_t i = 0; i < m; i++, g += 3 * D, dg += 3 * D) {                                  \
      for (int64_t j = 0; j < D; j++) {                                                         \
        const T u = g[j], r = g[D + j], p = hp ? hp[i * D + j] : (T)0;                          \
        const T d = hp && dhp ? drh[i * D + j] : (T)0;                                          \
        if (dhp) dhp[i * D + j] += d * r;                                                       \
        dg[j] = DACT(a->gate_act, dg[j], u);                                                    \
        dg[D + j] = DACT(a->gate_act, d * p, r);                                                \
      }                                                                                         \
    }                                                                                           \
  }

DEFINE_GRU_GRAD(float, f32, ic_seqact_gradf)
DEFINE_GRU_GRAD(double, f64, ic_seqact_grad)

static ic_status run(ic_kctx *c) {
  const gru_grad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *w = ic_in(c, IN_WEIGHT, 0), *h0 = ic_in(c, IN_H0, 0);
  const ic_tensor *tg = ic_in(c, IN_GATE, 0), *trh = ic_in(c, IN_RESET, 0);
  const ic_tensor *th = ic_in(c, IN_BHIDDEN, 0), *tdh = ic_in(c, IN_DHIDDEN, 0);
  ic_tensor *dx = ic_out(c, OUT_DINPUT, 0), *dh0 = ic_out(c, OUT_DH0, 0);
  ic_tensor *dw = ic_out(c, OUT_DWEIGHT, 0), *db = ic_out(c, OUT_DBIAS, 0);
  const int64_t T = x->dims[0], D = x->dims[1] / 3;
  const bool f64 = x->dtype == IC_FP64;
  const size_t es = ic_dtype_size(x->dtype), grow = (size_t)(3 * D) * es, hrow = (size_t)D * es;
  if (dw) memset(dw->data, 0, (size_t)(3 * D * D) * es);
  if (dh0) memset(dh0->data, 0, (size_t)ic_tensor_numel_(dh0) * es);
  if (db) memset(db->data, 0, grow);
  if (!D || !T) {
    if (dx) memset(dx->data, 0, (size_t)T * grow);
    return IC_OK;
  }
  ic_seqbatch p;
  ic_buffer *pb = ic_seqbatch_plan(c, IN_INPUT, a->reverse, &p);
  if (!pb) return c->err->code;
  const int64_t ns = (int64_t)p.ns;
  const bool with_dh0 = h0 && dh0;
  /* scratch: dG [T, 3D], d(rh) [T, D], dh in batch order [T, D], H0 and H0@GRAD in batch
   * order, Bias@GRAD's double accumulator */
  size_t need = (size_t)(5 * T * D) + (h0 ? (size_t)(ns * D) : 0) + (with_dh0 ? (size_t)(ns * D) : 0);
  ic_buffer *s = ic_kscratch(c, need * es + (db ? (size_t)(3 * D) * sizeof(double) : 0) + 8);
  if (!s) {
    ic_buffer_release(pb);
    return c->err->code;
  }
  double *bacc = s->data;
  char *dG = (char *)s->data + (db ? (size_t)(3 * D) * sizeof(double) : 0);
  char *dRH = dG + (size_t)T * grow, *dH = dRH + (size_t)T * hrow, *oh0 = dH + (size_t)T * hrow;
  char *odh0 = oh0 + (h0 ? (size_t)ns * hrow : 0);
  memset(dG, 0, (size_t)T * grow);
  memset(dRH, 0, (size_t)T * hrow);
  for (int64_t r = 0; r < T; r++) memcpy(dH + (size_t)r * hrow, (const char *)tdh->data + p.row[r] * hrow, hrow);
  for (int64_t i = 0; i < ns; i++) {
    if (h0) memcpy(oh0 + (size_t)i * hrow, (const char *)h0->data + p.order[i] * hrow, hrow);
    if (with_dh0) memset(odh0 + (size_t)i * hrow, 0, hrow);
  }
  const char *G = tg->data, *RH = trh->data, *H = th->data;
  const char *wur = w->data, *wc = (const char *)w->data + (size_t)(2 * D * D) * es;
  char *dwur = dw ? dw->data : NULL, *dwc = dw ? (char *)dw->data + (size_t)(2 * D * D) * es : NULL;
  /* d(rh) = dc W_c^T;  W_c@GRAD += rh^T dc;  dp += [du dr] W_ur^T;  W_ur@GRAD += p^T [du dr] */
  ic_gemm g_drh = {.dtype = x->dtype, .trans_b = true, .m = ns, .n = D, .k = D, .lda = 3 * D,
                   .ldb = D, .ldc = D, .alpha = 1.0, .beta = 0.0};
  ic_gemm g_dwc = {.dtype = x->dtype, .trans_a = true, .m = D, .n = D, .k = ns, .lda = D,
                   .ldb = 3 * D, .ldc = D, .alpha = 1.0, .beta = 1.0};
  ic_gemm g_dp = {.dtype = x->dtype, .trans_b = true, .m = ns, .n = D, .k = 2 * D, .lda = 3 * D,
                  .ldb = 2 * D, .ldc = D, .alpha = 1.0, .beta = 1.0};
  ic_gemm g_dwur = {.dtype = x->dtype, .trans_a = true, .m = D, .n = 2 * D, .k = ns, .lda = D,
                    .ldb = 3 * D, .ldc = 2 * D, .alpha = 1.0, .beta = 1.0};
  if (ic_gemm_check(c, &g_drh) || ic_gemm_check(c, &g_dwc) || ic_gemm_check(c, &g_dp) ||
      ic_gemm_check(c, &g_dwur)) {
    ic_buffer_release(s);
    ic_buffer_release(pb);
    return c->err->code;
  }
  for (size_t k = p.nb; k-- > 0;) {
    const int64_t bs = (int64_t)p.starts[k], m = (int64_t)p.starts[k + 1] - bs;
    const char *g = G + (size_t)bs * grow, *rh = RH + (size_t)bs * hrow;
    char *dg = dG + (size_t)bs * grow, *drh = dRH + (size_t)bs * hrow, *dh = dH + (size_t)bs * hrow;
    const char *hp;
    char *dhp;
    if (k == 0) {
      hp = h0 ? oh0 : NULL;
      dhp = with_dh0 ? odh0 : NULL;
    } else {
      hp = H + p.starts[k - 1] * hrow;
      dhp = dH + p.starts[k - 1] * hrow;
    }
    if (f64) state_f64(a, (const double *)g, (double *)dg, (const double *)hp, (double *)dhp, (const double *)dh, m, D);
    else state_f32(a, (const float *)g, (float *)dg, (const float *)hp, (float *)dhp, (const float *)dh, m, D);
    g_drh.m = g_dp.m = m;
    g_dwc.k = g_dwur.k = m;
    if (hp && dhp) {
      ic_gemm_run(c, &g_drh, dg + (size_t)(2 * D) * es, wc, drh);
      if (dw) ic_gemm_run(c, &g_dwc, rh, dg + (size_t)(2 * D) * es, dwc);
    }
    if (f64) reset_f64(a, (const double *)g, (double *)dg, (const double *)hp, (double *)dhp, (const double *)drh, m, D);
    else reset_f32(a, (const float *)g, (float *)dg, (const float *)hp, (float *)dhp, (const float *)drh, m, D);
    if (hp && dhp) {
      ic_gemm_run(c, &g_dp, dg, wur, dhp);
      if (dw) ic_gemm_run(c, &g_dwur, hp, dg, dwur);
    }
  }
  if (dx) {
    for (int64_t r = 0; r < T; r++) memcpy((char *)dx->data + p.row[r] * grow, dG + (size_t)r * grow, grow);
  }
  if (db) {
    memset(bacc, 0, (size_t)(3 * D) * sizeof *bacc);
    for (int64_t r = 0; r < T; r++) {
      for (int64_t j = 0; j < 3 * D; j++) {
        bacc[j] += f64 ? ((const double *)dG)[r * 3 * D + j] : (double)((const float *)dG)[r * 3 * D + j];
      }
    }
    ic_store_acc(db, bacc);
  }
  for (int64_t i = 0; with_dh0 && i < ns; i++) {
    memcpy((char *)dh0->data + p.order[i] * hrow, odh0 + (size_t)i * hrow, hrow);
  }
  ic_buffer_release(s);
  ic_buffer_release(pb);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Input", 0}, {"H0", IC_SLOT_OPTIONAL}, {"Weight", 0}, {"Bias", IC_SLOT_OPTIONAL},
    {"BatchGate", 0}, {"BatchResetHiddenPrev", 0}, {"BatchHidden", 0},
    {"Hidden", IC_SLOT_NO_BUFFER}, {"Hidden@GRAD", 0}};
static const ic_slotdef outputs[] = {
    {"Input@GRAD", IC_SLOT_OPTIONAL}, {"H0@GRAD", IC_SLOT_OPTIONAL},
    {"Weight@GRAD", IC_SLOT_OPTIONAL}, {"Bias@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_gru_grad = {
    .name = "gru_grad",
    .n_inputs = 9, .inputs = inputs,
    .n_outputs = 4, .outputs = outputs,
    .attrs_size = sizeof(gru_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
