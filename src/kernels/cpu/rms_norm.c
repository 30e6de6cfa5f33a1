/* rms_norm (Paddle 2.6's rms_norm op; Paddle 3's pd_op.fused_rms_norm_quant and rms_norm,
 * paddle.incubate.nn.functional.fused_rms_norm): with rows the dims before begin_norm_axis,
 *   h = x (+ bias) (+ residual),  ResidualOut = h when residual is given,
 *   InvVar = 1 / sqrt(mean of h^2 over the row + epsilon),
 *   Out = h * InvVar * norm_weight (+ norm_bias);
 * the mean in double, the rest rounded to X's dtype once. quant_scale > 0 (an int8 Out) is
 * refused. float32, float64. */
#include <math.h>

#include "kernels/cpu/gemm.h"
#include "kernels/kernel.h"

enum { IN_X, IN_BIAS, IN_RES, IN_W, IN_B };
enum { OUT_OUT, OUT_RES, OUT_INV };

typedef struct rms_attrs {
  double eps;
  int64_t axis;
} rms_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  rms_attrs *a = attrs;
  a->eps = (float)ic_ar_float(r, "epsilon", 1e-5); /* Paddle's default */
  a->axis = ic_ar_int(r, "begin_norm_axis", 1);
  const double qs = ic_ar_float(r, "quant_scale", -1.0);
  (void)ic_ar_int(r, "quant_round_type", 0);
  (void)ic_ar_float(r, "quant_max_bound", 0.0);
  (void)ic_ar_float(r, "quant_min_bound", 0.0);
  if (r->st) return r->st;
  if (qs > 0) return ic_gemm_unsupported(r, "quant_scale", "> 0 (an int8-quantized Out)");
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const rms_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  const int ax = ic_kaxis(c, a->axis, x->ndim, "begin_norm_axis");
  if (ax < 0) return c->err->code;
  int64_t rows = 1, cols = 1;
  for (int i = 0; i < x->ndim; i++) *(i < ax ? &rows : &cols) *= x->dims[i];
  char d[128];
  for (size_t s = IN_BIAS; s <= IN_B; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (!t) {
      if (s == IN_W) return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "input norm_weight is absent");
      continue;
    }
    const bool full = s == IN_RES;
    if (t->dtype != x->dtype ||
        (full ? !ic_dims_equal(t->ndim, t->dims, x->ndim, x->dims) : ic_tensor_numel_(t) != cols)) {
      return ic_kfail_in(c, s, 0, full ? "expected %s like X" : "expected %s with %lld elements",
                         full ? ic_tensor_describe(x, d, sizeof d) : ic_dtype_name(x->dtype),
                         (long long)cols);
    }
  }
  ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, x->ndim, x->dims);
  if (ic_out(c, OUT_RES, 0)) ic_tensor_set_meta(ic_out(c, OUT_RES, 0), x->dtype, x->ndim, x->dims);
  if (ic_out(c, OUT_INV, 0)) ic_tensor_set_meta(ic_out(c, OUT_INV, 0), IC_FP32, 1, &rows);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const rms_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *bias = ic_in(c, IN_BIAS, 0), *res = ic_in(c, IN_RES, 0);
  const ic_tensor *w = ic_in(c, IN_W, 0), *b = ic_in(c, IN_B, 0);
  ic_tensor *o = ic_out(c, OUT_OUT, 0), *ro = ic_out(c, OUT_RES, 0), *iv = ic_out(c, OUT_INV, 0);
  const int ax = (int)(a->axis < 0 ? a->axis + x->ndim : a->axis);
  int64_t rows = 1, cols = 1;
  for (int i = 0; i < x->ndim; i++) *(i < ax ? &rows : &cols) *= x->dims[i];
  ic_buffer *sb = ic_kscratch(c, (size_t)(cols + 1) * sizeof(double));
  if (!sb) return c->err->code;
  double *h = sb->data;
  const bool f64 = x->dtype == IC_FP64;
  for (int64_t r = 0; r < rows; r++) {
    double ss = 0;
    for (int64_t j = 0; j < cols; j++) {
      const int64_t k = r * cols + j;
      double v = ic_read_f64(x, k);
      if (bias) v += ic_read_f64(bias, j);
      if (res) v += ic_read_f64(res, k);
      if (!f64) v = (float)v;
      h[j] = v;
      ss += v * v;
      if (ro && res) {
        if (f64) ((double *)ro->data)[k] = v;
        else ((float *)ro->data)[k] = (float)v;
      }
    }
    const double inv = 1.0 / sqrt(ss / (double)cols + a->eps);
    if (iv) ((float *)iv->data)[r] = (float)inv;
    for (int64_t j = 0; j < cols; j++) {
      double v = h[j] * inv * ic_read_f64(w, j);
      if (b) v += ic_read_f64(b, j);
      if (f64) ((double *)o->data)[r * cols + j] = v;
      else ((float *)o->data)[r * cols + j] = (float)v;
    }
  }
  ic_buffer_release(sb);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"x", 0},
                                    {"bias", IC_SLOT_OPTIONAL},
                                    {"residual", IC_SLOT_OPTIONAL},
                                    {"norm_weight", IC_SLOT_OPTIONAL},
                                    {"norm_bias", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {
    {"out", 0}, {"residual_out", IC_SLOT_OPTIONAL}, {"inv_var", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_rms_norm = {
    .name = "rms_norm", .n_inputs = 5, .inputs = inputs, .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(rms_attrs), .parse = parse, .infer = infer, .cpu = run,
};
