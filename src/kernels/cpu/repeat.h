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

/* The kernel of expand_v2, expand_as_v2 and tile: Out (slot 0, its dims set by infer) = X
 * (slot 0) repeated, X's dims padded with leading 1s to Out's rank. */
ic_status ic_repeat_cpu(ic_kctx *c);

/* The target list of expand_v2 (shape) and tile (repeat_times), by Paddle's precedence: all
 * elements of input slot s_tensor if present, else the one-element tensors of the list slot
 * s_list if non-empty, else the attribute (n_attr values). Reads at most IC_MAX_RANK + 1
 * values into t (so a caller sees a count over IC_MAX_RANK); *from gets the matching name of
 * from_names (attribute, tensor, list) for error messages; `what` names the values. */
ic_status ic_repeat_read_target(ic_kctx *c, size_t s_tensor, size_t s_list, const char *what,
                                const int64_t *attr, size_t n_attr,
                                const char *const from_names[3], int64_t *t, size_t *n,
                                const char **from);

/* ---- expand_grad, expand_v2_grad, expand_as_v2_grad, tile_grad ----
 * X@GRAD (slot 0 of the outputs) = Out@GRAD (input slot s_g) summed over the copies: element
 * j of X gets every Out@GRAD element i with i mod X's dims = j, X's dims (input slot s_x,
 * meta only) padded with leading 1s to Out@GRAD's rank, each of Out@GRAD's dims a whole
 * multiple of X's. Float32 and float64, summed in double and rounded once (Paddle reduces
 * with Eigen in the data's type: the two may differ in the last bit). */
ic_status ic_repeat_grad_infer(ic_kctx *c, size_t s_x, size_t s_g);
ic_status ic_repeat_grad_run(ic_kctx *c, size_t s_x, size_t s_g);

#endif
