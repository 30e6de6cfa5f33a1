/* Runs that share things: one parameter scope served by several executors on several
 * threads, one executor run from several threads at once, and what a run may do to the
 * caller's scope (see icore.h "Threads and scopes"). Kept small: the suite also runs under
 * ThreadSanitizer (label scheduler). */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define N_THREADS 4
#define N_ITERS 24

static const float k_w[3] = {1.5f, -0.5f, 2.0f}, k_b[3] = {0.1f, 0.2f, -0.3f},
                   k_m[3] = {0.5f, -1.0f, 0.25f}, k_v[3] = {1.0f, 4.0f, 0.5f};
static const char *const k_bn_params[] = {"bn.w_0", "bn.b_0", "bn.w_1", "bn.w_2"};

/* x [-1, 3, -1, -1] -> batch_norm (MeanOut = Mean, VarianceOut = Variance, as Paddle
 * exports it) -> y; is_test picks inference or training. */
static ic_program *bn_program(bool is_test) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 4, TU_DIMS(-1, 3, -1, -1));
  tu_var(b, "y", IC_FP32, 4, TU_DIMS(-1, 3, -1, -1));
  for (size_t i = 0; i < 4; i++) ic_builder_var(b, 0, k_bn_params[i], IC_FP32, 1, TU_DIMS(3), true);
  tu_var(b, "bn.tmp_0", IC_FP32, 1, TU_DIMS(3));
  tu_var(b, "bn.tmp_1", IC_FP32, 1, TU_DIMS(3));
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "batch_norm");
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Scale", "bn.w_0");
  ic_builder_in(op, "Bias", "bn.b_0");
  ic_builder_in(op, "Mean", "bn.w_1");
  ic_builder_in(op, "Variance", "bn.w_2");
  ic_builder_out(op, "Y", "y");
  ic_builder_out(op, "MeanOut", "bn.w_1");
  ic_builder_out(op, "VarianceOut", "bn.w_2");
  ic_builder_out(op, "SavedMean", "bn.tmp_0");
  ic_builder_out(op, "SavedVariance", "bn.tmp_1");
  ic_builder_attr_bool(op, "is_test", is_test);
  ic_builder_fetch(b, "y");
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  return p;
}

/* A program that computes a persistable: p = 2 * w (p persistable), y = x + p. */
static ic_program *calc_program(void) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 2, TU_DIMS(-1, 3));
  tu_var(b, "y", IC_FP32, 2, TU_DIMS(-1, 3));
  ic_builder_var(b, 0, "w", IC_FP32, 1, TU_DIMS(3), true);
  ic_builder_var(b, 0, "p", IC_FP32, 1, TU_DIMS(3), true);
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "scale");
  ic_builder_in(op, "X", "w");
  ic_builder_out(op, "Out", "p");
  ic_builder_attr_float(op, "scale", 2.0f);
  op = ic_builder_add_op(b, 0, "elementwise_add");
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Y", "p");
  ic_builder_out(op, "Out", "y");
  ic_builder_attr_int(op, "axis", -1);
  ic_builder_fetch(b, "y");
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  return p;
}

/* y = x * w, w persistable. */
static ic_program *mul_program(void) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 2, TU_DIMS(-1, 3));
  tu_var(b, "y", IC_FP32, 2, TU_DIMS(-1, 3));
  ic_builder_var(b, 0, "w", IC_FP32, 1, TU_DIMS(3), true);
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "elementwise_mul");
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Y", "w");
  ic_builder_out(op, "Out", "y");
  ic_builder_attr_int(op, "axis", -1);
  ic_builder_fetch(b, "y");
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  return p;
}

static void set_f32(ic_scope *s, const char *name, const float *v, int64_t n) {
  ic_tensor *t = tu_f32(1, (const int64_t[]){n}, v);
  ck_assert_int_eq(ic_scope_set(s, name, t), IC_OK);
  ic_tensor_destroy(t);
}

static ic_scope *make_scope(void) {
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  const float *vals[] = {k_w, k_b, k_m, k_v};
  for (size_t i = 0; i < 4; i++) set_f32(s, k_bn_params[i], vals[i], 3);
  set_f32(s, "w", k_w, 3);
  return s;
}

static ic_executor *make_exec(ic_mode mode, int threads, int cache) {
  ic_options o;
  ic_options_default(&o);
  o.mode = mode;
  o.threads = threads;
  o.cache_capacity = cache;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  return e;
}

