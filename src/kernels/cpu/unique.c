/* unique (paddle/phi/kernels/cpu/unique_kernel.cc, funcs/unique_functor.h, UniqueRawInferMeta).
 * X float32/float64/int32/int64; the index outputs Indices, Index and Counts are of `dtype`
 * (a VarType number, int32 or int64; default int64).
 *   - is_sorted true, `axis` empty: X flattened; Out [U] its distinct values ascending,
 *     Indices [U] (return_index) the position of each one's first occurrence, Index [numel]
 *     (return_inverse) each element's position in Out, Counts [U] (return_counts).
 *   - is_sorted true, axis = [a]: the same over X's slices along a, compared as Paddle does
 *     (lexicographically over the slice with dims 0 and a swapped, ordered by libstdc++'s
 *     std::sort, so that Indices names the slice that sort put first among equal ones); Out
 *     is X with dim a reduced to the distinct slices. A negative a counts from the end
 *     (Paddle itself only takes -1 and crashes on the others).
 *   - is_sorted false (the default, the legacy path): X 0-D or 1-D; Out the distinct values
 *     in the order they first appear and Index each element's position in Out; Indices and
 *     Counts are not computed (and left [0] here).
 * Equal means ==: -0.0 and 0.0 are one value (Out keeps the first met), each NaN is distinct
 * (placed last, in input order: Paddle's order among NaNs depends on memory addresses). As in
 * Paddle, a NaN of the flattened sorted path gets Indices 0 and Counts 0 (Paddle's Index of
 * a NaN element is left unwritten; here it is the NaN's own position in Out).
 * Outputs not asked for are left [0]. */
#include "kernels/cpu/fill.h"
#include "kernels/cpu/stdsort.h"
#include "kernels/cpu/uniqueutil.h"

typedef struct unique_attrs {
  ic_dtype dtype;
  bool ret_index, ret_inverse, ret_counts, sorted;
  bool has_axis;
  int64_t axis;
} unique_attrs;

enum { OUT_OUT, OUT_INDICES, OUT_INDEX, OUT_COUNTS };
static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[4] = {{"Out", IC_SLOT_DYNAMIC},
                                        {"Indices", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC},
                                        {"Index", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC},
                                        {"Counts", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  unique_attrs *a = attrs;
  ic_fill_parse_dtype(r, "dtype", IC_INT64, IC_DT_INT, &a->dtype);
  a->ret_index = ic_ar_bool(r, "return_index", false);
  a->ret_inverse = ic_ar_bool(r, "return_inverse", false);
  a->ret_counts = ic_ar_bool(r, "return_counts", false);
  a->sorted = ic_ar_bool(r, "is_sorted", false);
  const int64_t *ax = NULL;
  size_t n = 0;
  ic_ar_ints(r, "axis", false, &ax, &n);
  if (n > 1) ic_ar_fail(r, "axis", "holds %zu axes, expected none or one", n);
  a->has_axis = n == 1;
  a->axis = n == 1 ? ax[0] : 0;
  return r->st;
}

static void set_index_meta(ic_kctx *c, size_t s, ic_dtype dt) {
  if (ic_out(c, s, 0)) ic_tensor_set_meta(ic_out(c, s, 0), dt, 1, (int64_t[]){0});
}

static ic_status infer(ic_kctx *c) {
  const unique_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st) return st;
  if (!a->sorted) {
    if (x->ndim > 1) {
      return ic_kfail_in(c, 0, 0, "expected 0-D or 1-D with is_sorted false (Paddle's rule)");
    }
  } else if (a->has_axis) {
    if (x->ndim == 0) return ic_kfail_in(c, 0, 0, "has no axis for attribute 'axis'");
    if (ic_kaxis(c, a->axis, x->ndim, "axis") < 0) return c->err->code;
  }
  if (a->sorted && a->has_axis) {
    ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, x->ndim, x->dims);
  } else {
    ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, 1, (int64_t[]){0});
  }
  set_index_meta(c, OUT_INDICES, a->dtype);
  set_index_meta(c, OUT_INDEX, a->dtype);
  set_index_meta(c, OUT_COUNTS, a->dtype);
  return IC_OK;
}

/* Flattened order: ascending, NaNs last, ties (equal values) by position. */
static bool flat_before(const void *ctx, int64_t p, int64_t q) {
  const ic_uq_keys *k = ctx;
  if (k->flt) {
    const double x = k->f[p], y = k->f[q];
    const bool nx = isnan(x), ny = isnan(y);
    if (nx || ny) return nx == ny ? p < q : ny;
    if (x != y) return x < y;
  } else if (k->i[p] != k->i[q]) {
    return k->i[p] < k->i[q];
  }
  return p < q;
}

static bool group_before(const void *ctx, int64_t g, int64_t h) {
  const int64_t *first = ctx;
  return first[g] < first[h];
}

