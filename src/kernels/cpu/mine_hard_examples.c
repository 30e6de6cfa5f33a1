/* mine_hard_examples (SSD's hard negative mining; paddle/fluid/operators/detection/
 * mine_hard_examples_op.cc). Per image n of ClsLoss [N, Np] (and optional LocLoss), with
 * MatchIndices [N, Np] int32 and MatchDist [N, Np] from bipartite_match:
 *   max_negative: the candidates are the unmatched priors (index -1) whose distance is below
 *     neg_dist_threshold; the int(positives * neg_pos_ratio) of largest ClsLoss are kept;
 *     NegIndices lists them in increasing prior order; UpdatedMatchIndices = MatchIndices.
 *   hard_example: every prior is a candidate, its loss ClsLoss (+ LocLoss when given); the
 *     sample_size largest are selected; matched priors not selected become -1 in
 *     UpdatedMatchIndices, and the selected unmatched ones are NegIndices.
 * NegIndices [total, 1] int32 carries one LoD level splitting it per image. Losses and
 * distances are compared in float32 as Paddle's kernel does (its pairs hold floats); equal
 * losses: the lower prior first (Paddle's std::sort leaves their order unspecified).
 * float32 or float64 losses. */
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"

enum { IN_CLS, IN_LOC, IN_IDX, IN_DIST };
enum { OUT_NEG, OUT_IDX };

typedef struct mhe_attrs {
  bool hard;
  float ratio, threshold;
  int64_t sample_size;
} mhe_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  mhe_attrs *a = attrs;
  const char *t = ic_ar_str(r, "mining_type", "max_negative");
  a->ratio = (float)ic_ar_float(r, "neg_pos_ratio", 1.0);
  a->threshold = (float)ic_ar_float(r, "neg_dist_threshold", 0.5);
  a->sample_size = ic_ar_int(r, "sample_size", 0);
  if (r->st) return r->st;
  a->hard = !strcmp(t, "hard_example");
  if (!a->hard && strcmp(t, "max_negative")) {
    return ic_ar_fail(r, "mining_type", "is \"%s\", expected hard_example or max_negative", t);
  }
  if (!a->hard && !(a->ratio > 0.0f)) {
    return ic_ar_fail(r, "neg_pos_ratio", "is %g, expected > 0 in max_negative mode",
                      (double)a->ratio);
  }
  if (!a->hard && !(a->threshold > 0.0f && a->threshold < 1.0f)) {
    return ic_ar_fail(r, "neg_dist_threshold", "is %g, expected in (0, 1) in max_negative mode",
                      (double)a->threshold);
  }
  if (a->hard && a->sample_size <= 0) {
    return ic_ar_fail(r, "sample_size", "is %lld, expected > 0 in hard_example mode",
                      (long long)a->sample_size);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *cls = ic_in(c, IN_CLS, 0);
  if (ic_kcheck_dtype(c, IN_CLS, 0, IC_DT_FLOAT)) return c->err->code;
  if (cls->ndim != 2) return ic_kfail_in(c, IN_CLS, 0, "expected rank 2 [images, priors]");
  for (size_t s = IN_LOC; s <= IN_DIST; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (!t) continue;
    const ic_dtype want = s == IN_IDX ? IC_INT32 : cls->dtype;
    if (t->dtype != want || !ic_dims_equal(t->ndim, t->dims, 2, cls->dims)) {
      char d[64];
      return ic_kfail_in(c, s, 0, "expected %s%s (ClsLoss's dims)", ic_dtype_name(want),
                         ic_dims_str(2, cls->dims, d, sizeof d));
    }
  }
  ic_tensor_set_meta(ic_out(c, OUT_NEG, 0), IC_INT32, 2, (int64_t[]){0, 1});
  ic_tensor_set_meta(ic_out(c, OUT_IDX, 0), IC_INT32, 2, cls->dims);
  ic_tensor_take_lod(ic_out(c, OUT_IDX, 0), NULL);
  return IC_OK;
}

typedef struct cand {
  float loss;
  int32_t m;
} cand;

static int cand_cmp(const void *a, const void *b) {
  const cand *x = a, *y = b;
  if (x->loss != y->loss) return x->loss > y->loss ? -1 : 1;
  return (x->m > y->m) - (x->m < y->m);
}

