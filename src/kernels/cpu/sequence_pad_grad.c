/* sequence_pad_grad: the gradient of sequence_pad (Paddle's SequencePadGradOpKernel; its grad
 * maker emits X, Out@GRAD -> X@GRAD, with padded_length). Sequence k of X@GRAD is the first
 * len_k steps of Out@GRAD[k]; the padded positions get no gradient (PadValue has none in
 * Paddle). X's sequences are those of its last LoD level, as in the forward; Out@GRAD is
 * [sequences, padded_length (the longest sequence when -1), ...X's dims after the first].
 * X@GRAD has X's dims and LoD. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_DOUT };

typedef struct pad_attrs {
  int64_t padded_length;
} pad_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  pad_attrs *a = attrs;
  a->padded_length = ic_ar_int(r, "padded_length", -1);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const pad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  if (x->ndim < 1 || x->ndim >= IC_MAX_RANK) {
    return ic_kfail_in(c, IN_X, 0, "expected rank 1 to %d", IC_MAX_RANK - 1);
  }
  size_t ns;
  const uint64_t *off = ic_kseq(c, IN_X, 0, 0, &ns);
  if (!off) return c->err->code;
  if (off[ns] != (uint64_t)x->dims[0]) {
    return ic_kfail_in(c, IN_X, 0, "has a LoD that does not end at its %lld rows",
                       (long long)x->dims[0]);
  }
  int64_t longest = 0;
  for (size_t k = 0; k < ns; k++) {
    const int64_t len = (int64_t)(off[k + 1] - off[k]);
    longest = len > longest ? len : longest;
  }
  const int64_t L = a->padded_length == -1 ? longest : a->padded_length;
  if (L < longest) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "attribute padded_length is %lld, expected -1 or at "
                    "least %lld (the longest sequence of X '%s')", (long long)a->padded_length,
                    (long long)longest, ic_in_name(c, IN_X, 0));
  }
  int64_t d[IC_MAX_RANK];
  d[0] = (int64_t)ns;
  d[1] = L;
  for (int i = 1; i < x->ndim; i++) d[i + 1] = x->dims[i];
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, x->ndim + 1, d)) {
    char s[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s%s (Out: X's %zu sequences padded to %lld)",
                       ic_dtype_name(x->dtype), ic_dims_str(x->ndim + 1, d, s, sizeof s), ns,
                       (long long)L);
  }
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_tensor_set_meta(dx, x->dtype, x->ndim, x->dims);
  return ic_kset_lod(c, dx, ic_lod_clone(x->lod), true);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  size_t ns;
  const uint64_t *off = ic_kseq(c, IN_X, 0, 0, &ns);
  if (!off) return c->err->code;
  size_t row = ic_dtype_size(x->dtype);
  for (int i = 1; i < x->ndim; i++) row *= (size_t)x->dims[i];
  const size_t L = (size_t)g->dims[1];
  for (size_t k = 0; k < ns; k++) {
    const size_t n = (size_t)(off[k + 1] - off[k]);
    if (n) memcpy((char *)dx->data + off[k] * row, (const char *)g->data + k * L * row, n * row);
  }
  return IC_OK;
}

/* X's data is never read, but its LoD is: it stays alive while the op runs. */
static const ic_slotdef inputs[] = {{"X", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_sequence_pad_grad = {
    .name = "sequence_pad_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(pad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
