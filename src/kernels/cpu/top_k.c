/* top_k: top_k_v2 (see top_k_v2.c) on the last axis, largest first and sorted: Out = the k
 * largest values of X's last dim, Indices (int64) their positions; k is the attribute `k`
 * (default 1) or the one-element input K when given. */
#include "kernels/cpu/topk.h"

ic_status ic_top_k_parse(ic_attr_reader *r, void *attrs) {
  topk_attrs *a = attrs;
  a->k = ic_ar_int(r, "k", 1);
  a->axis = -1;
  a->largest = true;
  a->sorted = true;
  return r->st;
}

const ic_opdef ic_op_top_k = {
    .name = "top_k", .n_inputs = 2, .inputs = ic_topk_inputs, .n_outputs = 2,
    .outputs = ic_topk_outputs, .attrs_size = sizeof(topk_attrs),
    .parse = ic_top_k_parse, .infer = ic_topk_infer, .cpu = ic_topk_run,
};
