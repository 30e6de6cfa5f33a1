/* multiclass_nms: Paddle 1.x's multi-class NMS with the one output Out, its per-image split
 * as LoD (nms.c has the semantics). */
#include "kernels/cpu/nms.h"

static ic_status parse(ic_attr_reader *r, void *attrs) { return ic_nms_parse(r, attrs); }

static const nms_slots slots = {.in_bboxes = 0, .in_scores = 1, .in_rois_num = -1,
                                .out = 0, .out_index = -1, .out_rois_num = -1};

static ic_status infer(ic_kctx *c) { return ic_nms_infer(c, &slots); }
static ic_status run(ic_kctx *c) { return ic_nms_run(c, &slots); }

static const ic_slotdef inputs[] = {{"BBoxes", 0}, {"Scores", 0}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_DYNAMIC}};

const ic_opdef ic_op_multiclass_nms = {
    .name = "multiclass_nms",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(nms_attrs), .parse = parse,
    .flags = IC_OP_LOD, /* Out's per-image split (nms.c), not BBoxes' LoD */
    .infer = infer, .cpu = run,
};
