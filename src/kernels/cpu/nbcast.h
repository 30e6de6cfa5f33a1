/* NumPy-style broadcasting of several inputs to one output shape, for ops that broadcast
 * without Paddle's elementwise `axis` (lerp, broadcast_tensors): shapes aligned at their last
 * dims, each dim equal or 1. */
#ifndef IC_KERNELS_CPU_NBCAST_H
#define IC_KERNELS_CPU_NBCAST_H

#include "kernels/kernel.h"

/* The broadcast shape of the n inputs named by slots s[0..n) (entry 0 of each) into
 * *ndim / dims; fails (IC_ERR_SHAPE) naming the input whose dim neither matches nor is 1. */
static inline ic_status ic_nbcast_dims(ic_kctx *c, size_t n, const size_t *s, const size_t *e,
                                       int *ndim, int64_t *dims) {
  int r = 0;
  for (size_t k = 0; k < n; k++) {
    const ic_tensor *t = ic_in(c, s[k], e[k]);
    if (t->ndim > r) r = t->ndim;
  }
  for (int i = 0; i < r; i++) dims[i] = 1;
  for (size_t k = 0; k < n; k++) {
    const ic_tensor *t = ic_in(c, s[k], e[k]);
    for (int i = 0; i < t->ndim; i++) {
      int64_t d = t->dims[i], *o = &dims[r - t->ndim + i];
      if (d == *o || d == 1) continue;
      if (*o != 1) {
        return ic_kfail_in(c, s[k], e[k],
                           "cannot be broadcast with the other inputs: dim %d is %lld where "
                           "another input has %lld",
                           i, (long long)d, (long long)*o);
      }
      *o = d;
    }
  }
  *ndim = r;
  return IC_OK;
}

/* Element strides of t read as the broadcast shape of rank r (0 along broadcast dims). */
static inline void ic_nbcast_strides(const ic_tensor *t, int r, const int64_t *dims,
                                     int64_t *st) {
  int64_t s = 1;
  for (int i = r - 1; i >= 0; i--) {
    int j = i - (r - t->ndim);
    if (j < 0 || t->dims[j] != dims[i]) {
      st[i] = 0;
    } else {
      st[i] = s;
      s *= t->dims[j];
    }
  }
}

/* Offsets of up to 4 broadcast operands for output element order: step the odometer idx
 * (rank r, zeros at start) and the offsets off[0..n) to the next output element. */
static inline void ic_nbcast_next(int r, const int64_t *dims, int64_t *idx, size_t n,
                                  int64_t st[][IC_MAX_RANK], int64_t *off) {
  for (int i = r - 1; i >= 0; i--) {
    for (size_t k = 0; k < n; k++) off[k] += st[k][i];
    if (++idx[i] < dims[i]) return;
    for (size_t k = 0; k < n; k++) off[k] -= st[k][i] * dims[i];
    idx[i] = 0;
  }
}

#endif
