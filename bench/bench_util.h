/* Small helpers shared by the benchmarks: timing, statistics, program building. */
#ifndef IC_BENCH_UTIL_H
#define IC_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
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

/* A chain of n `scale` ops (x -> t0 -> ... -> t{n-1}) on one-element float32 tensors: what the
 * overhead benchmarks run, so that the kernels cost almost nothing. Fetch "t{n-1}". */
static inline ic_program *bu_scale_chain(int n) {
  ic_builder *b = ic_builder_create();
  const int64_t d[1] = {1};
  char prev[32] = "x", cur[32];
  ic_builder_var(b, 0, "x", IC_FP32, 1, d, false);
  ic_builder_feed(b, "x");
  for (int i = 0; i < n; i++) {
    snprintf(cur, sizeof cur, "t%d", i);
    ic_builder_var(b, 0, cur, IC_FP32, 1, d, false);
    ic_builder_op *op = ic_builder_add_op(b, 0, "scale");
    ic_builder_in(op, "X", prev);
    ic_builder_out(op, "Out", cur);
    ic_builder_attr_float(op, "scale", 1.0f);
    ic_builder_attr_float(op, "bias", 1.0f);
    memcpy(prev, cur, sizeof cur);
  }
  ic_builder_fetch(b, prev);
  ic_program *p;
  BU_CHECK(ic_builder_build(b, &p, NULL, 0));
  ic_builder_destroy(b);
  return p;
}

#endif
