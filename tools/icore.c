/* icore: run Paddle inference programs and inspect them from the command line.
 *
 *   icore run MODEL [--feed NAME=FILE.npy]... [--fetch NAME]... [--out DIR] ...
 *   icore info MODEL
 *   icore help [COMMAND] | icore --version
 *
 * MODEL is X.pdmodel (parameters from X.pdiparams beside it) or a directory holding
 * __model__ plus __params__ or one file per parameter. Errors are one line on stderr,
 * "icore: error: ...", with exit status 1 (2 for a wrong command line). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli_util.h"
#include "icore/icore.h"
#include "kernels/kernel.h"
#include "npy.h"
#include "program/program.h"
#include "scope/params.h"

typedef struct command {
  const char *name;
  const char *args;  /* positional arguments, for the usage line */
  const char *about;
  const cli_opt *opts;
  size_t n_opts;
  size_t n_pos;      /* positional arguments required */
  int (*fn)(const cli_args *a);
} command;

/* Load a model, or print why not. */
static int load(const char *path, const char *params, unsigned flags, ic_program **prog,
                ic_scope **scope) {
  char err[1024];
  if (ic_model_load(path, params, flags, prog, scope, err, sizeof err)) {
    return cli_error(CLI_FAIL, "%s", err);
  }
  return CLI_OK;
}

static const char *var_desc(const ic_program *p, const char *name, char *buf, size_t len) {
  const ic_vardesc *v = ic_program_find_var(p, 0, name);
  char dims[160];
  if (!v || !v->is_tensor) snprintf(buf, len, "(not a tensor)");
  else snprintf(buf, len, "%s%s", ic_dtype_name(v->dtype), ic_dims_str(v->ndim, v->dims, dims, sizeof dims));
  return buf;
}

/* ---------------------------------------------------------------------------------------
 * icore run
 * ------------------------------------------------------------------------------------- */

static const cli_opt k_run_opts[] = {
    {"--params", "PATH", false, "parameter file or directory (default: beside MODEL)"},
    {"--feed", "NAME=FILE.npy", true, "feed variable NAME from a .npy file"},
    {"--fetch", "NAME", true, "fetch variable NAME (default: the program's fetch targets)"},
    {"--out", "DIR", false, "write each fetched tensor to DIR/NAME.npy ('/' becomes '_')"},
    {"--random-params", "SEED", false, "fill parameters with synthetic values, read no file"},
    {"--mode", "compiled|uncompiled", false, "executor mode (default: ICORE_MODE or compiled)"},
    {"--threads", "N", false, "worker threads, 0 = one per core (default: ICORE_THREADS or 0)"},
    {"--repeat", "N", false, "run N times and report the time per run (default 1)"},
};

typedef struct feeds {
  size_t n;
  const char **names;   /* into argv */
  char **name_bufs;     /* owned copies of NAME */
  ic_tensor **tensors;
} feeds;

static void feeds_free(feeds *f) {
  for (size_t i = 0; i < f->n; i++) {
    free(f->name_bufs[i]);
    ic_tensor_destroy(f->tensors[i]);
  }
  free(f->names);
  free(f->name_bufs);
  free(f->tensors);
  memset(f, 0, sizeof *f);
}

/* --feed NAME=FILE for every value, and every feed target of the program covered. */
static int read_feeds(const cli_args *a, const ic_program *p, feeds *f) {
  size_t n;
  const char *const *v = cli_all(a, "--feed", &n);
  memset(f, 0, sizeof *f);
  f->names = calloc(n + 1, sizeof *f->names);
  f->name_bufs = calloc(n + 1, sizeof *f->name_bufs);
  f->tensors = calloc(n + 1, sizeof *f->tensors);
  if (!f->names || !f->name_bufs || !f->tensors) return cli_error(CLI_FAIL, "out of memory");
  for (size_t i = 0; i < n; i++) {
    const char *eq = strchr(v[i], '=');
    if (!eq || eq == v[i] || !eq[1]) {
      return cli_error(CLI_USAGE, "--feed '%s': expected NAME=FILE.npy", v[i]);
    }
    char *name = strndup(v[i], (size_t)(eq - v[i]));
    if (!name) return cli_error(CLI_FAIL, "out of memory");
    f->name_bufs[f->n] = name;
    f->names[f->n] = name;
    f->n++;
    for (size_t j = 0; j + 1 < f->n; j++) {
      if (strcmp(f->names[j], name) == 0) {
        return cli_error(CLI_USAGE, "feed '%s' is given twice", name);
      }
    }
    char err[1024];
    if (ic_npy_load(eq + 1, &f->tensors[f->n - 1], err, sizeof err)) {
      return cli_error(CLI_FAIL, "feed '%s': %s", name, err);
    }
  }
  for (size_t t = 0; t < ic_program_n_feed_targets(p); t++) {
    const char *target = ic_program_feed_target(p, t);
    bool given = false;
    for (size_t i = 0; i < f->n && !given; i++) given = strcmp(f->names[i], target) == 0;
    if (!given) {
      char d[200];
      return cli_error(CLI_USAGE, "feed target '%s' (%s) is not given; pass --feed %s=FILE.npy",
                       target, var_desc(p, target, d, sizeof d), target);
    }
  }
  return CLI_OK;
}

