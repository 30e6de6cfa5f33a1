/* mul: Out = flatten(X) * flatten(Y), Paddle's fully-connected product (phi
 * MatmulWithFlattenKernel, MatmulWithFlattenInferMeta in infermeta/binary.cc).
 *
 * X is read as the matrix [prod(X.dims[:x_num_col_dims]), prod(X.dims[x_num_col_dims:])] and Y
 * likewise with y_num_col_dims; Out.dims = X.dims[:x_num_col_dims] + Y.dims[y_num_col_dims:].
 * Paddle requires rank > num_col_dims for both inputs and a Y with at least one element.
 * num_col_dims 0 flattens the whole tensor into one row; Paddle's kernel ignores the attribute
 * for a rank-2 X (and then overruns), icore applies it uniformly. The quantization attributes
 * (scale_x, scale_y, scale_out, force_fp32_output) only matter to oneDNN int8 kernels and are
 * ignored. */
#include "kernels/cpu/gemm.h"
#include "kernels/cpu/mul.h"
#include "kernels/kernel.h"

enum { IN_X, IN_Y };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  mul_attrs *a = attrs;
  a->x_ncd = ic_ar_int(r, "x_num_col_dims", 1);
  a->y_ncd = ic_ar_int(r, "y_num_col_dims", 1);
  if (a->x_ncd < 0) {
    ic_ar_fail(r, "x_num_col_dims", "is %lld, expected >= 0", (long long)a->x_ncd);
  }
  if (a->y_ncd < 0) {
    ic_ar_fail(r, "y_num_col_dims", "is %lld, expected >= 0", (long long)a->y_ncd);
  }
  return r->st;
}

static int64_t prod(const int64_t *d, int64_t from, int64_t to) {
  int64_t p = 1;
  for (int64_t i = from; i < to; i++) p *= d[i];
  return p;
}

static ic_status infer(ic_kctx *c) {
  const mul_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
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
  if (ic_numel(y->ndim, y->dims) == 0) {
    return ic_kfail_in(c, IN_Y, 0, "expected at least one element");
  }
  int64_t xk = prod(x->dims, a->x_ncd, x->ndim), yk = prod(y->dims, 0, a->y_ncd);
  if (xk != yk) {
    char xd[128], yd[128];
    return ic_kfail(c, IC_ERR_SHAPE,
                    "input X '%s' %s flattened at x_num_col_dims %lld has %lld columns, but "
                    "input Y '%s' %s flattened at y_num_col_dims %lld has %lld rows",
                    ic_in_name(c, IN_X, 0), ic_dims_str(x->ndim, x->dims, xd, sizeof xd),
                    (long long)a->x_ncd, (long long)xk, ic_in_name(c, IN_Y, 0),
                    ic_dims_str(y->ndim, y->dims, yd, sizeof yd), (long long)a->y_ncd,
                    (long long)yk);
  }
  int64_t nd = a->x_ncd + (y->ndim - a->y_ncd);
  if (nd > IC_MAX_RANK) {
    return ic_kfail(c, IC_ERR_SHAPE, "output rank %lld exceeds the maximum %d", (long long)nd,
                    IC_MAX_RANK);
  }
  int64_t dims[IC_MAX_RANK];
  int n = 0;
  for (int64_t i = 0; i < a->x_ncd; i++) dims[n++] = x->dims[i];
  for (int64_t i = a->y_ncd; i < y->ndim; i++) dims[n++] = y->dims[i];
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, n, dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const mul_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  int64_t m = prod(x->dims, 0, a->x_ncd), k = prod(x->dims, a->x_ncd, x->ndim);
  int64_t n = prod(y->dims, a->y_ncd, y->ndim);
  ic_gemm g = {.dtype = x->dtype, .m = m, .n = n, .k = k, .lda = k, .ldb = n, .ldc = n,
               .alpha = 1.0};
  ic_status st = ic_gemm_check(c, &g);
  if (st) return st;
  ic_gemm_run(c, &g, x->data, y->data, ic_out(c, 0, 0)->data);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_mul = {
    .name = "mul",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(mul_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
