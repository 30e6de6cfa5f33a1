/* The compiled executor: failures at every position, the plan cache, GC and memory reuse,
 * profiles. Run under ThreadSanitizer by the test command (label "scheduler"). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "interp/cpuload.h"
#include "interp/interp.h"
#include "testutil.h"

typedef struct cfg {
  const char *name;
  ic_mode mode;
  int threads;
  bool serial;
} cfg;

static const cfg k_cfgs[] = {{"uncompiled", IC_MODE_UNCOMPILED, 1, true},
                             {"compiled serial", IC_MODE_COMPILED, 1, true},
                             {"compiled 2", IC_MODE_COMPILED, 2, false},
                             {"compiled 4", IC_MODE_COMPILED, 4, false},
                             {"compiled 16", IC_MODE_COMPILED, 16, false}};
#define N_CFGS (sizeof k_cfgs / sizeof k_cfgs[0])

static ic_executor *make_exec(const cfg *c, bool gc) {
  ic_options o;
  ic_options_default(&o);
  o.mode = c->mode;
  o.threads = c->threads;
  o.serial = c->serial;
  o.gc = gc;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  return e;
}

/* x -> relu -> tanh -> ... (depth ops) -> out, plus `width` independent branches from x
 * joined by a sum at the end. */
static ic_program *branches(int width, int depth, int64_t n) {
  ic_builder *b = ic_builder_create();
  const int64_t dims[1] = {n};
  tu_var(b, "x", IC_FP32, 1, dims);
  tu_var(b, "out", IC_FP32, 1, dims);
  ic_builder_feed(b, "x");
  char names[64][32];
  const char *ends[64];
  for (int w = 0; w < width; w++) {
    char prev[32] = "x";
    for (int d = 0; d < depth; d++) {
      snprintf(names[w], sizeof names[w], "b%d_%d", w, d);
      tu_var(b, names[w], IC_FP32, 1, dims);
      ic_builder_op *op = ic_builder_add_op(b, 0, d % 2 ? "tanh" : "scale");
      ic_builder_in(op, "X", prev);
      ic_builder_out(op, "Out", names[w]);
      if (!(d % 2)) ic_builder_attr_float(op, "scale", 0.5f + (float)w);
      strcpy(prev, names[w]);
    }
    ends[w] = names[w];
  }
  ic_builder_op *sum = ic_builder_add_op(b, 0, "sum");
  ic_builder_input(sum, "X", (size_t)width, ends);
  ic_builder_out(sum, "Out", "out");
  ic_builder_fetch(b, "out");
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  return p;
}

static ic_tensor *ramp(int64_t n) {
  ic_tensor *t = tu_f32(1, (const int64_t[]){n}, NULL);
  float *d = ic_tensor_data(t);
  for (int64_t i = 0; i < n; i++) d[i] = (float)(i % 17) * 0.25f - 2.0f;
  return t;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

START_TEST(failure_at_every_position) {
  ic_program *p = branches(3, 6, 33);
  ic_tensor *x = ramp(33);
  for (size_t c = 0; c < N_CFGS; c++) {
    ic_executor *e = make_exec(&k_cfgs[c], true);
    ic_tensor *good = NULL, *out = NULL;
    ck_assert_int_eq(ic_executor_run(e, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x,
                                     1, TU_NAMES("out"), &good),
                     IC_OK);
    size_t n_ops = p->blocks[0].n_ops;
    for (size_t k = 0; k < n_ops; k++) {
      ic_executor_inject_failure(e, (long)k);
      double t0 = now_s();
      ic_status st = ic_executor_run(e, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x, 1,
                                     TU_NAMES("out"), &out);
      ck_assert_msg(now_s() - t0 < 5.0, "%s: a failure at %zu took too long", k_cfgs[c].name, k);
      ck_assert_msg(st == IC_ERR_KERNEL, "%s: failure at %zu gave %s", k_cfgs[c].name, k,
                    ic_status_name(st));
      ck_assert_ptr_null(out);
      char want[64];
      snprintf(want, sizeof want, "op #%zu (%s)", k, p->blocks[0].ops[k].type);
      tu_assert_msg(ic_executor_errmsg(e), want, "injected failure", NULL);
      /* the same executor then runs correctly again */
      ic_executor_inject_failure(e, -1);
      ck_assert_int_eq(ic_executor_run(e, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x,
                                       1, TU_NAMES("out"), &out),
                       IC_OK);
      tu_assert_bitwise(out, good, k_cfgs[c].name);
      ic_tensor_destroy(out);
    }
    ic_tensor_destroy(good);
    ic_memory_stats ms;
    ic_executor_memory_stats(e, &ms);
    ck_assert_uint_eq(ms.live_bytes, 0); /* nothing held between runs but what the caller has */
    ic_executor_destroy(e);
  }
  ic_tensor_destroy(x);
  ic_program_destroy(p);
}
END_TEST

START_TEST(results_agree_across_threads) {
  ic_program *p = branches(8, 10, 1000);
  ic_tensor *x = ramp(1000), *ref = NULL;
  for (size_t c = 0; c < N_CFGS; c++) {
    ic_executor *e = make_exec(&k_cfgs[c], true);
    for (int rep = 0; rep < 20; rep++) {
      ic_tensor *out;
      ck_assert_int_eq(ic_executor_run(e, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x,
                                       1, TU_NAMES("out"), &out),
                       IC_OK);
      if (!ref) ref = out;
      else {
        tu_assert_bitwise(out, ref, k_cfgs[c].name);
        ic_tensor_destroy(out);
      }
    }
    ic_executor_destroy(e);
  }
  /* and against a direct computation */
  const float *r = ic_tensor_cdata(ref), *xv = ic_tensor_cdata(x);
  for (int i = 0; i < 1000; i++) {
    double s = 0;
    for (int w = 0; w < 8; w++) {
      float v = xv[i];
      for (int d = 0; d < 10; d++) v = d % 2 ? tanhf(v) : v * (0.5f + (float)w);
      s += v;
    }
    ck_assert_msg(fabs(r[i] - s) < 1e-5 * (1 + fabs(s)), "element %d", i);
  }
  ic_tensor_destroy(ref);
  ic_tensor_destroy(x);
  ic_program_destroy(p);
}
END_TEST

START_TEST(cache_hits_misses_eviction) {
  ic_options o;
  ic_options_default(&o);
  o.cache_capacity = 2;
  o.threads = 2;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  ic_program *a = branches(1, 2, 8), *b = branches(1, 3, 8), *c = branches(2, 2, 8);
  ic_tensor *x = ramp(8), *out;
  uint64_t hits, misses;
#define RUN(p, fetch)                                                                          \
  do {                                                                                         \
    ck_assert_int_eq(ic_executor_run(e, p, NULL, 1, TU_NAMES("x"),                             \
                                     (const ic_tensor *const *)&x, 1, TU_NAMES(fetch), &out),  \
                     IC_OK);                                                                   \
    ic_tensor_destroy(out);                                                                    \
  } while (0)
  RUN(a, "out");
  RUN(a, "out");
  ic_executor_cache_stats(e, &hits, &misses);
  ck_assert(hits == 1 && misses == 1);
  RUN(a, "b0_0"); /* other fetches: a miss */
  ic_executor_cache_stats(e, &hits, &misses);
  ck_assert(hits == 1 && misses == 2);
  RUN(b, "out"); /* other program bytes: a miss, evicting the least recently used (a/out) */
  RUN(a, "b0_0"); /* still cached */
  ic_executor_cache_stats(e, &hits, &misses);
  ck_assert(hits == 2 && misses == 3);
  RUN(a, "out"); /* evicted: a miss */
  ic_executor_cache_stats(e, &hits, &misses);
  ck_assert(hits == 2 && misses == 4);
  /* the same bytes in another program object hit */
  size_t n;
  const void *bytes = ic_program_bytes(a, &n);
  ic_program *a2;
  ck_assert_int_eq(ic_program_from_bytes(bytes, n, NULL, &a2, NULL, 0), IC_OK);
  RUN(a2, "out");
  ic_executor_cache_stats(e, &hits, &misses);
  ck_assert(hits == 3 && misses == 4);
  /* a cached plan keeps its program alive after the caller destroys it */
  ic_program_destroy(a2);
  ic_program_destroy(a);
  ic_program_destroy(c);
  RUN(b, "out");
  ic_executor_cache_stats(e, &hits, &misses);
  ck_assert(misses == 5); /* b/out was evicted by a/out */
#undef RUN
  ic_tensor_destroy(x);
  ic_program_destroy(b);
  ic_executor_destroy(e);
}
END_TEST

/* A deep chain of 1 MiB activations: with GC the peak is two live buffers, not the sum. */
START_TEST(gc_peak_is_largest_live_set) {
  const int64_t n = 1 << 18; /* floats: 1 MiB */
  const int depth = 24;
  ic_program *p = branches(1, depth, n);
  ic_tensor *x = ramp(n);
  for (size_t c = 0; c < N_CFGS; c++) {
    for (int gc = 0; gc < 2; gc++) {
      ic_executor *e = make_exec(&k_cfgs[c], gc);
      ic_tensor *out;
      for (int rep = 0; rep < 3; rep++) {
        ic_memory_stats before, after;
        ic_executor_memory_stats(e, &before);
        ic_executor_reset_peak(e);
        ck_assert_int_eq(ic_executor_run(e, p, NULL, 1, TU_NAMES("x"),
                                         (const ic_tensor *const *)&x, 1, TU_NAMES("out"), &out),
                         IC_OK);
        ic_tensor_destroy(out);
        ic_executor_memory_stats(e, &after);
        size_t mib = (size_t)n * 4;
        if (gc) {
          ck_assert_msg(after.peak_bytes <= 2 * mib, "%s: peak %zu with GC", k_cfgs[c].name,
                        after.peak_bytes);
        } else {
          ck_assert_msg(after.peak_bytes >= (size_t)depth * mib, "%s: peak %zu without GC",
                        k_cfgs[c].name, after.peak_bytes);
        }
        /* steady state: no system allocations after the first run (unless ICORE_ALLOC=system
         * bypasses the cache, as the sanitizer runs do: then every run allocates) */
        const char *alloc = getenv("ICORE_ALLOC");
        if (rep > 0 && !(alloc && !strcmp(alloc, "system"))) {
          ck_assert_uint_eq(after.system_allocs, before.system_allocs);
        } else if (rep > 0) {
          ck_assert_uint_gt(after.system_allocs, before.system_allocs);
        }
        ck_assert_uint_eq(after.live_bytes, 0);
      }
      ic_executor_destroy(e);
    }
  }
  ic_tensor_destroy(x);
  ic_program_destroy(p);
}
END_TEST

START_TEST(keeps_params_feeds_fetches) {
  /* y = relu(x) + w; z = tanh(y); fetch y and z. w persistable, x fed: all survive. */
  ic_builder *b = ic_builder_create();
  const int64_t d[1] = {5};
  tu_var(b, "x", IC_FP32, 1, d);
  tu_var(b, "r", IC_FP32, 1, d);
  tu_var(b, "y", IC_FP32, 1, d);
  tu_var(b, "z", IC_FP32, 1, d);
  ic_builder_var(b, 0, "w", IC_FP32, 1, d, true);
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "relu");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "r");
  op = ic_builder_add_op(b, 0, "elementwise_add");
  ic_builder_in(op, "X", "r");
  ic_builder_in(op, "Y", "w");
  ic_builder_out(op, "Out", "y");
  op = ic_builder_add_op(b, 0, "tanh");
  ic_builder_in(op, "X", "y");
  ic_builder_out(op, "Out", "z");
  ic_builder_fetch(b, "y");
  ic_builder_fetch(b, "z");
  ic_program *p;
  ck_assert_int_eq(ic_builder_build(b, &p, NULL, 0), IC_OK);
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  ic_tensor *w = tu_f32(1, d, (const float[]){1, 2, 3, 4, 5});
  ck_assert_int_eq(ic_scope_set(s, "w", w), IC_OK);
  ic_tensor *x = tu_f32(1, d, (const float[]){-1, 0, 1, 2, -3});
  for (size_t c = 0; c < N_CFGS; c++) {
    ic_executor *e = make_exec(&k_cfgs[c], true);
    ic_executor_poison_freed(e, true);
    for (int rep = 0; rep < 3; rep++) {
      ic_tensor *out[2];
      ck_assert_int_eq(ic_executor_run(e, p, s, 1, TU_NAMES("x"), (const ic_tensor *const *)&x, 2,
                                       TU_NAMES("y", "z"), out),
                       IC_OK);
      tu_assert_close(out[0], (const double[]){1, 2, 4, 6, 5}, 5, 0, 0);
      tu_assert_close(out[1], (const double[]){tanhf(1), tanhf(2), tanhf(4), tanhf(6), tanhf(5)},
                      5, 1e-6, 0);
      ic_tensor_destroy(out[0]);
      ic_tensor_destroy(out[1]);
      tu_assert_bitwise(ic_scope_get(s, "w"), w, "parameter after run");
      tu_assert_close(x, (const double[]){-1, 0, 1, 2, -3}, 5, 0, 0);
    }
    ic_executor_destroy(e);
  }
  ic_tensor_destroy(x);
  ic_tensor_destroy(w);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  ic_builder_destroy(b);
}
END_TEST