static int make_dir(const char *dir) {
  if (mkdir(dir, 0777) == 0 || errno == EEXIST) return CLI_OK;
  return cli_error(CLI_FAIL, "--out %s: cannot create the directory: %s", dir, strerror(errno));
}

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
    free(path);
  }
  return rc;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Executor options: defaults, then ICORE_* variables, then the command line. */
static int run_options(const cli_args *a, ic_options *o, long long *repeat) {
  char err[1024];
  long long v;
  ic_options_default(o);
  if (ic_options_from_env(o, err, sizeof err)) return cli_error(CLI_USAGE, "%s", err);
  const char *mode = cli_get(a, "--mode");
  if (mode && strcmp(mode, "compiled") == 0) o->mode = IC_MODE_COMPILED;
  else if (mode && strcmp(mode, "uncompiled") == 0) o->mode = IC_MODE_UNCOMPILED;
  else if (mode) return cli_error(CLI_USAGE, "--mode '%s': expected compiled or uncompiled", mode);
  const char *threads = cli_get(a, "--threads");
  if (threads) {
    if (!cli_int("--threads", threads, 0, 1024, &v)) return CLI_USAGE;
    o->threads = (int)v;
  }
  *repeat = 1;
  const char *rep = cli_get(a, "--repeat");
  if (rep && !cli_int("--repeat", rep, 1, 1000000, repeat)) return CLI_USAGE;
  return CLI_OK;
}

static int cmd_run(const cli_args *a) {
  ic_options o;
  long long repeat, seed = -1;
  int rc = run_options(a, &o, &repeat);
  if (rc) return rc;
  const char *rp = cli_get(a, "--random-params");
  if (rp && !cli_int("--random-params", rp, 0, INT64_MAX, &seed)) return CLI_USAGE;
  if (rp && cli_get(a, "--params")) {
    return cli_error(CLI_USAGE, "--params and --random-params exclude each other");
  }
  ic_program *p = NULL;
  ic_scope *s = NULL;
  ic_executor *e = NULL;
  feeds f = {0};
  size_t n_fetch = 0;
  const char **fetch = NULL;
  ic_tensor **out = NULL;
  char err[1024];
  if ((rc = load(a->pos[0], cli_get(a, "--params"), rp ? IC_LOAD_NO_PARAMS : 0, &p, &s))) {
    goto done;
  }
  if (rp && ic_params_random(p, (uint64_t)seed, s, err, sizeof err)) {
    rc = cli_error(CLI_FAIL, "%s", err);
    goto done;
  }
  if ((rc = read_feeds(a, p, &f))) goto done;
  const char *const *given = cli_all(a, "--fetch", &n_fetch);
  if (!n_fetch) n_fetch = ic_program_n_fetch_targets(p);
  if (!n_fetch) {
    rc = cli_error(CLI_USAGE, "the program has no fetch targets; name one with --fetch NAME");
    goto done;
  }
  fetch = calloc(n_fetch, sizeof *fetch);
  out = calloc(n_fetch, sizeof *out);
  if (!fetch || !out) {
    rc = cli_error(CLI_FAIL, "out of memory");
    goto done;
  }
  for (size_t i = 0; i < n_fetch; i++) fetch[i] = given ? given[i] : ic_program_fetch_target(p, i);
  if (ic_executor_create(&o, &e)) {
    rc = cli_error(CLI_FAIL, "cannot create an executor with these options");
    goto done;
  }
  double best = 0, total = 0;
  for (long long r = 0; r < repeat; r++) {
    for (size_t i = 0; i < n_fetch; i++) {
      ic_tensor_destroy(out[i]);
      out[i] = NULL;
    }
    double t0 = now_ms();
    if (ic_executor_run(e, p, s, f.n, f.names, (const ic_tensor *const *)f.tensors, n_fetch,
                        fetch, out)) {
      rc = cli_error(CLI_FAIL, "%s", ic_executor_errmsg(e));
      goto done;
    }
    double dt = now_ms() - t0;
    total += dt;
    best = r == 0 || dt < best ? dt : best;
  }
  for (size_t i = 0; i < n_fetch; i++) cli_print_tensor(stdout, fetch[i], out[i]);
  if (repeat > 1) {
    printf("time: %lld runs, mean %.3f ms, best %.3f ms (%s)\n", repeat, total / (double)repeat,
           best, o.mode == IC_MODE_COMPILED ? "compiled" : "uncompiled");
  }
  const char *dir = cli_get(a, "--out");
  if (dir) rc = write_outputs(dir, n_fetch, fetch, out);
done:
  for (size_t i = 0; out && i < n_fetch; i++) ic_tensor_destroy(out[i]);
  free(out);
  free(fetch);
  feeds_free(&f);
  ic_executor_destroy(e);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  return rc;
}

