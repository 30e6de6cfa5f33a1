/* kron: the Kronecker product. X and Y are padded with leading 1s to one rank R; Out has dims
 * X[i] * Y[i] and Out[(i_k * Y[k] + j_k)_k] = X[i] * Y[j] (paddle/phi/kernels/impl/
 * kron_kernel_impl.h, KronInferMeta). float32, float64, int32, int64, of one dtype. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st) return st;
  if (y->dtype != x->dtype) return ic_kfail_in(c, 1, 0, "expected X's dtype");
  const int R = x->ndim > y->ndim ? x->ndim : y->ndim;
  int64_t d[IC_MAX_RANK];
  for (int i = 0; i < R; i++) {
    const int ix = i - (R - x->ndim), iy = i - (R - y->ndim);
    d[i] = (ix >= 0 ? x->dims[ix] : 1) * (iy >= 0 ? y->dims[iy] : 1);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, R, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int R = o->ndim;
  int64_t xd[IC_MAX_RANK], yd[IC_MAX_RANK], idx[IC_MAX_RANK] = {0};
  for (int i = 0; i < R; i++) {
    const int ix = i - (R - x->ndim), iy = i - (R - y->ndim);
    xd[i] = ix >= 0 ? x->dims[ix] : 1;
    yd[i] = iy >= 0 ? y->dims[iy] : 1;
  }
  const int64_t n = ic_tensor_numel_(o);
  for (int64_t k = 0; k < n; k++) {
    int64_t xi = 0, yi = 0;
    for (int i = 0; i < R; i++) {
      xi = xi * xd[i] + idx[i] / yd[i];
      yi = yi * yd[i] + idx[i] % yd[i];
    }
    switch (x->dtype) {
      case IC_FP32:
        ((float *)o->data)[k] = ((const float *)x->data)[xi] * ((const float *)y->data)[yi];
        break;
      case IC_FP64:
        ((double *)o->data)[k] = ((const double *)x->data)[xi] * ((const double *)y->data)[yi];
        break;
      case IC_INT32:
        ((int32_t *)o->data)[k] = (int32_t)((uint32_t)((const int32_t *)x->data)[xi] *
                                            (uint32_t)((const int32_t *)y->data)[yi]);
        break;
      default:
        ((int64_t *)o->data)[k] = (int64_t)((uint64_t)((const int64_t *)x->data)[xi] *
                                            (uint64_t)((const int64_t *)y->data)[yi]);
        break;
    }
    for (int i = R - 1; i >= 0; i--) {
      if (++idx[i] < o->dims[i]) break;
      idx[i] = 0;
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_kron = {
    .name = "kron", .n_inputs = 2, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
