/* deformable_conv (with Mask, DCNv2) and deformable_conv_v1 (without): one implementation,
 * deform_conv.c. */
#ifndef IC_KERNELS_CPU_DEFORM_CONV_H
#define IC_KERNELS_CPU_DEFORM_CONV_H

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_dcn_attrs {
  int64_t strides[2], paddings[2], dilations[2], groups, dgroups;
  int64_t im2col_step; /* as written (default 64); only the grad ops use it */
} ic_dcn_attrs;

ic_status ic_dcn_parse(ic_attr_reader *r, void *attrs);
ic_status ic_dcn_infer(ic_kctx *c);
ic_status ic_dcn_cpu(ic_kctx *c);

/* The convolution's geometry: Input [n, c, h, w], Filter [oc, c / groups, kh, kw], Output
 * [n, oc, oh, ow]. */
typedef struct ic_dcn_geom {
  int64_t n, c, h, w, oc, kh, kw, oh, ow;
} ic_dcn_geom;

/* Checks Input, Offset, Filter (slots IC_DCN_INPUT, IC_DCN_OFFSET, IC_DCN_FILTER) and the
 * Mask in slot mask_slot (IC_DCN_NO_MASK: none) against the attributes and fills g. */
#define IC_DCN_NO_MASK ((size_t)-1)
ic_status ic_dcn_geometry(ic_kctx *c, size_t mask_slot, ic_dcn_geom *g);

/* deformable_conv_grad (mask_slot IC_DCN_MASK, Output@GRAD in slot 4) and
 * deformable_conv_v1_grad (no mask, Output@GRAD in slot 3): deform_conv_grad.c. Outputs
 * Input@GRAD, Offset@GRAD, Filter@GRAD and (v2) Mask@GRAD, each optional. */
ic_status ic_dcn_grad_infer(ic_kctx *c, size_t mask_slot, size_t dout_slot);
ic_status ic_dcn_grad_cpu(ic_kctx *c, size_t mask_slot, size_t dout_slot);

/* Input slots (deformable_conv_v1 has no Mask: its slot is left absent). */
enum { IC_DCN_INPUT, IC_DCN_OFFSET, IC_DCN_FILTER, IC_DCN_MASK };

#ifdef __cplusplus
}
#endif

#endif
