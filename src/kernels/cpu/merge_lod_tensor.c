/* merge_lod_tensor: fluid IfElse's merge, the inverse of split_lod_tensor
 * (paddle/fluid/operators/merge_lod_tensor_op.cc). For each condition i of Mask (bool [N, 1])
 * in order, the next sequence of InTrue (Mask true) or InFalse (false) is appended to Out:
 * its rows, and its lengths at every LoD level of that input (a sequence of a LoD-less input
 * is one row). Levels 0 .. level - 1 of X's LoD are then put above Out's own; X gives nothing
 * else (no data read). Out has InTrue + InFalse rows (zeros where no sequence landed) and
 * the trailing dims and dtype of InTrue, or of InFalse when InTrue holds no data (its branch
 * did not run); at least one of them must hold rows.
 *
 * As Paddle does, an input's sequence of no rows is appended to the LoD without moving on to
 * that input's next sequence (the next condition for it reads the same one again); inputs
 * whose LoD levels differ cannot be merged. */
#include "kernels/cpu/lodsplit.h"

enum { IN_X, IN_MASK, IN_TRUE, IN_FALSE };

ic_status ic_merge_lod_parse(ic_attr_reader *r, void *attrs) {
  ic_merge_lod_attrs *a = attrs;
  a->level = ic_ar_int(r, "level", 0);
  if (!r->st && a->level < 0) {
    return ic_ar_fail(r, "level", "is %lld, expected >= 0", (long long)a->level);
  }
  return r->st;
}

/* Whether the branch's tensor holds data (a tensor of no elements counts: a branch of no
 * rows). */
static bool has(const ic_tensor *t) { return t && (t->data || ic_tensor_numel_(t) == 0); }

static int64_t rows_of(const ic_tensor *t) { return has(t) && t->ndim ? t->dims[0] : 0; }

/* Walk the mask: Out's LoD into b (when given), rows copied into out (when given). */
static ic_status walk(ic_kctx *c, ic_lodbuild *b, char *out, int64_t out_rows, size_t row) {
  const ic_tensor *m = ic_in(c, IN_MASK, 0);
  const uint8_t *mv = m->data;
  uint64_t idx[2] = {0, 0};
  int64_t at = 0;
  ic_lodbuild tmp = {0};
  for (int64_t i = 0; i < m->dims[0]; i++) {
    const size_t s = mv[i] ? IN_TRUE : IN_FALSE;
    const ic_tensor *in = ic_in(c, s, 0);
    uint64_t *k = &idx[s == IN_TRUE ? 0 : 1];
    if (!has(in)) {
      ic_lodbuild_free(&tmp);
      return ic_kfail_in(c, s, 0, "holds no data (its branch did not run), yet condition %lld "
                         "of Mask '%s' selects it", (long long)i, ic_in_name(c, IN_MASK, 0));
    }
    uint64_t rb, re;
    const int e = ic_lodsplit_sub(in->lod, 0, *k, *k + 1, b ? b : &tmp, &rb, &re);
    if (e == 3) {
      ic_lodbuild_free(&tmp);
      return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory for a LoD");
    }
    if (e == 2) {
      ic_lodbuild_free(&tmp);
      return ic_kfail_in(c, s, 0, "has %zu LoD level(s), unlike the other input's sequences "
                         "merged before it", in->lod ? in->lod->n_levels : 0);
    }
    if (e || re > (uint64_t)rows_of(in) || rb > re) {
      char ls[200];
      ic_lodbuild_free(&tmp);
      return ic_kfail_in(c, s, 0, "has no sequence %llu for condition %lld of Mask '%s' (LoD "
                         "%s, %lld rows)", (unsigned long long)*k, (long long)i,
                         ic_in_name(c, IN_MASK, 0), ic_lod_str(in->lod, ls, sizeof ls),
                         (long long)rows_of(in));
    }
    if (re == rb) continue; /* Paddle's quirk: the same sequence stays next */
    if (at + (int64_t)(re - rb) > out_rows) {
      ic_lodbuild_free(&tmp);
      return ic_kfail_in(c, IN_MASK, 0, "selects more rows than InTrue and InFalse hold "
                         "together (%lld)", (long long)out_rows);
    }
    if (out) memcpy(out + (size_t)at * row, (const char *)in->data + rb * row, (re - rb) * row);
    at += (int64_t)(re - rb);
    (*k)++;
  }
  ic_lodbuild_free(&tmp);
  return IC_OK;
}

