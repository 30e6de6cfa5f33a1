/* The multi-class NMS shared by multiclass_nms, multiclass_nms2 and multiclass_nms3 (nms.c). */
#ifndef IC_KERNELS_CPU_NMS_H
#define IC_KERNELS_CPU_NMS_H

#include "kernels/kernel.h"

typedef struct nms_attrs {
  int64_t background_label, nms_top_k, keep_top_k;
  double score_threshold, nms_threshold, nms_eta;
  bool normalized;
} nms_attrs;

/* Slots as the ops lay them out; an op without RoisNum / Index / NmsRoisNum passes -1. */
typedef struct nms_slots {
  int in_bboxes, in_scores, in_rois_num;
  int out, out_index, out_rois_num;
} nms_slots;

ic_status ic_nms_parse(ic_attr_reader *r, nms_attrs *a);
ic_status ic_nms_infer(ic_kctx *c, const nms_slots *s);
ic_status ic_nms_run(ic_kctx *c, const nms_slots *s);

#endif
