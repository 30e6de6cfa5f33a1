/* sequence_softmax: softmax within each sequence of X's last LoD level (Paddle's
 * sequence_softmax_op.h). X is [T] or [T, 1]; Out has X's dims and LoD. Each sequence is
 * exp(x - max) / sum, computed in the input's precision after taking the maximum. */
#include <math.h>

#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  if (ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT)) return c->err->code;
  if (!(x->ndim == 1 || (x->ndim == 2 && x->dims[1] == 1))) {
    return ic_kfail_in(c, 0, 0, "expected [rows] or [rows, 1]");
  }
  size_t ns;
  if (!ic_kseq(c, 0, 0, 0, &ns)) return c->err->code;
  ic_tensor *out = ic_out(c, 0, 0);
  ic_tensor_set_meta(out, x->dtype, x->ndim, x->dims);
  return ic_kset_lod(c, out, ic_lod_clone(x->lod), true);
}

#define DEFINE_SOFTMAX(T, SUF, EXP)                                                            \
  static void softmax_##SUF(const T *x, T *y, const uint64_t *off, size_t ns) {               \
    for (size_t s = 0; s < ns; s++) {                                                          \
      uint64_t b = off[s], e = off[s + 1];                                                     \
      if (b == e) continue;                                                                    \
      T mx = x[b], sum = 0;                                                                    \
      for (uint64_t k = b + 1; k < e; k++) mx = x[k] > mx ? x[k] : mx;                         \
      for (uint64_t k = b; k < e; k++) sum += (y[k] = EXP(x[k] - mx));                         \
      for (uint64_t k = b; k < e; k++) y[k] /= sum;                                            \
    }                                                                                          \
  }

DEFINE_SOFTMAX(float, f32, expf)
DEFINE_SOFTMAX(double, f64, exp)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const ic_lod *l = x->lod;
  const uint64_t *off = l->offsets[l->n_levels - 1];
  size_t ns = l->lens[l->n_levels - 1] - 1;
  if (x->dtype == IC_FP64) softmax_f64(x->data, out->data, off, ns);
  else softmax_f32(x->data, out->data, off, ns);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_sequence_softmax = {
    .name = "sequence_softmax",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
