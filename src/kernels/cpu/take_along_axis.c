/* take_along_axis: Result (Index's dims, Input's dtype) holds at each index position p the
 * element of Input at p with coordinate Axis replaced by Index[p] (int32 or int64, in
 * [-dims[Axis], dims[Axis]), negative counting from the end). Input and Index have one rank;
 * the Python API broadcasts them first, so the kernel takes Index dims no larger than Input's
 * off the axis, as Paddle's gather reads Input only there
 * (paddle/phi/kernels/cpu/take_along_axis_kernel.cc, funcs/gather_scatter_functor.cc,
 * TakeAlongAxisInferMeta). Any dtype. A negative Axis counts from the end; Paddle 3.3.1's
 * kernel reads dims[Axis] unnormalized there (its Python API passes Axis >= 0). */
#include <string.h>

#include "kernels/cpu/shapeops.h"

typedef struct take_along_axis_attrs {
  int64_t axis;
} take_along_axis_attrs;

enum { IN_INPUT, IN_INDEX };
static const ic_slotdef k_inputs[2] = {{"Input", 0}, {"Index", 0}};
static const ic_slotdef k_outputs[1] = {{"Result", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  take_along_axis_attrs *a = attrs;
  a->axis = ic_ar_int_req(r, "Axis");
  return r->st;
}

/* The normalized axis, or -1 with an error. */
static int check(ic_kctx *c) {
  const take_along_axis_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *ix = ic_in(c, IN_INDEX, 0);
  if (ic_kcheck_dtype(c, IN_INDEX, 0, IC_DT_INT)) return -1;
  if (x->ndim == 0) {
    ic_kfail_in(c, IN_INPUT, 0, "expected rank > 0");
    return -1;
  }
  if (ix->ndim != x->ndim) {
    ic_kfail_in(c, IN_INDEX, 0, "expected the rank of Input '%s' (%d)",
                ic_in_name(c, IN_INPUT, 0), x->ndim);
    return -1;
  }
  int ax = ic_shapeops_axis(c, IN_INPUT, a->axis, x->ndim, "attribute 'Axis'");
  if (ax < 0) return -1;
  for (int k = 0; k < x->ndim; k++) {
    if (k != ax && ix->dims[k] > x->dims[k]) {
      ic_kfail_in(c, IN_INDEX, 0, "has dim %d of %lld, expected at most that of Input '%s' "
                  "(%lld) off axis %d", k, (long long)ix->dims[k], ic_in_name(c, IN_INPUT, 0),
                  (long long)x->dims[k], ax);
      return -1;
    }
  }
  return ax;
}

static ic_status infer(ic_kctx *c) {
  if (check(c) < 0) return IC_ERR_SHAPE;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *ix = ic_in(c, IN_INDEX, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, ix->ndim, ix->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const int ax = check(c);
  if (ax < 0) return IC_ERR_SHAPE;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *ix = ic_in(c, IN_INDEX, 0);
  const int rank = x->ndim;
  const int64_t n = ic_tensor_numel_(ix), len = x->dims[ax];
  if (n == 0) return IC_OK;
  const size_t es = ic_dtype_size(x->dtype);
  int64_t xs[IC_MAX_RANK];
  xs[rank - 1] = 1;
  for (int k = rank - 2; k >= 0; k--) xs[k] = xs[k + 1] * x->dims[k + 1];
  const char *src = x->data;
  char *dst = ic_out(c, 0, 0)->data;
  int64_t idx[IC_MAX_RANK] = {0}, base = 0; /* base: Input offset of idx off the axis */
  for (int64_t p = 0; p < n; p++) {
    int64_t i = ic_read_i64(ix, p);
    if (i < -len || i >= len) {
      return ic_kfail_in(c, IN_INDEX, 0, "holds %lld at element %lld, expected in [%lld, %lld)",
                         (long long)i, (long long)p, (long long)-len, (long long)len);
    }
    if (i < 0) i += len;
    memcpy(dst + (size_t)p * es, src + (size_t)(base + i * xs[ax]) * es, es);
    for (int k = rank - 1; k >= 0; k--) {
      if (k != ax) base += xs[k];
      if (++idx[k] < ix->dims[k]) break;
      if (k != ax) base -= xs[k] * ix->dims[k];
      idx[k] = 0;
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_take_along_axis = {
    .name = "take_along_axis", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(take_along_axis_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
