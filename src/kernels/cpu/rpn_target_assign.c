/* rpn_target_assign: Faster / Mask R-CNN's RPN training targets, with rpn_batch_size_per_im
 * (256), rpn_straddle_thresh, rpn_positive_overlap (0.7), rpn_negative_overlap (0.3),
 * rpn_fg_fraction (0.25) and use_random (true) (rpn_assign.c has the semantics). */
#include "kernels/cpu/rpn_assign.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  rpn_assign_attrs *a = attrs;
  a->batch_per_im = ic_ar_int(r, "rpn_batch_size_per_im", 256);
  a->straddle = (float)ic_ar_float_req(r, "rpn_straddle_thresh");
  a->pos = (float)ic_ar_float(r, "rpn_positive_overlap", 0.7);
  a->neg = (float)ic_ar_float(r, "rpn_negative_overlap", 0.3);
  a->fg_fraction = (float)ic_ar_float(r, "rpn_fg_fraction", 0.25);
  a->use_random = ic_ar_bool(r, "use_random", true);
  return r->st;
}

static const ic_slotdef inputs[] = {{"Anchor", 0}, {"GtBoxes", 0}, {"IsCrowd", 0}, {"ImInfo", 0}};
static const ic_slotdef outputs[] = {
    {"LocationIndex", IC_SLOT_DYNAMIC}, {"ScoreIndex", IC_SLOT_DYNAMIC},
    {"TargetBBox", IC_SLOT_DYNAMIC},    {"TargetLabel", IC_SLOT_DYNAMIC},
    {"BBoxInsideWeight", IC_SLOT_DYNAMIC}};

const ic_opdef ic_op_rpn_target_assign = {
    .name = "rpn_target_assign",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 5, .outputs = outputs,
    .attrs_size = sizeof(rpn_assign_attrs), .parse = parse,
    .infer = ic_rpn_assign_infer, .cpu = ic_rpn_assign_run,
    .flags = IC_OP_LOD | IC_OP_RANDOM,
};
