/* reduce_as_grad: x@GRAD = out@GRAD (target's dims) broadcast back to x's dims: each element
 * of x gets the gradient of the sum it went into (reduce_as.c's axes: x's leading axes
 * beyond target's rank, and the axes where target has 1 and x does not). out@GRAD has
 * reduce_as's output dtype, which for float32, float64, int8, uint8, int16, int64, complex64
 * and complex128 x is x's own; bool and int32 x (whose sums are int64) are refused. Slots
 * out@GRAD, target, x -> x@GRAD as Paddle 3.3.1 writes them. */
#include <string.h>

#include "kernels/kernel.h"

#define RAG_DTYPES                                                                         \
  (IC_DT(IC_INT8) | IC_DT(IC_UINT8) | IC_DT(IC_INT16) | IC_DT(IC_INT64) | IC_DT(IC_FP32) |    \
   IC_DT(IC_FP64) | IC_DT(IC_COMPLEX64) | IC_DT(IC_COMPLEX128))

/* For each axis of x, the step in out@GRAD of one step along it (0: broadcast). */
static ic_status plan(ic_kctx *c, int64_t gstride[IC_MAX_RANK]) {
  const ic_tensor *g = ic_in(c, 0, 0), *t = ic_in(c, 1, 0), *x = ic_in(c, 2, 0);
  if (t->ndim > x->ndim) {
    return ic_kfail_in(c, 1, 0, "has rank %d, expected at most x's rank %d", t->ndim, x->ndim);
  }
  if (!ic_dims_equal(g->ndim, g->dims, t->ndim, t->dims)) {
    return ic_kfail_in(c, 0, 0, "expected target's dims");
  }
  const int diff = x->ndim - t->ndim;
  int64_t s = 1;
  for (int k = x->ndim - 1; k >= 0; k--) {
    if (k < diff) {
      gstride[k] = 0;
      continue;
    }
    const int64_t td = t->dims[k - diff];
    if (td == 1 && x->dims[k] != 1) {
      gstride[k] = 0;
    } else if (td != x->dims[k]) {
      return ic_kfail_in(c, 1, 0, "has dim %d = %lld, x's dim %d is %lld (expected equal, "
                         "or 1 in target)", k - diff, (long long)td, k, (long long)x->dims[k]);
    } else {
      gstride[k] = s;
    }
    s *= td;
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, 0, 0), *x = ic_in(c, 2, 0);
  ic_status st = ic_kcheck_dtype(c, 2, 0, RAG_DTYPES);
  if (st) return st;
  if (g->dtype != x->dtype) return ic_kfail_in(c, 0, 0, "expected x's dtype");
  int64_t gs[IC_MAX_RANK];
  if ((st = plan(c, gs))) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, 0, 0), *x = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int64_t gs[IC_MAX_RANK];
  ic_status st = plan(c, gs);
  if (st) return st;
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t n = ic_numel(x->ndim, x->dims);
  int64_t idx[IC_MAX_RANK] = {0}, off = 0;
  for (int64_t i = 0; i < n; i++) {
    memcpy((char *)dx->data + es * (size_t)i, (const char *)g->data + es * (size_t)off, es);
    for (int k = x->ndim - 1; k >= 0; k--) {
      off += gs[k];
      if (++idx[k] < x->dims[k]) break;
      off -= gs[k] * x->dims[k];
      idx[k] = 0;
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"out@GRAD", 0}, {"target", IC_SLOT_NO_BUFFER}, {"x", IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"x@GRAD", 0}};

const ic_opdef ic_op_reduce_as_grad = {
    .name = "reduce_as_grad", .n_inputs = 3, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run,
};
