/* ic_gemv_acc_f32 (gemv.h): y += x * Wt, one output block of W columns at a time held in
 * registers across the whole k loop. Written once with GCC vector extensions and compiled for
 * AVX-512F (16 lanes) and AVX2 (8 lanes) by target attributes, chosen at run time; every lane
 * does the same rounded multiply and add in the same k order, so both give the same bits. */
#include "kernels/cpu/gemv.h"

#include <string.h>

/* Rows of wt taken per pass over y: y goes through the registers once per 16 rows, and the
 * 16 rows stream through the cache side by side, each read in order along its columns (one
 * column block across all k, the first form, read the matrix 128 bytes per row and page:
 * MobileNetV2's 1280 x 1000 classifier from memory 0.39-0.59 -> 0.13-0.22 ms, best of 30). */
#define IC_GEMV_KB 16

/* Per pass, four accumulators of W lanes (4 * W outputs); then single vectors; then a scalar
 * tail with the same operations. Each output still sees its products in ascending k. */
#define DEFINE_GEMV(NAME, W, TARGET)                                                         \
  __attribute__((target(TARGET))) static void NAME(const float *wt, int64_t ldw,            \
                                                    const float *x, float *y, int64_t k,     \
                                                    int64_t n) {                             \
    typedef float vf __attribute__((vector_size(4 * (W))));                                 \
    for (int64_t i0 = 0; i0 < k; i0 += IC_GEMV_KB) {                                         \
      const int64_t ie = k - i0 < IC_GEMV_KB ? k : i0 + IC_GEMV_KB;                          \
      int64_t j = 0;                                                                         \
      for (; j + 4 * (W) <= n; j += 4 * (W)) {                                               \
        vf a0, a1, a2, a3;                                                                   \
        memcpy(&a0, y + j, sizeof a0);                                                       \
        memcpy(&a1, y + j + (W), sizeof a1);                                                 \
        memcpy(&a2, y + j + 2 * (W), sizeof a2);                                             \
        memcpy(&a3, y + j + 3 * (W), sizeof a3);                                             \
        for (int64_t i = i0; i < ie; i++) {                                                  \
          const float *r = wt + i * ldw + j;                                                 \
          vf w0, w1, w2, w3;                                                                 \
          memcpy(&w0, r, sizeof w0);                                                         \
          memcpy(&w1, r + (W), sizeof w1);                                                   \
          memcpy(&w2, r + 2 * (W), sizeof w2);                                               \
          memcpy(&w3, r + 3 * (W), sizeof w3);                                               \
          const float s = x[i];                                                              \
          a0 = a0 + w0 * s;                                                                  \
          a1 = a1 + w1 * s;                                                                  \
          a2 = a2 + w2 * s;                                                                  \
          a3 = a3 + w3 * s;                                                                  \
        }                                                                                    \
        memcpy(y + j, &a0, sizeof a0);                                                       \
        memcpy(y + j + (W), &a1, sizeof a1);                                                 \
        memcpy(y + j + 2 * (W), &a2, sizeof a2);                                             \
        memcpy(y + j + 3 * (W), &a3, sizeof a3);                                             \
      }                                                                                      \
      for (; j + (W) <= n; j += (W)) {                                                       \
        vf a;                                                                                \
        memcpy(&a, y + j, sizeof a);                                                         \
        for (int64_t i = i0; i < ie; i++) {                                                  \
          vf w;                                                                              \
          memcpy(&w, wt + i * ldw + j, sizeof w);                                            \
          a = a + w * x[i];                                                                  \
        }                                                                                    \
        memcpy(y + j, &a, sizeof a);                                                         \
      }                                                                                      \
      for (; j < n; j++) {                                                                   \
        float a = y[j];                                                                      \
        for (int64_t i = i0; i < ie; i++) a = a + wt[i * ldw + j] * x[i];                    \
        y[j] = a;                                                                            \
      }                                                                                      \
    }                                                                                        \
  }

DEFINE_GEMV(gemv_avx512, 16, "avx512f")
DEFINE_GEMV(gemv_avx2, 8, "avx2")

/* The packed form: wp holds panels of IC_GEMV_PANEL_VECS * W columns, each panel's k rows
 * contiguous (ic_gemv_pack_f32), so a panel streams through the cache in order and its eight
 * accumulators give the adds eight independent chains. The operations per output are those
 * of the unpacked form (one rounded product, then one rounded sum, ascending k); a partial
 * last panel is computed whole on a padded copy of y (its pad columns hold zeros). */
