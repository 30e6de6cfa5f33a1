/* The array forms of vmath.h's functions, as wide as the CPU allows: the same sequence of
 * rounded operations per lane as the 4-lane inline forms (ic_v4_expf and the functions built
 * on it), compiled for AVX-512F (16 lanes) and AVX2 (8 lanes) by target attributes and
 * chosen at run time, so every width gives the same bits (tests/test_vmath.c checks it). */
#include "kernels/cpu/vmath.h"

/* The body of ic_v4_expf, ic_v4_sigmoidf and ic_v4_tanhf for W lanes, and the array loops
 * (the last partial block through a padded copy, as the 4-lane loops). */
#define VMATH_WIDE(SUF, W, TARGET)                                                           \
  typedef float vf_##SUF __attribute__((vector_size(4 * (W))));                             \
  typedef int32_t vi_##SUF __attribute__((vector_size(4 * (W))));                           \
  typedef uint32_t vu_##SUF __attribute__((vector_size(4 * (W))));                          \
  __attribute__((target(TARGET), always_inline)) static inline vf_##SUF splat_##SUF(float s) { \
    return (vf_##SUF){0} + s;                                                                \
  }                                                                                          \
  __attribute__((target(TARGET), always_inline)) static inline vf_##SUF sel_##SUF(           \
      vi_##SUF m, vf_##SUF a, vf_##SUF b) {                                                  \
    return (vf_##SUF)((m & (vi_##SUF)a) | (~m & (vi_##SUF)b));                               \
  }                                                                                          \
  __attribute__((target(TARGET), always_inline)) static inline vf_##SUF exp_##SUF(vf_##SUF x) { \
    const vf_##SUF hi = splat_##SUF(88.0f), lo = splat_##SUF(-87.0f);                        \
    x = sel_##SUF(x > hi, hi, x);                                                            \
    x = sel_##SUF(x < lo, lo, x);                                                            \
    const vf_##SUF magic = splat_##SUF(12582912.0f);                                         \
    vf_##SUF t = x * splat_##SUF(1.44269504088896341f) + magic;                              \
    vu_##SUF n = (vu_##SUF)t - (vu_##SUF)magic;                                              \
    vf_##SUF fn = t - magic;                                                                 \
    vf_##SUF r = x - fn * splat_##SUF(0.693359375f);                                         \
    r = r - fn * splat_##SUF(-2.12194440e-4f);                                               \
    vf_##SUF p = splat_##SUF(1.9875691500e-4f);                                              \
    p = p * r + splat_##SUF(1.3981999507e-3f);                                               \
    p = p * r + splat_##SUF(8.3334519073e-3f);                                               \
    p = p * r + splat_##SUF(4.1665795894e-2f);                                               \
    p = p * r + splat_##SUF(1.6666665459e-1f);                                               \
    p = p * r + splat_##SUF(5.0000001201e-1f);                                               \
    p = p * (r * r) + r + splat_##SUF(1.0f);                                                 \
    vu_##SUF e = (n + 127u) << 23;                                                           \
    return p * (vf_##SUF)e;                                                                  \
  }                                                                                          \
  __attribute__((target(TARGET), always_inline)) static inline vf_##SUF sigm_##SUF(vf_##SUF x) { \
    const vf_##SUF one = splat_##SUF(1.0f);                                                  \
    return one / (one + exp_##SUF(-x));                                                      \
  }                                                                                          \
  __attribute__((target(TARGET), always_inline)) static inline vf_##SUF tanh_##SUF(vf_##SUF x) { \
    const vf_##SUF one = splat_##SUF(1.0f), two = splat_##SUF(2.0f);                         \
    return two / (one + exp_##SUF(-two * x)) - one;                                          \
  }                                                                                          \
  __attribute__((target(TARGET))) static void swish_array_##SUF(float *y, const float *x,   \
                                                                int64_t n, float beta) {    \
    const vf_##SUF one = splat_##SUF(1.0f), nb = splat_##SUF(-beta);                         \
    const vf_##SUF ovf = splat_##SUF(88.7228f), inf = splat_##SUF(__builtin_inff());         \
    int64_t i = 0;                                                                           \
    for (; i + (W) <= n; i += (W)) {                                                         \
      vf_##SUF v, t;                                                                         \
      memcpy(&v, x + i, sizeof v);                                                           \
      t = nb * v;                                                                            \
      v = v / sel_##SUF(t > ovf, inf, one + exp_##SUF(t));                                   \
      memcpy(y + i, &v, sizeof v);                                                           \
    }                                                                                        \
    if (i < n) {                                                                             \
      vf_##SUF v = {0}, t;                                                                   \
      memcpy(&v, x + i, (size_t)(n - i) * sizeof(float));                                    \
      t = nb * v;                                                                            \
      v = v / sel_##SUF(t > ovf, inf, one + exp_##SUF(t));                                   \
      memcpy(y + i, &v, (size_t)(n - i) * sizeof(float));                                    \
    }                                                                                        \
  }                                                                                          \
  VMATH_ARRAY(SUF, W, TARGET, exp)                                                           \
  VMATH_ARRAY(SUF, W, TARGET, sigm)                                                          \
  VMATH_ARRAY(SUF, W, TARGET, tanh)

