/* searchsorted: for each value of Values, the position in its row of SortedSequence (the
 * last dim; a 1-D SortedSequence serves every value, else its leading dims equal Values') at
 * which it would be inserted: the first element not below it, or with `right` the first
 * element above it. An infinite or NaN value gives the row's length. Out has Values' dims,
 * int64 or with `out_int32` int32. SortedSequence and Values: float32, float64, int32 or
 * int64, each its own, compared as C++ compares the two types
 * (paddle/phi/kernels/impl/searchsorted_kernel_impl.h, SearchsortedInferMeta). */
#include <math.h>

#include "kernels/kernel.h"

typedef struct searchsorted_attrs {
  bool right, out_int32;
} searchsorted_attrs;

static const ic_slotdef k_inputs[2] = {{"SortedSequence", 0}, {"Values", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  searchsorted_attrs *a = attrs;
  a->right = ic_ar_bool(r, "right", false);
  a->out_int32 = ic_ar_bool(r, "out_int32", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const searchsorted_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (!st) st = ic_kcheck_dtype(c, 1, 0, IC_DT_NUM);
  if (st) return st;
  const ic_tensor *s = ic_in(c, 0, 0), *v = ic_in(c, 1, 0);
  if (s->ndim == 0) return ic_kfail_in(c, 0, 0, "expected at least 1 dim");
  if (s->ndim != 1) {
    bool ok = s->ndim == v->ndim;
    for (int i = 0; ok && i < s->ndim - 1; i++) ok = s->dims[i] == v->dims[i];
    if (!ok) {
      return ic_kfail_in(c, 0, 0,
                         "expected 1 dim, or as many dims as Values '%s' with the same dims "
                         "but the last",
                         ic_in_name(c, 1, 0));
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), a->out_int32 ? IC_INT32 : IC_INT64, v->ndim, v->dims);
  return IC_OK;
}

/* How C++ compares the two types: integers as int64, a double on either side in double,
 * else in float. */
typedef enum { CMP_I64, CMP_F64, CMP_F32 } cmp_kind;

static ic_status run(ic_kctx *c) {
  const searchsorted_attrs *a = c->attrs;
  const ic_tensor *s = ic_in(c, 0, 0), *v = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t nv = ic_numel(v->ndim, v->dims), m = s->dims[s->ndim - 1];
  int64_t vrow = v->ndim ? v->dims[v->ndim - 1] : 1;
  bool sint = s->dtype == IC_INT32 || s->dtype == IC_INT64;
  bool vint = v->dtype == IC_INT32 || v->dtype == IC_INT64;
  cmp_kind k = sint && vint ? CMP_I64
               : (s->dtype == IC_FP64 || v->dtype == IC_FP64) ? CMP_F64 : CMP_F32;
  for (int64_t i = 0; i < nv; i++) {
    int64_t base = s->ndim == 1 || vrow == 0 ? 0 : i / vrow * m, pos;
    double vd = ic_read_f64(v, i);
    if (!vint && (isinf(vd) || isnan(vd))) {
      pos = m;
    } else {
      int64_t lo = 0, hi = m, vi = vint ? ic_read_i64(v, i) : 0;
      while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        bool go_right; /* seq[mid] < value (lower bound) or seq[mid] <= value (upper) */
        if (k == CMP_I64) {
          int64_t e = ic_read_i64(s, base + mid);
          go_right = a->right ? e <= vi : e < vi;
        } else if (k == CMP_F64) {
          double e = ic_read_f64(s, base + mid);
          go_right = a->right ? !(vd < e) : e < vd;
        } else {
          float e = sint ? (float)ic_read_i64(s, base + mid) : (float)ic_read_f64(s, base + mid);
          float vf = vint ? (float)vi : (float)vd;
          go_right = a->right ? !(vf < e) : e < vf;
        }
        if (go_right) lo = mid + 1;
        else hi = mid;
      }
      pos = lo;
    }
    if (a->out_int32) ((int32_t *)o->data)[i] = (int32_t)pos;
    else ((int64_t *)o->data)[i] = pos;
  }
  return IC_OK;
}

const ic_opdef ic_op_searchsorted = {
    .name = "searchsorted", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(searchsorted_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
