/* RPN proposals, shared by generate_proposals_v2 and fluid's generate_proposals (proposals.c
 * has the semantics). */
#ifndef IC_KERNELS_CPU_PROPOSALS_H
#define IC_KERNELS_CPU_PROPOSALS_H

#include "kernels/kernel.h"

typedef struct gp_attrs {
  int64_t pre_n, post_n;
  double nms_thresh, min_size, eta;
  bool pixel_offset;
  bool legacy; /* generate_proposals: ImInfo (height, width, scale), min_size on the boxes
                  scaled back by it, pixel_offset on, the per-image split as LoD */
} gp_attrs;

/* Both ops' slots: Scores, BboxDeltas, ImShape or ImInfo, Anchors, Variances; RpnRois,
 * RpnRoiProbs, RpnRoisNum. */
extern const ic_slotdef ic_proposals_outputs[3];
ic_status ic_proposals_parse(ic_attr_reader *r, gp_attrs *a);
ic_status ic_proposals_infer(ic_kctx *c);
ic_status ic_proposals_run(ic_kctx *c);

#endif
