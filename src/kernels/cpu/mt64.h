/* std::mt19937_64 and libstdc++'s uniform_int_distribution over it, as the CPU samplers of
 * Paddle draw (nce's math::Sampler, tdm_sampler's UniformSampler: a generator seeded with
 * the op's `seed`). */
#ifndef IC_KERNELS_CPU_MT64_H
#define IC_KERNELS_CPU_MT64_H

#include <stdint.h>

typedef struct mt64 {
  uint64_t s[312];
  int i;
} mt64;

static inline void mt64_seed(mt64 *m, uint64_t seed) {
  m->s[0] = seed;
  for (int i = 1; i < 312; i++) {
    m->s[i] = 6364136223846793005ull * (m->s[i - 1] ^ (m->s[i - 1] >> 62)) + (uint64_t)i;
  }
  m->i = 312;
}

static inline uint64_t mt64_next(mt64 *m) {
  if (m->i >= 312) {
    for (int k = 0; k < 312; k++) {
      const uint64_t y = (m->s[k] & 0xFFFFFFFF80000000ull) | (m->s[(k + 1) % 312] & 0x7FFFFFFFull);
      m->s[k] = m->s[(k + 156) % 312] ^ (y >> 1) ^ ((y & 1) ? 0xB5026F5AA96619E9ull : 0);
    }
    m->i = 0;
  }
  uint64_t x = m->s[m->i++];
  x ^= (x >> 29) & 0x5555555555555555ull;
  x ^= (x << 17) & 0x71D67FFFEDA60000ull;
  x ^= (x << 37) & 0xFFF7EEE000000000ull;
  x ^= x >> 43;
  return x;
}

/* uniform_int_distribution<int>(0, range) over a 64-bit engine (libstdc++ >= 11). */
static inline int64_t mt64_int(mt64 *m, uint64_t range) {
  const uint64_t n = range + 1;
  unsigned __int128 prod = (unsigned __int128)mt64_next(m) * n;
  uint64_t low = (uint64_t)prod;
  if (low < n) {
    const uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      prod = (unsigned __int128)mt64_next(m) * n;
      low = (uint64_t)prod;
    }
  }
  return (int64_t)(prod >> 64);
}

#endif