/* Checks made from worker threads: Check's assertions belong to the main thread, so
 * workers count failures and keep the first message. */
typedef struct shared {
  ic_executor *exec[N_THREADS]; /* per thread, possibly all the same */
  ic_scope *scope;
  const ic_program *bn, *calc;
  atomic_int failures;
  pthread_mutex_t lock;
  char first[1024];
} shared;

typedef struct targ {
  shared *sh;
  int id;
} targ;

static void note(shared *sh, const char *fmt, const char *a, double x, double y) {
  pthread_mutex_lock(&sh->lock);
  if (atomic_fetch_add(&sh->failures, 1) == 0) snprintf(sh->first, sizeof sh->first, fmt, a, x, y);
  pthread_mutex_unlock(&sh->lock);
}

/* Run bn inference with batch id+1 and spatial 2x(id+1), and the calc program, checking
 * both against double references. */
static void *worker(void *arg) {
  targ *ta = arg;
  shared *sh = ta->sh;
  ic_executor *e = sh->exec[ta->id];
  int64_t n = ta->id + 1, hw = 2 * (ta->id + 1);
  ic_tensor *x = tu_rand_f32(4, TU_DIMS(n, 3, 2, hw), 100 + (uint64_t)ta->id, -2, 2);
  ic_tensor *x2 = tu_rand_f32(2, TU_DIMS(n, 3), 200 + (uint64_t)ta->id, -1, 1);
  const float *xf = ic_tensor_cdata(x), *x2f = ic_tensor_cdata(x2);
  for (int it = 0; it < N_ITERS && !atomic_load(&sh->failures); it++) {
    ic_tensor *out[1];
    ic_status st = ic_executor_run(e, sh->bn, sh->scope, 1, TU_NAMES("x"),
                                   (const ic_tensor *const *)&x, 1, TU_NAMES("y"), out);
    if (st) {
      note(sh, "bn run: %s (%g %g)", ic_executor_errmsg(e), 0, 0);
      break;
    }
    const float *y = ic_tensor_cdata(out[0]);
    int64_t total = n * 3 * 2 * hw;
    for (int64_t i = 0; i < total; i++) {
      int c = (int)((i / (2 * hw)) % 3);
      double ref = (xf[i] - k_m[c]) / sqrt(k_v[c] + (double)1e-5f) * k_w[c] + k_b[c];
      if (fabs(y[i] - ref) > 1e-5 + 1e-5 * fabs(ref)) {
        note(sh, "%s: got %g, expected %g", "bn y", y[i], ref);
        break;
      }
    }
    ic_tensor_destroy(out[0]);
    st = ic_executor_run(e, sh->calc, sh->scope, 1, TU_NAMES("x"),
                         (const ic_tensor *const *)&x2, 1, TU_NAMES("y"), out);
    if (st) {
      note(sh, "calc run: %s (%g %g)", ic_executor_errmsg(e), 0, 0);
      break;
    }
    y = ic_tensor_cdata(out[0]);
    for (int64_t i = 0; i < n * 3; i++) {
      double ref = x2f[i] + 2.0 * k_w[i % 3];
      if (fabs(y[i] - ref) > 1e-6) {
        note(sh, "%s: got %g, expected %g", "calc y", y[i], ref);
        break;
      }
    }
    ic_tensor_destroy(out[0]);
  }
  ic_tensor_destroy(x);
  ic_tensor_destroy(x2);
  return NULL;
}

static void run_threads(shared *sh) {
  pthread_t th[N_THREADS];
  targ ta[N_THREADS];
  for (int i = 0; i < N_THREADS; i++) {
    ta[i] = (targ){.sh = sh, .id = i};
    ck_assert_int_eq(pthread_create(&th[i], NULL, worker, &ta[i]), 0);
  }
  for (int i = 0; i < N_THREADS; i++) pthread_join(th[i], NULL);
  ck_assert_msg(atomic_load(&sh->failures) == 0, "%d failures; first: %s",
                atomic_load(&sh->failures), sh->first);
}

static void init_shared(shared *sh) {
  memset(sh, 0, sizeof *sh);
  atomic_init(&sh->failures, 0);
  pthread_mutex_init(&sh->lock, NULL);
  sh->scope = make_scope();
  sh->bn = bn_program(true);
  sh->calc = calc_program();
}

