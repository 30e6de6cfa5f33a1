/* Discrete Fourier transforms for the FFT ops (fftutil.h). */
#include "kernels/cpu/fftutil.h"

#include <math.h>
#include <string.h>

ic_status ic_fft_parse(ic_attr_reader *r, void *attrs) {
  ic_fft_attrs *a = attrs;
  const int64_t *ax;
  size_t n = 0;
  ic_ar_ints(r, "axes", true, &ax, &n);
  const char *norm = ic_ar_str(r, "normalization", "backward");
  a->forward = ic_ar_bool(r, "forward", true);
  a->onesided = ic_ar_bool(r, "onesided", true);
  a->last_dim = ic_ar_int(r, "last_dim_size", 0);
  if (r->st) return r->st;
  if (n == 0 || n > IC_FFT_MAX_AXES) {
    return ic_ar_fail(r, "axes", "has %zu values, expected 1 to %d", n, IC_FFT_MAX_AXES);
  }
  a->n_axes = (int)n;
  for (size_t i = 0; i < n; i++) a->axes[i] = ax[i];
  if (!strcmp(norm, "backward") || !norm[0]) {
    a->norm = a->forward ? IC_FFT_NORM_NONE : IC_FFT_NORM_N;
  } else if (!strcmp(norm, "forward")) {
    a->norm = a->forward ? IC_FFT_NORM_N : IC_FFT_NORM_NONE;
  } else if (!strcmp(norm, "ortho")) {
    a->norm = IC_FFT_NORM_SQRT_N;
  } else {
    return ic_ar_fail(r, "normalization", "is \"%s\", expected backward, forward or ortho", norm);
  }
  if (a->last_dim < 0) {
    return ic_ar_fail(r, "last_dim_size", "is %lld, expected >= 0", (long long)a->last_dim);
  }
  return IC_OK;
}

ic_status ic_fft_axes(ic_kctx *c, int rank, int *out) {
  const ic_fft_attrs *a = c->attrs;
  for (int i = 0; i < a->n_axes; i++) {
    int ax = ic_kaxis(c, a->axes[i], rank, "axes");
    if (ax < 0) return c->err->code;
    for (int j = 0; j < i; j++) {
      if (out[j] == ax) return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "attribute 'axes' names axis %d twice", ax);
    }
    out[i] = ax;
  }
  return IC_OK;
}

void ic_fft_c2c_axis(double *z, int ndim, const int64_t *dims, int axis, int sign, double *work) {
  const int64_t n = dims[axis];
  if (n <= 1) return;
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= dims[d];
  for (int d = axis + 1; d < ndim; d++) inner *= dims[d];
  double *tw = work, *line = work + 2 * n;
  for (int64_t k = 0; k < n; k++) { /* e^(sign 2 pi i k / n) */
    const double t = 2.0 * IC_FFT_PI * (double)k / (double)n;
    tw[2 * k] = cos(t);
    tw[2 * k + 1] = sign * sin(t);
  }
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t q = 0; q < inner; q++) {
      double *base = z + 2 * (o * n * inner + q);
      for (int64_t j = 0; j < n; j++) {
        line[2 * j] = base[2 * j * inner];
        line[2 * j + 1] = base[2 * j * inner + 1];
      }
      for (int64_t k = 0; k < n; k++) {
        double re = 0, im = 0;
        int64_t idx = 0;
        for (int64_t j = 0; j < n; j++) {
          const double wr = tw[2 * idx], wi = tw[2 * idx + 1];
          re += line[2 * j] * wr - line[2 * j + 1] * wi;
          im += line[2 * j] * wi + line[2 * j + 1] * wr;
          idx += k;
          if (idx >= n) idx -= n;
        }
        base[2 * k * inner] = re;
        base[2 * k * inner + 1] = im;
      }
    }
  }
}

void ic_fft_load(const ic_tensor *t, double *z) {
  const int64_t n = ic_tensor_numel_(t);
  for (int64_t i = 0; i < n; i++) {
    switch (t->dtype) {
      case IC_FP32: z[2 * i] = ((const float *)t->data)[i], z[2 * i + 1] = 0; break;
      case IC_FP64: z[2 * i] = ((const double *)t->data)[i], z[2 * i + 1] = 0; break;
      case IC_COMPLEX64:
        z[2 * i] = ((const float *)t->data)[2 * i];
        z[2 * i + 1] = ((const float *)t->data)[2 * i + 1];
        break;
      default:
        z[2 * i] = ((const double *)t->data)[2 * i];
        z[2 * i + 1] = ((const double *)t->data)[2 * i + 1];
        break;
    }
  }
}

void ic_fft_store(const double *z, int64_t n, double scale, ic_tensor *out) {
  for (int64_t i = 0; i < 2 * n; i++) {
    if (out->dtype == IC_COMPLEX64) ((float *)out->data)[i] = (float)(z[i] * scale);
    else ((double *)out->data)[i] = z[i] * scale;
  }
}

double ic_fft_scale(ic_fft_norm norm, int64_t numel) {
  if (norm == IC_FFT_NORM_NONE || numel <= 0) return 1.0;
  return norm == IC_FFT_NORM_SQRT_N ? 1.0 / sqrt((double)numel) : 1.0 / (double)numel;
}
