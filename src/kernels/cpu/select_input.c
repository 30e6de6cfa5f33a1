/* select_input: Out = X[Mask], Mask a one-element int32 (Paddle's join after the two
 * conditional_blocks of cond: the branch that did not run left its X without data). Out
 * shares the chosen tensor's buffer. */
#include "kernels/kernel.h"

static ic_status pick(ic_kctx *c, const ic_tensor **x) {
  const ic_tensor *m = ic_in(c, 1, 0);
  if (!m->data || ic_tensor_numel_(m) != 1 || (m->dtype != IC_INT32 && m->dtype != IC_INT64)) {
    return ic_kfail_in(c, 1, 0, "expected one int32 element");
  }
  int64_t k = ic_read_i64(m, 0);
  if (k < 0 || (size_t)k >= c->in[0].n) {
    return ic_kfail_in(c, 1, 0, "holds %lld, expected an index into the %zu inputs X",
                       (long long)k, c->in[0].n);
  }
  *x = ic_in(c, 0, (size_t)k);
  if (!(*x)->data) {
    return ic_kfail_in(c, 0, (size_t)k, "was selected but holds no data (its branch did not run)");
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x;
  ic_status st = pick(c, &x);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x;
  ic_status st = pick(c, &x);
  if (st) return st;
  ic_tensor_share(ic_out(c, 0, 0), x);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_MULTI | IC_SLOT_MAYBE_EMPTY},
                                    {"Mask", IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_SHARE}};

const ic_opdef ic_op_select_input = {
    .name = "select_input",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
