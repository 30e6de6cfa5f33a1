/* p_norm: Out = the p-norm of X along `axis` (default -1), or over every element with
 * `asvector` (default false): (sum |x|^p)^(1/p) for `porder` p (default 2), max |x| for
 * +inf, min |x| for -inf, and the count of nonzero elements for 0. `keepdim` (default
 * false) keeps the reduced dims as 1. `epsilon` only matters for the gradient. float32 and
 * float64, summed in double (paddle/phi/kernels/cpu/p_norm_kernel.cc, PNormInferMeta). */
#include <math.h>

#include "kernels/cpu/p_norm.h"
#include "kernels/cpu/shapeops.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

ic_status ic_p_norm_parse(ic_attr_reader *r, void *attrs) {
  p_norm_attrs *a = attrs;
  a->porder = (float)ic_ar_float(r, "porder", 2.0);
  a->axis = ic_ar_int(r, "axis", -1);
  a->keepdim = ic_ar_bool(r, "keepdim", false);
  a->asvector = ic_ar_bool(r, "asvector", false);
  (void)ic_ar_float(r, "epsilon", 1e-12);
  return r->st;
}

ic_status ic_p_norm_plan(ic_kctx *c, int64_t *outer, int64_t *len, int64_t *inner) {
  const p_norm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  *outer = 1, *inner = 1, *len = ic_numel(x->ndim, x->dims);
  if (a->asvector || x->ndim == 0) return IC_OK;
  int axis = ic_shapeops_axis(c, 0, a->axis, x->ndim, "attribute 'axis'");
  if (axis < 0) return IC_ERR_SHAPE;
  *outer = ic_numel(axis, x->dims);
  *len = x->dims[axis];
  *inner = ic_numel(x->ndim - axis - 1, x->dims + axis + 1);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const p_norm_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t d[IC_MAX_RANK];
  int n = 0;
  if (a->asvector || x->ndim == 0) {
    if (a->keepdim) {
      for (int i = 0; i < x->ndim; i++) d[n++] = 1;
    }
  } else {
    int axis = ic_shapeops_axis(c, 0, a->axis, x->ndim, "attribute 'axis'");
    if (axis < 0) return IC_ERR_SHAPE;
    for (int i = 0; i < x->ndim; i++) {
      if (i != axis) {
        d[n++] = x->dims[i];
      } else if (a->keepdim) {
        d[n++] = 1;
      }
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, n, d);
  return IC_OK;
}

#define NORM(T)                                                                            \
  do {                                                                                     \
    const T *xp = x->data;                                                                 \
    T *op = o->data;                                                                       \
    for (int64_t r = 0; r < outer; r++) {                                                  \
      for (int64_t i = 0; i < inner; i++) {                                                \
        double acc = p == INFINITY ? 0.0 : p == -INFINITY ? INFINITY : 0.0;                \
        for (int64_t k = 0; k < len; k++) {                                                \
          double v = fabs((double)xp[(r * len + k) * inner + i]);                          \
          if (p == INFINITY) {                                                             \
            acc = v > acc || v != v ? v : acc;                                             \
          } else if (p == -INFINITY) {                                                     \
            acc = v < acc || v != v ? v : acc;                                             \
          } else if (p == 0) {                                                             \
            acc += v != 0;                                                                 \
          } else {                                                                         \
            acc += pow(v, p);                                                              \
          }                                                                                \
        }                                                                                  \
        if (p != 0 && isfinite(p)) acc = pow(acc, 1.0 / p);                                \
        op[r * inner + i] = (T)acc;                                                        \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static ic_status p_norm_cpu(ic_kctx *c) {
  const p_norm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  double p = a->porder;
  int64_t outer, len, inner;
  ic_status st = ic_p_norm_plan(c, &outer, &len, &inner);
  if (st) return st;
  if (x->dtype == IC_FP32) {
    NORM(float);
  } else {
    NORM(double);
  }
  return IC_OK;
}

const ic_opdef ic_op_p_norm = {
    .name = "p_norm", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(p_norm_attrs), .parse = ic_p_norm_parse, .infer = infer,
    .cpu = p_norm_cpu,
};
