/* crop (fluid.layers.crop, the first crop op; paddle/fluid/operators/crop_op.h): Out = the
 * block of X starting at `offsets` (the attribute, or the int32 tensor Offsets: not both)
 * with the shape of Y when Y is given, else the `shape` attribute, whose first entry may be
 * -1 (X's first dim). X of rank 1 to 6, any dtype (values are only moved); a block reaching
 * past X is refused. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_Y, IN_OFFSETS };

typedef struct crop_attrs {
  const int64_t *shape, *offsets;
  size_t n_shape, n_offsets;
} crop_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  crop_attrs *a = attrs;
  ic_ar_ints(r, "shape", false, &a->shape, &a->n_shape);
  ic_ar_ints(r, "offsets", false, &a->offsets, &a->n_offsets);
  return r->st;
}

/* The output dims and offsets, checked against X. */
static ic_status geometry(ic_kctx *c, int64_t *dims, int64_t *off) {
  const crop_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *ot = ic_in(c, IN_OFFSETS, 0);
  const int rank = x->ndim;
  if (rank < 1 || rank > 6) return ic_kfail_in(c, IN_X, 0, "expected rank 1 to 6");
  if (y) {
    if (y->ndim != rank) return ic_kfail_in(c, IN_Y, 0, "expected rank %d like X", rank);
    memcpy(dims, y->dims, sizeof(int64_t) * (size_t)rank);
  } else {
    if (a->n_shape != (size_t)rank) {
      return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                      "attribute 'shape' has %zu values, expected one per dim of X (%d)",
                      a->n_shape, rank);
    }
    for (int i = 0; i < rank; i++) dims[i] = a->shape[i] == -1 && i == 0 ? x->dims[0] : a->shape[i];
  }
  if (ot) {
    if (a->n_offsets) {
      return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                      "input Offsets and attribute 'offsets' are both given; expected one");
    }
    if (ot->dtype != IC_INT32 || ot->ndim != 1 || ot->dims[0] != rank) {
      return ic_kfail_in(c, IN_OFFSETS, 0, "expected int32[%d] (one offset per dim of X)", rank);
    }
    if (!ot->data) return IC_OK; /* values at run time */
    for (int i = 0; i < rank; i++) off[i] = ((const int32_t *)ot->data)[i];
  } else {
    if (a->n_offsets != (size_t)rank) {
      return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                      "attribute 'offsets' has %zu values, expected one per dim of X (%d)",
                      a->n_offsets, rank);
    }
    for (int i = 0; i < rank; i++) off[i] = a->offsets[i];
  }
  for (int i = 0; i < rank; i++) {
    if (dims[i] < 0 || off[i] < 0 || off[i] + dims[i] > x->dims[i]) {
      return ic_kfail_in(c, IN_X, 0, "cannot give a block of %lld from offset %lld along dim "
                                     "%d: expected offset + size within %lld",
                         (long long)dims[i], (long long)off[i], i, (long long)x->dims[i]);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  int64_t dims[IC_MAX_RANK], off[IC_MAX_RANK] = {0};
  if (geometry(c, dims, off)) return c->err->code;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t dims[IC_MAX_RANK], off[IC_MAX_RANK] = {0};
  if (geometry(c, dims, off)) return c->err->code;
  const int rank = x->ndim;
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t n = ic_tensor_numel_(o);
  if (!n) return IC_OK;
  int64_t xs[IC_MAX_RANK], s = 1;
  for (int i = rank - 1; i >= 0; i--) xs[i] = s, s *= x->dims[i];
  const int64_t row = dims[rank - 1]; /* contiguous along the last dim */
  int64_t idx[IC_MAX_RANK] = {0};
  char *dst = o->data;
  for (int64_t k = 0; k < n; k += row) {
    int64_t src = 0;
    for (int i = 0; i < rank; i++) src += (idx[i] + off[i]) * xs[i];
    memcpy(dst + (size_t)k * es, (const char *)x->data + (size_t)src * es, (size_t)row * es);
    for (int i = rank - 2; i >= 0; i--) {
      if (++idx[i] < dims[i]) break;
      idx[i] = 0;
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0}, {"Y", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER}, {"Offsets", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_crop = {
    .name = "crop", .n_inputs = 3, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(crop_attrs), .parse = parse, .infer = infer, .cpu = run,
};
