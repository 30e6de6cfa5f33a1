/* sequence_conv's attributes, shared by sequence_conv.c and sequence_conv_grad.c. */
#ifndef IC_KERNELS_CPU_SEQUENCE_CONV_H
#define IC_KERNELS_CPU_SEQUENCE_CONV_H

#include "kernels/kernel.h"

typedef struct seqconv_attrs {
  int64_t length, start, stride;
  bool trainable;
} seqconv_attrs;

/* contextLength (1 to 2^20), contextStart (within +-2^20), contextStride (1, as in Paddle),
 * paddingTrainable. */
ic_status ic_seqconv_parse(ic_attr_reader *r, void *attrs);

/* PaddingData's rows above and below a sequence. */
static inline int64_t ic_seqconv_up_pad(const seqconv_attrs *a) {
  return a->start < 0 ? -a->start : 0;
}
static inline int64_t ic_seqconv_down_pad(const seqconv_attrs *a) {
  int64_t d = a->start + a->length - 1;
  return d > 0 ? d : 0;
}

#endif
