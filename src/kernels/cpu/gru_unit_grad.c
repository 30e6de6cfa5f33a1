/* gru_unit_grad: the gradients of gru_unit (paddle/fluid/operators/gru_unit_op.h
 * GRUUnitGradKernel), from the forward's Gate (u, r, c after their activations) and
 * ResetHiddenPrev (rh = r * h_prev). With dh = Hidden@GRAD and act' the activation's
 * derivative written in its output (sigmoid y (1 - y), tanh 1 - y^2, relu y > 0, identity 1):
 *   dg_u = gate_act'(u) * dh * (h_prev - c)  (origin_mode),  dh * (c - h_prev)  (otherwise),
 *   dg_c = act'(c) * dh * (1 - u)            (origin_mode),  dh * u            (otherwise),
 *   drh = dg_c W_c^T,   dg_r = gate_act'(r) * drh * h_prev,
 *   Input@GRAD = dg = [dg_u dg_r dg_c],   Bias@GRAD = the column sums of dg,
 *   Weight@GRAD = [h_prev^T dg_ur, rh^T dg_c] (W_ur [D, 2D] then W_c [D, D] in memory),
 *   HiddenPrev@GRAD = drh * r + dh * u (origin_mode) or dh * (1 - u), plus dg_ur W_ur^T.
 * Inputs Input (dims only), HiddenPrev, Weight, Bias (optional, dims only), Gate,
 * ResetHiddenPrev, Hidden (optional, unused), Hidden@GRAD; every output optional. gru_unit's
 * attributes (activation, gate_activation: 0 identity, 1 sigmoid, 2 tanh, 3 relu;
 * origin_mode). Computed in double, rounded once. float32, float64. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_INPUT, IN_HPREV, IN_WEIGHT, IN_BIAS, IN_GATE, IN_RESET, IN_HIDDEN, IN_DH };
enum { OUT_DX, OUT_DHP, OUT_DW, OUT_DB };
enum { ACT_IDENTITY, ACT_SIGMOID, ACT_TANH, ACT_RELU };

typedef struct gug_attrs {
  int act, gate_act;
  bool origin;
} gug_attrs;

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
  gug_attrs *a = attrs;
  a->origin = ic_ar_bool(r, "origin_mode", false);
  if (r->st || parse_act(r, "activation", ACT_TANH, &a->act)) return r->st;
  return parse_act(r, "gate_activation", ACT_SIGMOID, &a->gate_act);
}

static ic_status want(ic_kctx *c, size_t s, const ic_tensor *x, int64_t d0, int64_t d1,
                      const char *what) {
  const ic_tensor *t = ic_in(c, s, 0);
  const int64_t d[2] = {d0, d1};
  if (t->dtype != x->dtype || !ic_dims_equal(t->ndim, t->dims, 2, d)) {
    char e[96];
    return ic_kfail_in(c, s, 0, "expected %s%s (%s)", ic_dtype_name(x->dtype),
                       ic_dims_str(2, d, e, sizeof e), what);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *b = ic_in(c, IN_BIAS, 0);
  if (ic_kcheck_dtype(c, IN_INPUT, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim != 2 || x->dims[1] % 3) {
    return ic_kfail_in(c, IN_INPUT, 0, "expected [batch, 3 * hidden]");
  }
  const int64_t B = x->dims[0], D = x->dims[1] / 3;
  ic_status st;
  if ((st = want(c, IN_HPREV, x, B, D, "batch, hidden")) ||
      (st = want(c, IN_WEIGHT, x, D, 3 * D, "hidden, 3 * hidden")) ||
      (st = want(c, IN_GATE, x, B, 3 * D, "gru_unit's Gate")) ||
      (st = want(c, IN_RESET, x, B, D, "gru_unit's ResetHiddenPrev")) ||
      (st = want(c, IN_DH, x, B, D, "gru_unit's Hidden"))) {
    return st;
  }
  ic_tensor *dx = ic_out(c, OUT_DX, 0), *dhp = ic_out(c, OUT_DHP, 0);
  ic_tensor *dw = ic_out(c, OUT_DW, 0), *db = ic_out(c, OUT_DB, 0);
  if (db && !b) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "output Bias@GRAD '%s' is written, but the op "
                    "has no Bias", ic_out_name(c, OUT_DB, 0));
  }
  if (b && (b->dtype != x->dtype || b->ndim != 2 || ic_tensor_numel_(b) != 3 * D)) {
    return ic_kfail_in(c, IN_BIAS, 0, "expected %s[1, %lld]", ic_dtype_name(x->dtype),
                       (long long)(3 * D));
  }
  if (dx) ic_tensor_set_meta(dx, x->dtype, 2, x->dims);
  if (dhp) ic_tensor_set_meta(dhp, x->dtype, 2, (int64_t[]){B, D});
  if (dw) ic_tensor_set_meta(dw, x->dtype, 2, (int64_t[]){D, 3 * D});
  if (db) ic_tensor_set_meta(db, x->dtype, b->ndim, b->dims);
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}

/* The pre-activation gradient from the activation's output y and its upstream gradient. */
static double act_grad(int act, double y, double dy) {
  switch (act) {
    case ACT_SIGMOID: return dy * y * (1.0 - y);
    case ACT_TANH: return dy * (1.0 - y * y);
    case ACT_RELU: return y > 0 ? dy : 0.0;
    default: return dy;
  }
}

