/* segment_pool: X [N, ...] pooled over runs of equal SegmentIds [N] (int32 or int64, sorted
 * ascending, >= 0) into Out [last id + 1, ...]: row s of Out is the SUM, MEAN, MAX or MIN
 * (`pooltype`) of the rows of X whose id is s, and 0 for an id no row has
 * (paddle/phi/kernels/impl/segment_pool_kernel_impl.h, funcs/segment_pooling.cc). X float32,
 * float64, int32 or int64; the sums in X's dtype as Paddle's Eigen reductions (integer MEAN
 * divides with truncation). SummedIds (MEAN's row counts, an intermediate output Paddle's
 * CPU kernel leaves unwritten) is [segments, 1] of X's dtype holding each segment's row
 * count here. Unsorted or negative ids fail; an empty X gives an empty Out [0, ...]. */
#include <string.h>

#include "kernels/kernel.h"

enum { POOL_SUM, POOL_MEAN, POOL_MAX, POOL_MIN };

typedef struct segment_pool_attrs {
  int type;
} segment_pool_attrs;

enum { IN_X, IN_IDS };
static const ic_slotdef k_inputs[2] = {{"X", 0}, {"SegmentIds", 0}};
static const ic_slotdef k_outputs[2] = {{"Out", IC_SLOT_DYNAMIC},
                                        {"SummedIds", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  segment_pool_attrs *a = attrs;
  const char *t = ic_ar_str(r, "pooltype", "SUM");
  if (r->st) return r->st;
  if (!strcmp(t, "SUM")) a->type = POOL_SUM;
  else if (!strcmp(t, "MEAN")) a->type = POOL_MEAN;
  else if (!strcmp(t, "MAX")) a->type = POOL_MAX;
  else if (!strcmp(t, "MIN")) a->type = POOL_MIN;
  else return ic_ar_fail(r, "pooltype", "is '%s', expected SUM, MEAN, MAX or MIN", t);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *ids = ic_in(c, IN_IDS, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_NUM);
  if (!st) st = ic_kcheck_dtype(c, IN_IDS, 0, IC_DT_INT);
  if (st) return st;
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  const int64_t n = ic_tensor_numel_(ids);
  if (ids->ndim < 1 || ids->dims[0] != n) {
    return ic_kfail_in(c, IN_IDS, 0, "expected 1-D (or other dims 1)");
  }
  if (n != x->dims[0]) {
    return ic_kfail_in(c, IN_IDS, 0, "has %lld ids, expected dim 0 of X '%s' (%lld)",
                       (long long)n, ic_in_name(c, IN_X, 0), (long long)x->dims[0]);
  }
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)x->ndim);
  d[0] = 0;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, d);
  if (ic_out(c, 1, 0)) ic_tensor_set_meta(ic_out(c, 1, 0), x->dtype, 2, (int64_t[]){0, 1});
  return IC_OK;
}

#define SEG_POOL(T, NAME)                                                                   \
  static void NAME(const T *x, T *o, const int64_t *start, const int64_t *seg, int64_t ns,  \
                   int64_t w, int type) {                                                   \
    for (int64_t k = 0; k < ns; k++) {                                                      \
      const int64_t b = start[k], e = start[k + 1];                                         \
      T *dst = o + seg[k] * w;                                                              \
      for (int64_t j = 0; j < w; j++) {                                                     \
        T acc = x[b * w + j];                                                               \
        for (int64_t i = b + 1; i < e; i++) {                                               \
          const T v = x[i * w + j];                                                         \
          if (type == POOL_MAX) acc = v > acc ? v : acc;                                    \
          else if (type == POOL_MIN) acc = v < acc ? v : acc;                               \
          else acc += v;                                                                    \
        }                                                                                   \
        if (type == POOL_MEAN) acc = acc / (T)(e - b);                                      \
        dst[j] = acc;                                                                       \
      }                                                                                     \
    }                                                                                       \
  }
SEG_POOL(float, pool_f32)
SEG_POOL(double, pool_f64)
SEG_POOL(int32_t, pool_i32)
SEG_POOL(int64_t, pool_i64)

static ic_status run(ic_kctx *c) {
  const segment_pool_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *ids = ic_in(c, IN_IDS, 0);
  const int64_t n = x->dims[0];
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)x->ndim);
  const int64_t w = n ? ic_tensor_numel_(x) / n : 0;
  int64_t prev = 0;
  for (int64_t i = 0; i < n; i++) {
    const int64_t id = ic_read_i64(ids, i);
    if (id < 0) {
      return ic_kfail_in(c, IN_IDS, 0, "holds %lld at %lld, expected ids >= 0", (long long)id,
                         (long long)i);
    }
    if (i > 0 && id < prev) {
      return ic_kfail_in(c, IN_IDS, 0,
                         "is not sorted: id %lld at %lld follows %lld (expected ascending)",
                         (long long)id, (long long)i, (long long)prev);
    }
    prev = id;
  }
  d[0] = n && w ? prev + 1 : 0;
  ic_status st = ic_kalloc_out(c, 0, 0, x->dtype, x->ndim, d);
  if (!st) st = ic_kalloc_out(c, 1, 0, x->dtype, 2, (int64_t[]){d[0], 1});
  if (st) return st;
  ic_tensor *o = ic_out(c, 0, 0), *cnt = ic_out(c, 1, 0);
  const size_t es = ic_dtype_size(x->dtype);
  memset(o->data, 0, (size_t)(d[0] * w) * es);
  if (cnt) memset(cnt->data, 0, (size_t)d[0] * es);
  if (!d[0]) return IC_OK;
  /* segment k: rows [start[k], start[k+1]) with id seg[k] */
  ic_buffer *sb = ic_kscratch(c, (size_t)(2 * n + 1) * sizeof(int64_t));
  if (!sb) return c->err->code;
  int64_t *start = sb->data, *seg = start + n + 1, ns = 0;
  for (int64_t i = 0; i < n; i++) {
    const int64_t id = ic_read_i64(ids, i);
    if (i == 0 || id != seg[ns - 1]) {
      start[ns] = i;
      seg[ns++] = id;
    }
  }
  start[ns] = n;
  switch (x->dtype) {
    case IC_FP32: pool_f32(x->data, o->data, start, seg, ns, w, a->type); break;
    case IC_FP64: pool_f64(x->data, o->data, start, seg, ns, w, a->type); break;
    case IC_INT32: pool_i32(x->data, o->data, start, seg, ns, w, a->type); break;
    default: pool_i64(x->data, o->data, start, seg, ns, w, a->type); break;
  }
  if (cnt) {
    for (int64_t k = 0; k < ns; k++) {
      const int64_t m = start[k + 1] - start[k];
      char *p = (char *)cnt->data + (size_t)seg[k] * es;
      switch (x->dtype) {
        case IC_FP32: *(float *)p = (float)m; break;
        case IC_FP64: *(double *)p = (double)m; break;
        case IC_INT32: *(int32_t *)p = (int32_t)m; break;
        default: *(int64_t *)p = m; break;
      }
    }
  }
  ic_buffer_release(sb);
  return IC_OK;
}

const ic_opdef ic_op_segment_pool = {
    .name = "segment_pool", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .attrs_size = sizeof(segment_pool_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
