/* dist_grad: with z = X - Y broadcast (numpy rules) and Out = ||z||_p (one element),
 * the gradient of z is 0 for p = 0; (|z| == Out) sign(z) Out@GRAD for p = +-inf (every
 * element at the extreme takes it); pow(|z| / (Out + 1e-10), p - 1) sign(z) Out@GRAD
 * otherwise (phi DistGradKernel, in the data's type with 1e-10 rounded to float first).
 * X@GRAD is that summed over the dims X was broadcast along, Y@GRAD minus the same for Y
 * (sums in double). Inputs X, Y, Out, Out@GRAD; outputs X@GRAD, Y@GRAD, each optional;
 * attribute p (float, default 2); float32 and float64. */
#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_Y, IN_OUT, IN_G };
static const ic_slotdef k_inputs[4] = {{"X", 0}, {"Y", 0}, {"Out", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[2] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                        {"Y@GRAD", IC_SLOT_OPTIONAL}};

typedef struct distg_attrs {
  float p;
} distg_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  distg_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "p", 2.0);
  return r->st;
}

/* The broadcast dims of x and y (numpy rules) into od; false if they do not broadcast. */
static bool bdims(const ic_tensor *x, const ic_tensor *y, int *n, int64_t *od) {
  *n = x->ndim > y->ndim ? x->ndim : y->ndim;
  for (int d = 0; d < *n; d++) {
    const int dx = d - (*n - x->ndim), dy = d - (*n - y->ndim);
    const int64_t a = dx >= 0 ? x->dims[dx] : 1, b = dy >= 0 ? y->dims[dy] : 1;
    if (a != b && a != 1 && b != 1) return false;
    od[d] = a == 1 ? b : a;
  }
  return true;
}

/* Strides of t read at each index of od (rank n), right-aligned, 0 where t's dim is 1. */
static void bstrides(int n, const int64_t *od, const ic_tensor *t, int64_t *st) {
  int64_t s = 1;
  for (int d = n - 1; d >= 0; d--) {
    const int td = d - (n - t->ndim);
    const int64_t sz = td >= 0 ? t->dims[td] : 1;
    st[d] = sz == 1 && od[d] != 1 ? 0 : s;
    s *= sz;
  }
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  int n;
  int64_t od[IC_MAX_RANK];
  if (y->dtype != x->dtype || !bdims(x, y, &n, od)) {
    char d[128];
    return ic_kfail_in(c, IN_Y, 0, "expected %s broadcasting with X %s",
                       ic_dtype_name(x->dtype), ic_tensor_describe(x, d, sizeof d));
  }
  for (size_t s = IN_OUT; s <= IN_G; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != x->dtype || ic_tensor_numel_(t) != 1) {
      return ic_kfail_in(c, s, 0, "expected one %s element", ic_dtype_name(x->dtype));
    }
  }
  for (size_t s = 0; s < 2; s++) {
    ic_tensor *o = ic_out(c, s, 0);
    const ic_tensor *t = ic_in(c, s, 0);
    if (o) ic_tensor_set_meta(o, x->dtype, t->ndim, t->dims);
  }
  return IC_OK;
}

#define DIST_GRAD(T, FABS, POW)                                                            \
  do {                                                                                     \
    const T *xp = x->data, *yp = y->data;                                                  \
    const T ov = *(const T *)out->data, gv = *(const T *)g->data;                          \
    const T p = (T)a->p, den = ov + (T)1.0e-10f;                                           \
    int64_t idx[IC_MAX_RANK] = {0}, ox = 0, oy = 0;                                        \
    for (int64_t i = 0; i < total; i++) {                                                  \
      const T z = xp[ox] - yp[oy], az = FABS(z);                                           \
      const T sg = (T)(z > 0) * (T)1.0 + (T)(z < 0) * (T)-1.0;                             \
      T v;                                                                                 \
      if (a->p == 0) v = 0;                                                                \
      else if (isinf(a->p)) v = (T)(az == ov) * sg * gv;                                   \
      else v = POW(az / den, p - 1) * sg * gv;                                             \
      if (ax) ax[ox] += (double)v;                                                         \
      if (ay) ay[oy] -= (double)v;                                                         \
      for (int d = n - 1; d >= 0; d--) {                                                   \
        ox += sx[d], oy += sy[d];                                                          \
        if (++idx[d] < od[d]) break;                                                       \
        ox -= sx[d] * od[d], oy -= sy[d] * od[d];                                          \
        idx[d] = 0;                                                                        \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const distg_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  const ic_tensor *out = ic_in(c, IN_OUT, 0), *g = ic_in(c, IN_G, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  int n;
  int64_t od[IC_MAX_RANK], sx[IC_MAX_RANK], sy[IC_MAX_RANK];
  bdims(x, y, &n, od);
  bstrides(n, od, x, sx);
  bstrides(n, od, y, sy);
  const int64_t total = ic_numel(n, od), nx = ic_tensor_numel_(x), ny = ic_tensor_numel_(y);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + ny + 1) * sizeof(double));
  if (!s) return c->err->code;
  memset(s->data, 0, (size_t)(nx + ny + 1) * sizeof(double));
  double *ax = dx ? (double *)s->data : NULL, *ay = dy ? (double *)s->data + nx : NULL;
  if (x->dtype == IC_FP32) DIST_GRAD(float, fabsf, powf);
  else DIST_GRAD(double, fabs, pow);
  if (dx) ic_store_acc(dx, ax);
  if (dy) ic_store_acc(dy, ay);
  ic_buffer_release(s);
  return IC_OK;
}

const ic_opdef ic_op_dist_grad = {
    .name = "dist_grad", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .attrs_size = sizeof(distg_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
