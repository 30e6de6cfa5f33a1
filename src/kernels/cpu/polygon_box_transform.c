/* polygon_box_transform (EAST-style geometry): Input float32/float64 [N, 2n, H, W] holds,
 * per pixel, offsets to a polygon's n corners; Output (same dims) = 4 * w - Input on even
 * channels (x) and 4 * h - Input on odd channels (y)
 * (paddle/fluid/operators/detection/polygon_box_transform_op.cc, Paddle 2.6). */
#include "kernels/kernel.h"

static const ic_slotdef k_inputs[1] = {{"Input", 0}};
static const ic_slotdef k_outputs[1] = {{"Output", 0}};

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4 ([N, 2n, H, W])");
  if (x->dims[1] % 2) return ic_kfail_in(c, 0, 0, "expected an even dim 1 (x, y pairs)");
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, x->dims);
  return ic_kset_lod(c, ic_out(c, 0, 0), NULL, false); /* Paddle shares no LoD */
}

#define PBT_LOOP(T)                                                                   \
  do {                                                                                \
    const T *in = x->data;                                                            \
    T *out = ic_out(c, 0, 0)->data;                                                   \
    for (int64_t nc = 0; nc < NC; nc++) {                                             \
      for (int64_t h = 0; h < H; h++) {                                               \
        for (int64_t w = 0; w < W; w++) {                                             \
          const int64_t i = (nc * H + h) * W + w;                                     \
          out[i] = (T)((nc % 2 == 0 ? w : h) * 4) - in[i];                            \
        }                                                                             \
      }                                                                               \
    }                                                                                 \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  const int64_t NC = x->dims[0] * x->dims[1], H = x->dims[2], W = x->dims[3];
  if (x->dtype == IC_FP32) PBT_LOOP(float);
  else PBT_LOOP(double);
  return IC_OK;
}

const ic_opdef ic_op_polygon_box_transform = {
    .name = "polygon_box_transform", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run, .flags = IC_OP_LOD, /* Output: none */
};
