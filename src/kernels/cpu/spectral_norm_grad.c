/* spectral_norm_grad as Paddle computes it (phi SpectralNormGradKernel,
 * impl/spectral_norm_grad_kernel_impl.h). The power iteration is run again from U and V
 * (spectral_norm.c: the same u, v and sigma as the forward); with W [h, w] the matrix view
 * of Weight (dim moved to the front) and S = the sum of all elements of W / sigma,
 *   Weight@GRAD[i, j] = Out@GRAD[i, j] * (1 - u[i] * v[j] * S) / sigma,
 * in Weight's layout. (Paddle's formula, not the exact derivative of Weight / sigma(Weight),
 * whose second term would be u[i] v[j] * sum(Out@GRAD * W) / sigma^2: icore follows Paddle.)
 * Inputs Weight, U, V, Out@GRAD (Weight's dims); spectral_norm's attributes (dim 0 or 1,
 * power_iters, eps). Computed in double; float32, float64. */
#include <string.h>

#include "kernels/cpu/spectral_norm.h"

enum { IN_WEIGHT, IN_U, IN_V, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_spectral_norm_check(c);
  if (st) return st;
  const ic_tensor *w = ic_in(c, IN_WEIGHT, 0), *g = ic_in(c, IN_DOUT, 0);
  if (g->dtype != w->dtype || !ic_dims_equal(g->ndim, g->dims, w->ndim, w->dims)) {
    char d[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s%s, as Weight", ic_dtype_name(w->dtype),
                       ic_dims_str(w->ndim, w->dims, d, sizeof d));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), w->dtype, w->ndim, w->dims);
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP64 ? ((const double *)t->data)[i] : ((const float *)t->data)[i];
}

static ic_status run(ic_kctx *c) {
  const sn_attrs *a = c->attrs;
  const ic_tensor *w = ic_in(c, IN_WEIGHT, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dw = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(w), h = w->dims[a->dim];
  if (!n) return IC_OK;
  const int64_t wn = n / h;
  int64_t inner = 1;
  for (int d = a->dim + 1; d < w->ndim; d++) inner *= w->dims[d];
  ic_buffer *s = ic_kscratch(c, (size_t)(2 * h + wn) * sizeof(double));
  if (!s) return c->err->code;
  double *u = s->data, *v = u + h;
  const double sigma =
      ic_spectral_norm_sigma(a, w, ic_in(c, IN_U, 0), ic_in(c, IN_V, 0), u, v);
  double sum = 0;
  for (int64_t k = 0; k < n; k++) sum += get(w, k) / sigma;
  /* element k of Weight, seen as [outer, h, inner], is W[i, o * inner + q] */
  for (int64_t k = 0; k < n; k++) {
    const int64_t q = k % inner, i = (k / inner) % h, o = k / (inner * h);
    const double r = get(g, k) * (1.0 - u[i] * v[o * inner + q] * sum) / sigma;
    if (dw->dtype == IC_FP64) ((double *)dw->data)[k] = r;
    else ((float *)dw->data)[k] = (float)r;
  }
  ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Weight", 0}, {"U", 0}, {"V", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"Weight@GRAD", 0}};

const ic_opdef ic_op_spectral_norm_grad = {
    .name = "spectral_norm_grad",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(sn_attrs), .parse = ic_spectral_norm_parse,
    .infer = infer, .cpu = run,
};
