/* matmul_grad: the gradients of the legacy matmul op (matmul.c: Out = alpha * op(X) * op(Y)
 * with transpose_X / transpose_Y, Paddle's v1 matrix descriptors and flat batches). Per
 * batch, with op(X) [M, K], op(Y) [K, N] and G the batch's slice of Out@GRAD [M, N]:
 *   d op(X) = alpha * G op(Y)^T,   d op(Y) = alpha * op(X)^T G,
 * stored back transposed where the forward read the operand transposed; a side that is a
 * plain matrix (or vector) paired with every batch of the other receives the sum over the
 * batches. X@GRAD and Y@GRAD have X's and Y's dims; each is optional. Sums run in double and
 * are rounded once (as matmul_v2_grad). */
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/matmul.h"
#include "kernels/kernel.h"

enum { IN_X, IN_Y, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *g = ic_in(c, IN_DOUT, 0);
  mdesc dx, dy;
  ic_status st = ic_matmul_operands(c, &dx, &dy);
  if (st) return st;
  if (dx.width != dy.height) {
    return ic_kfail(c, IC_ERR_SHAPE, "input X '%s' has width %lld but input Y '%s' has height "
                    "%lld (as the forward matmul reads them)", ic_in_name(c, IN_X, 0),
                    (long long)dx.width, ic_in_name(c, IN_Y, 0), (long long)dy.height);
  }
  if (dx.batched && dy.batched && dx.batch != dy.batch) {
    return ic_kfail(c, IC_ERR_SHAPE, "input X '%s' holds %lld matrices but input Y '%s' holds "
                    "%lld; the batch counts must match or one side must be a matrix",
                    ic_in_name(c, IN_X, 0), (long long)dx.batch, ic_in_name(c, IN_Y, 0),
                    (long long)dy.batch);
  }
  const int64_t batch = dx.batched ? dx.batch : dy.batched ? dy.batch : 1;
  const int64_t want = batch * dx.height * dy.width;
  if (g->dtype != x->dtype || ic_tensor_numel_(g) != want) {
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s with %lld elements (the product's)",
                       ic_dtype_name(x->dtype), (long long)want);
  }
  ic_tensor *gx = ic_out(c, 0, 0), *gy = ic_out(c, 1, 0);
  if (gx) ic_tensor_set_meta(gx, x->dtype, x->ndim, x->dims);
  if (gy) ic_tensor_set_meta(gy, y->dtype, y->ndim, y->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const matmul_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *gx = ic_out(c, 0, 0), *gy = ic_out(c, 1, 0);
  const mdesc dx = describe(x, true, a->trans_x), dy = describe(y, false, a->trans_y);
  const int64_t batch = dx.batched ? dx.batch : dy.batched ? dy.batch : 1;
  const ic_gemm p = {.trans_a = a->trans_x, .trans_b = a->trans_y, .m = dx.height,
                     .n = dy.width, .k = dx.width, .lda = dx.cols, .ldb = dy.cols,
                     .alpha = a->alpha};
  const int64_t nx = ic_tensor_numel_(x), ny = ic_tensor_numel_(y);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + ny + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *ax = s->data, *ay = ax + nx;
  memset(ax, 0, (size_t)(nx + ny) * sizeof(double));
  for (int64_t b = 0; b < batch; b++) {
    ic_gemm_grad_accum(&p, x, dx.batched ? b * dx.rows * dx.cols : 0, y,
                       dy.batched ? b * dy.rows * dy.cols : 0, g, b * p.m * p.n,
                       gx ? ax : NULL, gy ? ay : NULL);
  }
  if (gx) ic_store_acc(gx, ax);
  if (gy) ic_store_acc(gy, ay);
  ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL}, {"Y@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_matmul_grad = {
    .name = "matmul_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(matmul_attrs), .parse = ic_matmul_parse,
    .infer = infer, .cpu = run,
};
