/* See repeat.h. */
#include "kernels/cpu/repeat.h"

#include <string.h>

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
