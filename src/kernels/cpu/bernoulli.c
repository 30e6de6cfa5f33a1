/* bernoulli: Out[i] = 1 with probability X[i], else 0, in X's dtype (float32, float64,
 * float16, bfloat16) and dims (paddle/phi/kernels/cpu/bernoulli_kernel.cc). Every X[i] must
 * be in [0, 1] (Paddle's check; NaN fails it too): the error names X, the element and its
 * value. Element i compares u (24 random bits of word i % 4 of Philox block i / 4, as
 * uniform_random draws) with the probability: 1 when u < X[i], so 0 never and 1 always
 * fire. The key is the executor's (philox.h); Paddle draws from its mt19937_64, so the
 * values differ from Paddle's. */
#include "kernels/cpu/half.h"
#include "kernels/cpu/philox.h"
#include "kernels/kernel.h"

#define DTYPES (IC_DT(IC_FP32) | IC_DT(IC_FP64) | IC_DT(IC_FP16) | IC_DT(IC_BF16))

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, DTYPES);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  for (int64_t i = 0; i < n; i++) {
    const double p = ic_read_f64(x, i);
    if (!(p >= 0 && p <= 1)) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                      "input X '%s': element %lld is %g, expected a probability in [0, 1]",
                      ic_in_name(c, 0, 0), (long long)i, p);
    }
  }
  const uint64_t key = ic_philox_key(0, c->env->seed, c->op_key);
  for (int64_t i = 0; i < n; i += 4) {
    const ic_philox4 r = ic_philox_block(key, (uint64_t)i);
    for (int64_t j = i; j < n && j < i + 4; j++) {
      const bool one = (double)ic_philox_u24(r.v[j - i]) < ic_read_f64(x, j);
      switch (o->dtype) {
        case IC_FP64: ((double *)o->data)[j] = one; break;
        case IC_FP16: ((uint16_t *)o->data)[j] = ic_f32_to_f16(one ? 1.0f : 0.0f); break;
        case IC_BF16: ((uint16_t *)o->data)[j] = ic_f32_to_bf16(one ? 1.0f : 0.0f); break;
        default: ((float *)o->data)[j] = one; break;
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_bernoulli = {
    .name = "bernoulli",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_RANDOM,
};
