/* argsort: Out = X sorted along `axis` (default -1), Indices (int64) = the positions the
 * values came from; `descending` (default false). A NaN ranks above every number (last
 * ascending, first descending). With `stable` equal values keep their order
 * (std::stable_sort); without it they come in the order libstdc++'s std::sort leaves them
 * (stdsort.h), as in Paddle (paddle/phi/kernels/cpu/argsort_kernel.cc). float32, float64,
 * int32, int64, uint8, int16, float16 and bfloat16 (the last two compared as float), as
 * Paddle's CPU kernel (oracle case a2_small_dtypes). */
#include <string.h>

#include "kernels/cpu/shapeops.h"
#include "kernels/cpu/sortutil.h"

typedef struct argsort_attrs {
  int64_t axis;
  bool descending, stable;
} argsort_attrs;

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[2] = {{"Out", 0}, {"Indices", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  argsort_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", -1);
  a->descending = ic_ar_bool(r, "descending", false);
  a->stable = ic_ar_bool(r, "stable", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const argsort_attrs *a = c->attrs;
  /* Paddle's CPU argsort: float, double, int32, int64, uint8, int16, float16, bfloat16. */
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM | IC_DT(IC_UINT8) | IC_DT(IC_INT16) |
                                              IC_DT(IC_FP16) | IC_DT(IC_BF16));
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim > 0 && ic_shapeops_axis(c, 0, a->axis, x->ndim, "attribute 'axis'") < 0) {
    return IC_ERR_SHAPE;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  ic_tensor_set_meta(ic_out(c, 1, 0), IC_INT64, x->ndim, x->dims);
  return IC_OK;
}

static ic_status argsort_cpu(ic_kctx *c) {
  const argsort_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  int axis = x->ndim == 0 ? 0 : (int)(a->axis < 0 ? a->axis + x->ndim : a->axis);
  return ic_sort_take(c, axis, x->ndim == 0 ? 1 : x->dims[axis], a->descending,
                      a->stable ? IC_SORT_STABLE : IC_SORT_STD);
}

const ic_opdef ic_op_argsort = {
    .name = "argsort", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 2, .outputs = k_outputs,
    .attrs_size = sizeof(argsort_attrs), .parse = parse, .infer = infer, .cpu = argsort_cpu,
};
