/* Latency of one model in the compiled executor: median and p90 of N runs after warm-up,
 * with synthetic parameters and a random input of the given shape. Used by
 * bench/mobilenet_vs_torch.sh, which alternates it with the PyTorch peer.
 *   bench_model MODEL FEED D0,D1,.. [--threads N] [--iters N] [--warmup N] [--no-fuse]
 *               [--profile] [--device PLACE] [--plain-layout] [--no-joins] [--busy-core]
 *               [--winograd]
 * With --profile it also reports the sum of kernel times against the wall time, and the
 * eight slowest instructions (--top N: the N slowest).
 * cores_busy is the process's user + system CPU time over the wall time of the timed runs;
 * cpu_median_ms is the median of each run's process CPU time (at 1 thread, the run's work
 * without the time other processes held the core: steadier than wall time on a busy machine).
 * --save-params FILE writes the synthetic parameters as a combined .pdiparams file, and
 * --save-output FILE the first run's fetched tensor as raw float32 (for bench/peers.py,
 * which feeds the peers the same input: element i is ((i * 7919) % 2001) / 1000 - 1).
 * --busy-core starts a child process that spins on one core for the whole measurement (the
 * "another program holds a core" case) and kills it at the end.
 * --const-feed NAME=D0,D1,..=V (repeatable, at most 7) adds a float32 feed of those dims
 * filled with V, for programs with side inputs (PP-YOLOE+'s scale_factor, 1,2=1).
 * --plain-layout keeps activations plain NCHW between convolutions (the rewrites otherwise
 * keep them in oneDNN's blocked layout), to measure what that saves; --no-joins copies every
 * concat's inputs instead of letting their producers write them in place (analysis/join.c). */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"
#include "analysis/plan.h"
#include "interp/interp.h"

#define MAX_FEEDS 8

static double last_t0, last_t1; /* the last run's start and end (CLOCK_MONOTONIC seconds) */

static double run_once(ic_executor *e, ic_program *p, ic_scope *s, size_t n_feeds,
                       const char *const *feeds, ic_tensor *const *xs, const char *fetch) {
  ic_tensor *out;
  double t0 = bu_now();
  BU_CHECK(ic_executor_run(e, p, s, n_feeds, feeds, (const ic_tensor *const *)xs, 1, &fetch,
                           &out));
  last_t1 = bu_now();
  last_t0 = t0;
  double t = last_t1 - t0;
  ic_tensor_destroy(out);
  return t;
}

/* CPU time of the whole process (every thread), precise to the scheduler's accounting. */
static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_seconds(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec +
         u.ru_stime.tv_usec / 1e6;
}