#define VMATH_ARRAY(SUF, W, TARGET, FN)                                                      \
  __attribute__((target(TARGET))) static void FN##_array_##SUF(float *y, const float *x,    \
                                                               int64_t n) {                 \
    int64_t i = 0;                                                                           \
    for (; i + (W) <= n; i += (W)) {                                                         \
      vf_##SUF v;                                                                            \
      memcpy(&v, x + i, sizeof v);                                                           \
      v = FN##_##SUF(v);                                                                     \
      memcpy(y + i, &v, sizeof v);                                                           \
    }                                                                                        \
    if (i < n) {                                                                             \
      vf_##SUF v = {0};                                                                      \
      memcpy(&v, x + i, (size_t)(n - i) * sizeof(float));                                    \
      v = FN##_##SUF(v);                                                                     \
      memcpy(y + i, &v, (size_t)(n - i) * sizeof(float));                                    \
    }                                                                                        \
  }

VMATH_WIDE(w16, 16, "avx512f")
VMATH_WIDE(w8, 8, "avx2")

/* The 4-lane loops (vmath.h's inline functions), for CPUs with neither. */
#define VMATH_ARRAY4(NAME, FN)                                                               \
  static void NAME(float *y, const float *x, int64_t n) {                                    \
    int64_t i = 0;                                                                           \
    for (; i + 4 <= n; i += 4) ic_v4_store(y + i, FN(ic_v4_load(x + i)));                    \
    if (i < n) {                                                                             \
      float buf[4] = {0, 0, 0, 0};                                                           \
      memcpy(buf, x + i, (size_t)(n - i) * sizeof *buf);                                     \
      ic_v4_store(buf, FN(ic_v4_load(buf)));                                                 \
      memcpy(y + i, buf, (size_t)(n - i) * sizeof *buf);                                     \
    }                                                                                        \
  }

VMATH_ARRAY4(exp_array_w4, ic_v4_expf)
VMATH_ARRAY4(sigm_array_w4, ic_v4_sigmoidf)
VMATH_ARRAY4(tanh_array_w4, ic_v4_tanhf)

int ic_vmath_width(void) {
  return __builtin_cpu_supports("avx512f") ? 16 : __builtin_cpu_supports("avx2") ? 8 : 4;
}

#define VMATH_DISPATCH(NAME, FN)                                                             \
  void NAME(float *y, const float *x, int64_t n) { NAME##_w(y, x, n, ic_vmath_width()); }   \
  void NAME##_w(float *y, const float *x, int64_t n, int width) {                            \
    if (width >= 16 && __builtin_cpu_supports("avx512f")) FN##_array_w16(y, x, n);          \
    else if (width >= 8 && __builtin_cpu_supports("avx2")) FN##_array_w8(y, x, n);          \
    else FN##_array_w4(y, x, n);                                                             \
  }

