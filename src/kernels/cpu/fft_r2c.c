/* fft_r2c (paddle.fft.rfft / rfftn / fft of a real input; phi FFTR2CKernel): the forward DFT of
 * real X (float32 or float64) over `axes`, complex64 or complex128 out. The last of `axes`
 * takes the real transform, kept onesided (n / 2 + 1 values) when onesided (else all n, the
 * Hermitian half filled in); the other axes then take complex transforms, in the order given.
 * normalization: "backward" none, "forward" 1 / n, "ortho" 1 / sqrt(n), n the product of the
 * transformed sizes of X. Sums in double (fftutil.h). */
#include <string.h>

#include "kernels/cpu/fftutil.h"

static ic_status infer(ic_kctx *c) {
  const ic_fft_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT)) return c->err->code;
  int axes[IC_FFT_MAX_AXES];
  if (ic_fft_axes(c, x->ndim, axes)) return c->err->code;
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)x->ndim);
  const int last = axes[a->n_axes - 1];
  if (a->onesided) d[last] = x->dims[last] / 2 + 1;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype == IC_FP64 ? IC_COMPLEX128 : IC_COMPLEX64,
                     x->ndim, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_fft_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  int axes[IC_FFT_MAX_AXES];
  if (ic_fft_axes(c, x->ndim, axes)) return c->err->code;
  const int64_t n = ic_tensor_numel_(x), m = ic_tensor_numel_(out);
  if (!n || !m) return IC_OK;
  const int64_t nw = ic_fft_work_len(x->ndim, x->dims);
  ic_buffer *b = ic_kscratch(c, (size_t)(2 * n + 2 * m + nw) * sizeof(double));
  if (!b) return c->err->code;
  double *z = b->data, *o = z + 2 * n, *work = o + 2 * m;
  ic_fft_load(x, z);
  const int last = axes[a->n_axes - 1];
  ic_fft_c2c_axis(z, x->ndim, x->dims, last, -1, work);
  /* keep the first out->dims[last] values along the last axis */
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < last; d++) outer *= x->dims[d];
  for (int d = last + 1; d < x->ndim; d++) inner *= x->dims[d];
  const int64_t nl = x->dims[last], ml = out->dims[last];
  for (int64_t p = 0; p < outer; p++) {
    memcpy(o + 2 * p * ml * inner, z + 2 * p * nl * inner, (size_t)(2 * ml * inner) * sizeof(double));
  }
  for (int i = a->n_axes - 2; i >= 0; i--) ic_fft_c2c_axis(o, out->ndim, out->dims, axes[i], -1, work);
  int64_t numel = 1;
  for (int i = 0; i < a->n_axes; i++) numel *= x->dims[axes[i]];
  ic_fft_store(o, m, ic_fft_scale(a->norm, numel), out);
  ic_buffer_release(b);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_fft_r2c = {
    .name = "fft_r2c",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_fft_attrs), .parse = ic_fft_parse,
    .infer = infer, .cpu = run,
};
