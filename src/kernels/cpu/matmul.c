/* matmul (the legacy v1 op): Out = alpha * op(X) * op(Y), with the shape rules of
 * paddle/fluid/operators/matmul_op.cc (MatMulOp::InferShape, MatMulKernel,
 * math::CreateMatrixDescriptor), which differ from numpy's and from matmul_v2:
 *
 *  - A 1-D X of length D is the row [1, D] and a 1-D Y the column [D, 1], *before* the
 *    transpose flags apply: transpose_X turns X = [D] into a [D, 1] column.
 *  - Rank >= 3 flattens every leading dim into one batch: X [B1.., M, K] is B = prod(B1..)
 *    matrices. The batches of X and Y must have the same count (their dims may differ) or one
 *    side must be a plain matrix, which then pairs with every batch. No broadcasting of 1s.
 *  - Out takes X's leading dims when X is batched, else Y's, with the last two set to M, N.
 *    Then a 1-D X drops the M axis when it is 1, a 1-D Y drops the N axis when it is 1, and an
 *    empty result becomes [1] (so [K] x [K] gives [1]).
 *
 * Paddle 3.x still runs these checks but then computes with the matmul_v2 kernel (and scales
 * by alpha), which changes the corners: [K] x [K] gives a rank-0 result, transposes of 1-D
 * inputs are ignored, and batches pair by numpy broadcasting rather than by flat index (so
 * [2, 3, M, K] x [6, K, N] fails there). icore keeps the v1 definition, which is what the
 * programs that contain this op were exported and validated with.
 *
 * Two more differences from the original kernel: a batch with a zero dim counts as a batch
 * of 0 matrices (Paddle's descriptor mistook it for "no batch"), and head_number other than 1
 * (the MKLML multi-head product) and the oneDNN fuse attributes (fused_reshape_*,
 * fused_transpose_*) are refused as unsupported. Scale_x, Scale_y, Scale_out,
 * force_fp32_output, use_quantizer and mkldnn_data_type only concern oneDNN int8 kernels. */
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/matmul.h"
#include "kernels/kernel.h"

enum { IN_X, IN_Y };

ic_status ic_matmul_parse(ic_attr_reader *r, void *attrs) {
  matmul_attrs *a = attrs;
  a->trans_x = ic_ar_bool(r, "transpose_X", false);
  a->trans_y = ic_ar_bool(r, "transpose_Y", false);
  a->alpha = (float)ic_ar_float(r, "alpha", 1.0); /* a float attribute in Paddle */
  int64_t heads = ic_ar_int(r, "head_number", 1);
  if (heads != 1) ic_gemm_unsupported(r, "head_number", "is not 1 (multi-head product)");
  return ic_gemm_refuse_fused(r);
}

ic_status ic_matmul_operands(ic_kctx *c, mdesc *dx, mdesc *dy) {
  const matmul_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT))) return st;
  if (y->dtype != x->dtype) {
    return ic_kfail_in(c, IN_Y, 0, "expected the dtype of X (%s)", ic_dtype_name(x->dtype));
  }
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  if (y->ndim < 1) return ic_kfail_in(c, IN_Y, 0, "expected rank >= 1");
  *dx = describe(x, true, a->trans_x);
  *dy = describe(y, false, a->trans_y);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const matmul_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  mdesc dx, dy;
  ic_status st = ic_matmul_operands(c, &dx, &dy);
  if (st) return st;
  char xd[128], yd[128];
  if (dx.width != dy.height) {
    return ic_kfail(c, IC_ERR_SHAPE,
                    "input X '%s' %s%s has width %lld but input Y '%s' %s%s has height %lld",
                    ic_in_name(c, IN_X, 0), ic_dims_str(x->ndim, x->dims, xd, sizeof xd),
                    a->trans_x ? " (transposed)" : "", (long long)dx.width,
                    ic_in_name(c, IN_Y, 0), ic_dims_str(y->ndim, y->dims, yd, sizeof yd),
                    a->trans_y ? " (transposed)" : "", (long long)dy.height);
  }
  if (dx.batched && dy.batched && dx.batch != dy.batch) {
    return ic_kfail(c, IC_ERR_SHAPE,
                    "input X '%s' %s holds %lld matrices but input Y '%s' %s holds %lld; the "
                    "batch counts must match or one side must be a matrix",
                    ic_in_name(c, IN_X, 0), ic_dims_str(x->ndim, x->dims, xd, sizeof xd),
                    (long long)dx.batch, ic_in_name(c, IN_Y, 0),
                    ic_dims_str(y->ndim, y->dims, yd, sizeof yd), (long long)dy.batch);
  }
  int64_t dims[IC_MAX_RANK];
  int n;
  const ic_tensor *lead = dx.batched ? x : dy.batched ? y : NULL;
  if (lead) {
    n = lead->ndim;
    memcpy(dims, lead->dims, sizeof(int64_t) * (size_t)n);
  } else {
    n = 2;
  }
  dims[n - 2] = dx.height;
  dims[n - 1] = dy.width;
  if (x->ndim == 1 && dims[n - 2] == 1) {
    dims[n - 2] = dims[n - 1];
    n--;
  }
  if (y->ndim == 1 && dims[n - 1] == 1) n--;
  if (n == 0) dims[n++] = 1;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, n, dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const matmul_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  mdesc dx = describe(x, true, a->trans_x), dy = describe(y, false, a->trans_y);
  int64_t batch = dx.batched ? dx.batch : dy.batched ? dy.batch : 1;
  ic_gemm g = {.dtype = x->dtype, .trans_a = a->trans_x, .trans_b = a->trans_y,
               .m = dx.height, .n = dy.width, .k = dx.width,
               .lda = dx.cols, .ldb = dy.cols, .ldc = dy.width, .alpha = a->alpha};
  size_t es = ic_dtype_size(x->dtype);
  const char *xp = x->data, *yp = y->data;
  char *op = ic_out(c, 0, 0)->data;
  if (dx.batched && !dy.batched && !a->trans_x) {
    /* Every X matrix meets the same Y: one product with the batches stacked as rows. */
    g.m *= batch;
    batch = 1;
  }
  ic_status st = ic_gemm_check(c, &g);
  if (st) return st;
  size_t xs = dx.batched ? (size_t)(dx.rows * dx.cols) * es : 0;
  size_t ys = dy.batched ? (size_t)(dy.rows * dy.cols) * es : 0;
  size_t os = (size_t)(g.m * g.n) * es;
  for (int64_t b = 0; b < batch; b++) {
    ic_gemm_run(c, &g, xp + (size_t)b * xs, yp + (size_t)b * ys, op + (size_t)b * os);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_matmul = {
    .name = "matmul",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(matmul_attrs), .parse = ic_matmul_parse,
    .infer = infer, .cpu = run,
};
