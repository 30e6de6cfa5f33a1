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
 * forms below are one body (VMATH_ROWS) compiled three times over per-width helpers.
 * Exponentials go through the W-lane exp of ic_v4_expf's algorithm. A row's last partial
 * block is read and written with masked loads and stores where the CPU has them: a short row
 * is mostly tail, and a tail copied through the stack costs a store-forwarding stall per
 * access. */
#include <immintrin.h>

/* The helpers passing 32- and 64-byte vectors are static and always inlined: no call passes
 * one, so GCC's note that their ABI differs with and without AVX / AVX-512F does not apply. */
#pragma GCC diagnostic ignored "-Wpsabi"
typedef float vr8f __attribute__((vector_size(32)));
typedef double vr8d __attribute__((vector_size(64)));
typedef double vr4d __attribute__((vector_size(32)));
typedef int32_t vr8i __attribute__((vector_size(32)));

__attribute__((always_inline)) static inline double lanes_sum(const vr8d *v) {
  const double *a = (const double *)v;
  return ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
}

/* Per width: W floats' first k (< W) lanes loaded (the rest `fill`) and stored; a block of W
 * exponentials at element offset i added into the eight lanes; a block divided by s in
 * double and rounded once; and the same loads and stores for 8 floats. */
#define AVX_MASK8(k) ((vr8i){0, 1, 2, 3, 4, 5, 6, 7} < (vr8i){0} + (int32_t)(k))

#define VMATH_LOAD8_AVX(SUF, TARGET)                                                         \
  __attribute__((target(TARGET), always_inline)) static inline void load8n_##SUF(           \
      vr8f *v, const float *p, int64_t k) {                                                  \
    *v = (vr8f)_mm256_maskload_ps(p, (__m256i)AVX_MASK8(k));                                 \
  }                                                                                          \
  __attribute__((target(TARGET), always_inline)) static inline void store8n_##SUF(          \
      float *p, const vr8f *v, int64_t k) {                                                  \
    _mm256_maskstore_ps(p, (__m256i)AVX_MASK8(k), (__m256)*v);                               \
  }

VMATH_LOAD8_AVX(w16, "avx512f")
VMATH_LOAD8_AVX(w8, "avx2")

/* The maximum of a block's lanes, NaN if any lane is NaN (a tree of NaN-keeping maxima). */
__attribute__((always_inline)) static inline float max_nan(float a, float b) { return a > b || a != a ? a : b; }

