/* A bias row added to every row of a row-major [rows, n] matrix, in place: g[r][j] += b[j],
 * or (g[r][j] + b1[j]) + b2[j] for two biases, in that order. Shared by fc and the recurrent
 * kernels' input projections (rnn, lstm, gru, fusion_lstm, fusion_gru).
 *
 * Blocks of 8 with a fixed trip count through restrict pointers: GCC's -O2 cost model
 * vectorizes only such loops (a plain loop over n stayed scalar: `perf annotate` showed
 * addss in rnn's gates, about 1% of CRNN's run, and in fc's bias pass). Each element is its
 * own sum, so the bits are those of the plain loop at any width and thread count. The bias
 * must not overlap the matrix. */
#ifndef IC_KERNELS_CPU_ROWBIAS_H
#define IC_KERNELS_CPU_ROWBIAS_H

#include <stdint.h>

#define IC_ROWBIAS(T, SUF)                                                                  \
  static inline void ic_add8_##SUF(T *restrict g, const T *restrict b) {                   \
    for (int k = 0; k < 8; k++) g[k] += b[k];                                              \
  }                                                                                        \
  static inline void ic_add8x2_##SUF(T *restrict g, const T *restrict b1,                  \
                                     const T *restrict b2) {                               \
    for (int k = 0; k < 8; k++) g[k] = (g[k] + b1[k]) + b2[k];                             \
  }                                                                                        \
  static inline void ic_rows_add_##SUF(T *g, int64_t rows, int64_t n, const T *b) {        \
    for (int64_t r = 0; r < rows; r++, g += n) {                                           \
      int64_t j = 0;                                                                       \
      for (; j + 8 <= n; j += 8) ic_add8_##SUF(g + j, b + j);                              \
      for (; j < n; j++) g[j] += b[j];                                                     \
    }                                                                                      \
  }                                                                                        \
  static inline void ic_rows_add2_##SUF(T *g, int64_t rows, int64_t n, const T *b1,        \
                                        const T *b2) {                                     \
    for (int64_t r = 0; r < rows; r++, g += n) {                                           \
      int64_t j = 0;                                                                       \
      for (; j + 8 <= n; j += 8) ic_add8x2_##SUF(g + j, b1 + j, b2 + j);                   \
      for (; j < n; j++) g[j] = (g[j] + b1[j]) + b2[j];                                    \
    }                                                                                      \
  }

IC_ROWBIAS(float, f32)
IC_ROWBIAS(double, f64)

#endif
