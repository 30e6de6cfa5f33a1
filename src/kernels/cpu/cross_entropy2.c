/* cross_entropy2: Y = -log(X[label]) per row, for X holding probabilities along its last axis
 * and Label the class indices (int32/int64, X's dims with the last one 1) (phi
 * CrossEntropyWithSoftmax's sibling CrossEntropy2Kernel, CPU). MatchX = X[label], kept for the
 * gradient; where Label == ignore_index (default -100) Y and MatchX are 0. A label outside
 * [0, classes) is an error naming it. XShape is meta only ([0, X's dims...]). Y has X's dims
 * with the last one 1, in X's precision. */
#include <math.h>

#include "kernels/kernel.h"

typedef struct ce2_attrs {
  int64_t ignore_index;
} ce2_attrs;

enum { IN_X, IN_LABEL };
enum { OUT_Y, OUT_XSHAPE, OUT_MATCH };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ce2_attrs *a = attrs;
  a->ignore_index = ic_ar_int(r, "ignore_index", -100);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *l = ic_in(c, IN_LABEL, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st || (st = ic_kcheck_dtype(c, IN_LABEL, 0, IC_DT_INT))) return st;
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  int64_t d[IC_MAX_RANK + 1];
  for (int i = 0; i < x->ndim; i++) d[i] = x->dims[i];
  d[x->ndim - 1] = 1;
  if (ic_tensor_numel_(l) != ic_numel(x->ndim, d)) {
    char s[128];
    return ic_kfail_in(c, IN_LABEL, 0, "expected dims %s (one class index per row of X)",
                       ic_dims_str(x->ndim, d, s, sizeof s));
  }
  ic_tensor_set_meta(ic_out(c, OUT_Y, 0), x->dtype, x->ndim, d);
  if (ic_out(c, OUT_MATCH, 0)) ic_tensor_set_meta(ic_out(c, OUT_MATCH, 0), x->dtype, x->ndim, d);
  if (ic_out(c, OUT_XSHAPE, 0)) {
    d[0] = 0;
    for (int i = 0; i < x->ndim; i++) d[i + 1] = x->dims[i];
    ic_tensor_set_meta(ic_out(c, OUT_XSHAPE, 0), x->dtype, x->ndim + 1, d);
  }
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}
static void put(ic_tensor *t, int64_t i, double v) {
  if (t->dtype == IC_FP32) ((float *)t->data)[i] = (float)v;
  else ((double *)t->data)[i] = v;
}

static ic_status run(ic_kctx *c) {
  const ce2_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *l = ic_in(c, IN_LABEL, 0);
  ic_tensor *y = ic_out(c, OUT_Y, 0), *m = ic_out(c, OUT_MATCH, 0);
  const int64_t d = x->dims[x->ndim - 1], rows = d ? ic_tensor_numel_(x) / d : 0;
  for (int64_t i = 0; i < rows; i++) {
    int64_t lb = l->dtype == IC_INT64 ? ((const int64_t *)l->data)[i] : ((const int32_t *)l->data)[i];
    double p = 0, v = 0;
    if (lb != a->ignore_index) {
      if (lb < 0 || lb >= d) {
        return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "input Label '%s' element %lld is %lld, "
                        "expected a class index in [0, %lld) or ignore_index (%lld)",
                        ic_in_name(c, IN_LABEL, 0), (long long)i, (long long)lb, (long long)d,
                        (long long)a->ignore_index);
      }
      p = get(x, i * d + lb);
      /* -log in X's precision, -inf at 0 kept as Paddle's TolerableValue does: 1e20 */
      double lg = x->dtype == IC_FP32 ? (double)logf((float)p) : log(p);
      v = lg == -INFINITY ? 1e20 : -lg;
    }
    put(y, i, v);
    if (m) put(m, i, p);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Label", 0}};
static const ic_slotdef outputs[] = {
    {"Y", 0}, {"XShape", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER}, {"MatchX", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_cross_entropy2 = {
    .name = "cross_entropy2",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(ce2_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
