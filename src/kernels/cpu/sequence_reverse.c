/* sequence_reverse: Y = X with the rows of each sequence in reverse order; X has exactly one
 * LoD level, which Y keeps (paddle/fluid/operators/sequence_ops/sequence_reverse_op.h). Rows
 * past the last sequence are copied as they are (Paddle leaves them unwritten). Any dtype. */
#include <string.h>

#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim < 1) return ic_kfail_in(c, 0, 0, "expected rank >= 1");
  size_t ns;
  const uint64_t *off = ic_kseq(c, 0, 0, 0, &ns);
  if (!off) return c->err->code;
  if (x->lod->n_levels != 1) {
    return ic_kfail_in(c, 0, 0, "has %zu LoD levels, expected 1", x->lod->n_levels);
  }
  if (off[ns] > (uint64_t)x->dims[0]) {
    return ic_kfail_in(c, 0, 0, "has a LoD of %llu rows but holds %lld",
                       (unsigned long long)off[ns], (long long)x->dims[0]);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  size_t ns;
  const uint64_t *off = ic_kseq(c, 0, 0, 0, &ns);
  if (!off) return c->err->code;
  const int64_t rows = x->dims[0];
  const size_t rb = rows ? (size_t)(ic_tensor_numel_(x) / rows) * ic_dtype_size(x->dtype) : 0;
  const char *src = x->data;
  char *dst = y->data;
  if (rows) memcpy(dst, src, (size_t)rows * rb);
  for (size_t s = 0; s < ns; s++) {
    for (uint64_t p = off[s]; p < off[s + 1]; p++) {
      memcpy(dst + p * rb, src + (off[s + 1] - 1 - (p - off[s])) * rb, rb);
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Y", 0}};

const ic_opdef ic_op_sequence_reverse = {
    .name = "sequence_reverse", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run,
};
