/* detection_map (the detection mAP evaluator of fluid 1.x/2.x eval programs): DetectRes
 * [M, 6] (label, score, xmin, ymin, xmax, ymax) and Label [N, 6] (label, difficult, box) or
 * [N, 5] (label, box), float32 or float64, each split into the same images by its first LoD
 * level. Per image and class, detections are taken by descending score (boxes clipped to
 * [0, 1]) and matched to the ground truth of best Jaccard overlap; above overlap_threshold a
 * first match is a true positive, a repeat a false positive, and a difficult ground truth
 * (evaluate_difficult false) neither; below it a false positive; an image without ground
 * truth makes every detection false. Each class counts its (non-difficult, unless
 * evaluate_difficult) ground truths. With HasState nonzero and PosCount given, the counts and
 * the (score, flag) lists of PosCount / TruePos / FalsePos (those lists split by class by
 * their LoD) come first. MAP [1] is the mean over the counted classes of their average
 * precision: ap_type "integral" (sum of precision times recall steps over 1e-6, in float as
 * Paddle) or "11point" (VOC2007: the best precision at recall >= 0, 0.1, .. 1, / 11); a class
 * whose count equals background_label (Paddle compares the count, not the class) is left out,
 * and one without detections counts as 0. AccumPosCount int32 [class_num, 1] and
 * AccumTruePos / AccumFalsePos [entries, 2] with a LoD of class_num + 1 class offsets carry
 * the state on (paddle/fluid/operators/detection_map_op.{cc,h}). Ties in score keep their
 * order (Paddle's std::sort is stable for the up to 16 detections of a class and image it
 * usually sees; its stable_sort orders the accumulations). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"

enum { IN_DET, IN_LABEL, IN_HAS_STATE, IN_POS_COUNT, IN_TRUE_POS, IN_FALSE_POS };
enum { OUT_MAP, OUT_POS_COUNT, OUT_TRUE_POS, OUT_FALSE_POS };

typedef struct dmap_attrs {
  float overlap;
  bool difficult;
  bool integral;
  int64_t class_num, background;
} dmap_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  dmap_attrs *a = attrs;
  a->overlap = (float)ic_ar_float(r, "overlap_threshold", 0.5);
  a->difficult = ic_ar_bool(r, "evaluate_difficult", true);
  const char *ap = ic_ar_str(r, "ap_type", "integral");
  a->class_num = ic_ar_int_req(r, "class_num");
  a->background = ic_ar_int(r, "background_label", 0);
  if (r->st) return r->st;
  if (!strcmp(ap, "integral")) a->integral = true;
  else if (!strcmp(ap, "11point")) a->integral = false;
  else return ic_ar_fail(r, "ap_type", "is \"%s\", expected \"integral\" or \"11point\"", ap);
  if (a->class_num < 1 || a->class_num > INT32_MAX) {
    return ic_ar_fail(r, "class_num", "is %lld, expected a positive int",
                      (long long)a->class_num);
  }
  return IC_OK;
}

static ic_status check_lod(ic_kctx *c, size_t s, const ic_tensor *t) {
  if (!t->lod || t->lod->n_levels == 0) return ic_kfail_in(c, s, 0, "expected a LoD");
  const size_t n = t->lod->lens[0];
  if (t->lod->offsets[0][n - 1] > (uint64_t)t->dims[0]) {
    return ic_kfail_in(c, s, 0, "has a first LoD level ending at %llu, past its %lld rows",
                       (unsigned long long)t->lod->offsets[0][n - 1], (long long)t->dims[0]);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const dmap_attrs *a = c->attrs;
  const ic_tensor *det = ic_in(c, IN_DET, 0), *lab = ic_in(c, IN_LABEL, 0);
  ic_status st = ic_kcheck_dtype(c, IN_DET, 0, IC_DT_FLOAT);
  if (!st) st = ic_kcheck_dtype(c, IN_LABEL, 0, IC_DT(det->dtype));
  if (st) return st;
  if (det->ndim != 2 || det->dims[1] != 6) {
    return ic_kfail_in(c, IN_DET, 0, "expected [M, 6] (label, score, xmin, ymin, xmax, ymax)");
  }
  if (lab->ndim != 2 || (lab->dims[1] != 6 && lab->dims[1] != 5)) {
    return ic_kfail_in(c, IN_LABEL, 0, "expected [N, 6] (label, difficult, box) or [N, 5]");
  }
  if (!lab->lod || lab->lod->n_levels != 1) {
    return ic_kfail_in(c, IN_LABEL, 0, "expected a one-level LoD (the images)");
  }
  if (!st) st = check_lod(c, IN_LABEL, lab);
  if (!st) st = check_lod(c, IN_DET, det);
  if (st) return st;
  if (det->lod->lens[0] != lab->lod->lens[0]) {
    return ic_kfail_in(c, IN_DET, 0, "splits %zu images, expected %zu (those of Label '%s')",
                       det->lod->lens[0] - 1, lab->lod->lens[0] - 1, ic_in_name(c, IN_LABEL, 0));
  }
  const ic_tensor *hs = ic_in(c, IN_HAS_STATE, 0), *pc = ic_in(c, IN_POS_COUNT, 0);
  if (hs) {
    st = ic_kcheck_dtype(c, IN_HAS_STATE, 0, IC_DT(IC_INT32));
    if (st) return st;
    if (ic_tensor_numel_(hs) < 1) return ic_kfail_in(c, IN_HAS_STATE, 0, "expected [1]");
  }
  if (pc) {
    st = ic_kcheck_dtype(c, IN_POS_COUNT, 0, IC_DT(IC_INT32));
    if (st) return st;
    if (ic_tensor_numel_(pc) < a->class_num) {
      return ic_kfail_in(c, IN_POS_COUNT, 0, "expected [%lld, 1] (class_num)",
                         (long long)a->class_num);
    }
    for (size_t s = IN_TRUE_POS; s <= IN_FALSE_POS; s++) {
      const ic_tensor *t = ic_in(c, s, 0);
      if (!t) return ic_kfail(c, IC_ERR_SHAPE, "input PosCount is given without %s",
                              s == IN_TRUE_POS ? "TruePos" : "FalsePos");
      st = ic_kcheck_dtype(c, s, 0, IC_DT(det->dtype));
      if (st) return st;
      if (t->ndim != 2 || t->dims[1] != 2) return ic_kfail_in(c, s, 0, "expected [K, 2]");
      st = check_lod(c, s, t);
      if (st) return st;
    }
  }
  ic_tensor_set_meta(ic_out(c, OUT_MAP, 0), det->dtype, 1, (int64_t[]){1});
  ic_tensor_set_meta(ic_out(c, OUT_POS_COUNT, 0), IC_INT32, 2, (int64_t[]){a->class_num, 1});
  ic_tensor_set_meta(ic_out(c, OUT_TRUE_POS, 0), det->dtype, 2, (int64_t[]){0, 2});
  ic_tensor_set_meta(ic_out(c, OUT_FALSE_POS, 0), det->dtype, 2, (int64_t[]){0, 2});
  return IC_OK;
}

/* ---- the evaluation, in the inputs' precision (f32: every result rounded to float) ---- */

