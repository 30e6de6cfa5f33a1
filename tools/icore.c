/* icore: run Paddle inference programs and inspect them from the command line.
 *
 *   icore run MODEL [--feed NAME=FILE.npy]... [--fetch NAME]... [--out DIR] ...
 *   icore bench MODEL [feeds] [--iters N] [--warmup N] [--threads N] [--json FILE]
 *   icore inspect MODEL [feeds] [--dot FILE]
 *   icore info MODEL
 *   icore train MAIN --startup STARTUP|--params PATH --feed NAME=FILE.npy... --steps N ...
 *   icore help [COMMAND] | icore --version
 *
 * MODEL is X.pdmodel or X.json (Paddle 3's PIR program; parameters from X.pdiparams beside
 * either) or a directory holding __model__ plus __params__ or one file per parameter. Errors are one line on stderr,
 * "icore: error: ...", with exit status 1 (2 for a wrong command line). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_model.h"
#include "icore/icore.h"
#include "kernels/kernel.h"
#include "program/program.h"
#include "scope/params.h"

typedef struct command {
  const char *name;
  const char *args;  /* positional arguments, for the usage line */
  const char *about;
  const cli_opt *opts;
  const size_t *n_opts; /* count of opts */
  size_t n_pos;      /* positional arguments required */
  int (*fn)(const cli_args *a);
} command;

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
  for (size_t i = 0; i < n; i++) printf("  %-32s %s\n", at(p, i), cli_var_desc(p, at(p, i), d, sizeof d));
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

/* Whether icore can run op: IC_ERR_NOT_FOUND without a kernel (data readers excepted),
 * IC_ERR_UNSUPPORTED (e->msg says why) for an attribute mode it does not implement
 * (ic_opdef_parse runs the op's parse and supports check, as analysis does). */
static ic_status op_support(const ic_op *op, ic_err *e) {
  ic_err_clear(e);
  const ic_opdef *def = ic_registry_find(op->type);
  if (!def) return ic_program_is_reader_op(op->type) ? IC_OK : IC_ERR_NOT_FOUND;
  void *attrs = calloc(1, def->attrs_size ? def->attrs_size : 1);
  if (!attrs) return IC_ERR_OUT_OF_MEMORY;
  ic_status st = ic_opdef_parse(def, op, attrs, e);
  free(attrs);
  return st == IC_ERR_UNSUPPORTED ? st : IC_OK;
}

int cmd_info(const cli_args *a) {
  ic_program *p;
  ic_scope *s;
  char err[1024];
  if (ic_model_load(a->pos[0], NULL, IC_LOAD_NO_PARAMS, &p, &s, err, sizeof err)) {
    return cli_error(CLI_FAIL, "%s", err);
  }
  int rc = CLI_OK;
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
  size_t missing = 0, unsupported = 0, readers = 0;
  for (size_t i = 0; i < n_types; i++) {
    if (!ic_program_is_reader_op(c[i].type)) continue;
    printf("%s %s", readers++ ? "" : "data readers (their read outputs are fed):", c[i].type);
  }
  if (readers) printf("\n");
  for (size_t i = 0; i < n_types; i++) {
    if (ic_registry_find(c[i].type) || ic_program_is_reader_op(c[i].type)) continue;
    printf("%s %s", missing++ ? "" : "no kernel yet for:", c[i].type);
  }
  if (missing) printf("  (%zu of %zu op types)\n", missing, n_types);
  /* An op whose type has a kernel is covered only if icore implements its attribute modes. */
  for (size_t b = 0; b < p->n_blocks; b++) {
    for (size_t i = 0; i < p->blocks[b].n_ops; i++) {
      const ic_op *op = &p->blocks[b].ops[i];
      ic_err e;
      ic_status st = op_support(op, &e);
      if (st == IC_ERR_OUT_OF_MEMORY) {
        rc = cli_error(CLI_FAIL, "out of memory");
        goto done;
      }
      if (st == IC_ERR_UNSUPPORTED) {
        printf("%s%s\n", unsupported++ ? "  " : "unsupported mode:\n  ", e.msg);
      }
    }
  }
  if (!missing && !unsupported) printf("kernels: every op type has one\n");
  if (missing || unsupported) { /* what runs anyway: the block-0 ops before the first gap */
    const ic_op *first = NULL;
    for (size_t i = 0; i < p->blocks[0].n_ops && !first; i++) {
      ic_err e;
      ic_status st = op_support(&p->blocks[0].ops[i], &e);
      if (st == IC_ERR_NOT_FOUND || st == IC_ERR_UNSUPPORTED) first = &p->blocks[0].ops[i];
    }
    const char *in = NULL;
    for (size_t k = 0; first && k < first->n_inputs && !in; k++) {
      if (first->inputs[k].n) in = first->inputs[k].args[0];
    }
    if (in) {
      char w[160];
      printf("to run what comes before %s: icore run MODEL --prune --fetch '%s' (one of "
             "its inputs)\n", ic_op_where(first, w, sizeof w), in);
    }
  }
done:
  free(c);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  return rc;
}

/* ---------------------------------------------------------------------------------------
 * Dispatch
 * ------------------------------------------------------------------------------------- */

static const size_t k_no_opts = 0;

static const command k_commands[] = {
    {"run", "MODEL [options]",
     "Run MODEL (X.pdmodel, X.json, or a directory with __model__) on .npy inputs and print each\n"
     "fetched tensor's dtype, shape, min, max, mean and first values.",
     k_run_opts, &k_n_run_opts, 1, cmd_run},
    {"bench", "MODEL [options]",
     "Time MODEL in uncompiled and compiled mode, alternating: median and p90 latency, the\n"
     "first run (analysis) cost, the speed-up, and whether the outputs are bitwise equal.",
     k_bench_opts, &k_n_bench_opts, 1, cmd_bench},
    {"inspect", "MODEL [options]",
     "Show MODEL's plan: instructions, dependency edges before and after pruning, implicit\n"
     "edges, critical path, width, every variable's lifetime, and with feeds given, every\n"
     "variable's shape and the peak live bytes of a run.",
     k_inspect_opts, &k_n_inspect_opts, 1, cmd_inspect},
    {"info", "MODEL",
     "Describe MODEL: feed and fetch targets, op types, parameter count and size, and the op\n"
     "types icore has no kernel for yet.",
     NULL, &k_no_opts, 1, cmd_info},
    {"train", "MAIN [options]",
     "Train: run the startup program once (or load --params), then the training program MAIN\n"
     "--steps times, printing each fetch per step; --save writes the trained persistables.",
     k_train_opts, &k_n_train_opts, 1, cmd_train},
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
    cli_usage(stdout, c->name, c->args, c->about, c->opts, *c->n_opts);
    return CLI_OK;
  }
  const command *c = find_command(name);
  if (!c) return unknown(name);
  cli_args a;
  int rc = cli_parse(argc - 2, argv + 2, c->opts, *c->n_opts, &a);
  if (!rc && a.help) {
    cli_usage(stdout, c->name, c->args, c->about, c->opts, *c->n_opts);
  } else if (!rc && a.n_pos != c->n_pos) {
    rc = cli_error(CLI_USAGE, "%s expects %zu argument%s (%s), got %zu; see 'icore %s --help'",
                   c->name, c->n_pos, c->n_pos == 1 ? "" : "s", c->args, a.n_pos, c->name);
  } else if (!rc) {
    rc = c->fn(&a);
  }
  cli_args_free(&a);
  return rc;
}
