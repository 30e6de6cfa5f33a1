/* pool3d's attributes and window geometry, shared by pool3d.c and pool3d_grad.c. See
 * pool3d.c for Paddle's semantics. */
#ifndef IC_KERNELS_CPU_POOL3D_H
#define IC_KERNELS_CPU_POOL3D_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/cpu/conv.h"
#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_pool3d_attrs {
  bool max, global, adaptive, ceil_mode, exclusive, ndhwc;
  int64_t ksize[3], strides[3], pads[6];
  ic_pad_algo pad_algo;
} ic_pool3d_attrs;

/* Input (logical NCDHW), window, strides, paddings [front, back, top, bottom, left, right]
 * after padding_algorithm / global / adaptive, output sizes. */
typedef struct ic_pool3d_geom {
  int64_t n, c, in[3], k[3], s[3], p[6], out[3];
} ic_pool3d_geom;

ic_status ic_pool3d_parse(ic_attr_reader *r, void *attrs);
/* Check X (input 0, IC_ERR_SHAPE naming it) and compute the geometry. */
ic_status ic_pool3d_geometry(ic_kctx *c, ic_pool3d_geom *g);
/* Window [lo, hi) of output index o along axis ax (0 depth, 1 height, 2 width), clamped to
 * the input, and its size before clamping (*full); adaptive: Paddle's adaptive bins. */
void ic_pool3d_window(const ic_pool3d_geom *g, int ax, int64_t o, bool adaptive, int64_t *lo,
                      int64_t *hi, int64_t *full);

#ifdef __cplusplus
}
#endif

#endif