static void store(ic_tensor *t, const double *v) {
  if (t) ic_store_acc(t, v);
}

static ic_status run(ic_kctx *c) {
  const gug_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *hp = ic_in(c, IN_HPREV, 0);
  const ic_tensor *w = ic_in(c, IN_WEIGHT, 0), *gt = ic_in(c, IN_GATE, 0);
  const ic_tensor *rh = ic_in(c, IN_RESET, 0), *dh = ic_in(c, IN_DH, 0);
  const int64_t B = x->dims[0], D = x->dims[1] / 3;
  /* dg [B, 3D], drh [B, D], dhp [B, D], dw [D, 3D], db [3D] */
  const size_t n = (size_t)(3 * B * D + 2 * B * D + 3 * D * D + 3 * D + 1);
  ic_buffer *s = ic_kscratch(c, n * sizeof(double));
  if (!s) return c->err->code;
  double *dg = s->data, *drh = dg + 3 * B * D, *dhp = drh + B * D, *dw = dhp + B * D;
  double *db = dw + 3 * D * D;
  memset(dg, 0, n * sizeof(double));
  for (int64_t i = 0; i < B; i++) {
    for (int64_t j = 0; j < D; j++) {
      const double u = get(gt, i * 3 * D + j), cc = get(gt, i * 3 * D + 2 * D + j);
      const double p = get(hp, i * D + j), g = get(dh, i * D + j);
      dg[i * 3 * D + j] = act_grad(a->gate_act, u, a->origin ? g * (p - cc) : g * (cc - p));
      dg[i * 3 * D + 2 * D + j] = act_grad(a->act, cc, a->origin ? g * (1.0 - u) : g * u);
    }
  }
  /* drh = dg_c W_c^T, W_c[k, j] at 2 D D + k D + j */
  for (int64_t i = 0; i < B; i++) {
    for (int64_t k = 0; k < D; k++) {
      double acc = 0;
      for (int64_t j = 0; j < D; j++) acc += dg[i * 3 * D + 2 * D + j] * get(w, 2 * D * D + k * D + j);
      drh[i * D + k] = acc;
    }
  }
  for (int64_t i = 0; i < B; i++) {
    for (int64_t j = 0; j < D; j++) {
      const double r = get(gt, i * 3 * D + D + j);
      dg[i * 3 * D + D + j] = act_grad(a->gate_act, r, drh[i * D + j] * get(hp, i * D + j));
    }
  }
  /* Weight@GRAD: W_ur [D, 2D] = h_prev^T dg_ur, then W_c [D, D] = rh^T dg_c */
  for (int64_t i = 0; i < B; i++) {
    for (int64_t k = 0; k < D; k++) {
      const double p = get(hp, i * D + k), q = get(rh, i * D + k);
      for (int64_t j = 0; j < 2 * D; j++) dw[k * 2 * D + j] += p * dg[i * 3 * D + j];
      for (int64_t j = 0; j < D; j++) dw[2 * D * D + k * D + j] += q * dg[i * 3 * D + 2 * D + j];
    }
  }
  /* HiddenPrev@GRAD */
  for (int64_t i = 0; i < B; i++) {
    for (int64_t k = 0; k < D; k++) {
      const double u = get(gt, i * 3 * D + k), r = get(gt, i * 3 * D + D + k);
      const double g = get(dh, i * D + k);
      double acc = drh[i * D + k] * r + (a->origin ? g * u : g * (1.0 - u));
      for (int64_t j = 0; j < 2 * D; j++) acc += dg[i * 3 * D + j] * get(w, k * 2 * D + j);
      dhp[i * D + k] = acc;
    }
  }
  for (int64_t i = 0; i < B; i++) {
    for (int64_t j = 0; j < 3 * D; j++) db[j] += dg[i * 3 * D + j];
  }
  store(ic_out(c, OUT_DX, 0), dg);
  store(ic_out(c, OUT_DHP, 0), dhp);
  store(ic_out(c, OUT_DW, 0), dw);
  store(ic_out(c, OUT_DB, 0), db);
  ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Input", IC_SLOT_NO_BUFFER}, {"HiddenPrev", 0},          {"Weight", 0},
    {"Bias", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},            {"Gate", 0},
    {"ResetHiddenPrev", 0},       {"Hidden", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
    {"Hidden@GRAD", 0}};
static const ic_slotdef outputs[] = {{"Input@GRAD", IC_SLOT_OPTIONAL},
                                     {"HiddenPrev@GRAD", IC_SLOT_OPTIONAL},
                                     {"Weight@GRAD", IC_SLOT_OPTIONAL},
                                     {"Bias@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_gru_unit_grad = {
    .name = "gru_unit_grad",
    .n_inputs = 8, .inputs = inputs,
    .n_outputs = 4, .outputs = outputs,
    .attrs_size = sizeof(gug_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
