/* label_smooth: Out = (1 - epsilon) * X + epsilon * PriorDist, PriorDist (K values, [K] or
 * [1, K]) spread over every row of X's last dim K; without PriorDist the uniform
 * epsilon / K. float32, float64; epsilon (default 0) rounded to X's dtype as Paddle does
 * (paddle/phi/kernels/cpu/label_smooth_kernel.cc, LabelSmoothInferMeta). */
#include "kernels/kernel.h"

typedef struct label_smooth_attrs {
  double epsilon;
} label_smooth_attrs;

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"PriorDist", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  label_smooth_attrs *a = attrs;
  a->epsilon = (float)ic_ar_float(r, "epsilon", 0.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *p = ic_in(c, 1, 0);
  if (x->ndim == 0) return ic_kfail_in(c, 0, 0, "expected at least 1 dim");
  int64_t k = x->dims[x->ndim - 1];
  if (p) {
    if (p->dtype != x->dtype || ic_numel(p->ndim, p->dims) != k ||
        (p->ndim > 1 && p->dims[p->ndim - 1] != k)) {
      return ic_kfail_in(c, 1, 0, "expected %s with %lld values ([%lld] or [1, %lld]), the "
                         "last dim of X '%s'", ic_dtype_name(x->dtype), (long long)k,
                         (long long)k, (long long)k, ic_in_name(c, 0, 0));
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define SMOOTH(T)                                                                       \
  do {                                                                                  \
    const T *xp = x->data, *pp = p ? p->data : NULL;                                    \
    T *op = ic_out(c, 0, 0)->data, e = (T)a->epsilon, keep = (T)(1.0 - a->epsilon);     \
    T uni = (T)(a->epsilon / (double)k);                                                \
    for (int64_t i = 0; i < n; i++) op[i] = keep * xp[i] + (pp ? e * pp[i % k] : uni);  \
  } while (0)

static ic_status run(ic_kctx *c) {
  const label_smooth_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *p = ic_in(c, 1, 0);
  int64_t n = ic_numel(x->ndim, x->dims), k = x->dims[x->ndim - 1];
  if (n == 0) return IC_OK;
  if (x->dtype == IC_FP32) SMOOTH(float);
  else SMOOTH(double);
  return IC_OK;
}

const ic_opdef ic_op_label_smooth = {
    .name = "label_smooth", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(label_smooth_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
