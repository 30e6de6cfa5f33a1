/* box_clip: clip boxes to their image (paddle/phi/kernels/impl/box_clip_kernel_impl.h,
 * funcs::ClipTiledBoxes, BoxClipInferMeta). ImInfo is [N, 3] rows (height, width, scale);
 * image i's boxes are clipped to x in [0, round(width / scale) - 1] and y in
 * [0, round(height / scale) - 1]. Input is [..., 4] and Output has its dims.
 *
 * Which boxes belong to which image: Paddle reads Input's LoD (its last level), whose offsets
 * count rows of dim 0, each holding all the boxes of its trailing dims (a Faster R-CNN head's
 * [rois, classes, 4]). Without LoD,
 * icore takes a rank-3 Input [N, M, 4] as M boxes per image and otherwise requires a single
 * image (ImInfo [1, 3]). */
#include <math.h>
#include <string.h>

#include "kernels/cpu/detection.h"

enum { IN_BOX, IN_INFO };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *b = ic_in(c, IN_BOX, 0), *info = ic_in(c, IN_INFO, 0);
  ic_status st = ic_kcheck_dtype(c, IN_BOX, 0, IC_DT_FLOAT);
  if (st) return st;
  if (info->dtype != b->dtype) return ic_kfail_in(c, IN_INFO, 0, "expected Input's dtype");
  if (b->ndim < 1 || b->dims[b->ndim - 1] != 4) {
    return ic_kfail_in(c, IN_BOX, 0, "expected [..., 4] boxes");
  }
  if (info->ndim != 2 || info->dims[1] != 3) {
    return ic_kfail_in(c, IN_INFO, 0, "expected [N, 3] (height, width, scale)");
  }
  const ic_lod *lod = b->lod;
  if (lod && lod->n_levels) {
    size_t n = lod->lens[lod->n_levels - 1];
    if (n < 1 || (int64_t)(n - 1) > info->dims[0]) {
      return ic_kfail_in(c, IN_BOX, 0, "has a LoD of %zu sequences but ImInfo has %lld rows",
                         n ? n - 1 : 0, (long long)info->dims[0]);
    }
  } else if (!(b->ndim == 3 && b->dims[0] == info->dims[0]) && info->dims[0] != 1) {
    return ic_kfail_in(c, IN_BOX, 0,
                       "carries no LoD: expected [%lld, M, 4] (M boxes per image) or a single "
                       "ImInfo row",
                       (long long)info->dims[0]);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), b->dtype, b->ndim, b->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *b = ic_in(c, IN_BOX, 0), *info = ic_in(c, IN_INFO, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const ic_dtype dt = b->dtype;
  const int64_t numel = ic_tensor_numel_(b);
  /* Images own rows of dim 0 (Paddle slices Input by its LoD), each row any number of boxes. */
  const int64_t rows = b->ndim ? b->dims[0] : 1, row_elems = rows ? numel / rows : 0;
  const ic_lod *lod = b->lod;
  int64_t n_img;
  const uint64_t *off = NULL;
  memcpy(o->data, b->data, (size_t)numel * ic_dtype_size(dt)); /* rows no image claims */
  if (lod && lod->n_levels) {
    n_img = (int64_t)lod->lens[lod->n_levels - 1] - 1;
    off = lod->offsets[lod->n_levels - 1];
  } else if (b->ndim == 3 && b->dims[0] == info->dims[0]) {
    n_img = info->dims[0];
  } else {
    n_img = 1;
  }
  for (int64_t i = 0; i < n_img; i++) {
    int64_t s = off ? (int64_t)off[i] * row_elems : n_img == 1 ? 0 : i * row_elems;
    int64_t e = off ? (int64_t)off[i + 1] * row_elems : n_img == 1 ? numel : (i + 1) * row_elems;
    if (e > numel) e = numel;
    const double sc = det_get(info, i * 3 + 2);
    const double w = round(det_round(dt, det_get(info, i * 3 + 1) / sc)) - 1;
    const double h = round(det_round(dt, det_get(info, i * 3) / sc)) - 1;
    for (int64_t k = s; k < e; k++) {
      const double lim = k % 2 == 0 ? w : h, v = det_get(b, k);
      const double m = lim < v ? lim : v; /* std::max(std::min(v, lim), 0): NaN stays */
      det_put(o, k, m < 0 ? 0.0 : m);
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", 0}, {"ImInfo", 0}};
static const ic_slotdef outputs[] = {{"Output", 0}};

const ic_opdef ic_op_box_clip = {
    .name = "box_clip",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
