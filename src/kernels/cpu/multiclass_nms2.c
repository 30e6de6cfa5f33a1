/* multiclass_nms2: Paddle 1.6's multi-class NMS with Out and Index (int32 [K, 1], the kept
 * boxes' rows in the flattened input), both with the per-image split as LoD (nms.c has the
 * semantics; multiclass_nms3 added RoisNum and NmsRoisNum). */
#include "kernels/cpu/nms.h"

static ic_status parse(ic_attr_reader *r, void *attrs) { return ic_nms_parse(r, attrs); }

static const nms_slots slots = {.in_bboxes = 0, .in_scores = 1, .in_rois_num = -1,
                                .out = 0, .out_index = 1, .out_rois_num = -1};

static ic_status infer(ic_kctx *c) { return ic_nms_infer(c, &slots); }
static ic_status run(ic_kctx *c) { return ic_nms_run(c, &slots); }

static const ic_slotdef inputs[] = {{"BBoxes", 0}, {"Scores", 0}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_DYNAMIC},
                                     {"Index", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC}};

const ic_opdef ic_op_multiclass_nms2 = {
    .name = "multiclass_nms2",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(nms_attrs), .parse = parse,
    .flags = IC_OP_LOD, /* Out's per-image split (nms.c), not BBoxes' LoD */
    .infer = infer, .cpu = run,
};
