/* Allocation failure, SQLite's way: every allocation of the library goes through
 * common/mem.c, whose hook fails the k-th one of the calling thread. For every k, building,
 * loading, analysing and running a model must return IC_ERR_OUT_OF_MEMORY (never another
 * status, a crash or a leak: the ASan run checks leaks), and an executor whose run failed
 * must run correctly right after. Executors are serial so that every allocation of a run
 * happens in the thread that armed the hook. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/mem.h"
#include "example_mlp.h"
#include "testutil.h"

enum { IN = IC_MLP_IN, ROWS = 4 };

/* The bundled example's MLP (tools/example_mlp.h). */
static ic_status build_mlp(ic_program **out) {
  *out = NULL;
  ic_builder *b = ic_example_mlp();
  if (!b) return IC_ERR_OUT_OF_MEMORY;
  ic_status st = ic_builder_build(b, out, NULL, 0);
  ic_builder_destroy(b);
  return st;
}

/* Control flow (analysis of a sub-block into a sub-plan, tensor arrays, per-iteration
 * state): acc = x; i = 0; while (i < 3) { t = 0.5 acc + 1; acc = t; arr[i] = t; i++ };
 * y = stack(arr) + nothing else. */
static ic_status build_loop(ic_program **out) {
  *out = NULL;
  ic_builder *b = ic_builder_create();
  if (!b) return IC_ERR_OUT_OF_MEMORY;
  int b1 = ic_builder_add_block(b, 0);
  if (b1 < 0) {
    ic_builder_destroy(b);
    return IC_ERR_OUT_OF_MEMORY;
  }
  const int64_t one = 1;
  ic_builder_var(b, 0, "x", IC_FP32, 2, (const int64_t[]){-1, IN}, false);
  ic_builder_var(b, 0, "acc", IC_FP32, 2, (const int64_t[]){-1, IN}, false);
  ic_builder_var(b, 0, "y", IC_FP32, 3, (const int64_t[]){-1, -1, IN}, false);
  ic_builder_var(b, 0, "idx", IC_INT32, 1, (const int64_t[]){-1}, false);
  ic_builder_var(b, 0, "i", IC_INT64, 1, &one, false);
  ic_builder_var(b, 0, "n", IC_INT64, 1, &one, false);
  ic_builder_var(b, 0, "cond", IC_BOOL, 1, &one, false);
  ic_builder_var_kind(b, 0, "arr", IC_VAR_LOD_TENSOR_ARRAY, false);
  ic_builder_var(b, b1, "t", IC_FP32, 2, (const int64_t[]){-1, IN}, false);
  ic_builder_feed(b, "x");
  for (int k = 0; k < 2; k++) {
    ic_builder_op *f = ic_builder_add_op(b, 0, "fill_constant");
    ic_builder_out(f, "Out", k ? "n" : "i");
    ic_builder_attr_longs(f, "shape", 1, &one);
    ic_builder_attr_int(f, "dtype", 3); /* INT64 */
    ic_builder_attr_float(f, "value", k ? 3.0f : 0.0f);
  }
  ic_builder_op *op = ic_builder_add_op(b, 0, "assign");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "acc");
  for (int blk = 0; blk < 2; blk++) {
    if (blk) {
      op = ic_builder_add_op(b, b1, "scale");
      ic_builder_in(op, "X", "acc");
      ic_builder_out(op, "Out", "t");
      ic_builder_attr_float(op, "scale", 0.5f);
      ic_builder_attr_float(op, "bias", 1.0f);
      op = ic_builder_add_op(b, b1, "assign");
      ic_builder_in(op, "X", "t");
      ic_builder_out(op, "Out", "acc");
      op = ic_builder_add_op(b, b1, "write_to_array");
      ic_builder_in(op, "X", "t");
      ic_builder_in(op, "I", "i");
      ic_builder_out(op, "Out", "arr");
      op = ic_builder_add_op(b, b1, "increment");
      ic_builder_in(op, "X", "i");
      ic_builder_out(op, "Out", "i");
      ic_builder_attr_float(op, "step", 1.0f);
    }
    op = ic_builder_add_op(b, blk ? b1 : 0, "less_than");
    ic_builder_in(op, "X", "i");
    ic_builder_in(op, "Y", "n");
    ic_builder_out(op, "Out", "cond");
    if (!blk) {
      op = ic_builder_add_op(b, 0, "while");
      ic_builder_in(op, "Condition", "cond");
      ic_builder_attr_block(op, "sub_block", b1);
      ic_builder_attr_bool(op, "is_test", true);
    }
  }
  op = ic_builder_add_op(b, 0, "tensor_array_to_tensor");
  ic_builder_in(op, "X", "arr");
  ic_builder_out(op, "Out", "y");
  ic_builder_out(op, "OutIndex", "idx");
  ic_builder_attr_int(op, "axis", 0);
  ic_builder_attr_bool(op, "use_stack", true);
  ic_builder_fetch(b, "y");
  ic_status st = ic_builder_build(b, out, NULL, 0);
  ic_builder_destroy(b);
  return st;
}