/* A run state keeps its lookups of persistables in the scope between runs (compiled.c
 * bind): they must follow the scope passed each time, variables added to it or to its
 * ancestors since the last run (a missing parameter set, one shadowed by a child scope),
 * and a new scope created where a destroyed one was. */
static void run_add(ic_executor *e, const ic_program *p, ic_scope *s, const ic_tensor *x,
                    const float *want_w, const char *what) {
  ic_tensor *out = NULL;
  ck_assert_msg(ic_executor_run(e, p, s, 1, TU_NAMES("x"), (const ic_tensor *const *)&x, 1,
                                TU_NAMES("y"), &out) == IC_OK, "%s", what);
  const float *xv = ic_tensor_cdata(x), *y = ic_tensor_cdata(out);
  for (int i = 0; i < 3; i++) {
    ck_assert_msg(y[i] == xv[i] + want_w[i], "%s: y[%d] = %g, want %g", what, i, y[i],
                  xv[i] + want_w[i]);
  }
  ic_tensor_destroy(out);
}

/* y = x + w, w a persistable of n elements, x fed. */
static ic_builder *add_param_program(int64_t n) {
  ic_builder *b = ic_builder_create();
  const int64_t d[1] = {n};
  tu_var(b, "x", IC_FP32, 1, d);
  tu_var(b, "y", IC_FP32, 1, d);
  ic_builder_var(b, 0, "w", IC_FP32, 1, d, true);
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "elementwise_add");
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Y", "w");
  ic_builder_out(op, "Out", "y");
  ic_builder_fetch(b, "y");
  return b;
}

