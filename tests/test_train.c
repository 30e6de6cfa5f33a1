/* Training programs built by Paddle (tests/data/train/, written by tools/gen_paddle_train.py):
 * starting from Paddle's persistables right after its startup program, icore runs the main
 * program (forward, backward and optimizer ops) step by step on Paddle's batches, and every
 * step's loss and the final persistables must match Paddle's, in both executors and at 1, 2
 * and 4 threads, with every configuration bitwise equal to the uncompiled executor. Startup
 * programs run into an empty scope and produce every persistable with its declared shape and
 * initializer distribution; bad input gives clear errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ctrlflow.h"
#include "interp/interp.h" /* ic_executor_last_plan */
#include "kernels/cpu/train.h"
#include "kernels/kernel.h"
#include "npy.h"
#include "program/program.h"
#include "testutil.h"

#define MAX_FEEDS 4

typedef struct train_case {
  char name[32];
  ic_program *main, *startup;
  ic_scope *init, *final; /* Paddle's persistables after startup and after the last step */
  int steps, batch;
  size_t n_feeds;
  char feed_names[MAX_FEEDS][64];
  ic_tensor *feeds[MAX_FEEDS]; /* steps * batch rows (a LoD feed: steps * its LoD's rows) */
  /* 'lod NAME o0 o1 ...': the one LoD level of every step's slice of feed NAME, which has
   * lod[feed][lod_len - 1] rows per step (fluid's LoD gru / lstm cases) */
  size_t lod_len[MAX_FEEDS];
  uint64_t lod[MAX_FEEDS][16];
  ic_tensor *loss;             /* float32[steps] */
  char loss_name[64];
  double rtol, ptol;
  /* learning-rate schedules: lr_name is the learning rate the optimizer reads; lr (from
   * lr.npy, [steps, ...]) its value at every step. lr_fed: Paddle's executor set it before
   * each run (paddle.optimizer.lr.* schedulers, 'lrfeed'), so icore feeds it; otherwise the
   * program computes it ('lr', legacy schedules) and it is fetched and compared. */
  char lr_name[64];
  bool lr_fed;
  ic_tensor *lr;
} train_case;

static void path_of(const char *c, const char *file, char *buf, size_t len) {
  snprintf(buf, len, "%s/tests/data/train/%s/%s", IC_SOURCE_DIR, c, file);
}

static ic_scope *load_params(const ic_program *p, const char *c, const char *file) {
  char path[1024], err[1024];
  ic_scope *s = NULL;
  path_of(c, file, path, sizeof path);
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  ic_status st = ic_params_load(p, path, IC_PARAMS_COMBINED, s, err, sizeof err);
  ck_assert_msg(st == IC_OK, "%s: %s", path, err);
  return s;
}

static void load_case(const char *name, train_case *tc) {
  memset(tc, 0, sizeof *tc);
  snprintf(tc->name, sizeof tc->name, "%s", name);
  char path[1024], err[1024];
  path_of(name, "case.txt", path, sizeof path);
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  char line[1024];
  while (fgets(line, sizeof line, f)) {
    char a[64], b[256];
    if (line[0] == '#') continue;
    if (sscanf(line, "steps %d", &tc->steps) == 1 || sscanf(line, "batch %d", &tc->batch) == 1 ||
        sscanf(line, "rtol %lf", &tc->rtol) == 1 || sscanf(line, "ptol %lf", &tc->ptol) == 1 ||
        sscanf(line, "loss %63s", tc->loss_name) == 1) {
      continue;
    }
    if (sscanf(line, "lrfeed %63s", tc->lr_name) == 1) {
      tc->lr_fed = true;
      continue;
    }
    if (sscanf(line, "lr %63s", tc->lr_name) == 1) continue;
    int at = 0;
    if (sscanf(line, "lod %63s%n", a, &at) == 1) {
      size_t k = 0;
      while (k < tc->n_feeds && strcmp(tc->feed_names[k], a)) k++;
      ck_assert_msg(k < tc->n_feeds, "%s: 'lod %s' before its feed", name, a);
      unsigned long long v;
      int used;
      while (sscanf(line + at, "%llu%n", &v, &used) == 1) {
        ck_assert_uint_lt(tc->lod_len[k], 16);
        tc->lod[k][tc->lod_len[k]++] = v;
        at += used;
      }
      ck_assert_uint_ge(tc->lod_len[k], 2);
      continue;
    }
    if (sscanf(line, "feed %63s %255s", a, b) == 2) {
      ck_assert_uint_lt(tc->n_feeds, MAX_FEEDS);
      snprintf(tc->feed_names[tc->n_feeds], 64, "%s", a);
      char fp[1024];
      path_of(name, b, fp, sizeof fp);
      ck_assert_msg(ic_npy_load(fp, &tc->feeds[tc->n_feeds], err, sizeof err) == IC_OK, "%s", err);
      tc->n_feeds++;
    }
  }
  fclose(f);
  ck_assert_int_gt(tc->steps, 0);
  ck_assert_int_gt(tc->batch, 0);
  path_of(name, "main.pdmodel", path, sizeof path);
  ck_assert_msg(ic_program_from_file(path, &tc->main, err, sizeof err) == IC_OK, "%s", err);
  path_of(name, "startup.pdmodel", path, sizeof path);
  ck_assert_msg(ic_program_from_file(path, &tc->startup, err, sizeof err) == IC_OK, "%s", err);
  /* the dropout case has no Paddle persistables: it starts from icore's startup run */
  if (strcmp(name, "dropout") != 0) {
    tc->init = load_params(tc->main, name, "init.pdiparams");
    tc->final = load_params(tc->main, name, "final.pdiparams");
  }
  path_of(name, "loss.npy", path, sizeof path);
  ck_assert_msg(ic_npy_load(path, &tc->loss, err, sizeof err) == IC_OK, "%s", err);
  ck_assert_int_eq(ic_tensor_numel(tc->loss), tc->steps);
  if (tc->lr_name[0]) {
    path_of(name, "lr.npy", path, sizeof path);
    ck_assert_msg(ic_npy_load(path, &tc->lr, err, sizeof err) == IC_OK, "%s", err);
    ck_assert_int_eq(ic_tensor_dims(tc->lr)[0], tc->steps);
  }
}

static void free_case(train_case *tc) {
  for (size_t i = 0; i < tc->n_feeds; i++) ic_tensor_destroy(tc->feeds[i]);
  ic_tensor_destroy(tc->loss);
  ic_tensor_destroy(tc->lr);
  ic_scope_destroy(tc->init);
  ic_scope_destroy(tc->final);
  ic_program_destroy(tc->main);
  ic_program_destroy(tc->startup);
}

/* Rows [step * batch, (step + 1) * batch) of a stacked feed. */
static ic_tensor *batch_of(const ic_tensor *all, int step, int batch) {
  int64_t dims[8];
  int nd = ic_tensor_ndim(all);
  memcpy(dims, ic_tensor_dims(all), (size_t)nd * sizeof *dims);
  size_t row = ic_tensor_nbytes(all) / (size_t)dims[0];
  dims[0] = batch;
  ic_tensor *t = NULL;
  ck_assert_int_eq(ic_tensor_create(ic_tensor_dtype(all), nd, dims, &t), IC_OK);
  memcpy(ic_tensor_data(t), (const char *)ic_tensor_cdata(all) + (size_t)step * batch * row,
         (size_t)batch * row);
  return t;
}

/* Row `step` of a stacked [steps, ...] tensor, without the leading dimension. */
static ic_tensor *row_of(const ic_tensor *all, int step) {
  int nd = ic_tensor_ndim(all);
  ic_tensor *t = NULL;
  ck_assert_int_eq(ic_tensor_create(ic_tensor_dtype(all), nd - 1, ic_tensor_dims(all) + 1, &t),
                   IC_OK);
  size_t row = ic_tensor_nbytes(t);
  memcpy(ic_tensor_data(t), (const char *)ic_tensor_cdata(all) + (size_t)step * row, row);
  return t;
}

/* A copy of every persistable of p's block 0 from src into a new scope. */
static ic_scope *copy_persistables(const ic_program *p, const ic_scope *src) {
  ic_scope *s = NULL;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  const ic_block *b = &p->blocks[0];
  for (size_t i = 0; i < b->n_vars; i++) {
    const ic_vardesc *v = &b->vars[i];
    if (!v->persistable || !v->is_tensor) continue;
    const ic_tensor *t = ic_scope_get(src, v->name);
    ck_assert_msg(t != NULL, "persistable '%s' missing", v->name);
    ck_assert_int_eq(ic_scope_set(s, v->name, t), IC_OK);
  }
  return s;
}

typedef struct config {
  const char *what;
  ic_mode mode;
  int threads;
  bool prune; /* only the ops the loss needs, plus the updates (prune.c): the same training */
} config;

static const config k_configs[] = {
    {"uncompiled", IC_MODE_UNCOMPILED, 1, false},
    {"compiled, 1 thread", IC_MODE_COMPILED, 1, false},
    {"compiled, 2 threads", IC_MODE_COMPILED, 2, false},
    {"compiled, 4 threads", IC_MODE_COMPILED, 4, false},
    {"compiled, 2 threads, pruned", IC_MODE_COMPILED, 2, true},
};
#define N_CONFIGS (sizeof k_configs / sizeof k_configs[0])

static ic_executor *make_exec(const config *cf, bool check_nan_inf) {
  ic_options o;
  ic_options_default(&o);
  o.mode = cf->mode;
  o.threads = cf->threads;
  o.prune = cf->prune;
  o.check_nan_inf = check_nan_inf;
  ic_executor *e = NULL;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  return e;
}

/* Run `steps` steps of tc's main program on scope; losses[s] receives each step's loss and,
 * for a schedule case when lrs is not NULL, lrs[s] the learning rate of the step (a fed one
 * is fed, as Paddle's executor sets it from program.lr_scheduler before every run). */
static ic_status train_lr(const train_case *tc, ic_executor *e, ic_scope *scope, int steps,
                          float *losses, float *lrs) {
  const char *names[MAX_FEEDS + 1];
  for (size_t i = 0; i < tc->n_feeds; i++) names[i] = tc->feed_names[i];
  size_t n_feeds = tc->n_feeds + (tc->lr_fed ? 1 : 0);
  if (tc->lr_fed) names[tc->n_feeds] = tc->lr_name;
  const char *fetch[2] = {tc->loss_name, tc->lr_name};
  size_t n_fetch = tc->lr_name[0] ? 2 : 1;
  for (int s = 0; s < steps; s++) {
    ic_tensor *feeds[MAX_FEEDS + 1], *out[2] = {NULL, NULL};
    for (size_t i = 0; i < tc->n_feeds; i++) {
      if (!tc->lod_len[i]) {
        feeds[i] = batch_of(tc->feeds[i], s, tc->batch);
        continue;
      }
      const size_t n = tc->lod_len[i];
      feeds[i] = batch_of(tc->feeds[i], s, (int)tc->lod[i][n - 1]);
      const uint64_t *lv[1] = {tc->lod[i]};
      ck_assert_int_eq(ic_tensor_set_lod(feeds[i], 1, &n, lv), IC_OK);
    }
    if (tc->lr_fed) feeds[tc->n_feeds] = row_of(tc->lr, s);
    ic_status st = ic_executor_run(e, tc->main, scope, n_feeds, names,
                                   (const ic_tensor *const *)feeds, n_fetch, fetch, out);
    for (size_t i = 0; i < n_feeds; i++) ic_tensor_destroy(feeds[i]);
    if (st) return st;
    ck_assert_int_eq(ic_tensor_numel(out[0]), 1);
    losses[s] = *(const float *)ic_tensor_cdata(out[0]);
    if (n_fetch == 2) {
      ck_assert_int_eq(ic_tensor_numel(out[1]), 1);
      ck_assert_int_eq(ic_tensor_dtype(out[1]), IC_FP32);
      if (lrs) lrs[s] = *(const float *)ic_tensor_cdata(out[1]);
    }
    ic_tensor_destroy(out[0]);
    ic_tensor_destroy(out[1]);
  }
  return IC_OK;
}

