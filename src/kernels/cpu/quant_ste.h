/* The straight-through estimator of the fake quantize-dequantize ops (Paddle's
 * StraightThroughEstimatorGradKernel, paddle/fluid/operators/fake_quantize_op.h): the
 * rounding is treated as the identity, so X@GRAD = Out@GRAD (a copy; the forward's
 * attributes are accepted and not read). Input Out@GRAD, output X@GRAD; float32, float64.
 * Paddle 3 writes it as <forward op>_grad, Paddle 2.x as stright_throuth_estimator_grad
 * (sic). */
#ifndef IC_KERNELS_CPU_QUANT_STE_H
#define IC_KERNELS_CPU_QUANT_STE_H

#include <string.h>

#include "kernels/kernel.h"

static const ic_slotdef ic_ste_inputs[1] = {{"Out@GRAD", 0}};
static const ic_slotdef ic_ste_outputs[1] = {{"X@GRAD", 0}};

static inline ic_status ic_ste_infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *g = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, g->ndim, g->dims);
  return IC_OK;
}

static inline ic_status ic_ste_cpu(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, 0, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const size_t n = (size_t)ic_tensor_numel_(g) * ic_dtype_size(g->dtype);
  if (n && dx->data != g->data) memcpy(dx->data, g->data, n);
  return IC_OK;
}

#define IC_DEFINE_STE_GRAD(op)                                                    \
  const ic_opdef ic_op_##op = {                                                   \
      .name = #op, .n_inputs = 1, .inputs = ic_ste_inputs, .n_outputs = 1,        \
      .outputs = ic_ste_outputs, .infer = ic_ste_infer, .cpu = ic_ste_cpu,        \
  }

#endif
