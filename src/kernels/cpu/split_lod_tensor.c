/* split_lod_tensor: fluid IfElse's split (paddle/fluid/operators/split_lod_tensor_op.cc).
 * Mask (bool [N, 1]) picks, for each of the first N sequences of X's LoD level `level`
 * (default 0), OutTrue or OutFalse; each output holds its sequences' rows in order, with a
 * LoD of X's levels from `level` down giving their lengths (levels above `level` dropped;
 * no LoD when nothing was picked). When X has no LoD level at or below `level`, the
 * sequences are X's rows and the outputs carry no LoD. Outputs have X's dtype and trailing
 * dims. N may be below the number of sequences (the rest go nowhere); beyond it is refused,
 * as Paddle refuses it. */
#include "kernels/cpu/lodsplit.h"

typedef struct split_attrs {
  int64_t level;
} split_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  split_attrs *a = attrs;
  a->level = ic_ar_int(r, "level", 0);
  if (!r->st && a->level < 0) {
    return ic_ar_fail(r, "level", "is %lld, expected >= 0", (long long)a->level);
  }
  return r->st;
}

enum { IN_X, IN_MASK };

/* Walk the mask for branch t (0 false, 1 true): rows and, when b is given, the LoD. When copy
 * is given, copy the rows there. */
static ic_status walk(ic_kctx *c, int t, ic_lodbuild *b, int64_t *rows, char *copy) {
  const split_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *m = ic_in(c, IN_MASK, 0);
  const uint8_t *mv = m->data;
  const int64_t n = m->dims[0], xr = x->dims[0];
  const size_t row = xr ? (size_t)(ic_tensor_numel_(x) / xr) * ic_dtype_size(x->dtype) : 0;
  ic_lodbuild tmp = {0};
  *rows = 0;
  for (int64_t i = 0; i < n; i++) {
    if ((mv[i] != 0) != (t != 0)) continue;
    uint64_t rb, re;
    const int e = ic_lodsplit_sub(x->lod, (size_t)a->level, (uint64_t)i, (uint64_t)i + 1,
                                  b ? b : &tmp, &rb, &re);
    if (e == 3) {
      ic_lodbuild_free(&tmp);
      return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory for a LoD");
    }
    if (e || re > (uint64_t)xr || rb > re) {
      char s[200];
      ic_lodbuild_free(&tmp);
      return ic_kfail_in(c, IN_MASK, 0, "has %lld conditions, more than the sequences of input "
                         "X '%s' at LoD level %lld (LoD %s, %lld rows)", (long long)n,
                         ic_in_name(c, IN_X, 0), (long long)a->level,
                         ic_lod_str(x->lod, s, sizeof s), (long long)xr);
    }
    if (copy && re > rb) {
      memcpy(copy + (size_t)*rows * row, (const char *)x->data + (size_t)rb * row,
             (size_t)(re - rb) * row);
    }
    *rows += (int64_t)(re - rb);
  }
  ic_lodbuild_free(&tmp);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_status st = ic_lodsplit_mask(c, IN_MASK);
  if (st) return st;
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1 (rows)");
  char why[160], s[200];
  if (x->lod && !ic_lod_valid(x->lod, x->dims[0], why, sizeof why)) {
    return ic_kfail_in(c, IN_X, 0, "has an invalid LoD %s: %s", ic_lod_str(x->lod, s, sizeof s),
                       why);
  }
  for (int t = 1; t >= 0; t--) {
    ic_lodbuild b = {0};
    int64_t rows;
    if ((st = walk(c, t, &b, &rows, NULL))) {
      ic_lodbuild_free(&b);
      return st;
    }
    ic_tensor *o = ic_out(c, t ? 0 : 1, 0);
    int64_t d[IC_MAX_RANK];
    memcpy(d, x->dims, sizeof(int64_t) * (size_t)x->ndim);
    d[0] = rows;
    ic_tensor_set_meta(o, x->dtype, x->ndim, d);
    bool oom;
    ic_lod *lod = ic_lodbuild_take(&b, NULL, 0, &oom);
    ic_lodbuild_free(&b);
    if ((st = ic_kset_lod(c, o, lod, oom))) return st;
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  for (int t = 1; t >= 0; t--) {
    int64_t rows;
    ic_status st = walk(c, t, NULL, &rows, ic_out(c, t ? 0 : 1, 0)->data);
    if (st) return st;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Mask", IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"OutTrue", 0}, {"OutFalse", 0}};

const ic_opdef ic_op_split_lod_tensor = {
    .name = "split_lod_tensor",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(split_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