static void swish_array_w4(float *y, const float *x, int64_t n, float beta) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) ic_v4_store(y + i, ic_v4_swishf(ic_v4_load(x + i), beta));
  if (i < n) {
    float buf[4] = {0, 0, 0, 0};
    memcpy(buf, x + i, (size_t)(n - i) * sizeof *buf);
    ic_v4_store(buf, ic_v4_swishf(ic_v4_load(buf), beta));
    memcpy(y + i, buf, (size_t)(n - i) * sizeof *buf);
  }
}

void ic_vswishf(float *y, const float *x, int64_t n, float beta) {
  ic_vswishf_w(y, x, n, beta, ic_vmath_width());
}
void ic_vswishf_w(float *y, const float *x, int64_t n, float beta, int width) {
  if (width >= 16 && __builtin_cpu_supports("avx512f")) swish_array_w16(y, x, n, beta);
  else if (width >= 8 && __builtin_cpu_supports("avx2")) swish_array_w8(y, x, n, beta);
  else swish_array_w4(y, x, n, beta);
}

VMATH_DISPATCH(ic_vexpf, exp)
VMATH_DISPATCH(ic_vsigmoidf, sigm)
VMATH_DISPATCH(ic_vtanhf, tanh)

/* ---- rows: softmax, moments, normalization ----
 *
 * Sums are taken in double in eight fixed lanes (element i into lane i % 8, lanes added
 * ((0 + 1) + (2 + 3)) + ((4 + 5) + (6 + 7)) at the end) and every other step is elementwise,
 * so the bits depend on n alone, never on the vector width: the AVX-512F, AVX2 and baseline
 * forms below are one body (VMATH_ROWS) compiled three times over per-width helpers. The
 * eight double lanes are one 64-byte vector with AVX-512F, two 32-byte halves with AVX2 and
 * scalars on the SSE2 baseline (GCC splits a 64-byte vector through the stack without
 * AVX-512: AVX2 layer_norm rows ran at half the scalar loop's speed). Exponentials go through the W-lane exp of ic_v4_expf's algorithm. A
 * row's last partial block is read and written with masked loads and stores where the CPU
 * has them: a short row is mostly tail, and a tail copied through the stack costs a
 * store-forwarding stall per access. */
#include <immintrin.h>

/* Every helper below that handles a 32- or 64-byte vector is static and always inlined, and
 * the functions called across targets pass none: GCC's note that such vectors' ABI differs
 * with and without AVX / AVX-512F does not apply. */
#pragma GCC diagnostic ignored "-Wpsabi"
typedef float vr8f __attribute__((vector_size(32)));
typedef double vr8d __attribute__((vector_size(64)));
typedef double vr4d __attribute__((vector_size(32)));
typedef int32_t vr8i __attribute__((vector_size(32)));

#define AINL __attribute__((always_inline)) static inline
#define AVX_MASK8(k) ((vr8i){0, 1, 2, 3, 4, 5, 6, 7} < (vr8i){0} + (int32_t)(k))

AINL float max_nan(float a, float b) { return a > b || a != a ? a : b; }

