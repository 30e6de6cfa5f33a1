/* nms (in nms_op.c: nms.c is the multiclass NMS engine): greedy non-maximum suppression over
 * Boxes [N, 4] (x0, y0, x1, y1), taken in the order given (paddle.vision.ops.nms sorts by
 * score before the op): box j is dropped when the IoU of an earlier kept box i with it,
 * intersection / (area_i + area_j - intersection) in the boxes' dtype, exceeds iou_threshold
 * (float, default 1). KeepBoxesIdxs: int64 [K], the indices kept, ascending. float32 or
 * float64 (paddle/phi/kernels/cpu/nms_kernel.cc, nms_kernel.h CalculateIoU). */
#include <string.h>

#include "kernels/kernel.h"

static const ic_slotdef k_inputs[1] = {{"Boxes", 0}};
static const ic_slotdef k_outputs[1] = {{"KeepBoxesIdxs", IC_SLOT_DYNAMIC}};

typedef struct nms_attrs {
  float threshold;
} nms_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  nms_attrs *a = attrs;
  a->threshold = (float)ic_ar_float(r, "iou_threshold", 1.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *b = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (b->ndim != 2 || b->dims[1] != 4) return ic_kfail_in(c, 0, 0, "expected [N, 4]");
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_INT64, 1, b->dims);
  return IC_OK;
}

#define OVERLAP(T)                                                                         \
  static bool overlap_##T(const T *p, const T *q, float thr) {                             \
    const T ix0 = p[0] > q[0] ? p[0] : q[0], iy0 = p[1] > q[1] ? p[1] : q[1];              \
    const T ix1 = p[2] < q[2] ? p[2] : q[2], iy1 = p[3] < q[3] ? p[3] : q[3];              \
    const T w = ix1 - ix0 > 0 ? ix1 - ix0 : 0, h = iy1 - iy0 > 0 ? iy1 - iy0 : 0;          \
    const T inter = w * h;                                                                 \
    const T uni = (p[2] - p[0]) * (p[3] - p[1]) + (q[2] - q[0]) * (q[3] - q[1]) - inter;   \
    return inter / uni > thr;                                                              \
  }
typedef float f32_t;
typedef double f64_t;
OVERLAP(f32_t)
OVERLAP(f64_t)

static ic_status run(ic_kctx *c) {
  const nms_attrs *a = c->attrs;
  const ic_tensor *b = ic_in(c, 0, 0);
  const int64_t n = b->dims[0];
  ic_buffer *s = ic_kscratch(c, (size_t)(n ? n : 1));
  if (!s) return c->err->code;
  uint8_t *dropped = s->data;
  memset(dropped, 0, (size_t)n);
  const bool f32 = b->dtype == IC_FP32;
  for (int64_t i = 0; i < n; i++) {
    if (dropped[i]) continue;
    for (int64_t j = i + 1; j < n; j++) {
      if (dropped[j]) continue;
      const bool ov = f32 ? overlap_f32_t((const float *)b->data + 4 * i,
                                          (const float *)b->data + 4 * j, a->threshold)
                          : overlap_f64_t((const double *)b->data + 4 * i,
                                          (const double *)b->data + 4 * j, a->threshold);
      if (ov) dropped[j] = 1;
    }
  }
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++) k += !dropped[i];
  ic_status st = ic_kalloc_out(c, 0, 0, IC_INT64, 1, (int64_t[]){k});
  if (!st) {
    int64_t *o = ic_out(c, 0, 0)->data;
    for (int64_t i = 0, w = 0; i < n; i++) {
      if (!dropped[i]) o[w++] = i;
    }
  }
  ic_buffer_release(s);
  return st;
}

const ic_opdef ic_op_nms_op = {
    .name = "nms", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(nms_attrs), .parse = parse, .infer = infer, .cpu = run,
};
