/* relu_grad: X@GRAD = Out@GRAD * (Out > 0), as phi ReluGradFunctor computes it from Out (so a
 * NaN or Inf gradient where Out <= 0 gives NaN, as in Paddle). */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *o = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (g->dtype != o->dtype || !ic_dims_equal(g->ndim, g->dims, o->ndim, o->dims)) {
    char d[128];
    return ic_kfail_in(c, 1, 0, "expected %s like Out", ic_tensor_describe(o, d, sizeof d));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), o->dtype, o->ndim, o->dims);
  return IC_OK;
}

/* `omp simd` (the build has -fopenmp) makes GCC vectorize these loops at -O2, the factor
 * becoming a vector select: as scalar code the condition was a branch on the data,
 * mispredicted for about half of the elements (13% of a LeNet training step in
 * bench/train_peers.py). Every element is computed as before. */
static ic_status run(ic_kctx *c) {
  const ic_tensor *o = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int64_t n = ic_tensor_numel_(dx);
  if (dx->dtype == IC_FP32) {
    const float *restrict op = o->data, *restrict gp = g->data;
    float *restrict p = dx->data;
#pragma omp simd
    for (int64_t i = 0; i < n; i++) {
      const float m = op[i] > 0 ? 1.0f : 0.0f;
      p[i] = gp[i] * m;
    }
  } else {
    const double *restrict op = o->data, *restrict gp = g->data;
    double *restrict p = dx->data;
#pragma omp simd
    for (int64_t i = 0; i < n; i++) {
      const double m = op[i] > 0 ? 1.0 : 0.0;
      p[i] = gp[i] * m;
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Out", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_relu_grad = {
    .name = "relu_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
