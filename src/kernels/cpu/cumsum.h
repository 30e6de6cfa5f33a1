/* cumsum and cumsum_grad share the attributes and the scan (cumsum.c). */
#ifndef IC_KERNELS_CPU_CUMSUM_H
#define IC_KERNELS_CPU_CUMSUM_H

#include "kernels/cpu/shapeops.h"

typedef struct cumsum_attrs {
  int64_t axis;
  bool flatten, exclusive, reverse;
} cumsum_attrs;

ic_status ic_cumsum_parse(ic_attr_reader *r, void *attrs); /* cumsum_attrs */

/* Writes into dst the running sums of src, both of x's dims and of dtype dt (float32,
 * float64, int32 or int64), along a's axis (over all of it under a->flatten), from the end
 * when reverse (the caller's choice: the grad flips a->reverse), leaving each element out
 * under a->exclusive. Integers wrap. */
void ic_cumsum_scan(const cumsum_attrs *a, const ic_tensor *x, ic_dtype dt, const void *src,
                    void *dst, bool reverse);

#endif
