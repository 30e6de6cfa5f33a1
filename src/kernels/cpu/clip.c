/* clip: Out = min(max(X, min), max), a NaN stays NaN. Inputs Min and Max (one element
 * each), when present, replace the float attributes `min` and `max` (Paddle writes
 * -FLT_MAX / FLT_MAX for a bound given as a tensor). As in
 * paddle/phi/kernels/impl/clip_kernel_impl.h the bounds are converted to X's dtype first
 * (an int32 X clipped at 1.5 is clipped at 1) and min > max is an error. */
#include <stdio.h>

#include "kernels/cpu/clip.h"

static bool slot_used(const ic_op *op, const char *name) {
  const ic_slot *s = ic_op_input(op, name);
  return s && s->n > 0;
}

static ic_status parse(ic_attr_reader *r, void *attrs) {
  clip_attrs *a = attrs;
  bool tmin = slot_used(r->op, "Min"), tmax = slot_used(r->op, "Max");
  /* A bound is required unless its tensor is given. */
  a->min = tmin ? ic_ar_float(r, "min", 0.0) : ic_ar_float_req(r, "min");
  a->max = tmax ? ic_ar_float(r, "max", 0.0) : ic_ar_float_req(r, "max");
  if (!r->st && !tmin && !tmax && (float)a->min > (float)a->max) {
    ic_ar_fail(r, "min", "is %g, greater than attribute 'max' %g", a->min, a->max);
  }
  return r->st;
}

enum { IN_X = IC_CLIP_X, IN_MIN = IC_CLIP_MIN, IN_MAX = IC_CLIP_MAX };

static ic_status infer(ic_kctx *c) { return ic_infer_x_with_scalars(c, IN_MIN, IN_MAX); }

static ic_fill_scalar bound(const ic_kctx *c, size_t s, double attr) {
  const ic_tensor *t = ic_in(c, s, 0);
  return t ? ic_fill_scalar_of(t) : ic_clip_attr_bound(attr);
}

/* "input Min 'lo'" or "attribute 'min'", for messages. */
static const char *source(const ic_kctx *c, size_t s, char *buf, size_t len) {
  if (ic_in(c, s, 0)) {
    snprintf(buf, len, "input %s '%s'", c->def->inputs[s].name, ic_in_name(c, s, 0));
  } else {
    snprintf(buf, len, "attribute '%s'", s == IN_MIN ? "min" : "max");
  }
  return buf;
}

static ic_status bad_bounds(ic_kctx *c, double lo, double hi) {
  char smin[160], smax[160];
  return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "min %g (%s) is greater than max %g (%s)", lo,
                  source(c, IN_MIN, smin, sizeof smin), hi, source(c, IN_MAX, smax, sizeof smax));
}

#define CLIP_LOOP(T, LO, HI)                                                               \
  do {                                                                                     \
    const T lo_ = (LO), hi_ = (HI);                                                        \
    if (lo_ > hi_) return bad_bounds(c, (double)lo_, (double)hi_);                         \
    const T *restrict xp = x->data;                                                        \
    T *restrict op = o->data;                                                              \
    for (int64_t i = 0; i < n; i++) op[i] = xp[i] < lo_ ? lo_ : xp[i] > hi_ ? hi_ : xp[i]; \
  } while (0)

static ic_status run(ic_kctx *c) {
  const clip_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  ic_fill_scalar lo = bound(c, IN_MIN, a->min), hi = bound(c, IN_MAX, a->max);
  switch (x->dtype) {
    case IC_FP32: CLIP_LOOP(float, ic_clip_f32(lo), ic_clip_f32(hi)); break;
    case IC_FP64: CLIP_LOOP(double, ic_clip_f64(lo), ic_clip_f64(hi)); break;
    case IC_INT32: CLIP_LOOP(int32_t, ic_clip_i32(lo), ic_clip_i32(hi)); break;
    default: CLIP_LOOP(int64_t, ic_clip_i64(lo), ic_clip_i64(hi)); break;
  }
  return IC_OK;
}

/* The bounds' check of CLIP_LOOP alone. */
#define CHECK_BOUNDS(T, LO, HI)                                                            \
  do {                                                                                     \
    const T lo_ = (LO), hi_ = (HI);                                                        \
    if (lo_ > hi_) return bad_bounds(c, (double)lo_, (double)hi_);                         \
  } while (0)

ic_status ic_clip_check_attr_bounds(ic_kctx *c) {
  const clip_attrs *a = c->attrs;
  if (ic_in(c, IN_MIN, 0) || ic_in(c, IN_MAX, 0)) return IC_OK;
  ic_fill_scalar lo = ic_clip_attr_bound(a->min), hi = ic_clip_attr_bound(a->max);
  switch (ic_in(c, IN_X, 0)->dtype) {
    case IC_FP32: CHECK_BOUNDS(float, ic_clip_f32(lo), ic_clip_f32(hi)); break;
    case IC_FP64: CHECK_BOUNDS(double, ic_clip_f64(lo), ic_clip_f64(hi)); break;
    case IC_INT32: CHECK_BOUNDS(int32_t, ic_clip_i32(lo), ic_clip_i32(hi)); break;
    default: CHECK_BOUNDS(int64_t, ic_clip_i64(lo), ic_clip_i64(hi)); break;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0}, {"Min", IC_SLOT_OPTIONAL}, {"Max", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_clip = {
    .name = "clip",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(clip_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
