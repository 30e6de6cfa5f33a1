/* The medians of median and nanmedian (medianutil.h): the median of X over `axis` (a list;
 * empty, or X of rank <= 1: over all of X). Out drops the reduced axes (size 1 each under
 * `keepdim`). With `mode` "avg" (default) an even count gives the mean of the two middle
 * values (integers: C++'s truncating division) and MedianIndex holds both middle positions
 * (Out's dims plus a last dim of 2; the same position twice for an odd count); with "min" the
 * lower middle value and its position (MedianIndex shaped as Out). Positions count along the
 * reduced axes flattened in increasing axis order. Equal values: the positions Paddle's top_k
 * (smallest first, sorted) leaves, as libstdc++ orders them (paddle/phi/kernels/cpu/
 * nanmedian_kernel.cc as of 2.6 to 3.0, funcs/nanmedian_utils.h, NanmedianInferMeta).
 * float32, float64, int32, int64.
 *
 * nanmedian leaves NaNs out: a row all NaN gives NaN and -1; every value NaN gives NaN and -1
 * everywhere. median (Paddle 3's pd_op.median) propagates them: a row holding a NaN gives NaN
 * and, as MedianIndex, the position of its first NaN (Paddle 3.3.1 gives that position in
 * "min" mode and leaves the index unwritten in "avg" mode).
 * MedianIndex is optional (save_inference_model drops it) and NOT checked against Paddle:
 * Paddle 3.3.1 cannot run a saved nanmedian, and run as built its MedianIndex picks other
 * positions among equal values and gives [0, 1] for an all-NaN row (its source was not at
 * hand); Out matches Paddle 3.3.1 (tests/data/paddle_oracle/nanmedian_modes, tests/data/pir
 * ops6 for median). */
#include <math.h>
#include <string.h>

#include "kernels/cpu/medianutil.h"
#include "kernels/cpu/sortutil.h"

typedef ic_median_attrs nanmedian_attrs;

const ic_slotdef ic_median_inputs[1] = {{"X", 0}};
/* MedianIndex is optional: save_inference_model drops it from the programs it writes. */
const ic_slotdef ic_median_outputs[2] = {{"Out", 0}, {"MedianIndex", IC_SLOT_OPTIONAL}};

ic_status ic_median_parse(ic_attr_reader *r, void *attrs) {
  nanmedian_attrs *a = attrs;
  ic_ar_ints(r, "axis", false, &a->axis, &a->n_axis);
  a->keepdim = ic_ar_bool(r, "keepdim", true);
  const char *m = ic_ar_str(r, "mode", "avg");
  if (r->st == IC_OK && strcmp(m, "avg") && strcmp(m, "min")) {
    ic_ar_fail(r, "mode", "is '%s', expected 'avg' or 'min'", m);
  }
  a->avg = r->st == IC_OK && !strcmp(m, "avg");
  return r->st;
}

/* Which axes of X are reduced (bit i: axis i). */
static ic_status reduced_axes(ic_kctx *c, unsigned *mask) {
  const nanmedian_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  *mask = 0;
  if (a->n_axis == 0 || x->ndim <= 1) {
    *mask = (1u << x->ndim) - 1;
  }
  for (size_t i = 0; i < a->n_axis; i++) {
    int ax = ic_kaxis(c, a->axis[i], x->ndim, "axis");
    if (ax < 0) return c->err->code;
    if (x->ndim > 1 && (*mask >> ax & 1u)) {
      return ic_kfail(c, IC_ERR_SHAPE, "attribute 'axis' names axis %d twice", ax);
    }
    if (x->ndim > 1) *mask |= 1u << ax;
  }
  return IC_OK;
}

ic_status ic_median_infer(ic_kctx *c) {
  const nanmedian_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st) return st;
  unsigned mask;
  st = reduced_axes(c, &mask);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t d[IC_MAX_RANK + 1], stride = 1;
  int n = 0;
  for (int i = 0; i < x->ndim; i++) {
    if (!(mask >> i & 1u)) d[n++] = x->dims[i];
    else {
      stride *= x->dims[i];
      if (a->keepdim) d[n++] = 1;
    }
  }
  if (stride == 0) return ic_kfail_in(c, 0, 0, "expected no reduced dim of size 0");
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, n, d);
  if (a->avg) d[n++] = 2;
  if (ic_out(c, 1, 0)) ic_tensor_set_meta(ic_out(c, 1, 0), IC_INT64, n, d);
  return IC_OK;
}

static bool is_nan_at(const ic_tensor *x, const char *row, int64_t j) {
  if (x->dtype == IC_FP32) return isnan(((const float *)row)[j]);
  if (x->dtype == IC_FP64) return isnan(((const double *)row)[j]);
  return false;
}

/* Out[i] = the value at position j of the row, or the mean of positions j and k. */
static void put(const ic_tensor *x, void *out, int64_t i, const char *row, int64_t j, int64_t k,
                bool mean) {
  switch (x->dtype) {
    case IC_FP32: {
      const float *r = (const float *)row;
      ((float *)out)[i] = mean ? (r[j] + r[k]) / 2.0f : r[j];
      break;
    }
    case IC_FP64: {
      const double *r = (const double *)row;
      ((double *)out)[i] = mean ? (r[j] + r[k]) / 2.0 : r[j];
      break;
    }
    case IC_INT32: {
      const int32_t *r = (const int32_t *)row;
      ((int32_t *)out)[i] = mean ? (int32_t)((uint32_t)r[j] + (uint32_t)r[k]) / 2 : r[j];
      break;
    }
    default: {
      const int64_t *r = (const int64_t *)row;
      ((int64_t *)out)[i] = mean ? (int64_t)((uint64_t)r[j] + (uint64_t)r[k]) / 2 : r[j];
      break;
    }
  }
}