START_TEST(scope_lookups_follow_the_scope) {
  const int64_t d[1] = {3};
  ic_builder *b = add_param_program(d[0]);
  ic_program *p;
  ck_assert_int_eq(ic_builder_build(b, &p, NULL, 0), IC_OK);
  const float w1[3] = {1, 2, 3}, w2[3] = {10, 20, 30}, w3[3] = {100, 200, 300};
  ic_tensor *x = tu_f32(1, d, (const float[]){0.5f, -1, 2});
  ic_tensor *t1 = tu_f32(1, d, w1), *t2 = tu_f32(1, d, w2), *t3 = tu_f32(1, d, w3);
  for (size_t c = 1; c < N_CFGS; c++) {
    ic_executor *e = make_exec(&k_cfgs[c], true);
    ic_scope *root, *child;
    ck_assert_int_eq(ic_scope_create(NULL, &root), IC_OK);
    ck_assert_int_eq(ic_scope_set(root, "other", x), IC_OK);
    ic_tensor *out = NULL;
    for (int rep = 0; rep < 2; rep++) {
      ck_assert_int_eq(ic_executor_run(e, p, root, 1, TU_NAMES("x"),
                                       (const ic_tensor *const *)&x, 1, TU_NAMES("y"), &out),
                       IC_ERR_NOT_FOUND);
    }
    ck_assert_int_eq(ic_scope_set(root, "w", t1), IC_OK);
    run_add(e, p, root, x, w1, "w set in the scope after a failed run");
    run_add(e, p, root, x, w1, "again");
    /* A child without w reads the root's; once it has its own, that one. */
    ck_assert_int_eq(ic_scope_create(root, &child), IC_OK);
    run_add(e, p, child, x, w1, "child scope without w");
    ck_assert_int_eq(ic_scope_set(child, "w", t2), IC_OK);
    run_add(e, p, child, x, w2, "child scope with its own w");
    run_add(e, p, root, x, w1, "root again");
    run_add(e, p, child, x, w2, "child again");
    /* A new child, likely at the destroyed one's address, with the same variable count. */
    for (int k = 0; k < 3; k++) {
      ic_scope_destroy(child);
      ck_assert_int_eq(ic_scope_create(root, &child), IC_OK);
      ck_assert_int_eq(ic_scope_set(child, "w", k % 2 ? t2 : t3), IC_OK);
      run_add(e, p, child, x, k % 2 ? w2 : w3, "a new child scope");
    }
    ic_scope_destroy(child);
    ck_assert_int_eq(ic_scope_create(root, &child), IC_OK);
    ck_assert_int_eq(ic_scope_set(child, "unrelated", x), IC_OK);
    run_add(e, p, child, x, w1, "a new child scope without w");
    /* A value replaced in place is read, not the one of the first run. */
    ck_assert_int_eq(ic_scope_set(root, "w", t3), IC_OK);
    run_add(e, p, child, x, w3, "w replaced in the root");
    ic_scope_destroy(child);
    ic_scope_destroy(root);
    ic_executor_destroy(e);
  }
  ic_tensor_destroy(x);
  ic_tensor_destroy(t1);
  ic_tensor_destroy(t2);
  ic_tensor_destroy(t3);
  ic_program_destroy(p);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(missing_parameter_is_named) {
  const int64_t d[1] = {2};
  ic_builder *b = add_param_program(d[0]);
  ic_tensor *x = tu_f32(1, d, NULL), *out;
  char err[1024];
  ck_assert_int_eq(tu_run(b, 1, TU_NAMES("x"), &x, 1, TU_NAMES("y"), &out, err, sizeof err),
                   IC_ERR_NOT_FOUND);
  tu_assert_msg(err, "'w'", "elementwise_add", NULL);
  ic_tensor_destroy(x);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(profile_is_written) {
  ic_options o;
  ic_options_default(&o);
  o.threads = 2;
  o.profile = true;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  ck_assert_int_eq(ic_executor_write_profile(e, "/dev/null"), IC_ERR_INVALID_ARGUMENT);
  ic_program *p = branches(2, 4, 64);
  ic_tensor *x = ramp(64), *out;
  ck_assert_int_eq(ic_executor_run(e, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x, 1,
                                   TU_NAMES("out"), &out),
                   IC_OK);
  ic_tensor_destroy(out);
  char *dir = tu_tmpdir(), path[512];
  snprintf(path, sizeof path, "%s/trace.json", dir);
  ck_assert_int_eq(ic_executor_write_profile(e, path), IC_OK);
  char *text = tu_read_file(path, NULL);
  ck_assert_ptr_nonnull(text);
  tu_assert_msg(text, "\"traceEvents\"", "\"analysis\"", "\"tanh\"", "\"scale\"", "\"sum\"", NULL);
  /* one span per instruction: count "ph":"X" minus the analysis span */
  size_t spans = 0;
  for (const char *q = text; (q = strstr(q, "\"ph\":\"X\"")); q++) spans++;
  ck_assert_uint_eq(spans, p->blocks[0].n_ops + 1);
  free(text);
  tu_rmtree(dir);
  free(dir);
  ic_tensor_destroy(x);
  ic_program_destroy(p);
  ic_executor_destroy(e);
}
END_TEST

/* The load monitor's decisions: half a core held by others or more costs a thread (never
 * the last), it comes back only once they hold a third of a core less than it gave up, and
 * a budget the free cores can serve is left alone. */
START_TEST(load_monitor_decides) {
  ic_cpuload *m;
  ck_assert_int_eq(ic_cpuload_create(1, &m), IC_OK);
  ck_assert_ptr_null(m);
  ck_assert_int_eq(ic_cpuload_create(64, &m), IC_OK);
  ck_assert_msg(m != NULL, "no monitor on %ld CPUs", sysconf(_SC_NPROCESSORS_ONLN));
  int n = ic_cpuload_cpus(m);
  ck_assert_int_ge(n, 2);
  const struct {
    int others_milli, budget, want;
  } steps[] = {
      {0, 64, 64},         {0, 1, 1},          {400, 64, 64},          {600, 64, n - 1},
      {400, 64, n - 1},    {310, 64, n - 1},   {290, 64, 64},          {1400, 64, n - 1},
      {1500, 64, n > 2 ? n - 2 : 1},           {1000000, 64, 1},       {1000000, 1, 1},
      {0, 64, 64},
  };
  for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
    ic_cpuload_inject(m, steps[k].others_milli);
    int got = ic_cpuload_budget(m, steps[k].budget);
    ck_assert_msg(got == steps[k].want, "step %zu: others %d milli, budget %d: got %d, want %d", k,
                  steps[k].others_milli, steps[k].budget, got, steps[k].want);
    ck_assert_int_eq(ic_cpuload_others_milli(m), steps[k].others_milli);
  }
  ic_cpuload_free(m);
}
END_TEST

static atomic_bool g_spin_stop;

static void *spin_thread(void *arg) {
  (void)arg;
  volatile unsigned long spin = 0;
  while (!atomic_load_explicit(&g_spin_stop, memory_order_relaxed)) spin++;
  return NULL;
}

/* Niced ticks of all CPUs so far (/proc/stat's "cpu" line, second field). */
static unsigned long long niced_ticks(void) {
  FILE *f = fopen("/proc/stat", "r");
  ck_assert_ptr_nonnull(f);
  unsigned long long user = 0, nice = 0;
  ck_assert_int_eq(fscanf(f, "cpu %llu %llu", &user, &nice), 2);
  fclose(f);
  return nice;
}

/* A niced process in another scheduling group competes at full weight: with autogroups in
 * force, a `nice -n 19` job started in another session takes half of each CPU from this
 * process's threads, and the monitor must count it; one in this session yields and must not
 * count. Here: a child in its own session, niced to 19, spins on every CPU while this process
 * spins on every CPU too. Whether the kernel gives the child its share is measured (/proc/stat's
 * niced time), not assumed: autogroups apply only in the root cpu task group, and in a
 * container whose cgroup has the cpu controller the child yields like any niced process. */
START_TEST(load_monitor_counts_competing_niced) {
  ic_cpuload *m;
  ck_assert_int_eq(ic_cpuload_create(64, &m), IC_OK);
  ck_assert_ptr_nonnull(m);
  int n = ic_cpuload_cpus(m);
  ck_assert_int_le(n, 64);
  pid_t child = fork();
  ck_assert_int_ge(child, 0);
  if (child == 0) {
    setsid();
    if (setpriority(PRIO_PROCESS, 0, 19) != 0) _exit(1);
    for (int k = 1; k < n; k++)
      if (fork() == 0) break;
    volatile unsigned long spin = 0;
    for (;;) spin++;
  }
  atomic_store(&g_spin_stop, false);
  pthread_t th[64];
  for (int k = 0; k < n; k++) ck_assert_int_eq(pthread_create(&th[k], NULL, spin_thread, NULL), 0);
  int seen = -1, budget = n;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  unsigned long long nice0 = niced_ticks();
  for (int k = 0; k < 200 && !(seen >= 600 && budget < n); k++) {
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
    budget = ic_cpuload_budget(m, n);
    seen = ic_cpuload_others_milli(m);
  }
  unsigned long long nice1 = niced_ticks();
  clock_gettime(CLOCK_MONOTONIC, &t1);
  bool child_competes = ic_cpuload_niced_competes(child);
  atomic_store(&g_spin_stop, true);
  for (int k = 0; k < n; k++) pthread_join(th[k], NULL);
  kill(-child, SIGKILL); /* its session's process group: the child and its forks */
  kill(child, SIGKILL);
  waitpid(child, NULL, 0);
  double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  double niced_cores = (double)(nice1 - nice0) / (double)sysconf(_SC_CLK_TCK) / wall;
  char group[512] = "?";
  bool root = false;
  char text[2048] = "";
  FILE *cf = fopen("/proc/self/cgroup", "r");
  if (cf) {
    size_t got = fread(text, 1, sizeof text - 1, cf);
    text[got] = '\0';
    fclose(cf);
  }
  ic_cpuload_cpu_group(text, NULL, group, sizeof group, &root);
  int autogroup = 0;
  FILE *f = fopen("/proc/sys/kernel/sched_autogroup_enabled", "r");
  if (f) {
    if (fscanf(f, "%d", &autogroup) != 1) autogroup = 0;
    fclose(f);
  }
  if (niced_cores >= 0.4 && autogroup == 1) {
    ck_assert_msg(child_competes, "the niced child in another session held %.2f cores but was "
                                  "not judged to compete", niced_cores);
    ck_assert_msg(seen >= 600 && budget < n,
                  "a niced process in another session spun on %d CPUs and held %.2f cores: the "
                  "monitor saw others hold %d milli, budget %d of %d", n, niced_cores, seen,
                  budget, n);
  } else {
    /* The kernel made it yield (a cpu cgroup), or it has no autogroups: the competing case
     * cannot be made here. */
    fprintf(stderr,
            "load_monitor_counts_competing_niced: NOT EXERCISED here: the niced child in "
            "another session held %.2f cores (autogroups %s; cpu cgroup %s; judged %s)\n",
            niced_cores, autogroup == 1 ? "enabled but not in force" : "off", group,
            child_competes ? "competing" : "yielding");
  }
  ic_cpuload_free(m);
  /* The same in this process's own session and groups yields to it: not counted. */
  child = fork();
  ck_assert_int_ge(child, 0);
  if (child == 0) {
    if (setpriority(PRIO_PROCESS, 0, 19) != 0) _exit(1);
    volatile unsigned long spin = 0;
    for (;;) spin++;
  }
  struct timespec ts = {0, 50 * 1000 * 1000};
  nanosleep(&ts, NULL);
  bool competes = ic_cpuload_niced_competes(child);
  kill(child, SIGKILL);
  waitpid(child, NULL, 0);
  ck_assert_msg(!competes, "a niced process of this session was taken for a competitor");
}
END_TEST

/* The cpu task group from /proc/PID/cgroup: v1's cpu hierarchy path; on v2 the deepest
 * ancestor whose directory has cpu.weight (the root has none), else the root, where alone
 * autogroups apply. A fake cgroup2 tree in a temporary directory stands for the mount. */
START_TEST(load_monitor_cpu_group) {
  char dir[] = "/tmp/icore_cgXXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char path[256];
  snprintf(path, sizeof path, "%s/box", dir);
  ck_assert_int_eq(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/box/cpu.weight", dir);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("100\n", f);
  fclose(f);
  snprintf(path, sizeof path, "%s/box/inner", dir);
  ck_assert_int_eq(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/user", dir);
  ck_assert_int_eq(mkdir(path, 0700), 0);
  const struct {
    const char *text;
    bool mount;
    bool ok;
    const char *group;
    bool root;
  } cases[] = {
      {"0::/box/inner\n", true, true, "/box", false}, /* cpu on at /box: a container */
      {"0::/box\n", true, true, "/box", false},
      {"0::/user\n", true, true, "/", true}, /* no cpu controller on the way: the root */
      {"0::/\n", true, true, "/", true},
      {"0::/user\n", false, true, "/user", false}, /* no mount known: the path as it is */
      {"12:pids:/\n4:cpu,cpuacct:/docker/abc\n0::/\n", true, true, "/docker/abc", false},
      {"1:cpu:/\n2:cpuacct:/x\n0::/\n", true, true, "/", true},
      {"3:cpuacct:/x\n", true, false, "", false}, /* no cpu hierarchy and no v2 line */
      {"", true, false, "", false},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char group[512] = "";
    bool root = !cases[k].root;
    bool ok = ic_cpuload_cpu_group(cases[k].text, cases[k].mount ? dir : NULL, group,
                                   sizeof group, &root);
    ck_assert_msg(ok == cases[k].ok, "case %zu: ok %d", k, ok);
    if (!ok) continue;
    ck_assert_msg(!strcmp(group, cases[k].group) && root == cases[k].root,
                  "case %zu: group %s root %d, want %s root %d", k, group, root, cases[k].group,
                  cases[k].root);
  }
  snprintf(path, sizeof path, "%s/box/cpu.weight", dir);
  unlink(path);
  snprintf(path, sizeof path, "%s/box/inner", dir);
  rmdir(path);
  snprintf(path, sizeof path, "%s/box", dir);
  rmdir(path);
  snprintf(path, sizeof path, "%s/user", dir);
  rmdir(path);
  rmdir(dir);
}
END_TEST

/* Measured, not injected: a child process that spins on a core is seen within a few
 * windows, and the executor's budget drops below the CPUs. */
START_TEST(load_monitor_sees_a_busy_core) {
  ic_cpuload *m;
  ck_assert_int_eq(ic_cpuload_create(64, &m), IC_OK);
  ck_assert_ptr_nonnull(m);
  int n = ic_cpuload_cpus(m);
  pid_t child = fork();
  ck_assert_int_ge(child, 0);
  if (child == 0) {
    volatile unsigned long spin = 0;
    for (;;) spin++;
  }
  int seen = -1, budget = n;
  for (int k = 0; k < 300 && !(seen >= 600 && budget < n); k++) {
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
    budget = ic_cpuload_budget(m, n);
    seen = ic_cpuload_others_milli(m);
  }
  kill(child, SIGKILL);
  waitpid(child, NULL, 0);
  ck_assert_msg(seen >= 600 && budget < n, "others held %d milli, budget %d of %d CPUs", seen,
                budget, n);
  ic_cpuload_free(m);
}
END_TEST

/* A long instruction beside a short one (not alone in the plan) gets a team once its cost is
 * known: after the first run, the 3x3 convolution runs on the calling thread with both
 * threads, whichever thread reached it first (without the rule it ran with one: the pool
 * thread was busy with the short one when it started), and every run gives the same bits as
 * one thread. On a loaded machine the caller may give up waiting for the pool thread (300
 * us), so one run of five with a team is what is required. */
START_TEST(long_instruction_gets_a_team) {
  enum { C = 64, HW = 96 };
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 4, TU_DIMS(1, C, HW, HW));
  tu_var(b, "w", IC_FP32, 4, TU_DIMS(C, C, 3, 3));
  tu_var(b, "y", IC_FP32, 4, TU_DIMS(1, C, 1, 1));
  tu_var(b, "l", IC_FP32, 4, TU_DIMS(1, C, HW, HW));
  tu_var(b, "s", IC_FP32, 4, TU_DIMS(1, C, 1, 1));
  tu_var(b, "out", IC_FP32, 4, TU_DIMS(1, C, HW, HW));
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "w");
  ic_builder_feed(b, "y");
  ic_builder_op *op = ic_builder_add_op(b, 0, "conv2d");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "Filter", "w");
  ic_builder_out(op, "Output", "l");
  ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){1, 1});
  op = ic_builder_add_op(b, 0, "relu");
  ic_builder_in(op, "X", "y");
  ic_builder_out(op, "Out", "s");
  op = ic_builder_add_op(b, 0, "elementwise_add");
  ic_builder_in(op, "X", "l");
  ic_builder_in(op, "Y", "s");
  ic_builder_out(op, "Out", "out");
  ic_builder_attr_int(op, "axis", -1);
  ic_builder_fetch(b, "out");
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  ic_tensor *in[3] = {tu_rand_f32(4, TU_DIMS(1, C, HW, HW), 1, -1, 1),
                      tu_rand_f32(4, TU_DIMS(C, C, 3, 3), 2, -0.1f, 0.1f),
                      tu_rand_f32(4, TU_DIMS(1, C, 1, 1), 3, -1, 1)};
  ic_options o;
  ic_options_default(&o);
  o.fuse = false; /* the add stays an instruction of its own */
  o.threads = 1;
  ic_executor *e1;
  ck_assert_int_eq(ic_executor_create(&o, &e1), IC_OK);
  ic_tensor *ref = NULL;
  ck_assert_int_eq(ic_executor_run(e1, p, NULL, 3, TU_NAMES("x", "w", "y"),
                                   (const ic_tensor *const *)in, 1, TU_NAMES("out"), &ref),
                   IC_OK);
  ic_executor_destroy(e1);
  o.threads = 2;
  o.profile = true;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  ck_assert_msg(ic_executor_inject_load(e, 0), "a 2-thread executor has no monitor");
  const ic_plan *pl = NULL;
  int teamed = 0;
  uint32_t last_thread = 0, last_threads = 0;
  for (int run = 0; run < 6; run++) {
    ic_tensor *got = NULL;
    ck_assert_int_eq(ic_executor_run(e, p, NULL, 3, TU_NAMES("x", "w", "y"),
                                     (const ic_tensor *const *)in, 1, TU_NAMES("out"), &got),
                     IC_OK);
    tu_assert_bitwise(got, ref, "2 threads against 1");
    ic_tensor_destroy(got);
    pl = ic_executor_last_plan(e);
    if (run == 0) continue;
    size_t conv = SIZE_MAX;
    for (size_t i = 0; i < pl->n_instrs; i++) {
      if (!strcmp(pl->instrs[i].op->type, "conv2d")) conv = i;
    }
    ck_assert_uint_ne(conv, SIZE_MAX);
    ck_assert_msg(!pl->instrs[conv].alone, "the convolution runs alone in this plan");
    teamed += e->spans[conv].thread == 0 && e->spans[conv].threads == 2;
    last_thread = e->spans[conv].thread;
    last_threads = e->spans[conv].threads;
  }
  ck_assert_msg(teamed >= 1, "the convolution never got a team of 2 in runs 2-6 (last: thread %u, "
                "%u threads)", last_thread, last_threads);
  ic_executor_destroy(e);
  for (int k = 0; k < 3; k++) ic_tensor_destroy(in[k]);
  ic_tensor_destroy(ref);
  ic_program_destroy(p);
}
END_TEST

