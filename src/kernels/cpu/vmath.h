/* Vectorized float exponential and the activations built on it (sigmoid, tanh), for kernels
 * whose time goes to expf (softmax, rnn's LSTM/GRU cells).
 *
 * ic_v4_expf is the Cephes single-precision algorithm (x = n ln2 + r with ln2 split in two,
 * a degree-6 polynomial in r, scaled by 2^n), written with GCC vector extensions so that the
 * compiler emits packed SSE2 (or wider) instructions without -march flags. It is accurate to
 * about 2 ulp. Inputs are clamped to [-87, 88] first, so the result is always a normal float:
 * exp(x) for x < -87 gives exp(-87) = 1.6e-38 instead of a denormal or 0, and x > 88 gives
 * exp(88) = 1.65e38 instead of an overflow; NaN stays NaN. Every lane is computed by the same
 * sequence of rounded operations (no contraction: C11 mode has -ffp-contract=off), so a value's
 * result never depends on its position, the vector width, or how a caller splits its work:
 * kernels that use it stay bitwise equal at any thread count. */
#ifndef IC_KERNELS_CPU_VMATH_H
#define IC_KERNELS_CPU_VMATH_H

#include <stdint.h>
#include <string.h>

typedef float ic_v4f __attribute__((vector_size(16)));
typedef int32_t ic_v4i __attribute__((vector_size(16)));
typedef uint32_t ic_v4u __attribute__((vector_size(16))); /* bit work: wraps, never overflows */

static inline ic_v4f ic_v4_load(const float *p) {
  ic_v4f v;
  memcpy(&v, p, sizeof v);
  return v;
}

static inline void ic_v4_store(float *p, ic_v4f v) { memcpy(p, &v, sizeof v); }

static inline ic_v4f ic_v4_splat(float s) { return (ic_v4f){s, s, s, s}; }

/* mask ? a : b, mask lanes all ones or all zeros. */
static inline ic_v4f ic_v4_select(ic_v4i mask, ic_v4f a, ic_v4f b) {
  return (ic_v4f)((mask & (ic_v4i)a) | (~mask & (ic_v4i)b));
}

static inline ic_v4f ic_v4_expf(ic_v4f x) {
  const ic_v4f hi = ic_v4_splat(88.0f), lo = ic_v4_splat(-87.0f);
  x = ic_v4_select(x > hi, hi, x); /* NaN compares false and stays */
  x = ic_v4_select(x < lo, lo, x);
  /* n = round(x / ln2) by the 1.5 * 2^23 trick: exact for |x / ln2| < 2^22. */
  const ic_v4f magic = ic_v4_splat(12582912.0f);
  ic_v4f t = x * ic_v4_splat(1.44269504088896341f) + magic;
  ic_v4u n = (ic_v4u)t - (ic_v4u)magic;
  ic_v4f fn = t - magic;
  ic_v4f r = x - fn * ic_v4_splat(0.693359375f);
  r = r - fn * ic_v4_splat(-2.12194440e-4f);
  ic_v4f p = ic_v4_splat(1.9875691500e-4f);
  p = p * r + ic_v4_splat(1.3981999507e-3f);
  p = p * r + ic_v4_splat(8.3334519073e-3f);
  p = p * r + ic_v4_splat(4.1665795894e-2f);
  p = p * r + ic_v4_splat(1.6666665459e-1f);
  p = p * r + ic_v4_splat(5.0000001201e-1f);
  p = p * (r * r) + r + ic_v4_splat(1.0f);
  /* 2^n for n in [-126, 127]: the biased exponent in place. NaN lanes give a garbage n but
   * p is NaN there, and so is the product. */
  ic_v4u e = (n + 127u) << 23;
  return p * (ic_v4f)e;
}

/* 1 / (1 + exp(-x)): Paddle's sigmoid, unclipped. */
static inline ic_v4f ic_v4_sigmoidf(ic_v4f x) {
  const ic_v4f one = ic_v4_splat(1.0f);
  return one / (one + ic_v4_expf(-x));
}

/* 2 / (1 + exp(-2x)) - 1: Paddle's tanh_v2 form. */
static inline ic_v4f ic_v4_tanhf(ic_v4f x) {
  const ic_v4f one = ic_v4_splat(1.0f), two = ic_v4_splat(2.0f);
  return two / (one + ic_v4_expf(-two * x)) - one;
}

/* x / (1 + exp(-beta x)): Paddle's swish (silu: beta 1). Where -beta x is past expf's
 * overflow (88.7228) the denominator is infinite, as with libm: -inf gives NaN and a large
 * finite x a zero, not the quotient by the clamped exponential. */
static inline ic_v4f ic_v4_swishf(ic_v4f x, float beta) {
  const ic_v4f t = ic_v4_splat(-beta) * x;
  const ic_v4f d = ic_v4_splat(1.0f) + ic_v4_expf(t);
  return x / ic_v4_select(t > ic_v4_splat(88.7228f), ic_v4_splat(__builtin_inff()), d);
}

/* y[i] = f(x[i]) for i < n (vmath.c): in blocks of 16 with AVX-512F, 8 with AVX2, else 4;
 * the last partial block through a padded copy, so every element takes the vector path and
 * gets the bits ic_v4_expf / ic_v4_sigmoidf / ic_v4_tanhf give it at any width. y may equal
 * x. */
void ic_vexpf(float *y, const float *x, int64_t n);
void ic_vsigmoidf(float *y, const float *x, int64_t n);
void ic_vtanhf(float *y, const float *x, int64_t n);

/* The same at a width of at most `width` lanes (4, 8 or 16; for tests), and the width the
 * plain forms use on this CPU. */
void ic_vexpf_w(float *y, const float *x, int64_t n, int width);
void ic_vsigmoidf_w(float *y, const float *x, int64_t n, int width);
void ic_vtanhf_w(float *y, const float *x, int64_t n, int width);
int ic_vmath_width(void);
/* y[i] = x[i] / (1 + exp(-beta x[i])) for i < n, as wide as the CPU allows (the same bits as
 * ic_v4_swishf at any width); y may equal x. */
void ic_vswishf(float *y, const float *x, int64_t n, float beta);
void ic_vswishf_w(float *y, const float *x, int64_t n, float beta, int width);


/* Softmax of each of `rows` contiguous rows of n floats: exp(max(x - max, -64)) by the
 * exponential above, summed in double in eight fixed lanes (element i into lane i % 8,
 * lanes added ((0 + 1) + (2 + 3)) + ((4 + 5) + (6 + 7))), each exponential times the sum's
 * reciprocal in double, rounded once; a NaN makes its row NaN. The same bits at any width. y may equal x. */
void ic_vsoftmax_rowsf(float *y, const float *x, int64_t rows, int64_t n);
void ic_vsoftmax_rowsf_w(float *y, const float *x, int64_t rows, int64_t n, int width);

/* The mean and biased variance of n floats (0 and 0 for n = 0), in double: the sum and the
 * sum of squared deviations from the mean in the same eight fixed lanes. */
void ic_vmomentsf(const float *x, int64_t n, double *mean, double *var);
void ic_vmomentsf_w(const float *x, int64_t n, double *mean, double *var, int width);

/* y[i] = (float)(((double)x[i] - mean) * inv * scale[i] + bias[i]) in double, scale and
 * bias optional (NULL: 1 and 0). y may equal x. */
void ic_vnormalizef(float *y, const float *x, int64_t n, double mean, double inv,
                    const float *scale, const float *bias);
void ic_vnormalizef_w(float *y, const float *x, int64_t n, double mean, double inv,
                      const float *scale, const float *bias, int width);

#endif
