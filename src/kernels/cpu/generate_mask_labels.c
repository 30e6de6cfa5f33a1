/* generate_mask_labels: Mask R-CNN's mask targets (paddle/fluid/operators/detection/
 * generate_mask_labels_op.cc and mask_util.cc, Paddle 2.6; float32 only, as Paddle's kernel).
 * ImInfo [N, 3] (height, width, scale); GtClasses and IsCrowd (int32, one per ground truth,
 * one LoD level over N images); GtSegms [S, 2] float32 polygon points with 3 LoD levels
 * (images -> ground truths -> polygons -> points); Rois [R, 4] and LabelsInt32 (int32, R)
 * split by one LoD level (generate_proposal_labels' outputs). Per image with rois:
 *   - its ground truths of class > 0 that are not crowd keep their polygons; each gets the box
 *     [min x, min y, max x, max y] of its points (the max starting at FLT_MIN, as Paddle's);
 *   - the fg rois (label > 0), divided by the scale, each take the truth whose box has the
 *     largest IoU (pixel sides; the first of equal ones, the first truth when all are 0) and
 *     rasterise its polygons into a resolution x resolution grid over the roi (points
 *     (p - roi min) * M / max(side, 1)), the union of COCO's polygon-to-RLE rasterisation
 *     (points scaled by 5 and rounded, edges walked in integer steps, the crossings of the
 *     pixel columns' centres give the runs);
 *   - MaskRois = those rois times the scale, RoiHasMaskInt32 = their indices among the
 *     image's rois, MaskInt32 [., num_classes * M * M] = -1 but for the roi's class block,
 *     which holds its mask (0 / 1);
 *   - an image without fg rois gives one row instead: its first roi (Paddle's choice, though it
 *     looks for a bg one), the index of its first bg roi, a mask of all -1.
 * Each output has a LoD splitting its rows per image. Tested against Paddle 2.6.2 at resolution
 * 12 with every vertex right of / below its roi's corner: with a vertex left of the roi
 * Paddle's binary set one edge pixel that the truncating casts of its mask_util.cc (icore's)
 * do not, and at resolutions 16 and 28 it corrupted its heap on the same data. icore refuses what Paddle would read
 * out of bounds: a class >= num_classes, fg rois in an image without a usable ground truth,
 * an image whose rois are neither fg nor bg, an empty polygon. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"

enum { IN_INFO, IN_CLS, IN_CROWD, IN_SEGMS, IN_ROIS, IN_LABELS };
enum { OUT_ROIS, OUT_HAS, OUT_MASK };

typedef struct gml_attrs {
  int64_t num_classes, res;
} gml_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gml_attrs *a = attrs;
  a->num_classes = ic_ar_int_req(r, "num_classes");
  a->res = ic_ar_int_req(r, "resolution");
  if (r->st) return r->st;
  if (a->num_classes < 1) {
    return ic_ar_fail(r, "num_classes", "is %lld, expected >= 1", (long long)a->num_classes);
  }
  if (a->res < 1 || a->res > 4096) {
    return ic_ar_fail(r, "resolution", "is %lld, expected in [1, 4096]", (long long)a->res);
  }
  return IC_OK;
}

static const uint64_t *lod_level(ic_kctx *c, size_t s, size_t levels, size_t from_last,
                                 size_t *n) {
  const uint64_t *l = ic_kseq(c, s, 0, from_last, n);
  if (l && ic_in(c, s, 0)->lod->n_levels != levels) {
    ic_kfail_in(c, s, 0, "has %zu LoD levels, expected %zu", ic_in(c, s, 0)->lod->n_levels,
                levels);
    return NULL;
  }
  return l;
}

static ic_status infer(ic_kctx *c) {
  const gml_attrs *a = c->attrs;
  const ic_tensor *im = ic_in(c, IN_INFO, 0), *sg = ic_in(c, IN_SEGMS, 0),
                  *ro = ic_in(c, IN_ROIS, 0), *cl = ic_in(c, IN_CLS, 0);
  if (ic_kcheck_dtype(c, IN_ROIS, 0, IC_DT(IC_FP32))) return c->err->code;
  if (ro->ndim != 2 || ro->dims[1] != 4) return ic_kfail_in(c, IN_ROIS, 0, "expected [R, 4]");
  if (sg->dtype != IC_FP32 || sg->ndim != 2 || sg->dims[1] != 2) {
    return ic_kfail_in(c, IN_SEGMS, 0, "expected float32 [S, 2] polygon points");
  }
  size_t n, k, ns;
  const uint64_t *cl_l = lod_level(c, IN_CLS, 1, 0, &n);
  if (!cl_l) return c->err->code;
  const uint64_t *cr_l = lod_level(c, IN_CROWD, 1, 0, &k);
  if (!cr_l) return c->err->code;
  if (ic_kcheck_dtype(c, IN_CLS, 0, IC_DT(IC_INT32)) ||
      ic_kcheck_dtype(c, IN_CROWD, 0, IC_DT(IC_INT32))) {
    return c->err->code;
  }
  if (ic_tensor_numel_(cl) != cl->dims[0]) return ic_kfail_in(c, IN_CLS, 0, "expected [K, 1]");
  if (k != n || memcmp(cl_l, cr_l, (n + 1) * sizeof *cl_l) ||
      ic_tensor_numel_(ic_in(c, IN_CROWD, 0)) != cl->dims[0]) {
    return ic_kfail_in(c, IN_CROWD, 0, "expected one value per row of GtClasses, split alike");
  }
  const uint64_t *s0 = lod_level(c, IN_SEGMS, 3, 2, &ns);
  if (!s0) return c->err->code;
  if (ns != n) return ic_kfail_in(c, IN_SEGMS, 0, "splits into %zu images, GtClasses %zu", ns, n);
  for (size_t i = 0; i < n; i++) {
    if (s0[i + 1] - s0[i] != cl_l[i + 1] - cl_l[i]) {
      return ic_kfail_in(c, IN_SEGMS, 0, "has %llu ground truths in image %zu, GtClasses %llu",
                         (unsigned long long)(s0[i + 1] - s0[i]), i,
                         (unsigned long long)(cl_l[i + 1] - cl_l[i]));
    }
  }
  size_t nr, nl;
  const uint64_t *rl = lod_level(c, IN_ROIS, 1, 0, &nr);
  if (!rl) return c->err->code;
  const uint64_t *ll = lod_level(c, IN_LABELS, 1, 0, &nl);
  if (!ll) return c->err->code;
  if (nr != n) return ic_kfail_in(c, IN_ROIS, 0, "splits into %zu images, GtClasses %zu", nr, n);
  if (ic_kcheck_dtype(c, IN_LABELS, 0, IC_DT(IC_INT32))) return c->err->code;
  if (nl != n || memcmp(rl, ll, (n + 1) * sizeof *rl) ||
      ic_tensor_numel_(ic_in(c, IN_LABELS, 0)) != ro->dims[0]) {
    return ic_kfail_in(c, IN_LABELS, 0, "expected one label per row of Rois, split alike");
  }
  if (im->dtype != IC_FP32 || im->ndim != 2 || im->dims[1] != 3 || im->dims[0] < (int64_t)n) {
    return ic_kfail_in(c, IN_INFO, 0, "expected float32 [%zu, 3] (height, width, scale)", n);
  }
  ic_tensor_set_meta(ic_out(c, OUT_ROIS, 0), IC_FP32, 2, (int64_t[]){0, 4});
  ic_tensor_set_meta(ic_out(c, OUT_HAS, 0), IC_INT32, 2, (int64_t[]){0, 1});
  ic_tensor_set_meta(ic_out(c, OUT_MASK, 0), IC_INT32, 2,
                     (int64_t[]){0, a->num_classes * a->res * a->res});
  return IC_OK;
}

static int cmp_u32(const void *pa, const void *pb) {
  const uint32_t x = *(const uint32_t *)pa, y = *(const uint32_t *)pb;
  return x > y ? 1 : x < y ? -1 : 0;
}

/* COCO's polygon rasterisation (rleFrPoly, then decoded): k points xy (pixel units) into
 * mask [h, w] row-major (0 / 1). scratch holds at least 2 (k + 1) + 4 (m + 1) ints, m being
 * the edge walk's length (rast_len). */
