/* unique_consecutive (paddle/phi/kernels/cpu/unique_consecutive_kernel.cc and
 * unique_consecutive_functor.h): runs of equal neighbours collapsed to one. X
 * float32/float64/int32/int64; Index and Counts of `dtype` (a VarType number, int32 or int64;
 * default int64).
 *   - `axis` empty: X flattened; Out [U] the first value of each run, Index [numel]
 *     (return_inverse) each element's run, Counts [U] (return_counts) the runs' lengths.
 *   - axis = [a]: the same over X's slices along a (equal element by element); Out is X
 *     with dim a reduced to the runs, Index [dims[a]]. A negative a counts from the end.
 * Equal means ==: a NaN starts a new run. Outputs not asked for are left [0]. */
#include "kernels/cpu/fill.h"
#include "kernels/cpu/uniqueutil.h"

typedef struct uc_attrs {
  ic_dtype dtype;
  bool ret_inverse, ret_counts;
  bool has_axis;
  int64_t axis;
} uc_attrs;

enum { OUT_OUT, OUT_INDEX, OUT_COUNTS };
static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[3] = {{"Out", IC_SLOT_DYNAMIC},
                                        {"Index", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC},
                                        {"Counts", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  uc_attrs *a = attrs;
  ic_fill_parse_dtype(r, "dtype", IC_INT64, IC_DT_INT, &a->dtype);
  a->ret_inverse = ic_ar_bool(r, "return_inverse", false);
  a->ret_counts = ic_ar_bool(r, "return_counts", false);
  const int64_t *ax = NULL;
  size_t n = 0;
  ic_ar_ints(r, "axis", false, &ax, &n);
  if (n > 1) ic_ar_fail(r, "axis", "holds %zu axes, expected none or one", n);
  a->has_axis = n == 1;
  a->axis = n == 1 ? ax[0] : 0;
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const uc_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st) return st;
  if (a->has_axis && x->ndim == 0) {
    return ic_kfail_in(c, 0, 0, "has no axis for attribute 'axis'");
  }
  if (a->has_axis && ic_kaxis(c, a->axis, x->ndim, "axis") < 0) return c->err->code;
  if (a->has_axis) ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, x->ndim, x->dims);
  else ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, 1, (int64_t[]){0});
  for (size_t s = OUT_INDEX; s <= OUT_COUNTS; s++) {
    if (ic_out(c, s, 0)) ic_tensor_set_meta(ic_out(c, s, 0), a->dtype, 1, (int64_t[]){0});
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const uc_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  const int axis = a->has_axis ? (int)(a->axis < 0 ? a->axis + x->ndim : a->axis) : -1;
  if (a->dtype == IC_INT32 && n > INT32_MAX) {
    return ic_kfail_in(c, 0, 0, "has more elements than int32 indices reach: set dtype int64");
  }
  ic_uq_keys k;
  ic_status st = ic_uq_keys_make(c, x, axis, &k);
  if (st) return st;
  const int64_t R = k.R;
  ic_buffer *sb = ic_kscratch(c, (size_t)(R ? R : 1) * 3 * sizeof(int64_t));
  if (!sb) {
    ic_buffer_release(k.buf);
    return c->err->code;
  }
  int64_t *inv = sb->data, *first = inv + R, *cnt = first + R, G = 0;
  for (int64_t r = 0; r < R; r++) {
    if (r == 0 || !ic_uq_row_equal(&k, first[G - 1], r)) {
      first[G] = r;
      cnt[G++] = 0;
    }
    inv[r] = G - 1;
    cnt[G - 1]++;
  }
  if (axis >= 0) {
    int64_t d[IC_MAX_RANK];
    memcpy(d, x->dims, sizeof(int64_t) * (size_t)x->ndim);
    d[axis] = G;
    st = ic_kalloc_out(c, OUT_OUT, 0, x->dtype, x->ndim, d);
  } else {
    st = ic_kalloc_out(c, OUT_OUT, 0, x->dtype, 1, &G);
  }
  if (!st) {
    ic_uq_gather(x, axis, first, G, ic_out(c, OUT_OUT, 0));
    st = ic_kset_lod(c, ic_out(c, OUT_OUT, 0), NULL, false);
  }
  if (!st) st = ic_uq_write_index(c, OUT_INDEX, a->dtype, inv, a->ret_inverse ? R : 0);
  if (!st) st = ic_uq_write_index(c, OUT_COUNTS, a->dtype, cnt, a->ret_counts ? G : 0);
  ic_buffer_release(k.buf);
  ic_buffer_release(sb);
  return st;
}

const ic_opdef ic_op_unique_consecutive = {
    .name = "unique_consecutive", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 3,
    .outputs = k_outputs, .attrs_size = sizeof(uc_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_LOD, /* Out has no LoD */
};
