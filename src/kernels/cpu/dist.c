/* dist: Out (0-D) = the p-norm of X - Y over all elements, X and Y broadcast NumPy-style:
 * p = 0 counts the nonzero differences, inf takes the largest |difference|, -inf the
 * smallest, any other p (sum |d|^p)^(1/p). Sums in the inputs' dtype in element order.
 * float32, float64, one dtype (paddle/phi/kernels/impl/dist_kernel_impl.h over
 * PNormKernel with asvector). */
#include <math.h>

#include "kernels/cpu/nbcast.h"

typedef struct dist_attrs {
  float p;
} dist_attrs;

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};
static const size_t k_slots[2] = {0, 1}, k_zero[2] = {0, 0};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  dist_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "p", 2.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (ic_in(c, 1, 0)->dtype != ic_in(c, 0, 0)->dtype) {
    return ic_kfail_in(c, 1, 0, "expected the dtype of X '%s'", ic_in_name(c, 0, 0));
  }
  int r = 0;
  int64_t d[IC_MAX_RANK];
  st = ic_nbcast_dims(c, 2, k_slots, k_zero, &r, d);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, 0, 0)->dtype, 0, NULL);
  return IC_OK;
}

#define DIST(T, POW, FABS)                                                              \
  do {                                                                                  \
    const T *xp = x->data, *yp = y->data;                                               \
    T acc = p == INFINITY ? (T)0 : p == -INFINITY ? (T)INFINITY : (T)0;                 \
    for (int64_t i = 0; i < n; i++) {                                                   \
      T d = FABS(xp[off[0]] - yp[off[1]]);                                              \
      if (p == 0) acc += d != 0 ? (T)1 : (T)0;                                          \
      else if (p == INFINITY) acc = d > acc ? d : acc;                                  \
      else if (p == -INFINITY) acc = d < acc ? d : acc;                                 \
      else acc += POW(d, (T)p);                                                         \
      ic_nbcast_next(r, dims, idx, 2, st, off);                                         \
    }                                                                                   \
    if (p != 0 && p != INFINITY && p != -INFINITY) acc = POW(acc, (T)1 / (T)p);         \
    if (n == 0) acc = 0;                                                                \
    *(T *)ic_out(c, 0, 0)->data = acc;                                                  \
  } while (0)

static ic_status run(ic_kctx *c) {
  const dist_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  int r = 0;
  int64_t dims[IC_MAX_RANK], st[2][IC_MAX_RANK], idx[IC_MAX_RANK] = {0}, off[2] = {0, 0};
  ic_status s = ic_nbcast_dims(c, 2, k_slots, k_zero, &r, dims);
  if (s) return s;
  ic_nbcast_strides(x, r, dims, st[0]);
  ic_nbcast_strides(y, r, dims, st[1]);
  int64_t n = ic_numel(r, dims);
  float p = a->p;
  if (x->dtype == IC_FP32) DIST(float, powf, fabsf);
  else DIST(double, pow, fabs);
  return IC_OK;
}

const ic_opdef ic_op_dist = {
    .name = "dist", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(dist_attrs), .parse = parse, .infer = infer, .cpu = run,
};
