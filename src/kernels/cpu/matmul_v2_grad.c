/* matmul_v2_grad: the gradients of matmul_v2 (phi MatmulGradKernel). Per batch, with
 * op(X) [m, k] and op(Y) [k, n] as the forward op reads them (trans_x, trans_y; a 1-D X is
 * one row, a 1-D Y one column):
 *   d op(X) = Out@GRAD op(Y)^T,   d op(Y) = op(X)^T Out@GRAD,
 * stored back transposed where the forward read its operand transposed, and summed over the
 * batch dims along which an operand was broadcast. X@GRAD and Y@GRAD have X's and Y's dims;
 * each is optional. Sums run in double and are rounded once. */
#include <string.h>

#include "kernels/cpu/matmul_v2.h"

enum { IN_X, IN_Y, IN_DOUT };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  matmul_v2_attrs *a = attrs;
  a->trans_x = ic_ar_bool(r, "trans_x", false);
  a->trans_y = ic_ar_bool(r, "trans_y", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (y->dtype != x->dtype) {
    return ic_kfail_in(c, IN_Y, 0, "expected the dtype of X (%s)", ic_dtype_name(x->dtype));
  }
  ic_matmul_v2_plan p;
  if ((st = ic_matmul_v2_make_plan(c, &p))) return st;
  if (g->dtype != x->dtype || ic_tensor_numel_(g) != p.ocount * p.g.m * p.g.n) {
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s with %lld elements (the product's)",
                       ic_dtype_name(x->dtype), (long long)(p.ocount * p.g.m * p.g.n));
  }
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  if (dx) ic_tensor_set_meta(dx, x->dtype, x->ndim, x->dims);
  if (dy) ic_tensor_set_meta(dy, y->dtype, y->ndim, y->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  ic_matmul_v2_plan p;
  ic_status st = ic_matmul_v2_make_plan(c, &p);
  if (st) return st;
  const int64_t m = p.g.m, n = p.g.n, k = p.g.k;
  int64_t nx = ic_tensor_numel_(x), ny = ic_tensor_numel_(y);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + ny + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *ax = s->data, *ay = ax + nx;
  memset(ax, 0, (size_t)(nx + ny) * sizeof(double));
  int64_t xstep[IC_MAX_RANK], ystep[IC_MAX_RANK], idx[IC_MAX_RANK] = {0}, xsz = 1, ysz = 1;
  for (int i = p.nb - 1; i >= 0; i--) {
    xstep[i] = p.xb[i] == 1 ? 0 : xsz;
    ystep[i] = p.yb[i] == 1 ? 0 : ysz;
    xsz *= p.xb[i];
    ysz *= p.yb[i];
  }
  int64_t xb = 0, yb = 0;
  for (int64_t b = 0; b < p.ocount; b++) {
    ic_gemm_grad_accum(&p.g, x, xb * m * k, y, yb * k * n, g, b * m * n, dx ? ax : NULL,
                       dy ? ay : NULL);
    for (int i = p.nb - 1; i >= 0; i--) {
      if (++idx[i] < p.ob[i]) {
        xb += xstep[i];
        yb += ystep[i];
        break;
      }
      xb -= xstep[i] * (p.ob[i] - 1);
      yb -= ystep[i] * (p.ob[i] - 1);
      idx[i] = 0;
    }
  }
  if (dx) ic_store_acc(dx, ax);
  if (dy) ic_store_acc(dy, ay);
  ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL}, {"Y@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_matmul_v2_grad = {
    .name = "matmul_v2_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(matmul_v2_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
