/* top_k_v2: Out = the k largest values of X along `axis` (default -1), best first, Indices
 * (int64) = their positions; `largest` false takes the smallest. k is the attribute `k` or
 * the one-element input K when given, in [0, dim] (paddle/phi/kernels/cpu/top_k_kernel.cc,
 * TopKInferMeta). A NaN ranks above every number. As Paddle's FullTopK: std::partial_sort
 * when k * 64 is under the axis' length, else std::nth_element and, when `sorted`, a
 * std::sort of the first k - 1, equal values placed as libstdc++ places them (stdsort.h).
 * float32, float64, int32, int64. The shared engine serves top_k too. */
#include <string.h>

#include "kernels/cpu/shapeops.h"
#include "kernels/cpu/sortutil.h"
#include "kernels/cpu/topk.h"

const ic_slotdef ic_topk_inputs[2] = {{"X", 0}, {"K", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}};
const ic_slotdef ic_topk_outputs[2] = {{"Out", 0}, {"Indices", 0}};

ic_status ic_top_k_v2_parse(ic_attr_reader *r, void *attrs) {
  topk_attrs *a = attrs;
  a->k = ic_ar_int(r, "k", 1);
  a->axis = ic_ar_int(r, "axis", -1);
  a->largest = ic_ar_bool(r, "largest", true);
  a->sorted = ic_ar_bool(r, "sorted", true);
  return r->st;
}

static ic_status plan(ic_kctx *c, int *axis, int64_t *k) {
  const topk_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  *k = a->k;
  if (ic_in(c, 1, 0)) {
    ic_status st = ic_shapeops_read_scalar(c, 1, k);
    if (st) return st;
  }
  *axis = 0;
  int64_t dim = 1;
  if (x->ndim > 0) {
    if ((*axis = ic_shapeops_axis(c, 0, a->axis, x->ndim, "attribute 'axis'")) < 0) {
      return IC_ERR_SHAPE;
    }
    dim = x->dims[*axis];
  }
  if (*k < 0 || *k > dim) {
    return ic_kfail_in(c, 0, 0, "k %lld (%s) must be in [0, %lld]", (long long)*k,
                       ic_in(c, 1, 0) ? "input K" : "attribute", (long long)dim);
  }
  return IC_OK;
}

ic_status ic_topk_infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  int axis;
  int64_t k;
  if (st || (st = plan(c, &axis, &k))) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)x->ndim);
  if (x->ndim > 0) d[axis] = k;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, d);
  ic_tensor_set_meta(ic_out(c, 1, 0), IC_INT64, x->ndim, d);
  return IC_OK;
}

ic_status ic_topk_run(ic_kctx *c) {
  const topk_attrs *a = c->attrs;
  int axis;
  int64_t k;
  ic_status st = plan(c, &axis, &k);
  if (st) return st;
  return ic_sort_take(c, axis, k, a->largest, a->sorted ? IC_SORT_TOPK : IC_SORT_TOPK_NTH);
}

const ic_opdef ic_op_top_k_v2 = {
    .name = "top_k_v2", .n_inputs = 2, .inputs = ic_topk_inputs, .n_outputs = 2,
    .outputs = ic_topk_outputs, .attrs_size = sizeof(topk_attrs),
    .parse = ic_top_k_v2_parse, .infer = ic_topk_infer, .cpu = ic_topk_run,
};
