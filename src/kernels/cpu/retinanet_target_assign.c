/* retinanet_target_assign: RetinaNet's training targets, with positive_overlap (0.5) and
 * negative_overlap (0.4): rpn_target_assign's assignment over every anchor (no straddle
 * filter), without sampling, the fg labels taken from GtLabels, plus ForegroundNumber
 * (rpn_assign.c has the semantics). Deterministic. */
#include "kernels/cpu/rpn_assign.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  rpn_assign_attrs *a = attrs;
  a->retina = true;
  a->batch_per_im = -1;
  a->fg_fraction = -1;
  a->straddle = -1;
  a->pos = (float)ic_ar_float(r, "positive_overlap", 0.5);
  a->neg = (float)ic_ar_float(r, "negative_overlap", 0.4);
  return r->st;
}

static const ic_slotdef inputs[] = {
    {"Anchor", 0}, {"GtBoxes", 0}, {"GtLabels", 0}, {"IsCrowd", 0}, {"ImInfo", 0}};
static const ic_slotdef outputs[] = {
    {"LocationIndex", IC_SLOT_DYNAMIC},    {"ScoreIndex", IC_SLOT_DYNAMIC},
    {"TargetBBox", IC_SLOT_DYNAMIC},       {"TargetLabel", IC_SLOT_DYNAMIC},
    {"BBoxInsideWeight", IC_SLOT_DYNAMIC}, {"ForegroundNumber", IC_SLOT_DYNAMIC}};

const ic_opdef ic_op_retinanet_target_assign = {
    .name = "retinanet_target_assign",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 6, .outputs = outputs,
    .attrs_size = sizeof(rpn_assign_attrs), .parse = parse,
    .infer = ic_rpn_assign_infer, .cpu = ic_rpn_assign_run,
    .flags = IC_OP_LOD,
};
