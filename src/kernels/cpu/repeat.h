/* The copy behind expand, expand_v2, expand_as_v2 and tile: an output whose every dim is a
 * whole multiple of the input's (input dims padded with leading 1s to the output's rank),
 * element out[i] = in[i mod in_dims] per dim. */
#ifndef IC_KERNELS_CPU_REPEAT_H
#define IC_KERNELS_CPU_REPEAT_H

#include "kernels/kernel.h"

/* Fill out (rank `ndim`, dims `od`) from in's bytes seen as dims `xd` (same rank), where
 * od[i] % xd[i] == 0 (xd[i] > 0) or od[i] == 0. es: element size. */
void ic_repeat_copy(void *out, const int64_t *od, const void *in, const int64_t *xd, int ndim,
                    size_t es);

#endif
