/* sequence_unpad_grad: the gradient of sequence_unpad (Paddle's SequenceUnpadGradOpKernel; its
 * grad maker emits X, Out@GRAD -> X@GRAD: no Length, the lengths are Out@GRAD's LoD, the LoD
 * the forward gave Out). X@GRAD is zeros of X's dims [sequences, padded_length, ...] with
 * X@GRAD[k, 0:len_k] = sequence k of Out@GRAD, and X's LoD. Out@GRAD's last LoD level must
 * have one sequence per row of X, none longer than X's second dim, and end at its rows;
 * Out@GRAD is Out's [rows, ...X's dims after the second] ([rows, 1] for X [B, L]). */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  if (x->ndim < 2) return ic_kfail_in(c, IN_X, 0, "expected rank >= 2 [sequences, length, ...]");
  size_t ns;
  const uint64_t *off = ic_kseq(c, IN_DOUT, 0, 0, &ns);
  if (!off) return c->err->code;
  if ((int64_t)ns != x->dims[0]) {
    return ic_kfail_in(c, IN_DOUT, 0, "has %zu sequences in its LoD, expected %lld (the rows of "
                       "X '%s')", ns, (long long)x->dims[0], ic_in_name(c, IN_X, 0));
  }
  for (size_t k = 0; k < ns; k++) {
    if (off[k + 1] - off[k] > (uint64_t)x->dims[1]) {
      return ic_kfail_in(c, IN_DOUT, 0, "has sequence %zu of %llu rows, longer than X '%s' "
                         "(padded to %lld)", k, (unsigned long long)(off[k + 1] - off[k]),
                         ic_in_name(c, IN_X, 0), (long long)x->dims[1]);
    }
  }
  int64_t d[IC_MAX_RANK];
  d[0] = (int64_t)off[ns];
  for (int i = 2; i < x->ndim; i++) d[i - 1] = x->dims[i];
  d[1] = x->ndim == 2 ? 1 : d[1];
  const int gnd = x->ndim == 2 ? 2 : x->ndim - 1;
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, gnd, d)) {
    char s[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s%s (Out: its LoD's rows, X's dims after the "
                       "second)", ic_dtype_name(x->dtype), ic_dims_str(gnd, d, s, sizeof s));
  }
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_tensor_set_meta(dx, x->dtype, x->ndim, x->dims);
  return ic_kset_lod(c, dx, x->lod ? ic_lod_clone(x->lod) : NULL, x->lod != NULL);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  size_t ns;
  const uint64_t *off = ic_kseq(c, IN_DOUT, 0, 0, &ns);
  if (!off) return c->err->code;
  size_t row = ic_dtype_size(x->dtype);
  for (int i = 2; i < x->ndim; i++) row *= (size_t)x->dims[i];
  const size_t L = (size_t)x->dims[1];
  memset(dx->data, 0, (size_t)ic_tensor_numel_(dx) * ic_dtype_size(dx->dtype));
  for (size_t k = 0; k < ns; k++) {
    const size_t n = (size_t)(off[k + 1] - off[k]);
    if (n) memcpy((char *)dx->data + k * L * row, (const char *)g->data + off[k] * row, n * row);
  }
  return IC_OK;
}

/* X's data is never read (only its dims and LoD): it stays alive while the op runs. */
static const ic_slotdef inputs[] = {{"X", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_sequence_unpad_grad = {
    .name = "sequence_unpad_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
