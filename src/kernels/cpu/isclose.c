/* isclose: Out (bool, Input's dims) tells where Input and Other are close:
 * |a - b| <= atol + rtol * |b|, computed as Paddle does: the difference in the inputs' dtype,
 * the bound in double then rounded to that dtype, and also true where a == b or where the
 * difference and the bound are within 1e-15 of each other. A NaN on either side: false,
 * or with `equal_nan` true when both are NaN. rtol and atol (defaults 1e-5, 1e-8) come from
 * the one-element float64 tensors Rtol / Atol when given, else from the attributes, which
 * Paddle writes as strings ("1e-05") (paddle/phi/kernels/impl/isclose_kernel_impl.h).
 * Input and Other: float32 or float64, of one dtype and dims. allclose.c: all of it. */
#include <math.h>
#include <stdlib.h>

#include "kernels/cpu/isclose.h"

enum { IN_X, IN_Y, IN_RTOL, IN_ATOL };
const ic_slotdef ic_isclose_inputs[4] = {
    {"Input", 0}, {"Other", 0}, {"Rtol", IC_SLOT_OPTIONAL}, {"Atol", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

/* A tolerance attribute: a string holding a number (as Paddle writes it) or a number. */
static double tol_attr(ic_attr_reader *r, const char *name, double dflt) {
  const ic_attr *at = ic_op_attr(r->op, name);
  if (!at) return dflt;
  if (at->type == IC_ATTR_STRING) {
    const char *s = ic_ar_str(r, name, NULL);
    char *end = NULL;
    double v = s ? strtod(s, &end) : 0;
    if (!s || end == s || *end) {
      ic_ar_fail(r, name, "is \"%s\", expected a number", s ? s : "");
      return dflt;
    }
    return v;
  }
  return ic_ar_float(r, name, dflt);
}

ic_status ic_isclose_parse(ic_attr_reader *r, void *attrs) {
  isclose_attrs *a = attrs;
  a->rtol = tol_attr(r, "rtol", 1e-5);
  a->atol = tol_attr(r, "atol", 1e-8);
  a->equal_nan = ic_ar_bool(r, "equal_nan", false);
  return r->st;
}

ic_status ic_isclose_check(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  if (y->dtype != x->dtype || !ic_dims_equal(x->ndim, x->dims, y->ndim, y->dims)) {
    return ic_kfail_in(c, IN_Y, 0, "expected the dtype and dims of Input '%s'",
                       ic_in_name(c, IN_X, 0));
  }
  for (size_t s = IN_RTOL; s <= IN_ATOL; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t && (t->dtype != IC_FP64 || ic_numel(t->ndim, t->dims) != 1)) {
      return ic_kfail_in(c, s, 0, "expected one float64 value");
    }
  }
  return IC_OK;
}

#define CLOSE(T)                                                                        \
  do {                                                                                  \
    const T *xp = x->data, *yp = y->data;                                               \
    for (int64_t i = 0; i < n; i++) {                                                   \
      const T p = xp[i], q = yp[i];                                                     \
      bool v;                                                                           \
      if (isnan(p) || isnan(q)) {                                                       \
        v = a->equal_nan && isnan(p) && isnan(q);                                       \
      } else {                                                                          \
        T left = p > q ? p - q : q - p;                                                 \
        T right = (T)(atol + (q > 0 ? rtol * q : -rtol * q));                           \
        T diff = left > right ? left - right : right - left;                            \
        v = p == q || left <= right || diff <= 1e-15;                                   \
      }                                                                                 \
      out[i] = v;                                                                       \
    }                                                                                   \
  } while (0)

void ic_isclose_run(ic_kctx *c, uint8_t *out) {
  const isclose_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  const ic_tensor *rt = ic_in(c, IN_RTOL, 0), *at = ic_in(c, IN_ATOL, 0);
  double rtol = rt ? ic_read_f64(rt, 0) : a->rtol, atol = at ? ic_read_f64(at, 0) : a->atol;
  int64_t n = ic_numel(x->ndim, x->dims);
  if (x->dtype == IC_FP32) CLOSE(float);
  else CLOSE(double);
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_isclose_check(c);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_BOOL, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  ic_isclose_run(c, ic_out(c, 0, 0)->data);
  return IC_OK;
}

const ic_opdef ic_op_isclose = {
    .name = "isclose", .n_inputs = 4, .inputs = ic_isclose_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(isclose_attrs), .parse = ic_isclose_parse,
    .infer = infer, .cpu = run,
};
