/* median and nanmedian: one implementation (medianutil.c, which describes both). */
#ifndef IC_KERNELS_CPU_MEDIANUTIL_H
#define IC_KERNELS_CPU_MEDIANUTIL_H

#include <stdbool.h>

#include "kernels/kernel.h"

typedef struct ic_median_attrs {
  const int64_t *axis;
  size_t n_axis;
  bool keepdim, avg;
} ic_median_attrs;

extern const ic_slotdef ic_median_inputs[1];
extern const ic_slotdef ic_median_outputs[2];

ic_status ic_median_parse(ic_attr_reader *r, void *attrs);
ic_status ic_median_infer(ic_kctx *c);
/* skip_nan: nanmedian (NaNs left out); otherwise median (a NaN makes its row's median NaN). */
ic_status ic_median_run(ic_kctx *c, bool skip_nan);

#endif
