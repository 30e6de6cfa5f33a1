/* spectral_norm (paddle.nn.SpectralNorm, phi's SpectralNormKernel): Weight (rank 2 to 5)
 * divided by its largest singular value, estimated by power iteration. With dim (0 or 1,
 * Paddle's rule) moved to the front, Weight is the matrix W [h, w], h = dims[dim] and w the
 * product of the others; U [h] and V [w] are the starting vectors (inputs, not updated). Each
 * of power_iters rounds (0 allowed):
 *   v = W^T u / (||W^T u|| + eps),   u = W v / (||W v|| + eps);
 * then sigma = u^T W v and Out = Weight / sigma, same shape. Since Out is an elementwise
 * quotient, only the iteration needs the matrix view: element (o, i, n) of Weight seen as
 * [outer, h, inner] is W[i, o * inner + n]. Computed in double; float32 or float64. */
#include <math.h>
#include <stdlib.h>

#include "kernels/cpu/spectral_norm.h"

enum { IN_WEIGHT, IN_U, IN_V };

ic_status ic_spectral_norm_parse(ic_attr_reader *r, void *attrs) {
  sn_attrs *a = attrs;
  const int64_t dim = ic_ar_int(r, "dim", 0);
  a->iters = ic_ar_int(r, "power_iters", 1);
  a->eps = ic_ar_float(r, "eps", 1e-12);
  if (r->st) return r->st;
  if (dim != 0 && dim != 1) return ic_ar_fail(r, "dim", "is %lld, expected 0 or 1", (long long)dim);
  if (a->iters < 0) {
    return ic_ar_fail(r, "power_iters", "is %lld, expected 0 or more", (long long)a->iters);
  }
  a->dim = (int)dim;
  return IC_OK;
}

ic_status ic_spectral_norm_check(ic_kctx *c) {
  const sn_attrs *a = c->attrs;
  const ic_tensor *w = ic_in(c, IN_WEIGHT, 0), *u = ic_in(c, IN_U, 0), *v = ic_in(c, IN_V, 0);
  if (ic_kcheck_dtype(c, IN_WEIGHT, 0, IC_DT_FLOAT)) return c->err->code;
  if (w->ndim < 2 || w->ndim > 5) {
    return ic_kfail_in(c, IN_WEIGHT, 0, "expected rank 2 to 5 (the weight of fc, conv1d, "
                                        "conv2d or conv3d)");
  }
  const int64_t h = w->dims[a->dim], n = ic_tensor_numel_(w);
  const int64_t wn = h ? n / h : 0;
  if (u->dtype != w->dtype || u->ndim != 1 || u->dims[0] != h) {
    return ic_kfail_in(c, IN_U, 0, "expected %s[%lld] (Weight's dimension %d)",
                       ic_dtype_name(w->dtype), (long long)h, a->dim);
  }
  if (v->dtype != w->dtype || v->ndim != 1 || v->dims[0] != wn) {
    return ic_kfail_in(c, IN_V, 0, "expected %s[%lld] (the product of Weight's other dimensions)",
                       ic_dtype_name(w->dtype), (long long)wn);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_spectral_norm_check(c);
  if (st) return st;
  const ic_tensor *w = ic_in(c, IN_WEIGHT, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), w->dtype, w->ndim, w->dims);
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP64 ? ((const double *)t->data)[i] : ((const float *)t->data)[i];
}

/* y[h] = W x (x[w]) when !trans, y[w] = W^T x (x[h]) when trans; W read from Weight. */
static void matvec(const ic_tensor *wt, int64_t outer, int64_t h, int64_t inner, bool trans,
                   const double *x, double *y) {
  const int64_t wn = outer * inner;
  for (int64_t k = 0; k < (trans ? wn : h); k++) y[k] = 0;
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t i = 0; i < h; i++) {
      for (int64_t q = 0; q < inner; q++) {
        const double e = get(wt, (o * h + i) * inner + q);
        const int64_t col = o * inner + q;
        if (trans) y[col] += e * x[i];
        else y[i] += e * x[col];
      }
    }
  }
}

static void normalize(double *x, int64_t n, double eps) {
  double s = 0;
  for (int64_t i = 0; i < n; i++) s += x[i] * x[i];
  const double d = sqrt(s) + eps;
  for (int64_t i = 0; i < n; i++) x[i] /= d;
}

double ic_spectral_norm_sigma(const sn_attrs *a, const ic_tensor *w, const ic_tensor *ut,
                              const ic_tensor *vt, double *u, double *v) {
  const int64_t h = w->dims[a->dim];
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < a->dim; d++) outer *= w->dims[d];
  for (int d = a->dim + 1; d < w->ndim; d++) inner *= w->dims[d];
  const int64_t wn = outer * inner;
  double *wv = v + wn;
  for (int64_t i = 0; i < h; i++) u[i] = get(ut, i);
  for (int64_t i = 0; i < wn; i++) v[i] = get(vt, i);
  for (int64_t it = 0; it < a->iters; it++) {
    matvec(w, outer, h, inner, true, u, v);
    normalize(v, wn, a->eps);
    matvec(w, outer, h, inner, false, v, u);
    normalize(u, h, a->eps);
  }
  matvec(w, outer, h, inner, false, v, wv);
  double sigma = 0;
  for (int64_t i = 0; i < h; i++) sigma += u[i] * wv[i];
  return sigma;
}

static ic_status run(ic_kctx *c) {
  const sn_attrs *a = c->attrs;
  const ic_tensor *w = ic_in(c, IN_WEIGHT, 0), *ut = ic_in(c, IN_U, 0), *vt = ic_in(c, IN_V, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(w), h = w->dims[a->dim];
  if (!n) return IC_OK;
  const int64_t wn = n / h;
  ic_buffer *s = ic_kscratch(c, (size_t)(2 * h + wn) * sizeof(double));
  if (!s) return c->err->code;
  double *u = s->data, *v = u + h;
  const double sigma = ic_spectral_norm_sigma(a, w, ut, vt, u, v);
  if (w->dtype == IC_FP64) {
    const double *x = w->data;
    double *y = out->data;
    for (int64_t i = 0; i < n; i++) y[i] = x[i] / sigma;
  } else {
    const float *x = w->data;
    float *y = out->data;
    const float sf = (float)sigma;
    for (int64_t i = 0; i < n; i++) y[i] = x[i] / sf;
  }
  ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Weight", 0}, {"U", 0}, {"V", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_spectral_norm = {
    .name = "spectral_norm",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(sn_attrs), .parse = ic_spectral_norm_parse,
    .infer = infer, .cpu = run,
};
