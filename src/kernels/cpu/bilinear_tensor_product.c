/* bilinear_tensor_product: Out[b, s] = sum over i, j of X[b, i] Weight[s, i, j] Y[b, j]
 * (+ Bias[0, s]) for X [B, M], Y [B, N], Weight [S, M, N], Bias [1, S] (optional), float32
 * or float64. As Paddle's kernel: per s one GEMM X @ Weight[s] ([B, N]), then the row sums of
 * its product with Y (here in order, in the dtype; Paddle's Eigen sum is a tree)
 * (paddle/phi/kernels/impl/bilinear_kernel_impl.h, BilinearInferMeta). */
#include <string.h>

#include "kernels/cpu/gemm.h"

enum { IN_X, IN_Y, IN_W, IN_BIAS };
static const ic_slotdef k_inputs[4] = {
    {"X", 0}, {"Y", 0}, {"Weight", 0}, {"Bias", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *w = ic_in(c, IN_W, 0),
                  *b = ic_in(c, IN_BIAS, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 ([batch, M])");
  if (y->dtype != x->dtype || y->ndim != 2 || y->dims[0] != x->dims[0]) {
    return ic_kfail_in(c, IN_Y, 0, "expected %s[%lld, N] (X's dtype and batch)",
                       ic_dtype_name(x->dtype), (long long)x->dims[0]);
  }
  if (w->dtype != x->dtype || w->ndim != 3 || w->dims[1] != x->dims[1] ||
      w->dims[2] != y->dims[1]) {
    return ic_kfail_in(c, IN_W, 0, "expected %s[S, %lld, %lld] (X's and Y's widths)",
                       ic_dtype_name(x->dtype), (long long)x->dims[1], (long long)y->dims[1]);
  }
  if (b && (b->dtype != x->dtype || b->ndim != 2 || b->dims[0] != 1 || b->dims[1] != w->dims[0])) {
    return ic_kfail_in(c, IN_BIAS, 0, "expected %s[1, %lld]", ic_dtype_name(x->dtype),
                       (long long)w->dims[0]);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 2, (int64_t[]){x->dims[0], w->dims[0]});
  return IC_OK;
}

#define ROWSUM(T)                                                                          \
  do {                                                                                     \
    const T *tp = tmp, *yp = y->data, *bp = b ? (const T *)b->data : NULL;                 \
    T *op = o->data;                                                                       \
    for (int64_t r = 0; r < B; r++) {                                                      \
      T acc = 0;                                                                           \
      for (int64_t j = 0; j < N; j++) acc += tp[r * N + j] * yp[r * N + j];                \
      op[r * S + s] = bp ? acc + bp[s] : acc;                                              \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *w = ic_in(c, IN_W, 0),
                  *b = ic_in(c, IN_BIAS, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t B = x->dims[0], M = x->dims[1], N = y->dims[1], S = w->dims[0];
  const size_t es = ic_dtype_size(x->dtype);
  if (B == 0 || S == 0) return IC_OK;
  ic_buffer *buf = ic_kscratch(c, (size_t)(B * N > 0 ? B * N : 1) * es);
  if (!buf) return c->err->code;
  void *tmp = buf->data;
  ic_gemm g = {.dtype = x->dtype, .m = B, .n = N, .k = M, .lda = M, .ldb = N, .ldc = N,
               .alpha = 1.0, .beta = 0.0};
  ic_status st = ic_gemm_check(c, &g);
  for (int64_t s = 0; !st && s < S; s++) {
    if (M == 0) {
      memset(tmp, 0, (size_t)(B * N) * es);
    } else {
      ic_gemm_run(c, &g, x->data, (const char *)w->data + (size_t)(s * M * N) * es, tmp);
    }
    if (x->dtype == IC_FP32) ROWSUM(float);
    else ROWSUM(double);
  }
  ic_buffer_release(buf);
  return st;
}

const ic_opdef ic_op_bilinear_tensor_product = {
    .name = "bilinear_tensor_product", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
