/* gumbel_softmax: Out = softmax((X + G) / temperature) along `axis` (default -1), G standard
 * Gumbel noise -log(-log(u)) per element; with `hard`, the one-hot of that softmax's first
 * maximum along the axis instead (exactly 0 and 1), as paddle/phi/kernels/impl/
 * gumbel_softmax_kernel_impl.h computes the forward. temperature must be > 0; float32 and
 * float64. u is uniform in [1e-5, 1) like Paddle's, but from icore's Philox stream (seeded by
 * the executor): the noise, hence the values, are not Paddle's. */
#include <math.h>

#include "kernels/cpu/randutil.h"
#include "kernels/kernel.h"

typedef struct gumbel_attrs {
  double temperature;
  bool hard;
  int64_t axis;
} gumbel_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gumbel_attrs *a = attrs;
  a->temperature = ic_ar_float(r, "temperature", 1.0);
  a->hard = ic_ar_bool(r, "hard", false);
  a->axis = ic_ar_int(r, "axis", -1);
  if (!r->st && !(a->temperature > 0)) {
    return ic_ar_fail(r, "temperature", "is %g, expected > 0", a->temperature);
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const gumbel_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (ic_kaxis(c, a->axis, x->ndim ? x->ndim : 1, "axis") < 0) return c->err->code;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const gumbel_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int ax = x->ndim ? ic_kaxis(c, a->axis, x->ndim, "axis") : 0;
  int64_t outer = 1, n = x->ndim ? x->dims[ax] : 1, inner = 1;
  for (int d = 0; d < ax; d++) outer *= x->dims[d];
  for (int d = ax + 1; d < x->ndim; d++) inner *= x->dims[d];
  if (!outer || !n || !inner) return IC_OK;
  ic_buffer *buf = ic_kscratch(c, (size_t)n * sizeof(double));
  if (!buf) return c->err->code;
  double *v = buf->data;
  const uint64_t key = ic_philox_key(0, c->env->seed, c->op_key);
  const bool f32 = x->dtype == IC_FP32;
  for (int64_t p = 0; p < outer; p++) {
    for (int64_t q = 0; q < inner; q++) {
      double mx = -INFINITY;
      int64_t arg = 0;
      for (int64_t k = 0; k < n; k++) {
        const int64_t at = (p * n + k) * inner + q;
        ic_rstream s = ic_rstream_at(key, (uint64_t)at);
        const double u = 1e-5 + ic_rstream_u53(&s) * (1.0 - 1e-5);
        const double xv = f32 ? ((const float *)x->data)[at] : ((const double *)x->data)[at];
        v[k] = (xv - log(-log(u))) / a->temperature;
        if (v[k] > mx) mx = v[k], arg = k;
      }
      double sum = 0;
      for (int64_t k = 0; k < n; k++) sum += (v[k] = exp(v[k] - mx));
      for (int64_t k = 0; k < n; k++) {
        const int64_t at = (p * n + k) * inner + q;
        const double y = a->hard ? (k == arg ? 1.0 : 0.0) : v[k] / sum;
        if (f32) ((float *)o->data)[at] = (float)y;
        else ((double *)o->data)[at] = y;
      }
    }
  }
  ic_buffer_release(buf);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_gumbel_softmax = {
    .name = "gumbel_softmax", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(gumbel_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_RANDOM,
};
