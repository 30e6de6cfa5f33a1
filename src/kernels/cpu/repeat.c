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
