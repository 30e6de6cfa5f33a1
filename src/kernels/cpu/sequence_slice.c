/* sequence_slice: from each sequence k of X (exactly one LoD level) the Length[k] rows that
 * start Offset[k] rows into it; Out is X with dim 0 the total, and one LoD level of the
 * slices (paddle/fluid/operators/sequence_ops/sequence_slice_op.h). Offset and Length are
 * int64 [sequences] or [sequences, 1], non-negative, each slice inside its sequence. X of any
 * dtype. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_OFFSET, IN_LENGTH };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *off = ic_in(c, IN_OFFSET, 0),
                  *len = ic_in(c, IN_LENGTH, 0);
  ic_status st = ic_kcheck_dtype(c, IN_OFFSET, 0, IC_DT(IC_INT64));
  if (st || (st = ic_kcheck_dtype(c, IN_LENGTH, 0, IC_DT(IC_INT64)))) return st;
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  size_t ns;
  const uint64_t *lo = ic_kseq(c, IN_X, 0, 0, &ns);
  if (!lo) return c->err->code;
  if (x->lod->n_levels != 1) {
    return ic_kfail_in(c, IN_X, 0, "has %zu LoD levels, expected 1", x->lod->n_levels);
  }
  if (lo[ns] > (uint64_t)x->dims[0]) {
    return ic_kfail_in(c, IN_X, 0, "has a LoD of %llu rows but holds %lld",
                       (unsigned long long)lo[ns], (long long)x->dims[0]);
  }
  for (size_t s = IN_OFFSET; s <= IN_LENGTH; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->ndim < 1 || t->ndim > 2 || t->dims[0] != (int64_t)ns ||
        (t->ndim == 2 && t->dims[1] != 1)) {
      return ic_kfail_in(c, s, 0, "expected [%zu] or [%zu, 1] (one per sequence of X)", ns, ns);
    }
  }
  size_t n = ns + 1;
  ic_lod *lod = ic_lod_new(1, &n);
  if (!lod) return ic_kset_lod(c, ic_out(c, 0, 0), NULL, true);
  uint64_t *o = lod->offsets[0];
  o[0] = 0;
  for (size_t k = 0; k < ns; k++) {
    const int64_t b = ((const int64_t *)off->data)[k], l = ((const int64_t *)len->data)[k];
    if (b < 0 || l < 0 || lo[k] + (uint64_t)b + (uint64_t)l > lo[k + 1]) {
      ic_lod_free(lod);
      return ic_kfail(c, IC_ERR_SHAPE,
                      "slice %zu (Offset %lld, Length %lld) is not inside sequence %zu of X '%s' "
                      "(%llu rows)", k, (long long)b, (long long)l, k, ic_in_name(c, IN_X, 0),
                      (unsigned long long)(lo[k + 1] - lo[k]));
    }
    o[k + 1] = o[k] + (uint64_t)l;
  }
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)x->ndim);
  d[0] = (int64_t)o[ns];
  ic_tensor *out = ic_out(c, 0, 0);
  ic_tensor_set_meta(out, x->dtype, x->ndim, d);
  return ic_kset_lod(c, out, lod, true);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *off = ic_in(c, IN_OFFSET, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  size_t ns;
  const uint64_t *lo = ic_kseq(c, IN_X, 0, 0, &ns);
  if (!lo) return c->err->code;
  const uint64_t *o = out->lod->offsets[0];
  const size_t rb = x->dims[0] ? (size_t)(ic_tensor_numel_(x) / x->dims[0]) * ic_dtype_size(x->dtype)
                               : 0;
  for (size_t k = 0; k < ns; k++) {
    const uint64_t from = lo[k] + (uint64_t)((const int64_t *)off->data)[k];
    if (o[k + 1] > o[k]) {
      memcpy((char *)out->data + o[k] * rb, (const char *)x->data + from * rb,
             (o[k + 1] - o[k]) * rb);
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Offset", IC_SLOT_VALUE}, {"Length", IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_sequence_slice = {
    .name = "sequence_slice", .n_inputs = 3, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run, .flags = IC_OP_LOD,
};