static ic_executor *serial_exec(ic_mode mode) {
  ic_options o;
  ic_options_default(&o);
  o.mode = mode;
  o.serial = true;
  o.threads = 1;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  return e;
}

static void assert_same(const ic_tensor *got, const ic_tensor *ref, long k, const char *what) {
  ck_assert_msg(got && ic_tensor_nbytes(got) == ic_tensor_nbytes(ref) &&
                    memcmp(ic_tensor_cdata(got), ic_tensor_cdata(ref), ic_tensor_nbytes(ref)) == 0,
                "k = %ld: %s differs from the reference", k, what);
}

/* Each step's status is OK or out of memory, nothing else. */
#define STEP(call, what)                                                                     \
  do {                                                                                       \
    ic_status st_ = (call);                                                                  \
    ck_assert_msg(st_ == IC_OK || st_ == IC_ERR_OUT_OF_MEMORY, "k = %ld: %s returned %s", k, \
                  what, ic_status_name(st_));                                                \
    if (st_) goto cleanup;                                                                   \
  } while (0)

typedef struct fixture {
  char *dir;
  char model[4096];       /* the program file */
  char params[4096];      /* its parameters, saved by setup */
  const char *feed, *fetch;
  ic_tensor *x, *ref;
  long run_failed;        /* attempts whose run on the fresh executor ran out */
  ic_status (*build)(ic_program **out); /* the built program (build_mlp, build_loop) */
} fixture;

/* One attempt with the k-th allocation failing: build, save-free load, analyse and run
 * twice on a fresh executor, once on the long-lived executor `keep` (which, if its run
 * failed, must then run correctly without injection). Returns the allocations made. */
