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

/* ---- the 1-D transform ----
 *
 * A mixed-radix Cooley-Tukey FFT (decimation in time, recursive, out of place) over the prime
 * factors of n when all are at most IC_FFT_MAX_RADIX; otherwise Bluestein's algorithm, which
 * writes the length-n DFT as a convolution with a chirp and evaluates that by power-of-two
 * FFTs of length M >= 2n - 1. O(n log n) either way, in double, every twiddle taken from one
 * table of the N-th roots of unity computed by cos / sin, so each output is a fixed sequence
 * of double operations: the same bits on every run and thread count. */
#define IC_FFT_MAX_RADIX 16

/* The prime factors of n (ascending) into fac; 0 when one exceeds IC_FFT_MAX_RADIX. */
static int factor(int64_t n, int *fac) {
  int k = 0;
  for (int p = 2; n > 1; p++) {
    if ((int64_t)p * p > n) p = n > IC_FFT_MAX_RADIX ? IC_FFT_MAX_RADIX + 1 : (int)n;
    if (p > IC_FFT_MAX_RADIX) return 0;
    while (n % p == 0) {
      fac[k++] = p;
      n /= p;
    }
  }
  return k;
}

static int64_t pow2_at_least(int64_t v) {
  int64_t m = 1;
  while (m < v) m *= 2;
  return m;
}

int64_t ic_fft_plan_len(int64_t n) {
  int fac[64];
  if (n <= 1) return 0;
  int64_t len = 2 * n + 2 * IC_FFT_MAX_RADIX; /* roots of unity, the butterfly's temporary */
  if (!factor(n, fac)) {
    const int64_t m = pow2_at_least(2 * n - 1);
    len += 2 * n + 8 * m; /* the chirp; the length-M roots and three work vectors */
  }
  return len;
}

static void roots(double *tw, int64_t n, int sign) {
  for (int64_t k = 0; k < n; k++) { /* e^(sign 2 pi i k / n) */
    const double t = 2.0 * IC_FFT_PI * (double)k / (double)n;
    tw[2 * k] = cos(t);
    tw[2 * k + 1] = sign * sin(t);
  }
}

void ic_fft_plan_init(ic_fft_plan *p, int64_t n, int sign, double *work) {
  memset(p, 0, sizeof *p);
  p->n = n;
  if (n <= 1) return;
  p->tw = work;
  p->tmp = work + 2 * n;
  p->nfac = factor(n, p->fac);
  if (p->nfac) {
    roots(p->tw, n, sign);
    return;
  }
  /* Bluestein: X[k] = c[k] sum_j (x[j] c[j]) conj(c[k - j]), c[j] = e^(sign pi i j^2 / n) */
  p->m = pow2_at_least(2 * n - 1);
  p->nfac_m = factor(p->m, p->fac_m);
  p->chirp = p->tmp + 2 * IC_FFT_MAX_RADIX;
  p->tw_m = p->chirp + 2 * n;
  p->a = p->tw_m + 2 * p->m;
  p->b = p->a + 2 * p->m;
  p->o = p->b + 2 * p->m;
  for (int64_t j = 0, q = 0; j < n; j++) { /* q = j^2 mod 2n, stepped: (j + 1)^2 = j^2 + 2j + 1 */
    if (j) {
      q += 2 * j - 1;
      q %= 2 * n;
    }
    const double t = IC_FFT_PI * (double)q / (double)n;
    p->chirp[2 * j] = cos(t);
    p->chirp[2 * j + 1] = sign * sin(t);
  }
  roots(p->tw_m, p->m, -1);
}

/* out[k] = sum_{j < n} in[j is] w^(j k ts), w the table's root of unity of order N = n ts:
 * n = fac[0] * m, the fac[0] interleaved sub-transforms of length m into out's consecutive
 * blocks, then per k one butterfly over them (read before written: the same positions). */
