/* select_output: Out[Mask] = X, Mask a one-element int32 (Paddle's split before the branches
 * of a cond that take one input each); the other outputs are left as they were. The chosen
 * output shares X's buffer. */
#include "kernels/kernel.h"

static ic_status pick(ic_kctx *c, size_t *k) {
  const ic_tensor *m = ic_in(c, 1, 0);
  if (!m->data || ic_tensor_numel_(m) != 1 || (m->dtype != IC_INT32 && m->dtype != IC_INT64)) {
    return ic_kfail_in(c, 1, 0, "expected one int32 element");
  }
  int64_t v = ic_read_i64(m, 0);
  if (v < 0 || (size_t)v >= c->out[0].n) {
    return ic_kfail_in(c, 1, 0, "holds %lld, expected an index into the %zu outputs Out",
                       (long long)v, c->out[0].n);
  }
  *k = (size_t)v;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  size_t k;
  ic_status st = pick(c, &k);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, k), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  size_t k;
  ic_status st = pick(c, &k);
  if (st) return st;
  ic_tensor_share(ic_out(c, 0, k), ic_in(c, 0, 0));
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Mask", IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_MULTI | IC_SLOT_SHARE}};

const ic_opdef ic_op_select_output = {
    .name = "select_output",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
