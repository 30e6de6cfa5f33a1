/* See repeat.h. */
#include "kernels/cpu/repeat.h"

#include <string.h>

#include "kernels/cpu/shapeops.h"

/* Dim d of the output: each of od[d] / xd[d] repeats of the input's rows. The last dim copies
 * whole input rows, so a trailing run of xd elements is one memcpy. */
static void copy_dim(char *out, const int64_t *od, const int64_t *ost, const char *in,
                     const int64_t *xd, const int64_t *ist, int d, int ndim, size_t es) {
  if (d == ndim - 1) {
    size_t row = (size_t)xd[d] * es;
    for (int64_t j = 0; j < od[d]; j += xd[d]) memcpy(out + (size_t)j * es, in, row);
    return;
  }
  for (int64_t j = 0; j < od[d]; j++) {
    copy_dim(out + (size_t)(j * ost[d]) * es, od, ost, in + (size_t)((j % xd[d]) * ist[d]) * es,
             xd, ist, d + 1, ndim, es);
  }
}

void ic_repeat_copy(void *out, const int64_t *od, const void *in, const int64_t *xd, int ndim,
                    size_t es) {
  if (ic_numel(ndim, od) == 0) return;
  if (ndim == 0) {
    memcpy(out, in, es);
    return;
  }
  int64_t ost[IC_MAX_RANK], ist[IC_MAX_RANK];
  int64_t so = 1, si = 1;
  for (int d = ndim - 1; d >= 0; d--) {
    ost[d] = so;
    ist[d] = si;
    so *= od[d];
    si *= xd[d];
  }
  copy_dim(out, od, ost, in, xd, ist, 0, ndim, es);
}

ic_status ic_repeat_cpu(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t xd[IC_MAX_RANK];
  int off = o->ndim - x->ndim;
  for (int i = 0; i < o->ndim; i++) xd[i] = i >= off ? x->dims[i - off] : 1;
  ic_repeat_copy(o->data, o->dims, x->data, xd, o->ndim, ic_dtype_size(x->dtype));
  return IC_OK;
}

ic_status ic_repeat_read_target(ic_kctx *c, size_t s_tensor, size_t s_list, const char *what,
                                const int64_t *attr, size_t n_attr,
                                const char *const from_names[3], int64_t *t, size_t *n,
                                const char **from) {
  *n = 0;
  if (ic_in(c, s_tensor, 0)) {
    *from = from_names[1];
    return ic_shapeops_read_ints(c, s_tensor, false, what, t, IC_MAX_RANK + 1, n);
  }
  if (c->in[s_list].n > 0) {
    *from = from_names[2];
    return ic_shapeops_read_ints(c, s_list, true, what, t, IC_MAX_RANK + 1, n);
  }
  *from = from_names[0];
  *n = n_attr > IC_MAX_RANK ? IC_MAX_RANK + 1 : n_attr;
  for (size_t i = 0; i < *n && i < n_attr; i++) t[i] = attr[i];
  return IC_OK;
}

/* ---- gradients ---- */

/* X's dims padded with leading 1s to Out@GRAD's rank, checked. */
static ic_status repeat_grad_dims(ic_kctx *c, size_t s_x, size_t s_g, int64_t *xd) {
  const ic_tensor *x = ic_in(c, s_x, 0), *g = ic_in(c, s_g, 0);
  if (x->ndim > g->ndim) {
    return ic_kfail_in(c, s_g, 0, "rank %d is below the rank %d of X '%s'", g->ndim, x->ndim,
                       ic_in_name(c, s_x, 0));
  }
  int off = g->ndim - x->ndim;
  for (int i = 0; i < g->ndim; i++) {
    xd[i] = i >= off ? x->dims[i - off] : 1;
    if (xd[i] == 0 ? g->dims[i] != 0 : g->dims[i] % xd[i] != 0) {
      char d[128];
      return ic_kfail_in(c, s_g, 0, "dim %d is %lld, not a multiple of X's %lld (X %s)", i,
                         (long long)g->dims[i], (long long)xd[i],
                         ic_dims_str(x->ndim, x->dims, d, sizeof d));
    }
  }
  return IC_OK;
}

ic_status ic_repeat_grad_infer(ic_kctx *c, size_t s_x, size_t s_g) {
  ic_status st = ic_kcheck_dtype(c, s_g, 0, IC_DT_FLOAT);
  if (st) return st;
  int64_t xd[IC_MAX_RANK];
  if ((st = repeat_grad_dims(c, s_x, s_g, xd))) return st;
  const ic_tensor *x = ic_in(c, s_x, 0), *g = ic_in(c, s_g, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, x->ndim, x->dims);
  return IC_OK;
}

ic_status ic_repeat_grad_run(ic_kctx *c, size_t s_x, size_t s_g) {
  const ic_tensor *g = ic_in(c, s_g, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int64_t xd[IC_MAX_RANK];
  ic_status st = repeat_grad_dims(c, s_x, s_g, xd);
  if (st) return st;
  const int R = g->ndim;
  const int64_t nx = ic_tensor_numel_(dx), ng = ic_tensor_numel_(g);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx ? nx : 1) * sizeof(double));
  if (!s) return c->err->code;
  double *acc = s->data;
  for (int64_t j = 0; j < nx; j++) acc[j] = 0;
  int64_t idx[IC_MAX_RANK] = {0};
  for (int64_t i = 0; i < ng; i++) {
    int64_t j = 0;
    for (int k = 0; k < R; k++) j = j * xd[k] + idx[k] % xd[k];
    acc[j] += g->dtype == IC_FP32 ? (double)((const float *)g->data)[i]
                                  : ((const double *)g->data)[i];
    for (int k = R - 1; k >= 0; k--) {
      if (++idx[k] < g->dims[k]) break;
      idx[k] = 0;
    }
  }
  for (int64_t j = 0; j < nx; j++) {
    if (dx->dtype == IC_FP32) ((float *)dx->data)[j] = (float)acc[j];
    else ((double *)dx->data)[j] = acc[j];
  }
  ic_buffer_release(s);
  return IC_OK;
}
