/* sequence_expand: repeat X's sequences as Y's LoD says (Paddle's sequence_expand_op.h).
 * ref_level picks a level of Y's LoD (-1: the last); sequence i of X (X's single LoD level,
 * or row i when X has none) is written repeat_i = ref[i + 1] - ref[i] times, in order. X must
 * have as many sequences as that level. Out's LoD (only when X has one) has one level, one
 * sequence per copy. When the level has a single offset, Out is X. */
#include <string.h>

#include "kernels/cpu/sequence_expand.h"

enum { IN_X, IN_Y };

typedef ic_seqexpand_attrs expand_attrs;

ic_status ic_sequence_expand_parse(ic_attr_reader *r, void *attrs) {
  expand_attrs *a = attrs;
  a->ref_level = ic_ar_int(r, "ref_level", -1);
  return r->st;
}

/* X's sequence offsets: its LoD level, or NULL (one row each). */
static const uint64_t *x_offsets(const ic_tensor *x) { return x->lod ? x->lod->offsets[0] : NULL; }

ic_status ic_sequence_expand_refs(ic_kctx *c, const uint64_t **ref, size_t *n) {
  const expand_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  size_t levels = y->lod ? y->lod->n_levels : 0;
  if (!levels) {
    return ic_kfail_in(c, IN_Y, 0, "has no LoD, expected at least 1 level (the repeat counts)");
  }
  char why[160];
  if (!ic_lod_valid(y->lod, y->ndim ? y->dims[0] : 1, why, sizeof why)) {
    return ic_kfail_in(c, IN_Y, 0, "has an invalid LoD: %s", why);
  }
  if (x->lod && !ic_lod_valid(x->lod, x->ndim ? x->dims[0] : 1, why, sizeof why)) {
    return ic_kfail_in(c, IN_X, 0, "has an invalid LoD: %s", why);
  }
  int64_t l = a->ref_level == -1 ? (int64_t)levels - 1 : a->ref_level;
  if (l < 0 || l >= (int64_t)levels) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "attribute ref_level is %lld, expected -1 or 0 to %zu "
                    "(the LoD levels of input Y '%s')", (long long)a->ref_level, levels - 1,
                    ic_in_name(c, IN_Y, 0));
  }
  if (x->lod && x->lod->n_levels != 1) {
    return ic_kfail_in(c, IN_X, 0, "has %zu LoD levels, expected at most 1", x->lod->n_levels);
  }
  *ref = y->lod->offsets[l];
  *n = y->lod->lens[l];
  if (*n <= 1) return IC_OK;
  size_t xs = x->lod ? x->lod->lens[0] - 1 : (size_t)(x->ndim ? x->dims[0] : 1);
  if (xs != *n - 1) {
    return ic_kfail_in(c, IN_X, 0, "has %zu sequences, expected %zu (level %lld of Y '%s')", xs,
                       *n - 1, (long long)l, ic_in_name(c, IN_Y, 0));
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  const uint64_t *ref;
  size_t n;
  if (ic_sequence_expand_refs(c, &ref, &n)) return c->err->code;
  if (n <= 1) {
    ic_tensor_set_meta(out, x->dtype, x->ndim, x->dims);
    return ic_kset_lod(c, out, x->lod ? ic_lod_clone(x->lod) : NULL, !!x->lod);
  }
  const uint64_t *xo = x_offsets(x);
  uint64_t rows = 0, copies = 0;
  for (size_t i = 0; i + 1 < n; i++) {
    uint64_t rep = ref[i + 1] - ref[i], len = xo ? xo[i + 1] - xo[i] : 1;
    rows += rep * len;
    copies += rep;
  }
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof d);
  d[0] = (int64_t)rows;
  ic_tensor_set_meta(out, x->dtype, x->ndim, d);
  if (!xo) return ic_kset_lod(c, out, NULL, false);
  size_t len = (size_t)copies + 1;
  ic_lod *lod = ic_lod_new(1, &len);
  if (lod) {
    uint64_t *o = lod->offsets[0];
    size_t k = 0;
    o[k++] = 0;
    for (size_t i = 0; i + 1 < n; i++) {
      for (uint64_t r = 0; r < ref[i + 1] - ref[i]; r++, k++) o[k] = o[k - 1] + xo[i + 1] - xo[i];
    }
  }
  return ic_kset_lod(c, out, lod, true);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const uint64_t *ref;
  size_t n;
  if (ic_sequence_expand_refs(c, &ref, &n)) return c->err->code;
  size_t row = ic_dtype_size(x->dtype);
  for (int i = 1; i < x->ndim; i++) row *= (size_t)x->dims[i];
  if (n <= 1) {
    memcpy(out->data, x->data, row * (size_t)x->dims[0]);
    return IC_OK;
  }
  const uint64_t *xo = x_offsets(x);
  char *dst = out->data;
  for (size_t i = 0; i + 1 < n; i++) {
    uint64_t b = xo ? xo[i] : i, len = xo ? xo[i + 1] - xo[i] : 1;
    for (uint64_t r = 0; r < ref[i + 1] - ref[i]; r++) {
      memcpy(dst, (const char *)x->data + b * row, len * row);
      dst += len * row;
    }
  }
  return IC_OK;
}

/* Y's data is never read, but its LoD is: it must stay alive while the op runs. */
static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_sequence_expand = {
    .name = "sequence_expand",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(expand_attrs), .parse = ic_sequence_expand_parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