/* ---------------------------------------------------------------------------------------
 * icore info
 * ------------------------------------------------------------------------------------- */

typedef struct op_count {
  const char *type;
  size_t n;
} op_count;

static int count_cmp(const void *x, const void *y) {
  const op_count *a = x, *b = y;
  if (a->n != b->n) return a->n < b->n ? 1 : -1;
  return strcmp(a->type, b->type);
}

/* Op types of every block with their counts, most frequent first. */
static op_count *count_ops(const ic_program *p, size_t *n_types, size_t *n_ops) {
  size_t cap = 0;
  *n_types = *n_ops = 0;
  for (size_t b = 0; b < p->n_blocks; b++) cap += p->blocks[b].n_ops;
  op_count *c = calloc(cap + 1, sizeof *c);
  if (!c) return NULL;
  for (size_t b = 0; b < p->n_blocks; b++) {
    for (size_t i = 0; i < p->blocks[b].n_ops; i++) {
      const char *t = p->blocks[b].ops[i].type;
      size_t k = 0;
      while (k < *n_types && strcmp(c[k].type, t) != 0) k++;
      if (k == *n_types) c[(*n_types)++].type = t;
      c[k].n++;
      (*n_ops)++;
    }
  }
  qsort(c, *n_types, sizeof *c, count_cmp);
  return c;
}

static void print_targets(const ic_program *p, const char *title, size_t n,
                          const char *(*at)(const ic_program *, size_t)) {
  char d[200];
  printf("%s:\n", title);
  if (!n) printf("  (none)\n");
  for (size_t i = 0; i < n; i++) printf("  %-32s %s\n", at(p, i), var_desc(p, at(p, i), d, sizeof d));
}

static int print_params(const ic_program *p) {
  const ic_vardesc **vars;
  size_t n;
  ic_err err;
  if (ic_params_list(p, &vars, &n, &err)) return cli_error(CLI_FAIL, "%s", err.msg);
  int64_t elems = 0, bytes = 0;
  size_t unknown = 0;
  const char *first_unknown = NULL;
  for (size_t i = 0; i < n; i++) {
    int64_t k = ic_numel(vars[i]->ndim, vars[i]->dims);
    if (k < 0) {
      if (!unknown++) first_unknown = vars[i]->name;
      continue;
    }
    elems += k;
    bytes += k * (int64_t)ic_dtype_size(vars[i]->dtype);
  }
  printf("parameters: %zu tensors", n);
  if (unknown) {
    printf(", %zu with -1 dims (e.g. '%s'): size unknown; the others hold %lld elements, "
           "%lld bytes\n",
           unknown, first_unknown, (long long)elems, (long long)bytes);
  } else {
    bool mib = bytes >= 1024 * 1024;
    printf(", %lld elements, %lld bytes (%.2f %s)\n", (long long)elems, (long long)bytes,
           (double)bytes / (mib ? 1024.0 * 1024.0 : 1024.0), mib ? "MiB" : "KiB");
  }
  free(vars);
  return CLI_OK;
}

