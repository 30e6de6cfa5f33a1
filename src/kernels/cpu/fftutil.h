/* The discrete Fourier transforms of fft_r2c, fft_c2c and fft_c2r (fftutil.c). Paddle runs
 * pocketfft; icore evaluates each 1-D transform as the DFT sum in double (a table of the
 * n-th roots of unity, O(n^2) per line) and rounds the results once to the output dtype. */
#ifndef IC_KERNELS_CPU_FFTUTIL_H
#define IC_KERNELS_CPU_FFTUTIL_H

#include <stdbool.h>

#include "kernels/kernel.h"

#define IC_FFT_MAX_AXES IC_MAX_RANK
#define IC_FFT_PI 3.14159265358979323846

typedef enum ic_fft_norm { IC_FFT_NORM_NONE, IC_FFT_NORM_N, IC_FFT_NORM_SQRT_N } ic_fft_norm;

typedef struct ic_fft_attrs {
  int64_t axes[IC_FFT_MAX_AXES];
  int n_axes;
  bool forward;
  ic_fft_norm norm;    /* from `normalization` and `forward`, as Paddle's get_norm_from_string */
  bool onesided;       /* fft_r2c */
  int64_t last_dim;    /* fft_c2r's last_dim_size (0: 2 (m - 1)) */
} ic_fft_attrs;

/* The attributes of the three ops (axes, normalization, forward, onesided, last_dim_size). */
ic_status ic_fft_parse(ic_attr_reader *r, void *attrs);
/* Normalize the axes against rank (negative counted from the end; each once), failing the
 * context naming input 0. out receives them in the attribute's order. */
ic_status ic_fft_axes(ic_kctx *c, int rank, int *out);

/* In place, the 1-D DFT along `axis` of the complex double tensor z (interleaved re, im) of
 * dims: out[k] = sum_j z[j] e^(sign 2 pi i j k / n). work holds 4 * dims[axis] doubles (the
 * caller's scratch: ic_fft_work_len). */
void ic_fft_c2c_axis(double *z, int ndim, const int64_t *dims, int axis, int sign, double *work);
/* The doubles ic_fft_c2c_axis's work needs for the longest of dims. */
static inline int64_t ic_fft_work_len(int ndim, const int64_t *dims) {
  int64_t m = 1;
  for (int i = 0; i < ndim; i++) m = dims[i] > m ? dims[i] : m;
  return 4 * m;
}

/* Read input t (float32/64 or complex64/128) into a complex double buffer (imaginary 0 for a
 * real t); store a complex double buffer into a complex64/128 tensor, times scale. */
void ic_fft_load(const ic_tensor *t, double *z);
void ic_fft_store(const double *z, int64_t n, double scale, ic_tensor *out);

/* The scale factor of norm over the transformed signal of `numel` elements. */
double ic_fft_scale(ic_fft_norm norm, int64_t numel);

#endif