static ic_status train(const train_case *tc, ic_executor *e, ic_scope *scope, int steps,
                       float *losses) {
  return train_lr(tc, e, scope, steps, losses, NULL);
}

static double elem(const ic_tensor *t, int64_t k) {
  switch (ic_tensor_dtype(t)) {
    case IC_FP32: return ((const float *)ic_tensor_cdata(t))[k];
    case IC_FP64: return ((const double *)ic_tensor_cdata(t))[k];
    case IC_INT64: return (double)((const int64_t *)ic_tensor_cdata(t))[k];
    default: return (double)((const int32_t *)ic_tensor_cdata(t))[k];
  }
}

/* Whether an op of p's block 0 names variable `name`. paddle.nn.LSTM / GRU declare a
 * persistable that no op of the main program uses (lstm_0.w_0: the startup program's
 * coalesce_tensor makes it one buffer that Paddle's parameters alias; icore keeps the
 * parameters as separate tensors and does not run coalesce_tensor); Paddle's final value of
 * it follows the parameters through the aliasing and is not compared. */
static bool used_by_ops(const ic_program *p, const char *name) {
  const ic_block *b = &p->blocks[0];
  for (size_t i = 0; i < b->n_ops; i++) {
    const ic_op *op = &b->ops[i];
    for (int io = 0; io < 2; io++) {
      const ic_slot *sl = io ? op->outputs : op->inputs;
      for (size_t k = 0; k < (io ? op->n_outputs : op->n_inputs); k++) {
        for (size_t j = 0; j < sl[k].n; j++) {
          if (!strcmp(sl[k].args[j], name)) return true;
        }
      }
    }
  }
  return false;
}

/* Every persistable of scope matches tc->final within ptol (relative, with an absolute floor
 * of ptol * 0.01 for values near zero). */
static double check_final(const train_case *tc, const ic_scope *scope, const char *what) {
  const ic_block *b = &tc->main->blocks[0];
  double worst = 0;
  for (size_t i = 0; i < b->n_vars; i++) {
    const ic_vardesc *v = &b->vars[i];
    if (!v->persistable || !v->is_tensor || !used_by_ops(tc->main, v->name)) continue;
    if (tc->lr_fed && !strcmp(v->name, tc->lr_name)) {
      /* fed at every step: the feed shadows it for its run only, so the scope keeps the
       * startup value (Paddle's executor overwrites its scope variable instead) */
      tu_assert_bitwise(ic_scope_get(scope, v->name), ic_scope_get(tc->init, v->name),
                        "fed learning rate");
      continue;
    }
    const ic_tensor *got = ic_scope_get(scope, v->name), *want = ic_scope_get(tc->final, v->name);
    ck_assert_msg(got && want, "%s %s: persistable '%s' missing", tc->name, what, v->name);
    ck_assert_int_eq(ic_tensor_numel(got), ic_tensor_numel(want));
    for (int64_t k = 0; k < ic_tensor_numel(want); k++) {
      double g = elem(got, k), w = elem(want, k);
      ck_assert_msg(fabs(g - w) <= tc->ptol * (fabs(w) + 0.01),
                    "%s %s: '%s'[%lld] is %.9g, Paddle has %.9g", tc->name, what, v->name,
                    (long long)k, g, w);
      if (fabs(g - w) / (fabs(w) + 0.01) > worst) worst = fabs(g - w) / (fabs(w) + 0.01);
    }
  }
  return worst;
}

static void check_bitwise(const train_case *tc, const ic_scope *a, const ic_scope *b,
                          const char *what) {
  const ic_block *bl = &tc->main->blocks[0];
  for (size_t i = 0; i < bl->n_vars; i++) {
    const ic_vardesc *v = &bl->vars[i];
    if (!v->persistable || !v->is_tensor) continue;
    char w[256];
    snprintf(w, sizeof w, "%s %s: '%s'", tc->name, what, v->name);
    tu_assert_bitwise(ic_scope_get(a, v->name), ic_scope_get(b, v->name), w);
  }
}

/* 20 steps from Paddle's initial persistables in every configuration. */
static void run_paddle_case(const char *name) {
  train_case tc;
  load_case(name, &tc);
  float *ref = calloc((size_t)tc.steps, sizeof *ref), *got = calloc((size_t)tc.steps, sizeof *got);
  float *ref_lr = calloc((size_t)tc.steps, sizeof *ref_lr);
  float *lr = calloc((size_t)tc.steps, sizeof *lr);
  ic_scope *first = NULL;
  double loss_err = 0, lr_err = 0;
  for (size_t k = 0; k < N_CONFIGS; k++) {
    const config *cf = &k_configs[k];
    ic_scope *scope = copy_persistables(tc.main, tc.init);
    ic_executor *e = make_exec(cf, false);
    ic_status st = train_lr(&tc, e, scope, tc.steps, got, lr);
    ck_assert_msg(st == IC_OK, "%s %s: %s", name, cf->what, ic_executor_errmsg(e));
    for (int s = 0; s < (tc.lr_name[0] ? tc.steps : 0); s++) {
      /* the learning rate of every step: Paddle's (fed, or computed by the program's
       * schedule ops from @LR_DECAY_COUNTER@), bitwise equal across configurations */
      double w = ((const float *)ic_tensor_cdata(tc.lr))[s];
      ck_assert_msg(fabs(lr[s] - w) <= 1e-6 * fabs(w) + 1e-9,
                    "%s %s: step %d learning rate %.9g, Paddle %.9g", name, cf->what, s,
                    (double)lr[s], w);
      if (w != 0 && fabs(lr[s] - w) / fabs(w) > lr_err) lr_err = fabs(lr[s] - w) / fabs(w);
      if (k == 0) ref_lr[s] = lr[s];
      else ck_assert_msg(memcmp(&ref_lr[s], &lr[s], sizeof(float)) == 0,
                         "%s %s: step %d learning rate %.9g differs from uncompiled %.9g", name,
                         cf->what, s, (double)lr[s], (double)ref_lr[s]);
    }
    for (int s = 0; s < tc.steps; s++) {
      double w = ((const float *)ic_tensor_cdata(tc.loss))[s];
      ck_assert_msg(fabs(got[s] - w) <= tc.rtol * fabs(w) + 1e-7,
                    "%s %s: step %d loss %.9g, Paddle %.9g", name, cf->what, s, (double)got[s], w);
      if (fabs(got[s] - w) / fabs(w) > loss_err) loss_err = fabs(got[s] - w) / fabs(w);
      if (k == 0) ref[s] = got[s];
      else ck_assert_msg(memcmp(&ref[s], &got[s], sizeof(float)) == 0,
                         "%s %s: step %d loss %.9g differs from uncompiled %.9g", name,
                         cf->what, s, (double)got[s], (double)ref[s]);
    }
    double param_err = check_final(&tc, scope, cf->what);
    if (k == 0) {
      /* the measured distance from Paddle, for the record */
      fprintf(stderr, "%s: %d steps, max loss error %.3g (relative), max parameter error %.3g "
              "(|d| / (|paddle| + 0.01))", name, tc.steps, loss_err, param_err);
      if (tc.lr_name[0]) {
        fprintf(stderr, ", learning rate '%s' %s, max error %.3g (relative)", tc.lr_name,
                tc.lr_fed ? "fed" : "computed", lr_err);
      }
      fprintf(stderr, "\n");
      first = scope;
    } else {
      check_bitwise(&tc, first, scope, cf->what);
      ic_scope_destroy(scope);
    }
    ic_executor_destroy(e);
  }
  ic_scope_destroy(first);
  free(ref);
  free(got);
  free(ref_lr);
  free(lr);
  free_case(&tc);
}

START_TEST(paddle_seed_example) { run_paddle_case("seed"); }
END_TEST

START_TEST(paddle_mlp_adam) { run_paddle_case("mlp"); }
END_TEST

START_TEST(paddle_attention_adamw_clip) { run_paddle_case("attention"); }
END_TEST

START_TEST(paddle_cnn_momentum) { run_paddle_case("cnn"); }
END_TEST

START_TEST(paddle_branches_rmsprop) { run_paddle_case("branches"); }
END_TEST

START_TEST(paddle_adagrad_cross_entropy2) { run_paddle_case("adagrad"); }
END_TEST

START_TEST(paddle_lamb) { run_paddle_case("lamb"); }
END_TEST

/* Paddle's other optimizers, one small fc network each (gen_paddle_train.py _opt_net) */
START_TEST(paddle_adamax) { run_paddle_case("adamax"); }
END_TEST

START_TEST(paddle_adadelta) { run_paddle_case("adadelta"); }
END_TEST

/* use_multi_tensor: one merged op over every parameter */
START_TEST(paddle_merged_momentum) { run_paddle_case("merged_momentum"); }
END_TEST

START_TEST(paddle_merged_adam) { run_paddle_case("merged_adam"); }
END_TEST

START_TEST(paddle_nadam) { run_paddle_case("nadam"); }
END_TEST

START_TEST(paddle_radam) { run_paddle_case("radam"); }
END_TEST

START_TEST(paddle_rprop) { run_paddle_case("rprop"); }
END_TEST

START_TEST(paddle_lars_momentum) { run_paddle_case("lars"); }
END_TEST

/* the asgd op in a hand-built program (Paddle 3.3.1's ASGD cannot build a legacy one) */
START_TEST(paddle_asgd) { run_paddle_case("asgd"); }
END_TEST

/* ops Paddle's Python API no longer offers, in hand-built programs (gen_paddle_train.py
 * _HandOptimizer): ftrl (sqrt and pow branches, and over an is_sparse embedding's
 * SelectedRows gradient) and decayed_adagrad */
START_TEST(paddle_t7_ftrl) { run_paddle_case("t7_ftrl"); }
END_TEST

START_TEST(paddle_t7_ftrl_pow) { run_paddle_case("t7_ftrl_pow"); }
END_TEST

START_TEST(paddle_t7_ftrl_sparse) { run_paddle_case("t7_ftrl_sparse"); }
END_TEST

START_TEST(paddle_t7_decayed_adagrad) { run_paddle_case("t7_decayed_adagrad"); }
END_TEST

/* paddle.incubate.optimizer.ModelAverage's average_accumulates after Momentum (its window
 * restarting several times) */
START_TEST(paddle_t7_model_average) { run_paddle_case("t7_model_average"); }
END_TEST

/* Every persistable of tc->main in scope matches the one in ref within ptol, as check_final. */
static void check_scope(const train_case *tc, const ic_scope *scope, const ic_scope *ref,
                        const char *what) {
  const ic_block *b = &tc->main->blocks[0];
  for (size_t i = 0; i < b->n_vars; i++) {
    const ic_vardesc *v = &b->vars[i];
    if (!v->persistable || !v->is_tensor || !used_by_ops(tc->main, v->name)) continue;
    const ic_tensor *got = ic_scope_get(scope, v->name), *want = ic_scope_get(ref, v->name);
    ck_assert_msg(got && want, "%s %s: persistable '%s' missing", tc->name, what, v->name);
    ck_assert_int_eq(ic_tensor_numel(got), ic_tensor_numel(want));
    for (int64_t k = 0; k < ic_tensor_numel(want); k++) {
      double g = elem(got, k), w = elem(want, k);
      ck_assert_msg(fabs(g - w) <= tc->ptol * (fabs(w) + 0.01),
                    "%s %s: '%s'[%lld] is %.9g, Paddle has %.9g", tc->name, what, v->name,
                    (long long)k, g, w);
    }
  }
}

