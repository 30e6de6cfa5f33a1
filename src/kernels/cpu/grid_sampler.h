/* grid_sampler's attributes, shared by grid_sampler.c and grid_sampler_grad.c. See
 * grid_sampler.c for Paddle's semantics. */
#ifndef IC_KERNELS_CPU_GRID_SAMPLER_H
#define IC_KERNELS_CPU_GRID_SAMPLER_H

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { PAD_ZEROS, PAD_BORDER, PAD_REFLECTION } ic_gs_pad;

typedef struct ic_gs_attrs {
  bool nearest;
  ic_gs_pad pad;
  bool align_corners;
} ic_gs_attrs;

ic_status ic_grid_sampler_parse(ic_attr_reader *r, void *attrs);
/* Check X (input 0) and Grid (input 1) and set output 0 to the forward's Output. */
ic_status ic_grid_sampler_infer(ic_kctx *c);

#ifdef __cplusplus
}
#endif

#endif
