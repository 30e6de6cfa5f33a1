/* ic_gemv_acc_f32 (gemv.h): y += x * Wt, one output block of W columns at a time held in
 * registers across the whole k loop. Written once with GCC vector extensions and compiled for
 * AVX-512F (16 lanes) and AVX2 (8 lanes) by target attributes, chosen at run time; every lane
 * does the same rounded multiply and add in the same k order, so both give the same bits. */
#include "kernels/cpu/gemv.h"

#include <string.h>

/* Four accumulators of W lanes (4 * W outputs) per pass; then single vectors; then a scalar
 * tail with the same operations. */
#define DEFINE_GEMV(NAME, W, TARGET)                                                         \
  __attribute__((target(TARGET))) static void NAME(const float *wt, int64_t ldw,            \
                                                    const float *x, float *y, int64_t k,     \
                                                    int64_t n) {                             \
    typedef float vf __attribute__((vector_size(4 * (W))));                                 \
    int64_t j = 0;                                                                           \
    for (; j + 4 * (W) <= n; j += 4 * (W)) {                                                 \
      vf a0, a1, a2, a3;                                                                     \
      memcpy(&a0, y + j, sizeof a0);                                                         \
      memcpy(&a1, y + j + (W), sizeof a1);                                                   \
      memcpy(&a2, y + j + 2 * (W), sizeof a2);                                               \
      memcpy(&a3, y + j + 3 * (W), sizeof a3);                                               \
      for (int64_t i = 0; i < k; i++) {                                                      \
        const float *r = wt + i * ldw + j;                                                     \
        vf w0, w1, w2, w3;                                                                   \
        memcpy(&w0, r, sizeof w0);                                                           \
        memcpy(&w1, r + (W), sizeof w1);                                                     \
        memcpy(&w2, r + 2 * (W), sizeof w2);                                                 \
        memcpy(&w3, r + 3 * (W), sizeof w3);                                                 \
        const float s = x[i];                                                                \
        a0 = a0 + w0 * s;                                                                    \
        a1 = a1 + w1 * s;                                                                    \
        a2 = a2 + w2 * s;                                                                    \
        a3 = a3 + w3 * s;                                                                    \
      }                                                                                      \
      memcpy(y + j, &a0, sizeof a0);                                                         \
      memcpy(y + j + (W), &a1, sizeof a1);                                                   \
      memcpy(y + j + 2 * (W), &a2, sizeof a2);                                               \
      memcpy(y + j + 3 * (W), &a3, sizeof a3);                                               \
    }                                                                                        \
    for (; j + (W) <= n; j += (W)) {                                                         \
      vf a;                                                                                  \
      memcpy(&a, y + j, sizeof a);                                                           \
      for (int64_t i = 0; i < k; i++) {                                                      \
        vf w;                                                                                \
        memcpy(&w, wt + i * ldw + j, sizeof w);                                                \
        a = a + w * x[i];                                                                    \
      }                                                                                      \
      memcpy(y + j, &a, sizeof a);                                                           \
    }                                                                                        \
    for (; j < n; j++) {                                                                     \
      float a = y[j];                                                                        \
      for (int64_t i = 0; i < k; i++) a = a + wt[i * ldw + j] * x[i];                          \
      y[j] = a;                                                                              \
    }                                                                                        \
  }

DEFINE_GEMV(gemv_avx512, 16, "avx512f")
DEFINE_GEMV(gemv_avx2, 8, "avx2")

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
