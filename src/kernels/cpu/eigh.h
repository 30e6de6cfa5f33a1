/* The engine eigh and eigvalsh share (eigh.c): LAPACK syevd / heevd over each matrix of X,
 * Eigenvalues always, Eigenvectors when `vectors` (else Eigenvectors is dims [0], as Paddle
 * leaves it unallocated). */
#ifndef IC_KERNELS_CPU_EIGH_H
#define IC_KERNELS_CPU_EIGH_H

#include "kernels/kernel.h"

typedef struct ic_eigh_attrs {
  bool lower;   /* UPLO "L" */
  bool vectors; /* Eigenvectors computed */
} ic_eigh_attrs;

/* UPLO into a->lower. */
ic_status ic_eigh_parse(ic_attr_reader *r, ic_eigh_attrs *a);
ic_status ic_eigh_infer(ic_kctx *c);
ic_status ic_eigh_run(ic_kctx *c);

#endif
