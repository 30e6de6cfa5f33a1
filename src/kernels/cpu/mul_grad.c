/* mul_grad: the gradients of mul (mul.c). With X read as the matrix [M, K] (flattened at
 * x_num_col_dims), Y as [K, N] (at y_num_col_dims) and Out@GRAD as [M, N]:
 *   X@GRAD = Out@GRAD * Y^T   (X's dims),   Y@GRAD = X^T * Out@GRAD   (Y's dims),
 * each computed only when its output is present (phi MatmulWithFlattenGradKernel). */
#include "kernels/cpu/gemm.h"
#include "kernels/cpu/mul.h"
#include "kernels/kernel.h"

enum { IN_X, IN_Y, IN_DOUT };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  mul_attrs *a = attrs;
  a->x_ncd = ic_ar_int(r, "x_num_col_dims", 1);
  a->y_ncd = ic_ar_int(r, "y_num_col_dims", 1);
  if (a->x_ncd < 0) ic_ar_fail(r, "x_num_col_dims", "is %lld, expected >= 0", (long long)a->x_ncd);
  if (a->y_ncd < 0) ic_ar_fail(r, "y_num_col_dims", "is %lld, expected >= 0", (long long)a->y_ncd);
  return r->st;
}

static int64_t prod(const int64_t *d, int64_t from, int64_t to) {
  int64_t p = 1;
  for (int64_t i = from; i < to; i++) p *= d[i];
  return p;
}

static ic_status infer(ic_kctx *c) {
  const mul_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT))) return st;
  if (y->dtype != x->dtype) {
    return ic_kfail_in(c, IN_Y, 0, "expected the dtype of X (%s)", ic_dtype_name(x->dtype));
  }
  if (x->ndim <= a->x_ncd) {
    return ic_kfail_in(c, IN_X, 0, "expected rank > x_num_col_dims (%lld)", (long long)a->x_ncd);
  }
  if (y->ndim <= a->y_ncd) {
    return ic_kfail_in(c, IN_Y, 0, "expected rank > y_num_col_dims (%lld)", (long long)a->y_ncd);
  }
  int64_t m = prod(x->dims, 0, a->x_ncd), k = prod(x->dims, a->x_ncd, x->ndim);
  int64_t k2 = prod(y->dims, 0, a->y_ncd), n = prod(y->dims, a->y_ncd, y->ndim);
  if (k != k2) {
    return ic_kfail_in(c, IN_Y, 0, "has %lld rows flattened at y_num_col_dims, expected %lld "
                       "(the columns of X)", (long long)k2, (long long)k);
  }
  if (g->dtype != x->dtype || ic_tensor_numel_(g) != m * n) {
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s with %lld x %lld elements",
                       ic_dtype_name(x->dtype), (long long)m, (long long)n);
  }
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  if (dx) ic_tensor_set_meta(dx, x->dtype, x->ndim, x->dims);
  if (dy) ic_tensor_set_meta(dy, y->dtype, y->ndim, y->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const mul_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  int64_t m = prod(x->dims, 0, a->x_ncd), k = prod(x->dims, a->x_ncd, x->ndim);
  int64_t n = prod(y->dims, a->y_ncd, y->ndim);
  ic_status st;
  if (dx) { /* [M, K] = dOut[M, N] * Y[K, N]^T */
    ic_gemm gm = {.dtype = x->dtype, .trans_b = true, .m = m, .n = k, .k = n, .lda = n,
                  .ldb = n, .ldc = k, .alpha = 1.0};
    if ((st = ic_gemm_check(c, &gm))) return st;
    ic_gemm_run(c, &gm, g->data, y->data, dx->data);
  }
  if (dy) { /* [K, N] = X[M, K]^T * dOut[M, N] */
    ic_gemm gm = {.dtype = x->dtype, .trans_a = true, .m = k, .n = n, .k = m, .lda = k,
                  .ldb = n, .ldc = n, .alpha = 1.0};
    if ((st = ic_gemm_check(c, &gm))) return st;
    ic_gemm_run(c, &gm, x->data, g->data, dy->data);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL}, {"Y@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_mul_grad = {
    .name = "mul_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(mul_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
