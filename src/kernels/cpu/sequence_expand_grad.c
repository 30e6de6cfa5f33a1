/* sequence_expand_grad: the gradient of sequence_expand (Paddle's SequenceExpandGradFunctor):
 * X@GRAD of sequence i (X's LoD level, or row i) is the sum of Out@GRAD over its
 * ref[i + 1] - ref[i] copies, in order; zero for a sequence repeated 0 times; Out@GRAD
 * itself when the level has a single offset (the forward copied X). Inputs X (meta and LoD
 * only), Y (LoD only), Out@GRAD; output X@GRAD, with X's LoD. Sums in double. */
#include <string.h>

#include "kernels/cpu/sequence_expand.h"

enum { IN_X, IN_Y, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  if (ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT)) return c->err->code;
  const uint64_t *ref;
  size_t n;
  if (ic_sequence_expand_refs(c, &ref, &n)) return c->err->code;
  const uint64_t *xo = x->lod ? x->lod->offsets[0] : NULL;
  uint64_t rows = (uint64_t)x->dims[0];
  if (n > 1) {
    rows = 0;
    for (size_t i = 0; i + 1 < n; i++) rows += (ref[i + 1] - ref[i]) * (xo ? xo[i + 1] - xo[i] : 1);
  }
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof d);
  d[0] = (int64_t)rows;
  if (!ic_dims_equal(g->ndim, g->dims, x->ndim, d)) {
    char s[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected dims %s (the op's Out)",
                       ic_dims_str(x->ndim, d, s, sizeof s));
  }
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_tensor_set_meta(dx, g->dtype, x->ndim, x->dims);
  return ic_kset_lod(c, dx, x->lod ? ic_lod_clone(x->lod) : NULL, !!x->lod);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const uint64_t *ref;
  size_t n;
  if (ic_sequence_expand_refs(c, &ref, &n)) return c->err->code;
  int64_t row = 1;
  for (int i = 1; i < x->ndim; i++) row *= x->dims[i];
  const int64_t nx = ic_tensor_numel_(dx);
  const bool f64 = g->dtype == IC_FP64;
  if (n <= 1) {
    memcpy(dx->data, g->data, (size_t)nx * ic_dtype_size(g->dtype));
    return IC_OK;
  }
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *acc = s->data;
  memset(acc, 0, (size_t)nx * sizeof(double));
  const uint64_t *xo = x->lod ? x->lod->offsets[0] : NULL;
  int64_t at = 0; /* element of Out@GRAD */
  for (size_t i = 0; i + 1 < n; i++) {
    const int64_t b = (int64_t)(xo ? xo[i] : i) * row;
    const int64_t len = (int64_t)(xo ? xo[i + 1] - xo[i] : 1) * row;
    for (uint64_t r = 0; r < ref[i + 1] - ref[i]; r++, at += len) {
      for (int64_t k = 0; k < len; k++) {
        acc[b + k] += f64 ? ((const double *)g->data)[at + k]
                          : (double)((const float *)g->data)[at + k];
      }
    }
  }
  for (int64_t k = 0; k < nx; k++) {
    if (f64) ((double *)dx->data)[k] = acc[k];
    else ((float *)dx->data)[k] = (float)acc[k];
  }
  ic_buffer_release(s);
  return IC_OK;
}

/* X's and Y's data are never read, but their LoD is: they stay alive while the op runs. */
static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_sequence_expand_grad = {
    .name = "sequence_expand_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_seqexpand_attrs), .parse = ic_sequence_expand_parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