static void check_params_unchanged(ic_scope *s) {
  const float *vals[] = {k_w, k_b, k_m, k_v};
  for (size_t i = 0; i < 4; i++) {
    ic_tensor *t = tu_f32(1, TU_DIMS(3), vals[i]);
    tu_assert_bitwise(ic_scope_get(s, k_bn_params[i]), t, k_bn_params[i]);
    ic_tensor_destroy(t);
  }
}

static void free_shared(shared *sh) {
  check_params_unchanged(sh->scope);
  ic_scope_destroy(sh->scope);
  ic_program_destroy((ic_program *)sh->bn);
  ic_program_destroy((ic_program *)sh->calc);
  pthread_mutex_destroy(&sh->lock);
}

/* N executors on N threads sharing one parameter scope (the usual way to serve a model). */
START_TEST(executors_share_scope) {
  for (int mode = 0; mode < 2; mode++) {
    shared sh;
    init_shared(&sh);
    for (int i = 0; i < N_THREADS; i++) {
      sh.exec[i] = make_exec(mode ? IC_MODE_UNCOMPILED : IC_MODE_COMPILED, i % 2 ? 2 : 1, 8);
    }
    run_threads(&sh);
    for (int i = 0; i < N_THREADS; i++) ic_executor_destroy(sh.exec[i]);
    /* The computed persistable was committed with storage the scope owns: the executors
     * are gone and it is still readable. */
    tu_assert_close(ic_scope_get(sh.scope, "p"), (const double[]){3.0, -1.0, 4.0}, 3, 0, 0);
    free_shared(&sh);
  }
}
END_TEST

/* One executor, N threads calling ic_executor_run at once; a one-entry plan cache makes the
 * threads evict each other's plans (two programs) while those plans are running. */
START_TEST(one_executor_many_threads) {
  for (int cfg = 0; cfg < 3; cfg++) {
    shared sh;
    init_shared(&sh);
    ic_executor *e = cfg == 2 ? make_exec(IC_MODE_UNCOMPILED, 1, 8)
                              : make_exec(IC_MODE_COMPILED, 2, cfg == 0 ? 1 : 8);
    for (int i = 0; i < N_THREADS; i++) sh.exec[i] = e;
    run_threads(&sh);
    uint64_t hits, misses;
    ic_executor_cache_stats(e, &hits, &misses);
    if (cfg == 1) ck_assert_uint_eq(misses, 2); /* one plan per program, shared by all */
    if (cfg != 2) ck_assert_uint_eq(hits + misses, 2 * N_THREADS * N_ITERS);
    ic_memory_stats ms;
    ic_executor_memory_stats(e, &ms);
    ck_assert_uint_eq(ms.live_bytes, 0);
    ic_executor_destroy(e);
    free_shared(&sh);
  }
}
END_TEST

/* Feeding a parameter's name shadows it for that run only. */
START_TEST(feed_shadows_parameter) {
  ic_program *p = mul_program();
  ic_tensor *x = tu_f32(2, TU_DIMS(1, 3), (const float[]){1, 1, 1});
  ic_tensor *w2 = tu_f32(1, TU_DIMS(3), (const float[]){10, 20, 30});
  ic_tensor *w = tu_f32(1, TU_DIMS(3), k_w);
  for (int mode = 0; mode < 2; mode++) {
    ic_scope *s = make_scope();
    ic_executor *e = make_exec(mode ? IC_MODE_UNCOMPILED : IC_MODE_COMPILED, 1, 8);
    for (int rep = 0; rep < 2; rep++) {
      ic_tensor *out[1];
      const ic_tensor *feeds[2] = {x, w2};
      ck_assert_msg(ic_executor_run(e, p, s, 2, TU_NAMES("x", "w"), feeds, 1, TU_NAMES("y"),
                                    out) == IC_OK,
                    "%s", ic_executor_errmsg(e));
      tu_assert_close(out[0], (const double[]){10, 20, 30}, 3, 0, 0);
      ic_tensor_destroy(out[0]);
      tu_assert_bitwise(ic_scope_get(s, "w"), w, "parameter after a run that fed it");
      ck_assert_msg(ic_executor_run(e, p, s, 1, TU_NAMES("x"), feeds, 1, TU_NAMES("y"), out) ==
                        IC_OK,
                    "%s", ic_executor_errmsg(e));
      tu_assert_close(out[0], (const double[]){k_w[0], k_w[1], k_w[2]}, 3, 0, 0);
      ic_tensor_destroy(out[0]);
    }
    ic_executor_destroy(e);
    ic_scope_destroy(s);
  }
  ic_tensor_destroy(x);
  ic_tensor_destroy(w2);
  ic_tensor_destroy(w);
  ic_program_destroy(p);
}
END_TEST

