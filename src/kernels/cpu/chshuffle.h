/* channel_shuffle and channel_shuffle_grad share their attributes, shape rule and move
 * (chshuffle.c): the channels of a rank-4 tensor (NCHW, or NHWC) seen as [groups, C / groups]
 * are transposed to [C / groups, groups], or moved back (inverse, the gradient). */
#ifndef IC_KERNELS_CPU_CHSHUFFLE_H
#define IC_KERNELS_CPU_CHSHUFFLE_H

#include "kernels/kernel.h"

typedef struct ic_chshuffle_attrs {
  int64_t groups;
  bool nhwc;
} ic_chshuffle_attrs;

/* groups (required, >= 1) and data_format (NCHW, AnyLayout or NHWC). */
ic_status ic_chshuffle_parse(ic_attr_reader *r, void *attrs);
/* Input 0 rank 4 with channels a multiple of groups; output 0 of its dtype and dims. */
ic_status ic_chshuffle_infer(ic_kctx *c);
/* Out[n, j * groups + g] = X[n, g * (C / groups) + j], or with inverse X[n, g * per + j] =
 * Out[n, j * groups + g]; any dtype (elements are moved). */
ic_status ic_chshuffle_run(ic_kctx *c, bool inverse);

#endif
