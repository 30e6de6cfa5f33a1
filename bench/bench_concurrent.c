/* bench_concurrent MODEL [THREADS] [RUNS_PER_THREAD] [--random-params] [--no-fuse]
 *                  [--exec-threads T]
 *
 * One model loaded once, served from THREADS threads two ways:
 *   shared: one executor, every thread calls ic_executor_run on it;
 *   per-thread: one executor per thread, all sharing the one parameter scope.
 * Prints the throughput of both (runs/s over all threads), checks every result bitwise
 * against a single-threaded reference run (a mismatch is counted and makes the exit status
 * 1), and reports the process's RSS after a warm-up (2,000 runs per thread each way,
 * twice) and at the end (the soak: growth should
 * stay under 1%). Each executor is serial (options.threads = 1), so both ways use THREADS
 * cores. The first feed target is fed random values of its declared dims (-1 -> 1).
 * --no-fuse turns the plan rewrites off, so that an inference batch_norm stays an op that
 * names its running mean and variance as outputs (MeanOut = Mean), the case where runs
 * sharing one scope once raced. --exec-threads T gives each executor T threads instead of
 * one (runs in progress then share the cores: interp/cpuload.c). */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "icore/icore.h"
#include "program/program.h"

typedef struct ctx {
  ic_executor *exec[64];
  const ic_program *prog;
  ic_scope *scope;
  const ic_tensor *x;
  const char *feed, *fetch;
  const ic_tensor *ref;
  long runs;
  atomic_long bad;
} ctx;

typedef struct targ {
  ctx *c;
  int id;
} targ;

static void *worker(void *arg) {
  targ *t = arg;
  ctx *c = t->c;
  ic_executor *e = c->exec[t->id];
  for (long i = 0; i < c->runs; i++) {
    ic_tensor *out;
    if (ic_executor_run(e, c->prog, c->scope, 1, &c->feed, &c->x, 1, &c->fetch, &out)) {
      fprintf(stderr, "run failed: %s\n", ic_executor_errmsg(e));
      atomic_fetch_add(&c->bad, 1);
      break;
    }
    if (ic_tensor_nbytes(out) != ic_tensor_nbytes(c->ref) ||
        memcmp(ic_tensor_cdata(out), ic_tensor_cdata(c->ref), ic_tensor_nbytes(out)) != 0) {
      atomic_fetch_add(&c->bad, 1);
    }
    ic_tensor_destroy(out);
  }
  return NULL;
}

static double run_threads(ctx *c, int n) {
  pthread_t th[64];
  targ ta[64];
  double t0 = bu_now();
  for (int i = 0; i < n; i++) {
    ta[i] = (targ){c, i};
    pthread_create(&th[i], NULL, worker, &ta[i]);
  }
  for (int i = 0; i < n; i++) pthread_join(th[i], NULL);
  return (double)n * (double)c->runs / (bu_now() - t0);
}

static long rss_kb(void);

/* RSS sampled every 200 ms while the measured runs go, to tell growth that levels off (the C
 * library's arenas settling) from growth that does not (a leak). */
typedef struct sampler {
  atomic_bool stop;
  long kb[4096];
  int n;
} sampler;

static void *sample_rss(void *arg) {
  sampler *s = arg;
  while (!atomic_load(&s->stop)) {
    if (s->n < 4096) s->kb[s->n++] = rss_kb();
    nanosleep(&(struct timespec){.tv_nsec = 200000000}, NULL);
  }
  return NULL;
}

