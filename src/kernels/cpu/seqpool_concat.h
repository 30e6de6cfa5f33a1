/* fusion_seqpool_concat and fusion_seqpool_cvm_concat (Paddle's fused sequence pooling +
 * concat, fluid/operators/fused/fusion_seqpool_concat_op.cc and phi FusionSeqPoolCVMConcat):
 * one implementation in this header. Each input X_i [rows_i, w] (the same w for all; the
 * first rank 2) is pooled per sequence of its first LoD level, which must hold the same
 * number of sequences bs as X_0's; Out [bs, n w] holds, row j, the pools of sequence j of
 * X_0, X_1, ... side by side, with the LoD [0, 1, ..., bs]. pooltype SUM, AVERAGE (sum / len)
 * or SQRT (sum / sqrt(len)), as Paddle's jit SeqPool computes them: the sum in the dtype,
 * then one multiply by 1 / len or 1 / sqrt(len). An empty sequence sums to 0 (and averages to
 * NaN) as in Paddle's reference kernel, which float64 uses; Paddle's float32 jit kernel
 * instead yields the next sequence's first row there, an artifact icore does not copy. The cvm variant then rewrites each pooled block's first two columns (show,
 * click) as log(show + 1) and log(click + 1) - log(show + 1). axis must be 1. */
#ifndef IC_KERNELS_CPU_SEQPOOL_CONCAT_H
#define IC_KERNELS_CPU_SEQPOOL_CONCAT_H

#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

enum { IC_SPC_SUM, IC_SPC_AVG, IC_SPC_SQRT };

typedef struct ic_spc_attrs {
  int pool;
} ic_spc_attrs;

static inline ic_status ic_spc_parse(ic_attr_reader *r, void *attrs, bool cvm) {
  ic_spc_attrs *a = attrs;
  const char *pt = ic_ar_str(r, "pooltype", "SUM");
  const int64_t axis = ic_ar_int(r, "axis", 1);
  const bool use_cvm = cvm ? ic_ar_bool(r, "use_cvm", true) : true;
  if (r->st) return r->st;
  if (!strcmp(pt, "SUM")) a->pool = IC_SPC_SUM;
  else if (!strcmp(pt, "AVERAGE")) a->pool = IC_SPC_AVG;
  else if (!strcmp(pt, "SQRT")) a->pool = IC_SPC_SQRT;
  else return ic_ar_fail(r, "pooltype", "is \"%s\", expected SUM, AVERAGE or SQRT", pt);
  if (axis != 1) return ic_ar_fail(r, "axis", "is %lld, expected 1 (Paddle's only one)", (long long)axis);
  if (!use_cvm) return ic_ar_fail(r, "use_cvm", "is false, expected true (Paddle's only mode)");
  return IC_OK;
}

/* The first LoD level of input (0, i): offsets and sequence count, or NULL with an error. */
static inline const uint64_t *ic_spc_level0(ic_kctx *c, size_t i, size_t *bs) {
  const ic_tensor *t = ic_in(c, 0, i);
  const size_t levels = t->lod ? t->lod->n_levels : 0;
  const uint64_t *off = ic_kseq(c, 0, i, levels ? levels - 1 : 0, bs);
  if (off && off[*bs] > (uint64_t)t->dims[0]) {
    ic_kfail_in(c, 0, i, "has a first LoD level ending at %llu, past its %lld rows",
                (unsigned long long)off[*bs], (long long)t->dims[0]);
    return NULL;
  }
  return off;
}

static inline ic_status ic_spc_infer(ic_kctx *c) {
  const size_t n = c->in[0].n;
  const ic_tensor *x0 = ic_in(c, 0, 0);
  if (ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT)) return c->err->code;
  if (x0->ndim != 2) return ic_kfail_in(c, 0, 0, "expected rank 2 [rows, width]");
  const int64_t w = x0->dims[1];
  size_t bs = 0;
  for (size_t i = 0; i < n; i++) {
    const ic_tensor *x = ic_in(c, 0, i);
    if (x->dtype != x0->dtype) {
      return ic_kfail_in(c, 0, i, "expected the dtype of the first X (%s)",
                         ic_dtype_name(x0->dtype));
    }
    if (x->ndim < 1 || x->dims[0] <= 0 || ic_tensor_numel_(x) / x->dims[0] != w) {
      return ic_kfail_in(c, 0, i, "expected rows of width %lld like the first X", (long long)w);
    }
    size_t b;
    if (!ic_spc_level0(c, i, &b)) return c->err->code;
    if (i == 0) bs = b;
    else if (b != bs) {
      return ic_kfail_in(c, 0, i, "has %zu sequences, expected %zu like the first X", b, bs);
    }
  }
  ic_tensor *out = ic_out(c, 0, 0);
  ic_tensor_set_meta(out, x0->dtype, 2, (int64_t[]){(int64_t)bs, (int64_t)n * w});
  const size_t lens[1] = {bs + 1};
  ic_lod *lod = ic_lod_new(1, lens);
  for (size_t j = 0; lod && j <= bs; j++) lod->offsets[0][j] = j;
  return ic_kset_lod(c, out, lod, true);
}

#define IC_SPC_POOL(T, LOG, SQRT)                                                          \
  do {                                                                                     \
    T *y = out->data;                                                                      \
    for (size_t i = 0; i < n; i++) {                                                       \
      size_t bs;                                                                           \
      const uint64_t *off = ic_spc_level0(c, i, &bs);                                      \
      const T *src = ic_in(c, 0, i)->data;                                                 \
      for (size_t j = 0; j < bs; j++) {                                                    \
        T *dst = y + (j * n + i) * (size_t)w;                                              \
        const int64_t h = (int64_t)(off[j + 1] - off[j]);                                  \
        for (int64_t k = 0; k < w; k++) {                                                  \
          T s = (T)0;                                                                      \
          for (int64_t r = 0; r < h; r++) s = s + src[r * w + k];                          \
          dst[k] = s;                                                                      \
        }                                                                                  \
        if (a->pool != IC_SPC_SUM) {                                                       \
          const T sc = a->pool == IC_SPC_AVG ? (T)1 / (T)h : (T)1 / SQRT((T)h);            \
          for (int64_t k = 0; k < w; k++) dst[k] = sc * dst[k];                            \
        }                                                                                  \
        if (cvm) {                                                                         \
          dst[0] = LOG(dst[0] + (T)1);                                                     \
          dst[1] = LOG(dst[1] + (T)1) - dst[0];                                            \
        }                                                                                  \
        src += h * w;                                                                      \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static inline ic_status ic_spc_run(ic_kctx *c, bool cvm) {
  const ic_spc_attrs *a = c->attrs;
  const size_t n = c->in[0].n;
  const ic_tensor *x0 = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t w = x0->dims[1];
  if (cvm && w < 2) {
    return ic_kfail_in(c, 0, 0, "expected a width of at least 2 (the show and click columns)");
  }
  if (x0->dtype == IC_FP64) IC_SPC_POOL(double, log, sqrt);
  else IC_SPC_POOL(float, logf, sqrtf);
  return IC_OK;
}

#endif
