/* softmax's attributes, shared by the CPU kernel (softmax.c) and the CUDA kernel
 * (cuda/softmax.cu). */
#ifndef IC_KERNELS_CPU_SOFTMAX_H
#define IC_KERNELS_CPU_SOFTMAX_H

#include <stdint.h>

typedef struct softmax_attrs {
  int64_t axis;
} softmax_attrs;

#ifndef __CUDACC__
#include "kernels/kernel.h"
/* softmax's `axis` parser and infer (X float, the axis checked against its rank; Out as X),
 * which log_softmax shares (softmax.c). */
ic_status ic_softmax_parse(ic_attr_reader *r, void *attrs);
ic_status ic_softmax_infer(ic_kctx *c);
#endif

#endif
