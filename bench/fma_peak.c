/* The single-thread float32 FMA peak of this CPU: twelve independent chains of fused
 * multiply-adds on 512-bit vectors (AVX-512F), or 256-bit ones (AVX2 + FMA) where the CPU has
 * no AVX-512, best of 5 rounds. The ceiling the convolution rows of the peer tables are read
 * against (docs/BENCHMARKS.md, "5b"): a layer of F flops cannot take less than F / peak seconds.
 * Usage: fma_peak. Not a test. */
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define CHAINS 12
#define ITERS 20000000L

__attribute__((target("avx512f"))) static double peak512(float *sink) {
  __m512 a[CHAINS], b = _mm512_set1_ps(1.0000001f), c = _mm512_set1_ps(1e-7f);
  for (int i = 0; i < CHAINS; i++) a[i] = _mm512_set1_ps((float)i);
  double best = 1e30;
  for (int r = 0; r < 5; r++) {
    double t0 = now();
    for (long i = 0; i < ITERS; i++) {
      /* written out: a loop over the array kept the chains in memory */
#define F(k) a[k] = _mm512_fmadd_ps(a[k], b, c);
      F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10) F(11)
#undef F
    }
    double t = now() - t0;
    if (t < best) best = t;
  }
  float s = 0;
  for (int i = 0; i < CHAINS; i++) s += _mm512_reduce_add_ps(a[i]);
  *sink = s;
  return (double)ITERS * CHAINS * 32 / best / 1e9;
}

__attribute__((target("avx2,fma"))) static double peak256(float *sink) {
  __m256 a[CHAINS], b = _mm256_set1_ps(1.0000001f), c = _mm256_set1_ps(1e-7f);
  for (int i = 0; i < CHAINS; i++) a[i] = _mm256_set1_ps((float)i);
  double best = 1e30;
  for (int r = 0; r < 5; r++) {
    double t0 = now();
    for (long i = 0; i < ITERS; i++) {
#define F(k) a[k] = _mm256_fmadd_ps(a[k], b, c);
      F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10) F(11)
#undef F
    }
    double t = now() - t0;
    if (t < best) best = t;
  }
  float s = 0, v[8];
  for (int i = 0; i < CHAINS; i++) {
    _mm256_storeu_ps(v, a[i]);
    for (int j = 0; j < 8; j++) s += v[j];
  }
  *sink = s;
  return (double)ITERS * CHAINS * 16 / best / 1e9;
}

int main(void) {
  float sink = 0;
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) {
    printf("fma_peak: %.1f GFLOP/s (AVX-512F, 1 thread)\n", peak512(&sink));
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    printf("fma_peak: %.1f GFLOP/s (AVX2 + FMA, 1 thread)\n", peak256(&sink));
  } else {
    printf("fma_peak: neither AVX-512F nor AVX2 + FMA here\n");
    return 1;
  }
  return sink == 12345.0f; /* keeps the chains live */
}