static long rss_kb(void) {
  long pages = 0, resident = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f) return -1;
  if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
  fclose(f);
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr,
            "usage: %s MODEL [THREADS] [RUNS_PER_THREAD] [--random-params] [--no-fuse] "
            "[--exec-threads T]\n",
            argv[0]);
    return 2;
  }
  int n = argc > 2 ? atoi(argv[2]) : 4;
  long runs = argc > 3 ? atol(argv[3]) : 200;
  bool random = false, fuse = true;
  int exec_threads = 1;
  for (int a = 4; a < argc; a++) {
    if (strcmp(argv[a], "--exec-threads") == 0 && a + 1 < argc) {
      exec_threads = atoi(argv[++a]);
    } else if (strcmp(argv[a], "--random-params") == 0) {
      random = true;
    } else if (strcmp(argv[a], "--no-fuse") == 0) {
      fuse = false;
    } else {
      fprintf(stderr, "%s: unknown option %s\n", argv[0], argv[a]);
      return 2;
    }
  }
  if (n < 1 || n > 64 || runs < 1 || exec_threads < 1) return 2;
  char err[1024];
  ic_program *prog;
  ic_scope *scope;
  if (ic_model_load(argv[1], NULL, random ? IC_LOAD_NO_PARAMS : 0, &prog, &scope, err,
                    sizeof err) ||
      (random && ic_params_random(prog, 1, scope, err, sizeof err))) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  if (!ic_program_n_feed_targets(prog) || !ic_program_n_fetch_targets(prog)) {
    fprintf(stderr, "%s: no feed or fetch targets\n", argv[1]);
    return 1;
  }
  ctx c = {.prog = prog, .scope = scope, .runs = runs};
  c.feed = ic_program_feed_target(prog, 0);
  c.fetch = ic_program_fetch_target(prog, 0);
  const ic_vardesc *v = ic_program_find_var(prog, 0, c.feed);
  int64_t dims[IC_MAX_RANK];
  for (int d = 0; d < v->ndim; d++) dims[d] = v->dims[d] < 0 ? 1 : v->dims[d];
  ic_tensor *x;
  if (ic_tensor_create(v->dtype, v->ndim, dims, &x)) return 1;
  float *xf = ic_tensor_data(x);
  for (int64_t i = 0; v->dtype == IC_FP32 && i < ic_tensor_numel(x); i++) {
    xf[i] = (float)sin((double)i * 0.37);
  }
  c.x = x;
  ic_options o;
  ic_options_default(&o);
  o.threads = 1;
  o.fuse = fuse;
  ic_executor *ref_e;
  ic_tensor *ref;
  if (ic_executor_create(&o, &ref_e) ||
      ic_executor_run(ref_e, prog, scope, 1, &c.feed, &c.x, 1, &c.fetch, &ref)) {
    fprintf(stderr, "reference run: %s\n", ic_executor_errmsg(ref_e));
    return 1;
  }
  ic_executor_destroy(ref_e);
  c.ref = ref;
  atomic_init(&c.bad, 0);

  ic_executor *shared;
  o.threads = exec_threads; /* the reference above ran single-threaded */
  ic_executor_create(&o, &shared);
  for (int i = 0; i < n; i++) c.exec[i] = shared;
  /* Warm-up, both ways and twice (the measured runs alternate the ways too): plans, run
   * states (up to one per thread), allocator caches, the C library's per-thread arenas.
   * RSS is taken after it. */
  long warm = c.runs;
  c.runs = warm < 2000 ? warm : 2000;
  ic_executor *own[64];
  for (int i = 0; i < n; i++) ic_executor_create(&o, &own[i]);
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < n; i++) c.exec[i] = shared;
    run_threads(&c, n);
    for (int i = 0; i < n; i++) c.exec[i] = own[i];
    run_threads(&c, n);
  }
  c.runs = warm;
  long rss0 = rss_kb();
  sampler *smp = calloc(1, sizeof *smp);
  pthread_t smp_th;
  if (!smp) return 1;
  atomic_init(&smp->stop, false);
  if (pthread_create(&smp_th, NULL, sample_rss, smp) != 0) {
    fprintf(stderr, "cannot start the RSS sampler thread\n");
    return 1;
  }
  for (int i = 0; i < n; i++) c.exec[i] = shared;
  double t_shared = run_threads(&c, n);
  for (int i = 0; i < n; i++) c.exec[i] = own[i];
  double t_own = run_threads(&c, n);
  long rss1 = rss_kb();
  atomic_store(&smp->stop, true);
  pthread_join(smp_th, NULL);
  printf("%s: %d threads x %ld runs each way%s\n", argv[1], n, runs, fuse ? "" : ", no rewrites");
  printf("  one executor, %d threads:        %10.1f runs/s\n", n, t_shared);
  printf("  %d executors, one scope:          %10.1f runs/s  (shared/own %.2f)\n", n, t_own,
         t_shared / t_own);
  printf("  RSS after warm-up %ld KiB, at end %ld KiB (%+.2f%%)\n", rss0, rss1,
         100.0 * (double)(rss1 - rss0) / (double)rss0);
  if (smp->n >= 10) {
    printf("  RSS during the measured runs (KiB), at 10%% steps:");
    for (int k = 0; k <= 10; k++) printf(" %ld", smp->kb[(smp->n - 1) * k / 10]);
    printf("\n");
  }
  free(smp);
  printf("  results differing from the reference: %ld\n", atomic_load(&c.bad));
  for (int i = 0; i < n; i++) ic_executor_destroy(own[i]);
  ic_executor_destroy(shared);
  ic_tensor_destroy(ref);
  ic_tensor_destroy(x);
  ic_scope_destroy(scope);
  ic_program_destroy(prog);
  return atomic_load(&c.bad) ? 1 : 0;
}
