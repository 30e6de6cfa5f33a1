/* cross_grad: for Out = X x Y along `dim` (cross: size 3 there; dim 9, Paddle's default, takes
 * the first dim of size 3), X@GRAD = Y x Out@GRAD and Y@GRAD = Out@GRAD x X (phi
 * CrossGradKernel), each optional. Inputs X, Y, Out@GRAD of one dtype and dims; attribute
 * dim (negative from the end). Float32 and float64. */
#include "kernels/cpu/kgrad.h"

enum { IN_X, IN_Y, IN_DOUT };
static const ic_slotdef k_inputs[3] = {{"X", 0}, {"Y", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[2] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                        {"Y@GRAD", IC_SLOT_OPTIONAL}};

#define DEFAULT_DIM 9

typedef struct cross_grad_attrs {
  int64_t dim;
} cross_grad_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((cross_grad_attrs *)attrs)->dim = ic_ar_int(r, "dim", DEFAULT_DIM);
  return r->st;
}

static int resolve_dim(ic_kctx *c) {
  const cross_grad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if (a->dim == DEFAULT_DIM) {
    for (int d = 0; d < x->ndim; d++)
      if (x->dims[d] == 3) return d;
    ic_kfail_in(c, IN_X, 0, "has no dim of size 3 (attribute dim not given)");
    return -1;
  }
  const int d = ic_kaxis(c, a->dim, x->ndim, "dim");
  if (d < 0) return -1;
  if (x->dims[d] != 3) {
    ic_kfail_in(c, IN_X, 0, "has size %lld along dim %d, expected 3", (long long)x->dims[d], d);
    return -1;
  }
  return d;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if ((st = kg_expect(c, IN_Y, x->dtype, x->ndim, x->dims, "X's"))) return st;
  if ((st = kg_expect(c, IN_DOUT, x->dtype, x->ndim, x->dims, "X's"))) return st;
  if (resolve_dim(c) < 0) return c->err->code;
  kg_out(c, 0, x->dtype, x->ndim, x->dims);
  kg_out(c, 1, x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  const int d = resolve_dim(c);
  if (d < 0) return c->err->code;
  const int64_t outer = ic_numel(d, x->dims), inner = ic_numel(x->ndim - d - 1, x->dims + d + 1);
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t e = 0; e < inner; e++) {
      const int64_t b = o * 3 * inner + e;
      double xv[3], yv[3], gv[3];
      for (int k = 0; k < 3; k++) {
        xv[k] = kg_get(x, b + k * inner);
        yv[k] = kg_get(y, b + k * inner);
        gv[k] = kg_get(g, b + k * inner);
      }
      for (int k = 0; k < 3; k++) {
        const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        if (dx) kg_put(dx, b + k * inner, yv[k1] * gv[k2] - yv[k2] * gv[k1]);
        if (dy) kg_put(dy, b + k * inner, gv[k1] * xv[k2] - gv[k2] * xv[k1]);
      }
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_cross_grad = {
    .name = "cross_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .attrs_size = sizeof(cross_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
