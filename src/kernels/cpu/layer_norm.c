/* layer_norm: X viewed as [left, right] with left = prod(dims[0, begin_norm_axis)) and
 * right = prod(dims[begin_norm_axis, rank)); every row is normalized by its own mean and
 * biased variance, y = (x - mean) / sqrt(var + epsilon) * Scale + Bias, with Scale and Bias
 * (optional, [right]) indexed by the position in the row.
 *
 * Mean and Variance are shaped dims[0, begin_norm_axis), as Paddle 3's LayerNormInferMeta
 * sets them (Paddle 2.x used [left]; the values are the same). Statistics and every element
 * are computed in double and rounded once to X's dtype; fp32 rows are vectorized (vmath.h),
 * their sums taken in eight fixed lanes. */
#include <math.h>

#include "kernels/cpu/layer_norm.h"
#include "kernels/cpu/vmath.h"
#include "kernels/kernel.h"

enum { IN_X, IN_SCALE, IN_BIAS };
enum { OUT_Y, OUT_MEAN, OUT_VAR };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ln_attrs *a = attrs;
  a->begin_norm_axis = ic_ar_int(r, "begin_norm_axis", 1);
  a->epsilon = ic_ar_float(r, "epsilon", (double)1e-5f); /* Paddle's float default */
  if (r->st) return r->st;
  /* Paddle's op maker checks the float value against 0.001f. */
  if (!((float)a->epsilon >= 0.0f && (float)a->epsilon <= 0.001f)) {
    return ic_ar_fail(r, "epsilon", "is %g, expected in [0, 0.001]", a->epsilon);
  }
  return IC_OK;
}

static void split(const ln_attrs *a, const ic_tensor *x, int64_t *left, int64_t *right) {
  *left = ic_numel((int)a->begin_norm_axis, x->dims);
  *right = ic_numel(x->ndim - (int)a->begin_norm_axis, x->dims + a->begin_norm_axis);
}

static ic_status infer(ic_kctx *c) {
  const ln_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  /* Paddle requires 0 < begin_norm_axis < rank (no negative axes). */
  if (a->begin_norm_axis <= 0 || a->begin_norm_axis >= x->ndim) {
    return ic_kfail_in(c, IN_X, 0, "attribute 'begin_norm_axis' is %lld, expected in [1, %d)",
                       (long long)a->begin_norm_axis, x->ndim);
  }
  int64_t left, right;
  split(a, x, &left, &right);
  for (int s = IN_SCALE; s <= IN_BIAS; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (!t) continue;
    if (t->dtype != x->dtype) {
      return ic_kfail_in(c, s, 0, "expected dtype %s like X", ic_dtype_name(x->dtype));
    }
    if (t->ndim != 1 || t->dims[0] != right) {
      return ic_kfail_in(c, s, 0,
                         "expected [%lld]: the size of X's dims from begin_norm_axis %lld on",
                         (long long)right, (long long)a->begin_norm_axis);
    }
  }
  ic_tensor_set_meta(ic_out(c, OUT_Y, 0), x->dtype, x->ndim, x->dims);
  for (int s = OUT_MEAN; s <= OUT_VAR; s++) {
    ic_tensor *t = ic_out(c, s, 0);
    if (t) ic_tensor_set_meta(t, x->dtype, (int)a->begin_norm_axis, x->dims);
  }
  return IC_OK;
}

/* fp64 rows, in plain loops. */
static void norm_f64(const double *x, double *y, double *mean_out, double *var_out,
                     const double *scale, const double *bias, int64_t left, int64_t right,
                     double eps) {
  for (int64_t r = 0; r < left; r++) {
    const double *xp = x + r * right;
    double *yp = y + r * right;
    double m = 0, v = 0;
    for (int64_t i = 0; i < right; i++) m += xp[i];
    m = right ? m / (double)right : 0;
    for (int64_t i = 0; i < right; i++) v += (xp[i] - m) * (xp[i] - m);
    v = right ? v / (double)right : 0;
    double inv = 1.0 / sqrt(v + eps);
    for (int64_t i = 0; i < right; i++) {
      double t = (xp[i] - m) * inv;
      if (scale) t *= scale[i];
      if (bias) t += bias[i];
      yp[i] = t;
    }
    if (mean_out) mean_out[r] = m;
    if (var_out) var_out[r] = v;
  }
}

/* fp32 rows through vmath.h: the same steps, vectorized, the sums in eight fixed lanes (the
 * same bits at any vector width). Rows are independent: shared across the kernel's threads
 * from PAR_MIN elements, the same bits at any thread count. */
#define PAR_MIN 32768

static void norm_f32(const float *x, float *y, float *mean_out, float *var_out,
                     const float *scale, const float *bias, int64_t left, int64_t right,
                     double eps, int nt) {
  const int64_t per = (left + nt - 1) / nt;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int t = 0; t < nt; t++) {
    const int64_t r1 = (t + 1) * per < left ? (t + 1) * per : left;
    for (int64_t r = t * per; r < r1; r++) {
      double m, v;
      ic_vmomentsf(x + r * right, right, &m, &v);
      ic_vnormalizef(y + r * right, x + r * right, right, m, 1.0 / sqrt(v + eps), scale, bias);
      if (mean_out) mean_out[r] = (float)m;
      if (var_out) var_out[r] = (float)v;
    }
  }
}

static void *data_or_null(const ic_tensor *t) { return t ? t->data : NULL; }

static ic_status run(ic_kctx *c) {
  const ln_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  int64_t left, right;
  split(a, x, &left, &right);
  void *y = ic_out(c, OUT_Y, 0)->data, *m = data_or_null(ic_out(c, OUT_MEAN, 0)),
       *v = data_or_null(ic_out(c, OUT_VAR, 0)), *s = data_or_null(ic_in(c, IN_SCALE, 0)),
       *b = data_or_null(ic_in(c, IN_BIAS, 0));
  if (x->dtype == IC_FP64) norm_f64(x->data, y, m, v, s, b, left, right, a->epsilon);
  else {
    const int nt = left > 1 && left * right >= PAR_MIN ? ic_omp_threads(c->env) : 1;
    norm_f32(x->data, y, m, v, s, b, left, right, a->epsilon, nt);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0},
    {"Scale", IC_SLOT_OPTIONAL},
    {"Bias", IC_SLOT_OPTIONAL},
};
static const ic_slotdef outputs[] = {
    {"Y", 0},
    {"Mean", IC_SLOT_OPTIONAL},
    {"Variance", IC_SLOT_OPTIONAL},
};

const ic_opdef ic_op_layer_norm = {
    .name = "layer_norm",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(ln_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
