/* icore bench: the same program and feeds in uncompiled and compiled mode, alternating run
 * by run so that machine noise hits both alike. Reports median and p90 latency, the first
 * run's cost (the compiled first run includes analysis), the speed-up, and whether the
 * fetched outputs are bitwise equal. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_model.h"
#include "interp/interp.h"

const cli_opt k_bench_opts[] = {
    CLI_MODEL_OPTS,
    {"--threads", "N", false, "threads for both modes, 0 = one per core (default 0)"},
    {"--no-fuse", NULL, false, "no inference rewrites in compiled mode"},
    {"--device", "PLACE", false, "run the compiled mode on cpu, cuda:N or emu:N"},
    {"--streams", "POLICY", false, "device stream policy: single, per-backend, per-operator"},
    {"--cuda-graph", NULL, false, "compiled mode records a CUDA graph and replays it"},
    {"--winograd", NULL, false, "compiled mode: 3x3 convolutions by Winograd where faster"},
    {"--prune", NULL, false, "both modes run only the ops the fetches need"},
    {"--iters", "N", false, "timed runs per mode (default 20)"},
    {"--warmup", "N", false, "untimed runs per mode after the first (default 3)"},
    {"--json", "FILE", false, "also write the results as JSON"},
};
const size_t k_n_bench_opts = sizeof k_bench_opts / sizeof k_bench_opts[0];

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double quantile(double *v, size_t n, double q) {
  qsort(v, n, sizeof *v, cmp_double);
  size_t i = (size_t)(q * (double)(n - 1) + 0.5);
  return v[i < n ? i : n - 1];
}

typedef struct mode_result {
  ic_executor *e;
  double first_ms;
  double *times;
  double median, p90;
  ic_tensor **out;
} mode_result;

static int timed_run(mode_result *r, const cli_model *m, double *ms) {
  for (size_t i = 0; i < m->n_fetches; i++) {
    ic_tensor_destroy(r->out[i]);
    r->out[i] = NULL;
  }
  double t0 = now_ms();
  if (ic_executor_run(r->e, m->prog, m->scope, m->n_feeds, m->feed_names,
                      (const ic_tensor *const *)m->feeds, m->n_fetches, m->fetch_names, r->out)) {
    return cli_error(CLI_FAIL, "%s", ic_executor_errmsg(r->e));
  }
  *ms = now_ms() - t0;
  return CLI_OK;
}

/* Largest absolute and relative differences between two float outputs; bitwise equality. */
static bool compare(const ic_tensor *a, const ic_tensor *b, double *max_abs, double *max_rel) {
  size_t n = ic_tensor_nbytes(a);
  bool same = ic_tensor_dtype(a) == ic_tensor_dtype(b) && n == ic_tensor_nbytes(b) &&
              memcmp(ic_tensor_cdata(a), ic_tensor_cdata(b), n) == 0;
  if (ic_tensor_dtype(a) == IC_FP32 && n == ic_tensor_nbytes(b)) {
    const float *x = ic_tensor_cdata(a), *y = ic_tensor_cdata(b);
    for (int64_t k = 0; k < ic_tensor_numel(a); k++) {
      double d = fabs((double)x[k] - y[k]);
      if (d > *max_abs) *max_abs = d;
      double rel = d / (fabs((double)x[k]) + 1e-12);
      if (rel > *max_rel) *max_rel = rel;
    }
  }
  return same;
}

