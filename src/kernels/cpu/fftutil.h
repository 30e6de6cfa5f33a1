/* The discrete Fourier transforms of fft_r2c, fft_c2c and fft_c2r (fftutil.c). Paddle runs
 * pocketfft; icore evaluates each 1-D transform in double by an O(n log n) FFT (see
 * ic_fft_plan) and rounds the results once to the output dtype. */
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

/* One 1-D transform of length n, out[k] = sum_j in[j] e^(sign 2 pi i j k / n) (fftutil.c:
 * mixed-radix Cooley-Tukey, or Bluestein's algorithm where n has a prime factor above 16),
 * its tables and work space in the caller's `work` of ic_fft_plan_len(n) doubles. */
typedef struct ic_fft_plan {
  int64_t n, m;         /* the length; Bluestein's power-of-two length (0: not used) */
  int fac[64], nfac;    /* n's prime factors (nfac 0: Bluestein) */
  int fac_m[64], nfac_m;
  double *tw, *tmp;     /* the n-th roots of unity; the butterfly's temporary */
  double *chirp, *tw_m, *a, *b, *o; /* Bluestein's chirp, M-th roots, work vectors */
} ic_fft_plan;
int64_t ic_fft_plan_len(int64_t n);
void ic_fft_plan_init(ic_fft_plan *p, int64_t n, int sign, double *work);
/* in: n complex doubles (interleaved re, im) `is` complex elements apart; out: 2 n doubles,
 * contiguous, not overlapping in. */
void ic_fft_exec(const ic_fft_plan *p, const double *in, int64_t is, double *out);

/* In place, the 1-D DFT along `axis` of the complex double tensor z (interleaved re, im) of
 * dims: out[k] = sum_j z[j] e^(sign 2 pi i j k / n). work holds ic_fft_work_len(dims)
 * doubles (the caller's scratch). */
void ic_fft_c2c_axis(double *z, int ndim, const int64_t *dims, int axis, int sign, double *work);
/* The doubles ic_fft_c2c_axis's work needs for any axis of dims. */
int64_t ic_fft_work_len(int ndim, const int64_t *dims);

/* Read input t (float32/64 or complex64/128) into a complex double buffer (imaginary 0 for a
 * real t); store a complex double buffer into a complex64/128 tensor, times scale. */
void ic_fft_load(const ic_tensor *t, double *z);
void ic_fft_store(const double *z, int64_t n, double scale, ic_tensor *out);

/* The scale factor of norm over the transformed signal of `numel` elements. */
double ic_fft_scale(ic_fft_norm norm, int64_t numel);

#endif
