/* lod_reset: Out = X's data with a new LoD (Paddle's lod_reset_op.h). The new LoD is Y's
 * whole LoD when input Y has one; otherwise one level of offsets: Y's values (int32) when Y is
 * given, else the attribute target_lod. That level must have at least 2 offsets, start at 0,
 * never decrease and end at X's row count. With append, Out's LoD is X's levels followed by
 * the new one; otherwise the new level alone. Out shares X's buffer. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_Y };

typedef struct lodreset_attrs {
  const int64_t *target;
  size_t n_target;
  bool append;
} lodreset_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lodreset_attrs *a = attrs;
  ic_ar_ints(r, "target_lod", false, &a->target, &a->n_target);
  a->append = ic_ar_bool(r, "append", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const lodreset_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  ic_tensor_set_meta(out, x->dtype, x->ndim, x->dims);
  if (y && y->lod) return ic_kset_lod(c, out, ic_lod_clone(y->lod), true);
  size_t n = a->n_target;
  if (y) {
    if (ic_kcheck_dtype(c, IN_Y, 0, IC_DT(IC_INT32))) return c->err->code;
    n = (size_t)ic_tensor_numel_(y);
  }
  const int64_t rows = x->ndim ? x->dims[0] : 1;
  size_t old = a->append && x->lod ? x->lod->n_levels : 0;
  size_t lens[IC_MAX_RANK + 8];
  if (old + 1 > sizeof lens / sizeof lens[0]) {
    return ic_kfail_in(c, IN_X, 0, "has %zu LoD levels, too many to append to", old);
  }
  for (size_t l = 0; l < old; l++) lens[l] = x->lod->lens[l];
  lens[old] = n;
  ic_lod *lod = ic_lod_new(old + 1, lens);
  if (!lod) return ic_kset_lod(c, out, NULL, true);
  for (size_t l = 0; l < old; l++) memcpy(lod->offsets[l], x->lod->offsets[l], lens[l] * sizeof(uint64_t));
  uint64_t *lv = lod->offsets[old];
  bool ok = n >= 2;
  for (size_t k = 0; k < n; k++) {
    int64_t v = y ? ((const int32_t *)y->data)[k] : a->target[k];
    ok &= v >= 0 && (k == 0 ? v == 0 : v >= (int64_t)lv[k - 1]);
    lv[k] = v < 0 ? 0 : (uint64_t)v;
  }
  ok &= n >= 2 && lv[n - 1] == (uint64_t)rows;
  if (!ok) {
    char s[256];
    ic_lod tmp = {.n_levels = 1, .lens = &n, .offsets = &lv};
    ic_lod_str(&tmp, s, sizeof s);
    ic_lod_free(lod);
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                    "the new LoD level %s (from %s) must have at least 2 offsets, start at 0, "
                    "never decrease and end at %lld, the rows of input X '%s'",
                    s, y ? "input Y" : "attribute target_lod", (long long)rows, ic_in_name(c, IN_X, 0));
  }
  return ic_kset_lod(c, out, lod, true);
}

static ic_status run(ic_kctx *c) {
  ic_tensor_share(ic_out(c, 0, 0), ic_in(c, IN_X, 0)); /* buffer and meta; the LoD stays */
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_SHARE}};

const ic_opdef ic_op_lod_reset = {
    .name = "lod_reset",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(lodreset_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