typedef struct dm_ent {
  int label;
  int flag;
  double score;
  int64_t order;
} dm_ent;

typedef struct dm_cnt {
  int label;
  int count;
} dm_cnt;

typedef struct dm_det {
  double score;
  double box[4];
  int64_t order;
} dm_det;

typedef struct dm_ctx {
  bool f32;
  dm_ent *tp, *fp;
  int64_t n_tp, n_fp;
  dm_cnt *cnt;
  int64_t n_cnt;
} dm_ctx;

static double rt(const dm_ctx *m, double v) { return m->f32 ? (double)(float)v : v; }

static dm_cnt *count_of(dm_ctx *m, int label, bool make) {
  int64_t lo = 0, hi = m->n_cnt;
  while (lo < hi) {
    const int64_t mid = (lo + hi) / 2;
    if (m->cnt[mid].label < label) lo = mid + 1;
    else hi = mid;
  }
  if (lo < m->n_cnt && m->cnt[lo].label == label) return &m->cnt[lo];
  if (!make) return NULL;
  memmove(m->cnt + lo + 1, m->cnt + lo, (size_t)(m->n_cnt - lo) * sizeof(dm_cnt));
  m->n_cnt++;
  m->cnt[lo].label = label;
  m->cnt[lo].count = 0;
  return &m->cnt[lo];
}