static int64_t rast_len(const float *xy, int k) {
  int64_t m = 0;
  for (int j = 0; j < k; j++) {
    const int j1 = (j + 1) % k;
    const int x0 = (int)(5.0 * xy[j * 2] + .5), x1 = (int)(5.0 * xy[j1 * 2] + .5);
    const int y0 = (int)(5.0 * xy[j * 2 + 1] + .5), y1 = (int)(5.0 * xy[j1 * 2 + 1] + .5);
    const int dx = abs(x0 - x1), dy = abs(y0 - y1);
    m += (dx > dy ? dx : dy) + 1;
  }
  return m;
}

static void rasterise(const float *xy, int k, int h, int w, int *scratch, uint8_t *mask) {
  const double scale = 5;
  int *x = scratch, *y = x + k + 1;
  for (int j = 0; j < k; j++) {
    x[j] = (int)(scale * xy[j * 2] + .5);
    y[j] = (int)(scale * xy[j * 2 + 1] + .5);
  }
  x[k] = x[0];
  y[k] = y[0];
  int *u = y + k + 1;
  const int64_t total = rast_len(xy, k);
  int *v = u + total;
  int64_t m = 0;
  /* walk each edge in unit steps along its longer axis, from its lower end */
  for (int j = 0; j < k; j++) {
    int xs = x[j], xe = x[j + 1], ys = y[j], ye = y[j + 1];
    const int dx = abs(xe - xs), dy = abs(ys - ye);
    const bool flip = (dx >= dy && xs > xe) || (dx < dy && ys > ye);
    if (flip) {
      int t = xs;
      xs = xe, xe = t;
      t = ys;
      ys = ye, ye = t;
    }
    if (dx >= dy) {
      const double s = dx == 0 ? 0 : (double)(ye - ys) / dx;
      for (int d = 0; d <= dx; d++) {
        const int t = flip ? dx - d : d;
        u[m] = t + xs;
        v[m] = (int)(ys + s * t + .5);
        m++;
      }
    } else {
      const double s = dy == 0 ? 0 : (double)(xe - xs) / dy;
      for (int d = 0; d <= dy; d++) {
        const int t = flip ? dy - d : d;
        v[m] = t + ys;
        u[m] = (int)(xs + s * t + .5);
        m++;
      }
    }
  }
  /* the boundary points where the walk crosses a pixel column's centre, downsampled */
  uint32_t *a = (uint32_t *)(v + total);
  int64_t na = 0;
  for (int64_t j = 1; j < m; j++) {
    if (u[j] == u[j - 1]) continue;
    double xd = (double)(u[j] < u[j - 1] ? u[j] : u[j] - 1);
    xd = (xd + .5) / scale - .5;
    if (floor(xd) != xd || xd < 0 || xd > w - 1) continue;
    double yd = (double)(v[j] < v[j - 1] ? v[j] : v[j - 1]);
    yd = (yd + .5) / scale - .5;
    if (yd < 0) yd = 0;
    else if (yd > h) yd = h;
    yd = ceil(yd);
    a[na++] = (uint32_t)((int)xd * h + (int)yd);
  }
  a[na++] = (uint32_t)(h * w);
  qsort(a, (size_t)na, sizeof *a, cmp_u32);
  uint32_t prev = 0;
  for (int64_t j = 0; j < na; j++) {
    const uint32_t t = a[j];
    a[j] -= prev;
    prev = t;
  }
  /* runs: zero-length runs merge their neighbours */
  uint32_t *b = a + na;
  int64_t nb = 0, j = 0;
  b[nb++] = a[j++];
  while (j < na) {
    if (a[j] > 0) {
      b[nb++] = a[j++];
    } else {
      j++;
      if (j < na) b[nb - 1] += a[j++];
    }
  }
  /* decode (column-major runs) into the row-major mask */
  int64_t pos = 0;
  uint8_t val = 0;
  for (int64_t r = 0; r < nb; r++) {
    for (uint32_t q = 0; q < b[r] && pos < (int64_t)h * w; q++, pos++) {
      const int64_t col = pos / h, row = pos % h;
      mask[row * w + col] = val;
    }
    val = !val;
  }
}