/* ModelAverage after the 20 steps: its apply program (each parameter saved to its restore
 * variable and replaced by its window average: sum, cast, elementwise_div, assign) gives
 * Paddle's applied.pdiparams, and its restore program brings back the trained parameters. */
START_TEST(paddle_t7_model_average_apply) {
  train_case tc;
  load_case("t7_model_average", &tc);
  ic_scope *applied = load_params(tc.main, "t7_model_average", "applied.pdiparams");
  char path[1024], err[1024];
  ic_program *prog[2] = {NULL, NULL};
  for (int k = 0; k < 2; k++) {
    path_of("t7_model_average", k ? "restore.pdmodel" : "apply.pdmodel", path, sizeof path);
    ck_assert_msg(ic_program_from_file(path, &prog[k], err, sizeof err) == IC_OK, "%s", err);
  }
  for (size_t c = 0; c < N_CONFIGS; c += 2) {
    const config *cf = &k_configs[c];
    ic_scope *scope = copy_persistables(tc.main, tc.init);
    ic_executor *e = make_exec(cf, false);
    float *losses = calloc((size_t)tc.steps, sizeof *losses);
    ck_assert_msg(train(&tc, e, scope, tc.steps, losses) == IC_OK, "%s", ic_executor_errmsg(e));
    check_final(&tc, scope, cf->what);
    ic_status st = ic_executor_run(e, prog[0], scope, 0, NULL, NULL, 0, NULL, NULL);
    ck_assert_msg(st == IC_OK, "apply (%s): %s", cf->what, ic_executor_errmsg(e));
    check_scope(&tc, scope, applied, "after apply");
    st = ic_executor_run(e, prog[1], scope, 0, NULL, NULL, 0, NULL, NULL);
    ck_assert_msg(st == IC_OK, "restore (%s): %s", cf->what, ic_executor_errmsg(e));
    check_scope(&tc, scope, tc.final, "after restore");
    free(losses);
    ic_executor_destroy(e);
    ic_scope_destroy(scope);
  }
  for (int k = 0; k < 2; k++) ic_program_destroy(prog[k]);
  ic_scope_destroy(applied);
  free_case(&tc);
}
END_TEST

/* paddle.static.amp.decorate with dynamic loss scaling, float32 throughout: the first steps
 * overflow (check_finite_and_unscale finds infinities, update_loss_scaling halves the scale),
 * later ones grow it again */
START_TEST(paddle_t7_amp) { run_paddle_case("t7_amp"); }
END_TEST

START_TEST(paddle_lstm_sgd) { run_paddle_case("lstm"); }
END_TEST

START_TEST(paddle_gru_bidirec_sgd) { run_paddle_case("gru"); }
END_TEST

/* fluid's LoD gru / lstm ops (gru_grad, lstm_grad) in a sequence classifier, written by Paddle
 * 2.6.2: every step feeds 3 sequences of lengths 3, 1 and 5 */
START_TEST(paddle_gru_lod_sgd) { run_paddle_case("gru_lod"); }
END_TEST

START_TEST(paddle_lstm_lod_sgd) { run_paddle_case("lstm_lod"); }
END_TEST
START_TEST(paddle_crf_lod_sgd) { run_paddle_case("crf_lod"); }
END_TEST
START_TEST(paddle_sparse_sgd) { run_paddle_case("sparse_sgd"); }
END_TEST
START_TEST(paddle_sparse_adam) { run_paddle_case("sparse_adam"); }
END_TEST
/* Adam with lazy_mode over the sparse gradient: only the looked-up rows move */
START_TEST(paddle_sparse_adam_lazy) { run_paddle_case("sparse_adam_lazy"); }
END_TEST
/* is_sparse with padding_idx: Paddle's sparse gradient trains the padding row */
START_TEST(paddle_sparse_pad_sgd) { run_paddle_case("sparse_pad_sgd"); }
END_TEST

/* word2vec's output layers: hierarchical_sigmoid on the default tree with a Bias after an
 * is_sparse embedding (SGD); on a custom tree fed as PathTable / PathCode with is_sparse
 * (Adam); nce with custom_neg_classes, two true classes and a SampleWeight (SGD); nce drawing
 * its negatives with fixed seeds through the uniform, log_uniform and custom_dist samplers,
 * as Paddle's generator draws them (Adam). */
START_TEST(paddle_w2v_hsigmoid_sgd) { run_paddle_case("w2v_hsigmoid"); }
END_TEST
START_TEST(paddle_hsigmoid_custom_tree_adam) { run_paddle_case("hsigmoid_custom"); }
END_TEST
START_TEST(paddle_nce_custom_neg_sgd) { run_paddle_case("nce_custom_neg"); }
END_TEST
START_TEST(paddle_nce_samplers_adam) { run_paddle_case("nce_samplers"); }
END_TEST

/* A CTR model (sparse embeddings, fc, softmax cross-entropy, Adam) with paddle.static.auc in
 * the main program: the batch (slide_steps 2) and global auc ops update their int64 counts
 * in place every step; the final counts are compared with Paddle's. */
START_TEST(paddle_ctr_auc_adam) { run_paddle_case("ctr_auc"); }
END_TEST

/* hierarchical_sigmoid (custom tree, Bias) and nce (custom_neg_classes) in float64. */
START_TEST(paddle_w2v_float64_sgd) { run_paddle_case("w2v_f64"); }
END_TEST

/* hinge_loss, rank_loss, bpr_loss, modified_huber_loss and teacher_student_sigmoid_loss
 * (bounds +-1.5) and their gradients in one network (Paddle 2.6.2), SGD. */
START_TEST(paddle_legacy_losses_sgd) { run_paddle_case("losses_26"); }
END_TEST

/* bmm, tril_triu, addmm (broadcast bias), roll, take_along_axis (repeated indices),
 * reduce_amax, cummax, diagonal, trace and kron, with their grad ops, in one network, Adam. */
START_TEST(paddle_k_matrix_index_grads_adam) { run_paddle_case("k_matrix_index_grads"); }
/* The 33j grad ops in one network (Adam): log_softmax, nll_loss (weights, ignore_index),
 * kldiv_loss (batchmean), atan, sinh, tan, expm1, asinh, logsumexp, cumprod, logcumsumexp,
 * lerp, elementwise_fmax / fmin, dist (p 3), maxout, frobenius_norm, renorm, log_loss. */
START_TEST(paddle_j_grads_adam) { run_paddle_case("j_grads"); }
/* (helper M) conv3d_transpose, lrn, pixel_unshuffle, channel_shuffle, max_pool2d_with_index,
 * affine_grid and spectral_norm and their grads in one network, Adam. */
START_TEST(paddle_m_vision_grads_adam) { run_paddle_case("m_vision_grads"); }
END_TEST

/* paddle.optimizer.lr.LinearWarmup(CosineAnnealingDecay) with Adam (Paddle 3.3.1): the
 * program holds no schedule op; learning_rate_0 is fed at every step. */
START_TEST(paddle_lr_scheduler_fed) { run_paddle_case("lr_scheduler"); }
END_TEST

/* SGD with weight_decay L2Decay (scale + sum) and one parameter's own L1Decay (sign + scale
 * + sum). */
START_TEST(paddle_l2_l1_regularizer) { run_paddle_case("regularizer"); }
END_TEST

/* smooth_l1_loss (huber_loss, delta 0.5) with Momentum. */
START_TEST(paddle_huber_momentum) { run_paddle_case("huber"); }
END_TEST

/* softmax + cross_entropy (v1, soft labels) with SGD. */
START_TEST(paddle_cross_entropy_soft) { run_paddle_case("xent_soft"); }
END_TEST

/* Quantization-aware training (Paddle 3.3.1): QuantizationTransformPass with range_abs_max
 * activations (fake_quantize_range_abs_max's window of 4 scales wraps; Iter from increment)
 * and abs_max weights; with moving_average_abs_max activations and channel_wise_abs_max
 * weights (axis 0 and 1); and the quantize-dequantize ops written before minimize, whose
 * straight-through grad ops are in the program. The final persistables compared with
 * Paddle's include every scale, window, state and accumulator. */
START_TEST(paddle_qat_range_abs_max) { run_paddle_case("qat_range"); }
END_TEST

START_TEST(paddle_qat_moving_average_channel_wise) { run_paddle_case("qat_moving_average"); }
END_TEST

START_TEST(paddle_qat_fake_quant_dequant_ste) { run_paddle_case("qat_fake_qdq"); }
END_TEST

/* QuantizationTransformPassV2: quantize_linear (training: moving average per tensor,
 * channel abs-max per channel) + dequantize_linear. */
START_TEST(paddle_qat_v2_quantize_linear) { run_paddle_case("qat_v2"); }
END_TEST

/* QuantizationTransformPass's defaults plus OutScaleForTrainingPass's
 * moving_average_abs_max_scale observers (training mode). */
START_TEST(paddle_qat_out_scale_observers) { run_paddle_case("qat_out_scale"); }
END_TEST

/* Legacy schedules whose ops Paddle 2.6.2 writes into the program: increment on
 * @LR_DECAY_COUNTER@, cast, scale, floor/ceil, elementwise_pow/min/div, exp, cos, and the
 * control flow of piecewise (Switch: less_than, logical_not/and, conditional_block), cyclic
 * polynomial decay and warmup (cond / case: conditional_block, select_input, assign). */
static const char *const k_lr_cases[] = {"lr_noam", "lr_exp", "lr_natexp", "lr_invtime",
                                         "lr_poly", "lr_poly_cycle", "lr_piecewise",
                                         "lr_cosine", "lr_warmup",
                                         /* a hand-written Switch of computing cases, as
                                          * Paddle 1.x image-classification and ERNIE
                                          * scripts had: floor and cos in a sub-block,
                                          * Momentum with L2Decay */
                                         "lr_user_warmup_cosine"};

START_TEST(paddle_legacy_lr_schedule) { run_paddle_case(k_lr_cases[_i]); }
END_TEST

/* Training through control flow (Paddle 2.6.2): paddle.static.nn.while_loop whose body
 * applies its own fc + tanh a fed number of times (3, 1, 4, 2, ...) with Adam: while keeps
 * each iteration for while_grad, which sums the body parameters' gradients over the
 * iterations and carries h's gradient back through them. */
START_TEST(paddle_while_loop_adam) { run_paddle_case("ctl_while"); }
END_TEST

/* A while_loop body reading a tensor computed before the loop (its gradient summed over the
 * iterations, flowing on to that tensor's fc) and using the loop variable twice (the grad
 * block's @RENAME@ gradients summed), 3 iterations, Momentum. */
START_TEST(paddle_while_loop_outer_momentum) { run_paddle_case("ctl_while_outer"); }
END_TEST

/* paddle.static.nn.cond with a branch of its own parameters each, the branch chosen per step
 * by the data, SGD: conditional_block_grad runs the taken branch's grad block over what the
 * forward kept and gives the untaken branch's parameters zeros. */
START_TEST(paddle_cond_sgd) { run_paddle_case("ctl_cond"); }
END_TEST

/* The cond case step by step: the untaken branch's parameters are bitwise what they were
 * before the step (a zero gradient through SGD), the taken branch's change, and both branches
 * are taken over the 20 steps; in every configuration. The branch is the program's own
 * condition (greater_than's output), fetched. */
