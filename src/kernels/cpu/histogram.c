/* histogram: Out[b] counts the elements of X in bin b of `bins` equal bins over [min, max]
 * (the attributes, cast to X's dtype; both equal: X's own smallest and largest value; still
 * equal: widened by 1 each way); bin = (x - min) * bins / (max - min) in X's dtype (integer
 * division for integers), the last bin closed. Out is int64 counts, or float32 with Weight
 * (X's dtype and dims: the weights summed) or `density` (divided by the total and the bin
 * width). float32, float64, int32, int64 (paddle/phi/kernels/cpu/histogram_kernel.cc). */
#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

typedef struct histogram_attrs {
  int64_t bins;
  float min, max;
  bool density;
} histogram_attrs;

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Weight", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  histogram_attrs *a = attrs;
  a->bins = ic_ar_int(r, "bins", 100);
  a->min = (float)ic_ar_float(r, "min", 0.0);
  a->max = (float)ic_ar_float(r, "max", 0.0);
  a->density = ic_ar_bool(r, "density", false);
  if (r->st == IC_OK && a->bins < 1) {
    ic_ar_fail(r, "bins", "is %lld, expected at least 1", (long long)a->bins);
  }
  if (r->st == IC_OK && !(a->max >= a->min)) {
    ic_ar_fail(r, "max", "is %g, below min (%g)", (double)a->max, (double)a->min);
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const histogram_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *w = ic_in(c, 1, 0);
  if (w && (w->dtype != x->dtype || !ic_dims_equal(w->ndim, w->dims, x->ndim, x->dims))) {
    return ic_kfail_in(c, 1, 0, "expected the dtype and dims of X '%s'", ic_in_name(c, 0, 0));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), w || a->density ? IC_FP32 : IC_INT64, 1, &a->bins);
  return IC_OK;
}

/* T: X's type; W: the type of (x - min) * bins (int64 for integers, T for floats). */
#define HIST(T, W)                                                                           \
  do {                                                                                       \
    const T *xp = x->data, *wp = w ? w->data : NULL;                                         \
    T mn = (T)a->min, mx = (T)a->max;                                                        \
    if (mn == mx && n > 0) {                                                                 \
      mn = mx = xp[0];                                                                       \
      for (int64_t i = 1; i < n; i++) {                                                      \
        if (xp[i] < mn) mn = xp[i];                                                          \
        if (mx < xp[i]) mx = xp[i];                                                          \
      }                                                                                      \
    }                                                                                        \
    if (mn == mx) {                                                                          \
      mn = (T)(mn - 1);                                                                      \
      mx = (T)(mx + 1);                                                                      \
    }                                                                                        \
    if (isinf((double)mn) || isinf((double)mx) || isnan((double)mn) || isnan((double)mx)) {  \
      return ic_kfail_in(c, 0, 0, "gives a range [%g, %g] that is not finite", (double)mn,   \
                         (double)mx);                                                        \
    }                                                                                        \
    width = (float)(mx - mn);                                                                \
    for (int64_t i = 0; i < n; i++) {                                                        \
      if (xp[i] >= mn && xp[i] <= mx) {                                                      \
        int64_t b = (int64_t)((W)(xp[i] - mn) * (W)nb / (W)(mx - mn));                       \
        if (b > nb - 1) b = nb - 1;                                                          \
        if (fo) fo[b] += wp ? (float)wp[i] : 1.0f;                                           \
        else io[b] += 1;                                                                     \
      }                                                                                      \
    }                                                                                        \
  } while (0)

static ic_status run(ic_kctx *c) {
  const histogram_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *w = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims), nb = a->bins;
  float *fo = o->dtype == IC_FP32 ? o->data : NULL;
  int64_t *io = fo ? NULL : o->data;
  memset(o->data, 0, (size_t)nb * ic_dtype_size(o->dtype));
  float width;
  switch (x->dtype) {
    case IC_FP32: HIST(float, float); break;
    case IC_FP64: HIST(double, double); break;
    case IC_INT32: HIST(int32_t, int64_t); break;
    default: HIST(int64_t, int64_t); break;
  }
  if (a->density) {
    float sum = 0;
    for (int64_t b = 0; b < nb; b++) sum += fo[b];
    float gap = (float)nb / width / sum;
    for (int64_t b = 0; b < nb; b++) fo[b] *= gap;
  }
  return IC_OK;
}

const ic_opdef ic_op_histogram = {
    .name = "histogram", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(histogram_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
