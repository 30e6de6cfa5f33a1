/* quantize_linear and dequantize_linear: their shared slots and attributes (see
 * quantize_linear.c). */
#ifndef IC_KERNELS_CPU_QUANT_LINEAR_H
#define IC_KERNELS_CPU_QUANT_LINEAR_H

#include "kernels/cpu/quant.h"

typedef struct quant_linear_attrs {
  int quant_axis, qmax, round_type;
  bool only_observer, is_test;
} quant_linear_attrs;

enum { QL_X, QL_SCALE, QL_ZERO, QL_ACCUM, QL_STATE };
enum { QL_Y, QL_OUT_STATE, QL_OUT_ACCUM, QL_OUT_SCALE };

extern const ic_slotdef ic_quant_linear_inputs[5];
extern const ic_slotdef ic_quant_linear_outputs[4];
ic_status ic_quant_linear_parse(ic_attr_reader *r, void *attrs);
/* The channel count and stride for X per the attributes and Scale's size. */
ic_status ic_quant_linear_channels(ic_kctx *c, int64_t *ch, int64_t *inner);
/* The kernels' frame: Y = X copied when only_observer, else body(X, Scale, Y, n elements,
 * ch channels of stride inner); then the pass-through outputs. */
typedef void (*ic_quant_linear_body)(const quant_linear_attrs *a, const ic_tensor *x,
                                     const ic_tensor *s, ic_tensor *o, int64_t n, int64_t ch,
                                     int64_t inner);
ic_status ic_quant_linear_run(ic_kctx *c, ic_quant_linear_body body);
/* Meta of the pass-through outputs (OutScale = Scale, OutState = InState, ...), and the copy. */
void ic_quant_linear_pass_meta(ic_kctx *c);
void ic_quant_linear_pass(ic_kctx *c);

#endif
