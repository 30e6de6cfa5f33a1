/* accuracy: the fraction of rows whose label is among the row's top-k indices (phi
 * AccuracyKernel, CPU). Indices [N, k] (int32/int64, from top_k / top_k_v2), Label N values;
 * Out (the top-k values) is read for its dims only. Accuracy = Correct / Total (float32, 0 for
 * N = 0), Correct = the rows with a hit, Total = N (int32); all three are 0-D, as
 * AccuracyInferMeta sets them. */
#include "kernels/kernel.h"

enum { IN_OUT, IN_INDICES, IN_LABEL };
enum { OUT_ACC, OUT_CORRECT, OUT_TOTAL };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *idx = ic_in(c, IN_INDICES, 0), *l = ic_in(c, IN_LABEL, 0),
                  *o = ic_in(c, IN_OUT, 0);
  ic_status st = ic_kcheck_dtype(c, IN_INDICES, 0, IC_DT_INT);
  if (st || (st = ic_kcheck_dtype(c, IN_LABEL, 0, IC_DT_INT))) return st;
  if (idx->ndim != 2) return ic_kfail_in(c, IN_INDICES, 0, "expected rank 2 [N, k]");
  if (!ic_dims_equal(o->ndim, o->dims, idx->ndim, idx->dims)) {
    return ic_kfail_in(c, IN_OUT, 0, "expected the dims of Indices");
  }
  if (ic_tensor_numel_(l) != idx->dims[0]) {
    return ic_kfail_in(c, IN_LABEL, 0, "expected %lld labels, one per row of Indices",
                       (long long)idx->dims[0]);
  }
  ic_tensor_set_meta(ic_out(c, OUT_ACC, 0), IC_FP32, 0, NULL);
  if (ic_out(c, OUT_CORRECT, 0)) ic_tensor_set_meta(ic_out(c, OUT_CORRECT, 0), IC_INT32, 0, NULL);
  if (ic_out(c, OUT_TOTAL, 0)) ic_tensor_set_meta(ic_out(c, OUT_TOTAL, 0), IC_INT32, 0, NULL);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *idx = ic_in(c, IN_INDICES, 0), *l = ic_in(c, IN_LABEL, 0);
  const int64_t n = idx->dims[0], k = idx->dims[1];
  int64_t hits = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t lb = ic_read_i64(l, i);
    for (int64_t j = 0; j < k; j++) {
      if (ic_read_i64(idx, i * k + j) == lb) {
        hits++;
        break;
      }
    }
  }
  *(float *)ic_out(c, OUT_ACC, 0)->data = n ? (float)hits / (float)n : 0.0f;
  if (ic_out(c, OUT_CORRECT, 0)) *(int32_t *)ic_out(c, OUT_CORRECT, 0)->data = (int32_t)hits;
  if (ic_out(c, OUT_TOTAL, 0)) *(int32_t *)ic_out(c, OUT_TOTAL, 0)->data = (int32_t)n;
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Out", IC_SLOT_NO_BUFFER}, {"Indices", 0}, {"Label", 0}};
static const ic_slotdef outputs[] = {
    {"Accuracy", 0}, {"Correct", IC_SLOT_OPTIONAL}, {"Total", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_accuracy = {
    .name = "accuracy",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .infer = infer, .cpu = run,
};
