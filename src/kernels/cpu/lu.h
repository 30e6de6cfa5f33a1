/* LU with partial pivoting in double (defined in inverse.c), shared by inverse,
 * matrix_power (its negative powers), determinant and slogdeterminant. */
#ifndef IC_KERNELS_CPU_LU_H
#define IC_KERNELS_CPU_LU_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/kernel.h"

/* Invert the n x n row-major matrix a (overwritten by its LU factors: the largest magnitude
 * in each column as pivot) into inv; perm holds n int64. false: a zero pivot (singular). */
bool ic_lu_invert(double *a, double *inv, int64_t *perm, int64_t n);

/* The determinant of the n x n row-major matrix a (overwritten by its LU factors, partial
 * pivoting in double) as a sign (-1, 0 or 1) and the log of its magnitude (-inf for 0). */
static inline void ic_lu_slogdet(double *a, int64_t n, double *sign, double *logabs) {
  double s = 1.0, l = 0.0;
  for (int64_t k = 0; k < n; k++) {
    int64_t p = k;
    double best = fabs(a[k * n + k]);
    for (int64_t i = k + 1; i < n; i++) {
      if (fabs(a[i * n + k]) > best) {
        best = fabs(a[i * n + k]);
        p = i;
      }
    }
    if (!(best > 0.0)) {
      *sign = best == 0.0 ? 0.0 : NAN;
      *logabs = best == 0.0 ? -INFINITY : NAN;
      return;
    }
    if (p != k) {
      for (int64_t j = 0; j < n; j++) {
        const double t = a[k * n + j];
        a[k * n + j] = a[p * n + j];
        a[p * n + j] = t;
      }
      s = -s;
    }
    const double d = a[k * n + k];
    if (d < 0) s = -s;
    l += log(fabs(d));
    for (int64_t i = k + 1; i < n; i++) {
      const double f = a[i * n + k] / d;
      for (int64_t j = k + 1; j < n; j++) a[i * n + j] -= f * a[k * n + j];
    }
  }
  *sign = s;
  *logabs = l;
}

#endif
