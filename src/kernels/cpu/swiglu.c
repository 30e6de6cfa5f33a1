/* swiglu: out = silu(x) * y = y * x / (1 + exp(-x)) (Paddle 3's paddle.incubate.nn.functional
 * .swiglu; paddle/phi/kernels/cpu/swiglu_kernel.cc with SwiGLUFunctor). float32 and float64,
 * each in its own precision (expf / exp). Two forms, as Paddle's:
 *   - y given: x and y of the same dtype and dims, out of those dims;
 *   - y absent: x's last axis (of even size) is split in half, x's first half the gate
 *     input and its second half y: out has x's dims with the last one halved.
 * Legacy slots x, y (optional), out. */
#include <math.h>

#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (y) {
    if (y->dtype != x->dtype) {
      return ic_kfail_in(c, 1, 0, "expected x's dtype %s", ic_dtype_name(x->dtype));
    }
    bool same = x->ndim == y->ndim;
    for (int k = 0; same && k < x->ndim; k++) same = x->dims[k] == y->dims[k];
    if (!same) return ic_kfail_in(c, 1, 0, "expected x's dims");
    ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
    return IC_OK;
  }
  if (x->ndim < 1) return ic_kfail_in(c, 0, 0, "expected rank >= 1 when y is absent");
  if (x->dims[x->ndim - 1] % 2) {
    return ic_kfail_in(c, 0, 0, "expected an even last dimension when y is absent");
  }
  int64_t d[IC_MAX_RANK];
  for (int k = 0; k < x->ndim; k++) d[k] = x->dims[k];
  d[x->ndim - 1] /= 2;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_numel(o->ndim, o->dims);
  /* rows m of width w in out; x's row stride xs and y's start within it */
  const int64_t w = o->ndim ? o->dims[o->ndim - 1] : 1;
  const int64_t m = w ? n / w : 0;
  const int64_t xs = y ? w : 2 * w;
  const int nt = n >= 65536 ? ic_omp_threads(c->env) : 1;
  if (x->dtype == IC_FP32) {
    const float *xp = x->data, *yp = y ? (const float *)y->data : xp + w;
    float *op = o->data;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t i = 0; i < m; i++) {
      for (int64_t j = 0; j < w; j++) {
        const float a = xp[i * xs + j], b = yp[i * xs + j];
        op[i * w + j] = b * a / (1.0f + expf(-a));
      }
    }
  } else {
    const double *xp = x->data, *yp = y ? (const double *)y->data : xp + w;
    double *op = o->data;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t i = 0; i < m; i++) {
      for (int64_t j = 0; j < w; j++) {
        const double a = xp[i * xs + j], b = yp[i * xs + j];
        op[i * w + j] = b * a / (1.0 + exp(-a));
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"x", 0}, {"y", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"out", 0}};

const ic_opdef ic_op_swiglu = {
    .name = "swiglu", .n_inputs = 2, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
