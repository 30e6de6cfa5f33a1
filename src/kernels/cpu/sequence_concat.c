/* sequence_concat: concatenate the inputs sequence by sequence (Paddle's
 * sequence_concat_op.h; gone from Paddle 3, kept for programs exported before). Every input
 * of X has one LoD level with the same number of sequences, the same dtype and the same dims
 * after the first; sequence i of Out is sequence i of X[0], then of X[1], ... Out's LoD is
 * the summed lengths. */
#include <string.h>

#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x0 = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  if (!x0) return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "input X holds no variable");
  size_t ns = 0;
  int64_t rows = 0;
  for (size_t i = 0; i < c->in[0].n; i++) {
    const ic_tensor *x = ic_in(c, 0, i);
    size_t n;
    if (!ic_kseq(c, 0, i, 0, &n)) return c->err->code;
    if (x->lod->n_levels != 1) return ic_kfail_in(c, 0, i, "has %zu LoD levels, expected 1", x->lod->n_levels);
    char want[128];
    if (x->dtype != x0->dtype || x->ndim != x0->ndim || x->ndim < 1 ||
        memcmp(x->dims + 1, x0->dims + 1, (size_t)(x->ndim - 1) * sizeof(int64_t))) {
      return ic_kfail_in(c, 0, i, "expected %s and X[0]'s dims after the first (%s)",
                         ic_dtype_name(x0->dtype), ic_dims_str(x0->ndim, x0->dims, want, sizeof want));
    }
    if (i && n != ns) {
      return ic_kfail_in(c, 0, i, "has %zu sequences, expected %zu (as X[0])", n, ns);
    }
    ns = n;
    rows += x->dims[0];
  }
  int64_t d[IC_MAX_RANK];
  memcpy(d, x0->dims, sizeof d);
  d[0] = rows;
  ic_tensor_set_meta(out, x0->dtype, x0->ndim, d);
  size_t len = ns + 1;
  ic_lod *lod = ic_lod_new(1, &len);
  if (lod) {
    for (size_t k = 0; k <= ns; k++) {
      uint64_t s = 0;
      for (size_t i = 0; i < c->in[0].n; i++) s += ic_in(c, 0, i)->lod->offsets[0][k];
      lod->offsets[0][k] = s;
    }
  }
  return ic_kset_lod(c, out, lod, true);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x0 = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  size_t row = ic_dtype_size(x0->dtype);
  for (int i = 1; i < x0->ndim; i++) row *= (size_t)x0->dims[i];
  size_t ns = x0->lod->lens[0] - 1;
  char *dst = out->data;
  for (size_t k = 0; k < ns; k++) {
    for (size_t i = 0; i < c->in[0].n; i++) {
      const ic_tensor *x = ic_in(c, 0, i);
      const uint64_t *o = x->lod->offsets[0];
      size_t n = (size_t)(o[k + 1] - o[k]) * row;
      memcpy(dst, (const char *)x->data + o[k] * row, n);
      dst += n;
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_MULTI}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_sequence_concat = {
    .name = "sequence_concat",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
