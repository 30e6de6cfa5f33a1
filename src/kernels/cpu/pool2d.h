/* pool2d's attributes and window geometry, shared by the CPU kernel (pool2d.c) and the CUDA
 * kernel (cuda/pool2d.cu). See pool2d.c for Paddle's semantics. */
#ifndef IC_KERNELS_CPU_POOL2D_H
#define IC_KERNELS_CPU_POOL2D_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/cpu/conv.h"
#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pool_attrs {
  bool max;             /* pooling_type "max", else "avg" */
  int64_t ksize[2];
  int64_t strides[2];
  int64_t paddings[4];  /* top, bottom, left, right as written */
  bool global, ceil_mode, exclusive, adaptive, nhwc;
  ic_pad_algo pad_algo;
  bool blocked_out;     /* ic_blocked_out (icore's layout pass): the CPU kernel may write Out
                           in oneDNN's blocked layout */
} pool_attrs;

typedef struct ic_pool_geom {
  int64_t n, c, h, w;      /* input, logical NCHW */
  int64_t kh, kw, sh, sw;  /* window after global_pooling */
  int64_t pt, pb, pl, pr;  /* paddings after padding_algorithm / global / adaptive */
  int64_t oh, ow;
} ic_pool_geom;

/* Check X (IC_ERR_SHAPE naming it) and compute the windows' geometry. */
ic_status ic_pool_geometry(ic_kctx *c, ic_pool_geom *g);

/* Read the required pooling_type ("max" or "avg") into *max; shared with pool3d. */
void ic_read_pool_type(ic_attr_reader *r, bool *max);

#ifdef __cplusplus
}
#endif

#endif