static int cmd_info(const cli_args *a) {
  ic_program *p;
  ic_scope *s;
  int rc = load(a->pos[0], NULL, IC_LOAD_NO_PARAMS, &p, &s);
  if (rc) return rc;
  size_t n_types, n_ops;
  op_count *c = count_ops(p, &n_types, &n_ops);
  if (!c) {
    rc = cli_error(CLI_FAIL, "out of memory");
    goto done;
  }
  printf("model: %s\n", a->pos[0]);
  printf("program: %zu block%s, %zu ops, %zu op types\n", p->n_blocks,
         p->n_blocks == 1 ? "" : "s", n_ops, n_types);
  print_targets(p, "feed targets", ic_program_n_feed_targets(p), ic_program_feed_target);
  print_targets(p, "fetch targets", ic_program_n_fetch_targets(p), ic_program_fetch_target);
  printf("op types:\n");
  for (size_t i = 0; i < n_types; i++) printf("  %-32s %zu\n", c[i].type, c[i].n);
  if ((rc = print_params(p))) goto done;
  size_t missing = 0;
  for (size_t i = 0; i < n_types; i++) {
    if (ic_registry_find(c[i].type)) continue;
    printf("%s %s", missing++ ? "" : "no kernel yet for:", c[i].type);
  }
  if (missing) printf("  (%zu of %zu op types)\n", missing, n_types);
  else printf("kernels: every op type has one\n");
done:
  free(c);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  return rc;
}

/* ---------------------------------------------------------------------------------------
 * Dispatch
 * ------------------------------------------------------------------------------------- */

static const command k_commands[] = {
    {"run", "MODEL [options]",
     "Run MODEL (X.pdmodel, or a directory with __model__) on .npy inputs and print each\n"
     "fetched tensor's dtype, shape, min, max, mean and first values.",
     k_run_opts, sizeof k_run_opts / sizeof k_run_opts[0], 1, cmd_run},
    {"info", "MODEL",
     "Describe MODEL: feed and fetch targets, op types, parameter count and size, and the op\n"
     "types icore has no kernel for yet.",
     NULL, 0, 1, cmd_info},
};
#define N_COMMANDS (sizeof k_commands / sizeof k_commands[0])

static void usage(FILE *f) {
  fprintf(f, "usage: icore COMMAND [options]\n\ncommands:\n");
  for (size_t i = 0; i < N_COMMANDS; i++) {
    fprintf(f, "  %-6s %s\n", k_commands[i].name, k_commands[i].args);
  }
  fprintf(f, "  %-6s %s\n", "help", "[COMMAND]");
  fprintf(f, "\n  icore --version    print the version\n");
  fprintf(f, "\nEnvironment: ICORE_MODE, ICORE_THREADS, ICORE_SERIAL, ICORE_GC, ... set executor "
             "options.\n");
}

static const command *find_command(const char *name) {
  for (size_t i = 0; i < N_COMMANDS; i++) {
    if (strcmp(k_commands[i].name, name) == 0) return &k_commands[i];
  }
  return NULL;
}

static int unknown(const char *name) {
  return cli_error(CLI_USAGE, "unknown command '%s' (see 'icore help')", name);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return CLI_USAGE;
  }
  const char *name = argv[1];
  if (!strcmp(name, "--version") || !strcmp(name, "version")) {
    printf("icore %s\n", ic_version());
    return CLI_OK;
  }
  if (!strcmp(name, "help") || !strcmp(name, "--help") || !strcmp(name, "-h")) {
    if (argc < 3) {
      usage(stdout);
      return CLI_OK;
    }
    const command *c = find_command(argv[2]);
    if (!c) return unknown(argv[2]);
    cli_usage(stdout, c->name, c->args, c->about, c->opts, c->n_opts);
    return CLI_OK;
  }
  const command *c = find_command(name);
  if (!c) return unknown(name);
  cli_args a;
  int rc = cli_parse(argc - 2, argv + 2, c->opts, c->n_opts, &a);
  if (!rc && a.help) {
    cli_usage(stdout, c->name, c->args, c->about, c->opts, c->n_opts);
  } else if (!rc && a.n_pos != c->n_pos) {
    rc = cli_error(CLI_USAGE, "%s expects %zu argument%s (%s), got %zu; see 'icore %s --help'",
                   c->name, c->n_pos, c->n_pos == 1 ? "" : "s", c->args, a.n_pos, c->name);
  } else if (!rc) {
    rc = c->fn(&a);
  }
  cli_args_free(&a);
  return rc;
}
