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

#define VDIV_WIDE(SUF, W, TARGET)                                                            \
  __attribute__((target(TARGET))) static void vdiv_##SUF(float *y, int64_t n, double d) {    \
    typedef float vfl __attribute__((vector_size(4 * (W))));                                 \
    typedef double vdl __attribute__((vector_size(8 * (W))));                                \
    const vdl vd = (vdl){0} + d;                                                             \
    int64_t i = 0;                                                                           \
    for (; i + (W) <= n; i += (W)) {                                                         \
      vfl v;                                                                                 \
      memcpy(&v, y + i, sizeof v);                                                           \
      v = __builtin_convertvector(__builtin_convertvector(v, vdl) / vd, vfl);                \
      memcpy(y + i, &v, sizeof v);                                                           \
    }                                                                                        \
    for (; i < n; i++) y[i] = (float)((double)y[i] / d);                                     \
  }

VDIV_WIDE(w16, 8, "avx512f")
VDIV_WIDE(w8, 4, "avx2")

void ic_vdivf_f64(float *y, int64_t n, double d) {
  if (__builtin_cpu_supports("avx512f")) {
    vdiv_w16(y, n, d);
  } else if (__builtin_cpu_supports("avx2")) {
    vdiv_w8(y, n, d);
  } else {
    for (int64_t i = 0; i < n; i++) y[i] = (float)((double)y[i] / d);
  }
}
