/* fsp: the flow of solution procedure matrix of two feature maps (knowledge distillation;
 * paddle/fluid/operators/fsp_op.h, Paddle 2.x): X [N, C1, H, W] and Y [N, C2, H, W] of one
 * dtype give Out [N, C1, C2] with Out[n, i, j] = sum over h, w of X[n, i, h, w] Y[n, j, h, w],
 * divided by H * W. float32 and float64; sums in double, rounded once. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4 (NCHW)");
  if (y->dtype != x->dtype || y->ndim != 4 || y->dims[0] != x->dims[0] ||
      y->dims[2] != x->dims[2] || y->dims[3] != x->dims[3]) {
    return ic_kfail_in(c, 1, 0, "expected rank 4 of X's dtype with X's batch, height and "
                       "width (%lld, %lld, %lld)", (long long)x->dims[0], (long long)x->dims[2],
                       (long long)x->dims[3]);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 3,
                     (int64_t[]){x->dims[0], x->dims[1], y->dims[1]});
  return IC_OK;
}

#define FSP(T)                                                                 \
  do {                                                                         \
    const T *xp = x->data, *yp = y->data;                                      \
    T *op = o->data;                                                           \
    for (int64_t b = 0; b < n; b++) {                                          \
      for (int64_t i = 0; i < c1; i++) {                                       \
        const T *xr = xp + (b * c1 + i) * hw;                                  \
        for (int64_t j = 0; j < c2; j++) {                                     \
          const T *yr = yp + (b * c2 + j) * hw;                                \
          double s = 0;                                                        \
          for (int64_t k = 0; k < hw; k++) s += (double)xr[k] * (double)yr[k]; \
          op[(b * c1 + i) * c2 + j] = (T)(s / (double)hw);                     \
        }                                                                      \
      }                                                                        \
    }                                                                          \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = x->dims[0], c1 = x->dims[1], c2 = y->dims[1], hw = x->dims[2] * x->dims[3];
  if (x->dtype == IC_FP32) FSP(float);
  else FSP(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_fsp = {
    .name = "fsp", .n_inputs = 2, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
