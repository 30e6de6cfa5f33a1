/* one_hot (v1, the fluid op Paddle 2.x removed; paddle/fluid/operators/one_hot_op.h): X
 * int32/int64 of rank >= 2 whose last dim is 1 holds class ids; Out is X's dims with that
 * last dim replaced by `depth` (attribute, or the int32 one-element input depth_tensor when
 * given), of `dtype` (default float32), one-hot rows. An id outside [0, depth) is an error
 * unless allow_out_of_range (default false), which leaves its row all 0. Out keeps X's LoD.
 * (one_hot_v2 appends the depth dim instead of replacing a last dim of 1.) */
#include <string.h>

#include "kernels/cpu/fill.h"
#include "kernels/cpu/shapeops.h"

typedef struct one_hot_attrs {
  int64_t depth;
  ic_dtype dtype;
  bool allow;
} one_hot_attrs;

static const ic_slotdef k_inputs[2] = {{"X", 0},
                                       {"depth_tensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  one_hot_attrs *a = attrs;
  a->depth = ic_ar_int(r, "depth", -1);
  ic_fill_parse_dtype(r, "dtype", IC_FP32, ~0ull, &a->dtype);
  a->allow = ic_ar_bool(r, "allow_out_of_range", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const one_hot_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_INT);
  if (st) return st;
  if (x->ndim < 2 || x->dims[x->ndim - 1] != 1) {
    return ic_kfail_in(c, 0, 0, "expected rank >= 2 with a last dim of 1");
  }
  int64_t depth = a->depth;
  if (ic_in(c, 1, 0) && (st = ic_shapeops_read_scalar(c, 1, &depth))) return st;
  if (depth < 1) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "depth %lld (%s) must be at least 1",
                    (long long)depth, ic_in(c, 1, 0) ? "input depth_tensor" : "attribute");
  }
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)x->ndim);
  d[x->ndim - 1] = depth;
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, x->ndim, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const one_hot_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t depth = o->dims[o->ndim - 1], n = ic_tensor_numel_(x);
  for (int64_t i = 0; i < n && !a->allow; i++) {
    const int64_t v = ic_read_i64(x, i);
    if (v < 0 || v >= depth) {
      return ic_kfail_in(c, 0, 0, "holds %lld at position %lld, expected in [0, %lld)",
                         (long long)v, (long long)i, (long long)depth);
    }
  }
  const size_t es = ic_dtype_size(o->dtype);
  memset(o->data, 0, (size_t)(n * depth) * es);
  const ic_fill_scalar one = {true, 1, 1.0};
  char *op = o->data;
  for (int64_t i = 0; i < n; i++) {
    const int64_t v = ic_read_i64(x, i);
    if (v >= 0 && v < depth) ic_fill_store(op + (size_t)(i * depth + v) * es, o->dtype, 1, one);
  }
  return IC_OK;
}

const ic_opdef ic_op_one_hot = {
    .name = "one_hot", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(one_hot_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
