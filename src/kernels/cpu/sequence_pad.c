/* sequence_pad: the sequences of X (last LoD level) as a padded batch (Paddle's
 * sequence_pad_op.h; gone from Paddle 3, kept for programs exported before). X is
 * [T, ...step]; Out is [sequences, padded_length, ...step] and Length [sequences] (int64) the
 * sequence lengths. padded_length -1 means the longest sequence; otherwise it must be at
 * least that long. Positions past a sequence's end hold PadValue: one value, or one step
 * ([...step] elements). Out has no LoD. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_PAD };
enum { OUT_OUT, OUT_LENGTH };

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
  const ic_tensor *x = ic_in(c, IN_X, 0), *p = ic_in(c, IN_PAD, 0);
  if (x->ndim < 1 || x->ndim >= IC_MAX_RANK) return ic_kfail_in(c, IN_X, 0, "expected rank 1 to %d", IC_MAX_RANK - 1);
  size_t ns;
  const uint64_t *off = ic_kseq(c, IN_X, 0, 0, &ns);
  if (!off) return c->err->code;
  int64_t step = 1, longest = 0;
  for (int i = 1; i < x->ndim; i++) step *= x->dims[i];
  for (size_t k = 0; k < ns; k++) {
    int64_t len = (int64_t)(off[k + 1] - off[k]);
    longest = len > longest ? len : longest;
  }
  if (p->dtype != x->dtype || (ic_tensor_numel_(p) != 1 && ic_tensor_numel_(p) != step)) {
    return ic_kfail_in(c, IN_PAD, 0, "expected %s with 1 or %lld elements (one step of X)",
                       ic_dtype_name(x->dtype), (long long)step);
  }
  int64_t L = a->padded_length;
  if (L == -1) L = longest;
  if (L < longest) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "attribute padded_length is %lld, expected -1 or at "
                    "least %lld (the longest sequence of X '%s')", (long long)a->padded_length,
                    (long long)longest, ic_in_name(c, IN_X, 0));
  }
  int64_t d[IC_MAX_RANK];
  d[0] = (int64_t)ns;
  d[1] = L;
  for (int i = 1; i < x->ndim; i++) d[i + 1] = x->dims[i];
  ic_tensor *out = ic_out(c, OUT_OUT, 0), *len = ic_out(c, OUT_LENGTH, 0);
  ic_tensor_set_meta(out, x->dtype, x->ndim + 1, d);
  ic_tensor_take_lod(out, NULL);
  ic_tensor_set_meta(len, IC_INT64, 1, d);
  ic_tensor_take_lod(len, NULL);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *p = ic_in(c, IN_PAD, 0);
  ic_tensor *out = ic_out(c, OUT_OUT, 0), *len = ic_out(c, OUT_LENGTH, 0);
  const ic_lod *l = x->lod;
  const uint64_t *off = l->offsets[l->n_levels - 1];
  const size_t ns = l->lens[l->n_levels - 1] - 1, es = ic_dtype_size(x->dtype);
  const int64_t L = out->dims[1];
  int64_t step = 1;
  for (int i = 1; i < x->ndim; i++) step *= x->dims[i];
  const size_t row = (size_t)step * es;
  const bool one = ic_tensor_numel_(p) == 1;
  for (size_t k = 0; k < ns; k++) {
    const uint64_t n = off[k + 1] - off[k];
    ((int64_t *)len->data)[k] = (int64_t)n;
    char *dst = (char *)out->data + k * (size_t)L * row;
    memcpy(dst, (const char *)x->data + off[k] * row, n * row);
    for (int64_t r = (int64_t)n; r < L; r++) {
      char *d = dst + (size_t)r * row;
      if (!one) {
        memcpy(d, p->data, row);
        continue;
      }
      for (int64_t e = 0; e < step; e++) memcpy(d + (size_t)e * es, p->data, es);
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"PadValue", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"Length", 0}};

const ic_opdef ic_op_sequence_pad = {
    .name = "sequence_pad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(pad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
