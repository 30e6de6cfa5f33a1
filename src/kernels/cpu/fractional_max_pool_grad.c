/* The shared kernel of fractional_max_pool2d_grad / 3d_grad: see fractional_max_pool_grad.h. */
#include "kernels/cpu/fractional_max_pool_grad.h"

#include <string.h>

ic_status ic_fmp_grad_infer(ic_kctx *c) {
  const ic_fmp_attrs *a = c->attrs;
  const ic_tensor *m = ic_in(c, 0, 0), *g = ic_in(c, 1, 0), *x = ic_in(c, 2, 0);
  ic_status st = ic_kcheck_dtype(c, 2, 0, IC_DT_FLOAT);
  if (st) return st;
  if ((st = ic_kcheck_dtype(c, 0, 0, IC_DT(IC_INT32)))) return st;
  if (x->ndim != a->nd + 2) {
    return ic_kfail_in(c, 2, 0, "expected rank %d (%s)", a->nd + 2, a->nd == 2 ? "NCHW" : "NCDHW");
  }
  if (g->dtype != x->dtype) return ic_kfail_in(c, 1, 0, "expected x's dtype");
  if (g->ndim != x->ndim || g->dims[0] != x->dims[0] || g->dims[1] != x->dims[1]) {
    return ic_kfail_in(c, 1, 0, "expected x's rank, batch and channels");
  }
  if (!ic_dims_equal(m->ndim, m->dims, g->ndim, g->dims)) {
    return ic_kfail_in(c, 0, 0, "expected out@GRAD's dims");
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

ic_status ic_fmp_grad_cpu(ic_kctx *c) {
  const ic_tensor *m = ic_in(c, 0, 0), *g = ic_in(c, 1, 0), *x = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t planes = x->dims[0] * x->dims[1];
  const int64_t is = planes ? ic_numel(x->ndim, x->dims) / planes : 0;
  const int64_t os = planes ? ic_numel(g->ndim, g->dims) / planes : 0;
  const int32_t *mp = m->data;
  for (int64_t k = 0; k < planes * os; k++) {
    if (mp[k] < -1 || mp[k] >= is) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                      "input mask '%s' holds %d at element %lld, expected -1 or an index "
                      "in [0, %lld) of the input plane", ic_in_name(c, 0, 0), mp[k],
                      (long long)k, (long long)is);
    }
  }
  memset(dx->data, 0, ic_dtype_size(x->dtype) * (size_t)(planes * is));
  for (int64_t p = 0; p < planes; p++) {
    for (int64_t j = 0; j < os; j++) {
      const int32_t at = mp[p * os + j];
      if (at < 0) continue;
      if (x->dtype == IC_FP32) {
        ((float *)dx->data)[p * is + at] += ((const float *)g->data)[p * os + j];
      } else {
        ((double *)dx->data)[p * is + at] += ((const double *)g->data)[p * os + j];
      }
    }
  }
  return IC_OK;
}
