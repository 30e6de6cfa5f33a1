/* roi_align's attributes and checks, shared by roi_align.c and roi_align_grad.c. See
 * roi_align.c for Paddle's semantics. */
#ifndef IC_KERNELS_CPU_ROI_ALIGN_H
#define IC_KERNELS_CPU_ROI_ALIGN_H

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_roi_align_attrs {
  int64_t ph, pw, sampling;
  double scale;
  bool aligned;
} ic_roi_align_attrs;

ic_status ic_roi_align_parse(ic_attr_reader *r, void *attrs);
/* Check X (input 0), ROIs (input 1) and RoisNum (input 2, optional), naming them. */
ic_status ic_roi_align_check(ic_kctx *c);
/* batch[r] = the image of region r (RoisNum, else ROIs' LoD, else image 0 when N is 1). */
ic_status ic_roi_align_batch(ic_kctx *c, int64_t *batch);

#ifdef __cplusplus
}
#endif

#endif
