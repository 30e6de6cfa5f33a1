/* collect_fpn_proposals: merge the regions of all FPN levels and keep the best post_nms_topN
 * (paddle/phi/kernels/cpu/collect_fpn_proposals_kernel.cc, CollectFpnProposalsInferMeta).
 *
 * MultiLevelRois (one [R_l, 4] per level) and MultiLevelScores (one [R_l, 1] per level);
 * each level's rows are split into images by MultiLevelRoIsNum (int32 counts per image, one
 * tensor per level) or by the regions' LoD (icore: one image when there is neither). All
 * regions are ranked by score (best first; equal scores keep level-then-row order: Paddle's
 * std::stable_sort), the first post_nms_topN are kept, and those
 * are grouped by image (stable). FpnRois is [K, 4], K = min(post_nms_topN, total), with the
 * per-image split as LoD (what fluid's Faster R-CNN heads read, through sequence_expand);
 * RoisNum (int32 [images]) counts the kept regions per image. When an image keeps none,
 * Paddle miscounts RoisNum and leaves that image out of the LoD (unless it is the first);
 * here it counts 0 and has an empty sequence. */
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/detection.h"

typedef struct cfp_attrs {
  int64_t top_n;
} cfp_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  cfp_attrs *a = attrs;
  a->top_n = ic_ar_int_req(r, "post_nms_topN");
  if (r->st) return r->st;
  if (a->top_n < 0) {
    return ic_ar_fail(r, "post_nms_topN", "is %lld, expected >= 0", (long long)a->top_n);
  }
  return IC_OK;
}

enum { IN_ROIS, IN_SCORES, IN_NUM };
enum { OUT_ROIS, OUT_NUM };

static ic_status infer(ic_kctx *c) {
  const size_t L = c->in[IN_ROIS].n;
  if (c->in[IN_SCORES].n != L) {
    return ic_kfail(
        c, IC_ERR_SHAPE,
        "input MultiLevelScores has %zu variables, expected one per level of MultiLevelRois (%zu)",
        c->in[IN_SCORES].n, L);
  }
  if (c->in[IN_NUM].n && c->in[IN_NUM].n != L) {
    return ic_kfail(c, IC_ERR_SHAPE,
                    "input MultiLevelRoIsNum has %zu variables, expected one per level (%zu)",
                    c->in[IN_NUM].n, L);
  }
  const ic_tensor *r0 = ic_in(c, IN_ROIS, 0);
  for (size_t l = 0; l < L; l++) {
    const ic_tensor *r = ic_in(c, IN_ROIS, l), *s = ic_in(c, IN_SCORES, l);
    ic_status st = ic_kcheck_dtype(c, IN_ROIS, l, IC_DT_FLOAT);
    if (st) return st;
    if (r->dtype != r0->dtype) {
      return ic_kfail_in(c, IN_ROIS, l, "expected the first level's dtype");
    }
    if (s->dtype != r0->dtype) return ic_kfail_in(c, IN_SCORES, l, "expected the rois' dtype");
    if (r->ndim != 2 || r->dims[1] != 4) return ic_kfail_in(c, IN_ROIS, l, "expected [R, 4] boxes");
    if (ic_tensor_numel_(s) != r->dims[0]) {
      return ic_kfail_in(c, IN_SCORES, l, "expected one score per region (%lld)",
                         (long long)r->dims[0]);
    }
    if (c->in[IN_NUM].n) {
      const ic_tensor *n = ic_in(c, IN_NUM, l);
      st = ic_kcheck_dtype(c, IN_NUM, l, IC_DT_INT);
      if (st) return st;
      if (n->ndim != 1 || n->dims[0] != ic_in(c, IN_NUM, 0)->dims[0]) {
        return ic_kfail_in(c, IN_NUM, l, "expected [%lld] (a count per image)",
                           (long long)ic_in(c, IN_NUM, 0)->dims[0]);
      }
    }
  }
  ic_tensor_set_meta(ic_out(c, OUT_ROIS, 0), r0->dtype, 2, (int64_t[]){0, 4});
  if (ic_out(c, OUT_NUM, 0)) ic_tensor_set_meta(ic_out(c, OUT_NUM, 0), IC_INT32, 1, (int64_t[]){0});
  return IC_OK;
}

typedef struct item {
  double score;
  int64_t img, level, row, pos;
} item;

static int by_score(const void *pa, const void *pb) {
  const item *a = pa, *b = pb;
  if (a->score != b->score) return a->score > b->score ? -1 : 1;
  return (a->pos > b->pos) - (a->pos < b->pos);
}
static int by_image(const void *pa, const void *pb) {
  const item *a = pa, *b = pb;
  if (a->img != b->img) return (a->img > b->img) - (a->img < b->img);
  return (a->pos > b->pos) - (a->pos < b->pos);
}

