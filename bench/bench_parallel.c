/* Benchmark 2: parallel speed-up. B independent branches of K matmuls on [S, S] floats
 * (weights persistable), joined by a sum, run with 1 and with 2 executor threads. The
 * kernels' own BLAS threading is left to the executor, which gives each kernel the cores
 * its pool leaves idle (2 threads on 2 cores: BLAS single-threaded). */
#include <stdio.h>
#include <string.h>

#include "bench_util.h"

static ic_program *branches(int nb, int k, int64_t s, ic_scope *scope) {
  ic_builder *b = ic_builder_create();
  const int64_t d[2] = {s, s};
  ic_builder_var(b, 0, "x", IC_FP32, 2, d, false);
  ic_builder_var(b, 0, "out", IC_FP32, 2, d, false);
  ic_builder_feed(b, "x");
  char ends[8][32];
  const char *endp[8];
  ic_tensor *w;
  BU_CHECK(ic_tensor_create(IC_FP32, 2, d, &w));
  float *wd = ic_tensor_data(w);
  for (int64_t i = 0; i < s * s; i++) wd[i] = (float)((i * 7919) % 101) / 101.0f / (float)s;
  for (int br = 0; br < nb; br++) {
    char prev[32] = "x";
    for (int j = 0; j < k; j++) {
      char wn[32], out[32];
      snprintf(wn, sizeof wn, "w%d_%d", br, j);
      snprintf(out, sizeof out, "h%d_%d", br, j);
      ic_builder_var(b, 0, wn, IC_FP32, 2, d, true);
      ic_builder_var(b, 0, out, IC_FP32, 2, d, false);
      BU_CHECK(ic_scope_set(scope, wn, w));
      ic_builder_op *op = ic_builder_add_op(b, 0, "matmul_v2");
      ic_builder_in(op, "X", prev);
      ic_builder_in(op, "Y", wn);
      ic_builder_out(op, "Out", out);
      snprintf(prev, sizeof prev, "%s", out);
    }
    snprintf(ends[br], sizeof ends[br], "%s", prev);
    endp[br] = ends[br];
  }
  ic_builder_op *sum = ic_builder_add_op(b, 0, "sum");
  ic_builder_input(sum, "X", (size_t)nb, endp);
  ic_builder_out(sum, "Out", "out");
  ic_builder_fetch(b, "out");
  ic_program *p;
  BU_CHECK(ic_builder_build(b, &p, NULL, 0));
  ic_builder_destroy(b);
  ic_tensor_destroy(w);
  return p;
}

static double run(ic_executor *e, const ic_program *p, ic_scope *s, const ic_tensor *x) {
  const char *feed = "x", *fetch = "out";
  ic_tensor *out;
  double t0 = bu_now();
  BU_CHECK(ic_executor_run(e, p, s, 1, &feed, &x, 1, &fetch, &out));
  double t = bu_now() - t0;
  ic_tensor_destroy(out);
  return t;
}

int main(int argc, char **argv) {
  int64_t s = argc > 1 ? atoi(argv[1]) : 256;
  int k = argc > 2 ? atoi(argv[2]) : 8;
  int rounds = argc > 3 ? atoi(argv[3]) : 20;
  printf("# parallel speed-up: B branches of %d matmuls [%lld x %lld], joined; %d rounds, medians\n",
         k, (long long)s, (long long)s, rounds);
  printf("%-10s %14s %14s %10s\n", "branches", "1 thread (ms)", "2 threads (ms)", "speed-up");
  for (int nb = 2; nb <= 4; nb += 2) {
    ic_scope *scope;
    BU_CHECK(ic_scope_create(NULL, &scope));
    ic_program *p = branches(nb, k, s, scope);
    ic_tensor *x;
    BU_CHECK(ic_tensor_create(IC_FP32, 2, (const int64_t[]){s, s}, &x));
    float *xd = ic_tensor_data(x);
    for (int64_t i = 0; i < s * s; i++) xd[i] = (float)(i % 13) / 13.0f;
    ic_executor *e[2];
    for (int t = 0; t < 2; t++) {
      ic_options o;
      ic_options_default(&o);
      o.threads = t + 1;
      o.serial = t == 0;
      BU_CHECK(ic_executor_create(&o, &e[t]));
      run(e[t], p, scope, x);
    }
    double *ts[2] = {calloc((size_t)rounds, sizeof(double)), calloc((size_t)rounds, sizeof(double))};
    for (int r = 0; r < rounds; r++) {
      for (int t = 0; t < 2; t++) ts[t][r] = run(e[t], p, scope, x);
    }
    double m1 = bu_quantile(ts[0], (size_t)rounds, 0.5), m2 = bu_quantile(ts[1], (size_t)rounds, 0.5);
    printf("%-10d %14.2f %14.2f %9.2fx\n", nb, m1 * 1e3, m2 * 1e3, m1 / m2);
    for (int t = 0; t < 2; t++) {
      free(ts[t]);
      ic_executor_destroy(e[t]);
    }
    ic_tensor_destroy(x);
    ic_program_destroy(p);
    ic_scope_destroy(scope);
  }
  return 0;
}
