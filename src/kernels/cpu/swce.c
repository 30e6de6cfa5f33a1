/* Shared parts of softmax_with_cross_entropy and its grad (swce.h). */
#include "kernels/cpu/swce.h"

ic_status ic_swce_parse(ic_attr_reader *r, void *attrs) {
  swce_attrs *a = attrs;
  a->soft_label = ic_ar_bool(r, "soft_label", false);
  a->use_softmax = ic_ar_bool(r, "use_softmax", true);
  a->ignore_index = ic_ar_int(r, "ignore_index", -100);
  a->axis = ic_ar_int(r, "axis", -1);
  return r->st;
}

ic_status ic_swce_check(ic_kctx *c, size_t s_logits, size_t s_label, swce_geom *g) {
  const swce_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, s_logits, 0), *l = ic_in(c, s_label, 0);
  ic_status st = ic_kcheck_dtype(c, s_logits, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim < 1) return ic_kfail_in(c, s_logits, 0, "expected rank >= 1");
  int ax = ic_kaxis(c, a->axis, x->ndim, "axis");
  if (ax < 0) return c->err->code;
  g->axis = ax;
  g->n = g->r = 1;
  g->d = x->dims[ax];
  for (int i = 0; i < ax; i++) g->n *= x->dims[i];
  for (int i = ax + 1; i < x->ndim; i++) g->r *= x->dims[i];
  char want[160], dd[128];
  if (a->soft_label) {
    if (l->dtype != x->dtype || !ic_dims_equal(l->ndim, l->dims, x->ndim, x->dims)) {
      return ic_kfail_in(c, s_label, 0, "expected %s (soft_label: a distribution like %s)",
                         ic_tensor_describe(x, want, sizeof want), c->def->inputs[s_logits].name);
    }
    return IC_OK;
  }
  if ((st = ic_kcheck_dtype(c, s_label, 0, IC_DT_INT))) return st;
  int64_t dims[IC_MAX_RANK];
  for (int i = 0; i < x->ndim; i++) dims[i] = i == ax ? 1 : x->dims[i];
  /* Paddle also accepts a hard label without the class axis when it is the last one */
  bool ok = ic_dims_equal(l->ndim, l->dims, x->ndim, dims) ||
            (ax == x->ndim - 1 && ic_dims_equal(l->ndim, l->dims, x->ndim - 1, dims));
  if (!ok) {
    return ic_kfail_in(c, s_label, 0, "expected dims %s (class indices: %s '%s' with axis %d "
                       "of size 1)", ic_dims_str(x->ndim, dims, dd, sizeof dd),
                       c->def->inputs[s_logits].name, ic_in_name(c, s_logits, 0), ax);
  }
  return IC_OK;
}

ic_status ic_swce_label(ic_kctx *c, size_t s_label, int64_t k, const swce_geom *g,
                        int64_t *out) {
  const swce_attrs *a = c->attrs;
  const ic_tensor *l = ic_in(c, s_label, 0);
  int64_t v = l->dtype == IC_INT64 ? ((const int64_t *)l->data)[k] : ((const int32_t *)l->data)[k];
  if (v != a->ignore_index && (v < 0 || v >= g->d)) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                    "input Label '%s' element %lld is %lld, expected a class index in [0, %lld) "
                    "or ignore_index (%lld)",
                    ic_in_name(c, s_label, 0), (long long)k, (long long)v, (long long)g->d,
                    (long long)a->ignore_index);
  }
  *out = v;
  return IC_OK;
}