/* A persistable a run computes goes to the caller's scope in storage the scope owns, never
 * in a buffer of the executor's allocator; inference leaves the parameters as they were. */
START_TEST(scope_owns_committed_persistables) {
  ic_program *calc = calc_program(), *bn = bn_program(true);
  ic_tensor *x = tu_f32(2, TU_DIMS(1, 3), (const float[]){1, 2, 3});
  ic_tensor *xb = tu_rand_f32(4, TU_DIMS(1, 3, 2, 2), 5, -1, 1);
  for (int mode = 0; mode < 2; mode++) {
    ic_scope *s = make_scope();
    set_f32(s, "p", (const float[]){0, 0, 0}, 3); /* replaced by the runs' commits */
    const void *mean_data = ic_tensor_cdata(ic_scope_get(s, "bn.w_1"));
    for (int round = 0; round < 2; round++) {
      ic_executor *e = make_exec(mode ? IC_MODE_UNCOMPILED : IC_MODE_COMPILED, 1, 8);
      ic_tensor *out[1];
      ck_assert_msg(ic_executor_run(e, calc, s, 1, TU_NAMES("x"), (const ic_tensor *const *)&x,
                                    1, TU_NAMES("y"), out) == IC_OK,
                    "%s", ic_executor_errmsg(e));
      tu_assert_close(out[0], (const double[]){1 + 2 * k_w[0], 2 + 2 * k_w[1], 3 + 2 * k_w[2]},
                      3, 0, 0);
      ic_tensor_destroy(out[0]);
      ck_assert_msg(ic_executor_run(e, bn, s, 1, TU_NAMES("x"), (const ic_tensor *const *)&xb,
                                    1, TU_NAMES("y"), out) == IC_OK,
                    "%s", ic_executor_errmsg(e));
      ic_tensor_destroy(out[0]);
      ic_memory_stats ms;
      ic_executor_memory_stats(e, &ms);
      ck_assert_msg(ms.live_bytes == 0, "the scope holds %zu bytes of the executor's buffers",
                    ms.live_bytes);
      ic_executor_destroy(e);
      tu_assert_close(ic_scope_get(s, "p"), (const double[]){3.0, -1.0, 4.0}, 3, 0, 0);
      /* inference shares Mean into MeanOut: the parameter's storage is untouched */
      ck_assert_ptr_eq(ic_tensor_cdata(ic_scope_get(s, "bn.w_1")), mean_data);
      check_params_unchanged(s);
    }
    ic_scope_destroy(s);
  }
  ic_tensor_destroy(x);
  ic_tensor_destroy(xb);
  ic_program_destroy(calc);
  ic_program_destroy(bn);
}
END_TEST

/* Runs that update persistables (batch_norm training moves the running statistics) are
 * serialized per scope: N concurrent runs leave what N runs in a row leave, bit for bit. */
typedef struct trarg {
  ic_executor *e;
  const ic_program *p;
  ic_scope *s;
  const ic_tensor *x;
  int runs;
  ic_status st;
} trarg;

static void *train_worker(void *arg) {
  trarg *a = arg;
  for (int i = 0; i < a->runs && !a->st; i++) {
    ic_tensor *out[1];
    a->st = ic_executor_run(a->e, a->p, a->s, 1, TU_NAMES("x"), &a->x, 1, TU_NAMES("y"), out);
    if (!a->st) ic_tensor_destroy(out[0]);
  }
  return NULL;
}

