/* slice_grad: Input@GRAD = zeros of Input's dims with Out@GRAD written into the window slice
 * took (phi SliceGradKernel): the same axes, starts, ends (from their tensors or attributes),
 * infer_flags and decrease_axis as the forward op, resolved by ic_slice_plan_of (slice.c).
 * Input is read for its dims only. */
#include <string.h>

#include "kernels/cpu/shapeops.h"

#define MAX_AXES 64

enum { INPUT, STARTS_TENSOR, ENDS_TENSOR, STARTS_LIST, ENDS_LIST, DOUT };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  slice_attrs *a = attrs;
  ic_ar_ints(r, "axes", true, &a->axes, &a->n_axes);
  ic_ar_ints(r, "starts", false, &a->starts, &a->n_starts);
  ic_ar_ints(r, "ends", false, &a->ends, &a->n_ends);
  ic_ar_ints(r, "infer_flags", false, &a->infer_flags, &a->n_infer_flags);
  ic_ar_ints(r, "decrease_axis", false, &a->decrease, &a->n_decrease);
  if (!r->st && a->n_axes > MAX_AXES) {
    ic_ar_fail(r, "axes", "has %zu entries, at most %d supported", a->n_axes, MAX_AXES);
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, INPUT, 0), *g = ic_in(c, DOUT, 0);
  ic_slice_plan s;
  ic_status st = ic_slice_plan_of(c, &s);
  if (st) return st;
  if (g->dtype != x->dtype || ic_tensor_numel_(g) != ic_numel(x->ndim, s.len)) {
    return ic_kfail_in(c, DOUT, 0, "expected %s with %lld elements (the slice's)",
                       ic_dtype_name(x->dtype), (long long)ic_numel(x->ndim, s.len));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, INPUT, 0), *g = ic_in(c, DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_slice_plan s;
  ic_status st = ic_slice_plan_of(c, &s);
  if (st) return st;
  const size_t es = ic_dtype_size(x->dtype);
  const int rank = x->ndim;
  memset(dx->data, 0, (size_t)ic_tensor_numel_(dx) * es);
  const int64_t n = ic_numel(rank, s.len);
  if (n == 0) return IC_OK;
  int64_t is[IC_MAX_RANK], idx[IC_MAX_RANK] = {0}, off = 0, m = 1;
  for (int i = rank - 1; i >= 0; i--) {
    is[i] = m;
    m *= x->dims[i];
  }
  for (int i = 0; i < rank; i++) off += s.start[i] * is[i];
  for (int64_t e = 0; e < n; e++) {
    memcpy((char *)dx->data + (size_t)off * es, (const char *)g->data + (size_t)e * es, es);
    for (int i = rank - 1; i >= 0; i--) {
      off += is[i];
      if (++idx[i] < s.len[i]) break;
      off -= is[i] * s.len[i];
      idx[i] = 0;
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Input", IC_SLOT_NO_BUFFER},
    {"StartsTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"EndsTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"StartsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"EndsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"Out@GRAD", 0},
};
static const ic_slotdef outputs[] = {{"Input@GRAD", 0}};

const ic_opdef ic_op_slice_grad = {
    .name = "slice_grad",
    .n_inputs = 6, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(slice_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
