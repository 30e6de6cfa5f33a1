/* Tensors: meta, shared storage, copies, and the public tensor API. */
#include "scope/tensor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ic_tensor_init(ic_tensor *t) { memset(t, 0, sizeof *t); t->dtype = IC_FP32; }

void ic_lod_free(ic_lod *lod) {
  if (!lod) return;
  for (size_t i = 0; i < lod->n_levels; i++) free(lod->offsets[i]);
  free(lod->offsets);
  free(lod->lens);
  free(lod);
}

ic_lod *ic_lod_clone(const ic_lod *lod) {
  if (!lod) return NULL;
  ic_lod *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->lens = calloc(lod->n_levels ? lod->n_levels : 1, sizeof *c->lens);
  c->offsets = calloc(lod->n_levels ? lod->n_levels : 1, sizeof *c->offsets);
  if (!c->lens || !c->offsets) goto fail;
  for (size_t i = 0; i < lod->n_levels; i++) {
    c->offsets[i] = malloc(lod->lens[i] ? lod->lens[i] * sizeof(uint64_t) : 1);
    if (!c->offsets[i]) goto fail;
    memcpy(c->offsets[i], lod->offsets[i], lod->lens[i] * sizeof(uint64_t));
    c->lens[i] = lod->lens[i];
    c->n_levels = i + 1;
  }
  return c;
fail:
  ic_lod_free(c);
  return NULL;
}

void ic_tensor_reset(ic_tensor *t) {
  ic_buffer_release(t->buf);
  t->buf = NULL;
  t->data = NULL;
  ic_lod_free(t->lod);
  t->lod = NULL;
}

void ic_tensor_set_meta(ic_tensor *t, ic_dtype dtype, int ndim, const int64_t *dims) {
  t->dtype = dtype;
  t->layout = IC_LAYOUT_PLAIN;
  t->ndim = ndim;
  for (int i = 0; i < ndim; i++) t->dims[i] = dims[i];
}

const char *ic_layout_name(int layout) {
  switch (layout) {
    case IC_LAYOUT_PLAIN: return "plain";
    case IC_LAYOUT_NCHW8C: return "nChw8c";
    case IC_LAYOUT_NCHW16C: return "nChw16c";
  }
  return "unknown";
}

int64_t ic_numel(int ndim, const int64_t *dims) {
  int64_t n = 1;
  for (int i = 0; i < ndim; i++) {
    if (dims[i] < 0) return -1;
    if (dims[i] && n > INT64_MAX / dims[i]) return -1;
    n *= dims[i];
  }
  return n;
}

ic_status ic_tensor_alloc(ic_tensor *t, ic_allocator *a, ic_err *err) {
  int64_t n = ic_numel(t->ndim, t->dims);
  size_t es = ic_dtype_size(t->dtype);
  char d[128];
  if (n < 0 || es == 0 || (uint64_t)n > SIZE_MAX / es) {
    return ic_err_set(err, IC_ERR_SHAPE, "cannot allocate a tensor of %s",
                      ic_tensor_describe(t, d, sizeof d));
  }
  ic_buffer *b = ic_buffer_new(a, (size_t)n * es);
  if (!b) {
    return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory allocating %s (%zu bytes)",
                      ic_tensor_describe(t, d, sizeof d), (size_t)n * es);
  }
  ic_buffer_release(t->buf);
  t->buf = b;
  t->data = b->data;
  return IC_OK;
}

void ic_tensor_share(ic_tensor *dst, const ic_tensor *src) {
  if (dst == src) return;
  if (src->buf) ic_buffer_retain(src->buf);
  ic_buffer_release(dst->buf);
  dst->buf = src->buf;
  dst->data = src->data;
  ic_tensor_set_meta(dst, src->dtype, src->ndim, src->dims);
  dst->layout = src->layout;
}

