/* conv3d's attributes and geometry, shared by conv3d.c and conv3d_grad.c. See conv3d.c for
 * Paddle's semantics. */
#ifndef IC_KERNELS_CPU_CONV3D_H
#define IC_KERNELS_CPU_CONV3D_H

#include "kernels/cpu/conv.h"
#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_conv3d_attrs {
  int64_t strides[3], dilations[3], pads[6], groups;
  ic_pad_algo pad_algo;
  bool ndhwc;
} ic_conv3d_attrs;

/* Input (logical NCDHW), output channels, kernel, strides, dilations and paddings [front,
 * back, top, bottom, left, right] after padding_algorithm, output sizes, groups. */
typedef struct ic_conv3d_geom {
  int64_t n, c, oc, in[3], k[3], s[3], d[3], p[6], out[3], g;
} ic_conv3d_geom;

ic_status ic_conv3d_parse(ic_attr_reader *r, void *attrs);
/* Move n images of ch channels by sp positions between channel-first (x when !to_last) and
 * channel-last layouts, es bytes an element: NDHWC through the NCDHW kernels (conv3d,
 * conv3d_transpose). */
void ic_conv3d_channels(const void *x, void *y, size_t es, int64_t n, int64_t ch, int64_t sp,
                        bool to_last);
/* Check Input (input 0) and Filter (input 1) and compute the geometry, failing the context
 * naming them. */
ic_status ic_conv3d_geometry(ic_kctx *c, ic_conv3d_geom *g);

#ifdef __cplusplus
}
#endif

#endif
