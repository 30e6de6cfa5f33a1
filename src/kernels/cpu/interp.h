/* The resize family: nearest_interp, bilinear_interp (v1) and nearest_interp_v2,
 * bilinear_interp_v2, linear_interp_v2, bicubic_interp_v2, trilinear_interp_v2: one
 * implementation (interp.c), one thin opdef file per op type. */
#ifndef IC_KERNELS_CPU_INTERP_H
#define IC_KERNELS_CPU_INTERP_H

#include "kernels/kernel.h"

typedef enum ic_interp_method {
  IC_INTERP_NEAREST,
  IC_INTERP_LINEAR,
  IC_INTERP_BILINEAR,
  IC_INTERP_TRILINEAR,
  IC_INTERP_BICUBIC
} ic_interp_method;

typedef struct ic_interp_attrs {
  bool v2;                 /* v2: `scale` is a list (v1: one float) */
  ic_interp_method method; /* interp_method (default: the op type's) */
  bool nhwc;               /* channel-last: every data_layout but "NCHW" (see interp.c) */
  bool align_corners;
  int align_mode;          /* 0 or 1 */
  int64_t out_size[3];     /* out_d, out_h, out_w attributes */
  float scale[3];          /* the scale attribute (v1: one value) */
  size_t n_scale;
} ic_interp_attrs;

/* Slots, as Paddle names them. */
enum { IC_INTERP_X, IC_INTERP_OUTSIZE, IC_INTERP_SIZETENSOR, IC_INTERP_SCALE };
#define IC_INTERP_N_INPUTS 4
extern const ic_slotdef ic_interp_inputs[IC_INTERP_N_INPUTS];
extern const ic_slotdef ic_interp_outputs[1];

/* parse for an op type: v2 or not, and its default interp_method. */
ic_status ic_interp_parse(ic_attr_reader *r, ic_interp_attrs *a, bool v2,
                          ic_interp_method dflt);
ic_status ic_interp_infer(ic_kctx *c);
ic_status ic_interp_cpu(ic_kctx *c);

#define IC_INTERP_DEF(NAME, PARSE)                                                 \
  {                                                                                \
    .name = NAME, .n_inputs = IC_INTERP_N_INPUTS, .inputs = ic_interp_inputs,      \
    .n_outputs = 1, .outputs = ic_interp_outputs,                                  \
    .attrs_size = sizeof(ic_interp_attrs), .parse = PARSE,                         \
    .infer = ic_interp_infer, .cpu = ic_interp_cpu,                                \
  }

#endif
