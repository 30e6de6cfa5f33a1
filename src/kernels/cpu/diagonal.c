/* diagonal and trace: the diagonal of each matrix spanned by axes `axis1` and `axis2`
 * (defaults 0 and 1, negative from the end, distinct) of Input, `offset` (default 0) above
 * the main diagonal when positive, below when negative. diagonal: Out is Input without the
 * two axes plus a last axis of the diagonal's length (0 when the offset leaves none); any
 * dtype. trace: Out is the sums of those diagonals, Input without the two axes; float32,
 * float64, int32, int64 (integers wrap) (paddle/phi/kernels/cpu/diagonal_kernel.cc,
 * trace_kernel.cc, DiagonalInferMeta, TraceInferMeta). trace.c defines ic_op_trace. */
#include <string.h>

#include "kernels/cpu/diagonal.h"

static const ic_slotdef k_inputs[1] = {{"Input", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

ic_status ic_diagonal_parse(ic_attr_reader *r, void *attrs) {
  diagonal_attrs *a = attrs;
  a->offset = ic_ar_int(r, "offset", 0);
  a->axis1 = ic_ar_int(r, "axis1", 0);
  a->axis2 = ic_ar_int(r, "axis2", 1);
  return r->st;
}

ic_status ic_diagonal_plan(ic_kctx *c, diag_plan *p) {
  const diagonal_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim < 2) return ic_kfail_in(c, 0, 0, "expected at least 2 dims");
  int a1 = ic_kaxis(c, a->axis1, x->ndim, "axis1");
  if (a1 < 0) return c->err->code;
  int a2 = ic_kaxis(c, a->axis2, x->ndim, "axis2");
  if (a2 < 0) return c->err->code;
  if (a1 == a2) {
    return ic_kfail(c, IC_ERR_SHAPE, "attributes axis1 (%lld) and axis2 (%lld) name the same "
                    "axis %d of Input '%s', expected two distinct axes",
                    (long long)a->axis1, (long long)a->axis2, a1, ic_in_name(c, 0, 0));
  }
  int64_t d1 = x->dims[a1], d2 = x->dims[a2], len;
  if (a->offset >= 0) len = d2 - a->offset < d1 ? d2 - a->offset : d1;
  else len = d1 + a->offset < d2 ? d1 + a->offset : d2;
  if (len < 0) len = 0;
  p->len = len;
  int64_t stride[IC_MAX_RANK], s = 1;
  for (int i = x->ndim - 1; i >= 0; i--) {
    stride[i] = s;
    s *= x->dims[i];
  }
  p->n = 0;
  for (int i = 0; i < x->ndim; i++) {
    if (i == a1 || i == a2) continue;
    p->dims[p->n] = x->dims[i];
    p->stride[p->n++] = stride[i];
  }
  p->step = stride[a1] + stride[a2];
  p->start = len == 0 ? 0 : a->offset >= 0 ? a->offset * stride[a2] : -a->offset * stride[a1];
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  diag_plan p;
  ic_status st = ic_diagonal_plan(c, &p);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  p.dims[p.n] = p.len;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, p.n + 1, p.dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  diag_plan p;
  ic_status st = ic_diagonal_plan(c, &p);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  size_t es = ic_dtype_size(x->dtype);
  int64_t outer = ic_numel(p.n, p.dims), idx[IC_MAX_RANK] = {0}, off = 0;
  const char *xp = x->data;
  char *op = ic_out(c, 0, 0)->data;
  if (p.len == 0) return IC_OK;
  for (int64_t r = 0; r < outer; r++) {
    for (int64_t k = 0; k < p.len; k++) {
      memcpy(op + (size_t)(r * p.len + k) * es, xp + (size_t)(off + p.start + k * p.step) * es,
             es);
    }
    for (int i = p.n - 1; i >= 0; i--) {
      off += p.stride[i];
      if (++idx[i] < p.dims[i]) break;
      off -= p.stride[i] * p.dims[i];
      idx[i] = 0;
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_diagonal = {
    .name = "diagonal", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(diagonal_attrs), .parse = ic_diagonal_parse, .infer = infer, .cpu = run,
};
