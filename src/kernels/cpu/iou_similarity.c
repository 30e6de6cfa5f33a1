/* iou_similarity: Out [N, M] = the IoU of each box of X [N, 4] with each box of Y [M, 4]
 * ([xmin, ymin, xmax, ymax], float32 or float64, computed in that precision). With
 * box_normalized false (default true) sides count pixels inclusively (+1). The union gets
 * an epsilon of 1e-10, so two empty boxes give 0. Out keeps X's LoD
 * (paddle/fluid/operators/detection/iou_similarity_op.h, Paddle 2.6). */
#include "kernels/kernel.h"

typedef struct iou_attrs {
  bool normalized;
} iou_attrs;

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((iou_attrs *)attrs)->normalized = ic_ar_bool(r, "box_normalized", true);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (y->dtype != x->dtype) return ic_kfail_in(c, 1, 0, "expected X's dtype");
  if (x->ndim != 2 || x->dims[1] != 4) return ic_kfail_in(c, 0, 0, "expected [N, 4] boxes");
  if (y->ndim != 2 || y->dims[1] != 4) return ic_kfail_in(c, 1, 0, "expected [M, 4] boxes");
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 2, (int64_t[]){x->dims[0], y->dims[0]});
  return IC_OK;
}

#define IOU_LOOP(T)                                                                        \
  do {                                                                                     \
    const T *X = x->data, *Y = y->data;                                                    \
    T *O = o->data;                                                                        \
    const T one = norm ? (T)0 : (T)1, zero = (T)0, eps = (T)1e-10;                         \
    for (int64_t i = 0; i < N; i++) {                                                      \
      const T *a = X + i * 4;                                                              \
      const T area_a = (a[3] - a[1] + one) * (a[2] - a[0] + one);                          \
      for (int64_t j = 0; j < M; j++) {                                                    \
        const T *b = Y + j * 4;                                                            \
        const T area_b = (b[3] - b[1] + one) * (b[2] - b[0] + one);                        \
        const T ixmax = a[2] > b[2] ? b[2] : a[2], iymax = a[3] > b[3] ? b[3] : a[3];      \
        const T ixmin = a[0] > b[0] ? a[0] : b[0], iymin = a[1] > b[1] ? a[1] : b[1];      \
        T ih = iymax - iymin, iw = ixmax - ixmin;                                          \
        if (!norm) {                                                                       \
          ih = ih + 1;                                                                     \
          iw = iw + 1;                                                                     \
        }                                                                                  \
        ih = ih > zero ? ih : zero;                                                        \
        iw = iw > zero ? iw : zero;                                                        \
        const T inter = iw * ih;                                                           \
        const T uni = area_a + area_b - inter + eps;                                       \
        O[i * M + j] = inter / uni;                                                        \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const bool norm = ((const iou_attrs *)c->attrs)->normalized;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t N = x->dims[0], M = y->dims[0];
  if (x->dtype == IC_FP32) IOU_LOOP(float);
  else IOU_LOOP(double);
  return IC_OK;
}

const ic_opdef ic_op_iou_similarity = {
    .name = "iou_similarity", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(iou_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