int cmd_bench(const cli_args *a) {
  long long iters = 20, warmup = 3;
  const char *v;
  if ((v = cli_get(a, "--iters")) && !cli_int("--iters", v, 1, 1000000, &iters)) return CLI_USAGE;
  if ((v = cli_get(a, "--warmup")) && !cli_int("--warmup", v, 0, 1000000, &warmup)) return CLI_USAGE;
  ic_options o;
  int rc = cli_exec_options(a, &o);
  if (rc) return rc;
  cli_model m;
  mode_result r[2] = {{0}};
  static const char *const names[2] = {"uncompiled", "compiled"};
  bool tty = isatty(2);
  if ((rc = cli_model_open(a, true, &m))) goto done;
  for (int k = 0; k < 2; k++) {
    ic_options mo = o;
    mo.mode = k ? IC_MODE_COMPILED : IC_MODE_UNCOMPILED;
    if (!k) mo.device = (ic_place){IC_PLACE_CPU, 0}; /* the uncompiled reference is CPU-only */
    r[k].times = calloc((size_t)iters, sizeof(double));
    r[k].out = calloc(m.n_fetches, sizeof(ic_tensor *));
    if (!r[k].times || !r[k].out || ic_executor_create(&mo, &r[k].e)) {
      rc = cli_error(CLI_FAIL, "cannot create the %s executor", names[k]);
      goto done;
    }
    if ((rc = timed_run(&r[k], &m, &r[k].first_ms))) goto done;
  }
  for (long long w = 0; w < warmup; w++) {
    for (int k = 0; k < 2; k++) {
      double ms;
      if ((rc = timed_run(&r[k], &m, &ms))) goto done;
    }
  }
  for (long long i = 0; i < iters; i++) {
    for (int k = 0; k < 2; k++) {
      if ((rc = timed_run(&r[k], &m, &r[k].times[i]))) goto done;
    }
    if (tty) fprintf(stderr, "\r[bench] %lld/%lld rounds", i + 1, iters);
  }
  if (tty) fprintf(stderr, "\r%40s\r", "");
  for (int k = 0; k < 2; k++) {
    r[k].median = quantile(r[k].times, (size_t)iters, 0.5);
    r[k].p90 = quantile(r[k].times, (size_t)iters, 0.9);
  }
  double max_abs = 0, max_rel = 0;
  bool bitwise = true;
  for (size_t i = 0; i < m.n_fetches; i++) bitwise &= compare(r[0].out[i], r[1].out[i], &max_abs, &max_rel);
  const ic_plan *plan = ic_executor_last_plan(r[1].e);
  double analysis = plan ? plan->stats.analysis_ms : 0;
  int threads = o.threads;
  printf("model: %s (%zu instructions)\n", a->pos[0], plan ? plan->n_instrs : 0);
  printf("threads: %d%s, %lld rounds after %lld warm-up, modes alternating, rewrites %s\n",
         threads, threads ? "" : " (one per core)", iters, warmup, o.fuse ? "on" : "off");
  printf("%-12s %12s %12s %16s\n", "mode", "median (ms)", "p90 (ms)", "first run (ms)");
  for (int k = 0; k < 2; k++) {
    printf("%-12s %12.3f %12.3f %16.3f\n", names[k], r[k].median, r[k].p90, r[k].first_ms);
  }
  printf("analysis (compiled first run): %.3f ms\n", analysis);
  printf("speed-up (median uncompiled / compiled): %.2fx\n", r[0].median / r[1].median);
  if (bitwise) printf("outputs: bitwise equal\n");
  else printf("outputs: differ (max abs %.3g, max rel %.3g)\n", max_abs, max_rel);
  const char *json = cli_get(a, "--json");
  if (json) {
    FILE *f = fopen(json, "w");
    if (!f) {
      rc = cli_error(CLI_FAIL, "--json %s: cannot open for writing", json);
      goto done;
    }
    fprintf(f, "{\"model\": ");
    cli_json_string(f, a->pos[0]);
    fprintf(f, ", \"threads\": %d, \"iters\": %lld, \"warmup\": %lld, \"fuse\": %s, "
               "\"instructions\": %zu,\n",
            threads, iters, warmup, o.fuse ? "true" : "false", plan ? plan->n_instrs : 0);
    for (int k = 0; k < 2; k++) {
      fprintf(f, " \"%s\": {\"median_ms\": %.6f, \"p90_ms\": %.6f, \"first_run_ms\": %.6f},\n",
              names[k], r[k].median, r[k].p90, r[k].first_ms);
    }
    fprintf(f, " \"analysis_ms\": %.6f, \"speedup\": %.4f, \"bitwise_equal\": %s, "
               "\"max_abs_diff\": %.6g, \"max_rel_diff\": %.6g}\n",
            analysis, r[0].median / r[1].median, bitwise ? "true" : "false", max_abs, max_rel);
    if (fclose(f) != 0) rc = cli_error(CLI_FAIL, "--json %s: write failed", json);
  }
done:
  for (int k = 0; k < 2; k++) {
    for (size_t i = 0; r[k].out && i < m.n_fetches; i++) ic_tensor_destroy(r[k].out[i]);
    free(r[k].out);
    free(r[k].times);
    ic_executor_destroy(r[k].e);
  }
  cli_model_close(&m);
  return rc;
}
