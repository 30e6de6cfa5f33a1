/* Training-step benchmark: one Paddle training program (forward, backward and optimizer ops)
 * run step after step on fixed batches, timed per step, plus the memory a step takes from the
 * executor's allocator. bench/train_peers.py drives it side by side with Paddle and PyTorch.
 *
 *   bench_train MAIN PARAMS --feed NAME=FILE.npy... --loss NAME [--threads T] [--warmup W]
 *               [--steps N] [--reset K] [--serve]
 *
 * PARAMS: the initial persistables (a combined .pdiparams file or a directory). Each feed
 * file holds NB batches stacked along a new first dimension, [NB, batch, ...]; step k feeds
 * batch k % NB of every file. --threads T is ic_options.threads (default 1); the other options
 * come from the ICORE_* environment variables (ICORE_SERIAL=1, ...), GC on unless said below.
 * W warm-up steps (default 20) run before anything is timed or measured.
 *
 * Without --serve: N timed steps (default 200) from the initial persistables, reloaded (not
 * timed) every K steps (default 100, 0 never), then one line "steps/s median p10 p90 loss".
 * The reloads keep the work the same from step to step: on random labels the CNN's ReLUs
 * die after about 300 steps, its gradients become zeros and conv2d_grad, which skips zero
 * gradients, gets twice as fast.
 * With --serve: after warm-up it prints "ready L" (L: the first step's loss), then answers
 * lines on stdin:
 *   run N   N timed steps; answers "ok T1 ... TN loss L" (seconds per step, last loss)
 *   reset   reload the initial persistables and restart from the first batch; answers "ok"
 *   mem     one line "mem K=V ..." (see below)
 *   quit
 *
 * Memory ("mem", also printed first without --serve): on the allocator of the timed
 * executor, live bytes before a step and the peak during it (ic_executor_reset_peak then
 * ic_executor_memory_stats), so step_peak = peak - live_before is what the step took at
 * most. The same figure is measured on a second executor with GC off (every temporary kept
 * to the end of the run), and compared with the program's own sizes: the bytes of every
 * non-persistable tensor variable of block 0 at this batch, split into gradients (@GRAD)
 * and the rest (activations), and of the persistables. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "npy.h"
#include "program/program.h"

#define MAX_FEEDS 8
#define MAX_BATCHES 256

typedef struct bench {
  ic_program *main;
  ic_scope *scope;
  ic_executor *e;
  size_t n_feeds, nb;
  const char *feed_names[MAX_FEEDS];
  ic_tensor *batches[MAX_BATCHES][MAX_FEEDS];
  const char *loss, *params;
  long long step;     /* steps since the persistables were (re)loaded; picks the batch */
  long reset_every;   /* reload them every this many steps (0: never) */
  int64_t batch;
} bench;

static void die(const char *what) {
  fprintf(stderr, "bench_train: %s\n", what);
  exit(1);
}

/* Split a [NB, ...] feed into NB tensors [...]. */
static void load_feed(bench *b, const char *spec) {
  const char *eq = strchr(spec, '=');
  if (!eq || b->n_feeds == MAX_FEEDS) die("--feed wants NAME=FILE.npy (at most 8)");
  char err[1024];
  ic_tensor *t;
  if (ic_npy_load(eq + 1, &t, err, sizeof err)) die(err);
  int nd = ic_tensor_ndim(t);
  const int64_t *d = ic_tensor_dims(t);
  if (nd < 2 || d[0] < 1 || d[0] > MAX_BATCHES) die("a feed file must be [NB, batch, ...], NB <= 256");
  if (b->n_feeds && (size_t)d[0] != b->nb) die("every feed file needs the same NB");
  b->nb = (size_t)d[0];
  b->batch = d[1];
  size_t slice = ic_tensor_nbytes(t) / b->nb, f = b->n_feeds;
  b->feed_names[f] = strndup(spec, (size_t)(eq - spec));
  for (size_t k = 0; k < b->nb; k++) {
    BU_CHECK(ic_tensor_create(ic_tensor_dtype(t), nd - 1, d + 1, &b->batches[k][f]));
    memcpy(ic_tensor_data(b->batches[k][f]), (const char *)ic_tensor_cdata(t) + k * slice, slice);
  }
  ic_tensor_destroy(t);
  b->n_feeds++;
}