static void push(dm_ctx *m, int label, double score, int tp_flag) {
  m->tp[m->n_tp] = (dm_ent){label, tp_flag, score, m->n_tp};
  m->n_tp++;
  m->fp[m->n_fp] = (dm_ent){label, !tp_flag, score, m->n_fp};
  m->n_fp++;
}

static double jaccard(const dm_ctx *m, const double *b1, const double *b2) {
  if (b2[0] > b1[2] || b2[2] < b1[0] || b2[1] > b1[3] || b2[3] < b1[1]) return 0.0;
  const double ixmin = fmax(b1[0], b2[0]), iymin = fmax(b1[1], b2[1]);
  const double ixmax = fmin(b1[2], b2[2]), iymax = fmin(b1[3], b2[3]);
  const double inter = rt(m, rt(m, ixmax - ixmin) * rt(m, iymax - iymin));
  const double a1 = rt(m, rt(m, b1[2] - b1[0]) * rt(m, b1[3] - b1[1]));
  const double a2 = rt(m, rt(m, b2[2] - b2[0]) * rt(m, b2[3] - b2[1]));
  return rt(m, inter / rt(m, rt(m, a1 + a2) - inter));
}

/* descending by score as float, ties in input order */
static int cmp_det(const void *pa, const void *pb) {
  const dm_det *a = pa, *b = pb;
  const float sa = (float)a->score, sb = (float)b->score;
  if (sa > sb) return -1;
  if (sa < sb) return 1;
  return a->order < b->order ? -1 : a->order > b->order;
}

/* descending by score as float, ties in push order (std::stable_sort) */
static int cmp_ent(const void *pa, const void *pb) {
  const dm_ent *a = pa, *b = pb;
  const float sa = (float)a->score, sb = (float)b->score;
  if (sa > sb) return -1;
  if (sa < sb) return 1;
  return a->order < b->order ? -1 : a->order > b->order;
}

/* Entries of `label` from list into out, sorted as Paddle's GetAccumulation sorts them, and
 * the running sums of their flags into sum; returns how many. */
static int64_t accumulate(const dm_ent *list, int64_t n, int label, dm_ent *out, int64_t *sum) {
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++) {
    if (list[i].label == label) out[k++] = list[i];
  }
  qsort(out, (size_t)k, sizeof(dm_ent), cmp_ent);
  int64_t s = 0;
  for (int64_t i = 0; i < k; i++) sum[i] = (s += out[i].flag);
  return k;
}

