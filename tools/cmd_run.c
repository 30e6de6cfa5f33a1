/* icore run: run a model on its inputs and print (or save) what it fetches. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli_model.h"
#include "npy.h"

const cli_opt k_run_opts[] = {
    CLI_MODEL_OPTS,
    CLI_EXEC_OPTS,
    {"--out", "DIR", false,
     "write each fetched tensor to DIR/NAME.npy ('/' becomes '_'), its LoD to DIR/NAME.lod "
     "(DIR and missing parents are created)"},
    {"--repeat", "N", false, "run N times and report the time per run (default 1)"},
    {"--profile", "FILE.json", false,
     "write a Chrome trace of the last run (compiled mode): one span per instruction"},
};
const size_t k_n_run_opts = sizeof k_run_opts / sizeof k_run_opts[0];

static int make_dir(const char *dir) { return cli_make_dirs("--out", dir); }

static int write_outputs(const char *dir, size_t n, const char *const *names,
                         ic_tensor *const *out) {
  int rc = make_dir(dir);
  for (size_t i = 0; i < n && !rc; i++) {
    size_t len = strlen(dir) + strlen(names[i]) + 6;
    char *path = malloc(len), err[1024];
    if (!path) return cli_error(CLI_FAIL, "out of memory");
    int k = snprintf(path, len, "%s/", dir);
    for (const char *c = names[i]; *c; c++) path[k++] = *c == '/' ? '_' : *c;
    strcpy(path + k, ".npy");
    if (ic_npy_save(path, out[i], err, sizeof err)) rc = cli_error(CLI_FAIL, "%s", err);
    /* .npy has no place for LoD: NAME.lod beside it, one line of offsets per level */
    size_t levels = ic_tensor_lod_levels(out[i]);
    if (!rc && levels) {
      strcpy(path + k, ".lod");
      FILE *f = fopen(path, "w");
      for (size_t l = 0; f && l < levels; l++) {
        size_t nl;
        const uint64_t *o = ic_tensor_lod(out[i], l, &nl);
        for (size_t j = 0; j < nl; j++) fprintf(f, "%s%llu", j ? " " : "", (unsigned long long)o[j]);
        fputc('\n', f);
      }
      if (!f || fclose(f)) rc = cli_error(CLI_FAIL, "--out: cannot write %s: %s", path, strerror(errno));
    }
    free(path);
  }
  return rc;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int cmd_run(const cli_args *a) {
  ic_options o;
  long long repeat = 1;
  int rc = cli_exec_options(a, &o);
  if (rc) return rc;
  const char *rep = cli_get(a, "--repeat");
  if (rep && !cli_int("--repeat", rep, 1, 1000000, &repeat)) return CLI_USAGE;
  const char *profile = cli_get(a, "--profile");
  if (profile && o.mode != IC_MODE_COMPILED) {
    return cli_error(CLI_USAGE, "--profile needs --mode compiled");
  }
  o.profile = profile != NULL;
  cli_model m;
  ic_executor *e = NULL;
  ic_tensor **out = NULL;
  /* pruned, a feed target only the dropped ops read need not be given */
  if ((rc = cli_model_open(a, !o.prune, &m))) goto done;
  out = calloc(m.n_fetches, sizeof *out);
  if (!out) {
    rc = cli_error(CLI_FAIL, "out of memory");
    goto done;
  }
  if (ic_executor_create(&o, &e)) {
    rc = cli_error(CLI_FAIL, "cannot create an executor with these options");
    goto done;
  }
  double best = 0, total = 0;
  for (long long r = 0; r < repeat; r++) {
    for (size_t i = 0; i < m.n_fetches; i++) {
      ic_tensor_destroy(out[i]);
      out[i] = NULL;
    }
    double t0 = now_ms();
    if (ic_executor_run(e, m.prog, m.scope, m.n_feeds, m.feed_names,
                        (const ic_tensor *const *)m.feeds, m.n_fetches, m.fetch_names, out)) {
      rc = cli_error(CLI_FAIL, "%s", ic_executor_errmsg(e));
      goto done;
    }
    double dt = now_ms() - t0;
    total += dt;
    best = r == 0 || dt < best ? dt : best;
  }
  for (size_t i = 0; i < m.n_fetches; i++) cli_print_tensor(stdout, m.fetch_names[i], out[i]);
  if (repeat > 1) {
    printf("time: %lld runs, mean %.3f ms, best %.3f ms (%s)\n", repeat, total / (double)repeat,
           best, o.mode == IC_MODE_COMPILED ? "compiled" : "uncompiled");
  }
  if (profile && ic_executor_write_profile(e, profile)) {
    rc = cli_error(CLI_FAIL, "%s", ic_executor_errmsg(e));
    goto done;
  }
  const char *dir = cli_get(a, "--out");
  if (dir) rc = write_outputs(dir, m.n_fetches, m.fetch_names, out);
done:
  for (size_t i = 0; out && i < m.n_fetches; i++) ic_tensor_destroy(out[i]);
  free(out);
  ic_executor_destroy(e);
  cli_model_close(&m);
  return rc;
}