START_TEST(cond_untaken_branch_unchanged) {
  train_case tc;
  load_case("ctl_cond", &tc);
  /* the taken branch's fc weight: block 1 (true branch) and block 2 (false branch) each hold
   * one mul whose Y is its weight */
  const char *w[2] = {NULL, NULL};
  for (int b = 1; b <= 2; b++) {
    const ic_block *bl = &tc.main->blocks[b];
    for (size_t i = 0; i < bl->n_ops; i++) {
      if (!strcmp(bl->ops[i].type, "mul")) w[b - 1] = ic_op_input(&bl->ops[i], "Y")->args[0];
    }
    ck_assert_ptr_nonnull(w[b - 1]);
  }
  const char *cond = NULL; /* conditional_block's Cond of the true branch */
  for (size_t i = 0; i < tc.main->blocks[0].n_ops; i++) {
    const ic_op *op = &tc.main->blocks[0].ops[i];
    if (!strcmp(op->type, "conditional_block") && ic_op_attr(op, "sub_block")->i == 1) {
      cond = ic_op_input(op, "Cond")->args[0];
    }
  }
  ck_assert_ptr_nonnull(cond);
  for (size_t k = 0; k < N_CONFIGS; k++) {
    const config *cf = &k_configs[k];
    ic_scope *scope = copy_persistables(tc.main, tc.init);
    ic_executor *e = make_exec(cf, false);
    int taken[2] = {0, 0};
    for (int s = 0; s < tc.steps; s++) {
      ic_tensor *before[2];
      for (int b = 0; b < 2; b++) {
        ck_assert_int_eq(ic_tensor_clone(ic_scope_get(scope, w[b]), &before[b]), IC_OK);
      }
      ic_tensor *feeds[MAX_FEEDS], *out[2] = {NULL, NULL};
      for (size_t i = 0; i < tc.n_feeds; i++) feeds[i] = batch_of(tc.feeds[i], s, tc.batch);
      const char *fetch[2] = {tc.loss_name, cond};
      const char *names[MAX_FEEDS];
      for (size_t i = 0; i < tc.n_feeds; i++) names[i] = tc.feed_names[i];
      ic_status st = ic_executor_run(e, tc.main, scope, tc.n_feeds, names,
                                     (const ic_tensor *const *)feeds, 2, fetch, out);
      ck_assert_msg(st == IC_OK, "%s: %s", cf->what, ic_executor_errmsg(e));
      for (size_t i = 0; i < tc.n_feeds; i++) ic_tensor_destroy(feeds[i]);
      ck_assert_int_eq(ic_tensor_dtype(out[1]), IC_BOOL);
      int t = *(const uint8_t *)ic_tensor_cdata(out[1]) ? 0 : 1; /* 0: true branch (block 1) */
      taken[t]++;
      const ic_tensor *now_taken = ic_scope_get(scope, w[t]), *now_other = ic_scope_get(scope, w[1 - t]);
      char what[160];
      snprintf(what, sizeof what, "%s step %d: untaken branch's '%s'", cf->what, s, w[1 - t]);
      tu_assert_bitwise(now_other, before[1 - t], what);
      ck_assert_msg(memcmp(ic_tensor_cdata(now_taken), ic_tensor_cdata(before[t]),
                           (size_t)ic_tensor_numel(now_taken) * sizeof(float)) != 0,
                    "%s step %d: the taken branch's '%s' did not change", cf->what, s, w[t]);
      for (int b = 0; b < 2; b++) ic_tensor_destroy(before[b]);
      ic_tensor_destroy(out[0]);
      ic_tensor_destroy(out[1]);
    }
    ck_assert_int_gt(taken[0], 2);
    ck_assert_int_gt(taken[1], 2);
    ic_executor_destroy(e);
    ic_scope_destroy(scope);
  }
  free_case(&tc);
}
END_TEST

/* The control-flow training cases on the emulated device emu:0 (random stream delays, poisoned
 * device memory; control-flow ops and their grad blocks run on the host behind placement
 * copies), 1 and 2 threads: every step's loss and the final persistables bitwise what the
 * compiled CPU executor gives. */
static const char *const k_ctl_cases[] = {"ctl_while", "ctl_while_outer", "ctl_cond", "ctl_nested",
                                          "ctl_nested_local", "ctl_while_in_cond",
                                          "ctl_while_in_while", "ctl_while_array",
                                          "ctl_while_unused_out", "n_rnn_sgd", "n_rnn_reverse",
                                          "n_rnn_adam", "n_rnn_batch_ref", "n_rnn_stateless",
                                          "n_rnn_plain"};

START_TEST(control_flow_training_on_emu) {
  train_case tc;
  load_case(k_ctl_cases[_i], &tc);
  float *ref = calloc((size_t)tc.steps, sizeof *ref), *got = calloc((size_t)tc.steps, sizeof *got);
  ic_scope *cpu = copy_persistables(tc.main, tc.init);
  ic_executor *e = make_exec(&k_configs[1], false);
  ck_assert_int_eq(train(&tc, e, cpu, tc.steps, ref), IC_OK);
  ic_executor_destroy(e);
  for (int threads = 1; threads <= 2; threads++) {
    ic_options o;
    ic_options_default(&o);
    o.device = (ic_place){IC_PLACE_EMULATED, 0};
    o.threads = threads;
    o.serial = threads == 1;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ic_executor_emu_testing(e, 50, true, (uint64_t)threads);
    ic_scope *scope = copy_persistables(tc.main, tc.init);
    ic_status st = train(&tc, e, scope, tc.steps, got);
    ck_assert_msg(st == IC_OK, "%s emu:0: %s", tc.name, ic_executor_errmsg(e));
    ck_assert_msg(memcmp(ref, got, (size_t)tc.steps * sizeof *ref) == 0,
                  "%s emu:0 %d threads: losses differ from the CPU's", tc.name, threads);
    check_bitwise(&tc, cpu, scope, "emu:0");
    ic_scope_destroy(scope);
    ic_executor_destroy(e);
  }
  ic_scope_destroy(cpu);
  free(ref);
  free(got);
  free_case(&tc);
}
END_TEST

/* A cond nested in a while_loop body, SGD (Paddle 2.6.2 puts the conditional_block_grad in the
 * while_grad's grad block): the while keeps the inner conditional_block's Scope of every
 * iteration in its StepScopes, and the inner conditional_block_grad, run in the while_grad's
 * backward of that iteration, reads it. */
START_TEST(paddle_cond_in_while_sgd) { run_paddle_case("ctl_nested"); }
END_TEST

/* ctl_nested with the branches reading a body-local value: Paddle declares every inside
 * gradient in the inner grad blocks, so h's gradient flows back through the loop and both
 * branches. */
START_TEST(paddle_cond_in_while_local_sgd) { run_paddle_case("ctl_nested_local"); }
END_TEST

/* A while_loop in a cond branch, Momentum: the conditional_block keeps the inner while's
 * StepScopes in its Scope, and the while_grad inside the conditional_block_grad's grad block
 * reads them; the branch is chosen per step by the data. */
START_TEST(paddle_while_in_cond_momentum) { run_paddle_case("ctl_while_in_cond"); }
END_TEST

/* A while_loop in a while_loop body, SGD: the outer while keeps the inner while's
 * StepScopes per outer iteration; the inner while_grad sums inside the outer's backward. */
START_TEST(paddle_while_in_while_sgd) { run_paddle_case("ctl_while_in_while"); }
END_TEST

/* A while_loop body with its own tensor array, read by the grad block's
 * tensor_array_to_tensor_grad: the while keeps the array (its elements) per iteration. */
START_TEST(paddle_while_body_array_sgd) { run_paddle_case("ctl_while_array"); }
END_TEST

/* A loop output the loss does not use, read by the body: its Out@GRAD is never computed, and
 * while_grad fills zeros of its declared (static) shape before the first step back, as
 * Paddle's WhileGradOp; SGD. */
START_TEST(paddle_while_unused_output_sgd) { run_paddle_case("ctl_while_unused_out"); }
END_TEST

/* Training through fluid's StaticRNN (Paddle 2.6.2; tools/gen_paddle_train.py's StaticRNN):
 * the forward recurrent keeps every step for recurrent_grad, which runs the grad block once
 * per step back, slicing the outputs' gradients, carrying the memories' gradients to the
 * step before, summing the step parameters' gradients and stacking the inputs' ones:
 * one memory with an fc in the step and SGD; a reverse RNN with two memories, two inputs and
 * two outputs and Momentum; a step input also used outside the RNN and Adam; memories from
 * batch_ref (no init tensor) with a stateless output; a stateless RNN; and the one-memory
 * network as Paddle 2.6.2's backward writes it plainly (its grad block never reads the
 * memory's gradient: cut at every step) with Momentum. */
static const char *const k_rnn_cases[] = {"n_rnn_sgd", "n_rnn_reverse", "n_rnn_adam",
                                          "n_rnn_batch_ref", "n_rnn_stateless", "n_rnn_plain"};
START_TEST(paddle_static_rnn) { run_paddle_case(k_rnn_cases[_i]); }
END_TEST

/* A YOLOv3 head trained by yolov3_loss (label smoothing, mixup scores) and SGD. */
START_TEST(paddle_yolov3_loss_sgd) { run_paddle_case("yolo"); }
END_TEST

/* A tiny CRNN head trained by CTC (ctc_loss: warpctc in padded mode, warpctc_grad) with Adam,
 * and with norm_by_times and SGD. */
START_TEST(paddle_ctc_adam) { run_paddle_case("ctc_adam"); }
END_TEST
START_TEST(paddle_ctc_norm_by_times_sgd) { run_paddle_case("ctc_norm_sgd"); }
END_TEST
/* CTC in LoD mode (warpctc over LoD logits and labels, blank 4, norm_by_times) with SGD,
 * written by Paddle 2.6.2. */
START_TEST(paddle_ctc_lod_sgd) { run_paddle_case("ctc_lod"); }
END_TEST

/* The compiled plan of the while_loop case: the forward while's sub-plan keeps what the grad
 * block reads (the body's tanh output as the iteration leaves it, the loop variable as it
 * finds it) and releases neither within an iteration; the grad sub-plan binds the same number
 * of kept values; StepScopes is written by the while, read by the while_grad, and released
 * by the while_grad (its last use); the while_grad's outer reads do not include the body's
 * variables. The same program's forward with is_test (an inference loop) keeps nothing. */
