/* conv3d_transpose's attributes and geometry, shared by conv3d_transpose.c and
 * conv3d_transpose_grad.c. See conv3d_transpose.c for Paddle's semantics. */
#ifndef IC_KERNELS_CPU_CONV3D_TRANSPOSE_H
#define IC_KERNELS_CPU_CONV3D_TRANSPOSE_H

#include "kernels/kernel.h"
#include "kernels/cpu/conv.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_c3t_attrs {
  int64_t strides[3], dilations[3], pads[6], output_padding[3], output_size[3], groups;
  bool has_output_padding, has_output_size, ndhwc;
  ic_pad_algo pad_algo;
} ic_c3t_attrs;

/* Input channels, output channels (og per group), input sizes, kernel, strides, dilations,
 * paddings [front, back, top, bottom, left, right] after padding_algorithm, output sizes,
 * groups. */
typedef struct ic_c3t_geom {
  int64_t n, c, oc, og, in[3], k[3], s[3], d[3], p[6], out[3], g;
} ic_c3t_geom;

ic_status ic_c3t_parse(ic_attr_reader *r, void *attrs); /* ic_c3t_attrs */
/* Check Input (input 0) and Filter (input 1) and compute the geometry, failing the context
 * naming them. */
ic_status ic_c3t_geometry(ic_kctx *c, ic_c3t_geom *g);

#ifdef __cplusplus
}
#endif

#endif
