/* one_hot_v2: Out = X's int32/int64 class ids as one-hot rows: Out's dims are X's plus a last
 * dim of `depth` (attribute, or the one-element input depth_tensor when given), of `dtype`
 * (default float32). An id outside [0, depth) is an error unless allow_out_of_range (default
 * false), which leaves its row all 0, as the attribute documents and Paddle 2.x does; Paddle
 * 3.3's kernel (paddle/phi/kernels/legacy/cpu/one_hot_kernel.cc) raises for such an id
 * whatever the attribute says. */
#include <string.h>

#include "kernels/cpu/onehot.h"

#include "kernels/cpu/fill.h"
#include "kernels/cpu/shapeops.h"

const ic_slotdef ic_one_hot_inputs[2] = {{"X", 0},
                                         {"depth_tensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}};
const ic_slotdef ic_one_hot_outputs[1] = {{"Out", 0}};

ic_status ic_one_hot_parse(ic_attr_reader *r, void *attrs) {
  ic_one_hot_attrs *a = attrs;
  a->depth = ic_ar_int(r, "depth", -1);
  ic_fill_parse_dtype(r, "dtype", IC_FP32, IC_DT_ANY, &a->dtype);
  a->allow = ic_ar_bool(r, "allow_out_of_range", false);
  return r->st;
}

ic_status ic_one_hot_depth(ic_kctx *c, int64_t *depth) {
  const ic_one_hot_attrs *a = c->attrs;
  *depth = a->depth;
  if (ic_in(c, 1, 0)) {
    ic_status st = ic_shapeops_read_scalar(c, 1, depth);
    if (st) return st;
  }
  if (*depth < 1) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "depth %lld (%s) must be at least 1",
                    (long long)*depth, ic_in(c, 1, 0) ? "input depth_tensor" : "attribute");
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  int64_t depth;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_INT);
  if (st || (st = ic_one_hot_depth(c, &depth))) return st;
  const ic_one_hot_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim + 1 > IC_MAX_RANK) return ic_kfail_in(c, 0, 0, "one-hot exceeds the rank limit");
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)x->ndim);
  d[x->ndim] = depth;
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, x->ndim + 1, d);
  return IC_OK;
}

ic_status ic_one_hot_run(ic_kctx *c) {
  const ic_one_hot_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t depth = o->dims[o->ndim - 1], n = ic_numel(x->ndim, x->dims);
  for (int64_t i = 0; i < n && !a->allow; i++) {
    int64_t v = ic_read_i64(x, i);
    if (v < 0 || v >= depth) {
      return ic_kfail_in(c, 0, 0, "holds %lld at position %lld, expected in [0, %lld)",
                         (long long)v, (long long)i, (long long)depth);
    }
  }
  size_t es = ic_dtype_size(o->dtype);
  memset(o->data, 0, (size_t)(n * depth) * es);
  ic_fill_scalar one = {true, 1, 1.0};
  char *op = o->data;
  for (int64_t i = 0; i < n; i++) {
    int64_t v = ic_read_i64(x, i);
    if (v >= 0 && v < depth) ic_fill_store(op + (size_t)(i * depth + v) * es, o->dtype, 1, one);
  }
  return IC_OK;
}

const ic_opdef ic_op_one_hot_v2 = {
    .name = "one_hot_v2", .n_inputs = 2, .inputs = ic_one_hot_inputs, .n_outputs = 1,
    .outputs = ic_one_hot_outputs, .attrs_size = sizeof(ic_one_hot_attrs),
    .parse = ic_one_hot_parse, .infer = infer, .cpu = ic_one_hot_run,
};
