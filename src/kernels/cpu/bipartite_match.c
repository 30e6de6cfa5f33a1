/* bipartite_match (SSD's target matching; paddle/fluid/operators/detection/
 * bipartite_match_op.cc): DistMat [K, M] (LoD: one level splitting the K rows, ground-truth
 * boxes, among N images; none: one image) against M columns (priors). Per image, a greedy
 * bipartite matching takes the largest remaining distance again and again, each row and each
 * column at most once: with fewer than 130 rows scanning columns in order for the largest
 * distance (ties: the first column, then the first row of the pool; distances below 1e-6
 * never match), with 130 rows or more walking all pairs sorted by decreasing distance
 * (distances > 0; ties in row-major order here, where Paddle's std::sort leaves them in an
 * unspecified order) until every row is matched. match_type "per_prediction" then gives each
 * unmatched column the row of its largest distance when that is at least dist_threshold.
 * ColToRowMatchIndices [N, M] int32 (the matched row within the image, -1 unmatched),
 * ColToRowMatchDist [N, M] (the distance, 0 unmatched). float32 or float64. */
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"

typedef struct bm_attrs {
  bool per_prediction;
  double threshold;
} bm_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  bm_attrs *a = attrs;
  const char *t = ic_ar_str(r, "match_type", "bipartite");
  a->threshold = ic_ar_float(r, "dist_threshold", 0.5);
  if (r->st) return r->st;
  a->per_prediction = !strcmp(t, "per_prediction");
  if (!a->per_prediction && strcmp(t, "bipartite")) {
    return ic_ar_fail(r, "match_type", "is \"%s\", expected bipartite or per_prediction", t);
  }
  return IC_OK;
}

static size_t n_images(const ic_tensor *d) {
  return d->lod && d->lod->n_levels ? d->lod->lens[d->lod->n_levels - 1] - 1 : 1;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *d = ic_in(c, 0, 0);
  if (ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT)) return c->err->code;
  if (d->ndim != 2) return ic_kfail_in(c, 0, 0, "expected rank 2 [rows, columns]");
  if (d->lod && d->lod->n_levels > 1) {
    return ic_kfail_in(c, 0, 0, "has %zu LoD levels, expected at most 1", d->lod->n_levels);
  }
  const int64_t dims[2] = {(int64_t)n_images(d), d->dims[1]};
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_INT32, 2, dims);
  ic_tensor_set_meta(ic_out(c, 1, 0), d->dtype, 2, dims);
  ic_tensor_take_lod(ic_out(c, 0, 0), NULL);
  ic_tensor_take_lod(ic_out(c, 1, 0), NULL);
  return IC_OK;
}

typedef struct pair {
  double d;
  int64_t k; /* row * cols + col */
} pair;

static int pair_cmp(const void *a, const void *b) {
  const pair *x = a, *y = b;
  if (x->d != y->d) return x->d > y->d ? -1 : 1;
  return x->k < y->k ? -1 : x->k > y->k;
}

/* One image: rows [0, R) of dist (row-major, C columns, read through get). */
static ic_status match_one(ic_kctx *c, const bm_attrs *a, const ic_tensor *t, int64_t r0,
                           int64_t R, int64_t C, int32_t *idx, double *md) {
#define D(i, j) ic_read_f64(t, (r0 + (i)) * C + (j))
  const double eps = t->dtype == IC_FP32 ? (double)1e-6f : 1e-6; /* Paddle's T(1e-6) */
  if (R >= 130) {
    ic_buffer *b = ic_kscratch(c, (size_t)(R * C) * sizeof(pair) + (size_t)R * sizeof(int32_t));
    if (!b) return c->err->code;
    pair *p = b->data;
    int32_t *row_used = (int32_t *)(p + R * C);
    for (int64_t k = 0; k < R * C; k++) p[k] = (pair){D(k / C, k % C), k};
    qsort(p, (size_t)(R * C), sizeof *p, pair_cmp);
    for (int64_t i = 0; i < R; i++) row_used[i] = -1;
    int64_t n = 0;
    for (int64_t k = 0; k < R * C && n < R; k++) {
      const int64_t i = p[k].k / C, j = p[k].k % C;
      if (idx[j] == -1 && row_used[i] == -1 && p[k].d > 0) {
        idx[j] = (int32_t)i;
        row_used[i] = (int32_t)j;
        md[j] = p[k].d;
        n++;
      }
    }
    ic_buffer_release(b);
  } else {
    bool pool[130];
    for (int64_t i = 0; i < R; i++) pool[i] = true;
    for (int64_t left = R; left > 0; left--) {
      int64_t bj = -1, bi = -1;
      double best = -1;
      for (int64_t j = 0; j < C; j++) {
        if (idx[j] != -1) continue;
        for (int64_t i = 0; i < R; i++) {
          if (!pool[i]) continue;
          const double v = D(i, j);
          if (v < eps) continue;
          if (v > best) bj = j, bi = i, best = v;
        }
      }
      if (bj < 0) break;
      idx[bj] = (int32_t)bi;
      md[bj] = best;
      pool[bi] = false;
    }
  }
  if (a->per_prediction) {
    for (int64_t j = 0; j < C; j++) {
      if (idx[j] != -1) continue;
      int64_t bi = -1;
      double best = -1;
      for (int64_t i = 0; i < R; i++) {
        const double v = D(i, j);
        if (v < eps) continue;
        if (v >= a->threshold && v > best) bi = i, best = v;
      }
      if (bi >= 0) {
        idx[j] = (int32_t)bi;
        md[j] = best;
      }
    }
  }
#undef D
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const bm_attrs *a = c->attrs;
  const ic_tensor *d = ic_in(c, 0, 0);
  ic_tensor *oi = ic_out(c, 0, 0), *od = ic_out(c, 1, 0);
  const int64_t C = d->dims[1];
  const size_t n = n_images(d);
  ic_buffer *b = ic_kscratch(c, (size_t)C * sizeof(double) + 1);
  if (!b) return c->err->code;
  double *md = b->data;
  int32_t *idx = oi->data;
  for (int64_t k = 0; k < (int64_t)n * C; k++) idx[k] = -1;
  ic_status st = IC_OK;
  for (size_t im = 0; im < n && !st; im++) {
    const int64_t r0 = d->lod && d->lod->n_levels ? (int64_t)d->lod->offsets[0][im] : 0;
    const int64_t r1 = d->lod && d->lod->n_levels ? (int64_t)d->lod->offsets[0][im + 1]
                                                  : d->dims[0];
    for (int64_t j = 0; j < C; j++) md[j] = 0;
    if (r1 > r0) st = match_one(c, a, d, r0, r1 - r0, C, idx + (int64_t)im * C, md);
    for (int64_t j = 0; j < C; j++) {
      if (od->dtype == IC_FP64) ((double *)od->data)[(int64_t)im * C + j] = md[j];
      else ((float *)od->data)[(int64_t)im * C + j] = (float)md[j];
    }
  }
  ic_buffer_release(b);
  return st;
}

static const ic_slotdef inputs[] = {{"DistMat", 0}};
static const ic_slotdef outputs[] = {{"ColToRowMatchIndices", 0}, {"ColToRowMatchDist", 0}};

const ic_opdef ic_op_bipartite_match = {
    .name = "bipartite_match",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(bm_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
