/* fusion_seqexpand_concat_fc: Paddle's fusion of sequence_expand + concat + fc
 * (fluid/operators/fused/fusion_seqexpand_concat_fc_op.cc, phi
 * FusionSeqExpandConcatFCKernel; seq_concat_fc_fuse_pass). X holds n >= 2 inputs: X_0
 * [T, M_0] with one LoD level of N sequences, and X_1.. [N, M_i], one row per sequence, each
 * with the one-level LoD [0, 1, ..., N] (X_2.. the same LoD as X_1). FCWeight
 * [M_0 + M_1 + ..., D] stacks the weights of the concatenated columns, FCBias ([D] or [1, D],
 * optional) is added to X_0's part. With FCOut [N, D] = sum_{i >= 1} X_i W_i,
 *   Out[t] = fc_activation(X_0[t] W_0 + FCBias + FCOut[sequence of t])
 * Out [T, D] keeps X_0's LoD. fc_activation: identity (default), sigmoid, tanh or relu, as
 * Paddle's vector activations compute them (sigmoid's input clipped to [-40, 13], tanh
 * 2 sigmoid(2x) - 1). */
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/seqact.h"
#include "kernels/kernel.h"

enum { IN_X, IN_W, IN_B };
enum { OUT_OUT, OUT_FC };

typedef struct secf_attrs {
  int act;
} secf_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  secf_attrs *a = attrs;
  return ic_seqact_parse(r, "fc_activation", "identity", &a->act);
}