/* ---- AVX-512F: W = 16, the eight lanes in one vector ---- */
typedef struct { vr8d v; } dacc_w16;
#define T16 __attribute__((target("avx512f"), always_inline)) static inline
T16 void dzero_w16(dacc_w16 *a) { a->v = (vr8d){0}; }
T16 vr8f load8_w16(const float *p, int64_t k) {
  vr8f v;
  if (k == 8) memcpy(&v, p, sizeof v);
  else v = (vr8f)_mm256_maskload_ps(p, (__m256i)AVX_MASK8(k));
  return v;
}
T16 void store8_w16(float *p, vr8f v, int64_t k) {
  if (k == 8) memcpy(p, &v, sizeof v);
  else _mm256_maskstore_ps(p, (__m256i)AVX_MASK8(k), (__m256)v);
}
T16 void dadd8_w16(dacc_w16 *a, const float *p, int64_t k) {
  a->v += __builtin_convertvector(load8_w16(p, k), vr8d);
}
/* (x - m)^2 of up to 8 floats, lanes past k adding 0 */
T16 void dsq8_w16(dacc_w16 *a, const float *p, int64_t k, double m) {
  vr8d d = __builtin_convertvector(load8_w16(p, k), vr8d) - m;
  if (k < 8) {
    for (int64_t j = k; j < 8; j++) d[j] = 0.0;
  }
  a->v += d * d;
}
T16 double dsum_w16(const dacc_w16 *a) {
  const vr8d v = a->v;
  return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
}
T16 void norm8_w16(float *y, const float *x, int64_t k, double m, double inv, const float *sc,
                   const float *bi) {
  vr8d t = (__builtin_convertvector(load8_w16(x, k), vr8d) - m) * inv;
  if (sc) t *= __builtin_convertvector(load8_w16(sc, k), vr8d);
  if (bi) t += __builtin_convertvector(load8_w16(bi, k), vr8d);
  store8_w16(y, __builtin_convertvector(t, vr8f), k);
}
T16 vf_w16 loadn_w16(const float *p, int64_t k, float fill) {
  return (vf_w16)_mm512_mask_loadu_ps(_mm512_set1_ps(fill), (__mmask16)((1u << k) - 1), p);
}
T16 void storen_w16(float *p, vf_w16 v, int64_t k) {
  _mm512_mask_storeu_ps(p, (__mmask16)((1u << k) - 1), (__m512)v);
}
T16 float hmax_w16(vf_w16 v) {
  vr8f a = __builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7);
  vr8f b = __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15);
  const vr8i keep = (a > b) | (a != a);
  vr8f m = (vr8f)((keep & (vr8i)a) | (~keep & (vr8i)b));
  ic_v4f c = __builtin_shufflevector(m, m, 0, 1, 2, 3), d = __builtin_shufflevector(m, m, 4, 5, 6, 7);
  c = ic_v4_select((c > d) | (c != c), c, d);
  return max_nan(max_nan(c[0], c[1]), max_nan(c[2], c[3]));
}
/* W exponentials at element offset i into the lanes */
T16 void daddw_w16(dacc_w16 *a, vf_w16 e, int64_t i) {
  (void)i;
  a->v += __builtin_convertvector(__builtin_shufflevector(e, e, 0, 1, 2, 3, 4, 5, 6, 7), vr8d);
  a->v += __builtin_convertvector(__builtin_shufflevector(e, e, 8, 9, 10, 11, 12, 13, 14, 15),
                                  vr8d);
}
/* W floats times r in double, each rounded once */
T16 vf_w16 mul_w16(vf_w16 e, double r) {
  vr8f lo = __builtin_convertvector(
      __builtin_convertvector(__builtin_shufflevector(e, e, 0, 1, 2, 3, 4, 5, 6, 7), vr8d) * r,
      vr8f);
  vr8f hi = __builtin_convertvector(
      __builtin_convertvector(__builtin_shufflevector(e, e, 8, 9, 10, 11, 12, 13, 14, 15), vr8d) *
          r,
      vr8f);
  return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

/* ---- AVX2: W = 8, the eight lanes in two halves of four doubles ---- */
#define T8 __attribute__((target("avx2"), always_inline)) static inline
typedef struct { vr4d lo, hi; } dacc_w8;
T8 void dzero_w8(dacc_w8 *a) { a->lo = a->hi = (vr4d){0, 0, 0, 0}; }
/* up to 8 floats (one masked load) as two halves of doubles, zeros past k */
T8 void load8d_w8(const float *p, int64_t k, vr4d *lo, vr4d *hi) {
  __m256 v = k == 8 ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, (__m256i)AVX_MASK8(k));
  *lo = __builtin_convertvector((ic_v4f)_mm256_castps256_ps128(v), vr4d);
  *hi = __builtin_convertvector((ic_v4f)_mm256_extractf128_ps(v, 1), vr4d);
}
T8 void dadd8_w8(dacc_w8 *a, const float *p, int64_t k) {
  vr4d lo, hi;
  load8d_w8(p, k, &lo, &hi);
  a->lo += lo;
  a->hi += hi;
}
T8 void dsq8_w8(dacc_w8 *a, const float *p, int64_t k, double m) {
  vr4d lo, hi;
  load8d_w8(p, k, &lo, &hi);
  lo -= m;
  hi -= m;
  for (int64_t j = k; j < 8; j++) { /* no element there */
    if (j < 4) lo[j] = 0.0;
    else hi[j - 4] = 0.0;
  }
  a->lo += lo * lo;
  a->hi += hi * hi;
}
T8 double dsum_w8(const dacc_w8 *a) {
  return ((a->lo[0] + a->lo[1]) + (a->lo[2] + a->lo[3])) +
         ((a->hi[0] + a->hi[1]) + (a->hi[2] + a->hi[3]));
}
T8 void norm8_w8(float *y, const float *x, int64_t k, double m, double inv, const float *sc,
                 const float *bi) {
  vr4d lo, hi, u, v;
  load8d_w8(x, k, &lo, &hi);
  lo = (lo - m) * inv;
  hi = (hi - m) * inv;
  if (sc) load8d_w8(sc, k, &u, &v), lo *= u, hi *= v;
  if (bi) load8d_w8(bi, k, &u, &v), lo += u, hi += v;
  __m256 o = _mm256_insertf128_ps(
      _mm256_castps128_ps256((__m128)__builtin_convertvector(lo, ic_v4f)),
      (__m128)__builtin_convertvector(hi, ic_v4f), 1);
  if (k == 8) _mm256_storeu_ps(y, o);
  else _mm256_maskstore_ps(y, (__m256i)AVX_MASK8(k), o);
}

