/* one_hot (v1, the fluid op Paddle 2.x removed; paddle/fluid/operators/one_hot_op.h): X
 * int32/int64 of rank >= 2 whose last dim is 1 holds class ids; Out is X's dims with that
 * last dim replaced by `depth` (attribute, or the int32 one-element input depth_tensor when
 * given), of `dtype` (default float32), one-hot rows. An id outside [0, depth) is an error
 * unless allow_out_of_range (default false), which leaves its row all 0. Out keeps X's LoD.
 * (one_hot_v2 appends the depth dim instead of replacing a last dim of 1.) */
#include <string.h>

#include "kernels/cpu/onehot.h"

static ic_status infer(ic_kctx *c) {
  const ic_one_hot_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_INT);
  if (st) return st;
  if (x->ndim < 2 || x->dims[x->ndim - 1] != 1) {
    return ic_kfail_in(c, 0, 0, "expected rank >= 2 with a last dim of 1");
  }
  int64_t depth;
  if ((st = ic_one_hot_depth(c, &depth))) return st;
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)x->ndim);
  d[x->ndim - 1] = depth;
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, x->ndim, d);
  return IC_OK;
}

const ic_opdef ic_op_one_hot = {
    .name = "one_hot", .n_inputs = 2, .inputs = ic_one_hot_inputs, .n_outputs = 1,
    .outputs = ic_one_hot_outputs, .attrs_size = sizeof(ic_one_hot_attrs),
    .parse = ic_one_hot_parse, .infer = infer, .cpu = ic_one_hot_run,
};
