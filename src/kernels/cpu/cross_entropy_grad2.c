/* cross_entropy_grad2: the gradient of cross_entropy2 (phi CrossEntropy2GradKernel): X@GRAD is
 * -Y@GRAD / MatchX at each row's label and 0 elsewhere (0 for the whole row where Label ==
 * ignore_index). X's dims come from XShape ([0, X's dims...], meta only). */
#include <string.h>

#include "kernels/kernel.h"

typedef struct ce2_attrs {
  int64_t ignore_index;
} ce2_attrs;

enum { IN_XSHAPE, IN_LABEL, IN_MATCH, IN_DY };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ce2_attrs *a = attrs;
  a->ignore_index = ic_ar_int(r, "ignore_index", -100);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *xs = ic_in(c, IN_XSHAPE, 0), *m = ic_in(c, IN_MATCH, 0), *g = ic_in(c, IN_DY, 0);
  ic_status st = ic_kcheck_dtype(c, IN_LABEL, 0, IC_DT_INT);
  if (st || (st = ic_kcheck_dtype(c, IN_MATCH, 0, IC_DT_FLOAT))) return st;
  if (xs->ndim < 2 || xs->dims[0] != 0) {
    return ic_kfail_in(c, IN_XSHAPE, 0, "expected an XShape: dims [0, X's dims...]");
  }
  int64_t d = xs->dims[xs->ndim - 1], rows = d ? ic_numel(xs->ndim - 1, xs->dims + 1) / d : 0;
  for (int s = IN_LABEL; s <= IN_DY; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (ic_tensor_numel_(t) != rows || (s != IN_LABEL && t->dtype != m->dtype)) {
      return ic_kfail_in(c, s, 0, "expected %lld values, one per row of X", (long long)rows);
    }
  }
  (void)g;
  ic_tensor_set_meta(ic_out(c, 0, 0), m->dtype, xs->ndim - 1, xs->dims + 1);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ce2_attrs *a = c->attrs;
  const ic_tensor *l = ic_in(c, IN_LABEL, 0), *m = ic_in(c, IN_MATCH, 0), *g = ic_in(c, IN_DY, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t d = dx->dims[dx->ndim - 1], rows = d ? ic_tensor_numel_(dx) / d : 0;
  memset(dx->data, 0, (size_t)ic_tensor_numel_(dx) * ic_dtype_size(dx->dtype));
  for (int64_t i = 0; i < rows; i++) {
    int64_t lb = l->dtype == IC_INT64 ? ((const int64_t *)l->data)[i] : ((const int32_t *)l->data)[i];
    if (lb == a->ignore_index) continue;
    if (lb < 0 || lb >= d) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "input Label '%s' element %lld is %lld, "
                      "expected a class index in [0, %lld) or ignore_index (%lld)",
                      ic_in_name(c, IN_LABEL, 0), (long long)i, (long long)lb, (long long)d,
                      (long long)a->ignore_index);
    }
    if (dx->dtype == IC_FP32) {
      ((float *)dx->data)[i * d + lb] = -((const float *)g->data)[i] / ((const float *)m->data)[i];
    } else {
      ((double *)dx->data)[i * d + lb] = -((const double *)g->data)[i] / ((const double *)m->data)[i];
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"XShape", IC_SLOT_NO_BUFFER}, {"Label", 0}, {"MatchX", 0}, {"Y@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_cross_entropy_grad2 = {
    .name = "cross_entropy_grad2",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ce2_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
