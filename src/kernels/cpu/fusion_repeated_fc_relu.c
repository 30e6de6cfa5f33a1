/* fusion_repeated_fc_relu (Paddle's phi FusionRepeatedFCReluKernel, written by
 * repeated_fc_relu_fuse_pass): a chain of fc + relu layers,
 *   h_0 = X [M, K],  h_i = relu(h_{i-1} W_i + Bias_i),
 * with ReluOut holding the hidden h_1 .. h_{n-1} ([M, N_i]) and Out the last one. W holds n >= 2
 * matrices [K_i, N_i] (K_i = N_{i-1}), Bias n tensors of N_i elements. float32 or float64. */
#include "kernels/cpu/gemm.h"
#include "kernels/kernel.h"

enum { IN_X, IN_W, IN_BIAS };
enum { OUT_RELU, OUT_OUT };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const size_t n = c->in[IN_W].n;
  if (n < 2) {
    return ic_kfail(c, IC_ERR_SHAPE, "input W has %zu weights, expected at least 2", n);
  }
  if (c->in[IN_BIAS].n != n || c->out[OUT_RELU].n != n - 1) {
    return ic_kfail(c, IC_ERR_SHAPE,
                    "input Bias has %zu tensors and output ReluOut %zu, expected %zu and %zu "
                    "(one per weight, one per hidden layer)",
                    c->in[IN_BIAS].n, c->out[OUT_RELU].n, n, n - 1);
  }
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 [M, K]");
  int64_t k = x->dims[1];
  for (size_t i = 0; i < n; i++) {
    const ic_tensor *w = ic_in(c, IN_W, i), *b = ic_in(c, IN_BIAS, i);
    if (w->dtype != x->dtype) {
      return ic_kfail_in(c, IN_W, i, "expected the dtype of X (%s)", ic_dtype_name(x->dtype));
    }
    if (w->ndim != 2 || w->dims[0] != k) {
      return ic_kfail_in(c, IN_W, i, "expected rank 2 [%lld, N] (the width of the layer before)",
                         (long long)k);
    }
    if (b->dtype != x->dtype || ic_tensor_numel_(b) != w->dims[1]) {
      return ic_kfail_in(c, IN_BIAS, i, "expected %s with %lld elements (W's columns)",
                         ic_dtype_name(x->dtype), (long long)w->dims[1]);
    }
    k = w->dims[1];
    const int64_t dims[2] = {x->dims[0], k};
    ic_tensor *o = i + 1 < n ? ic_out(c, OUT_RELU, i) : ic_out(c, OUT_OUT, 0);
    ic_tensor_set_meta(o, x->dtype, 2, dims);
  }
  return IC_OK;
}

#define BIAS_RELU(T)                                                                     \
  do {                                                                                   \
    T *o = out->data;                                                                    \
    const T *bb = b->data;                                                               \
    for (int64_t r = 0; r < M; r++) {                                                    \
      for (int64_t j = 0; j < N; j++) {                                                  \
        const T v = o[r * N + j] + bb[j];                                                \
        o[r * N + j] = v > (T)0 ? v : (T)0;                                              \
      }                                                                                  \
    }                                                                                    \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *in = ic_in(c, IN_X, 0);
  const size_t n = c->in[IN_W].n;
  const int64_t M = in->dims[0];
  for (size_t i = 0; i < n; i++) {
    const ic_tensor *w = ic_in(c, IN_W, i), *b = ic_in(c, IN_BIAS, i);
    ic_tensor *out = i + 1 < n ? ic_out(c, OUT_RELU, i) : ic_out(c, OUT_OUT, 0);
    const int64_t K = w->dims[0], N = w->dims[1];
    ic_gemm g = {.dtype = in->dtype, .m = M, .n = N, .k = K, .lda = K, .ldb = N, .ldc = N,
                 .alpha = 1.0};
    ic_status st = ic_gemm_check(c, &g);
    if (st) return st;
    ic_gemm_run(c, &g, in->data, w->data, out->data);
    if (in->dtype == IC_FP64) BIAS_RELU(double);
    else BIAS_RELU(float);
    in = out;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0}, {"W", IC_SLOT_MULTI}, {"Bias", IC_SLOT_MULTI}};
static const ic_slotdef outputs[] = {{"ReluOut", IC_SLOT_MULTI}, {"Out", 0}};

const ic_opdef ic_op_fusion_repeated_fc_relu = {
    .name = "fusion_repeated_fc_relu",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .infer = infer, .cpu = run,
};
