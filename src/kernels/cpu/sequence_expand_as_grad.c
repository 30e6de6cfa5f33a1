/* sequence_expand_as_grad: the gradient of sequence_expand_as (Paddle's
 * SequenceExpandAsGradKernel; its grad maker emits X, Y, Out@GRAD -> X@GRAD). Row i of
 * X@GRAD is the sum of the rows of Out@GRAD in sequence i of Y (zero for an empty sequence).
 * Y has one LoD level with X's row count of sequences; Out@GRAD has Y's rows and X's dims
 * after the first. X@GRAD has X's dims and LoD. Sums in double. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_Y, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *g = ic_in(c, IN_DOUT, 0);
  if (ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  size_t ns;
  const uint64_t *off = ic_kseq(c, IN_Y, 0, 0, &ns);
  if (!off) return c->err->code;
  if (y->lod->n_levels != 1) {
    return ic_kfail_in(c, IN_Y, 0, "has %zu LoD levels, expected 1", y->lod->n_levels);
  }
  if ((int64_t)ns != x->dims[0]) {
    return ic_kfail_in(c, IN_X, 0, "has %lld rows, expected %zu (the sequences of Y '%s')",
                       (long long)x->dims[0], ns, ic_in_name(c, IN_Y, 0));
  }
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof d);
  d[0] = (int64_t)off[ns];
  if (!ic_dims_equal(g->ndim, g->dims, x->ndim, d)) {
    char s[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected dims %s (Out: the rows of Y '%s')",
                       ic_dims_str(x->ndim, d, s, sizeof s), ic_in_name(c, IN_Y, 0));
  }
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_tensor_set_meta(dx, g->dtype, x->ndim, x->dims);
  return ic_kset_lod(c, dx, x->lod ? ic_lod_clone(x->lod) : NULL, x->lod != NULL);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int64_t w = 1;
  for (int i = 1; i < x->ndim; i++) w *= x->dims[i];
  const int64_t nx = ic_tensor_numel_(dx);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *acc = s->data;
  memset(acc, 0, (size_t)nx * sizeof(double));
  const uint64_t *off = y->lod->offsets[0];
  const bool f64 = g->dtype == IC_FP64;
  for (int64_t i = 0; i < x->dims[0]; i++) {
    for (uint64_t r = off[i]; r < off[i + 1]; r++) {
      for (int64_t k = 0; k < w; k++) {
        const int64_t at = (int64_t)r * w + k;
        acc[i * w + k] += f64 ? ((const double *)g->data)[at] : ((const float *)g->data)[at];
      }
    }
  }
  ic_store_acc(dx, acc);
  ic_buffer_release(s);
  return IC_OK;
}

/* X's and Y's data are never read, but their LoD is: they stay alive while the op runs. */
static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_sequence_expand_as_grad = {
    .name = "sequence_expand_as_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