static ic_status infer(ic_kctx *c) {
  const size_t n = c->in[IN_X].n;
  const ic_tensor *x0 = ic_in(c, IN_X, 0), *w = ic_in(c, IN_W, 0), *b = ic_in(c, IN_B, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  if (n < 2) {
    return ic_kfail(c, IC_ERR_SHAPE, "input X has %zu tensors, expected at least 2", n);
  }
  if (w->dtype != x0->dtype || w->ndim != 2) {
    return ic_kfail_in(c, IN_W, 0, "expected %s of rank 2", ic_dtype_name(x0->dtype));
  }
  const int64_t D = w->dims[1];
  size_t N;
  if (x0->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 [T, M0]");
  if (!x0->lod || x0->lod->n_levels != 1) {
    return ic_kfail_in(c, IN_X, 0, "expected exactly one LoD level (Paddle's only case)");
  }
  if (!ic_kseq(c, IN_X, 0, 0, &N)) return c->err->code;
  int64_t sum = 0;
  const ic_lod *l1 = ic_in(c, IN_X, 1)->lod;
  for (size_t i = 0; i < n; i++) {
    const ic_tensor *x = ic_in(c, IN_X, i);
    if (x->dtype != x0->dtype || x->ndim != 2) {
      return ic_kfail_in(c, IN_X, i, "expected %s of rank 2", ic_dtype_name(x0->dtype));
    }
    sum += x->dims[1];
    if (i == 0) continue;
    size_t ni;
    if (x->dims[0] != (int64_t)N) {
      return ic_kfail_in(c, IN_X, i, "expected %zu rows (one per sequence of the first X)", N);
    }
    if (!x->lod || x->lod->n_levels != 1) {
      return ic_kfail_in(c, IN_X, i, "expected one LoD level [0, 1, ..., %zu]", N);
    }
    const uint64_t *off = ic_kseq(c, IN_X, i, 0, &ni);
    if (!off) return c->err->code;
    if (ni != N || off[N] != N) {
      return ic_kfail_in(c, IN_X, i, "expected %zu sequences of length 1 (LoD ending at %zu)",
                         N, N);
    }
    if (i >= 2 && memcmp(off, l1->offsets[0], (N + 1) * sizeof(uint64_t)) != 0) {
      return ic_kfail_in(c, IN_X, i, "expected the LoD of the second X");
    }
  }
  if (sum != w->dims[0]) {
    return ic_kfail_in(c, IN_W, 0, "expected %lld rows (the sum of the inputs' widths)",
                       (long long)sum);
  }
  if (b) {
    const bool ok = b->dtype == x0->dtype &&
                    ((b->ndim == 1 && b->dims[0] == D) ||
                     (b->ndim == 2 && b->dims[0] == 1 && b->dims[1] == D));
    if (!ok) {
      return ic_kfail_in(c, IN_B, 0, "expected %s[%lld] or [1, %lld]", ic_dtype_name(x0->dtype),
                         (long long)D, (long long)D);
    }
  }
  ic_tensor *out = ic_out(c, OUT_OUT, 0), *fc = ic_out(c, OUT_FC, 0);
  ic_tensor_set_meta(out, x0->dtype, 2, (int64_t[]){x0->dims[0], D});
  if (fc) ic_tensor_set_meta(fc, x0->dtype, 2, (int64_t[]){(int64_t)N, D});
  return ic_kset_lod(c, out, ic_lod_clone(x0->lod), true);
}

#define FINISH(T, ACT)                                                                   \
  do {                                                                                   \
    T *o = out->data;                                                                    \
    const T *f = fcd, *bb = b ? (const T *)b->data : NULL;                               \
    for (size_t q = 0; q < N; q++) {                                                     \
      for (uint64_t t = off[q]; t < off[q + 1]; t++) {                                   \
        for (int64_t j = 0; j < D; j++) {                                                \
          T v = o[t * D + j];                                                            \
          if (bb) v = v + bb[j];                                                         \
          o[t * D + j] = ACT(a->act, v + f[q * D + j]);                                  \
        }                                                                                \
      }                                                                                  \
    }                                                                                    \
  } while (0)

static ic_status run(ic_kctx *c) {
  const secf_attrs *a = c->attrs;
  const size_t n = c->in[IN_X].n;
  const ic_tensor *x0 = ic_in(c, IN_X, 0), *w = ic_in(c, IN_W, 0), *b = ic_in(c, IN_B, 0);
  ic_tensor *out = ic_out(c, OUT_OUT, 0), *fc = ic_out(c, OUT_FC, 0);
  size_t N;
  const uint64_t *off = ic_kseq(c, IN_X, 0, 0, &N);
  if (!off) return c->err->code;
  const int64_t D = w->dims[1], T = x0->dims[0];
  const size_t es = ic_dtype_size(x0->dtype);
  ic_buffer *s = NULL;
  void *fcd;
  if (fc) {
    fcd = fc->data;
  } else {
    s = ic_kscratch(c, (size_t)(N * D + 1) * es);
    if (!s) return c->err->code;
    fcd = s->data;
  }
  ic_gemm g = {.dtype = x0->dtype, .m = T, .n = D, .k = x0->dims[1], .lda = x0->dims[1],
               .ldb = D, .ldc = D, .alpha = 1.0};
  ic_status st = ic_gemm_check(c, &g);
  if (st) goto done;
  ic_gemm_run(c, &g, x0->data, w->data, out->data);
  const char *wp = (const char *)w->data + (size_t)(x0->dims[1] * D) * es;
  for (size_t i = 1; i < n; i++) {
    const ic_tensor *x = ic_in(c, IN_X, i);
    ic_gemm gi = {.dtype = x0->dtype, .m = (int64_t)N, .n = D, .k = x->dims[1],
                  .lda = x->dims[1], .ldb = D, .ldc = D, .alpha = 1.0,
                  .beta = i == 1 ? 0.0 : 1.0};
    if ((st = ic_gemm_check(c, &gi))) goto done;
    if (i == 1 && gi.k == 0) memset(fcd, 0, (size_t)(N * D) * es);
    ic_gemm_run(c, &gi, x->data, wp, fcd);
    wp += (size_t)(x->dims[1] * D) * es;
  }
  if (x0->dtype == IC_FP64) FINISH(double, ic_seqact_jit);
  else FINISH(float, ic_seqact_jitf);
done:
  if (s) ic_buffer_release(s);
  return st;
}

static const ic_slotdef inputs[] = {
    {"X", IC_SLOT_MULTI}, {"FCWeight", 0}, {"FCBias", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"FCOut", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_fusion_seqexpand_concat_fc = {
    .name = "fusion_seqexpand_concat_fc",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(secf_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
