/* unique_with_counts (fluid, paddle/fluid/operators/unique_with_counts_op.h with
 * UniqueOpFunctor; Paddle 2.x): X 1-D float32/float64/int32/int64; Out [U] its distinct
 * values in the order they first appear, Index [numel] each element's position in Out,
 * Count [U] how many elements each value has. Index and Count are of `dtype` (a VarType
 * number, int32 or int64; default int64). Equal means == as Paddle's hash map finds keys:
 * -0.0 and 0.0 are one value (Out keeps the first met), each NaN is a value of its own. */
#include "kernels/cpu/fill.h"
#include "kernels/cpu/stdsort.h"
#include "kernels/cpu/uniqueutil.h"

typedef struct uwc_attrs {
  ic_dtype dtype;
} uwc_attrs;

enum { OUT_OUT, OUT_INDEX, OUT_COUNT };
static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[3] = {
    {"Out", IC_SLOT_DYNAMIC}, {"Index", IC_SLOT_DYNAMIC}, {"Count", IC_SLOT_DYNAMIC}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  uwc_attrs *a = attrs;
  ic_fill_parse_dtype(r, "dtype", IC_INT64, IC_DT_INT, &a->dtype);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const uwc_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st) return st;
  if (x->ndim != 1) return ic_kfail_in(c, 0, 0, "expected rank 1 (a vector)");
  ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, 1, (int64_t[]){0});
  ic_tensor_set_meta(ic_out(c, OUT_INDEX, 0), a->dtype, 1, x->dims);
  ic_tensor_set_meta(ic_out(c, OUT_COUNT, 0), a->dtype, 1, (int64_t[]){0});
  return IC_OK;
}

/* Ascending, NaNs last, equal values by position. */
static bool before(const void *ctx, int64_t p, int64_t q) {
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

static ic_status run(ic_kctx *c) {
  const uwc_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  if (a->dtype == IC_INT32 && n > INT32_MAX) {
    return ic_kfail_in(c, 0, 0, "has more elements than int32 indices reach: set dtype int64");
  }
  ic_uq_keys k;
  ic_status st = ic_uq_keys_make(c, x, -1, &k);
  if (st) return st;
  ic_buffer *sb = ic_kscratch(c, (size_t)(n ? n : 1) * 4 * sizeof(int64_t));
  if (!sb) {
    ic_buffer_release(k.buf);
    return c->err->code;
  }
  int64_t *order = sb->data, *inv = order + n, *first = inv + n, *cnt = first + n;
  for (int64_t j = 0; j < n; j++) order[j] = j;
  ic_std_sort(order, n, before, &k);
  /* Groups of equal values in sorted order; each group's lowest position is its first
   * element (ties sort by position); number the groups by that position. */
  int64_t G = 0;
  for (int64_t j = 0; j < n; j++) {
    if (j == 0 || !ic_uq_row_equal(&k, first[G - 1], order[j])) first[G++] = order[j];
    inv[order[j]] = G - 1;
  }
  /* new number of each group: its rank by first position; mark first positions */
  for (int64_t j = 0; j < n; j++) order[j] = -1;
  for (int64_t g = 0; g < G; g++) order[first[g]] = g;
  int64_t u = 0;
  for (int64_t j = 0; j < n; j++) {
    if (order[j] >= 0) {
      cnt[order[j]] = u; /* cnt temporarily: group -> new number */
      first[u++] = j;    /* first[new] = position (first[] already read for this group) */
    }
  }
  for (int64_t j = 0; j < n; j++) inv[j] = cnt[inv[j]];
  for (int64_t g = 0; g < G; g++) cnt[g] = 0;
  for (int64_t j = 0; j < n; j++) cnt[inv[j]]++;
  st = ic_kalloc_out(c, OUT_OUT, 0, x->dtype, 1, &G);
  if (!st) ic_uq_gather(x, -1, first, G, ic_out(c, OUT_OUT, 0));
  if (!st) st = ic_uq_write_index(c, OUT_INDEX, a->dtype, inv, n);
  if (!st) st = ic_uq_write_index(c, OUT_COUNT, a->dtype, cnt, G);
  ic_buffer_release(k.buf);
  ic_buffer_release(sb);
  return st;
}

const ic_opdef ic_op_unique_with_counts = {
    .name = "unique_with_counts", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 3,
    .outputs = k_outputs, .attrs_size = sizeof(uwc_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