static ic_status run(ic_kctx *c) {
  const gml_attrs *a = c->attrs;
  const ic_tensor *im = ic_in(c, IN_INFO, 0), *sg = ic_in(c, IN_SEGMS, 0),
                  *ro = ic_in(c, IN_ROIS, 0);
  const int32_t *cls = ic_in(c, IN_CLS, 0)->data, *crowd = ic_in(c, IN_CROWD, 0)->data;
  const int32_t *lbl = ic_in(c, IN_LABELS, 0)->data;
  const float *pts = sg->data, *rois = ro->data, *info = im->data;
  size_t n, t;
  const uint64_t *gl = ic_kseq(c, IN_CLS, 0, 0, &n), *rl = ic_kseq(c, IN_ROIS, 0, 0, &t);
  const uint64_t *l1 = ic_kseq(c, IN_SEGMS, 0, 1, &t), *l2 = ic_kseq(c, IN_SEGMS, 0, 0, &t);
  if (!gl || !rl || !l1 || !l2) return c->err->code;
  const int64_t M = a->res, MM = M * M, D = a->num_classes * MM, R = ro->dims[0];
  const int64_t K = ic_in(c, IN_CLS, 0)->dims[0];
  /* scratch: per roi (at most R + n rows) its box, index, class and mask */
  int64_t max_pts = 1;
  for (uint64_t p = 0; p + 1 < t + 1; p++) {
    if ((int64_t)(l2[p + 1] - l2[p]) > max_pts) max_pts = (int64_t)(l2[p + 1] - l2[p]);
  }
  const int64_t rows = R + (int64_t)n;
  const size_t bytes = (size_t)rows * (16 + 8 + (size_t)MM) + (size_t)K * 16 +
                       (size_t)max_pts * 8 + (size_t)MM + ((size_t)n + 1) * 8 + 64;
  ic_buffer *buf = ic_kscratch(c, bytes);
  if (!buf) return c->err->code;
  char *p = buf->data;
#define TAKE(ptr, size)                               \
  do {                                                \
    p = (char *)(((uintptr_t)p + 7) & ~(uintptr_t)7); \
    ptr = (void *)p;                                  \
    p += (size);                                      \
  } while (0)
  float *obox, *gbox, *poly;
  int32_t *ohas, *ocls;
  uint8_t *omask, *tmp;
  uint64_t *lod;
  TAKE(obox, (size_t)rows * 16);
  TAKE(ohas, (size_t)rows * 4);
  TAKE(ocls, (size_t)rows * 4);
  TAKE(omask, (size_t)rows * (size_t)MM);
  TAKE(gbox, (size_t)K * 16);
  TAKE(poly, (size_t)max_pts * 8);
  TAKE(tmp, (size_t)MM);
  TAKE(lod, ((size_t)n + 1) * 8);
#undef TAKE
  ic_status st = IC_OK;
  ic_buffer *sb = NULL; /* the rasterisation's scratch, grown as polygons need */
  int64_t no = 0;
  lod[0] = 0;
  for (size_t i = 0; i < n && !st; i++) {
    const int64_t r0 = (int64_t)rl[i], nr = (int64_t)rl[i + 1] - r0;
    if (nr == 0) {
      lod[i + 1] = (uint64_t)no;
      continue;
    }
    const float S = info[i * 3 + 2];
    /* usable truths and their polygons' boxes */
    int64_t ng = 0;
    for (uint64_t g = gl[i]; g < gl[i + 1]; g++) {
      if (cls[g] <= 0 || crowd[g] != 0) continue;
      float x0 = FLT_MAX, x1 = FLT_MIN, y0 = FLT_MAX, y1 = FLT_MIN;
      for (uint64_t q = l1[g]; q < l1[g + 1]; q++) {
        if (l2[q] == l2[q + 1]) {
          st = ic_kfail_in(c, IN_SEGMS, 0, "has an empty polygon (ground truth %llu)",
                           (unsigned long long)g);
          break;
        }
        for (uint64_t e = l2[q]; e < l2[q + 1]; e++) {
          const float px = pts[e * 2], py = pts[e * 2 + 1];
          x0 = px < x0 ? px : x0, x1 = px > x1 ? px : x1;
          y0 = py < y0 ? py : y0, y1 = py > y1 ? py : y1;
        }
      }
      if (st) break;
      gbox[ng * 4] = x0, gbox[ng * 4 + 1] = y0, gbox[ng * 4 + 2] = x1, gbox[ng * 4 + 3] = y1;
      ng++;
    }
    if (st) break;
    int64_t fg = 0;
    for (int64_t r = 0; r < nr; r++) fg += lbl[r0 + r] > 0;
    if (fg > 0 && ng == 0) {
      st = ic_kfail_in(c, IN_CLS, 0, "has no ground truth of class > 0 that is not crowd in "
                       "image %zu, which has fg rois", i);
      break;
    }
    if (fg == 0) {
      int64_t bg = -1;
      for (int64_t r = 0; r < nr && bg < 0; r++) {
        if (lbl[r0 + r] == 0) bg = r;
      }
      if (bg < 0) {
        st = ic_kfail_in(c, IN_LABELS, 0, "has neither fg nor bg (label 0) rois in image %zu", i);
        break;
      }
      for (int q = 0; q < 4; q++) obox[no * 4 + q] = rois[r0 * 4 + q] / S * S;
      ohas[no] = (int32_t)bg;
      ocls[no] = 0;
      no++;
      lod[i + 1] = (uint64_t)no;
      continue;
    }
    for (int64_t r = 0; r < nr && !st; r++) {
      const int32_t label = lbl[r0 + r];
      if (label <= 0) continue;
      if (label >= a->num_classes) {
        st = ic_kfail_in(c, IN_LABELS, 0, "holds class %d, expected < num_classes (%lld)", label,
                         (long long)a->num_classes);
        break;
      }
      float b[4];
      for (int q = 0; q < 4; q++) b[q] = rois[(r0 + r) * 4 + q] / S;
      const float ra = (b[2] - b[0] + 1) * (b[3] - b[1] + 1);
      float best = FLT_MIN;
      int64_t id = 0;
      for (int64_t g = 0; g < ng; g++) {
        const float *q = gbox + g * 4;
        const float ca = (q[2] - q[0] + 1) * (q[3] - q[1] + 1);
        const float x0 = b[0] > q[0] ? b[0] : q[0], y0 = b[1] > q[1] ? b[1] : q[1];
        const float x1 = b[2] < q[2] ? b[2] : q[2], y1 = b[3] < q[3] ? b[3] : q[3];
        float iw = x1 - x0 + 1, ih = y1 - y0 + 1;
        if (iw < 0) iw = 0;
        if (ih < 0) ih = 0;
        const float inter = iw * ih;
        const float v = inter == 0 ? 0.0f : inter / (ra + ca - inter);
        if (v > best) best = v, id = g;
      }
      /* the id-th usable truth of the image */
      uint64_t gt = gl[i];
      for (int64_t seen = -1;; gt++) {
        if (cls[gt] > 0 && crowd[gt] == 0 && ++seen == id) break;
      }
      float bw = b[2] - b[0], bh = b[3] - b[1];
      bw = bw > 1.0f ? bw : 1.0f;
      bh = bh > 1.0f ? bh : 1.0f;
      uint8_t *mask = omask + no * MM;
      for (uint64_t q = l1[gt]; q < l1[gt + 1]; q++) {
        const int k = (int)(l2[q + 1] - l2[q]);
        for (int e = 0; e < k; e++) {
          poly[e * 2] = (pts[(l2[q] + (uint64_t)e) * 2] - b[0]) * (float)M / bw;
          poly[e * 2 + 1] = (pts[(l2[q] + (uint64_t)e) * 2 + 1] - b[1]) * (float)M / bh;
        }
        const size_t need = (size_t)(2 * (k + 1) + 4 * (rast_len(poly, k) + 1)) * sizeof(int);
        if (!sb || sb->bytes < need) {
          if (sb) ic_buffer_release(sb);
          sb = ic_kscratch(c, need * 2);
          if (!sb) {
            st = c->err->code;
            break;
          }
        }
        uint8_t *dst = q == l1[gt] ? mask : tmp;
        rasterise(poly, k, (int)M, (int)M, sb->data, dst);
        if (dst == tmp) {
          for (int64_t e = 0; e < MM; e++) mask[e] = (uint8_t)(mask[e] + tmp[e] > 0);
        }
      }
      if (l1[gt] == l1[gt + 1]) memset(mask, 0, (size_t)MM);
      for (int q = 0; q < 4; q++) obox[no * 4 + q] = b[q] * S;
      ohas[no] = (int32_t)r;
      ocls[no] = label;
      no++;
    }
    lod[i + 1] = (uint64_t)no;
  }
  if (!st) st = ic_kalloc_out(c, OUT_ROIS, 0, IC_FP32, 2, (int64_t[]){no, 4});
  if (!st) st = ic_kalloc_out(c, OUT_HAS, 0, IC_INT32, 2, (int64_t[]){no, 1});
  if (!st) st = ic_kalloc_out(c, OUT_MASK, 0, IC_INT32, 2, (int64_t[]){no, D});
  if (!st) {
    memcpy(ic_out(c, OUT_ROIS, 0)->data, obox, (size_t)no * 16);
    memcpy(ic_out(c, OUT_HAS, 0)->data, ohas, (size_t)no * 4);
    int32_t *om = ic_out(c, OUT_MASK, 0)->data;
    for (int64_t r = 0; r < no; r++) {
      for (int64_t e = 0; e < D; e++) om[r * D + e] = -1;
      if (ocls[r] > 0) {
        for (int64_t e = 0; e < MM; e++) om[r * D + ocls[r] * MM + e] = omask[r * MM + e];
      }
    }
  }
  for (size_t k = OUT_ROIS; !st && k <= OUT_MASK; k++) {
    const size_t len = n + 1;
    ic_lod *l = ic_lod_new(1, &len);
    if (l) memcpy(l->offsets[0], lod, len * sizeof *lod);
    st = ic_kset_lod(c, ic_out(c, k, 0), l, true);
  }
  if (sb) ic_buffer_release(sb);
  ic_buffer_release(buf);
  return st;
}

static const ic_slotdef inputs[] = {{"ImInfo", 0}, {"GtClasses", 0}, {"IsCrowd", 0},
                                    {"GtSegms", 0}, {"Rois", 0},      {"LabelsInt32", 0}};
static const ic_slotdef outputs[] = {
    {"MaskRois", IC_SLOT_DYNAMIC}, {"RoiHasMaskInt32", IC_SLOT_DYNAMIC},
    {"MaskInt32", IC_SLOT_DYNAMIC}};

const ic_opdef ic_op_generate_mask_labels = {
    .name = "generate_mask_labels",
    .n_inputs = 6, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(gml_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
