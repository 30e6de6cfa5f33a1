/* addmm: Out [M, N] = Beta * Input + Alpha * (X [M, K] @ Y [K, N]), float32 or float64.
 * Input is [N] (a row), or [M or 1, N or 1], broadcast to [M, N]; with Beta 0 Input is not
 * read (BLAS's beta 0: a NaN in Input does not propagate); with K 0 Out = Beta * Input (0 for
 * Beta 0). Attributes Alpha and Beta (floats, default 1). One GEMM (gemm.h) as Paddle's
 * kernel runs one BLAS GEMM over the broadcast Input (paddle/phi/kernels/impl/
 * addmm_kernel_impl.h, AddmmInferMeta). */
#include <string.h>

#include "kernels/cpu/gemm.h"

enum { IN_INPUT, IN_X, IN_Y };
static const ic_slotdef k_inputs[3] = {{"Input", 0}, {"X", 0}, {"Y", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

typedef struct addmm_attrs {
  double alpha, beta;
} addmm_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  addmm_attrs *a = attrs;
  a->alpha = ic_ar_float(r, "Alpha", 1.0);
  a->beta = ic_ar_float(r, "Beta", 1.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *in = ic_in(c, IN_INPUT, 0), *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 ([M, K])");
  if (y->dtype != x->dtype || y->ndim != 2 || y->dims[0] != x->dims[1]) {
    return ic_kfail_in(c, IN_Y, 0, "expected %s[%lld, N] (X's dtype, dim 0 = X's dim 1)",
                       ic_dtype_name(x->dtype), (long long)x->dims[1]);
  }
  const int64_t m = x->dims[0], n = y->dims[1];
  const int64_t im = in->ndim == 1 ? 1 : in->ndim == 2 ? in->dims[0] : -1;
  const int64_t in_ = in->ndim == 1 ? in->dims[0] : in->ndim == 2 ? in->dims[1] : -1;
  if (in->dtype != x->dtype || im < 0 || (im != m && im != 1) || (in_ != n && in_ != 1)) {
    return ic_kfail_in(c, IN_INPUT, 0,
                       "expected %s of rank 1 ([N]) or 2 ([M or 1, N or 1]) with M = %lld, "
                       "N = %lld", ic_dtype_name(x->dtype), (long long)m, (long long)n);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 2, (int64_t[]){m, n});
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const addmm_attrs *a = c->attrs;
  const ic_tensor *in = ic_in(c, IN_INPUT, 0), *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t m = x->dims[0], k = x->dims[1], n = y->dims[1];
  if (m == 0 || n == 0) return IC_OK;
  const int64_t im = in->ndim == 1 ? 1 : in->dims[0];
  const int64_t in_ = in->ndim == 1 ? in->dims[0] : in->dims[1];
  const bool f32 = x->dtype == IC_FP32;
  /* Out = Input broadcast (Paddle's ExpandKernel), then the GEMM's beta scales it */
  for (int64_t i = 0; i < m; i++) {
    for (int64_t j = 0; j < n; j++) {
      const int64_t s = (im == 1 ? 0 : i) * in_ + (in_ == 1 ? 0 : j);
      if (f32) ((float *)o->data)[i * n + j] = ((const float *)in->data)[s];
      else ((double *)o->data)[i * n + j] = ((const double *)in->data)[s];
    }
  }
  /* Paddle casts alpha and beta to the dtype's float before the BLAS call */
  const double alpha = f32 ? (double)(float)a->alpha : a->alpha;
  const double beta = f32 ? (double)(float)a->beta : a->beta;
  if (k == 0) {
    for (int64_t i = 0; i < m * n; i++) {
      if (f32) {
        float *p = (float *)o->data + i;
        *p = beta == 0.0 ? 0.0f : *p * (float)beta;
      } else {
        double *p = (double *)o->data + i;
        *p = beta == 0.0 ? 0.0 : *p * beta;
      }
    }
    return IC_OK;
  }
  ic_gemm g = {.dtype = x->dtype, .m = m, .n = n, .k = k, .lda = k, .ldb = n, .ldc = n,
               .alpha = alpha, .beta = beta};
  ic_status st = ic_gemm_check(c, &g);
  if (st) return st;
  ic_gemm_run(c, &g, x->data, y->data, o->data);
  return IC_OK;
}

const ic_opdef ic_op_addmm = {
    .name = "addmm", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(addmm_attrs), .parse = parse, .infer = infer, .cpu = run,
};
