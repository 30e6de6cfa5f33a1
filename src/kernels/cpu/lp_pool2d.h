/* lp_pool2d's attributes, shared by lp_pool2d.c and lp_pool2d_grad.c: pool2d's (pool2d.h)
 * read from lp_pool2d's names (kernel_size, pooling_type "lp") and norm_type. */
#ifndef IC_KERNELS_CPU_LP_POOL2D_H
#define IC_KERNELS_CPU_LP_POOL2D_H

#include "kernels/cpu/conv.h"
#include "kernels/cpu/pool2d.h"

typedef struct lp_attrs {
  pool_attrs p; /* first: ic_pool_geometry reads it; p.max: norm_type +inf */
  float norm;
} lp_attrs;

/* Parse into an lp_attrs (norm_type 0 or NaN and a pooling_type other than "lp" refused). */
ic_status ic_lp_pool2d_parse(ic_attr_reader *r, void *attrs);

#endif