/* A thread goes on with the taller of two newly ready successors and runs a quick one (a
 * shape op) itself first, instead of waking a pool thread for it: from the second run on
 * (when the shape op's time is known), tanh's thread runs the shape op, sigmoid and exp,
 * at 2 threads as at 1 (run_chain). Again with quick_ns 0, as on a machine where every
 * measurement comes out slow (shape took 0.8-1.7 us of the 2 under ThreadSanitizer here):
 * shape reads no data, so it stays quick. */
START_TEST(side_ops_stay_on_the_chain) {
  ic_builder *b = ic_builder_create();
  const int64_t n = 1 << 16;
  tu_var(b, "x", IC_FP32, 1, (const int64_t[]){n});
  tu_var(b, "t", IC_FP32, 1, (const int64_t[]){n});
  tu_var(b, "m", IC_FP32, 1, (const int64_t[]){n});
  tu_var(b, "y", IC_FP32, 1, (const int64_t[]){n});
  tu_var(b, "sh", IC_INT32, 1, (const int64_t[]){1});
  ic_builder_feed(b, "x");
  static const char *const chain[][3] = {{"tanh", "x", "t"}, {"shape", "t", "sh"},
                                         {"sigmoid", "t", "m"}, {"exp", "m", "y"}};
  for (size_t k = 0; k < 4; k++) {
    ic_builder_op *op = ic_builder_add_op(b, 0, chain[k][0]);
    ic_builder_in(op, k == 1 ? "Input" : "X", chain[k][1]);
    ic_builder_out(op, "Out", chain[k][2]);
  }
  ic_builder_fetch(b, "y");
  ic_builder_fetch(b, "sh");
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  ic_tensor *x = ramp(n);
  for (int k = 0; k < 4; k++) {
    const int threads = 1 + k % 2;
    const bool slow = k >= 2;
    ic_options o;
    ic_options_default(&o);
    o.threads = threads;
    o.profile = true;
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    if (slow) e->quick_ns = 0;
    for (int run = 0; run < 5; run++) {
      ic_tensor *got[2] = {NULL, NULL};
      ck_assert_int_eq(ic_executor_run(e, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x,
                                       2, TU_NAMES("y", "sh"), got),
                       IC_OK);
      ck_assert_int_eq(((const int32_t *)ic_tensor_cdata(got[1]))[0], (int32_t)n);
      ic_tensor_destroy(got[0]);
      ic_tensor_destroy(got[1]);
      if (run == 0) continue;
      const ic_plan *pl = ic_executor_last_plan(e);
      size_t at[4] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX};
      for (size_t i = 0; i < pl->n_instrs; i++) {
        for (size_t j = 0; j < 4; j++) {
          if (!strcmp(pl->instrs[i].op->type, chain[j][0])) at[j] = i;
        }
      }
      for (size_t j = 0; j < 4; j++) ck_assert_uint_ne(at[j], SIZE_MAX);
      ck_assert(pl->instrs[at[2]].height > pl->instrs[at[1]].height);
      for (size_t j = 1; j < 4; j++) {
        ck_assert_msg(e->spans[at[j]].thread == e->spans[at[0]].thread,
                      "%d threads%s, run %d: %s ran on thread %u, tanh on %u", threads,
                      slow ? " (quick_ns 0)" : "", run + 1, chain[j][0], e->spans[at[j]].thread,
                      e->spans[at[0]].thread);
      }
    }
    ic_executor_destroy(e);
  }
  ic_tensor_destroy(x);
  ic_program_destroy(p);
}
END_TEST