static int int_cmp(const void *a, const void *b) {
  const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

static ic_status run(ic_kctx *c) {
  const mhe_attrs *a = c->attrs;
  const ic_tensor *cls = ic_in(c, IN_CLS, 0), *loc = ic_in(c, IN_LOC, 0);
  const ic_tensor *mi = ic_in(c, IN_IDX, 0), *md = ic_in(c, IN_DIST, 0);
  ic_tensor *upd = ic_out(c, OUT_IDX, 0);
  const int64_t N = cls->dims[0], P = cls->dims[1];
  const int32_t *idx = mi->data;
  int32_t *uidx = upd->data;
  memcpy(uidx, idx, (size_t)(N * P) * sizeof(int32_t));
  const size_t n_off = (size_t)N + 1;
  ic_buffer *b = ic_kscratch(c, (size_t)(N * P) * (sizeof(cand) + sizeof(int32_t)) + 1);
  if (!b) return c->err->code;
  cand *cd = b->data;
  int32_t *neg = (int32_t *)(cd + N * P); /* every image's NegIndices, in turn */
  ic_lod *lod = ic_lod_new(1, &n_off);
  if (!lod) {
    ic_buffer_release(b);
    return ic_kset_lod(c, ic_out(c, OUT_NEG, 0), NULL, true);
  }
  lod->offsets[0][0] = 0;
  int64_t total = 0;
  for (int64_t n = 0; n < N; n++) {
    int64_t nc = 0, npos = 0;
    for (int64_t m = 0; m < P; m++) {
      const int64_t k = n * P + m;
      if (idx[k] != -1) npos++;
      const bool eligible =
          a->hard || (idx[k] == -1 && (float)ic_read_f64(md, k) < a->threshold);
      if (!eligible) continue;
      double loss = ic_read_f64(cls, k);
      if (a->hard && loc) loss += ic_read_f64(loc, k);
      cd[nc++] = (cand){(float)loss, (int32_t)m};
    }
    int64_t sel = nc;
    if (a->hard) {
      if (a->sample_size < sel) sel = a->sample_size;
    } else {
      const int64_t lim = (int64_t)((float)npos * a->ratio);
      if (lim < sel) sel = lim;
    }
    qsort(cd, (size_t)nc, sizeof *cd, cand_cmp);
    int32_t *out = neg + total;
    int64_t nn = 0;
    if (a->hard) {
      /* selected: the first sel candidates; flag them in a per-prior mark */
      for (int64_t m = 0; m < P; m++) out[m] = 0; /* scratch marks, overwritten below */
      for (int64_t s = 0; s < sel; s++) out[cd[s].m] = 1;
      /* walk priors in order: matched and unselected -> -1; unmatched and selected -> neg */
      int64_t w = 0;
      for (int64_t m = 0; m < P; m++) {
        const bool chosen = out[m] != 0;
        if (idx[n * P + m] > -1) {
          if (!chosen) uidx[n * P + m] = -1;
        } else if (chosen) {
          out[w++] = (int32_t)m; /* w <= m: never overwrites a mark still to be read */
        }
      }
      nn = w;
    } else {
      for (int64_t s = 0; s < sel; s++) out[s] = cd[s].m;
      qsort(out, (size_t)sel, sizeof *out, int_cmp);
      nn = sel;
    }
    total += nn;
    lod->offsets[0][n + 1] = (uint64_t)total;
  }
  ic_status st = ic_kalloc_out(c, OUT_NEG, 0, IC_INT32, 2, (int64_t[]){total, 1});
  if (!st && total) memcpy(ic_out(c, OUT_NEG, 0)->data, neg, (size_t)total * sizeof(int32_t));
  ic_buffer_release(b);
  if (st) {
    ic_lod_free(lod);
    return st;
  }
  return ic_kset_lod(c, ic_out(c, OUT_NEG, 0), lod, true);
}

static const ic_slotdef inputs[] = {{"ClsLoss", 0},
                                    {"LocLoss", IC_SLOT_OPTIONAL},
                                    {"MatchIndices", 0},
                                    {"MatchDist", 0}};
static const ic_slotdef outputs[] = {{"NegIndices", IC_SLOT_DYNAMIC}, {"UpdatedMatchIndices", 0}};

const ic_opdef ic_op_mine_hard_examples = {
    .name = "mine_hard_examples",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(mhe_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
