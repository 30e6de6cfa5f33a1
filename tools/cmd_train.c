/* icore train: run a training program (Paddle's main program after optimizer.minimize) for a
 * number of steps, from a startup program's initial values or from saved parameters.
 *
 *   icore train MAIN --startup STARTUP | --params PATH  --feed NAME=FILE.npy... --steps N
 *               [--fetch NAME]... [--out DIR] [--save PATH] [--seed N] [executor options]
 *
 * Parameters: --params loads every persistable of MAIN from PATH (a combined file or a
 * directory of one file per variable); otherwise STARTUP runs once into an empty scope (its
 * random initializers draw from --seed where their own seed is 0). A feed file whose first
 * dimension is N (the number of steps) gives step k its k-th slice; any other feed file is
 * fed whole at every step. Each fetched value is printed per step; --out writes each fetch
 * stacked over the steps as DIR/NAME.npy ([N, ...]); --save writes every persistable of MAIN
 * after the last step in Paddle's format (a directory: one file per variable, else one
 * combined file). When stderr is a terminal (or with --progress), a progress line per step
 * goes to stderr: the step, the first fetch when it is one number (the loss), and steps per
 * second since the first step began.
 *
 * Learning-rate schedules: paddle.optimizer.lr.* schedulers write no op into the program;
 * the optimizer reads a persistable learning_rate_N that Paddle's Python executor sets
 * before every run. Feed it: --feed learning_rate_0=LR.npy with LR.npy float32[N] (one
 * value per step; a fed persistable shadows it for that step only, and --save writes the
 * last step's value, as Paddle's executor leaves it in its scope). Legacy schedules (noam_decay, piecewise_decay, ...)
 * are ops in the program and run as they are. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_model.h"
#include "npy.h"

const cli_opt k_train_opts[] = {
    {"--startup", "FILE", false, "startup program run once to initialize the persistables"},
    {"--params", "PATH", false, "initial persistables: a combined file or a directory"},
    {"--feed", "NAME=FILE.npy", true, "feed NAME; a first dimension of N gives one slice per step"},
    {"--steps", "N", false, "training steps (default 1)"},
    {"--fetch", "NAME", true, "fetch NAME at every step (e.g. the loss)"},
    {"--out", "DIR", false, "write each fetch stacked over the steps to DIR/NAME.npy"},
    {"--save", "PATH", false, "write the trained persistables (directory: one file each)"},
    {"--seed", "N", false, "seed of random initializers whose seed attribute is 0"},
    {"--progress", NULL, false, "a progress line per step on stderr (default: on a terminal)"},
    CLI_EXEC_OPTS,
};
const size_t k_n_train_opts = sizeof k_train_opts / sizeof k_train_opts[0];

typedef struct train_state {
  ic_program *main, *startup;
  ic_scope *scope;
  ic_executor *e;
  size_t n_feeds, n_fetches;
  char **feed_names;
  ic_tensor **feeds;   /* as loaded */
  ic_tensor **step_feeds;
  const char *const *fetch_names;
  ic_tensor **fetched; /* per step, per fetch: [step * n_fetches + i] */
} train_state;

static int load_feeds(const cli_args *a, train_state *s) {
  const char *const *specs = cli_all(a, "--feed", &s->n_feeds);
  s->feed_names = calloc(s->n_feeds + 1, sizeof *s->feed_names);
  s->feeds = calloc(s->n_feeds + 1, sizeof *s->feeds);
  s->step_feeds = calloc(s->n_feeds + 1, sizeof *s->step_feeds);
  if (!s->feed_names || !s->feeds || !s->step_feeds) return cli_error(CLI_FAIL, "out of memory");
  for (size_t i = 0; i < s->n_feeds; i++) {
    const char *eq = strchr(specs[i], '=');
    if (!eq || eq == specs[i] || !eq[1]) {
      return cli_error(CLI_USAGE, "--feed '%s': expected NAME=FILE.npy", specs[i]);
    }
    s->feed_names[i] = strndup(specs[i], (size_t)(eq - specs[i]));
    if (!s->feed_names[i]) return cli_error(CLI_FAIL, "out of memory");
    char err[1024];
    if (ic_npy_load(eq + 1, &s->feeds[i], err, sizeof err)) return cli_error(CLI_FAIL, "%s", err);
  }
  return CLI_OK;
}