/* A child that spins until killed: another process holding one core. */
static pid_t busy_core_start(void) {
  pid_t pid = fork();
  if (pid == 0) {
    /* Dies with the benchmark, even when it exits on an error. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1) _exit(0);
    volatile unsigned long x = 0;
    for (;;) x++;
  }
  if (pid < 0) {
    perror("bench_model: fork");
    exit(1);
  }
  struct timespec ts = {0, 200 * 1000 * 1000}; /* let it get scheduled */
  nanosleep(&ts, NULL);
  return pid;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: bench_model MODEL FEED D0,D1,.. [--threads N] [--iters N] "
                    "[--warmup N] [--no-fuse] [--profile] [--device PLACE] [--plain-layout] [--busy-core]\n"
                    "       [--winograd] [--no-joins]\n"
                    "       [--save-params FILE] [--save-output FILE] [--const-feed NAME=D0,D1,..=V]\n");
    return 2;
  }
  ic_options o;
  ic_options_default(&o);
  int iters = 50, warmup = 10;
  bool profile = false, plain_layout = false, busy_core = false, no_joins = false;
  int top_n = 8;
  const char *save_params = NULL, *save_output = NULL;
  const char *feeds[MAX_FEEDS] = {argv[2]};
  ic_tensor *xs[MAX_FEEDS] = {NULL};
  size_t n_feeds = 1;
  if (getenv("ICSERIAL")) o.serial = 1;
  for (int i = 4; i < argc; i++) {
    if (!strcmp(argv[i], "--threads") && i + 1 < argc) o.threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--iters") && i + 1 < argc) iters = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) warmup = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--no-fuse")) o.fuse = false;
    else if (!strcmp(argv[i], "--winograd")) o.winograd = true;
    else if (!strcmp(argv[i], "--profile")) profile = true;
    else if (!strcmp(argv[i], "--top") && i + 1 < argc) top_n = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--plain-layout")) plain_layout = true;
    else if (!strcmp(argv[i], "--no-joins")) no_joins = true;
    else if (!strcmp(argv[i], "--busy-core")) busy_core = true;
    else if (!strcmp(argv[i], "--save-params") && i + 1 < argc) save_params = argv[++i];
    else if (!strcmp(argv[i], "--save-output") && i + 1 < argc) save_output = argv[++i];
    else if (!strcmp(argv[i], "--device") && i + 1 < argc) BU_CHECK(ic_place_parse(argv[++i], &o.device));
    else if (!strcmp(argv[i], "--const-feed") && i + 1 < argc && n_feeds < MAX_FEEDS) {
      char *spec = argv[++i], *eq1 = strchr(spec, '='), *eq2 = eq1 ? strchr(eq1 + 1, '=') : NULL;
      if (!eq2) {
        fprintf(stderr, "bench_model: --const-feed %s: expected NAME=D0,D1,..=VALUE\n", spec);
        return 2;
      }
      *eq1 = *eq2 = '\0';
      int64_t cd[IC_MAX_RANK];
      int cn = 0;
      for (char *t = strtok(eq1 + 1, ",x"); t && cn < IC_MAX_RANK; t = strtok(NULL, ",x")) {
        cd[cn++] = atoll(t);
      }
      BU_CHECK(ic_tensor_create(IC_FP32, cn, cd, &xs[n_feeds]));
      float v = (float)atof(eq2 + 1), *d = ic_tensor_data(xs[n_feeds]);
      for (int64_t k = 0; k < ic_tensor_numel(xs[n_feeds]); k++) d[k] = v;
      feeds[n_feeds++] = spec;
    }
    else {
      fprintf(stderr, "bench_model: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  o.profile = profile;
  char err[1024];
  ic_program *p;
  ic_scope *s;
  if (ic_model_load(argv[1], NULL, IC_LOAD_NO_PARAMS, &p, &s, err, sizeof err) ||
      ic_params_random(p, 1, s, err, sizeof err)) {
    fprintf(stderr, "bench_model: %s\n", err);
    return 1;
  }
  if (save_params && ic_params_save(p, s, save_params, IC_PARAMS_COMBINED, err, sizeof err)) {
    fprintf(stderr, "bench_model: %s\n", err);
    return 1;
  }
  int64_t dims[IC_MAX_RANK];
  int nd = 0;
  for (char *t = strtok(argv[3], ",x"); t && nd < IC_MAX_RANK; t = strtok(NULL, ",x")) dims[nd++] = atoll(t);
  ic_tensor *x;
  BU_CHECK(ic_tensor_create(IC_FP32, nd, dims, &x));
  xs[0] = x;
  float *xd = ic_tensor_data(x);
  for (int64_t i = 0; i < ic_tensor_numel(x); i++) xd[i] = (float)((i * 7919) % 2001) / 1000.0f - 1.0f;
  const char *fetch = ic_program_fetch_target(p, 0);
  ic_executor *e;
  BU_CHECK(ic_executor_create(&o, &e));
  ic_executor_plain_layout(e, plain_layout);
  ic_executor_no_joins(e, no_joins);
  pid_t busy = busy_core ? busy_core_start() : 0;
  if (save_output) {
    ic_tensor *out;
    BU_CHECK(ic_executor_run(e, p, s, n_feeds, feeds, (const ic_tensor *const *)xs, 1, &fetch,
                             &out));
    FILE *f = fopen(save_output, "wb");
    size_t n = (size_t)ic_tensor_numel(out);
    if (!f || ic_tensor_dtype(out) != IC_FP32 || fwrite(ic_tensor_cdata(out), 4, n, f) != n) {
      fprintf(stderr, "bench_model: cannot write %s\n", save_output);
      return 1;
    }
    fclose(f);
    ic_tensor_destroy(out);
  }
  double first = run_once(e, p, s, n_feeds, feeds, xs, fetch);
  for (int i = 0; i < warmup; i++) run_once(e, p, s, n_feeds, feeds, xs, fetch);
  double *t = calloc((size_t)iters, sizeof *t);
  double *tc = calloc((size_t)iters, sizeof *tc); /* CPU time per run */
  double kernel_sum = 0, wall_sum = 0;
  double before_sum = 0, after_sum = 0; /* run start -> first instruction, last -> return */
  double *per_instr = NULL; /* --profile: summed time of each instruction */
  size_t n_per_instr = 0;
  double cpu0 = cpu_seconds(), wall0 = bu_now();
  for (int i = 0; i < iters; i++) {
    double c0 = cpu_now();
    t[i] = run_once(e, p, s, n_feeds, feeds, xs, fetch);
    tc[i] = cpu_now() - c0;
    if (profile) {
      /* Kernel time: the instructions' spans, summed; the run: its wall time. */
      double k = 0, s_first = 1e300, s_last = 0;
      for (size_t j = 0; j < e->n_spans; j++) {
        if (!e->spans[j].end_ns) continue;
        double d = (double)(e->spans[j].end_ns - e->spans[j].start_ns) / 1e9;
        k += d;
        if (e->spans[j].start_ns / 1e9 < s_first) s_first = e->spans[j].start_ns / 1e9;
        if (e->spans[j].end_ns / 1e9 > s_last) s_last = e->spans[j].end_ns / 1e9;
        if (!per_instr) {
          n_per_instr = e->n_spans;
          per_instr = calloc(n_per_instr, sizeof *per_instr);
        }
        if (j < n_per_instr) per_instr[j] += d;
      }
      kernel_sum += k;
      wall_sum += t[i];
      if (s_last > 0) {
        before_sum += s_first - last_t0;
        after_sum += last_t1 - s_last;
      }
    }
  }
  double busy_cores = (cpu_seconds() - cpu0) / (bu_now() - wall0);
  if (busy) {
    kill(busy, SIGKILL);
    waitpid(busy, NULL, 0);
  }
  double med = bu_quantile(t, (size_t)iters, 0.5), p10 = bu_quantile(t, (size_t)iters, 0.1);
  double p90 = bu_quantile(t, (size_t)iters, 0.9), p99 = bu_quantile(t, (size_t)iters, 0.99);
  printf("icore batch=%lld threads=%d median_ms=%.3f p10_ms=%.3f p90_ms=%.3f p99_ms=%.3f "
         "cores_busy=%.2f cpu_median_ms=%.3f first_ms=%.3f fuse=%d%s%s%s%s\n",
         (long long)dims[0], o.threads, med * 1e3, p10 * 1e3, p90 * 1e3, p99 * 1e3, busy_cores,
         bu_quantile(tc, (size_t)iters, 0.5) * 1e3,
         first * 1e3, o.fuse, plain_layout ? " plain_layout=1" : "", busy ? " busy_core=1" : "",
         o.winograd ? " winograd=1" : "", no_joins ? " no_joins=1" : "");
  if (profile) {
    printf("profile: kernels %.3f ms per run, wall %.3f ms per run, executor overhead %.2f%%\n",
           kernel_sum / iters * 1e3, wall_sum / iters * 1e3,
           100.0 * (wall_sum - kernel_sum) / wall_sum);
    printf("profile: overhead per run %.1f us: %.1f before the first instruction, %.1f after the "
           "last, %.1f between\n",
           (wall_sum - kernel_sum) / iters * 1e6, before_sum / iters * 1e6, after_sum / iters * 1e6,
           (wall_sum - kernel_sum - before_sum - after_sum) / iters * 1e6);
    if (e->last_plan && e->last_plan->n_joins) {
      printf("profile: concats joined in place: %zu of the plan's %zu in the last run\n",
             ic_executor_last_joined(e), e->last_plan->n_joins);
    }
    /* Per op type (fused instructions keep their first op's type), largest first. */
    const ic_plan *pl = e->last_plan;
    size_t n = pl && per_instr ? (n_per_instr < pl->n_instrs ? n_per_instr : pl->n_instrs) : 0;
    const char **types = calloc(n + 1, sizeof *types);
    double *tsum = calloc(n + 1, sizeof *tsum);
    size_t *tcount = calloc(n + 1, sizeof *tcount);
    size_t nt = 0;
    for (size_t j = 0; j < n; j++) {
      const char *ty = pl->instrs[j].op->type;
      size_t k = 0;
      while (k < nt && strcmp(types[k], ty)) k++;
      if (k == nt) types[nt++] = ty;
      tsum[k] += per_instr[j];
      tcount[k]++;
    }
    for (size_t a = 0; a < nt; a++) {
      size_t best = a;
      for (size_t b = a + 1; b < nt; b++) if (tsum[b] > tsum[best]) best = b;
      const char *ty = types[a]; types[a] = types[best]; types[best] = ty;
      double ts = tsum[a]; tsum[a] = tsum[best]; tsum[best] = ts;
      size_t cnt = tcount[a]; tcount[a] = tcount[best]; tcount[best] = cnt;
      printf("  op %-28s x%-4zu %8.3f ms per run  %5.1f%%\n", types[a], tcount[a],
             tsum[a] / iters * 1e3, 100.0 * tsum[a] / kernel_sum);
    }
    /* The slowest instructions (eight, or --top N). */
    for (int top = 0; top < top_n && n; top++) {
      size_t best = n;
      for (size_t j = 0; j < n; j++) {
        if (per_instr[j] >= 0 && (best == n || per_instr[j] > per_instr[best])) best = j;
      }
      if (best == n) break;
      char where[160];
      printf("  instr #%-4zu %-20s %8.3f ms per run  %s\n", best, pl->instrs[best].op->type,
             per_instr[best] / iters * 1e3, ic_op_where(pl->instrs[best].op, where, sizeof where));
      per_instr[best] = -1;
    }
    free(types);
    free(tsum);
    free(tcount);
  }
  free(per_instr);
  free(t);
  free(tc);
  ic_executor_destroy(e);
  for (size_t k = 0; k < n_feeds; k++) ic_tensor_destroy(xs[k]);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  return 0;
}
