/* unfold (im2col) and fold (col2im) share their window attributes and geometry (unfold.c). */
#ifndef IC_KERNELS_CPU_UNFOLD_H
#define IC_KERNELS_CPU_UNFOLD_H

#include "kernels/kernel.h"

typedef struct unfold_attrs {
  int64_t k[2], s[2], p[4], d[2]; /* kernel, strides, paddings [top, left, bottom, right],
                                     dilations */
  int64_t out[2];                 /* fold: output_sizes [H, W] */
} unfold_attrs;

/* Reads kernel_sizes, strides, paddings (2 values: both sides; 4: top, left, bottom, right)
 * and dilations; with `fold` also output_sizes. */
ic_status ic_unfold_parse_attrs(ic_attr_reader *r, unfold_attrs *a, bool fold);
/* The number of window positions along H and W for an image of h x w; fails naming the
 * input slot s when there is none. */
ic_status ic_unfold_blocks(ic_kctx *c, size_t s, int64_t h, int64_t w, int64_t *oh,
                           int64_t *ow);

#endif
