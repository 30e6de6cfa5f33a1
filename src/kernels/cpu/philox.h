/* Counter-based random numbers: Philox4x32-10 (Salmon et al., "Parallel random numbers: as
 * easy as 1, 2, 3", SC'11). A pure function of (counter, key): no generator state, so any
 * element of a random op can be computed by any thread in any order and a seed gives the
 * same tensor on every run, with any thread count, on the CPU and (through IC_PHILOX_FN)
 * on CUDA devices.
 *
 * How icore's random ops use it: the key is the op's `seed` attribute when non-zero, else a
 * mix of the executor's seed and the op's position (ic_philox_key); element i of the
 * output reads word i % 4 of the block for counter i / 4. icore's values therefore do not
 * match Paddle's bit for bit: Paddle draws from a stateful mt19937_64 on the CPU and from
 * curand's Philox with its own offsets on GPUs, and those two differ from each other too. */
#ifndef IC_KERNELS_CPU_PHILOX_H
#define IC_KERNELS_CPU_PHILOX_H

#include <math.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define IC_PHILOX_FN static inline __host__ __device__
#else
#define IC_PHILOX_FN static inline
#endif

typedef struct ic_philox4 {
  uint32_t v[4];
} ic_philox4;

/* One Philox4x32 block: 10 rounds over the 128-bit counter with the 64-bit key. */
IC_PHILOX_FN ic_philox4 ic_philox4x32_10(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3,
                                         uint32_t k0, uint32_t k1) {
  for (int r = 0; r < 10; r++) {
    if (r > 0) { /* the key schedule: bump by the Weyl constants before each later round */
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
    uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0;
    uint32_t hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
    uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
  }
  ic_philox4 out = {{c0, c1, c2, c3}};
  return out;
}

/* The block holding element i of a stream: counter i / 4 (its 64 bits in words 0 and 1). */
IC_PHILOX_FN ic_philox4 ic_philox_block(uint64_t key, uint64_t i) {
  uint64_t c = i >> 2;
  return ic_philox4x32_10((uint32_t)c, (uint32_t)(c >> 32), 0, 0, (uint32_t)key,
                          (uint32_t)(key >> 32));
}

/* splitmix64's finalizer: a bijective 64-bit mix. */
IC_PHILOX_FN uint64_t ic_philox_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* The key of an op's stream: its own seed when non-zero, so a seeded op repeats whatever
 * else the program or executor does; else one derived from the executor's seed and the op's
 * position, so that unseeded ops draw different streams. */
IC_PHILOX_FN uint64_t ic_philox_key(int64_t op_seed, uint64_t env_seed, uint64_t op_key) {
  if (op_seed != 0) return (uint64_t)op_seed;
  return ic_philox_mix(env_seed ^ ic_philox_mix(op_key + 0x9E3779B97F4A7C15ull));
}

/* A 32-bit word as a uniform float in [0, 1) with 24 random bits (exact in float). */
IC_PHILOX_FN float ic_philox_u24(uint32_t bits) {
  return (float)(bits >> 8) * (1.0f / 16777216.0f);
}

/* Two words as two standard normals (Box-Muller). u1 is in (0, 1] so its log is finite. */
IC_PHILOX_FN void ic_philox_normal2(uint32_t w0, uint32_t w1, double *z0, double *z1) {
  const double two_pi = 6.283185307179586476925286766559;
  double u1 = ((double)w0 + 1.0) * (1.0 / 4294967296.0);
  double u2 = (double)w1 * (1.0 / 4294967296.0);
  double r = sqrt(-2.0 * log(u1));
  *z0 = r * cos(two_pi * u2);
  *z1 = r * sin(two_pi * u2);
}

#endif
