/* Helpers of the complex ops (real, imag, angle, conj, as_real, as_complex, complex, abs):
 * the real dtype of a complex one and back. */
#ifndef IC_KERNELS_CPU_COMPLEXUTIL_H
#define IC_KERNELS_CPU_COMPLEXUTIL_H

#include "kernels/kernel.h"

#define IC_COMPLEX_PI 3.14159265358979323846

static inline ic_dtype ic_complex_part_dtype(ic_dtype dt) {
  return dt == IC_COMPLEX128 ? IC_FP64 : IC_FP32;
}
static inline ic_dtype ic_complex_of(ic_dtype dt) {
  return dt == IC_FP64 ? IC_COMPLEX128 : IC_COMPLEX64;
}
/* Element k of complex t as (re, im) in double. */
static inline void ic_complex_get(const ic_tensor *t, int64_t k, double *re, double *im) {
  if (t->dtype == IC_COMPLEX64) {
    *re = ((const float *)t->data)[2 * k];
    *im = ((const float *)t->data)[2 * k + 1];
  } else {
    *re = ((const double *)t->data)[2 * k];
    *im = ((const double *)t->data)[2 * k + 1];
  }
}

#endif
