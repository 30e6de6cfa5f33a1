/* renorm: each slice of X along `axis` (index i of that dim, all other dims) whose p-norm
 * (sum |x|^p)^(1/p) exceeds max_norm is scaled by max_norm / (norm + 1e-7); the others are
 * kept. Norms summed in X's dtype in element order (paddle/phi/kernels/impl/renorm_impl.h).
 * float32, float64. */
#include <math.h>

#include "kernels/kernel.h"

typedef struct renorm_attrs {
  float p, max_norm;
  int64_t axis;
} renorm_attrs;

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  renorm_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "p", 2.0);
  a->axis = ic_ar_int(r, "axis", 0);
  a->max_norm = (float)ic_ar_float(r, "max_norm", 0.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const renorm_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim == 0) return ic_kfail_in(c, 0, 0, "expected at least 1 dim");
  if (ic_kaxis(c, a->axis, x->ndim, "axis") < 0) return c->err->code;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define RENORM(T, POW, FABS)                                                            \
  do {                                                                                  \
    const T *xp = x->data;                                                              \
    T *op = ic_out(c, 0, 0)->data, *nv = buf->data;                                     \
    for (int64_t i = 0; i < len; i++) nv[i] = 0;                                        \
    for (int64_t e = 0; e < n; e++) nv[e / inner % len] += POW(FABS(xp[e]), (T)a->p);   \
    for (int64_t i = 0; i < len; i++) {                                                 \
      T norm = POW(nv[i], (T)1 / (T)a->p);                                              \
      nv[i] = norm > (T)a->max_norm ? (T)a->max_norm / (norm + (T)1e-7) : (T)1;         \
    }                                                                                   \
    for (int64_t e = 0; e < n; e++) op[e] = xp[e] * nv[e / inner % len];                \
  } while (0)

static ic_status run(ic_kctx *c) {
  const renorm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  int ax = (int)(a->axis < 0 ? a->axis + x->ndim : a->axis);
  int64_t n = ic_numel(x->ndim, x->dims), len = x->dims[ax];
  int64_t inner = ic_numel(x->ndim - ax - 1, x->dims + ax + 1);
  if (n == 0) return IC_OK;
  ic_buffer *buf = ic_kscratch(c, (size_t)len * sizeof(double));
  if (!buf) return c->err->code;
  if (x->dtype == IC_FP32) RENORM(float, powf, fabsf);
  else RENORM(double, pow, fabs);
  ic_buffer_release(buf);
  return IC_OK;
}

const ic_opdef ic_op_renorm = {
    .name = "renorm", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(renorm_attrs), .parse = parse, .infer = infer, .cpu = run,
};