__attribute__((target("avx512f"), always_inline)) static inline float hmax_w16(vf_w16 v) {
  vr8f a = __builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7);
  vr8f b = __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15);
  const vr8i keep = (a > b) | (a != a);
  vr8f m = (vr8f)((keep & (vr8i)a) | (~keep & (vr8i)b));
  ic_v4f c = __builtin_shufflevector(m, m, 0, 1, 2, 3), d = __builtin_shufflevector(m, m, 4, 5, 6, 7);
  c = ic_v4_select((c > d) | (c != c), c, d);
  return max_nan(max_nan(c[0], c[1]), max_nan(c[2], c[3]));
}
__attribute__((target("avx512f"), always_inline)) static inline vf_w16 loadn_w16(
    const float *p, int64_t k, float fill) {
  return (vf_w16)_mm512_mask_loadu_ps(_mm512_set1_ps(fill), (__mmask16)((1u << k) - 1), p);
}
__attribute__((target("avx512f"), always_inline)) static inline void storen_w16(
    float *p, vf_w16 v, int64_t k) {
  _mm512_mask_storeu_ps(p, (__mmask16)((1u << k) - 1), (__m512)v);
}
__attribute__((target("avx512f"), always_inline)) static inline void acc_w16(vr8d *acc,
                                                                             vf_w16 e,
                                                                             int64_t i) {
  (void)i;
  *acc += __builtin_convertvector(__builtin_shufflevector(e, e, 0, 1, 2, 3, 4, 5, 6, 7), vr8d);
  *acc += __builtin_convertvector(__builtin_shufflevector(e, e, 8, 9, 10, 11, 12, 13, 14, 15),
                                  vr8d);
}
__attribute__((target("avx512f"), always_inline)) static inline vf_w16 div_w16(vf_w16 e,
                                                                               const vr8d *sp) {
  const vr8d s = *sp;
  vr8f lo = __builtin_convertvector(
      __builtin_convertvector(__builtin_shufflevector(e, e, 0, 1, 2, 3, 4, 5, 6, 7), vr8d) / s,
      vr8f);
  vr8f hi = __builtin_convertvector(
      __builtin_convertvector(__builtin_shufflevector(e, e, 8, 9, 10, 11, 12, 13, 14, 15), vr8d) /
          s,
      vr8f);
  return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

__attribute__((target("avx2"), always_inline)) static inline float hmax_w8(vf_w8 m) {
  ic_v4f c = __builtin_shufflevector(m, m, 0, 1, 2, 3), d = __builtin_shufflevector(m, m, 4, 5, 6, 7);
  c = ic_v4_select((c > d) | (c != c), c, d);
  return max_nan(max_nan(c[0], c[1]), max_nan(c[2], c[3]));
}
__attribute__((target("avx2"), always_inline)) static inline vf_w8 loadn_w8(const float *p,
                                                                           int64_t k,
                                                                           float fill) {
  vr8f v;
  load8n_w8(&v, p, k);
  return (vf_w8)((AVX_MASK8(k) & (vr8i)v) | (~AVX_MASK8(k) & (vr8i)((vr8f){0} + fill)));
}
__attribute__((target("avx2"), always_inline)) static inline void storen_w8(float *p,
                                                                           vf_w8 v,
                                                                           int64_t k) {
  store8n_w8(p, &v, k);
}
__attribute__((target("avx2"), always_inline)) static inline void acc_w8(vr8d *acc, vf_w8 e,
                                                                         int64_t i) {
  (void)i;
  *acc += __builtin_convertvector(e, vr8d);
}
__attribute__((target("avx2"), always_inline)) static inline vf_w8 div_w8(vf_w8 e,
                                                                         const vr8d *s) {
  return __builtin_convertvector(__builtin_convertvector(e, vr8d) / *s, vf_w8);
}

/* The baseline (SSE2): vmath.h's 4-lane forms under VMATH_WIDE's names, tails through
 * memcpy. */
typedef ic_v4f vf_w4;
typedef ic_v4i vi_w4;
__attribute__((always_inline)) static inline vf_w4 splat_w4(float s) { return ic_v4_splat(s); }
__attribute__((always_inline)) static inline vf_w4 sel_w4(vi_w4 m, vf_w4 a, vf_w4 b) { return ic_v4_select(m, a, b); }
__attribute__((always_inline)) static inline vf_w4 exp_w4(vf_w4 x) { return ic_v4_expf(x); }
__attribute__((always_inline)) static inline float hmax_w4(vf_w4 c) {
  return max_nan(max_nan(c[0], c[1]), max_nan(c[2], c[3]));
}
__attribute__((always_inline)) static inline vf_w4 loadn_w4(const float *p, int64_t k, float fill) {
  float b[4] = {fill, fill, fill, fill};
  memcpy(b, p, (size_t)k * sizeof *b);
  return ic_v4_load(b);
}
__attribute__((always_inline)) static inline void storen_w4(float *p, vf_w4 v, int64_t k) {
  memcpy(p, &v, (size_t)k * sizeof(float));
}
__attribute__((always_inline)) static inline void load8n_w4(vr8f *v, const float *p, int64_t k) {
  memset(v, 0, sizeof *v);
  memcpy(v, p, (size_t)k * sizeof(float));
}
__attribute__((always_inline)) static inline void store8n_w4(float *p, const vr8f *v, int64_t k) {
  memcpy(p, v, (size_t)k * sizeof(float));
}
__attribute__((always_inline)) static inline void acc_w4(vr8d *acc, vf_w4 e, int64_t i) {
  vr4d d = __builtin_convertvector(e, vr4d), z = {0, 0, 0, 0};
  /* a block of 4 at offset i % 8 == 4 fills lanes 4..7; adding +0 leaves a lane as it is */
  *acc += i % 8 ? __builtin_shufflevector(z, d, 0, 1, 2, 3, 4, 5, 6, 7)
                : __builtin_shufflevector(d, z, 0, 1, 2, 3, 4, 5, 6, 7);
}
__attribute__((always_inline)) static inline vf_w4 div_w4(vf_w4 e, const vr8d *s) {
  const double d = (*(const double *)s);
  const vr4d s4 = {d, d, d, d};
  return __builtin_convertvector(__builtin_convertvector(e, vr4d) / s4, vf_w4);
}

#define VMATH_ROWS(SUF, W, TARGET)                                                           \
  __attribute__((target(TARGET), always_inline)) static inline void load8d_##SUF(            \
      vr8d *d, const float *p, int64_t k) {                                                  \
    vr8f v;                                                                                  \
    if (k == 8) memcpy(&v, p, sizeof v);                                                     \
    else load8n_##SUF(&v, p, k);                                                             \
    *d = __builtin_convertvector(v, vr8d);                                                   \
  }                                                                                          \
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
      vr8d acc = {0};                                                                        \
      for (int64_t i = 0; i < full; i += (W)) {                                              \
        vf_##SUF v;                                                                          \
        memcpy(&v, x + i, sizeof v);                                                         \
        v = v - vm;                                                                          \
        v = exp_##SUF(sel_##SUF(v < lo, lo, v));                                             \
        memcpy(y + i, &v, sizeof v);                                                         \
        acc_##SUF(&acc, v, i);                                                               \
      }                                                                                      \
      vf_##SUF et = {0};                                                                     \
      if (k) {                                                                               \
        et = xt - vm;                                                                        \
        et = exp_##SUF(sel_##SUF(et < lo, lo, et));                                          \
        et = sel_##SUF(iota < tail_lanes, et, splat_##SUF(0.0f));                            \
        acc_##SUF(&acc, et, full);                                                           \
      }                                                                                      \
      /* each quotient in double, rounded once */                                            \
      const vr8d s = (vr8d){0} + lanes_sum(&acc);                                            \
      for (int64_t i = 0; i < full; i += (W)) {                                              \
        vf_##SUF v;                                                                          \
        memcpy(&v, y + i, sizeof v);                                                         \
        v = div_##SUF(v, &s);                                                                \
        memcpy(y + i, &v, sizeof v);                                                         \
      }                                                                                      \
      if (k) storen_##SUF(y + full, div_##SUF(et, &s), k);                                   \
    }                                                                                        \
  }                                                                                          \
  __attribute__((target(TARGET))) static void moments_##SUF(const float *x, int64_t n,      \
                                                            double *mean, double *var) {    \
    vr8d acc = {0};                                                                          \
    for (int64_t i = 0; i < n; i += 8) {                                                     \
      vr8d d;                                                                                \
      load8d_##SUF(&d, x + i, n - i < 8 ? n - i : 8);                                        \
      acc += d;                                                                              \
    }                                                                                        \
    const double m = lanes_sum(&acc) / (double)n;                                            \
    const vr8d vm = (vr8d){0} + m;                                                           \
    acc = (vr8d){0};                                                                         \
    for (int64_t i = 0; i < n; i += 8) {                                                     \
      const int64_t k = n - i < 8 ? n - i : 8;                                               \
      vr8d d;                                                                                \
      load8d_##SUF(&d, x + i, k);                                                            \
      d -= vm;                                                                               \
      for (int64_t j = k; j < 8; j++) d[j] = 0.0; /* no element there */                     \
      acc += d * d;                                                                          \
    }                                                                                        \
    *mean = m;                                                                               \
    *var = lanes_sum(&acc) / (double)n;                                                      \
  }                                                                                          \
  __attribute__((target(TARGET))) static void normalize_##SUF(                              \
      float *y, const float *x, int64_t n, double mean, double inv, const float *scale,      \
      const float *bias) {                                                                   \
    const vr8d vm = (vr8d){0} + mean, vi = (vr8d){0} + inv;                                  \
    for (int64_t i = 0; i < n; i += 8) {                                                     \
      const int64_t k = n - i < 8 ? n - i : 8;                                               \
      vr8d t, u;                                                                             \
      load8d_##SUF(&t, x + i, k);                                                            \
      t = (t - vm) * vi;                                                                     \
      if (scale) load8d_##SUF(&u, scale + i, k), t *= u;                                     \
      if (bias) load8d_##SUF(&u, bias + i, k), t += u;                                       \
      vr8f v = __builtin_convertvector(t, vr8f);                                             \
      if (k == 8) memcpy(y + i, &v, sizeof v);                                               \
      else store8n_##SUF(y + i, &v, k);                                                      \
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
