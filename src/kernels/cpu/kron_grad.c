/* kron_grad: for Out = kron(X, Y) (both padded with leading 1s to one rank r; Out dim i =
 * X dim i * Y dim i, Out[i * Ydims + j] = X[i] Y[j] coordinate-wise), X@GRAD[i] = sum_j
 * Out@GRAD[i, j] Y[j] and Y@GRAD[j] = sum_i Out@GRAD[i, j] X[i] (phi KronGradKernel), each
 * optional, each a double sum rounded once. Inputs X, Y, Out@GRAD; float32 and float64. */
#include "kernels/cpu/kgrad.h"

enum { IN_X, IN_Y, IN_DOUT };
static const ic_slotdef k_inputs[3] = {{"X", 0}, {"Y", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[2] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                        {"Y@GRAD", IC_SLOT_OPTIONAL}};

/* X's and Y's dims padded to rank r; returns r. */
static int padded(const ic_tensor *x, const ic_tensor *y, int64_t *xd, int64_t *yd) {
  const int r = x->ndim > y->ndim ? x->ndim : y->ndim;
  for (int i = 0; i < r; i++) {
    const int ix = i - (r - x->ndim), iy = i - (r - y->ndim);
    xd[i] = ix >= 0 ? x->dims[ix] : 1;
    yd[i] = iy >= 0 ? y->dims[iy] : 1;
  }
  return r;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  if (y->dtype != x->dtype) return ic_kfail_in(c, IN_Y, 0, "expected X's dtype");
  int64_t xd[IC_MAX_RANK], yd[IC_MAX_RANK], od[IC_MAX_RANK];
  const int r = padded(x, y, xd, yd);
  for (int i = 0; i < r; i++) od[i] = xd[i] * yd[i];
  if ((st = kg_expect(c, IN_DOUT, x->dtype, r, od, "kron's Out"))) return st;
  kg_out(c, 0, x->dtype, x->ndim, x->dims);
  kg_out(c, 1, x->dtype, y->ndim, y->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  int64_t xd[IC_MAX_RANK], yd[IC_MAX_RANK], os[IC_MAX_RANK];
  const int r = padded(x, y, xd, yd);
  const int64_t nx = ic_tensor_numel_(x), ny = ic_tensor_numel_(y);
  int64_t s = 1;
  for (int i = r - 1; i >= 0; i--) {
    os[i] = s;
    s *= xd[i] * yd[i];
  }
  ic_buffer *b = ic_kscratch(c, (size_t)(nx + ny + 1) * sizeof(double));
  if (!b) return c->err->code;
  double *ax = b->data, *ay = ax + nx;
  memset(ax, 0, (size_t)(nx + ny) * sizeof(double));
  int64_t pi[IC_MAX_RANK] = {0};
  for (int64_t i = 0; i < nx; i++) {
    int64_t pj[IC_MAX_RANK] = {0};
    const double xv = kg_get(x, i);
    for (int64_t j = 0; j < ny; j++) {
      int64_t at = 0;
      for (int k = 0; k < r; k++) at += (pi[k] * yd[k] + pj[k]) * os[k];
      const double gv = kg_get(g, at);
      ax[i] += gv * kg_get(y, j);
      ay[j] += gv * xv;
      for (int k = r - 1; k >= 0 && ++pj[k] == yd[k]; k--) pj[k] = 0;
    }
    for (int k = r - 1; k >= 0 && ++pi[k] == xd[k]; k--) pi[k] = 0;
  }
  if (dx) ic_store_acc(dx, ax);
  if (dy) ic_store_acc(dy, ay);
  ic_buffer_release(b);
  return IC_OK;
}

const ic_opdef ic_op_kron_grad = {
    .name = "kron_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
