/* layer_norm_grad: the gradients of layer_norm (phi LayerNormGradKernel). With X viewed as
 * rows of `right` elements (begin_norm_axis as the forward op), the forward's per-row Mean and
 * Variance, inv = 1 / sqrt(Variance + epsilon), xhat = (x - Mean) inv and dxhat = dy Scale:
 *   Bias@GRAD  = sum over rows of dy,     Scale@GRAD = sum over rows of dy xhat,
 *   X@GRAD     = inv (dxhat - mean(dxhat) - xhat mean(dxhat xhat))   (means along the row).
 * Every output is optional; sums run in double. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/layer_norm.h"
#include "kernels/kernel.h"

enum { IN_X, IN_SCALE, IN_BIAS, IN_MEAN, IN_VAR, IN_DY };
enum { OUT_DX, OUT_DSCALE, OUT_DBIAS };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ln_attrs *a = attrs;
  a->begin_norm_axis = ic_ar_int(r, "begin_norm_axis", 1);
  a->epsilon = ic_ar_float(r, "epsilon", (double)1e-5f);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ln_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *dy = ic_in(c, IN_DY, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  if (a->begin_norm_axis <= 0 || a->begin_norm_axis >= x->ndim) {
    return ic_kfail_in(c, IN_X, 0, "attribute 'begin_norm_axis' is %lld, expected in [1, %d)",
                       (long long)a->begin_norm_axis, x->ndim);
  }
  int64_t left = ic_numel((int)a->begin_norm_axis, x->dims);
  int64_t right = ic_numel(x->ndim - (int)a->begin_norm_axis, x->dims + a->begin_norm_axis);
  if (dy->dtype != x->dtype || !ic_dims_equal(dy->ndim, dy->dims, x->ndim, x->dims)) {
    char d[128];
    return ic_kfail_in(c, IN_DY, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
  }
  for (int s = IN_SCALE; s <= IN_VAR; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (!t) continue;
    int64_t want = s <= IN_BIAS ? right : left;
    if (t->dtype != x->dtype || ic_tensor_numel_(t) != want) {
      return ic_kfail_in(c, s, 0, "expected %s with %lld elements", ic_dtype_name(x->dtype),
                         (long long)want);
    }
  }
  if (ic_out(c, OUT_DX, 0)) ic_tensor_set_meta(ic_out(c, OUT_DX, 0), x->dtype, x->ndim, x->dims);
  for (int s = OUT_DSCALE; s <= OUT_DBIAS; s++) {
    ic_tensor *t = ic_out(c, s, 0);
    if (!t) continue;
    if (!ic_in(c, s == OUT_DSCALE ? IN_SCALE : IN_BIAS, 0)) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "output %s@GRAD needs input %s",
                      s == OUT_DSCALE ? "Scale" : "Bias", s == OUT_DSCALE ? "Scale" : "Bias");
    }
    ic_tensor_set_meta(t, x->dtype, 1, &right);
  }
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}
static void put(ic_tensor *t, int64_t i, double v) {
  if (t->dtype == IC_FP32) ((float *)t->data)[i] = (float)v;
  else ((double *)t->data)[i] = v;
}

static ic_status run(ic_kctx *c) {
  const ln_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *scale = ic_in(c, IN_SCALE, 0),
                  *mean = ic_in(c, IN_MEAN, 0), *var = ic_in(c, IN_VAR, 0),
                  *dy = ic_in(c, IN_DY, 0);
  ic_tensor *dx = ic_out(c, OUT_DX, 0), *ds = ic_out(c, OUT_DSCALE, 0),
            *db = ic_out(c, OUT_DBIAS, 0);
  int64_t left = ic_numel((int)a->begin_norm_axis, x->dims);
  int64_t right = ic_numel(x->ndim - (int)a->begin_norm_axis, x->dims + a->begin_norm_axis);
  ic_buffer *s = ic_kscratch(c, (size_t)(2 * right + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *acc_s = s->data, *acc_b = acc_s + right;
  memset(acc_s, 0, (size_t)(2 * right) * sizeof(double));
  for (int64_t i = 0; i < left; i++) {
    double mu = get(mean, i), inv = 1.0 / sqrt(get(var, i) + a->epsilon);
    double m1 = 0, m2 = 0;
    for (int64_t j = 0; j < right; j++) {
      int64_t e = i * right + j;
      double g = get(dy, e), xh = (get(x, e) - mu) * inv;
      double dxh = g * (scale ? get(scale, j) : 1.0);
      acc_s[j] += g * xh;
      acc_b[j] += g;
      m1 += dxh;
      m2 += dxh * xh;
    }
    m1 /= (double)right;
    m2 /= (double)right;
    if (!dx) continue;
    for (int64_t j = 0; j < right; j++) {
      int64_t e = i * right + j;
      double xh = (get(x, e) - mu) * inv;
      double dxh = get(dy, e) * (scale ? get(scale, j) : 1.0);
      put(dx, e, inv * (dxh - m1 - xh * m2));
    }
  }
  for (int64_t j = 0; j < right; j++) {
    if (ds) put(ds, j, acc_s[j]);
    if (db) put(db, j, acc_b[j]);
  }
  ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0},
    {"Scale", IC_SLOT_OPTIONAL},
    {"Bias", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
    {"Mean", 0},
    {"Variance", 0},
    {"Y@GRAD", 0},
};
static const ic_slotdef outputs[] = {
    {"X@GRAD", IC_SLOT_OPTIONAL},
    {"Scale@GRAD", IC_SLOT_OPTIONAL},
    {"Bias@GRAD", IC_SLOT_OPTIONAL},
};

const ic_opdef ic_op_layer_norm_grad = {
    .name = "layer_norm_grad",
    .n_inputs = 6, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(ln_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
