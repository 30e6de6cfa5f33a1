/* clip_grad: X@GRAD = Out@GRAD where min <= X <= max, else 0: Out@GRAD at both bounds, as
 * Paddle 3.3.1 gives (checked; older phi sources compared strictly), the bounds being
 * clip's (the attributes, or the one-element inputs Min / Max), converted to X's float type
 * as the forward op does.
 * Inputs X, Min, Max (optional), Out@GRAD; float32 and float64. */
#include "kernels/cpu/clip.h"

static bool slot_used(const ic_op *op, const char *name) {
  const ic_slot *s = ic_op_input(op, name);
  return s && s->n > 0;
}

/* clip's attributes (clip.c) */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  clip_attrs *a = attrs;
  bool tmin = slot_used(r->op, "Min"), tmax = slot_used(r->op, "Max");
  a->min = tmin ? ic_ar_float(r, "min", 0.0) : ic_ar_float_req(r, "min");
  a->max = tmax ? ic_ar_float(r, "max", 0.0) : ic_ar_float_req(r, "max");
  return r->st;
}

enum { IN_X = IC_CLIP_X, IN_MIN = IC_CLIP_MIN, IN_MAX = IC_CLIP_MAX, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  for (size_t s = IN_MIN; s <= IN_MAX; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t && ic_tensor_numel_(t) != 1) {
      return ic_kfail_in(c, s, 0, "expected one element, got %lld",
                         (long long)ic_tensor_numel_(t));
    }
  }
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, x->ndim, x->dims)) {
    char d[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_fill_scalar bound(const ic_kctx *c, size_t s, double attr) {
  const ic_tensor *t = ic_in(c, s, 0);
  return t ? ic_fill_scalar_of(t) : ic_clip_attr_bound(attr);
}

#define CLIP_GRAD(T, LO, HI)                                                               \
  do {                                                                                     \
    const T lo_ = (LO), hi_ = (HI);                                                        \
    const T *restrict xp = x->data, *restrict gp = g->data;                                \
    T *restrict dp = dx->data;                                                             \
    for (int64_t i = 0; i < n; i++) dp[i] = xp[i] >= lo_ && xp[i] <= hi_ ? gp[i] : (T)0;   \
  } while (0)

static ic_status run(ic_kctx *c) {
  const clip_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  ic_fill_scalar lo = bound(c, IN_MIN, a->min), hi = bound(c, IN_MAX, a->max);
  if (x->dtype == IC_FP32) CLIP_GRAD(float, ic_clip_f32(lo), ic_clip_f32(hi));
  else CLIP_GRAD(double, ic_clip_f64(lo), ic_clip_f64(hi));
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0}, {"Min", IC_SLOT_OPTIONAL}, {"Max", IC_SLOT_OPTIONAL}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_clip_grad = {
    .name = "clip_grad", .n_inputs = 4, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(clip_attrs), .parse = parse, .infer = infer, .cpu = run,
};
