/* index_sample: for X [B, N] and Index [B, K] (int32 or int64, each value in [0, N)),
 * Out [B, K] with Out[b][k] = X[b][Index[b][k]]. X of any dtype
 * (paddle/phi/kernels/cpu/index_sample_kernel.cc, IndexSampleInferMeta). */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_INDEX };
static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Index", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *ix = ic_in(c, IN_INDEX, 0);
  ic_status st = ic_kcheck_dtype(c, IN_INDEX, 0, IC_DT_INT);
  if (st) return st;
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 ([batch, values])");
  if (ix->ndim != 2) return ic_kfail_in(c, IN_INDEX, 0, "expected rank 2 ([batch, indices])");
  if (ix->dims[0] != x->dims[0]) {
    return ic_kfail_in(c, IN_INDEX, 0, "expected dim 0 equal to dim 0 of X '%s' (%lld, the batch)",
                       ic_in_name(c, IN_X, 0), (long long)x->dims[0]);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 2, ix->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *ix = ic_in(c, IN_INDEX, 0);
  const int64_t B = ix->dims[0], K = ix->dims[1], N = x->dims[1];
  const size_t es = ic_dtype_size(x->dtype);
  const char *src = x->data;
  char *dst = ic_out(c, 0, 0)->data;
  for (int64_t b = 0; b < B; b++) {
    for (int64_t k = 0; k < K; k++) {
      const int64_t i = ic_read_i64(ix, b * K + k);
      if (i < 0 || i >= N) {
        return ic_kfail_in(c, IN_INDEX, 0, "holds %lld at [%lld, %lld], expected in [0, %lld)",
                           (long long)i, (long long)b, (long long)k, (long long)N);
      }
      memcpy(dst + (size_t)(b * K + k) * es, src + (size_t)(b * N + i) * es, es);
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_index_sample = {
    .name = "index_sample", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
