/* index_add_grad: for Out = X with AddValue's slice j along `axis` added to X's slice
 * Index[j] (index_add), X@GRAD = Out@GRAD and AddValue@GRAD = Out@GRAD's slices Index[j]
 * along the axis (phi IndexAddGradKernel: an index_select), each optional. Inputs Index (1-D
 * int32/int64, negative counting from the end), AddValue (meta only), Out@GRAD; attribute
 * axis (negative from the end). Float32 and float64. */
#include "kernels/cpu/kgrad.h"

enum { IN_INDEX, IN_ADD, IN_DOUT };
static const ic_slotdef k_inputs[3] = {
    {"Index", 0}, {"AddValue", IC_SLOT_NO_BUFFER}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[2] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                        {"AddValue@GRAD", IC_SLOT_OPTIONAL}};

typedef struct index_add_grad_attrs {
  int64_t axis;
} index_add_grad_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((index_add_grad_attrs *)attrs)->axis = ic_ar_int(r, "axis", 0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const index_add_grad_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, IN_INDEX, 0, IC_DT_INT);
  if (st || (st = ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT))) return st;
  const ic_tensor *ix = ic_in(c, IN_INDEX, 0), *g = ic_in(c, IN_DOUT, 0);
  if (g->ndim < 1) return ic_kfail_in(c, IN_DOUT, 0, "expected rank >= 1");
  const int ax = ic_kaxis(c, a->axis, g->ndim, "axis");
  if (ax < 0) return c->err->code;
  if (ix->ndim != 1) return ic_kfail_in(c, IN_INDEX, 0, "expected rank 1");
  int64_t d[IC_MAX_RANK];
  memcpy(d, g->dims, sizeof(int64_t) * (size_t)g->ndim);
  d[ax] = ix->dims[0];
  st = kg_expect(c, IN_ADD, g->dtype, g->ndim, d, "Out@GRAD's with Index's length on the axis");
  if (st) return st;
  kg_out(c, 0, g->dtype, g->ndim, g->dims);
  kg_out(c, 1, g->dtype, g->ndim, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const index_add_grad_attrs *a = c->attrs;
  const ic_tensor *ix = ic_in(c, IN_INDEX, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dv = ic_out(c, 1, 0);
  const int ax = (int)(a->axis < 0 ? a->axis + g->ndim : a->axis);
  const int64_t n = ix->dims[0], dim = g->dims[ax];
  for (int64_t j = 0; j < n; j++) {
    const int64_t k = ic_read_i64(ix, j);
    if (k < -dim || k >= dim) {
      return ic_kfail_in(c, IN_INDEX, 0, "entry %lld is %lld, expected in [%lld, %lld)",
                         (long long)j, (long long)k, (long long)-dim, (long long)dim);
    }
  }
  if (dx) kg_copy(dx, g);
  if (dv) {
    const int64_t outer = ic_numel(ax, g->dims);
    const int64_t inner = ic_numel(g->ndim - ax - 1, g->dims + ax + 1);
    for (int64_t o = 0; o < outer; o++) {
      for (int64_t j = 0; j < n; j++) {
        int64_t k = ic_read_i64(ix, j);
        if (k < 0) k += dim;
        for (int64_t e = 0; e < inner; e++)
          kg_put(dv, (o * n + j) * inner + e, kg_get(g, (o * dim + k) * inner + e));
      }
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_index_add_grad = {
    .name = "index_add_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .attrs_size = sizeof(index_add_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
