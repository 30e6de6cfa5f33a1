/* temporal_shift and temporal_shift_grad: one shift (temporal_shift.c). */
#ifndef IC_KERNELS_CPU_TEMPORAL_SHIFT_H
#define IC_KERNELS_CPU_TEMPORAL_SHIFT_H

#include <stdbool.h>

#include "kernels/kernel.h"

typedef struct ic_ts_attrs {
  int64_t seg;
  double ratio;
  bool nhwc;
} ic_ts_attrs;

ic_status ic_ts_parse(ic_attr_reader *r, void *attrs);
/* Input 0 [N * seg_num, C, H, W] (or NHWC); output 0 (optional) alike. */
ic_status ic_ts_infer(ic_kctx *c);
/* Output 0 = input 0 shifted as the forward does (grad false) or back (grad true). */
ic_status ic_ts_shift(ic_kctx *c, bool grad);

#endif
