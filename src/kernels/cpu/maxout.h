/* maxout and maxout_grad share their attributes and shape rule (maxout.c). */
#ifndef IC_KERNELS_CPU_MAXOUT_H
#define IC_KERNELS_CPU_MAXOUT_H

#include "kernels/kernel.h"

typedef struct ic_maxout_attrs {
  int64_t groups, axis;
} ic_maxout_attrs;

/* groups (required, >= 1), axis (1, or -1 / 3 for channels last; default 1). */
ic_status ic_maxout_parse(ic_attr_reader *r, void *attrs);
/* Checks X (input 0: float, rank 4, channels a multiple of groups) and gives Out's dims (X's
 * with the channels divided by groups). */
ic_status ic_maxout_out_dims(ic_kctx *c, int64_t d[4]);

#endif
