/* The 2-D transposed convolution family (conv2d_transpose, depthwise_conv2d_transpose): one
 * implementation, conv_transpose.c. */
#ifndef IC_KERNELS_CPU_CONV_TRANSPOSE_H
#define IC_KERNELS_CPU_CONV_TRANSPOSE_H

#include "kernels/cpu/conv.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_convt_attrs {
  int64_t strides[2], dilations[2];
  int64_t paddings[4];        /* top, bottom, left, right */
  int64_t output_padding[2];  /* 0 when absent */
  int64_t output_size[2];     /* -1 when absent */
  bool has_output_padding, has_output_size;
  int64_t groups;
  ic_pad_algo pad_algo;
  bool nhwc;
  /* fuse_activation / fuse_alpha / fuse_beta (conv.h ic_conv_act), which only icore's
   * rewrites (fuse.c: bias add, batch_norm and activation after it) write; applied after the
   * Bias. The CUDA kernel refuses them. */
  ic_conv_act act;
  float alpha, beta;
} ic_convt_attrs;

enum { IC_CONVT_INPUT, IC_CONVT_FILTER, IC_CONVT_BIAS, IC_CONVT_OUTPUT_SIZE };
extern const ic_slotdef ic_convt_inputs[4];
extern const ic_slotdef ic_convt_outputs[1];

/* The geometry of the op in c: input (logical NCHW), output channels (per group), kernel,
 * output size, strides, dilations and paddings after padding_algorithm; checks the inputs
 * and attributes (Paddle's ConvTransposeInferMeta), failing the context naming them. Shared
 * by the CPU and CUDA kernels. */
typedef struct ic_convt_geom {
  int64_t n, c, h, w;      /* input, logical NCHW */
  int64_t oc, og, kh, kw;  /* output channels, per group, kernel */
  int64_t oh, ow;
  int64_t sh, sw, dh, dw, pt, pb, pl, pr, g;
} ic_convt_geom;

ic_status ic_convt_geometry(ic_kctx *c, ic_convt_geom *g);

ic_status ic_convt_parse(ic_attr_reader *r, void *attrs);
ic_status ic_convt_infer(ic_kctx *c);
ic_status ic_convt_cpu(ic_kctx *c);
void ic_convt_free_state(void *state);

#define IC_CONVT_DEF(NAME)                                                        \
  {                                                                               \
    .name = NAME, .n_inputs = 4, .inputs = ic_convt_inputs, .n_outputs = 1,       \
    .outputs = ic_convt_outputs, .attrs_size = sizeof(ic_convt_attrs),            \
    .parse = ic_convt_parse, .infer = ic_convt_infer, .cpu = ic_convt_cpu,        \
    .free_state = ic_convt_free_state,                                            \
  }

/* conv2d_transpose_grad and depthwise_conv2d_transpose_grad (conv2d_transpose_grad.c):
 * inputs Input, Filter, Bias (optional, no gradient), Output@GRAD; outputs Input@GRAD and
 * Filter@GRAD (both optional); the forward's attributes. */
extern const ic_slotdef ic_convt_grad_inputs[4];
extern const ic_slotdef ic_convt_grad_outputs[2];
ic_status ic_convt_grad_infer(ic_kctx *c);
ic_status ic_convt_grad_run(ic_kctx *c);

#define IC_CONVT_GRAD_DEF(NAME)                                                         \
  {                                                                                     \
    .name = NAME, .n_inputs = 4, .inputs = ic_convt_grad_inputs, .n_outputs = 2,        \
    .outputs = ic_convt_grad_outputs, .attrs_size = sizeof(ic_convt_attrs),             \
    .parse = ic_convt_parse, .infer = ic_convt_grad_infer, .cpu = ic_convt_grad_run,    \
  }

#ifdef __cplusplus
}
#endif

#endif
