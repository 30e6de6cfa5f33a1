/* Anchor target assignment shared by rpn_target_assign and retinanet_target_assign
 * (rpn_assign.c has the semantics). */
#ifndef IC_KERNELS_CPU_RPN_ASSIGN_H
#define IC_KERNELS_CPU_RPN_ASSIGN_H

#include "kernels/kernel.h"

typedef struct rpn_assign_attrs {
  int64_t batch_per_im; /* -1 (retinanet): no sampling */
  float straddle;       /* < 0: every anchor counts as inside */
  float pos, neg, fg_fraction;
  bool use_random;
  bool retina; /* retinanet_target_assign: GtLabels input, ForegroundNumber output */
} rpn_assign_attrs;

ic_status ic_rpn_assign_infer(ic_kctx *c);
ic_status ic_rpn_assign_run(ic_kctx *c);

#endif
