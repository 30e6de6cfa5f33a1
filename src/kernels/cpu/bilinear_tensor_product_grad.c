/* bilinear_tensor_product_grad: for Out[b, k] = X[b] W[k] Y[b]^T (+ Bias[0, k])
 * (bilinear_tensor_product: X [B, M], Y [B, N], Weight [K, M, N]), with G = Out@GRAD [B, K]
 * (phi BilinearGradKernel; each a double sum, rounded once):
 *   X@GRAD[b, i] = sum_k G[b, k] sum_j W[k, i, j] Y[b, j],
 *   Y@GRAD[b, j] = sum_k G[b, k] sum_i X[b, i] W[k, i, j],
 *   Weight@GRAD[k, i, j] = sum_b G[b, k] X[b, i] Y[b, j],  Bias@GRAD[0, k] = sum_b G[b, k],
 * each optional. Inputs X, Y, Weight, Out@GRAD; float32 and float64. */
#include "kernels/cpu/kgrad.h"

enum { IN_X, IN_Y, IN_W, IN_DOUT };
static const ic_slotdef k_inputs[4] = {{"X", 0}, {"Y", 0}, {"Weight", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[4] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                        {"Y@GRAD", IC_SLOT_OPTIONAL},
                                        {"Weight@GRAD", IC_SLOT_OPTIONAL},
                                        {"Bias@GRAD", IC_SLOT_OPTIONAL}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *w = ic_in(c, IN_W, 0);
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 [batch, M]");
  if (y->dtype != x->dtype || y->ndim != 2 || y->dims[0] != x->dims[0]) {
    return ic_kfail_in(c, IN_Y, 0, "expected %s[%lld, N] (X's dtype and batch)",
                       ic_dtype_name(x->dtype), (long long)x->dims[0]);
  }
  if (w->dtype != x->dtype || w->ndim != 3 || w->dims[1] != x->dims[1] ||
      w->dims[2] != y->dims[1]) {
    return ic_kfail_in(c, IN_W, 0, "expected %s[K, %lld, %lld]", ic_dtype_name(x->dtype),
                       (long long)x->dims[1], (long long)y->dims[1]);
  }
  const int64_t d[2] = {x->dims[0], w->dims[0]}, bd[2] = {1, w->dims[0]};
  if ((st = kg_expect(c, IN_DOUT, x->dtype, 2, d, "bilinear_tensor_product's Out"))) return st;
  kg_out(c, 0, x->dtype, 2, x->dims);
  kg_out(c, 1, x->dtype, 2, y->dims);
  kg_out(c, 2, x->dtype, 3, w->dims);
  kg_out(c, 3, x->dtype, 2, bd);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *w = ic_in(c, IN_W, 0),
                  *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0), *dw = ic_out(c, 2, 0),
            *db = ic_out(c, 3, 0);
  const int64_t B = x->dims[0], M = x->dims[1], N = y->dims[1], K = w->dims[0];
  if (dx) {
    for (int64_t b = 0; b < B; b++)
      for (int64_t i = 0; i < M; i++) {
        double s = 0;
        for (int64_t k = 0; k < K; k++) {
          double t = 0;
          for (int64_t j = 0; j < N; j++)
            t += kg_get(w, (k * M + i) * N + j) * kg_get(y, b * N + j);
          s += kg_get(g, b * K + k) * t;
        }
        kg_put(dx, b * M + i, s);
      }
  }
  if (dy) {
    for (int64_t b = 0; b < B; b++)
      for (int64_t j = 0; j < N; j++) {
        double s = 0;
        for (int64_t k = 0; k < K; k++) {
          double t = 0;
          for (int64_t i = 0; i < M; i++)
            t += kg_get(x, b * M + i) * kg_get(w, (k * M + i) * N + j);
          s += kg_get(g, b * K + k) * t;
        }
        kg_put(dy, b * N + j, s);
      }
  }
  if (dw) {
    for (int64_t k = 0; k < K; k++)
      for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
          double s = 0;
          for (int64_t b = 0; b < B; b++)
            s += kg_get(g, b * K + k) * kg_get(x, b * M + i) * kg_get(y, b * N + j);
          kg_put(dw, (k * M + i) * N + j, s);
        }
  }
  if (db) {
    for (int64_t k = 0; k < K; k++) {
      double s = 0;
      for (int64_t b = 0; b < B; b++) s += kg_get(g, b * K + k);
      kg_put(db, k, s);
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_bilinear_tensor_product_grad = {
    .name = "bilinear_tensor_product_grad", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 4,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
