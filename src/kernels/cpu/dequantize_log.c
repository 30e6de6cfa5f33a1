/* dequantize_log (log-quantized inference models): X int8, Dict float32 of 128 entries,
 * Out float32 of X's dims: Dict[x] for x >= 0, -Dict[x + 128] for x < 0
 * (paddle/phi/kernels/cpu/dequantize_log_kernel.cc). */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *d = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT(IC_INT8));
  if (!st) st = ic_kcheck_dtype(c, 1, 0, IC_DT(IC_FP32));
  if (st) return st;
  /* every int8 value indexes one of the first 128 entries */
  if (ic_tensor_numel_(d) < 128) return ic_kfail_in(c, 1, 0, "expected 128 entries");
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_FP32, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  const float *dict = ic_in(c, 1, 0)->data;
  const int8_t *p = x->data;
  float *o = ic_out(c, 0, 0)->data;
  const int64_t n = ic_tensor_numel_(x);
  for (int64_t i = 0; i < n; i++) o[i] = p[i] < 0 ? -dict[p[i] + 128] : dict[p[i]];
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Dict", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_dequantize_log = {
    .name = "dequantize_log", .n_inputs = 2, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run,
};