/* The baseline (SSE2): the eight lanes as scalars, the same operations per lane (a 32-byte
 * vector split over SSE2 registers ran slower than scalar code here). */
typedef struct { double l[8]; } dacc_w4;
AINL void dzero_w4(dacc_w4 *a) { memset(a, 0, sizeof *a); }
AINL void dadd8_w4(dacc_w4 *a, const float *p, int64_t k) {
  for (int64_t j = 0; j < k; j++) a->l[j] += p[j];
}
AINL void dsq8_w4(dacc_w4 *a, const float *p, int64_t k, double m) {
  for (int64_t j = 0; j < k; j++) {
    const double d = p[j] - m;
    a->l[j] += d * d;
  }
}
AINL double dsum_w4(const dacc_w4 *a) {
  const double *l = a->l;
  return ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
}
AINL void norm8_w4(float *y, const float *x, int64_t k, double m, double inv, const float *sc,
                   const float *bi) {
  for (int64_t j = 0; j < k; j++) {
    double t = (x[j] - m) * inv;
    if (sc) t *= sc[j];
    if (bi) t += bi[j];
    y[j] = (float)t;
  }
}

T8 vf_w8 loadn_w8(const float *p, int64_t k, float fill) {
  __m256 v = _mm256_maskload_ps(p, (__m256i)AVX_MASK8(k));
  return (vf_w8)_mm256_blendv_ps(_mm256_set1_ps(fill), v, (__m256)AVX_MASK8(k));
}
T8 void storen_w8(float *p, vf_w8 v, int64_t k) {
  _mm256_maskstore_ps(p, (__m256i)AVX_MASK8(k), (__m256)v);
}
T8 float hmax_w8(vf_w8 m) {
  ic_v4f c = __builtin_shufflevector(m, m, 0, 1, 2, 3), d = __builtin_shufflevector(m, m, 4, 5, 6, 7);
  c = ic_v4_select((c > d) | (c != c), c, d);
  return max_nan(max_nan(c[0], c[1]), max_nan(c[2], c[3]));
}
/* (intrinsics: GCC converted each half of the vector extensions' form two floats at a time) */
T8 void daddw_w8(dacc_w8 *a, vf_w8 e, int64_t i) {
  (void)i;
  a->lo += (vr4d)_mm256_cvtps_pd(_mm256_castps256_ps128((__m256)e));
  a->hi += (vr4d)_mm256_cvtps_pd(_mm256_extractf128_ps((__m256)e, 1));
}
T8 vf_w8 mul_w8(vf_w8 e, double r) {
  const __m256d rv = _mm256_set1_pd(r);
  const __m256d elo = _mm256_cvtps_pd(_mm256_castps256_ps128((__m256)e));
  const __m256d ehi = _mm256_cvtps_pd(_mm256_extractf128_ps((__m256)e, 1));
  const __m128 lo = _mm256_cvtpd_ps(_mm256_mul_pd(elo, rv));
  const __m128 hi = _mm256_cvtpd_ps(_mm256_mul_pd(ehi, rv));
  return (vf_w8)_mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
}