static ic_executor *make_executor(int threads, bool gc) {
  ic_options o;
  char err[512];
  ic_options_default(&o);
  if (ic_options_from_env(&o, err, sizeof err)) die(err); /* ICORE_SERIAL etc. for experiments */
  o.threads = threads;
  o.gc = gc;
  ic_executor *e;
  BU_CHECK(ic_executor_create(&o, &e));
  return e;
}

static ic_scope *load_params(const ic_program *p, const char *path) {
  ic_scope *s;
  char err[1024];
  BU_CHECK(ic_scope_create(NULL, &s));
  if (ic_params_load(p, path, IC_PARAMS_AUTO, s, err, sizeof err)) die(err);
  return s;
}

/* One step on executor e and scope s; returns the loss. */
static float step(bench *b, ic_executor *e, ic_scope *s) {
  ic_tensor *loss = NULL;
  size_t k = (size_t)(b->step++ % (long long)b->nb);
  if (ic_executor_run(e, b->main, s, b->n_feeds, b->feed_names,
                      (const ic_tensor *const *)b->batches[k], 1, &b->loss, &loss)) {
    fprintf(stderr, "bench_train: step %lld: %s\n", b->step - 1, ic_executor_errmsg(e));
    exit(1);
  }
  float v = *(const float *)ic_tensor_cdata(loss);
  ic_tensor_destroy(loss);
  return v;
}

/* What one step takes from e's allocator beyond what it held before. */
static size_t step_peak(bench *b, ic_executor *e, ic_scope *s, size_t *live_before) {
  ic_memory_stats m;
  ic_executor_reset_peak(e);
  ic_executor_memory_stats(e, &m);
  *live_before = m.live_bytes;
  step(b, e, s);
  ic_executor_memory_stats(e, &m);
  return m.peak_bytes - *live_before;
}

/* The program's own sizes at this batch: activations, gradients, persistables. */
static void program_sizes(const bench *b, size_t *act, size_t *grad, size_t *persist) {
  *act = *grad = *persist = 0;
  const ic_block *blk = &b->main->blocks[0];
  for (size_t i = 0; i < blk->n_vars; i++) {
    const ic_vardesc *v = &blk->vars[i];
    if (!v->is_tensor || v->type != IC_VAR_LOD_TENSOR) continue;
    size_t n = ic_dtype_size(v->dtype);
    for (int j = 0; j < v->ndim; j++) n *= (size_t)(v->dims[j] < 0 ? b->batch : v->dims[j]);
    if (v->persistable) *persist += n;
    else if (strstr(v->name, "@GRAD")) *grad += n;
    else *act += n;
  }
}

static void print_mem(bench *b, const char *params, int threads) {
  size_t live, live_off, act, grad, persist;
  size_t on = step_peak(b, b->e, b->scope, &live);
  /* GC off: a second executor and scope, warmed up the same way */
  ic_executor *off = make_executor(threads, false);
  ic_scope *s = load_params(b->main, params);
  long long saved = b->step; /* the timed executor's batch sequence stays as it was */
  for (int i = 0; i < 3; i++) step(b, off, s);
  size_t no_gc = step_peak(b, off, s, &live_off);
  b->step = saved;
  ic_executor_destroy(off);
  ic_scope_destroy(s);
  program_sizes(b, &act, &grad, &persist);
  printf("mem step_peak=%zu live_before=%zu step_peak_nogc=%zu act_bytes=%zu grad_bytes=%zu "
         "persist_bytes=%zu\n", on, live, no_gc, act, grad, persist);
  fflush(stdout);
}

/* Back to the initial persistables (parameters and optimizer state) and the first batch. */
static void reset(bench *b) {
  ic_scope_destroy(b->scope);
  b->scope = load_params(b->main, b->params);
  b->step = 0;
}

