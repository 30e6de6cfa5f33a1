/* What the commands that run a model share: loading it with its parameters (or synthetic
 * ones), its feeds from .npy files or generated, its fetch names, and executor options. */
#ifndef IC_TOOLS_CLI_MODEL_H
#define IC_TOOLS_CLI_MODEL_H

#include "cli_util.h"
#include "icore/icore.h"

/* Options of every command that runs a model; put them in the command's table. */
#define CLI_MODEL_OPTS                                                                          \
  {"--params", "PATH", false, "parameter file or directory (default: beside MODEL)"},           \
  {"--random-params", "SEED", false, "fill parameters with synthetic values, read no file"},    \
  {"--feed", "NAME=FILE.npy", true, "feed variable NAME from a .npy file"},                     \
  {"--random-feed", "NAME=D0,D1,..", true,                                                      \
   "feed NAME with deterministic values in [-1, 1) of these dims (its declared dtype)"},        \
  {"--lod", "NAME=0,3,7", true,                                                                 \
   "give feed NAME one LoD level of these offsets ('0,2;0,1,3' or a repeated flag: more levels, " \
   "outermost first)"},                                                                         \
  {"--fetch", "NAME", true, "fetch variable NAME (default: the program's fetch targets)"}

#define CLI_EXEC_OPTS                                                                           \
  {"--mode", "compiled|uncompiled", false, "executor mode (default: ICORE_MODE or compiled)"},  \
  {"--threads", "N", false, "executor threads, 0 = one per core (default: ICORE_THREADS or 0)"}, \
  {"--no-fuse", NULL, false, "no inference rewrites: compiled stays bitwise equal to uncompiled"}, \
  {"--device", "PLACE", false, "cpu, cuda:N or emu:N (the emulated-stream test device)"},        \
  {"--streams", "POLICY", false, "device stream policy: single, per-backend, per-operator"},     \
  {"--cuda-graph", NULL, false, "record a run as a CUDA graph and replay it (static shapes)"},   \
  {"--winograd", NULL, false,                                                                   \
   "compiled CPU plans: 3x3 convolutions by Winograd where faster (differs ~1e-6 relative)"}, \
  {"--prune", NULL, false,                                                                      \
   "run only the ops the fetches need (and those writing persistables, save, print, assert)"}

typedef struct cli_model {
  ic_program *prog;
  ic_scope *scope;       /* parameters */
  size_t n_feeds;
  const char **feed_names;
  char **name_bufs;      /* owned copies of the names */
  ic_tensor **feeds;
  size_t n_fetches;
  const char **fetch_names;
} cli_model;

/* Load MODEL (a->pos[0]) and everything CLI_MODEL_OPTS asks for. With need_feeds, every feed
 * target of the program must be fed. Close it either way. */
int cli_model_open(const cli_args *a, bool need_feeds, cli_model *m);
void cli_model_close(cli_model *m);
/* Executor options: defaults, then ICORE_* variables, then CLI_EXEC_OPTS. */
int cli_exec_options(const cli_args *a, ic_options *o);
/* "float32[-1, 3, 224, 224]" for a declared variable, or "(not a tensor)". */
const char *cli_var_desc(const ic_program *p, const char *name, char *buf, size_t len);

/* The commands. */
int cmd_run(const cli_args *a);
int cmd_bench(const cli_args *a);
int cmd_inspect(const cli_args *a);
int cmd_info(const cli_args *a);
int cmd_train(const cli_args *a);
extern const cli_opt k_run_opts[];
extern const size_t k_n_run_opts;
extern const cli_opt k_bench_opts[];
extern const size_t k_n_bench_opts;
extern const cli_opt k_inspect_opts[];
extern const size_t k_n_inspect_opts;
extern const cli_opt k_train_opts[];
extern const size_t k_n_train_opts;

#endif