/* Instructions whose outputs are kept across runs (ic_fold_bn: a convolution's weights
 * with the batch_norm folded in; here 590,000 weights, well over IC_QUICK_NS to fold) only
 * check their sources once warm: they count as quick, and the calling thread runs them
 * itself at the start of a run instead of waking a pool thread for them (their first
 * run's time had kept them on the heap, and a futex wake-up plus the contended lock cost
 * 20-45 us per MobileNetV2 run). */
START_TEST(cached_roots_run_on_the_caller) {
  ic_builder *b = ic_builder_create();
  const char *act[3] = {"x", "c0", "c1"}, *bn[2] = {"b0", "b1"};
  tu_var(b, "x", IC_FP32, 4, (const int64_t[]){1, 256, 4, 4});
  ic_builder_feed(b, "x");
  for (int l = 0; l < 2; l++) {
    char w[8], nm[4][16];
    snprintf(w, sizeof w, "w%d", l);
    ic_builder_var(b, 0, w, IC_FP32, 4, (const int64_t[]){256, 256, 3, 3}, true);
    tu_var(b, act[l + 1], IC_FP32, 4, (const int64_t[]){1, 256, 4, 4});
    tu_var(b, bn[l], IC_FP32, 4, (const int64_t[]){1, 256, 4, 4});
    ic_builder_op *op = ic_builder_add_op(b, 0, "conv2d");
    ic_builder_in(op, "Input", act[l]);
    ic_builder_in(op, "Filter", w);
    ic_builder_out(op, "Output", bn[l]);
    ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){1, 1});
    ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){1, 1});
    ic_builder_attr_ints(op, "dilations", 2, (const int32_t[]){1, 1});
    ic_builder_attr_int(op, "groups", 1);
    op = ic_builder_add_op(b, 0, "batch_norm");
    static const char *const slot[4] = {"Scale", "Bias", "Mean", "Variance"};
    for (int k = 0; k < 4; k++) {
      snprintf(nm[k], sizeof nm[k], "bn%d_%s", l, slot[k]);
      ic_builder_var(b, 0, nm[k], IC_FP32, 1, (const int64_t[]){256}, true);
      ic_builder_in(op, slot[k], nm[k]);
    }
    ic_builder_in(op, "X", bn[l]);
    ic_builder_out(op, "Y", act[l + 1]);
    ic_builder_out(op, "MeanOut", nm[2]);
    ic_builder_out(op, "VarianceOut", nm[3]);
    ic_builder_attr_bool(op, "is_test", true);
    ic_builder_attr_float(op, "epsilon", 1e-5f);
  }
  ic_builder_fetch(b, "c1");
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  ic_scope *params;
  ck_assert_int_eq(ic_scope_create(NULL, &params), IC_OK);
  ck_assert_msg(ic_params_random(p, 3, params, err, sizeof err) == IC_OK, "%s", err);
  ic_tensor *x = tu_rand_f32(4, (const int64_t[]){1, 256, 4, 4}, 7, -1, 1);
  ic_options o;
  ic_options_default(&o);
  o.threads = 2;
  o.profile = true;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  for (int run = 0; run < 8; run++) {
    ic_tensor *got = NULL;
    ck_assert_int_eq(ic_executor_run(e, p, params, 1, TU_NAMES("x"), (const ic_tensor *const *)&x,
                                     1, TU_NAMES("c1"), &got),
                     IC_OK);
    ic_tensor_destroy(got);
    if (run < 2) continue; /* the first folds; the second finds them quick */
    const ic_plan *pl = ic_executor_last_plan(e);
    size_t folds = 0;
    for (size_t i = 0; i < pl->n_instrs; i++) {
      if (strcmp(pl->instrs[i].op->type, "ic_fold_bn")) continue;
      folds++;
      ck_assert_msg(e->spans[i].end_ns && e->spans[i].thread == 0,
                    "run %d: ic_fold_bn #%zu ran on thread %u, not the caller", run + 1, i,
                    e->spans[i].thread);
    }
    ck_assert_uint_eq(folds, 2);
  }
  ic_executor_destroy(e);
  ic_tensor_destroy(x);
  ic_scope_destroy(params);
  ic_program_destroy(p);
}
END_TEST

