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

ic_lod *ic_lod_new(size_t n_levels, const size_t *lens) {
  ic_lod *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->lens = calloc(n_levels ? n_levels : 1, sizeof *c->lens);
  c->offsets = calloc(n_levels ? n_levels : 1, sizeof *c->offsets);
  if (!c->lens || !c->offsets) goto fail;
  for (size_t i = 0; i < n_levels; i++) {
    c->offsets[i] = calloc(lens[i] ? lens[i] : 1, sizeof(uint64_t));
    if (!c->offsets[i]) goto fail;
    c->lens[i] = lens[i];
    c->n_levels = i + 1;
  }
  return c;
fail:
  ic_lod_free(c);
  return NULL;
}

bool ic_lod_equal(const ic_lod *a, const ic_lod *b) {
  size_t na = a ? a->n_levels : 0, nb = b ? b->n_levels : 0;
  if (na != nb) return false;
  for (size_t l = 0; l < na; l++) {
    if (a->lens[l] != b->lens[l]) return false;
    if (memcmp(a->offsets[l], b->offsets[l], a->lens[l] * sizeof(uint64_t))) return false;
  }
  return true;
}

bool ic_lod_valid(const ic_lod *lod, int64_t rows, char *why, size_t len) {
  if (!lod) return true;
  for (size_t l = 0; l < lod->n_levels; l++) {
    const uint64_t *o = lod->offsets[l];
    size_t n = lod->lens[l];
    if (n < 2) {
      snprintf(why, len, "level %zu has %zu offsets, expected at least 2", l, n);
      return false;
    }
    if (o[0] != 0) {
      snprintf(why, len, "level %zu starts at %llu, expected 0", l, (unsigned long long)o[0]);
      return false;
    }
    for (size_t k = 1; k < n; k++) {
      if (o[k] < o[k - 1]) {
        snprintf(why, len, "level %zu decreases at offset %zu (%llu after %llu)", l, k,
                 (unsigned long long)o[k], (unsigned long long)o[k - 1]);
        return false;
      }
    }
    uint64_t want = l + 1 < lod->n_levels ? lod->lens[l + 1] - 1 : (uint64_t)rows;
    if (o[n - 1] != want) {
      snprintf(why, len, "level %zu ends at %llu, expected %llu (%s)", l,
               (unsigned long long)o[n - 1], (unsigned long long)want,
               l + 1 < lod->n_levels ? "the sequences of the next level" : "the rows");
      return false;
    }
  }
  return true;
}

const char *ic_lod_str(const ic_lod *lod, char *buf, size_t len) {
  size_t at = 0;
  if (!len) return buf;
  buf[0] = 0;
#define PUT(...)                                                          \
  do {                                                                    \
    if (at < len) {                                                       \
      int w_ = snprintf(buf + at, len - at, __VA_ARGS__);                 \
      at = w_ < 0 ? len : at + (size_t)w_;                                \
    }                                                                     \
  } while (0)
  PUT("[");
  for (size_t l = 0; lod && l < lod->n_levels; l++) {
    PUT("%s[", l ? ", " : "");
    for (size_t k = 0; k < lod->lens[l]; k++) PUT("%s%llu", k ? ", " : "", (unsigned long long)lod->offsets[l][k]);
    PUT("]");
  }
  PUT("]");
#undef PUT
  if (at >= len && len > 4) memcpy(buf + len - 4, "...", 4);
  return buf;
}

void ic_tensor_take_lod(ic_tensor *t, ic_lod *lod) {
  if (t->lod == lod) return;
  ic_lod_free(t->lod);
  t->lod = lod;
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
    case IC_LAYOUT_NCHW16C_PAD: return "nChw16c (channels padded)";
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

int64_t ic_tensor_storage_elems(const ic_tensor *t) {
  if (t->layout != IC_LAYOUT_NCHW16C_PAD || t->ndim != 4 || t->dims[1] < 0) {
    return ic_numel(t->ndim, t->dims);
  }
  if (t->dims[1] > INT64_MAX - 15) return -1;
  int64_t d[4] = {t->dims[0], (t->dims[1] + 15) / 16 * 16, t->dims[2], t->dims[3]};
  return ic_numel(4, d);
}

ic_status ic_tensor_alloc(ic_tensor *t, ic_allocator *a, ic_err *err) {
  int64_t n = ic_tensor_storage_elems(t);
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
  size_t bytes = (size_t)ic_tensor_storage_elems(src) * ic_dtype_size(src->dtype);
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

ic_status ic_tensor_wrap(ic_dtype dtype, int ndim, const int64_t *dims, void *data,
                         ic_release_fn release, void *ctx, ic_tensor **out) {
  if (!out) return IC_ERR_INVALID_ARGUMENT;
  *out = NULL;
  size_t es = ic_dtype_size(dtype);
  if (ndim < 0 || ndim > IC_MAX_RANK || (ndim && !dims) || es == 0) return IC_ERR_INVALID_ARGUMENT;
  for (int i = 0; i < ndim; i++) {
    if (dims[i] < 0) return IC_ERR_INVALID_ARGUMENT;
  }
  int64_t n = ic_numel(ndim, dims);
  if (n < 0 || (uint64_t)n > SIZE_MAX / es) return IC_ERR_INVALID_ARGUMENT;
  if ((n && !data) || (uintptr_t)data % es) return IC_ERR_INVALID_ARGUMENT;
  ic_tensor *t = malloc(sizeof *t);
  if (!t) return IC_ERR_OUT_OF_MEMORY;
  ic_tensor_init(t);
  ic_tensor_set_meta(t, dtype, ndim, dims);
  /* An empty tensor still gets a buffer (a feed without storage reads as "not set"); with
   * no caller pointer it points at a constant no one reads (zero elements). */
  static const int64_t k_empty[1];
  void *at = data ? data : (void *)(uintptr_t)k_empty;
  t->buf = ic_buffer_borrow(at, (size_t)n * es, release, ctx);
  if (!t->buf) {
    free(t);
    return IC_ERR_OUT_OF_MEMORY;
  }
  t->data = t->buf->data;
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

ic_status ic_tensor_set_lod(ic_tensor *t, size_t n_levels, const size_t *lens,
                            const uint64_t *const *offsets) {
  if (!t || (n_levels && (!lens || !offsets))) return IC_ERR_INVALID_ARGUMENT;
  if (!n_levels) {
    ic_tensor_take_lod(t, NULL);
    return IC_OK;
  }
  for (size_t l = 0; l < n_levels; l++) {
    if (lens[l] && !offsets[l]) return IC_ERR_INVALID_ARGUMENT;
  }
  ic_lod *lod = ic_lod_new(n_levels, lens);
  if (!lod) return IC_ERR_OUT_OF_MEMORY;
  for (size_t l = 0; l < n_levels; l++) {
    if (lens[l]) memcpy(lod->offsets[l], offsets[l], lens[l] * sizeof(uint64_t));
  }
  char why[160];
  if (!ic_lod_valid(lod, t->ndim ? t->dims[0] : 1, why, sizeof why)) {
    ic_lod_free(lod);
    return IC_ERR_INVALID_ARGUMENT;
  }
  ic_tensor_take_lod(t, lod);
  return IC_OK;
}

size_t ic_tensor_lod_levels(const ic_tensor *t) { return t && t->lod ? t->lod->n_levels : 0; }

const uint64_t *ic_tensor_lod(const ic_tensor *t, size_t level, size_t *len) {
  if (!t || !t->lod || level >= t->lod->n_levels) {
    if (len) *len = 0;
    return NULL;
  }
  if (len) *len = t->lod->lens[level];
  return t->lod->offsets[level];
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
