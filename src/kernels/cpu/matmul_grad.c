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

static ic_status parse(ic_attr_reader *r, void *attrs) {
  matmul_attrs *a = attrs;
  a->trans_x = ic_ar_bool(r, "transpose_X", false);
  a->trans_y = ic_ar_bool(r, "transpose_Y", false);
  a->alpha = (float)ic_ar_float(r, "alpha", 1.0); /* a float attribute in Paddle */
  int64_t heads = ic_ar_int(r, "head_number", 1);
  if (heads != 1) ic_gemm_unsupported(r, "head_number", "is not 1 (multi-head product)");
  return ic_gemm_refuse_fused(r);
}

static ic_status infer(ic_kctx *c) {
  const matmul_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT))) return st;
  if (y->dtype != x->dtype) {
    return ic_kfail_in(c, IN_Y, 0, "expected the dtype of X (%s)", ic_dtype_name(x->dtype));
  }
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  if (y->ndim < 1) return ic_kfail_in(c, IN_Y, 0, "expected rank >= 1");
  mdesc dx = describe(x, true, a->trans_x), dy = describe(y, false, a->trans_y);
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

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}

static void store(ic_tensor *t, const double *acc) {
  int64_t n = ic_tensor_numel_(t);
  if (t->dtype == IC_FP32) {
    float *p = t->data;
    for (int64_t i = 0; i < n; i++) p[i] = (float)acc[i];
  } else {
    memcpy(t->data, acc, (size_t)n * sizeof(double));
  }
}

static ic_status run(ic_kctx *c) {
  const matmul_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *gx = ic_out(c, 0, 0), *gy = ic_out(c, 1, 0);
  const mdesc dx = describe(x, true, a->trans_x), dy = describe(y, false, a->trans_y);
  const int64_t batch = dx.batched ? dx.batch : dy.batched ? dy.batch : 1;
  const int64_t M = dx.height, K = dx.width, N = dy.width;
  const bool tx = a->trans_x, ty = a->trans_y;
  const int64_t nx = ic_tensor_numel_(x), ny = ic_tensor_numel_(y);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + ny + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *ax = s->data, *ay = ax + nx;
  memset(ax, 0, (size_t)(nx + ny) * sizeof(double));
  for (int64_t b = 0; b < batch; b++) {
    const int64_t xo = dx.batched ? b * dx.rows * dx.cols : 0;
    const int64_t yo = dy.batched ? b * dy.rows * dy.cols : 0, go = b * M * N;
    for (int64_t i = 0; i < M; i++) {
      for (int64_t q = 0; q < K; q++) {
        const int64_t xe = xo + (tx ? q * dx.cols + i : i * dx.cols + q);
        double sx = 0;
        for (int64_t j = 0; j < N; j++) {
          const int64_t ye = yo + (ty ? j * dy.cols + q : q * dy.cols + j);
          const double gv = get(g, go + i * N + j);
          if (gx) sx += gv * get(y, ye);
          if (gy) ay[ye] += a->alpha * get(x, xe) * gv;
        }
        if (gx) ax[xe] += a->alpha * sx;
      }
    }
  }
  if (gx) store(gx, ax);
  if (gy) store(gy, ay);
  ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL}, {"Y@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_matmul_grad = {
    .name = "matmul_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(matmul_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
