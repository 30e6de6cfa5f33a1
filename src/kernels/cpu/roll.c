/* roll: Out = X rotated along axes: with shifts s and axes a (lists of one length), the
 * element at index i along axis a[k] moves to (i + s[k]) mod dims[a[k]]; an axis named twice
 * is rolled by the sum of its shifts. An empty axis list rolls the flattened tensor by its
 * single shift. The shifts come from input ShiftsTensor (int32/int64, all its elements) when
 * present, else from attribute shifts. Any dtype (paddle/phi/kernels/cpu/roll_kernel.cc,
 * RollInferMeta). */
#include <string.h>

#include "kernels/cpu/shapeops.h"

#define ROLL_MAX_SHIFTS 64

typedef struct roll_attrs {
  const int64_t *shifts, *axis;
  size_t n_shifts, n_axis;
} roll_attrs;

enum { IN_X, IN_SHIFTS };
static const ic_slotdef k_inputs[2] = {{"X", 0}, {"ShiftsTensor", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  roll_attrs *a = attrs;
  ic_ar_ints(r, "shifts", false, &a->shifts, &a->n_shifts);
  ic_ar_ints(r, "axis", false, &a->axis, &a->n_axis);
  if (a->n_axis > ROLL_MAX_SHIFTS) {
    ic_ar_fail(r, "axis", "has %zu entries, at most %d", a->n_axis, ROLL_MAX_SHIFTS);
  }
  return r->st;
}

/* Validate the shift count and the axes against X; *n receives the shift count. */
static ic_status check(ic_kctx *c, size_t *n) {
  const roll_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  const ic_tensor *st = ic_in(c, IN_SHIFTS, 0);
  if (st) {
    ic_status s = ic_kcheck_dtype(c, IN_SHIFTS, 0, IC_DT_INT);
    if (s) return s;
    if (st->ndim > 1) return ic_kfail_in(c, IN_SHIFTS, 0, "expected rank 1 (the shifts)");
    *n = (size_t)ic_tensor_numel_(st);
  } else {
    *n = a->n_shifts;
  }
  const char *src = st ? "input ShiftsTensor" : "attribute 'shifts'";
  if (a->n_axis == 0 && *n != 1) {
    return ic_kfail_in(c, IN_X, 0, "attribute 'axis' is empty (roll the flattened tensor), so "
                       "expected 1 shift, but %s holds %zu", src, *n);
  }
  if (a->n_axis != 0 && *n != a->n_axis) {
    return ic_kfail_in(c, IN_X, 0, "attribute 'axis' names %zu axes, but %s holds %zu shifts, "
                       "expected as many", a->n_axis, src, *n);
  }
  for (size_t k = 0; k < a->n_axis; k++) {
    if (ic_shapeops_axis(c, IN_X, a->axis[k], x->ndim, "attribute 'axis'") < 0) {
      return IC_ERR_SHAPE;
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  size_t n;
  ic_status st = check(c, &n);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const roll_attrs *a = c->attrs;
  size_t n;
  ic_status st = check(c, &n);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  const int64_t numel = ic_tensor_numel_(x);
  if (numel == 0) return IC_OK;
  int64_t shifts[ROLL_MAX_SHIFTS];
  if (ic_in(c, IN_SHIFTS, 0)) {
    st = ic_shapeops_read_ints(c, IN_SHIFTS, false, "shifts", shifts, ROLL_MAX_SHIFTS, &n);
    if (st) return st;
  } else if (n > ROLL_MAX_SHIFTS) {
    return ic_kfail_in(c, IN_X, 0, "attribute 'shifts' has %zu entries, at most %d", n,
                       ROLL_MAX_SHIFTS);
  } else {
    memcpy(shifts, a->shifts, n * sizeof *shifts);
  }
  /* The rolled tensor's dims (X's, or one dim for the flattened roll) and each dim's total
   * shift in [0, dim). */
  int rank = x->ndim;
  int64_t d[IC_MAX_RANK], s[IC_MAX_RANK] = {0};
  if (a->n_axis == 0) {
    rank = 1;
    d[0] = numel;
  } else {
    memcpy(d, x->dims, (size_t)rank * sizeof *d);
  }
  for (size_t k = 0; k < n; k++) {
    int ax = 0;
    if (a->n_axis) ax = (int)(a->axis[k] < 0 ? a->axis[k] + rank : a->axis[k]);
    int64_t r = shifts[k] % d[ax];
    s[ax] = (s[ax] + r + d[ax]) % d[ax];
  }
  const size_t es = ic_dtype_size(x->dtype);
  const char *src = x->data;
  char *dst = ic_out(c, 0, 0)->data;
  int last = -1;
  for (int k = 0; k < rank; k++) {
    if (s[k]) last = k;
  }
  if (last < 0) {
    memcpy(dst, src, (size_t)numel * es);
    return IC_OK;
  }
  /* Element strides of the rolled dims; every run of dims after `last` moves whole. */
  int64_t stride[IC_MAX_RANK];
  stride[rank - 1] = 1;
  for (int k = rank - 2; k >= 0; k--) stride[k] = stride[k + 1] * d[k + 1];
  const size_t blk = (size_t)stride[last] * es; /* one index of axis `last` */
  const int64_t len = d[last], sl = s[last];
  const int64_t rows = ic_numel(last, d);
  int64_t idx[IC_MAX_RANK] = {0};
  for (int64_t r = 0; r < rows; r++) {
    /* the source row: index idx[k] of the output came from (idx[k] - s[k]) mod d[k] */
    int64_t off = 0;
    for (int k = 0; k < last; k++) {
      int64_t i = idx[k] - s[k];
      off += (i < 0 ? i + d[k] : i) * stride[k];
    }
    const char *in = src + (size_t)off * es;
    char *out = dst + (size_t)(r * len) * blk;
    /* out[sl .. len) = in[0 .. len - sl), out[0 .. sl) = in[len - sl .. len) */
    memcpy(out + (size_t)sl * blk, in, (size_t)(len - sl) * blk);
    memcpy(out, in + (size_t)(len - sl) * blk, (size_t)sl * blk);
    for (int k = last - 1; k >= 0; k--) {
      if (++idx[k] < d[k]) break;
      idx[k] = 0;
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_roll = {
    .name = "roll", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(roll_attrs), .parse = parse, .infer = infer, .cpu = run,
};
