/* Uniform draws for the random ops that need several per element or a draw per row
 * (gumbel_softmax, exponential, poisson, sampling_id, shuffle_batch): element i's j-th
 * block of four words is Philox at counter (i, j) under the op's key (philox.h), so every
 * element's draws are independent of the others and of the thread order. */
#ifndef IC_KERNELS_CPU_RANDUTIL_H
#define IC_KERNELS_CPU_RANDUTIL_H

#include "kernels/cpu/philox.h"

/* A stream of uniform words for one element. */
typedef struct ic_rstream {
  uint64_t key, i;
  uint32_t j; /* next block */
  int w;      /* next word of blk (4: exhausted) */
  ic_philox4 blk;
} ic_rstream;

static inline ic_rstream ic_rstream_at(uint64_t key, uint64_t i) {
  ic_rstream s = {key, i, 0, 4, {{0, 0, 0, 0}}};
  return s;
}

static inline uint32_t ic_rstream_word(ic_rstream *s) {
  if (s->w == 4) {
    s->blk = ic_philox4x32_10((uint32_t)s->i, (uint32_t)(s->i >> 32), s->j++, 0x5EEDu,
                              (uint32_t)s->key, (uint32_t)(s->key >> 32));
    s->w = 0;
  }
  return s->blk.v[s->w++];
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double ic_rstream_u53(ic_rstream *s) {
  const uint64_t hi = ic_rstream_word(s) >> 5, lo = ic_rstream_word(s) >> 6;
  return (double)((hi << 26) | lo) * (1.0 / 9007199254740992.0);
}

#endif