/* Step k's value of feed i: the k-th slice when the first dimension is the step count. */
static int step_feed(train_state *s, size_t i, long long k, long long steps) {
  const ic_tensor *t = s->feeds[i];
  int nd = ic_tensor_ndim(t);
  ic_tensor_destroy(s->step_feeds[i]);
  s->step_feeds[i] = NULL;
  if (nd == 0 || ic_tensor_dims(t)[0] != steps) {
    return ic_tensor_clone(t, &s->step_feeds[i]) ? cli_error(CLI_FAIL, "out of memory") : CLI_OK;
  }
  size_t slice = ic_tensor_nbytes(t) / (size_t)steps;
  if (ic_tensor_create(ic_tensor_dtype(t), nd - 1, ic_tensor_dims(t) + 1, &s->step_feeds[i])) {
    return cli_error(CLI_FAIL, "out of memory");
  }
  memcpy(ic_tensor_data(s->step_feeds[i]), (const char *)ic_tensor_cdata(t) + (size_t)k * slice,
         slice);
  return CLI_OK;
}

/* Fetch i of every step stacked into one tensor [steps, ...]; NULL when shapes differ. */
static ic_tensor *stack(const train_state *s, size_t i, long long steps) {
  const ic_tensor *f0 = s->fetched[i];
  int64_t dims[IC_MAX_RANK + 1];
  int nd = ic_tensor_ndim(f0);
  dims[0] = steps;
  memcpy(dims + 1, ic_tensor_dims(f0), (size_t)nd * sizeof *dims);
  size_t bytes = ic_tensor_nbytes(f0);
  for (long long k = 1; k < steps; k++) {
    const ic_tensor *f = s->fetched[(size_t)k * s->n_fetches + i];
    if (ic_tensor_dtype(f) != ic_tensor_dtype(f0) || ic_tensor_nbytes(f) != bytes) return NULL;
  }
  ic_tensor *out = NULL;
  if (nd + 1 > IC_MAX_RANK || ic_tensor_create(ic_tensor_dtype(f0), nd + 1, dims, &out)) return NULL;
  for (long long k = 0; k < steps; k++) {
    memcpy((char *)ic_tensor_data(out) + (size_t)k * bytes,
           ic_tensor_cdata(s->fetched[(size_t)k * s->n_fetches + i]), bytes);
  }
  return out;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "step 3/20  loss 0.6931  41.2 steps/s": the loss is the first fetch when it holds one
 * floating-point number. */
static void progress_line(const train_state *s, long long k, long long steps, double t0) {
  fprintf(stderr, "step %lld/%lld", k + 1, steps);
  const ic_tensor *f = s->n_fetches ? s->fetched[(size_t)k * s->n_fetches] : NULL;
  if (f && ic_tensor_numel(f) == 1) {
    if (ic_tensor_dtype(f) == IC_FP32) {
      fprintf(stderr, "  %s %.6g", s->fetch_names[0], (double)*(const float *)ic_tensor_cdata(f));
    } else if (ic_tensor_dtype(f) == IC_FP64) {
      fprintf(stderr, "  %s %.6g", s->fetch_names[0], *(const double *)ic_tensor_cdata(f));
    }
  }
  double dt = now_s() - t0;
  if (dt > 0) fprintf(stderr, "  %.3g steps/s", (double)(k + 1) / dt);
  fprintf(stderr, "\n");
}

static int write_stacked(const char *dir, train_state *s, long long steps) {
  if (cli_make_dirs("--out", dir) != CLI_OK) return CLI_FAIL;
  for (size_t i = 0; i < s->n_fetches; i++) {
    ic_tensor *t = stack(s, i, steps);
    if (!t) {
      return cli_error(CLI_FAIL, "--out: fetch '%s' changes dtype or shape between steps, "
                       "cannot stack it", s->fetch_names[i]);
    }
    size_t len = strlen(dir) + strlen(s->fetch_names[i]) + 6;
    char *path = malloc(len), err[1024];
    int rc = CLI_OK;
    if (!path) {
      rc = cli_error(CLI_FAIL, "out of memory");
    } else {
      int k = snprintf(path, len, "%s/", dir);
      for (const char *c = s->fetch_names[i]; *c; c++) path[k++] = *c == '/' ? '_' : *c;
      strcpy(path + k, ".npy");
      if (ic_npy_save(path, t, err, sizeof err)) rc = cli_error(CLI_FAIL, "%s", err);
    }
    free(path);
    ic_tensor_destroy(t);
    if (rc) return rc;
  }
  return CLI_OK;
}

int cmd_train(const cli_args *a) {
  ic_options o;
  long long steps = 1, seed;
  int rc = cli_exec_options(a, &o);
  if (rc) return rc;
  const char *v = cli_get(a, "--steps");
  if (v && !cli_int("--steps", v, 1, 100000000, &steps)) return CLI_USAGE;
  if ((v = cli_get(a, "--seed"))) {
    if (!cli_int("--seed", v, 0, 0x7fffffffffffffffLL, &seed)) return CLI_USAGE;
    o.seed = (uint64_t)seed;
  }
  const char *startup = cli_get(a, "--startup"), *params = cli_get(a, "--params");
  if (!startup == !params) {
    return cli_error(CLI_USAGE, "give exactly one of --startup FILE and --params PATH");
  }
  train_state s = {0};
  char err[1024];
  s.fetch_names = cli_all(a, "--fetch", &s.n_fetches);
  if ((rc = load_feeds(a, &s))) goto done;
  if (ic_program_from_file(a->pos[0], &s.main, err, sizeof err) ||
      (startup && ic_program_from_file(startup, &s.startup, err, sizeof err))) {
    rc = cli_error(CLI_FAIL, "%s", err);
    goto done;
  }
  if (ic_scope_create(NULL, &s.scope) || ic_executor_create(&o, &s.e)) {
    rc = cli_error(CLI_FAIL, "cannot create a scope and an executor with these options");
    goto done;
  }
  if (params && ic_params_load(s.main, params, IC_PARAMS_AUTO, s.scope, err, sizeof err)) {
    rc = cli_error(CLI_FAIL, "%s", err);
    goto done;
  }
  if (startup && ic_executor_run(s.e, s.startup, s.scope, 0, NULL, NULL, 0, NULL, NULL)) {
    rc = cli_error(CLI_FAIL, "startup program %s: %s", startup, ic_executor_errmsg(s.e));
    goto done;
  }
  s.fetched = calloc((size_t)steps * s.n_fetches + 1, sizeof *s.fetched);
  if (!s.fetched) {
    rc = cli_error(CLI_FAIL, "out of memory");
    goto done;
  }
  bool progress = cli_get(a, "--progress") || isatty(fileno(stderr));
  double t0 = now_s();
  for (long long k = 0; k < steps; k++) {
    for (size_t i = 0; i < s.n_feeds; i++) {
      if ((rc = step_feed(&s, i, k, steps))) goto done;
    }
    if (ic_executor_run(s.e, s.main, s.scope, s.n_feeds, (const char *const *)s.feed_names,
                        (const ic_tensor *const *)s.step_feeds, s.n_fetches, s.fetch_names,
                        s.fetched + (size_t)k * s.n_fetches)) {
      rc = cli_error(CLI_FAIL, "step %lld: %s", k, ic_executor_errmsg(s.e));
      goto done;
    }
    for (size_t i = 0; i < s.n_fetches; i++) {
      printf("step %lld ", k);
      cli_print_tensor(stdout, s.fetch_names[i], s.fetched[(size_t)k * s.n_fetches + i]);
    }
    if (progress) {
      fflush(stdout);
      progress_line(&s, k, steps, t0);
    }
  }
  const char *out = cli_get(a, "--out");
  if (out && (rc = write_stacked(out, &s, steps))) goto done;
  const char *save = cli_get(a, "--save");
  if (save) {
    /* As Paddle's executor, whose scope a feed overwrites: a fed persistable (a scheduler's
     * learning_rate_N) is saved with the last step's value. A run itself never writes a fed
     * value into the scope (it shadows it), so the CLI, which owns the scope, does. */
    for (size_t i = 0; i < s.n_feeds; i++) {
      if (ic_scope_get(s.scope, s.feed_names[i]) &&
          ic_scope_set(s.scope, s.feed_names[i], s.step_feeds[i])) {
        rc = cli_error(CLI_FAIL, "out of memory");
        goto done;
      }
    }
    struct stat st;
    ic_params_format fmt = stat(save, &st) == 0 && S_ISDIR(st.st_mode) ? IC_PARAMS_SEPARATE
                                                                       : IC_PARAMS_COMBINED;
    if (ic_params_save(s.main, s.scope, save, fmt, err, sizeof err)) {
      rc = cli_error(CLI_FAIL, "%s", err);
      goto done;
    }
  }
done:
  for (size_t i = 0; s.fetched && i < (size_t)steps * s.n_fetches; i++) {
    ic_tensor_destroy(s.fetched[i]);
  }
  free(s.fetched);
  for (size_t i = 0; i < s.n_feeds; i++) {
    if (s.feed_names) free(s.feed_names[i]);
    if (s.feeds) ic_tensor_destroy(s.feeds[i]);
    if (s.step_feeds) ic_tensor_destroy(s.step_feeds[i]);
  }
  free(s.feed_names);
  free(s.feeds);
  free(s.step_feeds);
  ic_executor_destroy(s.e);
  ic_scope_destroy(s.scope);
  ic_program_destroy(s.main);
  ic_program_destroy(s.startup);
  return rc;
}