START_TEST(while_training_plan) {
  train_case tc;
  load_case("ctl_while", &tc);
  char path[1024], err[512];
  path_of("ctl_while", "main_is_test.pdmodel", path, sizeof path);
  ic_program *inf = NULL;
  ck_assert_msg(ic_program_from_file(path, &inf, err, sizeof err) == IC_OK, "%s", err);
  for (int pass = 0; pass < 2; pass++) {
    ic_scope *scope = copy_persistables(tc.main, tc.init);
    ic_executor *e = make_exec(&k_configs[2], false);
    ic_tensor *feeds[MAX_FEEDS], *out = NULL;
    const char *names[MAX_FEEDS], *loss = tc.loss_name;
    for (size_t i = 0; i < tc.n_feeds; i++) {
      feeds[i] = batch_of(tc.feeds[i], 0, tc.batch);
      names[i] = tc.feed_names[i];
    }
    ic_status st = ic_executor_run(e, pass ? inf : tc.main, scope, tc.n_feeds, names,
                                   (const ic_tensor *const *)feeds, 1, &loss, &out);
    ck_assert_int_eq(st, pass ? IC_ERR_INVALID_PROGRAM : IC_OK);
    for (size_t i = 0; i < tc.n_feeds; i++) ic_tensor_destroy(feeds[i]);
    ic_tensor_destroy(out);
    const ic_plan *plan = ic_executor_last_plan(e);
    ck_assert_ptr_nonnull(plan);
    int w = -1, g = -1;
    for (size_t i = 0; i < plan->n_instrs; i++) {
      if (!strcmp(plan->instrs[i].op->type, "while")) w = (int)i;
      if (!strcmp(plan->instrs[i].op->type, "while_grad")) g = (int)i;
    }
    ck_assert(w >= 0 && g > w);
    const ic_subplan *fs = plan->instrs[w].sub, *gs = plan->instrs[g].sub;
    if (pass) { /* is_test: nothing kept */
      ck_assert(!fs->saves);
      ck_assert_uint_eq(fs->n_saved, 0);
    } else {
      ck_assert(fs->saves);
      ck_assert_uint_eq(fs->n_saved, gs->n_saved);
      bool start = false, end = false;
      for (uint32_t j = 0; j < fs->n_saved; j++) {
        start |= fs->at_start[j];
        end |= !fs->at_start[j];
        ck_assert_uint_eq(gs->outer[gs->saved[j]], UINT32_MAX); /* local in the grad plan */
        for (uint32_t i = 0; i < fs->n_instrs; i++) {
          for (uint32_t k = 0; k < fs->instrs[i].n_gc; k++) {
            ck_assert_uint_ne(fs->instrs[i].gc[k], fs->saved[j]);
          }
        }
      }
      ck_assert(start && end);
      uint32_t sv = plan->instrs[w].out[1].vars[0];
      ck_assert_uint_eq(plan->instrs[g].in[3].vars[0], sv);
      ck_assert_int_eq(plan->vars[sv].last_use, g);
      bool released = false;
      for (uint32_t k = 0; k < plan->instrs[g].n_gc; k++) released |= plan->instrs[g].gc[k] == sv;
      ck_assert(released);
      for (uint32_t k = 0; k < plan->instrs[g].in[2].n; k++) {
        const ic_pvar *v = &plan->vars[plan->instrs[g].in[2].vars[k]];
        ck_assert_msg(!v->desc || v->desc->block == 0, "while_grad reads '%s' of block %d",
                      v->name, v->desc ? v->desc->block : -1);
      }
    }
    ic_executor_destroy(e);
    ic_scope_destroy(scope);
  }
  ic_program_destroy(inf);
  free_case(&tc);
}
END_TEST

/* One step of `prog` (tc's feeds, batch 0, feed `zero_n` replaced by zeros when given) in
 * every configuration: it must fail with `code`, the message holding every one of `want`,
 * and leave the scope as it was. */
static void expect_step_error(const train_case *tc, const ic_program *prog, const char *zero_n,
                              ic_status code, const char *const *want, size_t n_want) {
  for (size_t k = 0; k < N_CONFIGS; k++) {
    const config *cf = &k_configs[k];
    ic_scope *scope = copy_persistables(tc->main, tc->init);
    ic_executor *e = make_exec(cf, false);
    ic_tensor *feeds[MAX_FEEDS], *out = NULL;
    const char *names[MAX_FEEDS], *loss = tc->loss_name;
    for (size_t i = 0; i < tc->n_feeds; i++) {
      feeds[i] = batch_of(tc->feeds[i], 0, tc->batch);
      names[i] = tc->feed_names[i];
      if (zero_n && !strcmp(names[i], zero_n)) {
        memset(ic_tensor_data(feeds[i]), 0,
               (size_t)ic_tensor_numel(feeds[i]) * ic_dtype_size(ic_tensor_dtype(feeds[i])));
      }
    }
    ic_status st = ic_executor_run(e, prog, scope, tc->n_feeds, names,
                                   (const ic_tensor *const *)feeds, 1, &loss, &out);
    for (size_t i = 0; i < tc->n_feeds; i++) ic_tensor_destroy(feeds[i]);
    const char *msg = ic_executor_errmsg(e);
    ck_assert_msg(st == code, "%s: status %d, expected %d: %s", cf->what, (int)st, (int)code, msg);
    for (size_t w = 0; w < n_want; w++) {
      ck_assert_msg(strstr(msg, want[w]), "%s: '%s' not in: %s", cf->what, want[w], msg);
    }
    ck_assert_ptr_null(out);
    check_bitwise(tc, scope, tc->init, cf->what);
    ic_executor_destroy(e);
    ic_scope_destroy(scope);
  }
}

/* The unused-output case with that output's gradient declared [-1, 8] (written beside it by
 * the generator): nothing computes it and its shape is not static, so while_grad cannot fill
 * zeros; Paddle 2.6.2 fails the same way (fill_constant rejects -1). Refused naming the op,
 * the variable and its declared shape, in every configuration. */
START_TEST(while_grad_unset_output_gradient_dynamic_shape) {
  train_case tc;
  load_case("ctl_while_unused_out", &tc);
  char path[1024], err[512];
  path_of("ctl_while_unused_out", "main_dynamic.pdmodel", path, sizeof path);
  ic_program *bad = NULL;
  ck_assert_msg(ic_program_from_file(path, &bad, err, sizeof err) == IC_OK, "%s", err);
  const char *want[] = {"(while_grad)", "Out@GRAD 'fc_1.tmp_1@GRAD' was never computed",
                        "[-1, 8] is not static"};
  expect_step_error(&tc, bad, NULL, IC_ERR_INVALID_PROGRAM, want, 3);
  ic_program_destroy(bad);
  free_case(&tc);
}
END_TEST

/* A while_loop that runs no iteration in a training step (the while_loop case with n = 0):
 * Paddle 2.6.2's while_grad then writes no gradient of the body's parameters, and its Adam
 * fails on the unset Grad ("Tensor holds no memory", operator adam). icore does the same:
 * the step fails at the first adam of a body parameter, naming its Grad, and the scope is
 * left as it was. */
START_TEST(while_zero_iterations_in_training) {
  train_case tc;
  load_case("ctl_while", &tc);
  const char *want[] = {"(adam)", "input Grad 'fc_1.", "@GRAD' holds no data"};
  expect_step_error(&tc, tc.main, "n", IC_ERR_NOT_FOUND, want, 3);
  free_case(&tc);
}
END_TEST

/* recurrent_grad's bad programs (n_rnn_sgd's program changed by the generator; Paddle is not
 * run on them): one whose `states` names no variable of the step block, one whose
 * sub_block is the step block itself (no grad block) and one with fewer parameters@GRAD than
 * parameters are refused at load, naming the op; the
 * forward recurrent with is_train false keeps no steps, and a recurrent_grad whose
 * step_scopes no recurrent writes has none: both fail the step, naming the op and its
 * step_scopes, in every configuration, the scope left as it was. */
START_TEST(recurrent_grad_bad_programs) {
  train_case tc;
  load_case("n_rnn_sgd", &tc);
  char path[1024], err[512];
  static const struct {
    const char *file, *want;
  } load[] = {{"main_bad_states.pdmodel", "states 'nope' is not a variable of the step block "
                                          "(block 1)"},
              {"main_step_block.pdmodel", "is not the grad block of a step block"},
              {"main_grad_count.pdmodel", "1 parameters@GRAD for 2 parameters, expected one "
                                          "per variable"}};
  for (size_t k = 0; k < sizeof load / sizeof load[0]; k++) {
    path_of("n_rnn_sgd", load[k].file, path, sizeof path);
    ic_program *bad = NULL;
    err[0] = 0;
    ck_assert_int_eq(ic_program_from_file(path, &bad, err, sizeof err), IC_ERR_INVALID_PROGRAM);
    ck_assert_msg(strstr(err, "(recurrent_grad)") && strstr(err, load[k].want), "%s: %s",
                  load[k].file, err);
  }
  path_of("n_rnn_sgd", "main_not_train.pdmodel", path, sizeof path);
  ic_program *bad = NULL;
  ck_assert_msg(ic_program_from_file(path, &bad, err, sizeof err) == IC_OK, "%s", err);
  const char *want[] = {"(recurrent_grad)", "step_scopes '_generated_var_0' holds nothing its "
                        "forward recurrent kept: the recurrent ran with is_train false"};
  expect_step_error(&tc, bad, NULL, IC_ERR_INVALID_PROGRAM, want, 2);
  ic_program_destroy(bad);
  /* no forward: the compiled plan refuses the op when it analyzes it, the uncompiled
   * executor finds the variable unset (each naming the op and the variable) */
  path_of("n_rnn_sgd", "main_no_forward.pdmodel", path, sizeof path);
  ck_assert_msg(ic_program_from_file(path, &bad, err, sizeof err) == IC_OK, "%s", err);
  for (size_t k = 0; k < N_CONFIGS; k++) {
    ic_scope *scope = copy_persistables(tc.main, tc.init);
    ic_executor *e = make_exec(&k_configs[k], false);
    float loss;
    train_case other = tc; /* shallow: tc's program replaced, nothing freed through it */
    other.main = bad;
    ck_assert_int_ne(train(&other, e, scope, 1, &loss), IC_OK);
    const char *msg = ic_executor_errmsg(e);
    ck_assert_msg(strstr(msg, "(recurrent_grad)") && strstr(msg, "step_scopes 'other_steps'") &&
                      (k == 0 || strstr(msg, "no recurrent op writes its step_scopes")),
                  "%s: %s", k_configs[k].what, msg);
    check_bitwise(&tc, scope, tc.init, k_configs[k].what);
    ic_executor_destroy(e);
    ic_scope_destroy(scope);
  }
  ic_program_destroy(bad);
  free_case(&tc);
}
END_TEST

/* The compiled plan of the one-memory StaticRNN case: the forward recurrent's sub-plan keeps
 * as many values per step as the recurrent_grad's binds; the grad sub-plan links the output
 * gradient, the memory's gradients (states@GRAD also bound to the outer persistable of that
 * name, read at the first step back) and both step parameters' inside gradients. */
START_TEST(recurrent_training_plan) {
  train_case tc;
  load_case("n_rnn_sgd", &tc);
  ic_scope *scope = copy_persistables(tc.main, tc.init);
  ic_executor *e = make_exec(&k_configs[2], false);
  float loss;
  ck_assert_msg(train(&tc, e, scope, 1, &loss) == IC_OK, "%s", ic_executor_errmsg(e));
  const ic_plan *plan = ic_executor_last_plan(e);
  ck_assert_ptr_nonnull(plan);
  const ic_subplan *fs = NULL, *gs = NULL;
  for (size_t i = 0; i < plan->n_instrs; i++) {
    if (!strcmp(plan->instrs[i].op->type, "recurrent")) fs = plan->instrs[i].sub;
    if (!strcmp(plan->instrs[i].op->type, "recurrent_grad")) gs = plan->instrs[i].sub;
  }
  ck_assert(fs && gs && fs->saves && !gs->saves);
  ck_assert_uint_gt(fs->n_saved, 0);
  ck_assert_uint_eq(fs->n_saved, gs->n_saved);
  ck_assert_int_eq(gs->kind, IC_CTRL_RECURRENT_GRAD);
  ck_assert_uint_eq(gs->n_rnn_in, 1);
  ck_assert_uint_eq(gs->n_rnn_states, 1);
  ck_assert_uint_eq(gs->n_rnn_out, 1);
  ck_assert_uint_ne(gs->rg_og[0], UINT32_MAX);
  ck_assert_uint_ne(gs->rg_xg[0], UINT32_MAX);
  ck_assert_uint_ne(gs->rg_exg[0], UINT32_MAX);
  ck_assert_uint_ne(gs->rg_stg[0], UINT32_MAX);
  ck_assert_uint_ne(gs->rg_stg_outer[0], UINT32_MAX);
  ck_assert_str_eq(plan->vars[gs->rg_stg_outer[0]].name, "rnn_tmp_1@GRAD");
  ck_assert_uint_eq(gs->outer[gs->rg_stg[0]], UINT32_MAX);
  ck_assert_uint_eq(gs->n_rg_pg, 2);
  ck_assert(gs->rg_pg[0] != UINT32_MAX && gs->rg_pg[1] != UINT32_MAX);
  ic_executor_destroy(e);
  ic_scope_destroy(scope);
  free_case(&tc);
}
END_TEST