/* The tensor giving Out's dtype and trailing dims, the row count and the bytes of a row. */
static ic_status shape(ic_kctx *c, const ic_tensor **ref, int64_t *rows, size_t *row) {
  const ic_tensor *t = ic_in(c, IN_TRUE, 0), *f = ic_in(c, IN_FALSE, 0);
  if (!has(t) && !has(f)) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "inputs InTrue '%s' and InFalse '%s' both hold "
                    "no data: neither branch ran", ic_in_name(c, IN_TRUE, 0),
                    ic_in_name(c, IN_FALSE, 0));
  }
  *ref = has(t) ? t : f;
  if ((*ref)->ndim < 1) {
    return ic_kfail_in(c, has(t) ? IN_TRUE : IN_FALSE, 0, "expected rank >= 1 (rows)");
  }
  if (has(t) && has(f)) {
    bool same = t->dtype == f->dtype && t->ndim == f->ndim;
    for (int d = 1; same && d < t->ndim; d++) same = t->dims[d] == f->dims[d];
    if (!same) {
      char b1[128], b2[128];
      return ic_kfail_in(c, IN_FALSE, 0, "expected InTrue's dtype and trailing dims (%s%s), got "
                         "%s%s", ic_dtype_name(t->dtype), ic_dims_str(t->ndim, t->dims, b1, sizeof b1),
                         ic_dtype_name(f->dtype), ic_dims_str(f->ndim, f->dims, b2, sizeof b2));
    }
  }
  int64_t inner = 1;
  for (int d = 1; d < (*ref)->ndim; d++) inner *= (*ref)->dims[d];
  *rows = rows_of(t) + rows_of(f);
  *row = (size_t)inner * ic_dtype_size((*ref)->dtype);
  return IC_OK;
}

ic_status ic_merge_lod_infer(ic_kctx *c) {
  const ic_merge_lod_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_status st = ic_lodsplit_mask(c, IN_MASK);
  const ic_tensor *ref;
  int64_t rows;
  size_t row;
  if (st || (st = shape(c, &ref, &rows, &row))) return st;
  const size_t xl = x->lod ? x->lod->n_levels : 0;
  if ((size_t)a->level > xl) {
    return ic_kfail_in(c, IN_X, 0, "has %zu LoD level(s), fewer than attribute level %lld",
                       xl, (long long)a->level);
  }
  ic_lodbuild b = {0};
  if ((st = walk(c, &b, NULL, rows, row))) {
    ic_lodbuild_free(&b);
    return st;
  }
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t d[IC_MAX_RANK];
  memcpy(d, ref->dims, sizeof(int64_t) * (size_t)ref->ndim);
  d[0] = rows;
  ic_tensor_set_meta(o, ref->dtype, ref->ndim, d);
  bool oom;
  ic_lod *lod = ic_lodbuild_take(&b, x->lod, (size_t)a->level, &oom);
  ic_lodbuild_free(&b);
  return ic_kset_lod(c, o, lod, oom);
}

ic_status ic_merge_lod_run(ic_kctx *c) {
  const ic_tensor *ref;
  int64_t rows;
  size_t row;
  ic_status st = shape(c, &ref, &rows, &row);
  if (st) return st;
  ic_tensor *o = ic_out(c, 0, 0);
  if (rows) memset(o->data, 0, (size_t)rows * row);
  return walk(c, NULL, o->data, rows, row);
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER},
                                    {"Mask", IC_SLOT_VALUE},
                                    {"InTrue", IC_SLOT_MAYBE_EMPTY},
                                    {"InFalse", IC_SLOT_MAYBE_EMPTY}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_merge_lod_tensor = {
    .name = "merge_lod_tensor",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_merge_lod_attrs), .parse = ic_merge_lod_parse,
    .infer = ic_merge_lod_infer, .cpu = ic_merge_lod_run,
    .flags = IC_OP_LOD,
};
