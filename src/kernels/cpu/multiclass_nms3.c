/* multiclass_nms3: multi-class NMS with Out, Index (int32 [K, 1], the kept boxes' rows in
 * the flattened input) and NmsRoisNum (int32, kept rows per image), and the optional
 * RoisNum input that splits the per-class layout into images (nms.c has the semantics). */
#include "kernels/cpu/nms.h"

static ic_status parse(ic_attr_reader *r, void *attrs) { return ic_nms_parse(r, attrs); }

static const nms_slots slots = {.in_bboxes = 0, .in_scores = 1, .in_rois_num = 2,
                                .out = 0, .out_index = 1, .out_rois_num = 2};

static ic_status infer(ic_kctx *c) { return ic_nms_infer(c, &slots); }
static ic_status run(ic_kctx *c) { return ic_nms_run(c, &slots); }

static const ic_slotdef inputs[] = {{"BBoxes", 0}, {"Scores", 0}, {"RoisNum", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_DYNAMIC},
                                     {"Index", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC},
                                     {"NmsRoisNum", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC}};

const ic_opdef ic_op_multiclass_nms3 = {
    .name = "multiclass_nms3",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(nms_attrs), .parse = parse,
    .flags = IC_OP_LOD, /* Out's per-image split (nms.c), not BBoxes' LoD */
    .infer = infer, .cpu = run,
};
