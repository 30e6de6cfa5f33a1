/* fft_c2r (paddle.fft.irfft / irfftn / hfft; phi FFTC2RKernel): the inverse of fft_r2c. X
 * (complex64 or complex128) holds along the last of `axes` the onesided half of a Hermitian
 * signal of n = last_dim_size values (0: 2 (m - 1) for m given), m = n / 2 + 1; the other
 * axes first take complex transforms (in `forward`'s direction), then the last axis the real
 * one, out[t] = sum over k < n of Z[k] e^(+-2 pi i k t / n) with Z[n - k] = conj(Z[k]) and
 * the imaginary parts of Z[0] and (n even) Z[n / 2] ignored, as pocketfft does. Out is the
 * real dtype; normalization as fft_r2c's with n the product of Out's transformed sizes. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/fftutil.h"

static int64_t out_len(const ic_fft_attrs *a, int64_t m) {
  return a->last_dim > 0 ? a->last_dim : 2 * (m - 1);
}

static ic_status infer(ic_kctx *c) {
  const ic_fft_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (ic_kcheck_dtype(c, 0, 0, IC_DT_COMPLEX)) return c->err->code;
  int axes[IC_FFT_MAX_AXES];
  if (ic_fft_axes(c, x->ndim, axes)) return c->err->code;
  const int last = axes[a->n_axes - 1];
  const int64_t m = x->dims[last], n = out_len(a, m);
  if (n < 1 || n / 2 + 1 != m) {
    return ic_kfail_in(c, 0, 0, "has %lld values along axis %d, expected n / 2 + 1 = %lld for "
                                "an output of n = %lld (last_dim_size %lld)",
                       (long long)m, last, (long long)(n / 2 + 1), (long long)n,
                       (long long)a->last_dim);
  }
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)x->ndim);
  d[last] = n;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype == IC_COMPLEX128 ? IC_FP64 : IC_FP32, x->ndim, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_fft_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  int axes[IC_FFT_MAX_AXES];
  if (ic_fft_axes(c, x->ndim, axes)) return c->err->code;
  const int64_t nx = ic_tensor_numel_(x), no = ic_tensor_numel_(out);
  if (!nx || !no) return IC_OK;
  const int last = axes[a->n_axes - 1];
  const int64_t m = x->dims[last], n = out->dims[last];
  const int64_t nw = ic_fft_work_len(x->ndim, x->dims), np = ic_fft_plan_len(n);
  ic_buffer *b = ic_kscratch(c, (size_t)(2 * nx + 4 * n + np + nw) * sizeof(double));
  if (!b) return c->err->code;
  double *z = b->data, *v = z + 2 * nx, *line = v + 2 * n, *pw = line + 2 * n, *work = pw + np;
  ic_fft_load(x, z);
  const int sign = a->forward ? -1 : 1;
  for (int i = a->n_axes - 2; i >= 0; i--) ic_fft_c2c_axis(z, x->ndim, x->dims, axes[i], sign, work);
  ic_fft_plan plan;
  ic_fft_plan_init(&plan, n, sign, pw);
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < last; d++) outer *= x->dims[d];
  for (int d = last + 1; d < x->ndim; d++) inner *= x->dims[d];
  int64_t numel = 1;
  for (int i = 0; i < a->n_axes; i++) numel *= out->dims[axes[i]];
  const double scale = ic_fft_scale(a->norm, numel);
  const bool f64 = out->dtype == IC_FP64;
  for (int64_t p = 0; p < outer; p++) {
    for (int64_t q = 0; q < inner; q++) {
      const double *zl = z + 2 * (p * m * inner + q);
      /* The Hermitian spectrum of length n from its first n / 2 + 1 values: the real part of
       * its transform is Z[0] + 2 Re(sum over 0 < k < (n + 1) / 2 of Z[k] w^(k t)) + Z[n / 2]
       * (-1)^t, the imaginary parts of Z[0] and Z[n / 2] dropped, as Paddle's c2r does. */
      for (int64_t k = 0; 2 * k <= n; k++) {
        v[2 * k] = zl[2 * k * inner];
        v[2 * k + 1] = zl[2 * k * inner + 1];
        if (k && n - k != k) {
          v[2 * (n - k)] = v[2 * k];
          v[2 * (n - k) + 1] = -v[2 * k + 1];
        }
      }
      ic_fft_exec(&plan, v, 1, line);
      for (int64_t t = 0; t < n; t++) {
        const double s = line[2 * t];
        const int64_t at = (p * n + t) * inner + q;
        if (f64) ((double *)out->data)[at] = s * scale;
        else ((float *)out->data)[at] = (float)(s * scale);
      }
    }
  }
  ic_buffer_release(b);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_fft_c2r = {
    .name = "fft_c2r",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_fft_attrs), .parse = ic_fft_parse,
    .infer = infer, .cpu = run,
};
