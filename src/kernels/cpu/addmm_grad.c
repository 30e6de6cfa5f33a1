/* addmm_grad: for Out = Beta Input + Alpha X Y with X [M, K], Y [K, N] and Input [M, N] or
 * broadcast from [1, N], [M, 1], [1, 1] or [N] (addmm), Input@GRAD = Beta times Out@GRAD
 * summed over the rows and/or columns Input was broadcast along, X@GRAD = Alpha Out@GRAD Y^T
 * and Y@GRAD = Alpha X^T Out@GRAD (phi AddmmGradKernel), each optional. Inputs Input, X, Y,
 * Out@GRAD [M, N] of one float dtype; attributes Alpha and Beta (float, default 1). */
#include "kernels/cpu/kgrad.h"

enum { IN_INPUT, IN_X, IN_Y, IN_DOUT };
static const ic_slotdef k_inputs[4] = {
    {"Input", IC_SLOT_NO_BUFFER}, {"X", 0}, {"Y", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[3] = {{"Input@GRAD", IC_SLOT_OPTIONAL},
                                        {"X@GRAD", IC_SLOT_OPTIONAL},
                                        {"Y@GRAD", IC_SLOT_OPTIONAL}};

typedef struct addmm_grad_attrs {
  float alpha, beta;
} addmm_grad_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  addmm_grad_attrs *a = attrs;
  a->alpha = (float)ic_ar_float(r, "Alpha", 1.0);
  a->beta = (float)ic_ar_float(r, "Beta", 1.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *in = ic_in(c, IN_INPUT, 0), *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 [M, K]");
  if (y->dtype != x->dtype || y->ndim != 2 || y->dims[0] != x->dims[1]) {
    return ic_kfail_in(c, IN_Y, 0, "expected %s[%lld, N] (X's dtype and columns)",
                       ic_dtype_name(x->dtype), (long long)x->dims[1]);
  }
  const int64_t M = x->dims[0], N = y->dims[1], d[2] = {M, N};
  const int64_t r = in->ndim == 2 ? in->dims[0] : 1, cc = in->dims[in->ndim - 1];
  if (in->dtype != x->dtype || (in->ndim != 1 && in->ndim != 2) || (r != M && r != 1) ||
      (cc != N && cc != 1)) {
    return ic_kfail_in(c, IN_INPUT, 0, "expected %s[%lld or 1, %lld or 1] or [%lld or 1]",
                       ic_dtype_name(x->dtype), (long long)M, (long long)N, (long long)N);
  }
  if ((st = kg_expect(c, IN_DOUT, x->dtype, 2, d, "addmm's Out"))) return st;
  kg_out(c, 0, x->dtype, in->ndim, in->dims);
  kg_out(c, 1, x->dtype, 2, x->dims);
  kg_out(c, 2, x->dtype, 2, y->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const addmm_grad_attrs *a = c->attrs;
  const ic_tensor *in = ic_in(c, IN_INPUT, 0), *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0),
                  *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *din = ic_out(c, 0, 0), *dx = ic_out(c, 1, 0), *dy = ic_out(c, 2, 0);
  const int64_t M = x->dims[0], K = x->dims[1], N = y->dims[1];
  if (din) {
    const int64_t r = in->ndim == 2 ? in->dims[0] : 1, cc = in->dims[in->ndim - 1];
    for (int64_t i = 0; i < r; i++) {
      for (int64_t j = 0; j < cc; j++) {
        double s = 0;
        for (int64_t p = (r == M ? i : 0); p < (r == M ? i + 1 : M); p++)
          for (int64_t q = (cc == N ? j : 0); q < (cc == N ? j + 1 : N); q++)
            s += kg_get(g, p * N + q);
        kg_put(din, i * cc + j, s * a->beta);
      }
    }
  }
  if (dx) kg_gemm(dx, 1, M, K, N, (kg_mat){g, 0, N, 1}, (kg_mat){y, 0, 1, N}, a->alpha);
  if (dy) kg_gemm(dy, 1, K, N, M, (kg_mat){x, 0, 1, K}, (kg_mat){g, 0, N, 1}, a->alpha);
  return IC_OK;
}

const ic_opdef ic_op_addmm_grad = {
    .name = "addmm_grad", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 3,
    .outputs = k_outputs, .attrs_size = sizeof(addmm_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
