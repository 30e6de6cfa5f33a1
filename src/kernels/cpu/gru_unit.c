/* gru_unit: one step of fluid's GRU (paddle/fluid/operators/gru_unit_op.h), the cell of
 * fluid.layers.gru_unit and of DynamicRNN decoders. Input [B, 3D] is the step's projected
 * input x W_x in the gate order update u, reset r, candidate c; HiddenPrev [B, D] the previous
 * state; Weight [D, 3D] holds, in memory, the gate weights W_ur [D, 2D] followed by the
 * candidate weights W_c [D, D] (as gru's); Bias [1, 3D] (optional) is added to every row:
 *   g = Input + Bias,  [u r] = gate_act(g[:, :2D] + h W_ur),  rh = r * h,
 *   c = act(g[:, 2D:] + rh W_c),
 *   Hidden = u * h + (1 - u) * c  (origin_mode),   (1 - u) * h + u * c  (otherwise).
 * Gate [B, 3D] holds u, r and c after their activations, ResetHiddenPrev [B, D] rh.
 * activation / gate_activation are integers (0 identity, 1 sigmoid, 2 tanh, 3 relu; defaults
 * tanh and sigmoid), evaluated as Paddle's Eigen functors: a plain logistic sigmoid, tanh. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/kernel.h"

enum { IN_INPUT, IN_HPREV, IN_WEIGHT, IN_BIAS };
enum { OUT_GATE, OUT_RESET, OUT_HIDDEN };
enum { ACT_IDENTITY, ACT_SIGMOID, ACT_TANH, ACT_RELU };

typedef struct gru_unit_attrs {
  int act, gate_act;
  bool origin;
} gru_unit_attrs;

static ic_status parse_act(ic_attr_reader *r, const char *name, int dflt, int *out) {
  const int64_t v = ic_ar_int(r, name, dflt);
  if (r->st) return r->st;
  if (v < ACT_IDENTITY || v > ACT_RELU) {
    return ic_ar_fail(r, name, "is %lld, expected 0 (identity), 1 (sigmoid), 2 (tanh) or 3 (relu)",
                      (long long)v);
  }
  *out = (int)v;
  return IC_OK;
}

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gru_unit_attrs *a = attrs;
  a->origin = ic_ar_bool(r, "origin_mode", false);
  if (r->st || parse_act(r, "activation", ACT_TANH, &a->act)) return r->st;
  return parse_act(r, "gate_activation", ACT_SIGMOID, &a->gate_act);
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *hp = ic_in(c, IN_HPREV, 0);
  const ic_tensor *w = ic_in(c, IN_WEIGHT, 0), *b = ic_in(c, IN_BIAS, 0);
  if (ic_kcheck_dtype(c, IN_INPUT, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim != 2 || x->dims[1] % 3) {
    return ic_kfail_in(c, IN_INPUT, 0, "expected [batch, 3 * hidden]");
  }
  const int64_t B = x->dims[0], D = x->dims[1] / 3;
  char want[96];
  if (hp->dtype != x->dtype || !ic_dims_equal(hp->ndim, hp->dims, 2, (int64_t[]){B, D})) {
    return ic_kfail_in(c, IN_HPREV, 0, "expected %s%s (batch, hidden)", ic_dtype_name(x->dtype),
                       ic_dims_str(2, (int64_t[]){B, D}, want, sizeof want));
  }
  if (w->dtype != x->dtype || !ic_dims_equal(w->ndim, w->dims, 2, (int64_t[]){D, 3 * D})) {
    return ic_kfail_in(c, IN_WEIGHT, 0, "expected %s%s (hidden, 3 * hidden)",
                       ic_dtype_name(x->dtype),
                       ic_dims_str(2, (int64_t[]){D, 3 * D}, want, sizeof want));
  }
  if (b && (b->dtype != x->dtype || b->ndim != 2 || ic_tensor_numel_(b) != 3 * D)) {
    return ic_kfail_in(c, IN_BIAS, 0, "expected %s[1, %lld]", ic_dtype_name(x->dtype),
                       (long long)(3 * D));
  }
  ic_tensor_set_meta(ic_out(c, OUT_GATE, 0), x->dtype, 2, (int64_t[]){B, 3 * D});
  ic_tensor_set_meta(ic_out(c, OUT_RESET, 0), x->dtype, 2, (int64_t[]){B, D});
  ic_tensor_set_meta(ic_out(c, OUT_HIDDEN, 0), x->dtype, 2, (int64_t[]){B, D});
  return IC_OK;
}

#define DEFINE_GRU_UNIT(T, SUF, EXP, TANH)                                                      \
  static T act_##SUF(int act, T v) {                                                           \
    switch (act) {                                                                             \
      case ACT_SIGMOID: return (T)1 / ((T)1 + EXP(-v));                                        \
      case ACT_TANH: return TANH(v);                                                           \
      case ACT_RELU: return v > 0 ? v : (T)0;                                                  \
      default: return v;                                                                       \
    }                                                                                          \
  }                                                                                            \
  static void bias_##SUF(T *g, const T *x, const T *b, int64_t rows, int64_t n) {              \
    for (int64_t r = 0; r < rows; r++) {                                                       \
      for (int64_t j = 0; j < n; j++) g[r * n + j] = x[r * n + j] + (b ? b[j] : (T)0);          \
    }                                                                                          \
  }                                                                                            \
  static void gates_##SUF(const gru_unit_attrs *a, T *g, const T *hp, T *rh, int64_t B,       \
                          int64_t D) {                                                         \
    for (int64_t i = 0; i < B; i++) {                                                          \
      T *gi = g + i * 3 * D;                                                                   \
      for (int64_t j = 0; j < 2 * D; j++) gi[j] = act_##SUF(a->gate_act, gi[j]);               \
      for (int64_t j = 0; j < D; j++) rh[i * D + j] = gi[D + j] * hp[i * D + j];               \
    }                                                                                          \
  }                                                                                            \
  static void final_##SUF(const gru_unit_attrs *a, T *g, const T *hp, T *h, int64_t B,        \
                          int64_t D) {                                                         \
    for (int64_t i = 0; i < B; i++) {                                                          \
      T *gi = g + i * 3 * D;                                                                   \
      for (int64_t j = 0; j < D; j++) {                                                        \
        const T u = gi[j], p = hp[i * D + j], cand = act_##SUF(a->act, gi[2 * D + j]);         \
        gi[2 * D + j] = cand;                                                                  \
        h[i * D + j] = a->origin ? cand + u * (p - cand) : u * (cand - p) + p;                 \
      }                                                                                        \
    }                                                                                          \
  }

DEFINE_GRU_UNIT(float, f32, expf, tanhf)
DEFINE_GRU_UNIT(double, f64, exp, tanh)

static ic_status run(ic_kctx *c) {
  const gru_unit_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *hp = ic_in(c, IN_HPREV, 0);
  const ic_tensor *w = ic_in(c, IN_WEIGHT, 0), *b = ic_in(c, IN_BIAS, 0);
  ic_tensor *g = ic_out(c, OUT_GATE, 0), *rh = ic_out(c, OUT_RESET, 0);
  ic_tensor *h = ic_out(c, OUT_HIDDEN, 0);
  const int64_t B = x->dims[0], D = x->dims[1] / 3;
  if (!B || !D) return IC_OK;
  const bool f64 = x->dtype == IC_FP64;
  const size_t es = ic_dtype_size(x->dtype);
  if (f64) bias_f64(g->data, x->data, b ? b->data : NULL, B, 3 * D);
  else bias_f32(g->data, x->data, b ? b->data : NULL, B, 3 * D);
  ic_gemm gu = {.dtype = x->dtype, .m = B, .n = 2 * D, .k = D, .lda = D, .ldb = 2 * D,
                .ldc = 3 * D, .alpha = 1.0, .beta = 1.0};
  ic_gemm gc = {.dtype = x->dtype, .m = B, .n = D, .k = D, .lda = D, .ldb = D, .ldc = 3 * D,
                .alpha = 1.0, .beta = 1.0};
  if (ic_gemm_check(c, &gu) || ic_gemm_check(c, &gc)) return c->err->code;
  ic_gemm_run(c, &gu, hp->data, w->data, g->data);
  if (f64) gates_f64(a, g->data, hp->data, rh->data, B, D);
  else gates_f32(a, g->data, hp->data, rh->data, B, D);
  ic_gemm_run(c, &gc, rh->data, (const char *)w->data + (size_t)(2 * D * D) * es,
              (char *)g->data + (size_t)(2 * D) * es);
  if (f64) final_f64(a, g->data, hp->data, h->data, B, D);
  else final_f32(a, g->data, hp->data, h->data, B, D);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Input", 0}, {"HiddenPrev", 0}, {"Weight", 0}, {"Bias", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Gate", 0}, {"ResetHiddenPrev", 0}, {"Hidden", 0}};

const ic_opdef ic_op_gru_unit = {
    .name = "gru_unit",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(gru_unit_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
