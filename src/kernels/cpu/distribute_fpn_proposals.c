/* distribute_fpn_proposals: send each region to an FPN level by its size (paddle/phi/kernels/
 * cpu/distribute_fpn_proposals_kernel.cc, DistributeFpnProposalsInferMeta).
 *
 * FpnRois [R, 4]; its rows are split into images by RoisNum (int32/int64 counts) or its LoD
 * (icore: one image when it has neither). Region r goes to level
 * clamp(floor(log2(sqrt(area) / refer_scale + 1e-6) + refer_level), min_level, max_level),
 * area counting pixels inclusively (+1) when pixel_offset. MultiFpnRois holds one output per
 * level (max_level - min_level + 1 of them), each with its regions in input order;
 * RestoreIndex (int32 [R, 1]) maps input row r to its row in the levels' concatenation;
 * MultiLevelRoIsNum (int32 [images] per level) counts each level's regions per image, and so
 * does each level's LoD. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/detection.h"

typedef struct dfp_attrs {
  int64_t min_level, max_level, refer_level, refer_scale;
  bool pixel_offset;
} dfp_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  dfp_attrs *a = attrs;
  a->min_level = ic_ar_int_req(r, "min_level");
  a->max_level = ic_ar_int_req(r, "max_level");
  a->refer_level = ic_ar_int_req(r, "refer_level");
  a->refer_scale = ic_ar_int_req(r, "refer_scale");
  a->pixel_offset = ic_ar_bool(r, "pixel_offset", true);
  if (r->st) return r->st;
  if (a->max_level < a->min_level || a->max_level - a->min_level > 64) {
    return ic_ar_fail(r, "max_level",
                      "is %lld, expected at least min_level (%lld) and at most 64 more",
                      (long long)a->max_level, (long long)a->min_level);
  }
  if (a->refer_scale <= 0) {
    return ic_ar_fail(r, "refer_scale", "is %lld, expected > 0", (long long)a->refer_scale);
  }
  return IC_OK;
}

enum { IN_ROIS, IN_NUM };
enum { OUT_MULTI, OUT_RESTORE, OUT_LEVEL_NUM };

static ic_status infer(ic_kctx *c) {
  const dfp_attrs *a = c->attrs;
  const ic_tensor *rois = ic_in(c, IN_ROIS, 0), *num = ic_in(c, IN_NUM, 0);
  ic_status st = ic_kcheck_dtype(c, IN_ROIS, 0, IC_DT_FLOAT);
  if (st) return st;
  if (rois->ndim != 2 || rois->dims[1] != 4) {
    return ic_kfail_in(c, IN_ROIS, 0, "expected [R, 4] boxes");
  }
  if (num) {
    st = ic_kcheck_dtype(c, IN_NUM, 0, IC_DT_INT);
    if (st) return st;
    if (num->ndim != 1) return ic_kfail_in(c, IN_NUM, 0, "expected rank 1 (a count per image)");
  }
  const size_t levels = (size_t)(a->max_level - a->min_level + 1);
  if (c->out[OUT_MULTI].n != levels) {
    return ic_kfail(c, IC_ERR_SHAPE,
                    "output MultiFpnRois has %zu variables, expected one per level (%zu)",
                    c->out[OUT_MULTI].n, levels);
  }
  if (c->out[OUT_LEVEL_NUM].n && c->out[OUT_LEVEL_NUM].n != levels) {
    return ic_kfail(c, IC_ERR_SHAPE,
                    "output MultiLevelRoIsNum has %zu variables, expected one per level (%zu)",
                    c->out[OUT_LEVEL_NUM].n, levels);
  }
  for (size_t l = 0; l < levels; l++) {
    ic_tensor_set_meta(ic_out(c, OUT_MULTI, l), rois->dtype, 2, (int64_t[]){0, 4});
    if (c->out[OUT_LEVEL_NUM].n) {
      ic_tensor_set_meta(ic_out(c, OUT_LEVEL_NUM, l), IC_INT32, 1, (int64_t[]){0});
    }
  }
  ic_tensor_set_meta(ic_out(c, OUT_RESTORE, 0), IC_INT32, 2, (int64_t[]){rois->dims[0], 1});
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const dfp_attrs *a = c->attrs;
  const ic_tensor *rois = ic_in(c, IN_ROIS, 0), *num = ic_in(c, IN_NUM, 0);
  const ic_dtype dt = rois->dtype;
  const int64_t R = rois->dims[0], L = a->max_level - a->min_level + 1;
  const ic_lod *lod = rois->lod;
  const uint64_t *lo = !num && lod && lod->n_levels ? lod->offsets[lod->n_levels - 1] : NULL;
  const int64_t n_img = num  ? ic_tensor_numel_(num)
                        : lo ? (int64_t)lod->lens[lod->n_levels - 1] - 1
                             : 1;
  int64_t *lvl = malloc((size_t)(R + 1) * sizeof *lvl),
          *img = malloc((size_t)(R + L + 1) * sizeof *img);
  int64_t *cnt = calloc((size_t)(L * (n_img + 1) + L + 1), sizeof *cnt);
  ic_status st = IC_OK;
  if (!lvl || !img || !cnt) {
    st = ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
    goto done;
  }
  int64_t start = 0;
  for (int64_t i = 0; i < n_img; i++) {
    int64_t k = num ? ic_read_i64(num, i) : lo ? (int64_t)(lo[i + 1] - lo[i]) : R;
    if (k < 0 || start + k > R) {
      st = num ? ic_kfail_in(c, IN_NUM, 0, "counts more regions than FpnRois' %lld", (long long)R)
               : ic_kfail_in(c, IN_ROIS, 0, "has a LoD beyond its %lld rows", (long long)R);
      goto done;
    }
    for (int64_t r = start; r < start + k; r++) img[r] = i;
    start += k;
  }
  if (start != R) {
    st = num ? ic_kfail_in(c, IN_NUM, 0, "counts %lld regions, but FpnRois has %lld",
                           (long long)start, (long long)R)
             : ic_kfail_in(c, IN_ROIS, 0, "has a LoD of %lld rows, but holds %lld",
                           (long long)start, (long long)R);
    goto done;
  }
  int64_t *per_level = cnt + L * (n_img + 1); /* L counters */
  for (int64_t r = 0; r < R; r++) {
    double b[4];
    for (int q = 0; q < 4; q++) b[q] = det_get(rois, r * 4 + q);
    double area = 0;
    if (!(b[2] < b[0] || b[3] < b[1])) {
      double w = det_round(dt, b[2] - b[0]), h = det_round(dt, b[3] - b[1]);
      area = a->pixel_offset ? det_round(dt, (w + 1) * (h + 1)) : det_round(dt, w * h);
    }
    double sc = det_round(dt, sqrt(area));
    double v = det_round(dt, det_round(dt, sc / (double)a->refer_scale) + det_round(dt, 1e-6));
    int64_t t = (int64_t)floor(det_round(dt, log2(v)) + (double)a->refer_level);
    t = t < a->min_level ? a->min_level : t > a->max_level ? a->max_level : t;
    lvl[r] = t - a->min_level;
    cnt[lvl[r] * (n_img + 1) + img[r]]++;
    per_level[lvl[r]]++;
  }
  for (int64_t l = 0; l < L && !st; l++) {
    st = ic_kalloc_out(c, OUT_MULTI, (size_t)l, dt, 2, (int64_t[]){per_level[l], 4});
    if (!st) {
      /* Paddle gives every level its regions per image as a LoD, RoisNum or not: what
       * roi_align / roi_pool after it read in programs without MultiLevelRoIsNum. */
      const size_t n_off = (size_t)n_img + 1;
      ic_lod *ld = ic_lod_new(1, &n_off);
      if (ld) {
        ld->offsets[0][0] = 0;
        for (int64_t i = 0; i < n_img; i++) {
          ld->offsets[0][i + 1] = ld->offsets[0][i] + (uint64_t)cnt[l * (n_img + 1) + i];
        }
      }
      st = ic_kset_lod(c, ic_out(c, OUT_MULTI, (size_t)l), ld, true);
    }
    if (!st && c->out[OUT_LEVEL_NUM].n) {
      st = ic_kalloc_out(c, OUT_LEVEL_NUM, (size_t)l, IC_INT32, 1, (int64_t[]){n_img});
      if (!st) {
        int32_t *p = ic_out(c, OUT_LEVEL_NUM, (size_t)l)->data;
        for (int64_t i = 0; i < n_img; i++) p[i] = (int32_t)cnt[l * (n_img + 1) + i];
      }
    }
  }
  if (st) goto done;
  /* rows: level l's k-th region goes to row k of level l, row base[l] + k overall */
  int64_t base = 0, *fill = cnt; /* reuse the first L entries as fill counters */
  int64_t *bases = img;          /* img is no longer needed (it has room for L) */
  for (int64_t l = 0; l < L; l++) bases[l] = base, base += per_level[l], fill[l] = 0;
  int32_t *restore = ic_out(c, OUT_RESTORE, 0)->data;
  const size_t es = ic_dtype_size(dt);
  for (int64_t r = 0; r < R; r++) {
    const int64_t l = lvl[r], k = fill[l]++;
    ic_tensor *o = ic_out(c, OUT_MULTI, (size_t)l);
    memcpy((char *)o->data + (size_t)k * 4 * es, (const char *)rois->data + (size_t)r * 4 * es,
           4 * es);
    restore[r] = (int32_t)(bases[l] + k);
  }
done:
  free(lvl);
  free(img);
  free(cnt);
  return st;
}

static const ic_slotdef inputs[] = {{"FpnRois", 0}, {"RoisNum", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {
    {"MultiFpnRois", IC_SLOT_MULTI | IC_SLOT_DYNAMIC},
    {"RestoreIndex", 0},
    {"MultiLevelRoIsNum", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_DYNAMIC}};

const ic_opdef ic_op_distribute_fpn_proposals = {
    .name = "distribute_fpn_proposals",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(dfp_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
