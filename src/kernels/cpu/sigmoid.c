/* sigmoid: Out = 1 / (1 + exp(-X)) (sigmoid_f32 / sigmoid_f64 in activation.h). float32 runs
 * vmath's vectorized form of the same formula (vmath.h: its exponential is within 3 ulp of
 * libm's and gives the same bits at any vector width; the tails differ only below 1e-38):
 * PP-OCRv4's detector ends in a sigmoid over 640 x 640 values, 0.74 ms with expf against
 * 0.06 ms. The blocks of IC_ACT_BLOCK are shared across the kernel's threads as for every
 * activation. */
#include "kernels/cpu/activation.h"
#include "kernels/cpu/vmath.h"

IC_ACTIVATION_RUN(sigmoid, ic_noattrs, sigmoid_f32, sigmoid_f64)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->dtype != IC_FP32) return sigmoid_cpu(c);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_numel(x->ndim, x->dims);
  const int64_t nb = (n + IC_ACT_BLOCK - 1) / IC_ACT_BLOCK;
  const int nt = n >= IC_ACT_PAR_MIN ? ic_omp_threads(c->env) : 1;
  const float *xp = x->data;
  float *op = o->data;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int64_t b = 0; b < nb; b++) {
    const int64_t i = b * IC_ACT_BLOCK, e = n - i < IC_ACT_BLOCK ? n : i + IC_ACT_BLOCK;
    ic_vsigmoidf(op + i, xp + i, e - i);
  }
  return IC_OK;
}

const ic_opdef ic_op_sigmoid = {
    .name = "sigmoid", .n_inputs = 1, .inputs = ic_activation_inputs, .n_outputs = 1,
    .outputs = ic_activation_outputs, .attrs_size = sizeof(ic_noattrs),
    .infer = ic_activation_infer, .cpu = run,
};