/* The compiled plan of a cond nested in a while_loop body (ctl_nested_local): each inner
 * conditional_block of the forward body keeps its branch (its sub-plan saves), the outer
 * while keeps each inner Scope variable whole as the iteration leaves it, and in the
 * while_grad's sub-plan each inner conditional_block_grad reads that Scope as a local bound
 * per step back, its own sub-plan binding as many kept values as the inner forward keeps. */
START_TEST(nested_training_plan) {
  train_case tc;
  load_case("ctl_nested_local", &tc);
  ic_scope *scope = copy_persistables(tc.main, tc.init);
  ic_executor *e = make_exec(&k_configs[2], false);
  float loss;
  ck_assert_msg(train(&tc, e, scope, 1, &loss) == IC_OK, "%s", ic_executor_errmsg(e));
  const ic_plan *plan = ic_executor_last_plan(e);
  ck_assert_ptr_nonnull(plan);
  const ic_subplan *fs = NULL, *gs = NULL;
  for (size_t i = 0; i < plan->n_instrs; i++) {
    if (!strcmp(plan->instrs[i].op->type, "while")) fs = plan->instrs[i].sub;
    if (!strcmp(plan->instrs[i].op->type, "while_grad")) gs = plan->instrs[i].sub;
  }
  ck_assert(fs && gs && fs->saves);
  int n_inner = 0, n_keeping = 0;
  for (uint32_t i = 0; i < fs->n_instrs; i++) {
    const ic_instr *fi = &fs->instrs[i];
    if (strcmp(fi->op->type, "conditional_block")) continue;
    n_inner++;
    ck_assert(fi->sub->saves);
    n_keeping += fi->sub->n_saved > 0; /* the tanh branch keeps; u * 0.5's grad reads nothing */
    uint32_t scope_var = fi->out[1].vars[0];
    const char *sname = fs->names[scope_var];
    bool kept = false;
    for (uint32_t j = 0; j < fs->n_saved; j++) kept |= fs->saved[j] == scope_var && !fs->at_start[j];
    ck_assert_msg(kept, "the while does not keep the inner Scope '%s'", sname);
    bool found = false;
    for (uint32_t k = 0; k < gs->n_instrs; k++) {
      const ic_instr *gi = &gs->instrs[k];
      if (strcmp(gi->op->type, "conditional_block_grad") || strcmp(gs->names[gi->in[4].vars[0]], sname)) {
        continue;
      }
      found = true;
      ck_assert_uint_eq(gs->outer[gi->in[4].vars[0]], UINT32_MAX); /* the step's own */
      bool bound = false;
      for (uint32_t j = 0; j < gs->n_saved; j++) bound |= gs->saved[j] == gi->in[4].vars[0];
      ck_assert(bound);
      ck_assert_uint_eq(gi->sub->n_saved, fi->sub->n_saved);
    }
    ck_assert_msg(found, "no conditional_block_grad reads '%s'", sname);
  }
  ck_assert_int_eq(n_inner, 2);
  ck_assert_int_eq(n_keeping, 1);
  ic_executor_destroy(e);
  ic_scope_destroy(scope);
  free_case(&tc);
}
END_TEST

/* The while_loop program with the forward while's is_test set (written beside it by the
 * generator): the while keeps no step scopes, so while_grad fails, naming itself and its
 * StepScopes variable, in every configuration, and the scope is left as it was. */
START_TEST(while_grad_without_step_scopes) {
  train_case tc;
  load_case("ctl_while", &tc);
  char path[1024];
  path_of("ctl_while", "main_is_test.pdmodel", path, sizeof path);
  ic_program *bad = NULL;
  char err[512];
  ck_assert_msg(ic_program_from_file(path, &bad, err, sizeof err) == IC_OK, "%s", err);
  for (size_t k = 0; k < N_CONFIGS; k++) {
    const config *cf = &k_configs[k];
    ic_scope *scope = copy_persistables(tc.main, tc.init);
    ic_executor *e = make_exec(cf, false);
    ic_tensor *feeds[MAX_FEEDS], *out = NULL;
    for (size_t i = 0; i < tc.n_feeds; i++) feeds[i] = batch_of(tc.feeds[i], 0, tc.batch);
    const char *names[MAX_FEEDS], *loss = tc.loss_name;
    for (size_t i = 0; i < tc.n_feeds; i++) names[i] = tc.feed_names[i];
    ic_status st = ic_executor_run(e, bad, scope, tc.n_feeds, names,
                                   (const ic_tensor *const *)feeds, 1, &loss, &out);
    for (size_t i = 0; i < tc.n_feeds; i++) ic_tensor_destroy(feeds[i]);
    ck_assert_int_ne(st, IC_OK);
    const char *msg = ic_executor_errmsg(e);
    ck_assert_msg(strstr(msg, "(while_grad)") && strstr(msg, "StepScopes") &&
                      strstr(msg, "is_test"),
                  "%s: %s", cf->what, msg);
    ck_assert_ptr_null(out);
    check_bitwise(&tc, scope, tc.init, cf->what);
    ic_executor_destroy(e);
    ic_scope_destroy(scope);
  }
  ic_program_destroy(bad);
  free_case(&tc);
}
END_TEST

/* Paddle's startup programs in icore: every persistable of the main program gets its declared
 * dims, fill_constant values are exact, uniform_random weights lie in [min, max) with a
 * uniform's mean and spread; then training from them runs and lowers the loss. */
static void run_startup_case(const char *name) {
  train_case tc;
  load_case(name, &tc);
  for (size_t k = 0; k < N_CONFIGS; k += 2) {
    const config *cf = &k_configs[k];
    ic_executor *e = make_exec(cf, true);
    ic_scope *scope = NULL;
    ck_assert_int_eq(ic_scope_create(NULL, &scope), IC_OK);
    ic_status st = ic_executor_run(e, tc.startup, scope, 0, NULL, NULL, 0, NULL, NULL);
    ck_assert_msg(st == IC_OK, "%s %s: startup: %s", name, cf->what, ic_executor_errmsg(e));
    const ic_block *b = &tc.main->blocks[0];
    for (size_t i = 0; i < b->n_vars; i++) {
      const ic_vardesc *v = &b->vars[i];
      if (!v->persistable || !v->is_tensor) continue;
      const ic_tensor *t = ic_scope_get(scope, v->name), *w = ic_scope_get(tc.init, v->name);
      ck_assert_msg(t && ic_tensor_cdata(t), "%s: startup left '%s' unset", name, v->name);
      tu_assert_shape(t, v->dtype, v->ndim, v->dims);
      /* The same op wrote Paddle's value: constants must agree exactly, random draws in
       * distribution only (icore's Philox streams are not Paddle's mt19937). */
      const ic_op *writer = NULL;
      const ic_block *sb = &tc.startup->blocks[0];
      for (size_t j = 0; j < sb->n_ops; j++) {
        const ic_slot *o = ic_op_output(&sb->ops[j], "Out");
        if (o && o->n == 1 && strcmp(o->args[0], v->name) == 0) writer = &sb->ops[j];
      }
      /* paddle.nn.LSTM / GRU: the flat weight is coalesce_tensor's FusedOutput, the
       * concatenation of its inputs as the startup left them (use_align false) */
      const ic_op *fuse = NULL;
      for (size_t j = 0; j < sb->n_ops; j++) { /* (after a fill_constant of zeros) */
        const ic_slot *o = ic_op_output(&sb->ops[j], "FusedOutput");
        if (o && o->n == 1 && strcmp(o->args[0], v->name) == 0) fuse = &sb->ops[j];
      }
      if (fuse) {
        const ic_slot *ins = ic_op_input(fuse, "Input");
        int64_t at = 0;
        for (size_t q = 0; q < ins->n; q++) {
          const ic_tensor *part = ic_scope_get(scope, ins->args[q]);
          ck_assert_ptr_nonnull(part);
          for (int64_t r = 0; r < ic_tensor_numel(part); r++, at++) {
            ck_assert_msg(elem(t, at) == elem(part, r), "%s: '%s'[%lld] is not '%s'[%lld]",
                          name, v->name, (long long)at, ins->args[q], (long long)r);
          }
        }
        ck_assert_int_eq(at, ic_tensor_numel(t));
        continue;
      }
      ck_assert_msg(writer != NULL, "%s: no startup op writes '%s'", name, v->name);
      int64_t n = ic_tensor_numel(t);
      if (strcmp(writer->type, "fill_constant") == 0) {
        for (int64_t q = 0; q < n; q++) {
          ck_assert_msg(elem(t, q) == elem(w, q), "%s: '%s'[%lld] %g, Paddle %g", name, v->name,
                        (long long)q, elem(t, q), elem(w, q));
        }
      } else {
        bool uniform = strcmp(writer->type, "uniform_random") == 0;
        ck_assert_msg(uniform || strcmp(writer->type, "gaussian_random") == 0, "%s: '%s' by %s",
                      name, v->name, writer->type);
        double lo = -1, hi = 1, mu = 0, sigma = 1, mean = 0, m2 = 0;
        for (size_t a = 0; a < writer->n_attrs; a++) {
          const ic_attr *at = &writer->attrs[a];
          if (!strcmp(at->name, "min")) lo = at->f;
          if (!strcmp(at->name, "max")) hi = at->f;
          if (!strcmp(at->name, "mean")) mu = at->f;
          if (!strcmp(at->name, "std")) sigma = at->f;
        }
        if (uniform) {
          ck_assert(lo < hi);
          mu = (lo + hi) / 2;
          sigma = (hi - lo) / sqrt(12.0);
        }
        for (int64_t q = 0; q < n; q++) {
          double x = elem(t, q);
          ck_assert_msg(!uniform || (x >= lo && x < hi), "%s: '%s'[%lld] = %g outside [%g, %g)",
                        name, v->name, (long long)q, x, lo, hi);
          mean += x;
          m2 += x * x;
        }
        mean /= (double)n;
        double sd = sqrt(m2 / (double)n - mean * mean);
        /* loose bounds: n is 10 to 216 here (a 6-sigma band on the mean) */
        ck_assert_msg(fabs(mean - mu) < 6 * sigma / sqrt((double)n), "%s: '%s' mean %g, "
                      "expected %g", name, v->name, mean, mu);
        ck_assert_msg(sd > 0.6 * sigma && sd < 1.4 * sigma, "%s: '%s' sd %g, expected %g",
                      name, v->name, sd, sigma);
      }
    }
    /* then train from there: it runs, and the loss of the first batch drops */
    float losses[6];
    st = train(&tc, e, scope, 6, losses);
    ck_assert_msg(st == IC_OK, "%s %s: %s", name, cf->what, ic_executor_errmsg(e));
    for (int s = 0; s < 6; s++) ck_assert(isfinite(losses[s]));
    ic_scope_destroy(scope);
    ic_executor_destroy(e);
  }
  free_case(&tc);
}

START_TEST(startup_seed_example) { run_startup_case("seed"); }
END_TEST

START_TEST(startup_mlp) { run_startup_case("mlp"); }
END_TEST

START_TEST(startup_attention) { run_startup_case("attention"); }
END_TEST

START_TEST(startup_cnn) { run_startup_case("cnn"); }
END_TEST

/* coalesce_tensor's layout as Paddle 3.3.1 gives it on the CPU (measured: inputs float32 [3]
 * and [2, 2]): without use_align 7 elements; with use_align and align_size -1, chunks of
 * 4096 bytes (input 1 at element 1024 of 2048); with align_size 64, chunks of 64 bytes
 * (element 16 of 32). icore's padding is zero; Output equals Input. */