START_TEST(updates_are_serialized) {
  ic_program *p = bn_program(false);
  ic_tensor *x = tu_rand_f32(4, TU_DIMS(2, 3, 2, 2), 9, -2, 2);
  enum { RUNS = 6 };
  ic_scope *ref = make_scope();
  ic_executor *e = make_exec(IC_MODE_COMPILED, 1, 8);
  trarg one = {.e = e, .p = p, .s = ref, .x = x, .runs = N_THREADS * RUNS};
  train_worker(&one);
  ck_assert_msg(one.st == IC_OK, "%s", ic_executor_errmsg(e));
  ic_executor_destroy(e);
  for (int shared_exec = 0; shared_exec < 2; shared_exec++) {
    ic_scope *s = make_scope();
    ic_executor *ex[N_THREADS];
    pthread_t th[N_THREADS];
    trarg a[N_THREADS];
    for (int i = 0; i < N_THREADS; i++) {
      ex[i] = shared_exec && i ? ex[0] : make_exec(IC_MODE_COMPILED, 1, 8);
      a[i] = (trarg){.e = ex[i], .p = p, .s = s, .x = x, .runs = RUNS};
      ck_assert_int_eq(pthread_create(&th[i], NULL, train_worker, &a[i]), 0);
    }
    for (int i = 0; i < N_THREADS; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < N_THREADS; i++) ck_assert_int_eq(a[i].st, IC_OK);
    for (int i = 0; i < N_THREADS; i++) {
      if (!(shared_exec && i)) ic_executor_destroy(ex[i]);
    }
    tu_assert_bitwise(ic_scope_get(s, "bn.w_1"), ic_scope_get(ref, "bn.w_1"), "running mean");
    tu_assert_bitwise(ic_scope_get(s, "bn.w_2"), ic_scope_get(ref, "bn.w_2"), "running var");
    ic_scope_destroy(s);
  }
  ic_scope_destroy(ref);
  ic_tensor_destroy(x);
  ic_program_destroy(p);
}
END_TEST

/* ic_executor_errmsg is the calling thread's: another thread's successful run does not wipe
 * the message of this thread's failed one. */
typedef struct emarg {
  ic_executor *e;
  const ic_program *p;
  ic_scope *s;
  ic_status st;
  char msg[1024];
} emarg;

static void *ok_run(void *arg) {
  emarg *a = arg;
  ic_tensor *x = tu_f32(2, TU_DIMS(1, 3), (const float[]){1, 2, 3});
  ic_tensor *out[1];
  a->st = ic_executor_run(a->e, a->p, a->s, 1, TU_NAMES("x"), (const ic_tensor *const *)&x, 1,
                          TU_NAMES("y"), out);
  if (!a->st) ic_tensor_destroy(out[0]);
  snprintf(a->msg, sizeof a->msg, "%s", ic_executor_errmsg(a->e));
  ic_tensor_destroy(x);
  return NULL;
}

START_TEST(errmsg_is_per_thread) {
  ic_program *p = mul_program();
  ic_scope *s = make_scope();
  for (int mode = 0; mode < 2; mode++) {
    ic_executor *e = make_exec(mode ? IC_MODE_UNCOMPILED : IC_MODE_COMPILED, 1, 8);
    ic_tensor *bad = tu_f32(1, TU_DIMS(3), (const float[]){1, 2, 3});
    ic_tensor *out[1];
    ck_assert_int_eq(ic_executor_run(e, p, s, 1, TU_NAMES("x"), (const ic_tensor *const *)&bad,
                                     1, TU_NAMES("y"), out),
                     IC_ERR_INVALID_ARGUMENT);
    tu_assert_msg(ic_executor_errmsg(e), "feed 'x'", "received float32[3]", NULL);
    emarg a = {.e = e, .p = p, .s = s};
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, ok_run, &a), 0);
    pthread_join(th, NULL);
    ck_assert_int_eq(a.st, IC_OK);
    ck_assert_str_eq(a.msg, "");
    tu_assert_msg(ic_executor_errmsg(e), "feed 'x'", "received float32[3]", NULL);
    ic_tensor_destroy(bad);
    ic_executor_destroy(e);
  }
  ic_scope_destroy(s);
  ic_program_destroy(p);
}
END_TEST

static TCase *tc_scope(void) {
  TCase *tc = tcase_create("scope");
  tcase_add_test(tc, feed_shadows_parameter);
  tcase_add_test(tc, scope_owns_committed_persistables);
  tcase_add_test(tc, executors_share_scope);
  tcase_add_test(tc, updates_are_serialized);
  return tc;
}

static TCase *tc_threads(void) {
  TCase *tc = tcase_create("threads");
  tcase_add_test(tc, one_executor_many_threads);
  tcase_add_test(tc, errmsg_is_per_thread);
  return tc;
}

TU_MAIN("concurrent", tc_scope, tc_threads)
