/* sequence_erase: X int32/int64 [N, 1] (or any shape of N elements) with LoD; every element
 * equal to one of `tokens` is removed. Out [K, 1] holds the rest in order, with X's LoD but
 * its last level recounted (paddle/fluid/operators/sequence_ops/sequence_erase_op.h). The
 * last level must cover all N elements. */
#include <string.h>

#include "kernels/kernel.h"

typedef struct erase_attrs {
  const int64_t *tokens;
  size_t n;
} erase_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  erase_attrs *a = attrs;
  ic_ar_ints(r, "tokens", true, &a->tokens, &a->n);
  return r->st;
}

static bool erased(const erase_attrs *a, int64_t v) {
  /* tokens is a list of int (32-bit) compared with the element's own type */
  for (size_t k = 0; k < a->n; k++) {
    if ((int64_t)(int32_t)a->tokens[k] == v) return true;
  }
  return false;
}

static ic_status infer(ic_kctx *c) {
  const erase_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_INT);
  if (st) return st;
  size_t ns;
  const uint64_t *lo = ic_kseq(c, 0, 0, 0, &ns);
  if (!lo) return c->err->code;
  const int64_t n = ic_tensor_numel_(x);
  if (lo[ns] != (uint64_t)n) {
    return ic_kfail_in(c, 0, 0, "has a last LoD level of %llu elements, expected all %lld",
                       (unsigned long long)lo[ns], (long long)n);
  }
  const ic_lod *in = x->lod;
  ic_lod *lod = ic_lod_clone(in);
  if (!lod) return ic_kset_lod(c, ic_out(c, 0, 0), NULL, true);
  uint64_t *o = lod->offsets[in->n_levels - 1];
  o[0] = 0;
  for (size_t s = 0; s < ns; s++) {
    uint64_t kept = 0;
    for (uint64_t i = lo[s]; i < lo[s + 1]; i++) kept += !erased(a, ic_read_i64(x, (int64_t)i));
    o[s + 1] = o[s] + kept;
  }
  ic_tensor *out = ic_out(c, 0, 0);
  ic_tensor_set_meta(out, x->dtype, 2, (int64_t[]){(int64_t)o[ns], 1});
  return ic_kset_lod(c, out, lod, true);
}

static ic_status run(ic_kctx *c) {
  const erase_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++) {
    const int64_t v = ic_read_i64(x, i);
    if (erased(a, v)) continue;
    if (x->dtype == IC_INT32) ((int32_t *)out->data)[k++] = (int32_t)v;
    else ((int64_t *)out->data)[k++] = v;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_sequence_erase = {
    .name = "sequence_erase", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(erase_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_LOD,
};
