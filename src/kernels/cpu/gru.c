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
 * LoD. BatchGate, BatchResetHiddenPrev and BatchHidden are Paddle's training intermediates:
 * meta only here. activation / gate_activation: sigmoid, tanh, relu or identity (seqact.h). */
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/seqact.h"
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
  return ic_kset_lod(c, h, ic_lod_clone(x->lod), true);
}

#define DEFINE_GRU(T, SUF, ACT)                                                                 \
  static void gates_##SUF(const gru_attrs *a, T *g, const T *hp, T *rh, int64_t D) {          \
    for (int64_t j = 0; j < 2 * D; j++) g[j] = ACT(a->gate_act, g[j]);                         \
    for (int64_t j = 0; j < D; j++) rh[j] = g[D + j] * hp[j];                                  \
  }                                                                                            \
  static void final_##SUF(const gru_attrs *a, T *g, const T *hp, T *hn, int64_t D) {           \
    for (int64_t j = 0; j < D; j++) {                                                          \
      T u = g[j], cand = ACT(a->act, g[2 * D + j]);                                            \
      hn[j] = a->origin ? u * hp[j] + cand - u * cand : hp[j] - u * hp[j] + u * cand;          \
    }                                                                                          \
  }

DEFINE_GRU(float, f32, ic_seqactf)
DEFINE_GRU(double, f64, ic_seqact)

static ic_status run(ic_kctx *c) {
  const gru_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *w = ic_in(c, IN_WEIGHT, 0);
  const ic_tensor *h0 = ic_in(c, IN_H0, 0), *b = ic_in(c, IN_BIAS, 0);
  ic_tensor *hid = ic_out(c, OUT_HIDDEN, 0);
  const int64_t D = x->dims[1] / 3;
  const bool f64 = x->dtype == IC_FP64;
  const size_t es = ic_dtype_size(x->dtype);
  const uint64_t *off = x->lod->offsets[x->lod->n_levels - 1];
  const size_t ns = x->lod->lens[x->lod->n_levels - 1] - 1;
  if (!D || !x->dims[0]) return IC_OK;
  /* scratch: gates [3D], zero state [D], reset * h [D] */
  ic_buffer *s = ic_kscratch(c, (size_t)(5 * D) * es);
  if (!s) return c->err->code;
  char *g = s->data, *zero = g + (size_t)(3 * D) * es, *rh = zero + (size_t)D * es;
  memset(zero, 0, (size_t)D * es);
  const char *wur = w->data, *wc = (const char *)w->data + (size_t)(2 * D * D) * es;
  ic_gemm gu = {.dtype = x->dtype, .m = 1, .n = 2 * D, .k = D, .lda = D, .ldb = 2 * D,
                .ldc = 3 * D, .alpha = 1.0, .beta = 1.0};
  ic_gemm gc = {.dtype = x->dtype, .m = 1, .n = D, .k = D, .lda = D, .ldb = D, .ldc = 3 * D,
                .alpha = 1.0, .beta = 1.0};
  if (ic_gemm_check(c, &gu) || ic_gemm_check(c, &gc)) {
    ic_buffer_release(s);
    return c->err->code;
  }
  for (size_t q = 0; q < ns; q++) {
    const int64_t first = (int64_t)off[q], len = (int64_t)off[q + 1] - first;
    const char *hp = h0 ? (const char *)h0->data + (size_t)q * (size_t)D * es : zero;
    for (int64_t k = 0; k < len; k++) {
      const int64_t row = a->reverse ? first + len - 1 - k : first + k;
      memcpy(g, (const char *)x->data + (size_t)(row * 3 * D) * es, (size_t)(3 * D) * es);
      for (int64_t j = 0; b && j < 3 * D; j++) {
        if (f64) ((double *)g)[j] += ((const double *)b->data)[j];
        else ((float *)g)[j] += ((const float *)b->data)[j];
      }
      char *hn = (char *)hid->data + (size_t)(row * D) * es;
      ic_gemm_run(c, &gu, hp, wur, g);
      if (f64) gates_f64(a, (double *)g, (const double *)hp, (double *)rh, D);
      else gates_f32(a, (float *)g, (const float *)hp, (float *)rh, D);
      ic_gemm_run(c, &gc, rh, wc, g + (size_t)(2 * D) * es);
      if (f64) final_f64(a, (double *)g, (const double *)hp, (double *)hn, D);
      else final_f32(a, (float *)g, (const float *)hp, (float *)hn, D);
      hp = hn;
    }
  }
  ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Input", 0}, {"H0", IC_SLOT_OPTIONAL}, {"Weight", 0}, {"Bias", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {
    {"BatchGate", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
    {"BatchResetHiddenPrev", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
    {"BatchHidden", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
    {"Hidden", 0}};

const ic_opdef ic_op_gru = {
    .name = "gru",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 4, .outputs = outputs,
    .attrs_size = sizeof(gru_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
