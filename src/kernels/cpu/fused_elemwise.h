/* fused_elemwise_activation and fused_elemwise_add_activation: one implementation
 * (fused_elemwise.c). */
#ifndef IC_KERNELS_CPU_FUSED_ELEMWISE_H
#define IC_KERNELS_CPU_FUSED_ELEMWISE_H

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_fea_attrs {
  int binary;       /* IC_FEA_ADD or IC_FEA_MUL */
  int unary;        /* IC_FEA_SCALE ... IC_FEA_GELU */
  bool unary_outer; /* Unary(Binary(X, Y)); else Binary(X, Unary(Y)) */
  bool save_intermediate_out;
  int64_t axis;
  double scale; /* Paddle's float attribute, widened */
} ic_fea_attrs;

enum { IC_FEA_ADD, IC_FEA_MUL };
enum { IC_FEA_SCALE, IC_FEA_RELU, IC_FEA_TANH, IC_FEA_SIGMOID, IC_FEA_GELU };

extern const ic_slotdef ic_fea_inputs[2];
extern const ic_slotdef ic_fea_outputs[2];
ic_status ic_fea_parse(ic_attr_reader *r, void *attrs);
ic_status ic_fea_infer(ic_kctx *c);
ic_status ic_fea_run(ic_kctx *c);

#define IC_FEA_DEF(NAME)                                                                  \
  {                                                                                       \
    .name = NAME, .n_inputs = 2, .inputs = ic_fea_inputs, .n_outputs = 2,                 \
    .outputs = ic_fea_outputs, .attrs_size = sizeof(ic_fea_attrs), .parse = ic_fea_parse, \
    .infer = ic_fea_infer, .cpu = ic_fea_run,                                             \
  }

#ifdef __cplusplus
}
#endif

#endif
