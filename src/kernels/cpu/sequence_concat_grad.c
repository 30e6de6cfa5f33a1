/* sequence_concat_grad: the gradient of sequence_concat (Paddle's SeqConcatGradKernel; its
 * grad maker emits X, Out@GRAD -> X@GRAD). Sequence k of Out@GRAD is
 * split back into sequence k of X[0], X[1], ...: X@GRAD[i] has X[i]'s dims and LoD. An
 * X@GRAD entry may be absent (@EMPTY@: an input that needs no gradient). Every X has one LoD
 * level with as many sequences as X[0]; Out@GRAD has X's dtype, the summed rows and X[0]'s
 * dims after the first. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x0 = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  if (ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_NUM)) return c->err->code;
  size_t ns = 0;
  int64_t rows = 0;
  for (size_t i = 0; i < c->in[IN_X].n; i++) {
    const ic_tensor *x = ic_in(c, IN_X, i);
    size_t n;
    if (!ic_kseq(c, IN_X, i, 0, &n)) return c->err->code;
    if (x->lod->n_levels != 1) {
      return ic_kfail_in(c, IN_X, i, "has %zu LoD levels, expected 1", x->lod->n_levels);
    }
    if (x->ndim < 1 || x->ndim != x0->ndim ||
        memcmp(x->dims + 1, x0->dims + 1, (size_t)(x->ndim - 1) * sizeof(int64_t))) {
      char want[128];
      return ic_kfail_in(c, IN_X, i, "expected X[0]'s dims after the first (%s)",
                         ic_dims_str(x0->ndim, x0->dims, want, sizeof want));
    }
    if (i && n != ns) return ic_kfail_in(c, IN_X, i, "has %zu sequences, expected %zu (as X[0])", n, ns);
    if (x->lod->offsets[0][n] != (uint64_t)x->dims[0]) {
      return ic_kfail_in(c, IN_X, i, "has a LoD that does not end at its %lld rows",
                         (long long)x->dims[0]);
    }
    ns = n;
    rows += x->dims[0];
  }
  int64_t d[IC_MAX_RANK];
  memcpy(d, x0->dims, sizeof d);
  d[0] = rows;
  if (!ic_dims_equal(g->ndim, g->dims, x0->ndim, d)) {
    char s[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected dims %s (Out: the rows of every X)",
                       ic_dims_str(x0->ndim, d, s, sizeof s));
  }
  if (c->out[0].n && c->out[0].n != c->in[IN_X].n) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "output X@GRAD has %zu variables, input X %zu",
                    c->out[0].n, c->in[IN_X].n);
  }
  for (size_t i = 0; i < c->out[0].n; i++) {
    ic_tensor *dx = ic_out(c, 0, i);
    const ic_tensor *x = ic_in(c, IN_X, i);
    if (!dx) continue;
    ic_tensor_set_meta(dx, g->dtype, x->ndim, x->dims);
    if (ic_kset_lod(c, dx, ic_lod_clone(x->lod), true)) return c->err->code;
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x0 = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  size_t row = ic_dtype_size(g->dtype);
  for (int i = 1; i < x0->ndim; i++) row *= (size_t)x0->dims[i];
  const size_t ns = x0->lod->lens[0] - 1;
  const char *src = g->data;
  for (size_t k = 0; k < ns; k++) {
    for (size_t i = 0; i < c->in[IN_X].n; i++) {
      const uint64_t *o = ic_in(c, IN_X, i)->lod->offsets[0];
      const size_t n = (size_t)(o[k + 1] - o[k]) * row;
      ic_tensor *dx = ic_out(c, 0, i);
      if (dx && n) memcpy((char *)dx->data + o[k] * row, src, n);
      src += n;
    }
  }
  return IC_OK;
}

/* X's data is never read (Paddle's no-need-buffer input), but its LoD is: not NO_BUFFER, so
 * that X stays alive (with its LoD) until the op has run. */
static const ic_slotdef inputs[] = {{"X", IC_SLOT_MULTI}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL | IC_SLOT_MULTI}};

const ic_opdef ic_op_sequence_concat_grad = {
    .name = "sequence_concat_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
