/* kthvalue: along `axis` (default -1) of X, the k-th smallest value (k >= 1, at most the
 * axis's size) into Out and its position into Indices (int64); `keepdim` keeps the axis with
 * size 1, else it goes. A NaN ranks above every number. Equal values: the position that
 * libstdc++'s std::partial_sort (when k * 64 is under the axis's size) or std::nth_element
 * leaves at k - 1, as Paddle's kernel (paddle/phi/kernels/cpu/kthvalue_kernel.cc). A 0-D X
 * takes k 1 and gives itself and 0. float32, float64, int32, int64. */
#include <string.h>

#include "kernels/cpu/shapeops.h"
#include "kernels/cpu/sortutil.h"

typedef struct kthvalue_attrs {
  int64_t k, axis;
  bool keepdim;
} kthvalue_attrs;

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[2] = {{"Out", 0}, {"Indices", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  kthvalue_attrs *a = attrs;
  a->k = ic_ar_int(r, "k", 1);
  a->axis = ic_ar_int(r, "axis", -1);
  a->keepdim = ic_ar_bool(r, "keepdim", false);
  if (r->st == IC_OK && a->k < 1) ic_ar_fail(r, "k", "must be at least 1, got %lld", (long long)a->k);
  return r->st;
}

/* Out and Indices: X's dims without the axis (size 1 under keepdim). Shared with mode. */
ic_status ic_kth_infer(ic_kctx *c, int64_t axis, bool keepdim, int *ax) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t d[IC_MAX_RANK];
  int n = 0;
  if (x->ndim == 0) {
    if (axis < -1 || axis > 0) {
      return ic_kfail_in(c, 0, 0, "expected attribute 'axis' in [-1, 0] for a 0-D input, got %lld",
                         (long long)axis);
    }
    *ax = 0;
  } else {
    *ax = ic_shapeops_axis(c, 0, axis, x->ndim, "attribute 'axis'");
    if (*ax < 0) return IC_ERR_SHAPE;
    for (int i = 0; i < x->ndim; i++) {
      if (i != *ax) d[n++] = x->dims[i];
      else if (keepdim) d[n++] = 1;
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, n, d);
  ic_tensor_set_meta(ic_out(c, 1, 0), IC_INT64, n, d);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const kthvalue_attrs *a = c->attrs;
  int ax;
  ic_status st = ic_kth_infer(c, a->axis, a->keepdim, &ax);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t len = x->ndim == 0 ? 1 : x->dims[ax];
  if (a->k > len) {
    return ic_kfail_in(c, 0, 0, "has %lld values along axis %d, fewer than attribute k (%lld)",
                       (long long)len, ax, (long long)a->k);
  }
  return IC_OK;
}

ic_status ic_kth_run(ic_kctx *c, int64_t axis, ic_kth_pick pick) {
  const ic_tensor *x = ic_in(c, 0, 0);
  const int ax = x->ndim == 0 ? 0 : (int)(axis < 0 ? axis + x->ndim : axis);
  const int64_t n = ic_numel(x->ndim, x->dims);
  if (n == 0) return IC_OK;
  const int64_t len = x->ndim == 0 ? 1 : x->dims[ax];
  const int64_t inner = x->ndim == 0 ? 1 : ic_numel(x->ndim - ax - 1, x->dims + ax + 1);
  const int64_t outer = n / (len * inner);
  ic_buffer *buf = ic_kscratch(c, (size_t)len * sizeof(int64_t));
  if (!buf) return c->err->code;
  int64_t *idx = buf->data, *ip = ic_out(c, 1, 0)->data;
  const size_t es = ic_dtype_size(x->dtype);
  const char *xp = x->data;
  char *op = ic_out(c, 0, 0)->data;
  for (int64_t r = 0; r < outer; r++) {
    for (int64_t i = 0; i < inner; i++) {
      const int64_t base = r * len * inner + i, at = r * inner + i;
      const char *row = xp + (size_t)base * es;
      const int64_t j = pick(c, row, inner, len, idx);
      ip[at] = j;
      memcpy(op + (size_t)at * es, row + (size_t)(j * inner) * es, es);
    }
  }
  ic_buffer_release(buf);
  return IC_OK;
}

/* The k-th smallest of a row, by Paddle's nth_element steps. */
static int64_t pick_kth(const ic_kctx *c, const char *row, int64_t stride, int64_t len,
                        int64_t *idx) {
  const kthvalue_attrs *a = c->attrs;
  ic_std_order_row(ic_in(c, 0, 0)->dtype, row, stride, len, a->k, false, IC_SORT_TOPK_NTH, idx);
  return idx[a->k - 1];
}

static ic_status run(ic_kctx *c) {
  const kthvalue_attrs *a = c->attrs;
  return ic_kth_run(c, a->axis, pick_kth);
}

const ic_opdef ic_op_kthvalue = {
    .name = "kthvalue", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 2, .outputs = k_outputs,
    .attrs_size = sizeof(kthvalue_attrs), .parse = parse, .infer = infer, .cpu = run,
};
