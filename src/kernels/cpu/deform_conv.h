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
} ic_dcn_attrs;

ic_status ic_dcn_parse(ic_attr_reader *r, void *attrs);
ic_status ic_dcn_infer(ic_kctx *c);
ic_status ic_dcn_cpu(ic_kctx *c);

/* Input slots (deformable_conv_v1 has no Mask: its slot is left absent). */
enum { IC_DCN_INPUT, IC_DCN_OFFSET, IC_DCN_FILTER, IC_DCN_MASK };

#ifdef __cplusplus
}
#endif

#endif
