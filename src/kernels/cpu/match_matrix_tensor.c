/* match_matrix_tensor (old NLP text matching): X float32 [Tx, D] and Y float32 [Ty, D], each
 * with a LoD whose first level has the same number of sequences; W float32 [D, dim_t, D].
 * Tmp = X W (W read as [D, dim_t * D]), written [Tx * dim_t * D, 1] without LoD. For
 * sequence b (lx rows of X from ox, ly rows of Y from oy) and t < dim_t, Out holds the
 * lx x ly matrix Tmp[ox + i, t D .. t D + D) . Y[oy + j], the blocks of all b and t one after
 * another: Out [sum dim_t lx ly, 1] with the one-level LoD of each b's block offsets
 * (paddle/fluid/operators/match_matrix_tensor_op.cc). Sums in double, rounded once. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_Y, IN_W };

typedef struct mmt_attrs {
  int64_t dim_t;
} mmt_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  mmt_attrs *a = attrs;
  a->dim_t = ic_ar_int(r, "dim_t", 1);
  if (!r->st && (a->dim_t < 1 || a->dim_t > INT32_MAX)) {
    ic_ar_fail(r, "dim_t", "is %lld, expected a positive int", (long long)a->dim_t);
  }
  return r->st;
}

static ic_status check_seq(ic_kctx *c, size_t s) {
  const ic_tensor *t = ic_in(c, s, 0);
  if (t->ndim != 2) return ic_kfail_in(c, s, 0, "expected rank 2");
  if (!t->lod || t->lod->n_levels == 0) return ic_kfail_in(c, s, 0, "expected a LoD");
  const size_t n = t->lod->lens[0];
  if (n < 2) return ic_kfail_in(c, s, 0, "expected a LoD of at least one sequence");
  if (t->lod->offsets[0][n - 1] != (uint64_t)t->dims[0]) {
    return ic_kfail_in(c, s, 0, "has a first LoD level ending at %llu, expected %lld (its rows)",
                       (unsigned long long)t->lod->offsets[0][n - 1], (long long)t->dims[0]);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const mmt_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *w = ic_in(c, IN_W, 0);
  ic_status st = IC_OK;
  for (size_t s = 0; s < 3 && !st; s++) st = ic_kcheck_dtype(c, s, 0, IC_DT(IC_FP32));
  if (!st) st = check_seq(c, IN_X);
  if (!st) st = check_seq(c, IN_Y);
  if (st) return st;
  const int64_t D = x->dims[1];
  if (y->dims[1] != D) {
    return ic_kfail_in(c, IN_Y, 0, "expected %lld columns (those of X '%s')", (long long)D,
                       ic_in_name(c, IN_X, 0));
  }
  if (w->ndim != 3 || w->dims[0] != D || w->dims[1] != a->dim_t || w->dims[2] != D) {
    return ic_kfail_in(c, IN_W, 0, "expected [%lld, %lld, %lld] ([D, dim_t, D])",
                       (long long)D, (long long)a->dim_t, (long long)D);
  }
  const size_t n = x->lod->lens[0];
  if (y->lod->lens[0] != n) {
    return ic_kfail_in(c, IN_Y, 0, "has %zu sequences, expected %zu (those of X '%s')",
                       y->lod->lens[0] - 1, n - 1, ic_in_name(c, IN_X, 0));
  }
  ic_lod *lod = ic_lod_new(1, &n);
  if (!lod) return ic_kset_lod(c, ic_out(c, 0, 0), NULL, true);
  const uint64_t *ox = x->lod->offsets[0], *oy = y->lod->offsets[0];
  lod->offsets[0][0] = 0;
  for (size_t b = 0; b + 1 < n; b++) {
    lod->offsets[0][b + 1] = lod->offsets[0][b] + (uint64_t)a->dim_t * (ox[b + 1] - ox[b]) *
                                                      (oy[b + 1] - oy[b]);
  }
  ic_tensor *out = ic_out(c, 0, 0), *tmp = ic_out(c, 1, 0);
  ic_tensor_set_meta(out, IC_FP32, 2, (int64_t[]){(int64_t)lod->offsets[0][n - 1], 1});
  st = ic_kset_lod(c, out, lod, true);
  if (st) return st;
  ic_tensor_set_meta(tmp, IC_FP32, 2, (int64_t[]){x->dims[0] * a->dim_t * D, 1});
  return ic_kset_lod(c, tmp, NULL, false);
}

static ic_status run(ic_kctx *c) {
  const mmt_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *w = ic_in(c, IN_W, 0);
  ic_tensor *out = ic_out(c, 0, 0), *tmp = ic_out(c, 1, 0);
  const int64_t D = x->dims[1], T = a->dim_t, TD = T * D, Tx = x->dims[0];
  const float *xs = x->data, *ys = y->data, *ws = w->data;
  float *tm = tmp->data, *o = out->data;
  for (int64_t r = 0; r < Tx; r++) {
    for (int64_t m = 0; m < TD; m++) {
      double acc = 0.0;
      for (int64_t k = 0; k < D; k++) acc += (double)xs[r * D + k] * ws[k * TD + m];
      tm[r * TD + m] = (float)acc;
    }
  }
  const uint64_t *ox = x->lod->offsets[0], *oy = y->lod->offsets[0];
  const size_t ns = x->lod->lens[0] - 1;
  int64_t at = 0;
  for (size_t b = 0; b < ns; b++) {
    const int64_t lx = (int64_t)(ox[b + 1] - ox[b]), ly = (int64_t)(oy[b + 1] - oy[b]);
    for (int64_t t = 0; t < T; t++) {
      for (int64_t i = 0; i < lx; i++) {
        const float *l = tm + ((int64_t)ox[b] + i) * TD + t * D;
        for (int64_t j = 0; j < ly; j++) {
          const float *rr = ys + ((int64_t)oy[b] + j) * D;
          double acc = 0.0;
          for (int64_t k = 0; k < D; k++) acc += (double)l[k] * rr[k];
          o[at++] = (float)acc;
        }
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}, {"W", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"Tmp", 0}};

const ic_opdef ic_op_match_matrix_tensor = {
    .name = "match_matrix_tensor", .n_inputs = 3, .inputs = inputs, .n_outputs = 2,
    .outputs = outputs, .attrs_size = sizeof(mmt_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_LOD,
};