/* The largest thread count any kernel of the last profiled run was given. */
static uint32_t max_kernel_threads(const ic_executor *e) {
  uint32_t m = 0;
  for (size_t i = 0; i < e->n_spans; i++) {
    if (e->spans[i].end_ns && e->spans[i].threads > m) m = e->spans[i].threads;
  }
  return m;
}

/* Kernels' OpenMP teams follow the cores other processes leave free (interp/cpuload.c): a
 * 2-thread executor whose monitor is told the others hold all cores but one gives no kernel
 * more than one thread; told the machine is quiet, the instructions that run alone get
 * both, and only on the calling thread (pool threads hand them over); values are bitwise
 * equal either way, and back again after the others leave; while another run of the process
 * is in progress, each gets half the CPUs. Where no monitor can run (one thread) the
 * executor leaves OpenMP alone. */
START_TEST(kernel_threads_follow_free_cores) {
  ic_options o;
  ic_options_default(&o);
  o.profile = true;
  ic_program *p = branches(1, 6, 4096);
  ic_tensor *x = ramp(4096);
  for (int serial = 0; serial < 2; serial++) {
    o.threads = 2;
    o.serial = serial;
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ck_assert_msg(ic_executor_inject_load(e, 0), "a 2-thread executor on %ld CPUs has no monitor",
                  sysconf(_SC_NPROCESSORS_ONLN));
    ck_assert_ptr_null(e->omp_ballast);
    ic_tensor *quiet = NULL, *busy = NULL, *after = NULL;
    ck_assert_int_eq(ic_executor_run(e, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x,
                                     1, TU_NAMES("out"), &quiet),
                     IC_OK);
    ck_assert_uint_eq(max_kernel_threads(e), 2);
    /* OpenMP teams only from the calling thread: a pool thread's kernels run alone. */
    for (size_t i = 0; i < e->n_spans; i++) {
      if (e->spans[i].end_ns && e->spans[i].thread != 0) {
        ck_assert_msg(e->spans[i].threads == 1, "instr %zu on pool thread %u got %u threads", i,
                      e->spans[i].thread, e->spans[i].threads);
      }
    }
    ic_executor_inject_load(e, 1000000);
    ck_assert_int_eq(ic_executor_run(e, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x,
                                     1, TU_NAMES("out"), &busy),
                     IC_OK);
    ck_assert_uint_eq(max_kernel_threads(e), 1);
    tu_assert_bitwise(busy, quiet, serial ? "serial, others busy" : "pool, others busy");
    ic_executor_inject_load(e, 0);
    ck_assert_int_eq(ic_executor_run(e, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x,
                                     1, TU_NAMES("out"), &after),
                     IC_OK);
    ck_assert_uint_eq(max_kernel_threads(e), 2);
    tu_assert_bitwise(after, quiet, "quiet again");
    /* Another run of this process in progress: each gets its share of the CPUs. */
    ic_tensor *shared = NULL;
    ic_cpuload_enter();
    ck_assert_int_eq(ic_executor_run(e, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x,
                                     1, TU_NAMES("out"), &shared),
                     IC_OK);
    ic_cpuload_leave();
    ic_cpuload *m;
    ck_assert_int_eq(ic_cpuload_create(2, &m), IC_OK);
    int half = ic_cpuload_cpus(m) / 2;
    ic_cpuload_free(m);
    ck_assert_uint_eq(max_kernel_threads(e), half < 1 ? 1 : half > 2 ? 2 : half);
    tu_assert_bitwise(shared, quiet, "another run in progress");
    ic_tensor_destroy(shared);
    ic_tensor_destroy(quiet);
    ic_tensor_destroy(busy);
    ic_tensor_destroy(after);
    ic_executor_destroy(e);
  }
  o.threads = 1;
  o.serial = false;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  ck_assert(!ic_executor_inject_load(e, 0));
  ck_assert_ptr_null(e->omp_ballast);
  ic_executor_destroy(e);
  ic_tensor_destroy(x);
  ic_program_destroy(p);
}
END_TEST

/* ic_tensor_wrap: a run reads the caller's memory in place and never writes it. The memory
 * is a read-only mapping (a write by any kernel, executor or holder would fault), the same
 * wrapped tensor run twice with the memory changed in between gives the new results (the run
 * reads it at run time, no copy taken at wrap time), a fetch of the fed variable itself is a
 * copy (the caller's memory does not escape into outputs), and release is called once, by
 * ic_tensor_destroy. */
typedef struct borrow_ctx {
  int releases;
} borrow_ctx;

static void count_release(void *ctx) { ((borrow_ctx *)ctx)->releases++; }