#define DEFINE_GEMV_PACKED(NAME, W, TARGET)                                                  \
  __attribute__((target(TARGET))) static void NAME(const float *wp, const float *x, float *y, \
                                                    int64_t k, int64_t n) {                  \
    typedef float vf __attribute__((vector_size(4 * (W))));                                 \
    enum { P = IC_GEMV_PANEL_VECS * (W) };                                                   \
    for (int64_t j = 0; j < n; j += P, wp += k * P) {                                        \
      float pad[P];                                                                          \
      const bool part = j + P > n;                                                           \
      float *yj = y + j;                                                                     \
      if (part) {                                                                            \
        memset(pad, 0, sizeof pad);                                                          \
        memcpy(pad, y + j, (size_t)(n - j) * sizeof(float));                                 \
        yj = pad;                                                                            \
      }                                                                                      \
      vf a0, a1, a2, a3, a4, a5, a6, a7;                                                     \
      memcpy(&a0, yj, sizeof a0);                                                            \
      memcpy(&a1, yj + (W), sizeof a1);                                                      \
      memcpy(&a2, yj + 2 * (W), sizeof a2);                                                  \
      memcpy(&a3, yj + 3 * (W), sizeof a3);                                                  \
      memcpy(&a4, yj + 4 * (W), sizeof a4);                                                  \
      memcpy(&a5, yj + 5 * (W), sizeof a5);                                                  \
      memcpy(&a6, yj + 6 * (W), sizeof a6);                                                  \
      memcpy(&a7, yj + 7 * (W), sizeof a7);                                                  \
      for (int64_t i = 0; i < k; i++) {                                                      \
        const float *r = wp + i * P;                                                         \
        const float s = x[i];                                                                \
        vf w0, w1, w2, w3, w4, w5, w6, w7;                                                   \
        memcpy(&w0, r, sizeof w0);                                                           \
        memcpy(&w1, r + (W), sizeof w1);                                                     \
        memcpy(&w2, r + 2 * (W), sizeof w2);                                                 \
        memcpy(&w3, r + 3 * (W), sizeof w3);                                                 \
        memcpy(&w4, r + 4 * (W), sizeof w4);                                                 \
        memcpy(&w5, r + 5 * (W), sizeof w5);                                                 \
        memcpy(&w6, r + 6 * (W), sizeof w6);                                                 \
        memcpy(&w7, r + 7 * (W), sizeof w7);                                                 \
        a0 = a0 + w0 * s;                                                                    \
        a1 = a1 + w1 * s;                                                                    \
        a2 = a2 + w2 * s;                                                                    \
        a3 = a3 + w3 * s;                                                                    \
        a4 = a4 + w4 * s;                                                                    \
        a5 = a5 + w5 * s;                                                                    \
        a6 = a6 + w6 * s;                                                                    \
        a7 = a7 + w7 * s;                                                                    \
      }                                                                                      \
      memcpy(yj, &a0, sizeof a0);                                                            \
      memcpy(yj + (W), &a1, sizeof a1);                                                      \
      memcpy(yj + 2 * (W), &a2, sizeof a2);                                                  \
      memcpy(yj + 3 * (W), &a3, sizeof a3);                                                  \
      memcpy(yj + 4 * (W), &a4, sizeof a4);                                                  \
      memcpy(yj + 5 * (W), &a5, sizeof a5);                                                  \
      memcpy(yj + 6 * (W), &a6, sizeof a6);                                                  \
      memcpy(yj + 7 * (W), &a7, sizeof a7);                                                  \
      if (part) memcpy(y + j, pad, (size_t)(n - j) * sizeof(float));                         \
    }                                                                                        \
  }

DEFINE_GEMV_PACKED(gemv_packed_avx512, 16, "avx512f")
DEFINE_GEMV_PACKED(gemv_packed_avx2, 8, "avx2")

int64_t ic_gemv_panel(void) {
  return IC_GEMV_PANEL_VECS * (__builtin_cpu_supports("avx512f") ? 16 : 8);
}

int64_t ic_gemv_packed_size(int64_t k, int64_t n) {
  const int64_t p = ic_gemv_panel();
  return (n + p - 1) / p * p * k;
}

void ic_gemv_pack_f32(const float *w, int64_t n, int64_t k, float *wp) {
  const int64_t p = ic_gemv_panel();
  for (int64_t j0 = 0; j0 < n; j0 += p, wp += k * p) {
    for (int64_t i = 0; i < k; i++) {
      for (int64_t l = 0; l < p; l++) wp[i * p + l] = j0 + l < n ? w[(j0 + l) * k + i] : 0.0f;
    }
  }
}

void ic_gemv_packed_acc_f32(const float *wp, const float *x, float *y, int64_t k, int64_t n) {
  if (__builtin_cpu_supports("avx512f")) gemv_packed_avx512(wp, x, y, k, n);
  else gemv_packed_avx2(wp, x, y, k, n);
}

bool ic_gemv_available(void) {
  return __builtin_cpu_supports("avx2") || __builtin_cpu_supports("avx512f");
}

void ic_gemv_acc_f32(const float *wt, const float *x, float *y, int64_t k, int64_t n) {
  ic_gemv_acc_f32_ld(wt, n, x, y, k, n);
}

void ic_gemv_acc_f32_ld(const float *wt, int64_t ldw, const float *x, float *y, int64_t k,
                        int64_t n) {
  if (__builtin_cpu_supports("avx512f")) gemv_avx512(wt, ldw, x, y, k, n);
  else gemv_avx2(wt, ldw, x, y, k, n);
}
