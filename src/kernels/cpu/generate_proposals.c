/* generate_proposals: fluid's RPN proposals (Faster R-CNN exports of Paddle 1.x and 2.x) with
 * ImInfo (height, width, scale), pixel offsets always, min_size tested on the boxes scaled
 * back to the original image, and RpnRois / RpnRoiProbs split per image by LoD (proposals.c
 * has the semantics). */
#include "kernels/cpu/proposals.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gp_attrs *a = attrs;
  a->legacy = true;
  return ic_proposals_parse(r, a);
}

static const ic_slotdef inputs[] = {
    {"Scores", 0}, {"BboxDeltas", 0}, {"ImInfo", 0}, {"Anchors", 0}, {"Variances", 0}};

const ic_opdef ic_op_generate_proposals = {
    .name = "generate_proposals",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 3, .outputs = ic_proposals_outputs,
    .attrs_size = sizeof(gp_attrs), .parse = parse,
    .flags = IC_OP_LOD, /* RpnRois' per-image split */
    .infer = ic_proposals_infer, .cpu = ic_proposals_run,
};