START_TEST(coalesce_tensor_layout) {
  const struct {
    bool align;
    int align_size;
    int64_t total, second;
  } cs[] = {{false, -1, 7, 3}, {true, -1, 2048, 1024}, {true, 64, 32, 16}};
  for (size_t i = 0; i < 3; i++) {
    ic_builder *b = ic_builder_create();
    tu_var(b, "a", IC_FP32, 1, TU_DIMS(3));
    tu_var(b, "c", IC_FP32, 2, TU_DIMS(2, 2));
    tu_var(b, "f", IC_FP32, 1, TU_DIMS(-1));
    ic_builder_feed(b, "a");
    ic_builder_feed(b, "c");
    ic_builder_op *op = ic_builder_add_op(b, 0, "coalesce_tensor");
    ic_builder_input(op, "Input", 2, TU_NAMES("a", "c"));
    ic_builder_output(op, "Output", 2, TU_NAMES("a", "c"));
    ic_builder_out(op, "FusedOutput", "f");
    ic_builder_attr_bool(op, "copy_data", true);
    ic_builder_attr_bool(op, "use_align", cs[i].align);
    ic_builder_attr_int(op, "align_size", cs[i].align_size);
    ic_builder_attr_int(op, "dtype", IC_FP32);
    ic_builder_fetch(b, "f");
    ic_builder_fetch(b, "c");
    ic_tensor *in[2] = {tu_f32(1, TU_DIMS(3), (const float[]){1, 2, 3}),
                        tu_f32(2, TU_DIMS(2, 2), (const float[]){4, 5, 6, 7})};
    ic_tensor *out[2];
    char err[1024];
    ck_assert_msg(tu_run(b, 2, TU_NAMES("a", "c"), in, 2, TU_NAMES("f", "c"), out, err,
                         sizeof err) == IC_OK, "%s", err);
    tu_assert_shape(out[0], IC_FP32, 1, TU_DIMS(cs[i].total));
    const float *f = ic_tensor_cdata(out[0]);
    for (int64_t k = 0; k < cs[i].total; k++) {
      float want = k < 3 ? (float)(k + 1)
                   : k >= cs[i].second && k < cs[i].second + 4 ? (float)(4 + k - cs[i].second)
                                                               : 0.0f;
      ck_assert_msg(f[k] == want, "case %zu: f[%lld] = %g, expected %g", i, (long long)k,
                    (double)f[k], (double)want);
    }
    tu_assert_bitwise(out[1], in[1], "Output c");
    for (int k = 0; k < 2; k++) ic_tensor_destroy(out[k]), ic_tensor_destroy(in[k]);
    ic_builder_destroy(b);
  }
}
END_TEST

START_TEST(startup_lstm_gru) { /* uniform_random and coalesce_tensor */
  run_startup_case("lstm");
  run_startup_case("gru");
}
END_TEST

/* Paddle writes the program's random_seed (1234 here) into each initializer's `seed`
 * attribute: that fixes the stream, so options.seed changes nothing (ops with seed 0 draw from
 * options.seed; test_ops_misc covers those). */
START_TEST(startup_seeded) {
  train_case tc;
  load_case("mlp", &tc);
  ic_scope *s[3];
  for (int k = 0; k < 3; k++) {
    ic_options o;
    ic_options_default(&o);
    o.seed = k == 2 ? 7 : 3;
    ic_executor *e = NULL;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ck_assert_int_eq(ic_scope_create(NULL, &s[k]), IC_OK);
    ck_assert_msg(ic_executor_run(e, tc.startup, s[k], 0, NULL, NULL, 0, NULL, NULL) == IC_OK, "%s",
                  ic_executor_errmsg(e));
    ic_executor_destroy(e);
  }
  tu_assert_bitwise(ic_scope_get(s[0], "fc_0.w_0"), ic_scope_get(s[1], "fc_0.w_0"), "seed 3");
  tu_assert_bitwise(ic_scope_get(s[0], "fc_0.w_0"), ic_scope_get(s[2], "fc_0.w_0"), "seed 7");
  for (int k = 0; k < 3; k++) ic_scope_destroy(s[k]);
  free_case(&tc);
}
END_TEST

/* ---- dropout in training ----
 * tests/data/train/dropout: an MLP with dropout (p 0.2, upscale_in_train, is_test false, seed
 * attributes 0) and Adam, built by Paddle, on a linearly separable task of 64 examples fed as
 * one batch per step. Its initializers and dropout masks draw from the executor's seed. From
 * the startup program's parameters, 60 steps must bring the loss from above 0.4 below 0.1
 * (Paddle reaches 0.001 to 0.01 with its own draws), every configuration bitwise equal for one
 * seed; another seed gives other losses that converge too. */
static void dropout_run(const train_case *tc, const config *cf, uint64_t seed, float *losses) {
  ic_options o;
  ic_options_default(&o);
  o.mode = cf->mode;
  o.threads = cf->threads;
  o.prune = cf->prune;
  o.seed = seed;
  ic_executor *e = NULL;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  ic_scope *scope = NULL;
  ck_assert_int_eq(ic_scope_create(NULL, &scope), IC_OK);
  ic_status st = ic_executor_run(e, tc->startup, scope, 0, NULL, NULL, 0, NULL, NULL);
  ck_assert_msg(st == IC_OK, "dropout %s: startup: %s", cf->what, ic_executor_errmsg(e));
  const char *names[MAX_FEEDS], *fetch = tc->loss_name;
  for (size_t i = 0; i < tc->n_feeds; i++) names[i] = tc->feed_names[i];
  for (int s = 0; s < tc->steps; s++) {
    ic_tensor *out = NULL;
    st = ic_executor_run(e, tc->main, scope, tc->n_feeds, names,
                         (const ic_tensor *const *)tc->feeds, 1, &fetch, &out);
    ck_assert_msg(st == IC_OK, "dropout %s step %d: %s", cf->what, s, ic_executor_errmsg(e));
    losses[s] = *(const float *)ic_tensor_cdata(out);
    ic_tensor_destroy(out);
  }
  ic_scope_destroy(scope);
  ic_executor_destroy(e);
}

START_TEST(dropout_converges) {
  train_case tc;
  load_case("dropout", &tc);
  ck_assert_int_eq(tc.steps, 60);
  float ref[60], got[60], other[60];
  for (size_t k = 0; k < N_CONFIGS; k++) {
    dropout_run(&tc, &k_configs[k], 7, k == 0 ? ref : got);
    if (k == 0) continue;
    for (int s = 0; s < tc.steps; s++) {
      ck_assert_msg(memcmp(&ref[s], &got[s], sizeof(float)) == 0,
                    "dropout %s: step %d loss %.9g, uncompiled %.9g", k_configs[k].what, s,
                    (double)got[s], (double)ref[s]);
    }
  }
  ck_assert_msg(ref[0] > 0.4f, "first loss %g", (double)ref[0]);
  ck_assert_msg(ref[tc.steps - 1] < 0.1f, "loss %g after %d steps, expected below 0.1",
                (double)ref[tc.steps - 1], tc.steps);
  dropout_run(&tc, &k_configs[1], 8, other);
  bool differ = false;
  for (int s = 0; s < tc.steps; s++) differ |= memcmp(&ref[s], &other[s], sizeof(float)) != 0;
  ck_assert_msg(differ, "seeds 7 and 8 gave the same losses");
  ck_assert_msg(other[tc.steps - 1] < 0.1f, "seed 8: loss %g after %d steps",
                (double)other[tc.steps - 1], tc.steps);
  fprintf(stderr, "dropout: loss %.4g -> %.4g (seed 7), %.4g -> %.4g (seed 8)\n",
          (double)ref[0], (double)ref[tc.steps - 1], (double)other[0],
          (double)other[tc.steps - 1]);
  free_case(&tc);
}
END_TEST

/* ---- bad input ---- */

START_TEST(missing_feed) {
  train_case tc;
  load_case("mlp", &tc);
  for (size_t k = 0; k < N_CONFIGS; k++) {
    ic_scope *scope = copy_persistables(tc.main, tc.init);
    ic_executor *e = make_exec(&k_configs[k], false);
    ic_tensor *x = batch_of(tc.feeds[0], 0, tc.batch), *out = NULL;
    const char *names[] = {"x"}, *fetch = tc.loss_name;
    ic_status st = ic_executor_run(e, tc.main, scope, 1, names, (const ic_tensor *const *)&x, 1,
                                   &fetch, &out);
    ck_assert_int_ne(st, IC_OK);
    ck_assert_ptr_null(out);
    tu_assert_msg(ic_executor_errmsg(e), "label", NULL);
    ic_tensor_destroy(x);
    /* the scope is still usable: a full step runs afterwards */
    float loss;
    ck_assert_msg(train(&tc, e, scope, 1, &loss) == IC_OK, "%s", ic_executor_errmsg(e));
    ic_executor_destroy(e);
    ic_scope_destroy(scope);
  }
  free_case(&tc);
}
END_TEST

START_TEST(label_out_of_range) {
  train_case tc;
  load_case("mlp", &tc);
  int64_t *lab = ic_tensor_data(tc.feeds[1]);
  ck_assert_str_eq(tc.feed_names[1], "label");
  lab[3] = 3; /* 3 classes: valid are 0, 1, 2 */
  for (size_t k = 0; k < N_CONFIGS; k++) {
    ic_scope *scope = copy_persistables(tc.main, tc.init);
    ic_executor *e = make_exec(&k_configs[k], false);
    float loss;
    ck_assert_int_ne(train(&tc, e, scope, 1, &loss), IC_OK);
    tu_assert_msg(ic_executor_errmsg(e), "softmax_with_cross_entropy", "Label", "'label'",
                  "is 3", "[0, 3)", NULL);
    /* a failed step commits nothing: the scope still holds Paddle's initial persistables */
    check_bitwise(&tc, tc.init, scope, "after a failed step");
    ic_executor_destroy(e);
    ic_scope_destroy(scope);
  }
  free_case(&tc);
}
END_TEST

/* The same with cross_entropy2 (probabilities in) and a negative label, and an embedding id
 * out of range in the LSTM classifier. */
static void bad_value_case(const char *name, size_t feed, int64_t row, int64_t value,
                           const char *const *want) {
  train_case tc;
  load_case(name, &tc);
  int64_t *v = ic_tensor_data(tc.feeds[feed]);
  v[row] = value;
  for (size_t k = 0; k < N_CONFIGS; k++) {
    ic_scope *scope = copy_persistables(tc.main, tc.init);
    ic_executor *e = make_exec(&k_configs[k], false);
    float loss;
    ck_assert_int_ne(train(&tc, e, scope, 1, &loss), IC_OK);
    const char *msg = ic_executor_errmsg(e);
    for (const char *const *w = want; *w; w++) {
      ck_assert_msg(strstr(msg, *w) != NULL, "%s %s: \"%s\" lacks \"%s\"", name,
                    k_configs[k].what, msg, *w);
    }
    check_bitwise(&tc, tc.init, scope, "after a failed step");
    ic_executor_destroy(e);
    ic_scope_destroy(scope);
  }
  free_case(&tc);
}

START_TEST(other_bad_values) {
  bad_value_case("adagrad", 1, 2, -7,
                 (const char *const[]){"cross_entropy2", "'label'", "-7", NULL});
  bad_value_case("lstm", 0, 3, 20, (const char *const[]){"lookup_table_v2", "'ids'", "20", NULL});
}
END_TEST