static long attempt(fixture *f, ic_mode mode, ic_executor *keep, long k, bool build) {
  ic_program *built = NULL, *prog = NULL;
  ic_scope *params = NULL;
  ic_executor *e = NULL;
  ic_tensor *out = NULL;
  ic_status kst = IC_OK;
  long n = -1; /* allocations counted, once known */
  char err[1024];
  if (getenv("IC_ALLOC_FAIL_TRACE")) fprintf(stderr, "k = %ld\n", k);
  ic_alloc_fail_at(k);
  if (build) STEP(f->build(&built), "ic_builder_build");
  STEP(ic_model_load(f->model, f->params, 0, &prog, &params, err, sizeof err), "ic_model_load");
  kst = ic_executor_run(keep, prog, params, 1, &f->feed, (const ic_tensor *const *)&f->x, 1,
                        &f->fetch, &out);
  if (kst == IC_OK) {
    ic_tensor_destroy(out);
    out = NULL;
  }
  ck_assert_msg(kst == IC_OK || kst == IC_ERR_OUT_OF_MEMORY, "k = %ld: run returned %s: %s", k,
                ic_status_name(kst), ic_executor_errmsg(keep));
  {
    ic_options o;
    ic_options_default(&o);
    o.mode = mode;
    o.serial = true;
    o.threads = 1;
    STEP(ic_executor_create(&o, &e), "ic_executor_create");
  }
  for (int rep = 0; rep < 2; rep++) {
    ic_status rst = ic_executor_run(e, prog, params, 1, &f->feed, (const ic_tensor *const *)&f->x,
                                    1, &f->fetch, &out);
    ck_assert_msg(rst == IC_OK || rst == IC_ERR_OUT_OF_MEMORY, "k = %ld: run returned %s: %s", k,
                  ic_status_name(rst), ic_executor_errmsg(e));
    if (rst) {
      /* this executor stays usable: the same run again, without injection */
      n = ic_alloc_count();
      ic_alloc_fail_at(-1);
      f->run_failed++;
      tu_assert_msg(ic_executor_errmsg(e), "out of memory", NULL);
      ck_assert_msg(ic_executor_run(e, prog, params, 1, &f->feed,
                                    (const ic_tensor *const *)&f->x, 1, &f->fetch, &out) == IC_OK,
                    "k = %ld: run after a failed one: %s", k, ic_executor_errmsg(e));
    }
    ck_assert_msg(strlen(ic_executor_errmsg(e)) == 0, "k = %ld: message after success", k);
    assert_same(out, f->ref, k, "the fetched result");
    ic_tensor_destroy(out);
    out = NULL;
    if (rst) goto cleanup;
  }
cleanup:
  if (n < 0) n = ic_alloc_count();
  ic_alloc_fail_at(-1);
  ic_tensor_destroy(out);
  ic_executor_destroy(e);
  ic_scope_destroy(params);
  ic_program_destroy(prog);
  ic_program_destroy(built);
  if (kst == IC_ERR_OUT_OF_MEMORY) {
    /* the failed run left the long-lived executor usable: run again, without injection */
    ic_program *p2;
    ic_scope *s2;
    ck_assert_int_eq(ic_model_load(f->model, f->params, 0, &p2, &s2, err, sizeof err), IC_OK);
    tu_assert_msg(ic_executor_errmsg(keep), "out of memory", NULL);
    ck_assert_msg(ic_executor_run(keep, p2, s2, 1, &f->feed, (const ic_tensor *const *)&f->x, 1,
                                  &f->fetch, &out) == IC_OK,
                  "k = %ld: run after a failed one: %s", k, ic_executor_errmsg(keep));
    assert_same(out, f->ref, k, "the result of the run after a failed one");
    ic_tensor_destroy(out);
    ic_scope_destroy(s2);
    ic_program_destroy(p2);
  }
  return n;
}

/* The program (the MLP, built, or a shared model) in a file and random parameters saved
 * beside a copy, so that attempts load both. */
static void setup(fixture *f, const char *model_rel, const char *feed,
                  ic_status (*build)(ic_program **out)) {
  memset(f, 0, sizeof *f);
  f->build = build;
  char err[1024];
  ic_program *p;
  ic_scope *s;
  f->dir = tu_tmpdir();
  if (!model_rel) {
    ck_assert_int_eq(build(&p), IC_OK);
    size_t n;
    const void *bytes = ic_program_bytes(p, &n);
    snprintf(f->model, sizeof f->model, "%s/mlp.pdmodel", f->dir);
    ck_assert(tu_write_file(f->model, bytes, n));
  } else {
    ck_assert_msg(tu_shared(model_rel, f->model, sizeof f->model), "missing %s", model_rel);
    ck_assert_msg(ic_program_from_file(f->model, &p, err, sizeof err) == IC_OK, "%s", err);
  }
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  ck_assert_msg(ic_params_random(p, 7, s, err, sizeof err) == IC_OK, "%s", err);
  snprintf(f->params, sizeof f->params, "%s/model.pdiparams", f->dir);
  ck_assert_msg(ic_params_save(p, s, f->params, IC_PARAMS_COMBINED, err, sizeof err) == IC_OK,
                "%s", err);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  f->feed = feed;
}

static void run_reference(fixture *f, ic_mode mode, const int64_t *dims, int ndim) {
  char err[1024];
  ic_program *p;
  ic_scope *s;
  ck_assert_msg(ic_model_load(f->model, f->params, 0, &p, &s, err, sizeof err) == IC_OK, "%s",
                err);
  f->fetch = strdup(ic_program_fetch_target(p, 0));
  f->x = tu_rand_f32(ndim, dims, 3, -1, 1);
  ic_executor *e = serial_exec(mode);
  ck_assert_msg(ic_executor_run(e, p, s, 1, &f->feed, (const ic_tensor *const *)&f->x, 1,
                                &f->fetch, &f->ref) == IC_OK,
                "%s", ic_executor_errmsg(e));
  ic_executor_destroy(e);
  ic_scope_destroy(s);
  ic_program_destroy(p);
}