ic_status ic_tensor_copy(ic_tensor *dst, const ic_tensor *src, ic_allocator *a, ic_err *err) {
  if (dst == src) return IC_OK;
  ic_tensor tmp;
  ic_tensor_init(&tmp);
  ic_tensor_set_meta(&tmp, src->dtype, src->ndim, src->dims);
  tmp.layout = src->layout;
  ic_status st = ic_tensor_alloc(&tmp, a, err);
  if (st) return st;
  size_t bytes = (size_t)ic_numel(src->ndim, src->dims) * ic_dtype_size(src->dtype);
  if (bytes && src->data) memcpy(tmp.data, src->data, bytes);
  if (src->lod && !(tmp.lod = ic_lod_clone(src->lod))) {
    ic_tensor_reset(&tmp);
    return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory copying LoD");
  }
  ic_tensor_reset(dst);
  *dst = tmp;
  return IC_OK;
}

const char *ic_dims_str(int ndim, const int64_t *dims, char *buf, size_t len) {
  size_t off = 0;
  int n = snprintf(buf, len, "[");
  off = n > 0 ? (size_t)n : 0;
  for (int i = 0; i < ndim && off < len; i++) {
    n = snprintf(buf + off, len - off, "%s%lld", i ? ", " : "", (long long)dims[i]);
    off += n > 0 ? (size_t)n : 0;
  }
  if (off < len) snprintf(buf + off, len - off, "]");
  return buf;
}

const char *ic_tensor_describe(const ic_tensor *t, char *buf, size_t len) {
  char d[96];
  const char *name = ic_dtype_name(t->dtype);
  snprintf(buf, len, "%s%s%s%s", name ? name : "?", ic_dims_str(t->ndim, t->dims, d, sizeof d),
           t->layout ? " in layout " : "", t->layout ? ic_layout_name(t->layout) : "");
  return buf;
}

bool ic_dims_equal(int na, const int64_t *a, int nb, const int64_t *b) {
  if (na != nb) return false;
  for (int i = 0; i < na; i++) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

/* ---- public API ---- */

ic_status ic_tensor_create(ic_dtype dtype, int ndim, const int64_t *dims, ic_tensor **out) {
  if (!out) return IC_ERR_INVALID_ARGUMENT;
  *out = NULL;
  if (ndim < 0 || ndim > IC_MAX_RANK || (ndim && !dims) || ic_dtype_size(dtype) == 0) {
    return IC_ERR_INVALID_ARGUMENT;
  }
  for (int i = 0; i < ndim; i++) {
    if (dims[i] < 0) return IC_ERR_INVALID_ARGUMENT;
  }
  ic_tensor *t = malloc(sizeof *t);
  if (!t) return IC_ERR_OUT_OF_MEMORY;
  ic_tensor_init(t);
  ic_tensor_set_meta(t, dtype, ndim, dims);
  ic_err err;
  ic_status st = ic_tensor_alloc(t, NULL, &err);
  if (st) {
    free(t);
    return st == IC_ERR_SHAPE ? IC_ERR_INVALID_ARGUMENT : st;
  }
  memset(t->data, 0, ic_tensor_nbytes(t));
  *out = t;
  return IC_OK;
}

ic_status ic_tensor_clone(const ic_tensor *src, ic_tensor **out) {
  if (!out || !src) return IC_ERR_INVALID_ARGUMENT;
  *out = NULL;
  ic_tensor *t = malloc(sizeof *t);
  if (!t) return IC_ERR_OUT_OF_MEMORY;
  ic_tensor_init(t);
  ic_err err;
  ic_status st = ic_tensor_copy(t, src, NULL, &err);
  if (st) {
    free(t);
    return st;
  }
  *out = t;
  return IC_OK;
}

void ic_tensor_destroy(ic_tensor *t) {
  if (!t) return;
  ic_tensor_reset(t);
  free(t);
}

ic_dtype ic_tensor_dtype(const ic_tensor *t) { return t->dtype; }
int ic_tensor_ndim(const ic_tensor *t) { return t->ndim; }
const int64_t *ic_tensor_dims(const ic_tensor *t) { return t->dims; }
int64_t ic_tensor_numel(const ic_tensor *t) { return ic_numel(t->ndim, t->dims); }
size_t ic_tensor_nbytes(const ic_tensor *t) {
  int64_t n = ic_numel(t->ndim, t->dims);
  return n < 0 ? 0 : (size_t)n * ic_dtype_size(t->dtype);
}
void *ic_tensor_data(ic_tensor *t) { return t->data; }
const void *ic_tensor_cdata(const ic_tensor *t) { return t->data; }