static void fft_rec(const double *in, int64_t is, double *out, int64_t n, const int *fac,
                    const double *tw, int64_t ts, double *tmp) {
  if (n == 1) {
    out[0] = in[0];
    out[1] = in[1];
    return;
  }
  const int p = fac[0];
  const int64_t m = n / p;
  for (int r = 0; r < p; r++) fft_rec(in + 2 * r * is, is * p, out + 2 * r * m, m, fac + 1, tw, ts * p, tmp);
  for (int64_t k = 0; k < m; k++) {
    for (int r = 0; r < p; r++) { /* w_n^(r k) Y_r[k] */
      const double yr = out[2 * (r * m + k)], yi = out[2 * (r * m + k) + 1];
      const int64_t e = ts * ((r * k) % n);
      const double wr = tw[2 * e], wi = tw[2 * e + 1];
      tmp[2 * r] = yr * wr - yi * wi;
      tmp[2 * r + 1] = yr * wi + yi * wr;
    }
    if (p == 2) {
      out[2 * k] = tmp[0] + tmp[2];
      out[2 * k + 1] = tmp[1] + tmp[3];
      out[2 * (k + m)] = tmp[0] - tmp[2];
      out[2 * (k + m) + 1] = tmp[1] - tmp[3];
      continue;
    }
    for (int q = 0; q < p; q++) { /* X[k + q m] = sum_r w_p^(r q) t_r */
      double sr = tmp[0], si = tmp[1];
      for (int r = 1; r < p; r++) {
        const int64_t e = ts * m * ((r * q) % p);
        const double wr = tw[2 * e], wi = tw[2 * e + 1];
        sr += tmp[2 * r] * wr - tmp[2 * r + 1] * wi;
        si += tmp[2 * r] * wi + tmp[2 * r + 1] * wr;
      }
      out[2 * (k + q * m)] = sr;
      out[2 * (k + q * m) + 1] = si;
    }
  }
}

void ic_fft_exec(const ic_fft_plan *p, const double *in, int64_t is, double *out) {
  const int64_t n = p->n;
  if (n <= 1) {
    if (n == 1) out[0] = in[0], out[1] = in[1];
    return;
  }
  if (p->nfac) {
    fft_rec(in, is, out, n, p->fac, p->tw, 1, p->tmp);
    return;
  }
  const int64_t m = p->m;
  const double *c = p->chirp;
  double *a = p->a, *b = p->b, *o = p->o;
  memset(a, 0, (size_t)(4 * m) * sizeof(double)); /* a and b */
  for (int64_t j = 0; j < n; j++) {
    const double xr = in[2 * j * is], xi = in[2 * j * is + 1];
    a[2 * j] = xr * c[2 * j] - xi * c[2 * j + 1];
    a[2 * j + 1] = xr * c[2 * j + 1] + xi * c[2 * j];
    b[2 * j] = c[2 * j];
    b[2 * j + 1] = -c[2 * j + 1];
    if (j) {
      b[2 * (m - j)] = c[2 * j];
      b[2 * (m - j) + 1] = -c[2 * j + 1];
    }
  }
  fft_rec(b, 1, o, m, p->fac_m, p->tw_m, 1, p->tmp);
  memcpy(b, o, (size_t)(2 * m) * sizeof(double));
  fft_rec(a, 1, o, m, p->fac_m, p->tw_m, 1, p->tmp);
  /* the inverse transform of A B as conj(FFT(conj(A B))) / M */
  for (int64_t k = 0; k < m; k++) {
    const double ar = o[2 * k], ai = o[2 * k + 1], br = b[2 * k], bi = b[2 * k + 1];
    a[2 * k] = ar * br - ai * bi;
    a[2 * k + 1] = -(ar * bi + ai * br);
  }
  fft_rec(a, 1, o, m, p->fac_m, p->tw_m, 1, p->tmp);
  const double inv = 1.0 / (double)m;
  for (int64_t k = 0; k < n; k++) {
    const double vr = o[2 * k] * inv, vi = -o[2 * k + 1] * inv;
    out[2 * k] = vr * c[2 * k] - vi * c[2 * k + 1];
    out[2 * k + 1] = vr * c[2 * k + 1] + vi * c[2 * k];
  }
}

int64_t ic_fft_work_len(int ndim, const int64_t *dims) {
  int64_t w = 0;
  for (int i = 0; i < ndim; i++) {
    const int64_t need = ic_fft_plan_len(dims[i]) + 2 * dims[i];
    w = need > w ? need : w;
  }
  return w;
}

void ic_fft_c2c_axis(double *z, int ndim, const int64_t *dims, int axis, int sign, double *work) {
  const int64_t n = dims[axis];
  if (n <= 1) return;
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= dims[d];
  for (int d = axis + 1; d < ndim; d++) inner *= dims[d];
  ic_fft_plan plan;
  ic_fft_plan_init(&plan, n, sign, work);
  double *line = work + ic_fft_plan_len(n);
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t q = 0; q < inner; q++) {
      double *base = z + 2 * (o * n * inner + q);
      ic_fft_exec(&plan, base, inner, line);
      for (int64_t k = 0; k < n; k++) {
        base[2 * k * inner] = line[2 * k];
        base[2 * k * inner + 1] = line[2 * k + 1];
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