static void put_nan(const ic_tensor *x, void *out, int64_t i) {
  if (x->dtype == IC_FP32) ((float *)out)[i] = NAN;
  else if (x->dtype == IC_FP64) ((double *)out)[i] = NAN;
  else if (x->dtype == IC_INT32) ((int32_t *)out)[i] = 0;
  else ((int64_t *)out)[i] = 0;
}

ic_status ic_median_run(ic_kctx *c, bool skip_nan) {
  const nanmedian_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  unsigned mask;
  ic_status st = reduced_axes(c, &mask);
  if (st) return st;
  int64_t numel = ic_numel(x->ndim, x->dims);
  if (numel == 0) return IC_OK;
  /* X permuted: kept axes, then reduced axes, each in order; strides of X for that order. */
  int64_t pd[IC_MAX_RANK], ps[IC_MAX_RANK], xs[IC_MAX_RANK], s = 1, stride = 1;
  int np = 0;
  for (int i = x->ndim - 1; i >= 0; i--) {
    xs[i] = s;
    s *= x->dims[i];
  }
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < x->ndim; i++) {
      if ((int)(mask >> i & 1u) != pass) continue;
      pd[np] = x->dims[i];
      ps[np++] = xs[i];
      if (pass) stride *= x->dims[i];
    }
  }
  int64_t pre = numel / stride;
  size_t es = ic_dtype_size(x->dtype);
  ic_buffer *buf =
      ic_kscratch(c, (size_t)numel * es + (size_t)(stride + 3 * pre) * sizeof(int64_t));
  if (!buf) return c->err->code;
  char *tx = buf->data;
  int64_t *idx = (int64_t *)(tx + (size_t)numel * es), *nans = idx + stride;
  {
    int64_t id[IC_MAX_RANK] = {0}, off = 0;
    const char *xp = x->data;
    for (int64_t e = 0; e < numel; e++) {
      memcpy(tx + (size_t)e * es, xp + (size_t)off * es, es);
      for (int k = np - 1; k >= 0; k--) {
        off += ps[k];
        if (++id[k] < pd[k]) break;
        off -= ps[k] * pd[k];
        id[k] = 0;
      }
    }
  }
  int64_t total_nan = 0, max_valid = 0;
  for (int64_t i = 0; i < pre; i++) {
    const char *row = tx + (size_t)(i * stride) * es;
    nans[i] = 0;
    for (int64_t j = 0; j < stride; j++) nans[i] += is_nan_at(x, row, j);
    total_nan += nans[i];
    if (stride - nans[i] > max_valid) max_valid = stride - nans[i];
  }
  void *out = ic_out(c, 0, 0)->data;
  int w = a->avg ? 2 : 1;
  ic_tensor *mt = ic_out(c, 1, 0);
  int64_t *mi = mt ? mt->data : (int64_t *)(nans + pre); /* scratch when absent */
  if (!skip_nan) { /* median: a row holding a NaN gives NaN, its first NaN's position */
    for (int64_t i = 0; i < pre; i++) {
      if (!nans[i]) continue;
      const char *row = tx + (size_t)(i * stride) * es;
      int64_t first = 0;
      while (!is_nan_at(x, row, first)) first++;
      put_nan(x, out, i);
      for (int k = 0; k < w; k++) mi[i * w + k] = first;
    }
  }
  if (skip_nan && total_nan == numel) {
    for (int64_t i = 0; i < pre; i++) {
      put_nan(x, out, i);
      for (int k = 0; k < w; k++) mi[i * w + k] = -1;
    }
    ic_buffer_release(buf);
    return IC_OK;
  }
  bool ignore_nan = skip_nan && total_nan > 0;
  int64_t sort_k = ignore_nan ? max_valid : stride / 2 + 1;
  for (int64_t i = 0; i < pre; i++) {
    if (!skip_nan && nans[i]) continue; /* NaN, written above */
    const char *row = tx + (size_t)(i * stride) * es;
    ic_std_order_row(x->dtype, row, 1, stride, sort_k, false, IC_SORT_TOPK, idx);
    int64_t n = ignore_nan ? (nans[i] > 0 ? stride - nans[i] : sort_k) : stride;
    if (ignore_nan && nans[i] == stride) {
      put(x, out, i, row, idx[0], idx[0], false);
      for (int k = 0; k < w; k++) mi[i * w + k] = -1;
      continue;
    }
    /* the middle position (odd n) or the right one of the two (even n) in sorted order */
    int64_t pos = ignore_nan ? n >> 1 : sort_k - 1;
    int64_t right = idx[pos], left = (n & 1) ? right : (pos > 0 ? idx[pos - 1] : right);
    if (n & 1) {
      put(x, out, i, row, right, right, false);
    } else if (a->avg) {
      put(x, out, i, row, left, right, true);
    } else {
      put(x, out, i, row, left, left, false);
    }
    if (a->avg) {
      mi[2 * i] = left;
      mi[2 * i + 1] = right;
    } else {
      mi[i] = left;
    }
  }
  ic_buffer_release(buf);
  return IC_OK;
}
