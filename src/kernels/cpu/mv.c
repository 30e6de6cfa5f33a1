/* mv: Out [M] = X [M, N] times Vec [N], float32 or float64, one GEMM (gemm.h) as Paddle's
 * kernel runs one BLAS GEMV (paddle/phi/kernels/impl/mv_kernel_impl.h, MvInferMeta). */
#include "kernels/cpu/gemm.h"

enum { IN_X, IN_VEC };
static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Vec", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *v = ic_in(c, IN_VEC, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 ([M, N])");
  if (v->dtype != x->dtype || v->ndim != 1 || v->dims[0] != x->dims[1]) {
    return ic_kfail_in(c, IN_VEC, 0, "expected %s[%lld] (X's dtype and dim 1)",
                       ic_dtype_name(x->dtype), (long long)x->dims[1]);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 1, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *v = ic_in(c, IN_VEC, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t m = x->dims[0], k = x->dims[1];
  ic_gemm g = {.dtype = x->dtype, .m = m, .n = 1, .k = k, .lda = k, .ldb = 1, .ldc = 1,
               .alpha = 1.0, .beta = 0.0};
  ic_status st = ic_gemm_check(c, &g);
  if (st) return st;
  ic_gemm_run(c, &g, x->data, v->data, o->data);
  return IC_OK;
}

const ic_opdef ic_op_mv = {
    .name = "mv", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .infer = infer, .cpu = run,
};
