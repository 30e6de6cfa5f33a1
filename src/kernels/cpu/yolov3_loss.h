/* yolov3_loss and yolov3_loss_grad (YOLOv3's training loss, phi YoloLossKernel and
 * YoloLossGradKernel): the attributes, the checks both ops share and the box helpers. See
 * yolov3_loss.c for the semantics. */
#ifndef IC_KERNELS_CPU_YOLOV3_LOSS_H
#define IC_KERNELS_CPU_YOLOV3_LOSS_H

#include "kernels/kernel.h"

#define IC_YOLO_MAX_ANCHORS 64

typedef struct ic_yolo_attrs {
  int32_t anchors[2 * IC_YOLO_MAX_ANCHORS];
  int32_t mask[IC_YOLO_MAX_ANCHORS];
  int an_num, mask_num;
  int64_t class_num, downsample;
  double ignore_thresh;
  bool label_smooth;
  double scale_x_y;
} ic_yolo_attrs;

ic_status ic_yolo_parse(ic_attr_reader *r, void *attrs);
/* Check X [N, mask_num * (5 + class_num), H, W], GTBox [N, B, 4], GTLabel [N, B] int32 and
 * GTScore [N, B] (optional) at inputs x, x + 1, x + 2, x + 3; *b receives B. */
ic_status ic_yolo_check(ic_kctx *c, size_t x, int64_t *b);

#endif