START_TEST(nan_loss_with_check_nan_inf) {
  train_case tc;
  load_case("seed", &tc);
  float *x = ic_tensor_data(tc.feeds[0]);
  for (size_t k = 0; k < N_CONFIGS; k++) {
    ic_scope *scope = copy_persistables(tc.main, tc.init);
    float loss;
    /* an infinite weight: the first op computing with it fails */
    ic_tensor *w = NULL;
    ck_assert_int_eq(ic_tensor_clone(ic_scope_get(scope, "fc_0.w_0"), &w), IC_OK);
    ((float *)ic_tensor_data(w))[2] = INFINITY;
    ck_assert_int_eq(ic_scope_set(scope, "fc_0.w_0", w), IC_OK);
    ic_executor *e = make_exec(&k_configs[k], true);
    ck_assert_int_ne(train(&tc, e, scope, 1, &loss), IC_OK);
    tu_assert_msg(ic_executor_errmsg(e), "mul", "fc_0.tmp_0", "Inf", NULL);
    ic_executor_destroy(e);
    ck_assert_int_eq(ic_scope_set(scope, "fc_0.w_0", ic_scope_get(tc.init, "fc_0.w_0")), IC_OK);
    ic_tensor_destroy(w);
    /* a NaN in a feed is caught where it enters */
    x[1] = NAN;
    e = make_exec(&k_configs[k], true);
    ck_assert_int_ne(train(&tc, e, scope, 1, &loss), IC_OK);
    tu_assert_msg(ic_executor_errmsg(e), "'X'", "NaN", NULL);
    ic_executor_destroy(e);
    /* without the check the NaN goes through into the parameters, as in Paddle */
    e = make_exec(&k_configs[k], false);
    ck_assert_int_eq(train(&tc, e, scope, 1, &loss), IC_OK);
    ck_assert(isnan(loss));
    ck_assert(isnan(elem(ic_scope_get(scope, "fc_0.w_0"), 0))); /* X^T dOut */
    ic_executor_destroy(e);
    ic_scope_destroy(scope);
    x[1] = 0.5f;
  }
  free_case(&tc);
}
END_TEST

/* Every output an optimizer updates in place is a SHARE slot, paired with an input slot of
 * the same op. */
START_TEST(inplace_tables) {
  const struct {
    const char *op;
    const ic_train_inplace *t;
  } tabs[] = {{"sgd", ic_sgd_inplace},
              {"adam", ic_adam_inplace},
              {"adamw", ic_adam_inplace},
              {"momentum", ic_momentum_inplace},
              {"adagrad", ic_adagrad_inplace},
              {"rmsprop", ic_rmsprop_inplace},
              {"lamb", ic_lamb_inplace},
              {"adamax", ic_adamax_inplace},
              {"adadelta", ic_adadelta_inplace},
              {"merged_momentum", ic_merged_momentum_inplace},
              {"merged_adam", ic_merged_adam_inplace},
              {"nadam", ic_nadam_inplace},
              {"radam", ic_radam_inplace},
              {"rprop", ic_rprop_inplace},
              {"lars_momentum", ic_lars_momentum_inplace},
              {"asgd", ic_asgd_inplace},
              {"ftrl", ic_ftrl_inplace},
              {"decayed_adagrad", ic_decayed_adagrad_inplace},
              {"proximal_gd", ic_proximal_gd_inplace},
              {"proximal_adagrad", ic_proximal_adagrad_inplace},
              {"dpsgd", ic_dpsgd_inplace},
              {"average_accumulates", ic_average_accumulates_inplace},
              {"update_loss_scaling", ic_update_loss_scaling_inplace}};
  for (size_t i = 0; i < sizeof tabs / sizeof tabs[0]; i++) {
    const ic_opdef *d = ic_registry_find(tabs[i].op);
    ck_assert_ptr_nonnull(d);
    size_t n = 0;
    for (const ic_train_inplace *p = tabs[i].t; p->out; p++, n++) {
      bool out_ok = false, in_ok = false;
      for (size_t k = 0; k < d->n_outputs; k++) {
        if (!strcmp(d->outputs[k].name, p->out)) out_ok = d->outputs[k].flags & IC_SLOT_SHARE;
      }
      for (size_t k = 0; k < d->n_inputs; k++) in_ok |= !strcmp(d->inputs[k].name, p->in);
      ck_assert_msg(out_ok && in_ok, "%s: %s <- %s", tabs[i].op, p->out, p->in);
    }
    ck_assert_uint_gt(n, 0);
  }
}
END_TEST

/* Every case tools/gen_paddle_train.py lists in tests/data/train/cases.txt is run by some
 * test of this file: a case is named here as a string literal ("NAME"), so a new case
 * without a test of its own fails this test instead of being skipped silently. */
START_TEST(every_listed_case_is_tested) {
  char *src = tu_read_file(IC_SOURCE_DIR "/tests/test_train.c", NULL);
  char *cases = tu_read_file(IC_SOURCE_DIR "/tests/data/train/cases.txt", NULL);
  ck_assert_msg(src && cases, "cannot read tests/test_train.c or tests/data/train/cases.txt");
  int n = 0;
  for (char *save = NULL, *name = strtok_r(cases, " \t\r\n", &save); name;
       name = strtok_r(NULL, " \t\r\n", &save), n++) {
    char quoted[256];
    snprintf(quoted, sizeof quoted, "\"%s\"", name);
    ck_assert_msg(strstr(src, quoted) != NULL,
                  "train case '%s' (tests/data/train/cases.txt) is run by no test of "
                  "tests/test_train.c: add one", name);
  }
  ck_assert_int_ge(n, 70);
  free(src);
  free(cases);
}
END_TEST

static TCase *tc_paddle(void) {
  TCase *tc = tcase_create("paddle");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, every_listed_case_is_tested);
  tcase_add_test(tc, paddle_seed_example);
  tcase_add_test(tc, paddle_mlp_adam);
  tcase_add_test(tc, paddle_attention_adamw_clip);
  tcase_add_test(tc, paddle_cnn_momentum);
  tcase_add_test(tc, paddle_branches_rmsprop);
  tcase_add_test(tc, paddle_adagrad_cross_entropy2);
  tcase_add_test(tc, paddle_lamb);
  tcase_add_test(tc, paddle_adamax);
  tcase_add_test(tc, paddle_adadelta);
  tcase_add_test(tc, paddle_merged_momentum);
  tcase_add_test(tc, paddle_merged_adam);
  tcase_add_test(tc, paddle_nadam);
  tcase_add_test(tc, paddle_radam);
  tcase_add_test(tc, paddle_rprop);
  tcase_add_test(tc, paddle_lars_momentum);
  tcase_add_test(tc, paddle_asgd);
  tcase_add_test(tc, paddle_t7_ftrl);
  tcase_add_test(tc, paddle_t7_ftrl_pow);
  tcase_add_test(tc, paddle_t7_ftrl_sparse);
  tcase_add_test(tc, paddle_t7_decayed_adagrad);
  tcase_add_test(tc, paddle_t7_model_average);
  tcase_add_test(tc, paddle_t7_model_average_apply);
  tcase_add_test(tc, paddle_t7_amp);
  tcase_add_test(tc, paddle_lstm_sgd);
  tcase_add_test(tc, paddle_gru_bidirec_sgd);
  tcase_add_test(tc, paddle_gru_lod_sgd);
  tcase_add_test(tc, paddle_lstm_lod_sgd);
  tcase_add_test(tc, paddle_crf_lod_sgd);
  tcase_add_test(tc, paddle_sparse_sgd);
  tcase_add_test(tc, paddle_sparse_adam);
  tcase_add_test(tc, paddle_sparse_adam_lazy);
  tcase_add_test(tc, paddle_sparse_pad_sgd);
  tcase_add_test(tc, paddle_lr_scheduler_fed);
  tcase_add_test(tc, paddle_l2_l1_regularizer);
  tcase_add_test(tc, paddle_huber_momentum);
  tcase_add_test(tc, paddle_cross_entropy_soft);
  tcase_add_test(tc, paddle_qat_range_abs_max);
  tcase_add_test(tc, paddle_qat_moving_average_channel_wise);
  tcase_add_test(tc, paddle_qat_fake_quant_dequant_ste);
  tcase_add_test(tc, paddle_qat_v2_quantize_linear);
  tcase_add_test(tc, paddle_qat_out_scale_observers);
  tcase_add_loop_test(tc, paddle_legacy_lr_schedule, 0,
                      (int)(sizeof k_lr_cases / sizeof k_lr_cases[0]));
  tcase_add_test(tc, paddle_while_loop_adam);
  tcase_add_test(tc, paddle_while_loop_outer_momentum);
  tcase_add_test(tc, paddle_cond_sgd);
  tcase_add_test(tc, cond_untaken_branch_unchanged);
  tcase_add_test(tc, while_grad_without_step_scopes);
  tcase_add_test(tc, while_grad_unset_output_gradient_dynamic_shape);
  tcase_add_test(tc, nested_training_plan);
  tcase_add_test(tc, while_zero_iterations_in_training);
  tcase_add_test(tc, recurrent_grad_bad_programs);
  tcase_add_test(tc, recurrent_training_plan);
  tcase_add_test(tc, while_training_plan);
  tcase_add_test(tc, paddle_cond_in_while_sgd);
  tcase_add_test(tc, paddle_cond_in_while_local_sgd);
  tcase_add_test(tc, paddle_while_in_cond_momentum);
  tcase_add_test(tc, paddle_while_in_while_sgd);
  tcase_add_test(tc, paddle_while_body_array_sgd);
  tcase_add_test(tc, paddle_while_unused_output_sgd);
  tcase_add_loop_test(tc, paddle_static_rnn, 0,
                      (int)(sizeof k_rnn_cases / sizeof k_rnn_cases[0]));
  tcase_add_test(tc, paddle_yolov3_loss_sgd);
  tcase_add_test(tc, paddle_ctc_adam);
  tcase_add_test(tc, paddle_ctc_norm_by_times_sgd);
  tcase_add_test(tc, paddle_ctc_lod_sgd);
  tcase_add_test(tc, paddle_w2v_hsigmoid_sgd);
  tcase_add_test(tc, paddle_hsigmoid_custom_tree_adam);
  tcase_add_test(tc, paddle_nce_custom_neg_sgd);
  tcase_add_test(tc, paddle_nce_samplers_adam);
  tcase_add_test(tc, paddle_ctr_auc_adam);
  tcase_add_test(tc, paddle_w2v_float64_sgd);
  tcase_add_test(tc, paddle_legacy_losses_sgd);
  tcase_add_test(tc, paddle_k_matrix_index_grads_adam);
  tcase_add_test(tc, paddle_j_grads_adam);
  tcase_add_test(tc, paddle_m_vision_grads_adam);
  tcase_add_loop_test(tc, control_flow_training_on_emu, 0,
                      (int)(sizeof k_ctl_cases / sizeof k_ctl_cases[0]));
  return tc;
}

static TCase *tc_startup(void) {
  TCase *tc = tcase_create("startup");
  tcase_add_test(tc, startup_seed_example);
  tcase_add_test(tc, startup_mlp);
  tcase_add_test(tc, startup_attention);
  tcase_add_test(tc, startup_cnn);
  tcase_add_test(tc, startup_lstm_gru);
  tcase_add_test(tc, coalesce_tensor_layout);
  tcase_add_test(tc, startup_seeded);
  return tc;
}

static TCase *tc_dropout(void) {
  TCase *tc = tcase_create("dropout");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, dropout_converges);
  return tc;
}

static TCase *tc_bad(void) {
  TCase *tc = tcase_create("bad_input");
  tcase_add_test(tc, missing_feed);
  tcase_add_test(tc, label_out_of_range);
  tcase_add_test(tc, other_bad_values);
  tcase_add_test(tc, nan_loss_with_check_nan_inf);
  tcase_add_test(tc, inplace_tables);
  return tc;
}

TU_MAIN("train", tc_paddle, tc_startup, tc_dropout, tc_bad)
