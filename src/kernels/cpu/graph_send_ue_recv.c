/* graph_send_ue_recv (paddle.geometric.send_ue_recv; paddle/phi/kernels/cpu/
 * send_ue_recv_kernel.cc, SendUERecvInferMeta): the message of edge e is X row Src_index[e]
 * ADD or MUL (`message_op`) Y row e (Y [E, ...]; the row shapes broadcast as numpy's, aligned
 * to the right); Out row Dst_index[e] receives it, reduced by `reduce_op` SUM, MEAN (the sum
 * divided by the row's edge count, in X's dtype), MAX or MIN (the first message, then the
 * max/min); rows no edge reaches are 0. Out [out_size, broadcast row dims] (the Out_size
 * tensor's first value when given, else the `out_size` attribute's; <= 0: X's dim 0).
 * Dst_count [rows] int32: edges into each row (Paddle writes it for MEAN only; here
 * always). X and Y float32, float64, int32 or int64 (one dtype); indices int32 or int64,
 * each in range (Paddle does not check). */
#include "kernels/cpu/graph_send.h"

typedef struct gsue_attrs {
  int message, reduce;
  int64_t out_size;
} gsue_attrs;

enum { IN_X, IN_Y, IN_SRC, IN_DST, IN_SIZE };
static const ic_slotdef k_inputs[5] = {{"X", 0},         {"Y", 0},
                                       {"Src_index", 0}, {"Dst_index", 0},
                                       {"Out_size", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[2] = {{"Out", IC_SLOT_DYNAMIC},
                                        {"Dst_count", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gsue_attrs *a = attrs;
  ic_gs_parse_message(r, &a->message);
  ic_gs_parse_reduce(r, &a->reduce);
  a->out_size = ic_gs_parse_out_size(r);
  return r->st;
}

static ic_status out_dims(ic_kctx *c, int *nd, int64_t *d) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  if (!ic_gs_bcast_dims(x, y, nd, d)) {
    return ic_kfail_in(c, IN_Y, 0, "does not broadcast with X '%s' (dims after the first)",
                       ic_in_name(c, IN_X, 0));
  }
  d[0] = x->dims[0];
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_NUM);
  if (!st) st = ic_kcheck_dtype(c, IN_Y, 0, IC_DT(x->dtype));
  if (!st) st = ic_gs_check_index(c, IN_SRC, IN_DST);
  if (!st && ic_in(c, IN_SIZE, 0)) st = ic_kcheck_dtype(c, IN_SIZE, 0, IC_DT_INT);
  if (st) return st;
  if (x->ndim < 1 || y->ndim < 1) {
    return ic_kfail_in(c, x->ndim < 1 ? IN_X : IN_Y, 0, "expected rank >= 1");
  }
  if (y->dims[0] != ic_in(c, IN_SRC, 0)->dims[0]) {
    return ic_kfail_in(c, IN_Y, 0, "expected dim 0 equal to the edge count (%lld)",
                       (long long)ic_in(c, IN_SRC, 0)->dims[0]);
  }
  if (ic_in(c, IN_SIZE, 0) && ic_tensor_numel_(ic_in(c, IN_SIZE, 0)) < 1) {
    return ic_kfail_in(c, IN_SIZE, 0, "is empty, expected the output's dim 0");
  }
  int nd;
  int64_t d[IC_MAX_RANK];
  if ((st = out_dims(c, &nd, d))) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, nd, d);
  if (ic_out(c, 1, 0)) ic_tensor_set_meta(ic_out(c, 1, 0), IC_INT32, 1, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const gsue_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *sz = ic_in(c, IN_SIZE, 0);
  const int64_t out_size = sz ? ic_read_i64(sz, 0) : a->out_size;
  const int64_t E = ic_in(c, IN_SRC, 0)->dims[0];
  int nd;
  int64_t d[IC_MAX_RANK];
  ic_status st = out_dims(c, &nd, d);
  if (st) return st;
  if (out_size > 0) d[0] = out_size;
  const int64_t rows = d[0];
  if (!st) st = ic_kalloc_out(c, 0, 0, x->dtype, nd, d);
  if (!st) st = ic_kalloc_out(c, 1, 0, IC_INT32, 1, &rows);
  if (st) return st;
  ic_tensor *o = ic_out(c, 0, 0), *cnt_t = ic_out(c, 1, 0);
  int64_t len = 1, xl = 1, yl = 1;
  for (int i = 1; i < nd; i++) len *= d[i];
  for (int i = 1; i < x->ndim; i++) xl *= x->dims[i];
  for (int i = 1; i < y->ndim; i++) yl *= y->dims[i];
  ic_buffer *sb = ic_kscratch(c, (size_t)(2 * E + 2 * len) * sizeof(int64_t) +
                                     (size_t)rows * 5 + 8);
  if (!sb) return c->err->code;
  int64_t *src = sb->data, *dst = src + E, *l = dst + E, *r = l + len;
  int32_t *cnt = (int32_t *)(r + len);
  uint8_t *seen = (uint8_t *)(cnt + rows);
  if (E == 0 || ic_tensor_numel_(x) == 0 || ic_tensor_numel_(y) == 0) {
    memset(o->data, 0, (size_t)ic_tensor_numel_(o) * ic_dtype_size(x->dtype));
    if (cnt_t) memset(cnt_t->data, 0, (size_t)rows * sizeof(int32_t));
    ic_buffer_release(sb);
    return IC_OK;
  }
  st = ic_gs_read_index(c, IN_SRC, src, x->dims[0], "a row of X");
  if (!st) st = ic_gs_read_index(c, IN_DST, dst, rows, "a row of Out");
  if (!st) {
    ic_gs_bcast_offsets(x, y, nd, d, l, r);
    ic_gs_recv(x->dtype, x->data, y->data, a->message, src, dst, E, xl, yl, len, l, r,
               a->reduce, o->data, cnt, seen, rows);
    if (cnt_t) memcpy(cnt_t->data, cnt, (size_t)rows * sizeof(int32_t));
  }
  ic_buffer_release(sb);
  return st;
}

const ic_opdef ic_op_graph_send_ue_recv = {
    .name = "graph_send_ue_recv", .n_inputs = 5, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .attrs_size = sizeof(gsue_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
