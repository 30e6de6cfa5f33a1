/* pixel_shuffle and pixel_shuffle_grad share the attributes and the element permutation
 * (pixel_shuffle.c). */
#ifndef IC_KERNELS_CPU_PIXEL_SHUFFLE_H
#define IC_KERNELS_CPU_PIXEL_SHUFFLE_H

#include "kernels/kernel.h"

typedef struct ps_attrs {
  int64_t r;  /* upscale_factor */
  bool nhwc;
} ps_attrs;

ic_status ic_pixel_shuffle_parse(ic_attr_reader *r, void *attrs); /* ps_attrs */
/* The factor attribute named `factor` (upscale_factor, pixel_unshuffle's downscale_factor)
 * and data_format. */
ic_status ic_pixel_shuffle_parse_factor(ic_attr_reader *r, ps_attrs *a, const char *factor);

/* Moves the elements of x-side tensor xs (pixel_shuffle's input layout, dims xdims) and the
 * out-side tensor os (its output layout): os <- xs when to_out, xs <- os otherwise (the grad). */
void ic_pixel_shuffle_move(const ps_attrs *a, const int64_t xdims[4], size_t es, char *xs,
                           char *os, bool to_out);

#endif
