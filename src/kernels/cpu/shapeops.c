/* Helpers shared by the shape and data-movement ops (see shapeops.h). */
#include "kernels/cpu/shapeops.h"

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

ic_status ic_shapeops_xshape(ic_kctx *c, size_t s, const ic_tensor *x) {
  ic_tensor *xs = ic_out(c, s, 0);
  if (!xs) return IC_OK;
  if (x->ndim + 1 > IC_MAX_RANK) {
    return ic_kfail(c, IC_ERR_SHAPE,
                    "output %s '%s' would need rank %d ([0] + the input's %d dims), more than "
                    "the %d icore supports",
                    c->def->outputs[s].name, ic_out_name(c, s, 0), x->ndim + 1, x->ndim,
                    IC_MAX_RANK);
  }
  int64_t d[IC_MAX_RANK];
  d[0] = 0;
  for (int i = 0; i < x->ndim; i++) d[i + 1] = x->dims[i];
  ic_tensor_set_meta(xs, x->dtype, x->ndim + 1, d);
  return IC_OK;
}

void ic_shapeops_share(ic_kctx *c, size_t os, size_t is) {
  ic_tensor *out = ic_out(c, os, 0);
  ic_dtype dt = out->dtype;
  int nd = out->ndim;
  int64_t d[IC_MAX_RANK];
  memcpy(d, out->dims, sizeof d);
  ic_tensor_share(out, ic_in(c, is, 0));
  ic_tensor_set_meta(out, dt, nd, d);
}

ic_status ic_shapeops_view_run(ic_kctx *c) {
  ic_shapeops_share(c, 0, 0);
  return IC_OK;
}

const ic_slotdef ic_shapeops_view_outputs[2] = {
    {"Out", IC_SLOT_SHARE},
    {"XShape", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
};

int ic_shapeops_axis(ic_kctx *c, size_t s, int64_t axis, int rank, const char *what) {
  if (axis < -(int64_t)rank || axis >= rank) {
    ic_kfail_in(c, s, 0, "%s is %lld, expected in [%d, %d)", what, (long long)axis, -rank, rank);
    return -1;
  }
  return (int)(axis < 0 ? axis + rank : axis);
}

static ic_status check_int(ic_kctx *c, size_t s, size_t i) {
  const ic_tensor *t = ic_in(c, s, i);
  if (t->dtype == IC_INT32 || t->dtype == IC_INT64) return IC_OK;
  return ic_kfail_in(c, s, i, "expected dtype int32 or int64");
}

ic_status ic_shapeops_read_ints(ic_kctx *c, size_t s, bool list, const char *what, int64_t *v,
                                size_t cap, size_t *n) {
  *n = 0;
  size_t nt = c->in[s].n;
  for (size_t i = 0; i < nt && (list || i == 0); i++) {
    ic_status st = check_int(c, s, i);
    if (st) return st;
    const ic_tensor *t = ic_in(c, s, i);
    int64_t k = ic_tensor_numel_(t);
    if (list && k != 1) {
      return ic_kfail_in(c, s, i, "expected exactly one element (entry %zu of the %s)", i, what);
    }
    if (k < 0 || (uint64_t)k > cap - *n) {
      return ic_kfail_in(c, s, i, "expected at most %zu values for the %s", cap, what);
    }
    for (int64_t j = 0; j < k; j++) v[(*n)++] = ic_read_i64(t, j);
  }
  return IC_OK;
}

ic_status ic_shapeops_read_scalar(ic_kctx *c, size_t s, int64_t *v) {
  ic_status st = check_int(c, s, 0);
  if (st) return st;
  const ic_tensor *t = ic_in(c, s, 0);
  if (ic_tensor_numel_(t) != 1) return ic_kfail_in(c, s, 0, "expected exactly one element");
  *v = ic_read_i64(t, 0);
  return IC_OK;
}

void ic_shapeops_copy_rows(void *dst, size_t dst_stride, const void *src, size_t src_stride,
                           size_t rows, size_t row_bytes) {
  if (row_bytes == 0) return;
  if (rows == 1 || (dst_stride == row_bytes && src_stride == row_bytes)) {
    memcpy(dst, src, rows * row_bytes);
    return;
  }
  char *d = dst;
  const char *p = src;
  for (size_t r = 0; r < rows; r++, d += dst_stride, p += src_stride) memcpy(d, p, row_bytes);
}

/* n bytes from s to d, the bulk with streaming stores (16-byte aligned destination, 64
 * bytes a step); a caller fences once after its last call. */
static void stream_bytes(char *d, const char *s, size_t n) {
#if defined(__SSE2__)
  if (n >= 256) {
    const size_t head = (16 - ((uintptr_t)d & 15)) & 15;
    memcpy(d, s, head);
    d += head, s += head, n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
      const __m128i a = _mm_loadu_si128((const __m128i *)s);
      const __m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
      const __m128i e = _mm_loadu_si128((const __m128i *)(s + 32));
      const __m128i f = _mm_loadu_si128((const __m128i *)(s + 48));
      _mm_stream_si128((__m128i *)d, a);
      _mm_stream_si128((__m128i *)(d + 16), b);
      _mm_stream_si128((__m128i *)(d + 32), e);
      _mm_stream_si128((__m128i *)(d + 48), f);
    }
  }
#endif
  memcpy(d, s, n);
}

void ic_shapeops_copy_rows_stream(void *dst, size_t dst_stride, const void *src,
                                  size_t src_stride, size_t rows, size_t row_bytes) {
  char *d = dst;
  const char *p = src;
  for (size_t r = 0; r < rows; r++, d += dst_stride, p += src_stride) stream_bytes(d, p, row_bytes);
#if defined(__SSE2__)
  _mm_sfence(); /* the streamed stores are weakly ordered: done before whoever reads them */
#endif
}

void ic_shapeops_flip(void *dst, const void *src, size_t es, int rank, const int64_t *dims,
                      unsigned mask) {
  /* Adjacent axes of equal status merge: reversing each index of a block of axes reverses
   * the block's flat order. Size-1 axes are dropped. */
  int64_t d[IC_MAX_RANK];
  bool f[IC_MAX_RANK];
  int n = 0;
  for (int i = 0; i < rank; i++) {
    if (dims[i] == 1) continue;
    if (dims[i] == 0) return;
    bool fi = (mask >> i) & 1u;
    if (n && f[n - 1] == fi) {
      d[n - 1] *= dims[i];
    } else {
      d[n] = dims[i];
      f[n++] = fi;
    }
  }
  /* The last run unflipped: whole rows copied. Else element by element, over every axis. */
  const bool rows = n && !f[n - 1];
  const size_t row = rows ? (size_t)d[n - 1] * es : es;
  const int m = rows ? n - 1 : n;
  int64_t sin[IC_MAX_RANK], sout[IC_MAX_RANK], stride = rows ? d[n - 1] : 1, base = 0;
  for (int i = m - 1; i >= 0; i--) {
    sout[i] = stride;
    sin[i] = f[i] ? -stride : stride;
    if (f[i]) base += (d[i] - 1) * stride;
    stride *= d[i];
  }
  const char *s = (const char *)src + (size_t)base * es;
  char *o = dst;
  if (row == es && es == 4) {
    IC_SHAPEOPS_FOR_EACH(m, d, sin, sout, memcpy(o + out_off * 4, s + in_off * 4, 4));
  } else {
    IC_SHAPEOPS_FOR_EACH(m, d, sin, sout,
                         memcpy(o + (size_t)out_off * es, s + in_off * (int64_t)es, row));
  }
}
