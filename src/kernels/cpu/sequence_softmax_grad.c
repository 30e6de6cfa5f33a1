/* sequence_softmax_grad: the gradient of sequence_softmax (Paddle's SequenceSoftmaxGradKernel),
 * per sequence of X's last LoD level: X@GRAD = Out * (Out@GRAD - sum(Out@GRAD * Out)) over
 * the sequence. Inputs X (dims and LoD), Out, Out@GRAD; output X@GRAD with X's LoD. Sums in
 * double. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_OUT, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if (ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT)) return c->err->code;
  if (!(x->ndim == 1 || (x->ndim == 2 && x->dims[1] == 1))) {
    return ic_kfail_in(c, IN_X, 0, "expected [rows] or [rows, 1]");
  }
  size_t ns;
  if (!ic_kseq(c, IN_X, 0, 0, &ns)) return c->err->code;
  for (int s = IN_OUT; s <= IN_DOUT; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != ic_in(c, IN_DOUT, 0)->dtype || ic_tensor_numel_(t) != ic_tensor_numel_(x)) {
      return ic_kfail_in(c, s, 0, "expected %s with X's %lld elements",
                         ic_dtype_name(ic_in(c, IN_DOUT, 0)->dtype),
                         (long long)ic_tensor_numel_(x));
    }
  }
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_tensor_set_meta(dx, ic_in(c, IN_DOUT, 0)->dtype, x->ndim, x->dims);
  return ic_kset_lod(c, dx, ic_lod_clone(x->lod), true);
}

static double get(const ic_tensor *t, uint64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *o = ic_in(c, IN_OUT, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  size_t ns;
  const uint64_t *off = ic_kseq(c, IN_X, 0, 0, &ns);
  if (!off) return c->err->code;
  const uint64_t rows = (uint64_t)x->dims[0];
  memset(dx->data, 0, (size_t)ic_tensor_numel_(dx) * ic_dtype_size(dx->dtype));
  for (size_t s = 0; s < ns; s++) {
    const uint64_t b = off[s], e = off[s + 1];
    if (e > rows || b > e) {
      return ic_kfail_in(c, IN_X, 0, "has a LoD beyond its %llu rows", (unsigned long long)rows);
    }
    double dot = 0;
    for (uint64_t k = b; k < e; k++) dot += get(g, k) * get(o, k);
    for (uint64_t k = b; k < e; k++) {
      const double v = get(o, k) * (get(g, k) - dot);
      if (dx->dtype == IC_FP32) ((float *)dx->data)[k] = (float)v;
      else ((double *)dx->data)[k] = v;
    }
  }
  return IC_OK;
}

/* X's data is never read, but its LoD is: it stays alive while the op runs. */
static const ic_slotdef inputs[] = {{"X", 0}, {"Out", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_sequence_softmax_grad = {
    .name = "sequence_softmax_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
