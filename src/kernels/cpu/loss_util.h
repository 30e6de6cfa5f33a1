/* Shared checks of the small elementwise losses (hinge_loss, rank_loss, modified_huber_loss,
 * teacher_student_sigmoid_loss and their gradients): inputs of one float dtype and one
 * element count. */
#ifndef IC_KERNELS_CPU_LOSS_UTIL_H
#define IC_KERNELS_CPU_LOSS_UTIL_H

#include "kernels/kernel.h"

/* Input slots `slots` (n of them, absent optional ones skipped) all float32 or float64, like
 * input slots[0], with its element count. */
static inline ic_status ic_loss_check_like(ic_kctx *c, const size_t *slots, int n) {
  const ic_tensor *x = ic_in(c, slots[0], 0);
  ic_status st = ic_kcheck_dtype(c, slots[0], 0, IC_DT_FLOAT);
  if (st) return st;
  for (int k = 1; k < n; k++) {
    const ic_tensor *t = ic_in(c, slots[k], 0);
    if (!t) continue;
    if (t->dtype != x->dtype || ic_tensor_numel_(t) != ic_tensor_numel_(x)) {
      char d[128];
      return ic_kfail_in(c, slots[k], 0, "expected %s's dtype and %lld elements (%s)",
                         ic_in_name(c, slots[0], 0), (long long)ic_tensor_numel_(x),
                         ic_tensor_describe(x, d, sizeof d));
    }
  }
  return IC_OK;
}

#endif
