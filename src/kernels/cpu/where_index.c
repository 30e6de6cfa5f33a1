/* where_index (paddle.nonzero): Out int64 [K, rank] holds, row by row in row-major order,
 * the coordinates of the K elements of Condition that are nonzero (bool true; a float NaN
 * counts, -0.0 does not). Condition of any dtype and rank >= 1; K is known only at run time, so
 * Out is a dynamic output (paddle/phi/kernels/cpu/nonzero_kernel.cc, WhereIndexInferMeta). */
#include <string.h>

#include "kernels/kernel.h"

static const ic_slotdef k_inputs[1] = {{"Condition", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", IC_SLOT_DYNAMIC}};

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  if (ic_dtype_size(x->dtype) == 0) return ic_kfail_in(c, 0, 0, "expected a numeric dtype");
  if (x->ndim < 1) return ic_kfail_in(c, 0, 0, "expected rank >= 1");
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_INT64, 2, (int64_t[]){0, x->ndim});
  return IC_OK;
}

/* Whether element i of t is nonzero. */
static bool nonzero_at(const ic_tensor *t, int64_t i) {
  switch (t->dtype) {
    case IC_BOOL:
    case IC_UINT8:
    case IC_INT8: return ((const uint8_t *)t->data)[i] != 0;
    case IC_INT16: return ((const int16_t *)t->data)[i] != 0;
    case IC_FP16:
    case IC_BF16: return (((const uint16_t *)t->data)[i] & 0x7fffu) != 0;
    case IC_INT32: return ((const int32_t *)t->data)[i] != 0;
    case IC_INT64: return ((const int64_t *)t->data)[i] != 0;
    case IC_FP32: return ((const float *)t->data)[i] != 0.0f;
    case IC_FP64: return ((const double *)t->data)[i] != 0.0;
    case IC_COMPLEX64:
      return ((const float *)t->data)[2 * i] != 0.0f || ((const float *)t->data)[2 * i + 1] != 0.0f;
    case IC_COMPLEX128:
      return ((const double *)t->data)[2 * i] != 0.0 || ((const double *)t->data)[2 * i + 1] != 0.0;
  }
  return false;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  const int rank = x->ndim;
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++) k += nonzero_at(x, i);
  ic_status st = ic_kalloc_out(c, 0, 0, IC_INT64, 2, (int64_t[]){k, rank});
  if (!st) st = ic_kset_lod(c, ic_out(c, 0, 0), NULL, false); /* rows are not Condition's */
  if (st || k == 0) return st;
  int64_t *o = ic_out(c, 0, 0)->data;
  int64_t idx[IC_MAX_RANK] = {0};
  for (int64_t i = 0; i < n; i++) {
    if (nonzero_at(x, i)) {
      memcpy(o, idx, (size_t)rank * sizeof *o);
      o += rank;
    }
    for (int d = rank - 1; d >= 0; d--) {
      if (++idx[d] < x->dims[d]) break;
      idx[d] = 0;
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_where_index = {
    .name = "where_index", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
    .flags = IC_OP_LOD, /* Out has no LoD, even when its row count is Condition's */
};
