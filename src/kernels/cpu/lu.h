/* LU with partial pivoting in double (defined in inverse.c), shared by inverse and
 * matrix_power (its negative powers). */
#ifndef IC_KERNELS_CPU_LU_H
#define IC_KERNELS_CPU_LU_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/kernel.h"

/* Invert the n x n row-major matrix a (overwritten by its LU factors: the largest magnitude
 * in each column as pivot) into inv; perm holds n int64. false: a zero pivot (singular). */
bool ic_lu_invert(double *a, double *inv, int64_t *perm, int64_t n);

#endif
