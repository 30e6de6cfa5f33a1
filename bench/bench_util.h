/* Small helpers shared by the benchmarks: timing, statistics, program building. */
#ifndef IC_BENCH_UTIL_H
#define IC_BENCH_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "icore/icore.h"

static inline double bu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int bu_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The q-quantile (0.5 = median) of n samples; sorts them. */
static inline double bu_quantile(double *v, size_t n, double q) {
  qsort(v, n, sizeof *v, bu_cmp);
  size_t i = (size_t)(q * (double)(n - 1) + 0.5);
  return v[i < n ? i : n - 1];
}

#define BU_CHECK(x)                                                               \
  do {                                                                            \
    ic_status st_ = (x);                                                          \
    if (st_ != IC_OK) {                                                           \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #x,           \
              ic_status_name(st_));                                               \
      exit(1);                                                                    \
    }                                                                             \
  } while (0)

#endif
