/* sequence_expand_as: row i of X is repeated as many times as sequence i of Y is long
 * (Paddle's sequence_expand_as_op.h; the op is gone from Paddle 3, programs exported before
 * still hold it). Y must have exactly one LoD level with X's row count of sequences; Out has
 * that level as its LoD and sum(lengths) rows. X's own LoD is ignored. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_Y };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  size_t ns;
  const uint64_t *off = ic_kseq(c, IN_Y, 0, 0, &ns);
  if (!off) return c->err->code;
  if (y->lod->n_levels != 1) {
    return ic_kfail_in(c, IN_Y, 0, "has %zu LoD levels, expected 1", y->lod->n_levels);
  }
  if ((int64_t)ns != x->dims[0]) {
    return ic_kfail_in(c, IN_X, 0, "has %lld rows, expected %zu (the sequences of Y '%s')",
                       (long long)x->dims[0], ns, ic_in_name(c, IN_Y, 0));
  }
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof d);
  d[0] = (int64_t)off[ns];
  ic_tensor_set_meta(out, x->dtype, x->ndim, d);
  return ic_kset_lod(c, out, ic_lod_clone(y->lod), true);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  size_t row = ic_dtype_size(x->dtype);
  for (int i = 1; i < x->ndim; i++) row *= (size_t)x->dims[i];
  const uint64_t *off = y->lod->offsets[0];
  for (int64_t i = 0; i < x->dims[0]; i++) {
    for (uint64_t k = off[i]; k < off[i + 1]; k++) {
      memcpy((char *)out->data + k * row, (const char *)x->data + (size_t)i * row, row);
    }
  }
  return IC_OK;
}

/* Y's data is never read, but its LoD is: it must stay alive while the op runs. */
static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_sequence_expand_as = {
    .name = "sequence_expand_as",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
