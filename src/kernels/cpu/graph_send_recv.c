/* graph_send_recv (paddle.geometric.send_u_recv; paddle/phi/kernels/cpu/send_u_recv_kernel.cc,
 * SendURecvInferMeta): Out row Dst_index[e] receives X row Src_index[e] for every edge e,
 * reduced by `reduce_op` SUM, MEAN (the sum over the row's edges divided by their count, in
 * X's dtype: integers truncate), MAX or MIN (the first message, then the max/min); rows no
 * edge reaches are 0. Out is X's dims with dim 0 out_size (the Out_size tensor's first value
 * when given, else the `out_size` attribute's; <= 0: X's dim 0). Dst_count [rows] int32: the
 * edges into each row (Paddle writes it for MEAN only; here always). X float32, float64,
 * int32 or int64; the indices int32 or int64, each in range (Paddle does not check).
 * As Paddle's kernel, no edges (or an empty X) with out_size > 0 gives Out [out_size]. */
#include "kernels/cpu/graph_send.h"

typedef struct gsr_attrs {
  int reduce;
  int64_t out_size;
} gsr_attrs;

enum { IN_X, IN_SRC, IN_DST, IN_SIZE };
static const ic_slotdef k_inputs[4] = {
    {"X", 0}, {"Src_index", 0}, {"Dst_index", 0}, {"Out_size", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[2] = {{"Out", IC_SLOT_DYNAMIC},
                                        {"Dst_count", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gsr_attrs *a = attrs;
  ic_gs_parse_reduce(r, &a->reduce);
  a->out_size = ic_gs_parse_out_size(r);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_NUM);
  if (!st) st = ic_gs_check_index(c, IN_SRC, IN_DST);
  if (!st && ic_in(c, IN_SIZE, 0)) st = ic_kcheck_dtype(c, IN_SIZE, 0, IC_DT_INT);
  if (st) return st;
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  if (ic_in(c, IN_SIZE, 0) && ic_tensor_numel_(ic_in(c, IN_SIZE, 0)) < 1) {
    return ic_kfail_in(c, IN_SIZE, 0, "is empty, expected the output's dim 0");
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  if (ic_out(c, 1, 0)) ic_tensor_set_meta(ic_out(c, 1, 0), IC_INT32, 1, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const gsr_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *sz = ic_in(c, IN_SIZE, 0);
  const int64_t out_size = sz ? ic_read_i64(sz, 0) : a->out_size;
  const int64_t E = ic_in(c, IN_SRC, 0)->dims[0];
  int64_t d[IC_MAX_RANK];
  int nd = x->ndim;
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)nd);
  if (out_size > 0) d[0] = out_size;
  const int64_t rows = d[0];
  if (E == 0 || ic_tensor_numel_(x) == 0) {
    if (out_size > 0) nd = 1;
  }
  ic_status st = ic_kalloc_out(c, 0, 0, x->dtype, nd, d);
  if (!st) st = ic_kalloc_out(c, 1, 0, IC_INT32, 1, &rows);
  if (st) return st;
  ic_tensor *o = ic_out(c, 0, 0), *cnt_t = ic_out(c, 1, 0);
  int64_t len = 1;
  for (int i = 1; i < x->ndim; i++) len *= x->dims[i];
  ic_buffer *sb = ic_kscratch(c, (size_t)(2 * E) * sizeof(int64_t) + (size_t)rows * 5 + 8);
  if (!sb) return c->err->code;
  int64_t *src = sb->data, *dst = src + E;
  int32_t *cnt = (int32_t *)(dst + E);
  uint8_t *seen = (uint8_t *)(cnt + rows);
  if (E == 0 || ic_tensor_numel_(x) == 0) {
    memset(o->data, 0, (size_t)ic_tensor_numel_(o) * ic_dtype_size(x->dtype));
    if (cnt_t) memset(cnt_t->data, 0, (size_t)rows * sizeof(int32_t));
    ic_buffer_release(sb);
    return IC_OK;
  }
  st = ic_gs_read_index(c, IN_SRC, src, x->dims[0], "a row of X");
  if (!st) st = ic_gs_read_index(c, IN_DST, dst, rows, "a row of Out");
  if (!st) {
    ic_gs_recv(x->dtype, x->data, NULL, GS_ADD, src, dst, E, len, 0, len, NULL, NULL,
               a->reduce, o->data, cnt, seen, rows);
    if (cnt_t) memcpy(cnt_t->data, cnt, (size_t)rows * sizeof(int32_t));
  }
  ic_buffer_release(sb);
  return st;
}

const ic_opdef ic_op_graph_send_recv = {
    .name = "graph_send_recv", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .attrs_size = sizeof(gsr_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
