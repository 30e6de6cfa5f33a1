/* sequence_slice_grad: the gradient of sequence_slice (paddle/fluid/operators/sequence_ops/
 * sequence_slice_op.h SequenceSliceGradOpKernel): X@GRAD is zero except that the Length[k]
 * rows starting Offset[k] rows into sequence k of X receive slice k of Out@GRAD. Inputs X
 * (one LoD level; dims and LoD only), Offset and Length (int64 [sequences] or [sequences, 1],
 * each slice inside its sequence), Out@GRAD (the slices' total rows, X's other dims); X@GRAD
 * has X's dims and LoD. Any dtype (rows are moved). */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_OFFSET, IN_LENGTH, IN_DOUT };

/* Check the inputs; *rows receives the slices' total. */
static ic_status check(ic_kctx *c, int64_t *rows) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *off = ic_in(c, IN_OFFSET, 0),
                  *len = ic_in(c, IN_LENGTH, 0);
  ic_status st = ic_kcheck_dtype(c, IN_OFFSET, 0, IC_DT(IC_INT64));
  if (st || (st = ic_kcheck_dtype(c, IN_LENGTH, 0, IC_DT(IC_INT64)))) return st;
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  size_t ns;
  const uint64_t *lo = ic_kseq(c, IN_X, 0, 0, &ns);
  if (!lo) return c->err->code;
  if (x->lod->n_levels != 1) {
    return ic_kfail_in(c, IN_X, 0, "has %zu LoD levels, expected 1", x->lod->n_levels);
  }
  if (lo[ns] > (uint64_t)x->dims[0]) {
    return ic_kfail_in(c, IN_X, 0, "has a LoD of %llu rows but holds %lld",
                       (unsigned long long)lo[ns], (long long)x->dims[0]);
  }
  for (size_t s = IN_OFFSET; s <= IN_LENGTH; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->ndim < 1 || t->ndim > 2 || t->dims[0] != (int64_t)ns ||
        (t->ndim == 2 && t->dims[1] != 1)) {
      return ic_kfail_in(c, s, 0, "expected [%zu] or [%zu, 1] (one per sequence of X)", ns, ns);
    }
  }
  int64_t total = 0;
  for (size_t k = 0; k < ns; k++) {
    const int64_t b = ((const int64_t *)off->data)[k], l = ((const int64_t *)len->data)[k];
    if (b < 0 || l < 0 || lo[k] + (uint64_t)b + (uint64_t)l > lo[k + 1]) {
      return ic_kfail(c, IC_ERR_SHAPE,
                      "slice %zu (Offset %lld, Length %lld) is not inside sequence %zu of X '%s' "
                      "(%llu rows)", k, (long long)b, (long long)l, k, ic_in_name(c, IN_X, 0),
                      (unsigned long long)(lo[k + 1] - lo[k]));
    }
    total += l;
  }
  *rows = total;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  int64_t rows;
  ic_status st = check(c, &rows);
  if (st) return st;
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)x->ndim);
  d[0] = rows;
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, x->ndim, d)) {
    char e[160];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s%s, the slices of X",
                       ic_dtype_name(x->dtype), ic_dims_str(x->ndim, d, e, sizeof e));
  }
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_tensor_set_meta(dx, x->dtype, x->ndim, x->dims);
  return ic_kset_lod(c, dx, ic_lod_clone(x->lod), true);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *off = ic_in(c, IN_OFFSET, 0),
                  *len = ic_in(c, IN_LENGTH, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int64_t rows;
  ic_status st = check(c, &rows);
  if (st) return st;
  size_t ns;
  const uint64_t *lo = ic_kseq(c, IN_X, 0, 0, &ns);
  if (!lo) return c->err->code;
  const size_t rb = x->dims[0] ? (size_t)(ic_tensor_numel_(x) / x->dims[0]) * ic_dtype_size(x->dtype)
                               : 0;
  memset(dx->data, 0, (size_t)x->dims[0] * rb);
  uint64_t at = 0;
  for (size_t k = 0; k < ns; k++) {
    const uint64_t from = lo[k] + (uint64_t)((const int64_t *)off->data)[k];
    const uint64_t l = (uint64_t)((const int64_t *)len->data)[k];
    if (l) memcpy((char *)dx->data + from * rb, (const char *)g->data + at * rb, l * rb);
    at += l;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER},
                                    {"Offset", IC_SLOT_VALUE},
                                    {"Length", IC_SLOT_VALUE},
                                    {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_sequence_slice_grad = {
    .name = "sequence_slice_grad", .n_inputs = 4, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run, .flags = IC_OP_LOD,
};
