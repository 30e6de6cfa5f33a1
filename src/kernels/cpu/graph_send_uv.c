/* graph_send_uv (paddle.geometric.send_uv; paddle/phi/kernels/cpu/send_uv_kernel.cc,
 * SendUVInferMeta): out row e = x row src_index[e] ADD or MUL (`message_op`) y row
 * dst_index[e], the row shapes (dims after the first) broadcast as numpy's, aligned to the
 * right; out [E, broadcast row dims]. x and y float32, float64, int32 or int64 (one dtype);
 * the indices int32 or int64, each in range (Paddle does not check). */
#include "kernels/cpu/graph_send.h"

typedef struct gsuv_attrs {
  int message;
} gsuv_attrs;

enum { IN_X, IN_Y, IN_SRC, IN_DST };
static const ic_slotdef k_inputs[4] = {
    {"x", 0}, {"y", 0}, {"src_index", 0}, {"dst_index", 0}};
static const ic_slotdef k_outputs[1] = {{"out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gsuv_attrs *a = attrs;
  ic_gs_parse_message(r, &a->message);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_NUM);
  if (!st) st = ic_kcheck_dtype(c, IN_Y, 0, IC_DT(x->dtype));
  if (!st) st = ic_gs_check_index(c, IN_SRC, IN_DST);
  if (st) return st;
  if (x->ndim < 1 || y->ndim < 1) {
    return ic_kfail_in(c, x->ndim < 1 ? IN_X : IN_Y, 0, "expected rank >= 1");
  }
  int nd;
  int64_t d[IC_MAX_RANK];
  if (!ic_gs_bcast_dims(x, y, &nd, d)) {
    return ic_kfail_in(c, IN_Y, 0, "does not broadcast with x '%s' (dims after the first)",
                       ic_in_name(c, IN_X, 0));
  }
  d[0] = ic_in(c, IN_SRC, 0)->dims[0];
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, nd, d);
  return IC_OK;
}

#define UV(T, NAME)                                                                          \
  static void NAME(const T *x, const T *y, int msg, const int64_t *src, const int64_t *dst, \
                   int64_t E, int64_t xl, int64_t yl, int64_t len, const int64_t *l,        \
                   const int64_t *r, T *out) {                                              \
    for (int64_t e = 0; e < E; e++) {                                                       \
      const T *xr = x + src[e] * xl, *yr = y + dst[e] * yl;                                 \
      T *o = out + e * len;                                                                 \
      for (int64_t j = 0; j < len; j++) {                                                   \
        o[j] = msg == GS_MUL ? (T)(xr[l[j]] * yr[r[j]]) : (T)(xr[l[j]] + yr[r[j]]);         \
      }                                                                                     \
    }                                                                                       \
  }
UV(float, uv_f32)
UV(double, uv_f64)
UV(int32_t, uv_i32)
UV(int64_t, uv_i64)

static ic_status run(ic_kctx *c) {
  const gsuv_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t E = o->dims[0];
  int64_t len = 1, xl = 1, yl = 1;
  for (int i = 1; i < o->ndim; i++) len *= o->dims[i];
  for (int i = 1; i < x->ndim; i++) xl *= x->dims[i];
  for (int i = 1; i < y->ndim; i++) yl *= y->dims[i];
  if (E == 0 || len == 0) return IC_OK;
  if (ic_tensor_numel_(x) == 0 || ic_tensor_numel_(y) == 0) {
    memset(o->data, 0, (size_t)ic_tensor_numel_(o) * ic_dtype_size(o->dtype));
    return IC_OK;
  }
  ic_buffer *sb = ic_kscratch(c, (size_t)(2 * E + 2 * len) * sizeof(int64_t));
  if (!sb) return c->err->code;
  int64_t *src = sb->data, *dst = src + E, *l = dst + E, *r = l + len;
  ic_status st = ic_gs_read_index(c, IN_SRC, src, x->dims[0], "a row of x");
  if (!st) st = ic_gs_read_index(c, IN_DST, dst, y->dims[0], "a row of y");
  if (!st) {
    ic_gs_bcast_offsets(x, y, o->ndim, o->dims, l, r);
    switch (x->dtype) {
      case IC_FP32: uv_f32(x->data, y->data, a->message, src, dst, E, xl, yl, len, l, r, o->data); break;
      case IC_FP64: uv_f64(x->data, y->data, a->message, src, dst, E, xl, yl, len, l, r, o->data); break;
      case IC_INT32: uv_i32(x->data, y->data, a->message, src, dst, E, xl, yl, len, l, r, o->data); break;
      default: uv_i64(x->data, y->data, a->message, src, dst, E, xl, yl, len, l, r, o->data); break;
    }
  }
  ic_buffer_release(sb);
  return st;
}

const ic_opdef ic_op_graph_send_uv = {
    .name = "graph_send_uv", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(gsuv_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
