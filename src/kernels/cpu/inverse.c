/* inverse: Output = the inverse of each square matrix in the last two dims of Input (rank
 * >= 2, dims [.., n, n]; a batch of them over the leading dims), as
 * paddle/phi/kernels/funcs/matrix_inverse.h: LU with partial pivoting (the largest magnitude
 * in the column), then the inverse from the factors; a singular matrix (a zero pivot: Paddle
 * checks the determinant is not 0) fails with "is not invertible". Factored and solved in
 * double for both float32 and float64, rounded once into Output (Eigen works in the dtype:
 * float32 results differ in the last bits). n 0 gives an empty Output. Used by TPS
 * rectification (PaddleOCR's STAR-Net/RARE recognisers: paddle.inverse). */
#include <math.h>
#include <string.h>

#include "kernels/cpu/lu.h"

static const ic_slotdef k_inputs[1] = {{"Input", 0}};
static const ic_slotdef k_outputs[1] = {{"Output", 0}};

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT(IC_FP32) | IC_DT(IC_FP64));
  if (st) return st;
  if (x->ndim < 2) return ic_kfail_in(c, 0, 0, "has rank %d, expected at least 2", x->ndim);
  if (x->dims[x->ndim - 1] != x->dims[x->ndim - 2]) {
    return ic_kfail_in(c, 0, 0, "its last two dims (%lld, %lld) are not a square matrix",
                       (long long)x->dims[x->ndim - 2], (long long)x->dims[x->ndim - 1]);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

bool ic_lu_invert(double *a, double *inv, int64_t *perm, int64_t n) {
  for (int64_t i = 0; i < n; i++) perm[i] = i;
  for (int64_t k = 0; k < n; k++) {
    int64_t p = k;
    double best = fabs(a[k * n + k]);
    for (int64_t i = k + 1; i < n; i++) {
      double v = fabs(a[i * n + k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    if (best == 0.0) return false;
    if (p != k) {
      for (int64_t j = 0; j < n; j++) {
        double t = a[k * n + j];
        a[k * n + j] = a[p * n + j];
        a[p * n + j] = t;
      }
      int64_t t = perm[k];
      perm[k] = perm[p];
      perm[p] = t;
    }
    const double d = a[k * n + k];
    for (int64_t i = k + 1; i < n; i++) {
      const double f = a[i * n + k] / d;
      a[i * n + k] = f;
      for (int64_t j = k + 1; j < n; j++) a[i * n + j] -= f * a[k * n + j];
    }
  }
  /* Column j of the inverse solves L U x = P e_j: forward then back substitution. */
  for (int64_t j = 0; j < n; j++) {
    for (int64_t i = 0; i < n; i++) {
      double s = perm[i] == j ? 1.0 : 0.0;
      for (int64_t k = 0; k < i; k++) s -= a[i * n + k] * inv[k * n + j];
      inv[i * n + j] = s;
    }
    for (int64_t i = n - 1; i >= 0; i--) {
      double s = inv[i * n + j];
      for (int64_t k = i + 1; k < n; k++) s -= a[i * n + k] * inv[k * n + j];
      inv[i * n + j] = s / a[i * n + i];
    }
  }
  return true;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = x->dims[x->ndim - 1], nn = n * n;
  if (nn == 0) return IC_OK;
  const int64_t batch = ic_tensor_numel_(x) / nn;
  ic_buffer *buf = ic_kscratch(c, (size_t)nn * 2 * sizeof(double) + (size_t)n * sizeof(int64_t));
  if (!buf) return c->err->code;
  double *a = buf->data, *inv = a + nn;
  int64_t *perm = (int64_t *)(inv + nn);
  ic_status st = IC_OK;
  for (int64_t b = 0; b < batch && !st; b++) {
    for (int64_t k = 0; k < nn; k++) {
      a[k] = x->dtype == IC_FP32 ? (double)((const float *)x->data)[b * nn + k]
                                 : ((const double *)x->data)[b * nn + k];
    }
    if (!ic_lu_invert(a, inv, perm, n)) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input Input '%s': matrix %lld of %lld is not invertible "
                    "(singular)", ic_in_name(c, 0, 0), (long long)b, (long long)batch);
      break;
    }
    for (int64_t k = 0; k < nn; k++) {
      if (o->dtype == IC_FP32) ((float *)o->data)[b * nn + k] = (float)inv[k];
      else ((double *)o->data)[b * nn + k] = inv[k];
    }
  }
  ic_buffer_release(buf);
  return st;
}

const ic_opdef ic_op_inverse = {
    .name = "inverse", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .infer = infer, .cpu = run,
};
