/* Helpers shared by the detection ops (prior_box, box_coder, yolo_box, the NMS ops): element
 * access for float32/float64 tensors through double, and the box overlap of
 * paddle/phi/kernels/funcs/detection/nms_util.h. */
#ifndef IC_KERNELS_CPU_DETECTION_H
#define IC_KERNELS_CPU_DETECTION_H

#include "kernels/kernel.h"

static inline double det_get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? (double)((const float *)t->data)[i] : ((const double *)t->data)[i];
}
static inline void det_put(ic_tensor *t, int64_t i, double v) {
  if (t->dtype == IC_FP32) ((float *)t->data)[i] = (float)v;
  else ((double *)t->data)[i] = v;
}

/* Round v to the dtype's precision (Paddle does float32 ops in float32). */
static inline double det_round(ic_dtype dt, double v) {
  return dt == IC_FP32 ? (double)(float)v : v;
}

/* Area of [xmin, ymin, xmax, ymax]; 0 when inverted. Unnormalized boxes count pixels
 * inclusively (+1). */
static inline double det_area(const double *b, bool normalized) {
  if (b[2] < b[0] || b[3] < b[1]) return 0;
  double w = b[2] - b[0], h = b[3] - b[1];
  return normalized ? w * h : (w + 1) * (h + 1);
}

/* Intersection over union of two boxes (Paddle's JaccardOverlap). */
static inline double det_iou(const double *a, const double *b, bool normalized) {
  if (b[0] > a[2] || b[2] < a[0] || b[1] > a[3] || b[3] < a[1]) return 0;
  double norm = normalized ? 0 : 1;
  double iw = (a[2] < b[2] ? a[2] : b[2]) - (a[0] > b[0] ? a[0] : b[0]) + norm;
  double ih = (a[3] < b[3] ? a[3] : b[3]) - (a[1] > b[1] ? a[1] : b[1]) + norm;
  double inter = iw * ih;
  return inter / (det_area(a, normalized) + det_area(b, normalized) - inter);
}

/* IoU in the input's precision (Paddle's JaccardOverlap<T>). */
#define DET_DEFINE_IOU(name, T)                                                                \
  static double name(const double *a, const double *b, bool normalized) {                  \
    T a0 = (T)a[0], a1 = (T)a[1], a2 = (T)a[2], a3 = (T)a[3];                               \
    T b0 = (T)b[0], b1 = (T)b[1], b2 = (T)b[2], b3 = (T)b[3];                               \
    if (b0 > a2 || b2 < a0 || b1 > a3 || b3 < a1) return 0;                                 \
    T norm = normalized ? (T)0 : (T)1;                                                      \
    T iw = (a2 < b2 ? a2 : b2) - (a0 > b0 ? a0 : b0) + norm;                                \
    T ih = (a3 < b3 ? a3 : b3) - (a1 > b1 ? a1 : b1) + norm;                                \
    T inter = iw * ih;                                                                      \
    T aa = (a2 < a0 || a3 < a1) ? (T)0 : normalized ? (a2 - a0) * (a3 - a1)                 \
                                                  : (a2 - a0 + 1) * (a3 - a1 + 1);          \
    T ab = (b2 < b0 || b3 < b1) ? (T)0 : normalized ? (b2 - b0) * (b3 - b1)                 \
                                                  : (b2 - b0 + 1) * (b3 - b1 + 1);          \
    return (double)(inter / (aa + ab - inter));                                             \
  }
#endif