static ic_status run(ic_kctx *c) {
  const cfp_attrs *a = c->attrs;
  const size_t L = c->in[IN_ROIS].n;
  const bool has_num = c->in[IN_NUM].n > 0;
  const ic_tensor *r0 = ic_in(c, IN_ROIS, 0);
  int64_t total = 0, n_img = 1;
  if (has_num) {
    n_img = ic_in(c, IN_NUM, 0)->dims[0];
  } else if (r0->lod && r0->lod->n_levels) {
    n_img = (int64_t)r0->lod->lens[r0->lod->n_levels - 1] - 1;
  }
  for (size_t l = 0; l < L; l++) total += ic_in(c, IN_ROIS, l)->dims[0];
  item *it = malloc((size_t)(total + 1) * sizeof *it);
  int32_t *counts = calloc((size_t)(n_img + 1), sizeof *counts);
  ic_status st = IC_OK;
  if (!it || !counts) {
    st = ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
    goto done;
  }
  int64_t k = 0;
  for (size_t l = 0; l < L; l++) {
    const ic_tensor *r = ic_in(c, IN_ROIS, l), *s = ic_in(c, IN_SCORES, l);
    const ic_tensor *n = has_num ? ic_in(c, IN_NUM, l) : NULL;
    const ic_lod *lod = r->lod;
    const uint64_t *lo = !n && lod && lod->n_levels ? lod->offsets[lod->n_levels - 1] : NULL;
    if (!n && (lo ? (int64_t)lod->lens[lod->n_levels - 1] - 1 != n_img : n_img != 1)) {
      st = ic_kfail_in(c, IN_ROIS, l, "has a LoD of a different image count than level 0 (%lld)",
                       (long long)n_img);
      goto done;
    }
    int64_t row = 0;
    for (int64_t i = 0; i < n_img; i++) {
      int64_t cnt = n ? ic_read_i64(n, i) : lo ? (int64_t)(lo[i + 1] - lo[i]) : r->dims[0];
      if (cnt < 0 || row + cnt > r->dims[0]) {
        st =
            n ? ic_kfail_in(c, IN_NUM, l, "counts more regions than level %zu holds (%lld)", l,
                            (long long)r->dims[0])
              : ic_kfail_in(c, IN_ROIS, l, "has a LoD beyond its %lld rows", (long long)r->dims[0]);
        goto done;
      }
      for (int64_t j = row; j < row + cnt; j++, k++) {
        it[k] = (item){det_get(s, j), i, (int64_t)l, j, k};
      }
      row += cnt;
    }
    if (row != r->dims[0]) {
      st = n ? ic_kfail_in(c, IN_NUM, l, "counts %lld regions, but level %zu holds %lld",
                           (long long)row, l, (long long)r->dims[0])
             : ic_kfail_in(c, IN_ROIS, l, "has a LoD of %lld rows, but holds %lld", (long long)row,
                           (long long)r->dims[0]);
      goto done;
    }
  }
  qsort(it, (size_t)total, sizeof *it, by_score);
  const int64_t K = a->top_n < total ? a->top_n : total;
  for (int64_t i = 0; i < K; i++) it[i].pos = i;
  qsort(it, (size_t)K, sizeof *it, by_image);
  st = ic_kalloc_out(c, OUT_ROIS, 0, r0->dtype, 2, (int64_t[]){K, 4});
  if (!st) st = ic_kalloc_out(c, OUT_NUM, 0, IC_INT32, 1, (int64_t[]){n_img});
  if (st) goto done;
  ic_tensor *o = ic_out(c, OUT_ROIS, 0);
  const size_t es = ic_dtype_size(r0->dtype);
  for (int64_t i = 0; i < K; i++) {
    const ic_tensor *r = ic_in(c, IN_ROIS, (size_t)it[i].level);
    memcpy((char *)o->data + (size_t)i * 4 * es, (const char *)r->data + (size_t)it[i].row * 4 * es,
           4 * es);
    counts[it[i].img]++;
  }
  if (ic_out(c, OUT_NUM, 0)) {
    memcpy(ic_out(c, OUT_NUM, 0)->data, counts, (size_t)n_img * sizeof *counts);
  }
  {
    const size_t n_off = (size_t)n_img + 1;
    ic_lod *lod = ic_lod_new(1, &n_off);
    if (lod) {
      lod->offsets[0][0] = 0;
      for (int64_t i = 0; i < n_img; i++) lod->offsets[0][i + 1] = lod->offsets[0][i] + (uint64_t)counts[i];
    }
    st = ic_kset_lod(c, o, lod, true);
  }
done:
  free(it);
  free(counts);
  return st;
}

static const ic_slotdef inputs[] = {{"MultiLevelRois", IC_SLOT_MULTI},
                                    {"MultiLevelScores", IC_SLOT_MULTI},
                                    {"MultiLevelRoIsNum", IC_SLOT_OPTIONAL | IC_SLOT_MULTI}};
static const ic_slotdef outputs[] = {{"FpnRois", IC_SLOT_DYNAMIC},
                                     {"RoisNum", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC}};

const ic_opdef ic_op_collect_fpn_proposals = {
    .name = "collect_fpn_proposals",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(cfp_attrs), .parse = parse,
    .flags = IC_OP_LOD, /* FpnRois' per-image split */
    .infer = infer, .cpu = run,
};
