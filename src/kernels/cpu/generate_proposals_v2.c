/* generate_proposals_v2: RPN proposals from anchor scores and deltas with ImShape (height,
 * width) and `pixel_offset` (proposals.c has the semantics). */
#include "kernels/cpu/proposals.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gp_attrs *a = attrs;
  a->legacy = false;
  return ic_proposals_parse(r, a);
}

static const ic_slotdef inputs[] = {
    {"Scores", 0}, {"BboxDeltas", 0}, {"ImShape", 0}, {"Anchors", 0}, {"Variances", 0}};

const ic_opdef ic_op_generate_proposals_v2 = {
    .name = "generate_proposals_v2",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 3, .outputs = ic_proposals_outputs,
    .attrs_size = sizeof(gp_attrs), .parse = parse,
    .infer = ic_proposals_infer, .cpu = ic_proposals_run,
};
