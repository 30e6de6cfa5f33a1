/* broadcast_tensors: each tensor of X broadcast NumPy-style to the common shape of all of
 * them, into the Out of the same position. X and Out hold the same number of tensors, of one
 * dtype: bool, int32, int64, float32, float64
 * (paddle/phi/kernels/impl/broadcast_tensors_kernel_impl.h, BroadcastTensorsInferMeta). */
#include <string.h>

#include "kernels/cpu/nbcast.h"

#define MAX_TENSORS 64

static const ic_slotdef k_inputs[1] = {{"X", IC_SLOT_MULTI}};
static const ic_slotdef k_outputs[1] = {{"Out", IC_SLOT_MULTI}};

static ic_status shape(ic_kctx *c, int *r, int64_t *d) {
  size_t n = c->in[0].n;
  if (n > MAX_TENSORS) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "input X holds %zu tensors, at most %d supported", n,
                    MAX_TENSORS);
  }
  if (c->out[0].n != n) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "output Out holds %zu tensors, expected %zu "
                    "(one per tensor of X)", c->out[0].n, n);
  }
  size_t s[MAX_TENSORS], e[MAX_TENSORS];
  for (size_t i = 0; i < n; i++) {
    ic_status st = ic_kcheck_dtype(c, 0, i, IC_DT_NUM | IC_DT(IC_BOOL));
    if (st) return st;
    if (ic_in(c, 0, i)->dtype != ic_in(c, 0, 0)->dtype) {
      return ic_kfail_in(c, 0, i, "expected the dtype of X '%s'", ic_in_name(c, 0, 0));
    }
    s[i] = 0;
    e[i] = i;
  }
  return ic_nbcast_dims(c, n, s, e, r, d);
}

static ic_status infer(ic_kctx *c) {
  int r = 0;
  int64_t d[IC_MAX_RANK];
  ic_status st = shape(c, &r, d);
  if (st) return st;
  for (size_t i = 0; i < c->out[0].n; i++) {
    ic_tensor_set_meta(ic_out(c, 0, i), ic_in(c, 0, 0)->dtype, r, d);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  for (size_t i = 0; i < c->in[0].n; i++) {
    const ic_tensor *x = ic_in(c, 0, i);
    ic_tensor *o = ic_out(c, 0, i);
    int r = o->ndim;
    int64_t st[1][IC_MAX_RANK], idx[IC_MAX_RANK] = {0}, off[1] = {0};
    ic_nbcast_strides(x, r, o->dims, st[0]);
    int64_t n = ic_numel(r, o->dims);
    size_t es = ic_dtype_size(x->dtype);
    const char *xp = x->data;
    char *op = o->data;
    for (int64_t k = 0; k < n; k++) {
      memcpy(op + (size_t)k * es, xp + (size_t)off[0] * es, es);
      ic_nbcast_next(r, o->dims, idx, 1, st, off);
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_broadcast_tensors = {
    .name = "broadcast_tensors", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