static bool row_before(const void *ctx, int64_t p, int64_t q) {
  return ic_uq_row_less(ctx, p, q);
}

static ic_status alloc_empty(ic_kctx *c, size_t s, ic_dtype dt) {
  return ic_uq_write_index(c, s, dt, NULL, 0);
}

static ic_status run(ic_kctx *c) {
  const unique_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  const bool by_axis = a->sorted && a->has_axis;
  const int axis = by_axis ? (int)(a->axis < 0 ? a->axis + x->ndim : a->axis) : -1;
  if (a->dtype == IC_INT32 && n > INT32_MAX) {
    return ic_kfail_in(c, 0, 0, "has more elements than int32 indices reach: set dtype int64");
  }
  ic_status st = IC_OK;
  if (n == 0) {
    if (by_axis) st = ic_kalloc_out(c, OUT_OUT, 0, x->dtype, x->ndim, x->dims);
    else st = alloc_empty(c, OUT_OUT, x->dtype);
    for (size_t s = OUT_INDICES; !st && s <= OUT_COUNTS; s++) st = alloc_empty(c, s, a->dtype);
    return st ? st : ic_kset_lod(c, ic_out(c, OUT_OUT, 0), NULL, false);
  }
  ic_uq_keys k;
  if ((st = ic_uq_keys_make(c, x, axis, &k))) return st;
  const int64_t R = k.R;
  /* order, group of each row, first row of each group (in `order`), counts, positions */
  ic_buffer *sb = ic_kscratch(c, (size_t)R * 5 * sizeof(int64_t));
  if (!sb) {
    ic_buffer_release(k.buf);
    return c->err->code;
  }
  int64_t *order = sb->data, *inv = order + R, *first = inv + R, *cnt = first + R,
          *tmp = cnt + R;
  for (int64_t r = 0; r < R; r++) order[r] = r;
  ic_std_sort(order, R, by_axis ? row_before : flat_before, &k);
  int64_t G = 0;
  for (int64_t j = 0; j < R; j++) {
    if (j == 0 || !ic_uq_row_equal(&k, first[G - 1], order[j])) {
      first[G] = order[j];
      cnt[G] = 0;
      G++;
    }
    inv[order[j]] = G - 1;
    cnt[G - 1]++;
  }
  int64_t *rows = first;
  if (!a->sorted) {
    /* Renumber the groups in order of first appearance (first[g] is the group's lowest
     * position: ties sort by position). */
    for (int64_t g = 0; g < G; g++) tmp[g] = g;
    ic_std_sort(tmp, G, group_before, first);
    for (int64_t g = 0; g < G; g++) cnt[tmp[g]] = g; /* cnt: the new number of group g */
    for (int64_t r = 0; r < R; r++) inv[r] = cnt[inv[r]];
    for (int64_t g = 0; g < G; g++) tmp[g] = first[tmp[g]];
    rows = tmp;
  }
  if (by_axis) {
    int64_t d[IC_MAX_RANK];
    memcpy(d, x->dims, sizeof(int64_t) * (size_t)x->ndim);
    d[axis] = G;
    st = ic_kalloc_out(c, OUT_OUT, 0, x->dtype, x->ndim, d);
  } else {
    st = ic_kalloc_out(c, OUT_OUT, 0, x->dtype, 1, &G);
  }
  if (!st) {
    ic_uq_gather(x, axis, rows, G, ic_out(c, OUT_OUT, 0));
    st = ic_kset_lod(c, ic_out(c, OUT_OUT, 0), NULL, false);
  }
  if (a->sorted && !by_axis && k.flt) {
    /* Paddle looks a NaN up by value: its first position is never found (0) and it counts
     * no element equal to it (0). */
    for (int64_t g = 0; g < G; g++) {
      if (isnan(k.f[first[g]])) first[g] = cnt[g] = 0;
    }
  }
  const bool want_idx = a->sorted && a->ret_index, want_inv = !a->sorted || a->ret_inverse,
             want_cnt = a->sorted && a->ret_counts;
  if (!st) st = want_idx ? ic_uq_write_index(c, OUT_INDICES, a->dtype, first, G)
                         : alloc_empty(c, OUT_INDICES, a->dtype);
  if (!st) st = want_inv ? ic_uq_write_index(c, OUT_INDEX, a->dtype, inv, R)
                         : alloc_empty(c, OUT_INDEX, a->dtype);
  if (!st) st = want_cnt ? ic_uq_write_index(c, OUT_COUNTS, a->dtype, cnt, G)
                         : alloc_empty(c, OUT_COUNTS, a->dtype);
  ic_buffer_release(k.buf);
  ic_buffer_release(sb);
  return st;
}

const ic_opdef ic_op_unique = {
    .name = "unique", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 4, .outputs = k_outputs,
    .attrs_size = sizeof(unique_attrs), .parse = parse, .infer = infer, .cpu = run,
    .flags = IC_OP_LOD, /* Out has no LoD */
};
