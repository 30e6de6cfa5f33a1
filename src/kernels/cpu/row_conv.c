/* row_conv (fluid.layers.row_conv, DeepSpeech2's lookahead convolution; paddle/fluid/
 * operators/row_conv_op.cc): each sequence of X mixes every step with the next context - 1
 * steps, per feature:
 *   Out[t, d] = sum over w < context with t + w in the sequence of X[t + w, d] * Filter[w, d],
 * context = Filter.dims[0]. X is [T, D] split by one LoD level, or without LoD [B, T, D]
 * (each of the B rows a sequence); Filter [context, D]. Sums in X's dtype in w order, as
 * Paddle's kernel. Out keeps X's dims and LoD. float32 (Paddle's CPU kernel has no other). An
 * empty sequence gives no rows (Paddle's kernel fails on one). */
#include "kernels/kernel.h"

enum { IN_X, IN_FILTER };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *f = ic_in(c, IN_FILTER, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT(IC_FP32))) return c->err->code; /* Paddle's only */
  const bool lod = x->lod && x->lod->n_levels;
  if (lod ? x->ndim != 2 : x->ndim != 3) {
    return ic_kfail_in(c, IN_X, 0, "expected [steps, features] with one LoD level, or [batch, "
                                   "steps, features] without");
  }
  const int64_t D = x->dims[x->ndim - 1];
  if (f->dtype != x->dtype || f->ndim != 2 || f->dims[1] != D || f->dims[0] < 1) {
    return ic_kfail_in(c, IN_FILTER, 0, "expected %s[context >= 1, %lld]",
                       ic_dtype_name(x->dtype), (long long)D);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define ROWCONV(T)                                                                           \
  do {                                                                                       \
    const T *xs = x->data, *fs = f->data;                                                    \
    T *os = o->data;                                                                         \
    for (size_t s = 0; s < ns; s++) {                                                        \
      const int64_t start = off ? (int64_t)off[s] : (int64_t)s * steps;                      \
      const int64_t len = off ? (int64_t)(off[s + 1] - off[s]) : steps;                      \
      for (int64_t k = 0; k < len; k++) {                                                    \
        T *out = os + (start + k) * D;                                                       \
        for (int64_t w = 0; w < ctx && k + w < len; w++) {                                   \
          const T *in = xs + (start + k + w) * D, *wt = fs + w * D;                          \
          for (int64_t d = 0; d < D; d++) out[d] = w == 0 ? in[d] * wt[d] : out[d] + in[d] * wt[d]; \
        }                                                                                    \
      }                                                                                      \
    }                                                                                        \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *f = ic_in(c, IN_FILTER, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t D = x->dims[x->ndim - 1], ctx = f->dims[0];
  const bool lod = x->lod && x->lod->n_levels;
  size_t ns = 0;
  const uint64_t *off = NULL;
  int64_t steps = 0;
  if (lod) {
    if (!(off = ic_kseq(c, IN_X, 0, 0, &ns))) return c->err->code;
  } else {
    ns = (size_t)x->dims[0];
    steps = x->dims[1];
  }
  ROWCONV(float);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Filter", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_row_conv = {
    .name = "row_conv", .n_inputs = 2, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