START_TEST(borrowed_feeds_read_in_place) {
  /* y = relu(x) + w; v = reshape2(x) viewed 1-D; z = tanh(y); fetch y, z, x and v. */
  ic_builder *b = ic_builder_create();
  const int64_t d[1] = {5}, d2[2] = {5, 1};
  tu_var(b, "x", IC_FP32, 1, d);
  tu_var(b, "r", IC_FP32, 1, d);
  tu_var(b, "y", IC_FP32, 1, d);
  tu_var(b, "z", IC_FP32, 1, d);
  tu_var(b, "v", IC_FP32, 2, d2);
  tu_var(b, "xs", IC_INT64, 1, (const int64_t[]){0});
  ic_builder_var(b, 0, "w", IC_FP32, 1, d, true);
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "relu");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "r");
  op = ic_builder_add_op(b, 0, "elementwise_add");
  ic_builder_in(op, "X", "r");
  ic_builder_in(op, "Y", "w");
  ic_builder_out(op, "Out", "y");
  op = ic_builder_add_op(b, 0, "tanh");
  ic_builder_in(op, "X", "y");
  ic_builder_out(op, "Out", "z");
  op = ic_builder_add_op(b, 0, "reshape2");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "v");
  ic_builder_out(op, "XShape", "xs");
  ic_builder_attr_ints(op, "shape", 2, (const int32_t[]){5, 1});
  ic_builder_fetch(b, "y");
  ic_builder_fetch(b, "z");
  ic_builder_fetch(b, "x");
  ic_builder_fetch(b, "v");
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  ic_tensor *w = tu_f32(1, d, (const float[]){1, 2, 3, 4, 5});
  ck_assert_int_eq(ic_scope_set(s, "w", w), IC_OK);

  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  float *mem = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(mem, MAP_FAILED);
  const float first[5] = {-1, 0, 1, 2, -3}, second[5] = {3, -2, 0.5f, -1, 1};
  memcpy(mem, first, sizeof first);
  borrow_ctx bc = {0};
  ic_tensor *x;
  ck_assert_int_eq(ic_tensor_wrap(IC_FP32, 1, d, mem, count_release, &bc, &x), IC_OK);
  ck_assert_ptr_eq(ic_tensor_cdata(x), mem);
  ck_assert_int_eq(ic_tensor_dtype(x), IC_FP32);
  ck_assert_int_eq(ic_tensor_numel(x), 5);
  ck_assert_int_eq(mprotect(mem, page, PROT_READ), 0);
  for (int round = 0; round < 2; round++) {
    const float *xv = round ? second : first;
    double ye[5], ze[5], xe[5];
    for (int i = 0; i < 5; i++) {
      xe[i] = xv[i];
      ye[i] = (xv[i] > 0 ? xv[i] : 0) + (i + 1);
      ze[i] = tanhf((float)ye[i]);
    }
    for (size_t c = 0; c < N_CFGS; c++) {
      ic_executor *e = make_exec(&k_cfgs[c], true);
      ic_executor_poison_freed(e, true);
      for (int rep = 0; rep < 2; rep++) {
        ic_tensor *out[4];
        ck_assert_msg(ic_executor_run(e, p, s, 1, TU_NAMES("x"), (const ic_tensor *const *)&x, 4,
                                      TU_NAMES("y", "z", "x", "v"), out) == IC_OK,
                      "%s: %s", k_cfgs[c].name, ic_executor_errmsg(e));
        tu_assert_close(out[0], ye, 5, 0, 0);
        tu_assert_close(out[1], ze, 5, 1e-6, 0);
        tu_assert_close(out[2], xe, 5, 0, 0);
        tu_assert_close(out[3], xe, 5, 0, 0);
        /* fetches of the fed memory (itself, a reshape sharing it) are copies */
        ck_assert_ptr_ne(ic_tensor_cdata(out[2]), mem);
        ck_assert_ptr_ne(ic_tensor_cdata(out[3]), mem);
        for (int k = 0; k < 4; k++) ic_tensor_destroy(out[k]);
        ck_assert_int_eq(bc.releases, 0);
      }
      ic_executor_destroy(e);
      ck_assert_int_eq(bc.releases, 0);
    }
    /* the caller changes its memory between runs: the same wrapped tensor reads the change */
    ck_assert_int_eq(mprotect(mem, page, PROT_READ | PROT_WRITE), 0);
    memcpy(mem, second, sizeof second);
    ck_assert_int_eq(mprotect(mem, page, PROT_READ), 0);
  }
  /* a clone owns a copy; LoD can be set on a wrapped tensor */
  ic_tensor *cl;
  ck_assert_int_eq(ic_tensor_clone(x, &cl), IC_OK);
  ck_assert_ptr_ne(ic_tensor_cdata(cl), mem);
  tu_assert_bitwise(cl, x, "clone of a wrapped tensor");
  ic_tensor_destroy(cl);
  ck_assert_int_eq(ic_tensor_set_lod(x, 1, (const size_t[]){3}, (const uint64_t *const[]){
                                         (const uint64_t[]){0, 2, 5}}), IC_OK);
  ck_assert_int_eq(ic_tensor_lod_levels(x), 1);
  ck_assert_int_eq(bc.releases, 0);
  ic_tensor_destroy(x);
  ck_assert_int_eq(bc.releases, 1);
  ck_assert_int_eq(munmap(mem, page), 0);

  /* misuse: misaligned or missing memory, bad dims; release is never called on failure */
  char raw[64];
  ic_tensor *bad = (ic_tensor *)1;
  ck_assert_int_eq(ic_tensor_wrap(IC_FP32, 1, d, raw + 1, count_release, &bc, &bad),
                   IC_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_null(bad);
  ck_assert_int_eq(ic_tensor_wrap(IC_FP32, 1, d, NULL, count_release, &bc, &bad),
                   IC_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(ic_tensor_wrap(IC_FP32, 1, (const int64_t[]){-1}, raw, count_release, &bc, &bad),
                   IC_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(bc.releases, 1);
  /* an empty wrapped tensor, without memory, and without a release function */
  ck_assert_int_eq(ic_tensor_wrap(IC_INT64, 1, (const int64_t[]){0}, NULL, NULL, NULL, &bad), IC_OK);
  ck_assert_int_eq(ic_tensor_nbytes(bad), 0);
  ic_tensor_destroy(bad);

  ic_tensor_destroy(w);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  ic_builder_destroy(b);
}
END_TEST

/* Plan descriptions: the DAG's edges add up to the stats, roots have no predecessors, every
 * variable's lifetime lies inside the plan, and after a run the variables carry the shapes
 * the run gave them; an emulated device plan shows streams. */
/* options.prune: fetching y runs only y's producers and the op writing the persistable p;
 * the op after y has no kernel (no_such_op), a dead op would fail at run time (x + q of
 * shapes [4] and [3]), and the feed target w, read only by another dead op, is not given.
 * Without prune the same fetch fails naming no_such_op. */
START_TEST(prune_to_the_fetches) {
  ic_builder *b = ic_builder_create();
  const int64_t d4[1] = {4}, d3[1] = {3};
  tu_var(b, "x", IC_FP32, 1, d4);
  tu_var(b, "r", IC_FP32, 1, d4);
  tu_var(b, "y", IC_FP32, 1, d4);
  tu_var(b, "z", IC_FP32, 1, d4);
  tu_var(b, "u", IC_FP32, 1, d4);
  tu_var(b, "dead", IC_FP32, 1, d4);
  tu_var(b, "w", IC_FP32, 1, d4);
  tu_var(b, "dead2", IC_FP32, 1, d4);
  ic_builder_var(b, 0, "p", IC_FP32, 1, d4, true);
  ic_builder_var(b, 0, "q", IC_FP32, 1, d3, true);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "w");
  ic_builder_op *op = ic_builder_add_op(b, 0, "relu");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "r");
  op = ic_builder_add_op(b, 0, "tanh");
  ic_builder_in(op, "X", "w");
  ic_builder_out(op, "Out", "dead2");
  op = ic_builder_add_op(b, 0, "elementwise_add");
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Y", "q");
  ic_builder_out(op, "Out", "dead");
  op = ic_builder_add_op(b, 0, "scale");
  ic_builder_in(op, "X", "r");
  ic_builder_out(op, "Out", "y");
  ic_builder_attr_float(op, "scale", 2.0f);
  op = ic_builder_add_op(b, 0, "scale");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "p");
  ic_builder_attr_float(op, "scale", 3.0f);
  op = ic_builder_add_op(b, 0, "no_such_op");
  ic_builder_in(op, "X", "y");
  ic_builder_out(op, "Out", "z");
  op = ic_builder_add_op(b, 0, "tanh");
  ic_builder_in(op, "X", "z");
  ic_builder_out(op, "Out", "u");
  ic_builder_fetch(b, "u");
  ic_program *p;
  char berr[512];
  ck_assert_msg(ic_builder_build(b, &p, berr, sizeof berr) == IC_OK, "%s", berr);
  ic_tensor *x = tu_f32(1, d4, (const float[]){-1, 0.5f, 2, -3});
  ic_tensor *q = tu_f32(1, d3, (const float[]){1, 2, 3});
  for (size_t c = 0; c < N_CFGS; c++) {
    for (int prune = 0; prune < 2; prune++) {
      ic_options o;
      ic_options_default(&o);
      o.mode = k_cfgs[c].mode;
      o.threads = k_cfgs[c].threads;
      o.serial = k_cfgs[c].serial;
      o.prune = prune;
      ic_executor *e;
      ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
      ic_scope *s;
      ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
      ck_assert_int_eq(ic_scope_set(s, "q", q), IC_OK);
      ic_tensor *out = NULL;
      ic_status st = ic_executor_run(e, p, s, 1, TU_NAMES("x"), (const ic_tensor *const *)&x, 1,
                                     TU_NAMES("y"), &out);
      if (!prune) {
        ck_assert_msg(st != IC_OK, "%s: ran an op without a kernel", k_cfgs[c].name);
        ck_assert_msg(strstr(ic_executor_errmsg(e), "no_such_op") != NULL, "%s: %s",
                      k_cfgs[c].name, ic_executor_errmsg(e));
      } else {
        ck_assert_msg(st == IC_OK, "%s: %s", k_cfgs[c].name, ic_executor_errmsg(e));
        tu_assert_close(out, (const double[]){0, 1, 4, 0}, 4, 0, 0);
        tu_assert_close(ic_scope_get(s, "p"), (const double[]){-3, 1.5, 6, -9}, 4, 0, 0);
        ck_assert_ptr_null(ic_scope_get(s, "dead"));
        ic_tensor_destroy(out);
        /* the program's own fetch target still needs no_such_op */
        ck_assert_int_ne(ic_executor_run(e, p, s, 1, TU_NAMES("x"), (const ic_tensor *const *)&x,
                                         1, TU_NAMES("u"), &out),
                         IC_OK);
      }
      ic_scope_destroy(s);
      ic_executor_destroy(e);
    }
  }
  ic_tensor_destroy(x);
  ic_tensor_destroy(q);
  ic_program_destroy(p);
  ic_builder_destroy(b);

  /* A random op keyed by its place in the program draws the same values whether the ops
   * before it run or are pruned, in every configuration. */
  b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 1, d4);
  tu_var(b, "d", IC_FP32, 1, d4);
  tu_var(b, "rnd", IC_FP32, 1, d4);
  ic_builder_feed(b, "x");
  for (int k = 0; k < 3; k++) {
    op = ic_builder_add_op(b, 0, "relu");
    ic_builder_in(op, "X", "x");
    ic_builder_out(op, "Out", "d");
  }
  op = ic_builder_add_op(b, 0, "uniform_random");
  ic_builder_out(op, "Out", "rnd");
  ic_builder_attr_longs(op, "shape", 1, d4);
  ic_builder_attr_int(op, "seed", 0);
  ic_builder_fetch(b, "d");
  ck_assert_msg(ic_builder_build(b, &p, berr, sizeof berr) == IC_OK, "%s", berr);
  x = tu_f32(1, d4, (const float[]){-1, 0.5f, 2, -3});
  ic_tensor *ref = NULL;
  for (size_t c = 0; c < N_CFGS; c++) {
    for (int prune = 0; prune < 2; prune++) {
      ic_options o;
      ic_options_default(&o);
      o.mode = k_cfgs[c].mode;
      o.threads = k_cfgs[c].threads;
      o.serial = k_cfgs[c].serial;
      o.prune = prune;
      o.seed = 11;
      ic_executor *e;
      ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
      ic_tensor *out = NULL;
      ck_assert_msg(ic_executor_run(e, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x, 1,
                                    TU_NAMES("rnd"), &out) == IC_OK,
                    "%s", ic_executor_errmsg(e));
      if (!ref) ref = out;
      else {
        tu_assert_bitwise(out, ref, prune ? "pruned draw" : "draw");
        ic_tensor_destroy(out);
      }
      ic_executor_destroy(e);
    }
  }
  ic_tensor_destroy(ref);
  ic_tensor_destroy(x);
  ic_program_destroy(p);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(plan_descriptions_are_consistent) {
  ic_program *p = branches(3, 4, 16);
  char err[1024];
  ic_plan_desc *d;
  ck_assert_msg(ic_plan_describe(p, NULL, 0, NULL, 0, NULL, &d, err, sizeof err) == IC_OK, "%s", err);
  ck_assert(!d->ran);
  ck_assert_str_eq(d->place, "cpu");
  size_t edges = 0, preds = 0, scale = 0;
  for (size_t i = 0; i < d->n_instrs; i++) {
    const ic_plan_instr_desc *in = &d->instrs[i];
    edges += in->n_succ;
    preds += in->n_preds;
    scale += !strcmp(in->op_type, "scale");
    ck_assert_str_eq(in->where, "host");
    ck_assert_int_eq(in->stream, -1);
    for (uint32_t k = 0; k < in->n_succ; k++) {
      ck_assert_uint_gt(in->succ[k], i); /* program order is a topological order */
      ck_assert_uint_lt(in->succ[k], d->n_instrs);
      ck_assert(in->succ_kind[k] & (IC_PLAN_EDGE_DATA | IC_PLAN_EDGE_IMPLICIT));
    }
    for (uint32_t k = 0; k < in->n_inputs; k++) ck_assert_uint_lt(in->inputs[k], d->n_vars);
    for (uint32_t k = 0; k < in->n_outputs; k++) ck_assert_uint_lt(in->outputs[k], d->n_vars);
  }
  ck_assert_uint_eq(scale, 6); /* 3 branches of scale, tanh, scale, tanh */
  ck_assert_uint_eq(edges, d->edges);
  ck_assert_uint_eq(preds, d->edges);
  ck_assert_uint_ge(d->edges_before_pruning, d->edges);
  ck_assert_uint_ge(d->critical_path, 4);
  ck_assert_uint_ge(d->max_width, 3);
  ck_assert_uint_gt(d->n_roots, 0);
  for (size_t r = 0; r < d->n_roots; r++) ck_assert_uint_eq(d->instrs[d->roots[r]].n_preds, 0);
  bool saw_out = false;
  for (size_t v = 0; v < d->n_vars; v++) {
    const ic_plan_var_desc *pv = &d->vars[v];
    ck_assert(!pv->has_meta);
    ck_assert_int_lt(pv->last_use, (int32_t)d->n_instrs);
    if (pv->first_write >= 0 && pv->last_use >= 0) ck_assert_int_le(pv->first_write, pv->last_use);
    if (!strcmp(pv->name, "out")) saw_out = pv->kept;
  }
  ck_assert(saw_out);
  ic_plan_desc_destroy(d);

  /* after a run: shapes */
  ic_executor *e = make_exec(&k_cfgs[1], true);
  ck_assert_int_eq(ic_executor_describe_last(e, &d), IC_ERR_NOT_FOUND);
  ic_tensor *x = ramp(16), *out;
  ck_assert_int_eq(ic_executor_run(e, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x, 1,
                                   TU_NAMES("out"), &out), IC_OK);
  ck_assert_int_eq(ic_executor_describe_last(e, &d), IC_OK);
  ck_assert(d->ran);
  ck_assert_uint_gt(d->peak_bytes, 0);
  size_t with_meta = 0;
  for (size_t v = 0; v < d->n_vars; v++) {
    const ic_plan_var_desc *pv = &d->vars[v];
    if (!pv->has_meta) continue;
    with_meta++;
    ck_assert_int_eq(pv->dtype, IC_FP32);
    ck_assert_int_eq(pv->ndim, 1);
    ck_assert_int_eq(pv->dims[0], 16);
    ck_assert_str_eq(pv->layout, "plain");
  }
  ck_assert_uint_ge(with_meta, 14); /* x, 12 branch values, out */
  ic_plan_desc_destroy(d);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  ic_executor_destroy(e);

  /* an emulated device: streams and events */
  ic_options o;
  ic_options_default(&o);
  ck_assert_int_eq(ic_place_parse("emu:0", &o.device), IC_OK);
  ck_assert_msg(ic_plan_describe(p, &o, 1, TU_NAMES("x"), 1, TU_NAMES("out"), &d, err, sizeof err) == IC_OK,
                "%s", err);
  ck_assert_str_eq(d->place, "emu:0");
  ck_assert_uint_ge(d->n_streams, 1);
  size_t on_stream = 0;
  for (size_t i = 0; i < d->n_instrs; i++) on_stream += d->instrs[i].stream >= 0;
  ck_assert_uint_gt(on_stream, 0);
  ic_plan_desc_destroy(d);
  /* errors name what is wrong */
  ck_assert_int_ne(ic_plan_describe(p, NULL, 0, NULL, 1, TU_NAMES("nope"), &d, err, sizeof err), IC_OK);
  ck_assert_ptr_null(d);
  ck_assert_msg(strstr(err, "nope") != NULL, "%s", err);
  ic_program_destroy(p);
}
END_TEST