/* The baseline's W-lane helpers: vmath.h's 4-lane forms under VMATH_WIDE's names. */
typedef ic_v4f vf_w4;
typedef ic_v4i vi_w4;
AINL vf_w4 splat_w4(float s) { return ic_v4_splat(s); }
AINL vf_w4 sel_w4(vi_w4 m, vf_w4 a, vf_w4 b) { return ic_v4_select(m, a, b); }
AINL vf_w4 exp_w4(vf_w4 x) { return ic_v4_expf(x); }
AINL float hmax_w4(vf_w4 c) { return max_nan(max_nan(c[0], c[1]), max_nan(c[2], c[3])); }
AINL vf_w4 loadn_w4(const float *p, int64_t k, float fill) {
  float b[4] = {fill, fill, fill, fill};
  memcpy(b, p, (size_t)k * sizeof *b);
  return ic_v4_load(b);
}
AINL void storen_w4(float *p, vf_w4 v, int64_t k) { memcpy(p, &v, (size_t)k * sizeof(float)); }
/* a block of 4 at offset i: lanes 0-3 when i % 8 == 0, else 4-7 */
AINL void daddw_w4(dacc_w4 *a, vf_w4 e, int64_t i) {
  for (int j = 0; j < 4; j++) a->l[i % 8 + j] += e[j];
}
AINL vf_w4 mul_w4(vf_w4 e, double r) {
  return __builtin_convertvector(__builtin_convertvector(e, vr4d) * r, vf_w4);
}

#define VMATH_ROWS(SUF, W, TARGET)                                                           \
  __attribute__((target(TARGET))) static void softmax_rows_##SUF(float *y, const float *x,  \
                                                                 int64_t rows, int64_t n) { \
    const vf_##SUF lo = splat_##SUF(-64.0f);                                                 \
    const int64_t full = n / (W) * (W), k = n - full;                                        \
    const vi_##SUF tail_lanes = (vi_##SUF){0} + (int32_t)k;                                  \
    vi_##SUF iota;                                                                           \
    for (int j = 0; j < (W); j++) iota[j] = j;                                               \
    for (int64_t r = 0; r < rows; r++, x += n, y += n) {                                     \
      /* the maximum, NaN if any element is (the tail's missing lanes read -inf) */          \
      vf_##SUF vmax = splat_##SUF(-__builtin_inff()), xt = vmax;                             \
      for (int64_t i = 0; i < full; i += (W)) {                                              \
        vf_##SUF v;                                                                          \
        memcpy(&v, x + i, sizeof v);                                                         \
        vmax = sel_##SUF((v > vmax) | (v != v), v, vmax);                                    \
      }                                                                                      \
      if (k) {                                                                               \
        xt = loadn_##SUF(x + full, k, -__builtin_inff());                                    \
        vmax = sel_##SUF((xt > vmax) | (xt != xt), xt, vmax);                                \
      }                                                                                      \
      const vf_##SUF vm = splat_##SUF(hmax_##SUF(vmax));                                     \
      /* exp(max(x - m, -64)) (NaN stays), summed from the registers */                      \
      dacc_##SUF acc;                                                                        \
      dzero_##SUF(&acc);                                                                     \
      for (int64_t i = 0; i < full; i += (W)) {                                              \
        vf_##SUF v;                                                                          \
        memcpy(&v, x + i, sizeof v);                                                         \
        v = v - vm;                                                                          \
        v = exp_##SUF(sel_##SUF(v < lo, lo, v));                                             \
        memcpy(y + i, &v, sizeof v);                                                         \
        daddw_##SUF(&acc, v, i);                                                             \
      }                                                                                      \
      vf_##SUF et = {0};                                                                     \
      if (k) {                                                                               \
        et = xt - vm;                                                                        \
        et = exp_##SUF(sel_##SUF(et < lo, lo, et));                                          \
        et = sel_##SUF(iota < tail_lanes, et, splat_##SUF(0.0f));                            \
        daddw_##SUF(&acc, et, full);                                                         \
      }                                                                                      \
      /* each exponential times the sum's reciprocal in double, rounded once */              \
      const double rs = 1.0 / dsum_##SUF(&acc);                                              \
      for (int64_t i = 0; i < full; i += (W)) {                                              \
        vf_##SUF v;                                                                          \
        memcpy(&v, y + i, sizeof v);                                                         \
        v = mul_##SUF(v, rs);                                                                \
        memcpy(y + i, &v, sizeof v);                                                         \
      }                                                                                      \
      if (k) storen_##SUF(y + full, mul_##SUF(et, rs), k);                                   \
    }                                                                                        \
  }                                                                                          \
  __attribute__((target(TARGET))) static void moments_##SUF(const float *x, int64_t n,      \
                                                            double *mean, double *var) {    \
    dacc_##SUF acc;                                                                          \
    dzero_##SUF(&acc);                                                                       \
    for (int64_t i = 0; i < n; i += 8) dadd8_##SUF(&acc, x + i, n - i < 8 ? n - i : 8);      \
    const double m = dsum_##SUF(&acc) / (double)n;                                           \
    dzero_##SUF(&acc);                                                                       \
    for (int64_t i = 0; i < n; i += 8) dsq8_##SUF(&acc, x + i, n - i < 8 ? n - i : 8, m);    \
    *mean = m;                                                                               \
    *var = dsum_##SUF(&acc) / (double)n;                                                     \
  }                                                                                          \
  __attribute__((target(TARGET))) static void normalize_##SUF(                              \
      float *y, const float *x, int64_t n, double mean, double inv, const float *scale,      \
      const float *bias) {                                                                   \
    for (int64_t i = 0; i < n; i += 8) {                                                     \
      const int64_t k = n - i < 8 ? n - i : 8;                                               \
      norm8_##SUF(y + i, x + i, k, mean, inv, scale ? scale + i : NULL,                      \
                  bias ? bias + i : NULL);                                                   \
    }                                                                                        \
  }

