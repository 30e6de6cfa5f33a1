/* where: Out = Condition ? X : Y elementwise. Condition is bool, X and Y share a dtype (any)
 * and all three have the same dims, as WhereInferMeta (paddle/phi/infermeta/ternary.cc)
 * requires: the Python API inserts the broadcasts as separate ops. */
#include <string.h>

#include "kernels/kernel.h"

static const ic_slotdef k_inputs[3] = {{"Condition", 0}, {"X", 0}, {"Y", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT(IC_BOOL));
  if (st) return st;
  const ic_tensor *cond = ic_in(c, 0, 0), *x = ic_in(c, 1, 0), *y = ic_in(c, 2, 0);
  if (!ic_dims_equal(cond->ndim, cond->dims, x->ndim, x->dims)) {
    return ic_kfail_in(c, 1, 0, "expected the dims of Condition '%s'", ic_in_name(c, 0, 0));
  }
  if (y->dtype != x->dtype || !ic_dims_equal(y->ndim, y->dims, x->ndim, x->dims)) {
    return ic_kfail_in(c, 2, 0, "expected the dtype and dims of X '%s'", ic_in_name(c, 1, 0));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status where_cpu(ic_kctx *c) {
  const ic_tensor *cond = ic_in(c, 0, 0), *x = ic_in(c, 1, 0), *y = ic_in(c, 2, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  size_t es = ic_dtype_size(x->dtype);
  const uint8_t *cp = cond->data;
  const char *xp = x->data, *yp = y->data;
  char *op = o->data;
  for (int64_t i = 0; i < n; i++) {
    memcpy(op + (size_t)i * es, (cp[i] ? xp : yp) + (size_t)i * es, es);
  }
  return IC_OK;
}

const ic_opdef ic_op_where_op = { /* ic_op_where is taken (program.h) */
    .name = "where", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .infer = infer, .cpu = where_cpu,
};
