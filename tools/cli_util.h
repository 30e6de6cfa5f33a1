/* Helpers shared by the `icore` commands: option parsing against a table, error lines,
 * usage text and tensor summaries. */
#ifndef IC_TOOLS_CLI_UTIL_H
#define IC_TOOLS_CLI_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "icore/icore.h"

/* Exit codes. */
#define CLI_OK 0
#define CLI_FAIL 1  /* the command could not do its work (model, input or run failed) */
#define CLI_USAGE 2 /* the command line is wrong */

/* Print "icore: error: MESSAGE" (one line) on stderr; returns code. */
int cli_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One option of a command. */
typedef struct cli_opt {
  const char *name;    /* "--feed" */
  const char *metavar; /* "NAME=FILE.npy"; NULL for a flag without a value */
  bool repeat;         /* may be given more than once */
  const char *help;    /* one line */
} cli_opt;

/* A command line parsed against a table of options. Values point into argv. */
typedef struct cli_args {
  const cli_opt *opts;
  size_t n_opts;
  size_t *n_vals;       /* per option: how often it was given */
  const char ***vals;   /* per option: its values, in order ("" for flags) */
  size_t n_pos;         /* positional arguments */
  const char **pos;
  bool help;            /* --help or -h was given */
} cli_args;

/* Parse argv[0..argc) ("--opt VALUE", "--opt=VALUE", flags, "--" ends options). Returns
 * CLI_OK, or CLI_USAGE after printing the error. Free with cli_args_free either way. */
int cli_parse(int argc, char **argv, const cli_opt *opts, size_t n_opts, cli_args *out);
void cli_args_free(cli_args *a);
/* The last value given for option name, or NULL. */
const char *cli_get(const cli_args *a, const char *name);
/* Every value given for option name (*n of them). */
const char *const *cli_all(const cli_args *a, const char *name, size_t *n);
/* An integer option value in [lo, hi]; prints the error and returns false otherwise. */
bool cli_int(const char *opt, const char *s, long long lo, long long hi, long long *out);

/* "usage: icore CMD ARGS", what it does, and the option table. */
void cli_usage(FILE *f, const char *cmd, const char *args, const char *about,
               const cli_opt *opts, size_t n_opts);

/* "name: float32[2, 3]  min=... max=... mean=...  first: v0 v1 ..." on one line. */
void cli_print_tensor(FILE *f, const char *name, const ic_tensor *t);

/* Write s as a JSON string literal (quotes included). */
void cli_json_string(FILE *f, const char *s);

/* Create the directory DIR and any missing parents (mkdir -p); an existing directory is fine.
 * On failure prints "OPT DIR: ..." naming the component that failed and returns CLI_FAIL. */
int cli_make_dirs(const char *opt, const char *dir);

#endif
