/* sequence_unpad: a padded batch back to LoD sequences (Paddle's sequence_unpad_op.h; gone
 * from Paddle 3, kept for programs exported before). X is [B, L, ...step], Length [B]
 * (int64, or int32) each sequence's valid prefix (0 to L); Out is [sum(Length), ...step]
 * ([sum(Length), 1] for X [B, L], as Paddle's kernel sets it) with one LoD level of the
 * running sums. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_LENGTH };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *len = ic_in(c, IN_LENGTH, 0);
  if (x->ndim < 2) return ic_kfail_in(c, IN_X, 0, "expected rank >= 2 [batch, steps, ...]");
  if (ic_kcheck_dtype(c, IN_LENGTH, 0, IC_DT_INT)) return c->err->code;
  if (ic_tensor_numel_(len) != x->dims[0]) {
    return ic_kfail_in(c, IN_LENGTH, 0, "expected %lld lengths (X's batch)", (long long)x->dims[0]);
  }
  size_t n = (size_t)x->dims[0] + 1;
  ic_lod *lod = ic_lod_new(1, &n);
  if (!lod) return ic_kset_lod(c, ic_out(c, 0, 0), NULL, true);
  uint64_t *o = lod->offsets[0];
  o[0] = 0;
  for (int64_t b = 0; b < x->dims[0]; b++) {
    int64_t v = ic_read_i64(len, b);
    if (v < 0 || v > x->dims[1]) {
      ic_lod_free(lod);
      return ic_kfail_in(c, IN_LENGTH, 0, "has %lld at index %lld, expected 0 to %lld (X's steps)",
                         (long long)v, (long long)b, (long long)x->dims[1]);
    }
    o[b + 1] = o[b] + (uint64_t)v;
  }
  int64_t d[IC_MAX_RANK];
  d[0] = (int64_t)o[n - 1];
  for (int i = 2; i < x->ndim; i++) d[i - 1] = x->dims[i];
  d[1] = x->ndim == 2 ? 1 : d[1]; /* Paddle: [B, L] unpads to [sum, 1] */
  ic_tensor *out = ic_out(c, 0, 0);
  ic_tensor_set_meta(out, x->dtype, x->ndim == 2 ? 2 : x->ndim - 1, d);
  return ic_kset_lod(c, out, lod, true);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  size_t row = ic_dtype_size(x->dtype);
  for (int i = 2; i < x->ndim; i++) row *= (size_t)x->dims[i];
  const uint64_t *o = out->lod->offsets[0];
  for (int64_t b = 0; b < x->dims[0]; b++) {
    memcpy((char *)out->data + o[b] * row, (const char *)x->data + (size_t)(b * x->dims[1]) * row,
           (o[b + 1] - o[b]) * row);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Length", IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_sequence_unpad = {
    .name = "sequence_unpad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