static TCase *tc_exec(void) {
  TCase *tc = tcase_create("executor");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, failure_at_every_position);
  tcase_add_test(tc, results_agree_across_threads);
  tcase_add_test(tc, cache_hits_misses_eviction);
  tcase_add_test(tc, gc_peak_is_largest_live_set);
  tcase_add_test(tc, keeps_params_feeds_fetches);
  tcase_add_test(tc, missing_parameter_is_named);
  tcase_add_test(tc, scope_lookups_follow_the_scope);
  tcase_add_test(tc, profile_is_written);
  tcase_add_test(tc, side_ops_stay_on_the_chain);
  tcase_add_test(tc, cached_roots_run_on_the_caller);
  tcase_add_test(tc, kernel_threads_follow_free_cores);
  tcase_add_test(tc, long_instruction_gets_a_team);
  tcase_add_test(tc, load_monitor_decides);
  tcase_add_test(tc, load_monitor_sees_a_busy_core);
  tcase_add_test(tc, load_monitor_counts_competing_niced);
  tcase_add_test(tc, load_monitor_cpu_group);
  tcase_add_test(tc, borrowed_feeds_read_in_place);
  tcase_add_test(tc, plan_descriptions_are_consistent);
  tcase_add_test(tc, prune_to_the_fetches);
  return tc;
}

TU_MAIN("interp", tc_exec)
