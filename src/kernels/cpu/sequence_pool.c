/* sequence_pool: one row per sequence of X's last LoD level (Paddle's
 * paddle/phi/kernels/funcs/sequence_pooling.cc). X is [T, ...]; Out is [sequences, ...] and
 * keeps X's LoD without its last level (none when X has one level). pooltype:
 *   AVERAGE  the mean of the sequence's rows;      SUM   their sum;
 *   SQRT     their sum / sqrt(length);              MAX   their element-wise maximum, with
 *            MaxIndex (int32, Out's dims) the row within X holding it (the first on ties);
 *   LAST / FIRST  the sequence's last / first row.
 * An empty sequence gives pad_value (and MaxIndex -1 for MAX). MaxIndex is empty for the
 * other pool types. is_test changes nothing in inference. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/sequence_pool.h"

enum { IN_X };
enum { OUT_OUT, OUT_MAXINDEX };
static const char *const k_types[] = {"AVERAGE", "SUM", "SQRT", "MAX", "LAST", "FIRST"};

typedef ic_seqpool_attrs seqpool_attrs;

ic_status ic_sequence_pool_parse(ic_attr_reader *r, void *attrs) {
  seqpool_attrs *a = attrs;
  const char *t = ic_ar_str(r, "pooltype", "AVERAGE");
  a->pad_value = ic_ar_float(r, "pad_value", 0.0);
  (void)ic_ar_bool(r, "is_test", false);
  if (r->st) return r->st;
  a->type = -1;
  for (int k = 0; k < 6; k++) {
    if (strcmp(t, k_types[k]) == 0) a->type = k;
  }
  if (a->type < 0) {
    return ic_ar_fail(r, "pooltype", "is \"%s\", expected AVERAGE, SUM, SQRT, MAX, LAST or FIRST",
                      t);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const seqpool_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1 [rows, ...]");
  size_t n;
  if (!ic_kseq(c, IN_X, 0, 0, &n)) return c->err->code;
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof d);
  d[0] = (int64_t)n;
  ic_tensor *out = ic_out(c, OUT_OUT, 0), *mi = ic_out(c, OUT_MAXINDEX, 0);
  ic_tensor_set_meta(out, x->dtype, x->ndim, d);
  if (mi) {
    const int64_t zero[1] = {0};
    if (a->type == P_MAX) ic_tensor_set_meta(mi, IC_INT32, x->ndim, d);
    else ic_tensor_set_meta(mi, IC_INT32, 1, zero);
    ic_tensor_take_lod(mi, NULL);
  }
  if (x->lod->n_levels == 1) {
    ic_tensor_take_lod(out, NULL);
    return IC_OK;
  }
  ic_lod *l = ic_lod_new(x->lod->n_levels - 1, x->lod->lens);
  if (l) {
    for (size_t k = 0; k < l->n_levels; k++) {
      memcpy(l->offsets[k], x->lod->offsets[k], l->lens[k] * sizeof(uint64_t));
    }
  }
  return ic_kset_lod(c, out, l, true);
}

#define DEFINE_POOL(T, SUF)                                                                   \
  static void pool_##SUF(const seqpool_attrs *a, const T *x, T *out, int32_t *mi,             \
                         const uint64_t *off, size_t ns, int64_t W) {                         \
    for (size_t s = 0; s < ns; s++) {                                                         \
      const int64_t b = (int64_t)off[s], len = (int64_t)off[s + 1] - b;                        \
      T *o = out + (int64_t)s * W;                                                            \
      int32_t *m = mi ? mi + (int64_t)s * W : NULL;                                           \
      if (len == 0) {                                                                         \
        for (int64_t w = 0; w < W; w++) o[w] = (T)a->pad_value;                               \
        if (m) for (int64_t w = 0; w < W; w++) m[w] = -1;                                     \
        continue;                                                                             \
      }                                                                                       \
      const T *first = x + b * W;                                                             \
      switch (a->type) {                                                                      \
        case P_FIRST: memcpy(o, first, (size_t)W * sizeof(T)); break;                         \
        case P_LAST: memcpy(o, first + (len - 1) * W, (size_t)W * sizeof(T)); break;          \
        case P_MAX:                                                                           \
          for (int64_t w = 0; w < W; w++) {                                                   \
            T best = first[w];                                                                \
            int64_t at = b;                                                                   \
            for (int64_t k = 1; k < len; k++) {                                               \
              if (first[k * W + w] > best) best = first[k * W + w], at = b + k;               \
            }                                                                                 \
            o[w] = best;                                                                      \
            if (m) m[w] = (int32_t)at;                                                        \
          }                                                                                   \
          break;                                                                              \
        default: {                                                                            \
          for (int64_t w = 0; w < W; w++) o[w] = first[w];                                    \
          for (int64_t k = 1; k < len; k++) {                                                 \
            for (int64_t w = 0; w < W; w++) o[w] += first[k * W + w];                         \
          }                                                                                   \
          T div = a->type == P_AVERAGE ? (T)len : a->type == P_SQRT ? (T)sqrt((double)len) : 1; \
          if (a->type != P_SUM) for (int64_t w = 0; w < W; w++) o[w] /= div;                 \
        }                                                                                     \
      }                                                                                       \
    }                                                                                         \
  }

DEFINE_POOL(float, f32)
DEFINE_POOL(double, f64)

static ic_status run(ic_kctx *c) {
  const seqpool_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor *out = ic_out(c, OUT_OUT, 0), *mi = ic_out(c, OUT_MAXINDEX, 0);
  const ic_lod *lod = x->lod;
  const uint64_t *off = lod->offsets[lod->n_levels - 1];
  const size_t ns = lod->lens[lod->n_levels - 1] - 1;
  int64_t W = 1;
  for (int i = 1; i < x->ndim; i++) W *= x->dims[i];
  int32_t *m = a->type == P_MAX && mi ? mi->data : NULL;
  if (x->dtype == IC_FP64) pool_f64(a, x->data, out->data, m, off, ns, W);
  else pool_f32(a, x->data, out->data, m, off, ns, W);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"MaxIndex", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_sequence_pool = {
    .name = "sequence_pool",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(seqpool_attrs), .parse = ic_sequence_pool_parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