static void teardown(fixture *f) {
  ic_tensor_destroy(f->x);
  ic_tensor_destroy(f->ref);
  free((void *)f->fetch);
  tu_rmtree(f->dir);
  free(f->dir);
}

/* Every k, for both executors: the MLP built, loaded from its files, analysed and run. */
START_TEST(mlp_every_allocation) {
  for (int m = 0; m < 2; m++) {
    ic_mode mode = m ? IC_MODE_UNCOMPILED : IC_MODE_COMPILED;
    fixture f;
    setup(&f, NULL, "x", build_mlp);
    run_reference(&f, mode, (const int64_t[]){ROWS, IN}, 2);
    ic_executor *keep = serial_exec(mode);
    long k = 0, n;
    for (;; k++) {
      n = attempt(&f, mode, keep, k, true);
      if (n <= k) break; /* the k-th allocation was never reached: all of it succeeded */
    }
    ck_assert_msg(k > 100, "only %ld allocations counted: is the hook wired in?", k);
    /* the runs themselves allocate (plans, run states, buffers, fetches): some failed */
    ck_assert_msg(f.run_failed > 10, "%s: only %ld failed runs", m ? "uncompiled" : "compiled",
                  f.run_failed);
    ic_executor_destroy(keep);
    teardown(&f);
  }
}
END_TEST

/* Every k, for both executors: a while loop with a tensor array (sub-plan analysis, the
 * loop's per-execution state, array growth). */
START_TEST(loop_every_allocation) {
  for (int m = 0; m < 2; m++) {
    ic_mode mode = m ? IC_MODE_UNCOMPILED : IC_MODE_COMPILED;
    fixture f;
    setup(&f, NULL, "x", build_loop);
    run_reference(&f, mode, (const int64_t[]){ROWS, IN}, 2);
    ck_assert_int_eq(ic_tensor_ndim(f.ref), 3);
    ck_assert_int_eq(ic_tensor_dims(f.ref)[0], 3);
    ic_executor *keep = serial_exec(mode);
    long k = 0, n;
    for (;; k++) {
      n = attempt(&f, mode, keep, k, true);
      if (n <= k) break;
    }
    ck_assert_msg(k > 100, "only %ld allocations counted: is the hook wired in?", k);
    ck_assert_msg(f.run_failed > 10, "%s: only %ld failed runs", m ? "uncompiled" : "compiled",
                  f.run_failed);
    ic_executor_destroy(keep);
    teardown(&f);
  }
}
END_TEST

/* A real program (MobileNetV2 at batch 1, compiled): loading, analysis with the inference
 * rewrites and a run, failing allocation k for ~150 values of k spread over all of them
 * (every k would take minutes). */
START_TEST(mobilenet_spread) {
  fixture f;
  setup(&f, "paddle/mobilenet_v2/inference.pdmodel", "inputs", NULL);
  run_reference(&f, IC_MODE_COMPILED, (const int64_t[]){1, 3, 224, 224}, 4);
  ic_executor *keep = serial_exec(IC_MODE_COMPILED);
  long total = attempt(&f, IC_MODE_COMPILED, keep, LONG_MAX, false);
  ck_assert_msg(total > 1000, "only %ld allocations", total);
  long step = total / 150 + 1;
  for (long k = 0; k < total; k += step) attempt(&f, IC_MODE_COMPILED, keep, k, false);
  ck_assert_int_le(attempt(&f, IC_MODE_COMPILED, keep, total, false), total);
  ck_assert_int_gt(f.run_failed, 3); /* most of its allocations are in loading */
  ic_executor_destroy(keep);
  teardown(&f);
}
END_TEST

static TCase *tc_alloc(void) {
  TCase *tc = tcase_create("allocation failure");
  tcase_add_test(tc, mlp_every_allocation);
  tcase_add_test(tc, loop_every_allocation);
  tcase_add_test(tc, mobilenet_spread);
  return tc;
}

TU_MAIN("alloc_fail", tc_alloc)