static void run_steps(bench *b, long n, double *t, float *loss) {
  for (long i = 0; i < n; i++) {
    if (b->reset_every && b->step >= b->reset_every) reset(b); /* not timed */
    double t0 = bu_now();
    *loss = step(b, b->e, b->scope);
    t[i] = bu_now() - t0;
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: bench_train MAIN PARAMS --feed NAME=FILE.npy... --loss NAME "
                    "[--threads T] [--warmup W] [--steps N] [--reset K] [--serve]\n");
    return 2;
  }
  bench b = {0};
  int threads = 1, warmup = 20;
  long steps = 200, reset_every = -1;
  bool serve = false;
  for (int i = 3; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--serve")) {
      serve = true;
    } else if (!v) {
      die("an option is missing its value");
    } else if (!strcmp(a, "--feed")) {
      load_feed(&b, v), i++;
    } else if (!strcmp(a, "--loss")) {
      b.loss = v, i++;
    } else if (!strcmp(a, "--threads")) {
      threads = atoi(v), i++;
    } else if (!strcmp(a, "--warmup")) {
      warmup = atoi(v), i++;
    } else if (!strcmp(a, "--steps")) {
      steps = atol(v), i++;
    } else if (!strcmp(a, "--reset")) {
      reset_every = atol(v), i++;
    } else {
      die("unknown option");
    }
  }
  if (!b.loss || !b.n_feeds || steps < 1) die("give --loss, at least one --feed and --steps >= 1");
  char err[1024];
  if (ic_program_from_file(argv[1], &b.main, err, sizeof err)) die(err);
  b.params = argv[2];
  b.scope = load_params(b.main, b.params);
  b.e = make_executor(threads, true);
  float loss = 0, first = step(&b, b.e, b.scope);
  for (int i = 1; i < warmup; i++) loss = step(&b, b.e, b.scope);
  if (!serve) {
    print_mem(&b, argv[2], threads);
    b.reset_every = reset_every < 0 ? 100 : reset_every;
    reset(&b);
    double *t = malloc((size_t)steps * sizeof *t);
    if (!t) die("out of memory");
    run_steps(&b, steps, t, &loss);
    double p10 = bu_quantile(t, (size_t)steps, 0.1), p90 = bu_quantile(t, (size_t)steps, 0.9);
    double med = bu_quantile(t, (size_t)steps, 0.5);
    printf("steps/s %.1f  median %.1f us  p10 %.1f us  p90 %.1f us  loss %.6f\n", 1 / med,
           med * 1e6, p10 * 1e6, p90 * 1e6, loss);
    free(t);
  } else {
    printf("ready %.9g\n", first);
    fflush(stdout);
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
      long n;
      if (sscanf(line, "run %ld", &n) == 1 && n > 0) {
        double *t = malloc((size_t)n * sizeof *t);
        if (!t) die("out of memory");
        run_steps(&b, n, t, &loss);
        printf("ok");
        for (long i = 0; i < n; i++) printf(" %.9f", t[i]);
        printf(" loss %.9g\n", loss);
        fflush(stdout);
        free(t);
      } else if (!strncmp(line, "reset", 5)) {
        reset(&b);
        printf("ok\n");
        fflush(stdout);
      } else if (!strncmp(line, "mem", 3)) {
        print_mem(&b, argv[2], threads);
      } else if (!strncmp(line, "quit", 4)) {
        break;
      } else {
        die("unknown command (run N, reset, mem, quit)");
      }
    }
  }
  for (size_t k = 0; k < b.nb; k++) {
    for (size_t f = 0; f < b.n_feeds; f++) ic_tensor_destroy(b.batches[k][f]);
  }
  for (size_t f = 0; f < b.n_feeds; f++) free((void *)b.feed_names[f]);
  ic_executor_destroy(b.e);
  ic_scope_destroy(b.scope);
  ic_program_destroy(b.main);
  return 0;
}
