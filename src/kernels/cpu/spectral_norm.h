/* spectral_norm's attributes, checks and power iteration, shared by spectral_norm.c and
 * spectral_norm_grad.c. See spectral_norm.c for Paddle's semantics. */
#ifndef IC_KERNELS_CPU_SPECTRAL_NORM_H
#define IC_KERNELS_CPU_SPECTRAL_NORM_H

#include "kernels/kernel.h"

typedef struct sn_attrs {
  int dim;
  int64_t iters;
  double eps;
} sn_attrs;

ic_status ic_spectral_norm_parse(ic_attr_reader *r, void *attrs); /* sn_attrs */
/* Check Weight (input 0), U (input 1) and V (input 2), naming them. */
ic_status ic_spectral_norm_check(ic_kctx *c);
/* Run the power iteration from U and V (u_in, v_in) in double: u [h] and v [w] receive the
 * final vectors and the return is sigma = u^T W v. v must have room for w + h doubles (the
 * last h are scratch). */
double ic_spectral_norm_sigma(const sn_attrs *a, const ic_tensor *w, const ic_tensor *u_in,
                              const ic_tensor *v_in, double *u, double *v);

#endif
