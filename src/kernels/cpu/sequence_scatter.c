/* sequence_scatter: X [N, ...] float32/float64/int32/int64; Ids int64 [K] or [K, 1] with a
 * one-level LoD of S <= N sequences; Updates X's dtype, K rows, a one-level LoD too. Out = X
 * with, for each row i of sequence s, Out[s].flat[Ids[i]] += Updates[i] (in row order). Out
 * has X's dims and no LoD (paddle/fluid/operators/sequence_ops/sequence_scatter_op.{cc,h}). */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_IDS, IN_UPD };

static ic_status check_lod(ic_kctx *c, size_t s, const ic_tensor *t) {
  if (!t->lod || t->lod->n_levels != 1) {
    return ic_kfail_in(c, s, 0, "expected a one-level LoD, got %zu levels",
                       t->lod ? t->lod->n_levels : (size_t)0);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *ids = ic_in(c, IN_IDS, 0), *u = ic_in(c, IN_UPD, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_NUM);
  if (!st) st = ic_kcheck_dtype(c, IN_IDS, 0, IC_DT(IC_INT64));
  if (!st) st = ic_kcheck_dtype(c, IN_UPD, 0, IC_DT(x->dtype));
  if (!st) st = check_lod(c, IN_IDS, ids);
  if (!st) st = check_lod(c, IN_UPD, u);
  if (st) return st;
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  if (ids->ndim < 1 || ic_tensor_numel_(ids) != ids->dims[0]) {
    return ic_kfail_in(c, IN_IDS, 0, "expected [K] or [K, 1]");
  }
  if (u->ndim < 1 || u->dims[0] != ids->dims[0] || ic_tensor_numel_(u) != u->dims[0]) {
    return ic_kfail_in(c, IN_UPD, 0, "expected [%lld] or [%lld, 1] (the rows of Ids '%s')",
                       (long long)ids->dims[0], (long long)ids->dims[0], ic_in_name(c, IN_IDS, 0));
  }
  const uint64_t *lo = ids->lod->offsets[0];
  const size_t ns = ids->lod->lens[0] - 1;
  if (lo[ns] != (uint64_t)ids->dims[0]) {
    return ic_kfail_in(c, IN_IDS, 0, "has a LoD covering %llu rows, expected %lld",
                       (unsigned long long)lo[ns], (long long)ids->dims[0]);
  }
  if ((int64_t)ns > x->dims[0]) {
    return ic_kfail_in(c, IN_IDS, 0, "has %zu sequences, expected at most %lld (the rows of X "
                       "'%s')", ns, (long long)x->dims[0], ic_in_name(c, IN_X, 0));
  }
  ic_tensor *out = ic_out(c, 0, 0);
  ic_tensor_set_meta(out, x->dtype, x->ndim, x->dims);
  return ic_kset_lod(c, out, NULL, false);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *ids_t = ic_in(c, IN_IDS, 0), *u = ic_in(c, IN_UPD, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t slice = x->dims[0] ? ic_tensor_numel_(x) / x->dims[0] : 0;
  memcpy(out->data, x->data, (size_t)ic_tensor_numel_(x) * ic_dtype_size(x->dtype));
  const uint64_t *lo = ids_t->lod->offsets[0];
  const size_t ns = ids_t->lod->lens[0] - 1;
  const int64_t *ids = ids_t->data;
  for (size_t s = 0; s < ns; s++) {
    for (uint64_t i = lo[s]; i < lo[s + 1]; i++) {
      const int64_t k = ids[i];
      if (k < 0 || k >= slice) {
        return ic_kfail_in(c, IN_IDS, 0, "holds %lld at row %llu, expected 0 to %lld (the "
                           "elements of a row of X '%s')", (long long)k, (unsigned long long)i,
                           (long long)slice - 1, ic_in_name(c, IN_X, 0));
      }
      const int64_t at = (int64_t)s * slice + k;
      switch (x->dtype) {
        case IC_FP32: ((float *)out->data)[at] += ((const float *)u->data)[i]; break;
        case IC_FP64: ((double *)out->data)[at] += ((const double *)u->data)[i]; break;
        case IC_INT32: { /* wraps, as Paddle's int arithmetic does in practice */
          int32_t *d = (int32_t *)out->data + at;
          *d = (int32_t)((uint32_t)*d + (uint32_t)((const int32_t *)u->data)[i]);
          break;
        }
        default: {
          int64_t *d = (int64_t *)out->data + at;
          *d = (int64_t)((uint64_t)*d + (uint64_t)((const int64_t *)u->data)[i]);
          break;
        }
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Ids", 0}, {"Updates", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_sequence_scatter = {
    .name = "sequence_scatter", .n_inputs = 3, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run, .flags = IC_OP_LOD,
};