VMATH_ROWS(w16, 16, "avx512f")
VMATH_ROWS(w8, 8, "avx2")
VMATH_ROWS(w4, 4, "sse2")

#define VMATH_ROWS_PICK(width, FN, ...)                                                      \
  do {                                                                                       \
    if ((width) >= 16 && __builtin_cpu_supports("avx512f")) FN##_w16(__VA_ARGS__);          \
    else if ((width) >= 8 && __builtin_cpu_supports("avx2")) FN##_w8(__VA_ARGS__);          \
    else FN##_w4(__VA_ARGS__);                                                               \
  } while (0)

void ic_vsoftmax_rowsf(float *y, const float *x, int64_t rows, int64_t n) {
  ic_vsoftmax_rowsf_w(y, x, rows, n, ic_vmath_width());
}
void ic_vsoftmax_rowsf_w(float *y, const float *x, int64_t rows, int64_t n, int width) {
  if (rows <= 0 || n <= 0) return;
  VMATH_ROWS_PICK(width, softmax_rows, y, x, rows, n);
}

void ic_vmomentsf(const float *x, int64_t n, double *mean, double *var) {
  ic_vmomentsf_w(x, n, mean, var, ic_vmath_width());
}
void ic_vmomentsf_w(const float *x, int64_t n, double *mean, double *var, int width) {
  if (n <= 0) {
    *mean = *var = 0;
    return;
  }
  VMATH_ROWS_PICK(width, moments, x, n, mean, var);
}

void ic_vnormalizef(float *y, const float *x, int64_t n, double mean, double inv,
                    const float *scale, const float *bias) {
  ic_vnormalizef_w(y, x, n, mean, inv, scale, bias, ic_vmath_width());
}
void ic_vnormalizef_w(float *y, const float *x, int64_t n, double mean, double inv,
                      const float *scale, const float *bias, int width) {
  if (n <= 0) return;
  VMATH_ROWS_PICK(width, normalize, y, x, n, mean, inv, scale, bias);
}
