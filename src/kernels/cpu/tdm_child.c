/* tdm_child (PaddleRec TDM): X int32/int64 node ids; TreeInfo int32/int64 [nodes, length],
 * row n = item_id, layer_id, ancestor_id, then child ids. Child and LeafMask, of X's dims plus
 * [child_nums] in `dtype` (2 int32, 3 int64; default int32): for an id that is 0 or whose
 * first child (TreeInfo[id][3]) is 0, zeros; else the child_nums ids TreeInfo[id][3 ..] and
 * whether each child's item_id is nonzero (paddle/phi/kernels/cpu/tdm_child_kernel.cc). */
#include "kernels/kernel.h"

enum { IN_X, IN_TREE };

typedef struct tdmc_attrs {
  int64_t child_nums;
  ic_dtype dtype;
} tdmc_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  tdmc_attrs *a = attrs;
  a->child_nums = ic_ar_int(r, "child_nums", 2);
  const int64_t dt = ic_ar_int(r, "dtype", 2);
  if (r->st) return r->st;
  if (a->child_nums < 1 || a->child_nums > INT32_MAX) {
    return ic_ar_fail(r, "child_nums", "is %lld, expected a positive int",
                      (long long)a->child_nums);
  }
  if (dt != 2 && dt != 3) {
    return ic_ar_fail(r, "dtype", "is %lld, expected 2 (int32) or 3 (int64)", (long long)dt);
  }
  a->dtype = dt == 2 ? IC_INT32 : IC_INT64;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const tdmc_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *t = ic_in(c, IN_TREE, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_INT);
  if (!st) st = ic_kcheck_dtype(c, IN_TREE, 0, IC_DT_INT);
  if (st) return st;
  if (t->ndim != 2 || t->dims[1] < 4) {
    return ic_kfail_in(c, IN_TREE, 0, "expected [nodes, length] with length >= 4");
  }
  if (x->ndim >= IC_MAX_RANK) return ic_kfail_in(c, IN_X, 0, "expected rank below %d", IC_MAX_RANK);
  int64_t d[IC_MAX_RANK];
  for (int i = 0; i < x->ndim; i++) d[i] = x->dims[i];
  d[x->ndim] = a->child_nums;
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, x->ndim + 1, d);
  ic_tensor_set_meta(ic_out(c, 1, 0), a->dtype, x->ndim + 1, d);
  return IC_OK;
}

static void put(ic_tensor *t, int64_t i, int64_t v) {
  if (t->dtype == IC_INT32) ((int32_t *)t->data)[i] = (int32_t)v;
  else ((int64_t *)t->data)[i] = v;
}

static ic_status run(ic_kctx *c) {
  const tdmc_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *t = ic_in(c, IN_TREE, 0);
  ic_tensor *child = ic_out(c, 0, 0), *mask = ic_out(c, 1, 0);
  const int64_t n = ic_tensor_numel_(x), nodes = t->dims[0], len = t->dims[1];
  const int64_t total = nodes * len, K = a->child_nums;
  for (int64_t i = 0; i < n; i++) {
    const int64_t id = ic_read_i64(x, i);
    if (id < 0 || id >= nodes) {
      return ic_kfail_in(c, IN_X, 0, "holds %lld at index %lld, expected a node id 0 to %lld "
                         "(the rows of TreeInfo '%s')", (long long)id, (long long)i,
                         (long long)nodes - 1, ic_in_name(c, IN_TREE, 0));
    }
    const bool has = id != 0 && ic_read_i64(t, id * len + 3) != 0;
    for (int64_t k = 0; k < K; k++) {
      int64_t cid = 0, item = 0;
      if (has) {
        if (id * len + 3 + k >= total) {
          return ic_kfail_in(c, IN_TREE, 0, "has no child %lld of node %lld (child_nums %lld "
                             "past the table)", (long long)k, (long long)id, (long long)K);
        }
        cid = ic_read_i64(t, id * len + 3 + k);
        if (cid < 0 || cid >= nodes) {
          return ic_kfail_in(c, IN_TREE, 0, "gives node %lld the child %lld, expected 0 to %lld",
                             (long long)id, (long long)cid, (long long)nodes - 1);
        }
        item = ic_read_i64(t, cid * len) != 0;
      }
      put(child, i * K + k, cid);
      put(mask, i * K + k, item);
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"TreeInfo", 0}};
static const ic_slotdef outputs[] = {{"Child", 0}, {"LeafMask", 0}};

const ic_opdef ic_op_tdm_child = {
    .name = "tdm_child", .n_inputs = 2, .inputs = inputs, .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(tdmc_attrs), .parse = parse, .infer = infer, .cpu = run,
};
