/* arg_max and arg_min: one implementation (arg_minmax.c). */
#ifndef IC_KERNELS_CPU_ARG_MINMAX_H
#define IC_KERNELS_CPU_ARG_MINMAX_H

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_argmm_attrs {
  int64_t axis;
  bool keepdims, flatten;
  ic_dtype dtype; /* IC_INT32 or IC_INT64 */
} ic_argmm_attrs;

extern const ic_slotdef ic_argmm_inputs[1];
extern const ic_slotdef ic_argmm_outputs[1];
ic_status ic_argmm_parse(ic_attr_reader *r, void *attrs);
ic_status ic_argmm_infer(ic_kctx *c);
ic_status ic_argmm_run(ic_kctx *c, bool max);

#define IC_ARGMM_DEF(NAME, RUN)                                                   \
  {                                                                               \
    .name = NAME, .n_inputs = 1, .inputs = ic_argmm_inputs, .n_outputs = 1,       \
    .outputs = ic_argmm_outputs, .attrs_size = sizeof(ic_argmm_attrs),            \
    .parse = ic_argmm_parse, .infer = ic_argmm_infer, .cpu = RUN,                 \
  }

#ifdef __cplusplus
}
#endif

#endif
