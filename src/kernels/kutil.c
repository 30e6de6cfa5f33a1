/* Helpers shared by op files. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernels/kernel.h"

ic_status ic_kfail(ic_kctx *c, ic_status code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char msg[IC_ERRMSG_MAX];
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return ic_err_set(c->err, code, "%s", msg);
}

ic_status ic_kfail_in(ic_kctx *c, size_t s, size_t i, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char msg[IC_ERRMSG_MAX / 2], d[128];
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const ic_tensor *t = ic_in(c, s, i);
  return ic_err_set(c->err, IC_ERR_SHAPE, "input %s '%s' is %s, %s", c->def->inputs[s].name,
                    ic_in_name(c, s, i), t ? ic_tensor_describe(t, d, sizeof d) : "absent", msg);
}

ic_status ic_kcheck_dtype(ic_kctx *c, size_t s, size_t i, uint64_t mask) {
  const ic_tensor *t = ic_in(c, s, i);
  if (t && (unsigned)t->dtype < 64 && (mask & IC_DT(t->dtype))) return IC_OK;
  char want[160] = "";
  size_t off = 0;
  for (int d = 0; d < 64 && off < sizeof want; d++) {
    if (!(mask & IC_DT(d)) || !ic_dtype_name(d)) continue;
    int n = snprintf(want + off, sizeof want - off, "%s%s", off ? " or " : "", ic_dtype_name(d));
    if (n > 0) off += (size_t)n;
  }
  return ic_kfail_in(c, s, i, "expected dtype %s", want);
}

int ic_kaxis(ic_kctx *c, int64_t axis, int rank, const char *attr) {
  int64_t lo = rank > 0 ? -rank : -1, hi = rank > 0 ? rank : 1;
  if (axis < lo || axis >= hi) {
    ic_kfail(c, IC_ERR_SHAPE, "attribute '%s' is %lld, expected in [%lld, %lld) for rank %d", attr,
             (long long)axis, (long long)lo, (long long)hi, rank);
    return -1;
  }
  return (int)(axis < 0 ? axis + (rank > 0 ? rank : 1) : axis);
}

ic_buffer *ic_kscratch(ic_kctx *c, size_t bytes) {
  ic_buffer *b = ic_buffer_new(c->env ? c->env->alloc : NULL, bytes);
  if (!b) ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory for %zu bytes of scratch", bytes);
  return b;
}

ic_status ic_kalloc_out(ic_kctx *c, size_t s, size_t i, ic_dtype dtype, int ndim,
                        const int64_t *dims) {
  ic_tensor *t = ic_out(c, s, i);
  if (!t) return IC_OK;
  ic_tensor_set_meta(t, dtype, ndim, dims);
  return ic_tensor_alloc(t, c->env ? c->env->alloc : NULL, c->err);
}

void ic_store_acc(ic_tensor *t, const double *acc) {
  int64_t n = ic_tensor_numel_(t);
  if (t->dtype == IC_FP32) {
    float *p = t->data;
    for (int64_t i = 0; i < n; i++) p[i] = (float)acc[i];
  } else {
    memcpy(t->data, acc, (size_t)n * sizeof(double));
  }
}

double ic_read_f64(const ic_tensor *t, int64_t k) {
  switch (t->dtype) {
    case IC_FP32: return ((const float *)t->data)[k];
    case IC_FP64: return ((const double *)t->data)[k];
    case IC_INT32: return ((const int32_t *)t->data)[k];
    case IC_INT64: return (double)((const int64_t *)t->data)[k];
    case IC_INT16: return ((const int16_t *)t->data)[k];
    case IC_INT8: return ((const int8_t *)t->data)[k];
    case IC_UINT8: return ((const uint8_t *)t->data)[k];
    case IC_BOOL: return ((const uint8_t *)t->data)[k] != 0;
    default: return 0;
  }
}

int64_t ic_read_i64(const ic_tensor *t, int64_t k) {
  switch (t->dtype) {
    case IC_INT64: return ((const int64_t *)t->data)[k];
    case IC_INT32: return ((const int32_t *)t->data)[k];
    case IC_FP32: return (int64_t)((const float *)t->data)[k];
    case IC_FP64: return (int64_t)((const double *)t->data)[k];
    case IC_INT16: return ((const int16_t *)t->data)[k];
    case IC_INT8: return ((const int8_t *)t->data)[k];
    case IC_UINT8: return ((const uint8_t *)t->data)[k];
    case IC_BOOL: return ((const uint8_t *)t->data)[k] != 0;
    default: return 0;
  }
}

ic_status ic_infer_x_with_scalars(ic_kctx *c, size_t first, size_t last) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  for (size_t s = first; s <= last && !st; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (!t) continue;
    if ((st = ic_kcheck_dtype(c, s, 0, IC_DT_NUM))) break;
    if (ic_tensor_numel_(t) != 1) st = ic_kfail_in(c, s, 0, "expected one element");
  }
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

ic_status ic_kset_lod(ic_kctx *c, ic_tensor *t, ic_lod *lod, bool want_lod) {
  if (want_lod && !lod) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory for a LoD");
  ic_tensor_take_lod(t, lod);
  return IC_OK;
}

const uint64_t *ic_kseq(ic_kctx *c, size_t s, size_t i, size_t from_last, size_t *n) {
  const ic_tensor *t = ic_in(c, s, i);
  size_t levels = t && t->lod ? t->lod->n_levels : 0;
  if (from_last >= levels) {
    ic_kfail_in(c, s, i, "with %zu LoD level(s), expected at least %zu (feed it as a LoD tensor: "
                "ic_tensor_set_lod, or icore run --lod)", levels, from_last + 1);
    return NULL;
  }
  /* An op may have set a LoD that does not fit (lod_reset takes Y's as it is): check it all
   * here, once per op, before any kernel indexes rows with it. */
  char why[160], s_lod[200];
  if (!ic_lod_valid(t->lod, t->ndim ? t->dims[0] : 1, why, sizeof why)) {
    ic_kfail_in(c, s, i, "has an invalid LoD %s: %s", ic_lod_str(t->lod, s_lod, sizeof s_lod), why);
    return NULL;
  }
  size_t l = levels - 1 - from_last;
  *n = t->lod->lens[l] - 1;
  return t->lod->offsets[l];
}