static ic_status run(ic_kctx *c) {
  const dmap_attrs *a = c->attrs;
  const ic_tensor *det = ic_in(c, IN_DET, 0), *lab = ic_in(c, IN_LABEL, 0);
  const ic_tensor *hs = ic_in(c, IN_HAS_STATE, 0), *pc = ic_in(c, IN_POS_COUNT, 0);
  const ic_tensor *itp = ic_in(c, IN_TRUE_POS, 0), *ifp = ic_in(c, IN_FALSE_POS, 0);
  const bool state = pc && hs && ((const int32_t *)hs->data)[0] != 0;
  const int64_t M = det->dims[0], N = lab->dims[0], LW = lab->dims[1];
  const int64_t s_tp = state ? itp->dims[0] : 0, s_fp = state ? ifp->dims[0] : 0;
  const int64_t cap = s_tp + s_fp + M + 1;
  const int64_t n_cnt_cap = a->class_num + N + 1;
  const size_t bytes = (size_t)(4 * cap) * sizeof(dm_ent) + (size_t)(2 * cap) * sizeof(int64_t) +
                       (size_t)n_cnt_cap * sizeof(dm_cnt) + (size_t)(M + 1) * sizeof(dm_det) +
                       (size_t)(N + 1) * (sizeof(double) * 4 + 2);
  ic_buffer *buf = ic_kscratch(c, bytes);
  if (!buf) return c->err->code;
  dm_ctx m = {.f32 = det->dtype == IC_FP32};
  char *p = buf->data;
  m.tp = (dm_ent *)p, p += (size_t)cap * sizeof(dm_ent);
  m.fp = (dm_ent *)p, p += (size_t)cap * sizeof(dm_ent);
  dm_ent *st_tp = (dm_ent *)p, *st_fp = st_tp + cap; /* one class's sorted entries */
  p += (size_t)(2 * cap) * sizeof(dm_ent);
  int64_t *tsum = (int64_t *)p, *fsum = tsum + cap;
  p += (size_t)(2 * cap) * sizeof(int64_t);
  m.cnt = (dm_cnt *)p, p += (size_t)n_cnt_cap * sizeof(dm_cnt);
  dm_det *dets = (dm_det *)p;
  p += (size_t)(M + 1) * sizeof(dm_det);
  double *gtb = (double *)p;
  p += (size_t)(N + 1) * sizeof(double) * 4;
  unsigned char *gdiff = (unsigned char *)p, *visited = gdiff + N + 1;
  ic_status st = IC_OK;

  /* the state first */
  if (state) {
    const int32_t *pcd = pc->data;
    for (int64_t i = 0; i < a->class_num; i++) count_of(&m, (int)i, true)->count = pcd[i];
    for (int k = 0; k < 2; k++) {
      const ic_tensor *t = k ? ifp : itp;
      dm_ent *list = k ? m.fp : m.tp;
      int64_t *n = k ? &m.n_fp : &m.n_tp;
      const uint64_t *lo = t->lod->offsets[0];
      for (size_t i = 0; i + 1 < t->lod->lens[0]; i++) {
        for (uint64_t j = lo[i]; j < lo[i + 1]; j++) {
          list[*n] = (dm_ent){(int)i, (int)ic_read_f64(t, (int64_t)j * 2 + 1),
                              ic_read_f64(t, (int64_t)j * 2), *n};
          (*n)++;
        }
      }
    }
  }

  const uint64_t *ll = lab->lod->offsets[0], *dl = det->lod->offsets[0];
  const size_t n_img = lab->lod->lens[0] - 1;
  /* positive counts per class: every image, classes in ascending order (order is immaterial) */
  for (size_t n = 0; n < n_img; n++) {
    for (uint64_t i = ll[n]; i < ll[n + 1]; i++) {
      const int label = (int)ic_read_f64(lab, (int64_t)i * LW);
      bool seen = false; /* count each class of the image once */
      for (uint64_t q = ll[n]; q < i && !seen; q++) {
        seen = (int)ic_read_f64(lab, (int64_t)q * LW) == label;
      }
      if (seen) continue;
      int count = 0;
      for (uint64_t q = i; q < ll[n + 1]; q++) {
        if ((int)ic_read_f64(lab, (int64_t)q * LW) != label) continue;
        const bool diff = LW == 6 && fabs(ic_read_f64(lab, (int64_t)q * LW + 1) - 0.0) >= 1e-6;
        if (a->difficult || !diff) count++;
      }
      if (count) count_of(&m, label, true)->count += count;
    }
  }

  /* matches, image by image, class by class in ascending order */
  for (size_t n = 0; n < n_img; n++) {
    const bool no_gt = ll[n + 1] == ll[n];
    /* the image's detection classes in ascending order */
    int prev = 0;
    bool first = true;
    for (;;) {
      bool found = false;
      int label = 0;
      for (uint64_t i = dl[n]; i < dl[n + 1]; i++) {
        const int l = (int)ic_read_f64(det, (int64_t)i * 6);
        if ((first || l > prev) && (!found || l < label)) {
          label = l;
          found = true;
        }
      }
      if (!found) break;
      first = false;
      prev = label;
      int64_t nd = 0;
      for (uint64_t i = dl[n]; i < dl[n + 1]; i++) {
        if ((int)ic_read_f64(det, (int64_t)i * 6) != label) continue;
        dm_det *d = &dets[nd];
        d->score = ic_read_f64(det, (int64_t)i * 6 + 1);
        for (int k = 0; k < 4; k++) d->box[k] = ic_read_f64(det, (int64_t)i * 6 + 2 + k);
        d->order = nd++;
      }
      int64_t ng = 0;
      for (uint64_t i = ll[n]; i < ll[n + 1] && !no_gt; i++) {
        if ((int)ic_read_f64(lab, (int64_t)i * LW) != label) continue;
        const int64_t o = LW == 6 ? 2 : 1;
        for (int k = 0; k < 4; k++) gtb[ng * 4 + k] = ic_read_f64(lab, (int64_t)i * LW + o + k);
        gdiff[ng] = LW == 6 && fabs(ic_read_f64(lab, (int64_t)i * LW + 1) - 0.0) >= 1e-6;
        visited[ng] = 0;
        ng++;
      }
      if (ng == 0) { /* no ground truth of this class (or none at all): all false */
        for (int64_t i = 0; i < nd; i++) push(&m, label, dets[i].score, 0);
        continue;
      }
      qsort(dets, (size_t)nd, sizeof(dm_det), cmp_det);
      for (int64_t i = 0; i < nd; i++) {
        double *b = dets[i].box;
        for (int k = 0; k < 4; k++) b[k] = fmax(fmin(b[k], 1.0), 0.0);
        double best = -1.0;
        int64_t bi = 0;
        for (int64_t j = 0; j < ng; j++) {
          const double ov = jaccard(&m, b, gtb + j * 4);
          if (ov > best) {
            best = ov;
            bi = j;
          }
        }
        if (best > (double)a->overlap) {
          if (a->difficult || !gdiff[bi]) {
            push(&m, label, dets[i].score, !visited[bi]);
            visited[bi] = 1;
          }
        } else {
          push(&m, label, dets[i].score, 0);
        }
      }
    }
  }

  /* mAP */
  double map = 0.0;
  int count = 0;
  for (int64_t ci = 0; ci < m.n_cnt; ci++) {
    const int label = m.cnt[ci].label, npos = m.cnt[ci].count;
    if (npos == a->background) continue;
    bool has = false;
    for (int64_t i = 0; i < m.n_tp && !has; i++) has = m.tp[i].label == label;
    if (!has) {
      count++;
      continue;
    }
    const int64_t nt = accumulate(m.tp, m.n_tp, label, st_tp, tsum);
    const int64_t nf = accumulate(m.fp, m.n_fp, label, st_fp, fsum);
    if (nf < nt) {
      st = ic_kfail(c, IC_ERR_SHAPE, "class %d has %lld true-positive entries but only %lld "
                    "false-positive ones (inputs TruePos and FalsePos disagree)", label,
                    (long long)nt, (long long)nf);
      break;
    }
    const int64_t *fs = fsum;
    if (a->integral) {
      float ap = 0.0f, prev = 0.0f;
      for (int64_t i = 0; i < nt; i++) {
        const double prec = rt(&m, (double)tsum[i] / rt(&m, (double)(tsum[i] + fs[i])));
        const double rec = rt(&m, (double)tsum[i] / (double)npos);
        const double step = rt(&m, rec - (double)prev);
        if (fabs(step) > 1e-6) ap = (float)((double)ap + rt(&m, prec * fabs(step)));
        prev = (float)rec;
      }
      map = rt(&m, map + (double)ap);
    } else {
      double maxp[11] = {0};
      int64_t start = nt - 1;
      for (int j = 10; j >= 0; j--) {
        for (int64_t i = start; i >= 0; i--) {
          const double prec = rt(&m, (double)tsum[i] / rt(&m, (double)(tsum[i] + fs[i])));
          const double rec = rt(&m, (double)tsum[i] / (double)npos);
          if (rec < j / 10.) {
            start = i;
            if (j > 0) maxp[j - 1] = maxp[j];
            break;
          }
          if (maxp[j] < prec) maxp[j] = prec;
        }
      }
      for (int j = 10; j >= 0; j--) map = rt(&m, map + rt(&m, maxp[j] / 11));
    }
    count++;
  }
  if (!st && count != 0) map = rt(&m, map / count);

  /* outputs */
  ic_tensor *omap = ic_out(c, OUT_MAP, 0);
  if (!st) {
    if (m.f32) ((float *)omap->data)[0] = (float)map;
    else ((double *)omap->data)[0] = map;
    int32_t *opc = ic_out(c, OUT_POS_COUNT, 0)->data;
    for (int64_t i = 0; i < a->class_num; i++) {
      const dm_cnt *e = count_of(&m, (int)i, false);
      opc[i] = e ? e->count : 0;
    }
  }
  for (int k = 0; k < 2 && !st; k++) {
    const dm_ent *list = k ? m.fp : m.tp;
    const int64_t n = k ? m.n_fp : m.n_tp;
    const size_t s = k ? OUT_FALSE_POS : OUT_TRUE_POS;
    st = ic_kalloc_out(c, s, 0, det->dtype, 2, (int64_t[]){n, 2});
    if (st) break;
    ic_tensor *t = ic_out(c, s, 0);
    memset(t->data, 0, (size_t)(n * 2) * ic_dtype_size(det->dtype));
    const size_t lens = (size_t)a->class_num + 1;
    ic_lod *lod = ic_lod_new(1, &lens);
    if (lod) {
      int64_t r = 0;
      lod->offsets[0][0] = 0;
      for (int64_t cl = 0; cl < a->class_num; cl++) {
        for (int64_t i = 0; i < n; i++) {
          if (list[i].label != cl) continue;
          if (m.f32) {
            ((float *)t->data)[r * 2] = (float)list[i].score;
            ((float *)t->data)[r * 2 + 1] = (float)list[i].flag;
          } else {
            ((double *)t->data)[r * 2] = list[i].score;
            ((double *)t->data)[r * 2 + 1] = (double)list[i].flag;
          }
          r++;
        }
        lod->offsets[0][cl + 1] = (uint64_t)r;
      }
    }
    st = ic_kset_lod(c, t, lod, true);
  }
  ic_buffer_release(buf);
  return st;
}

static const ic_slotdef inputs[] = {{"DetectRes", 0},
                                    {"Label", 0},
                                    {"HasState", IC_SLOT_OPTIONAL},
                                    {"PosCount", IC_SLOT_OPTIONAL},
                                    {"TruePos", IC_SLOT_OPTIONAL},
                                    {"FalsePos", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"MAP", 0},
                                     {"AccumPosCount", 0},
                                     {"AccumTruePos", IC_SLOT_DYNAMIC},
                                     {"AccumFalsePos", IC_SLOT_DYNAMIC}};

const ic_opdef ic_op_detection_map = {
    .name = "detection_map", .n_inputs = 6, .inputs = inputs, .n_outputs = 4,
    .outputs = outputs, .attrs_size = sizeof(dmap_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_LOD,
};
