/* equal_all: Out (bool, 0-D) is whether X and Y have the same dims and equal elements (a NaN
 * equals nothing); false for different dims. X and Y of one dtype: bool, int32, int64,
 * float32, float64 (paddle/phi/kernels/impl/compare_kernel_impl.h EqualAllKernel,
 * CompareAllInferMeta). */
#include <string.h>

#include "kernels/kernel.h"

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM | IC_DT(IC_BOOL));
  if (st) return st;
  if (ic_in(c, 1, 0)->dtype != ic_in(c, 0, 0)->dtype) {
    return ic_kfail_in(c, 1, 0, "expected the dtype of X '%s'", ic_in_name(c, 0, 0));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_BOOL, 0, NULL);
  return IC_OK;
}

#define ALL_EQ(T)                                                                       \
  do {                                                                                  \
    const T *xp = x->data, *yp = y->data;                                               \
    for (int64_t i = 0; i < n && eq; i++) eq = xp[i] == yp[i];                          \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  bool eq = ic_dims_equal(x->ndim, x->dims, y->ndim, y->dims);
  int64_t n = ic_numel(x->ndim, x->dims);
  if (eq) {
    switch (x->dtype) {
      case IC_FP32: ALL_EQ(float); break;
      case IC_FP64: ALL_EQ(double); break;
      case IC_INT32: ALL_EQ(int32_t); break;
      case IC_INT64: ALL_EQ(int64_t); break;
      default: {
        const uint8_t *xp = x->data, *yp = y->data;
        for (int64_t i = 0; i < n && eq; i++) eq = (xp[i] != 0) == (yp[i] != 0);
        break;
      }
    }
  }
  *(uint8_t *)ic_out(c, 0, 0)->data = eq;
  return IC_OK;
}

const ic_opdef ic_op_equal_all = {
    .name = "equal_all", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
