/* fill_diagonal: Out = X with `value` (float, cast to X's dtype) written on the diagonal
 * shifted by `offset` (columns; positions that the shift would move off their row are left),
 * as Paddle walks it: X of rank 2, or of higher rank with all dims equal; positions i = 0,
 * s, 2s, ... of the flat X with s the sum of X's strides, up to min(numel, cols^2) unless
 * `wrap` (a tall matrix then restarts the diagonal every cols + 1 rows). float32, float64,
 * int32, int64, int8, uint8 and bool (paddle/phi/kernels/cpu/fill_diagonal_kernel.cc,
 * FillDiagonalInferMeta). */
#include <string.h>

#include "kernels/kernel.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

typedef struct fill_diag_attrs {
  float value;
  int64_t offset;
  bool wrap;
} fill_diag_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fill_diag_attrs *a = attrs;
  a->value = (float)ic_ar_float(r, "value", 0.0);
  a->offset = ic_ar_int(r, "offset", 0);
  a->wrap = ic_ar_bool(r, "wrap", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0,
                                 IC_DT_NUM | IC_DT(IC_INT8) | IC_DT(IC_UINT8) | IC_DT(IC_BOOL));
  if (st) return st;
  if (x->ndim < 2) return ic_kfail_in(c, 0, 0, "expected rank >= 2");
  for (int d = 1; d < x->ndim && x->ndim > 2; d++) {
    if (x->dims[d] != x->dims[0]) {
      return ic_kfail_in(c, 0, 0, "expected all dims equal (rank > 2)");
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const fill_diag_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const size_t es = ic_dtype_size(x->dtype);
  int64_t size = ic_tensor_numel_(x);
  if (o->data != x->data) memcpy(o->data, x->data, (size_t)size * es);
  int64_t stride = 0, prod = 1;
  for (int d = x->ndim - 1; d >= 0; d--) {
    stride += prod;
    prod *= x->dims[d];
  }
  const int64_t cols = x->dims[1];
  if (!a->wrap && cols * cols < size) size = cols * cols;
  for (int64_t i = 0; i < size; i += stride) {
    const int64_t col = i % cols + a->offset;
    if (col < 0 || col >= cols) continue;
    const int64_t p = i + a->offset;
    switch (x->dtype) {
      case IC_FP32: ((float *)o->data)[p] = a->value; break;
      case IC_FP64: ((double *)o->data)[p] = (double)a->value; break;
      case IC_INT32: ((int32_t *)o->data)[p] = (int32_t)a->value; break;
      case IC_INT64: ((int64_t *)o->data)[p] = (int64_t)a->value; break;
      case IC_INT8: ((int8_t *)o->data)[p] = (int8_t)a->value; break;
      case IC_UINT8: ((uint8_t *)o->data)[p] = (uint8_t)a->value; break;
      default: ((uint8_t *)o->data)[p] = a->value != 0.0f; break;
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_fill_diagonal = {
    .name = "fill_diagonal", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(fill_diag_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
