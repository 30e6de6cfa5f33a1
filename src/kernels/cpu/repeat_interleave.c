/* repeat_interleave: each slice of X along `dim` (default 0, negative from the end) repeated
 * in place: `Repeats` times each (attribute, at least 0), or RepeatsTensor[i] times slice i
 * when that 1-D int32/int64 tensor is given (one nonnegative count per slice of the axis; it
 * wins over the attribute). Out has X's dims with the axis dim the total count; any dtype.
 * output_size is accepted and unused (paddle/phi/kernels/impl/repeat_interleave_kernel_impl.h,
 * RepeatInterleaveInferMeta, RepeatInterleaveWithTensorIndexInferMeta). */
#include <string.h>

#include "kernels/kernel.h"

typedef struct repeat_interleave_attrs {
  int64_t repeats, dim;
} repeat_interleave_attrs;

enum { IN_X, IN_REPEATS };
static const ic_slotdef k_inputs[2] = {{"X", 0},
                                       {"RepeatsTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  repeat_interleave_attrs *a = attrs;
  a->repeats = ic_ar_int(r, "Repeats", 0);
  a->dim = ic_ar_int(r, "dim", 0);
  return r->st;
}

/* The normalized axis and the total count along it, validating everything. */
static ic_status plan(ic_kctx *c, int *ax, int64_t *total) {
  const repeat_interleave_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *rt = ic_in(c, IN_REPEATS, 0);
  if (x->ndim == 0) return ic_kfail_in(c, IN_X, 0, "expected at least 1 dim");
  *ax = ic_kaxis(c, a->dim, x->ndim, "dim");
  if (*ax < 0) return c->err->code;
  int64_t len = x->dims[*ax];
  if (!rt) {
    if (a->repeats < 0) {
      return ic_kfail(c, IC_ERR_SHAPE, "attribute 'Repeats' is %lld, expected at least 0",
                      (long long)a->repeats);
    }
    *total = len * a->repeats;
    return IC_OK;
  }
  ic_status st = ic_kcheck_dtype(c, IN_REPEATS, 0, IC_DT_INT);
  if (st) return st;
  if (rt->ndim != 1 || rt->dims[0] != len) {
    return ic_kfail_in(c, IN_REPEATS, 0, "expected 1 dim of %lld, the size of axis %d of X '%s'",
                       (long long)len, *ax, ic_in_name(c, IN_X, 0));
  }
  *total = 0;
  for (int64_t i = 0; i < len; i++) {
    int64_t r = ic_read_i64(rt, i);
    if (r < 0) {
      return ic_kfail_in(c, IN_REPEATS, 0, "holds %lld at %lld, expected counts of at least 0",
                         (long long)r, (long long)i);
    }
    *total += r;
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  int ax;
  int64_t total;
  ic_status st = plan(c, &ax, &total);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)x->ndim);
  d[ax] = total;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const repeat_interleave_attrs *a = c->attrs;
  int ax;
  int64_t total;
  ic_status st = plan(c, &ax, &total);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *rt = ic_in(c, IN_REPEATS, 0);
  int64_t len = x->dims[ax], outer = ic_numel(ax, x->dims);
  size_t row = ic_dtype_size(x->dtype) * (size_t)ic_numel(x->ndim - ax - 1, x->dims + ax + 1);
  const char *xp = x->data;
  char *op = ic_out(c, 0, 0)->data;
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t i = 0; i < len; i++) {
      int64_t r = rt ? ic_read_i64(rt, i) : a->repeats;
      const char *src = xp + (size_t)(o * len + i) * row;
      for (int64_t k = 0; k < r; k++, op += row) memcpy(op, src, row);
    }
  }
  (void)total;
  return IC_OK;
}

const ic_opdef ic_op_repeat_interleave = {
    .name = "repeat_interleave", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(repeat_interleave_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
