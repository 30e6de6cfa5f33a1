/* Differential stress: random programs over a small pool of variables, with many reads,
 * overwrites, in-place writes (an op writing a variable it reads) and buffer-sharing ops,
 * run uncompiled and compiled with 1, 2, 4 and 16 threads, and pruned to the fetches (both
 * executors), several times each, with freed buffers poisoned: every configuration must give
 * bitwise-equal fetches. A missing
 * dependency edge or an early free shows up as a different value. Label "scheduler": the
 * test command also runs it under ThreadSanitizer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp/interp.h"
#include "testutil.h"

/* ICORE_STRESS_PROGRAMS overrides the count (the sanitizer builds use fewer). */
static int program_count(void) {
  const char *v = getenv("ICORE_STRESS_PROGRAMS");
  int n = v ? atoi(v) : 0;
  return n > 0 ? n : 1000;
}

typedef struct rng {
  uint64_t s;
} rng;

static uint64_t next(rng *r) {
  r->s ^= r->s << 13;
  r->s ^= r->s >> 7;
  r->s ^= r->s << 17;
  return r->s;
}

static int below(rng *r, int n) { return (int)(next(r) % (uint64_t)n); }

#define LEN 6

/* Build a random program: nv variables of [LEN] floats, all fed, then n_ops random ops. */
static ic_program *random_program(uint64_t seed, int n_ops, int nv, int *n_fetch,
                                  const char ***fetches) {
  rng r = {seed * 0x9E3779B97F4A7C15ull + 12345};
  ic_builder *b = ic_builder_create();
  static char names[64][16];
  static const char *fetch_list[64];
  const int64_t d[1] = {LEN}, d2[2] = {2, LEN / 2};
  for (int v = 0; v < nv; v++) {
    snprintf(names[v], sizeof names[v], "v%d", v);
    tu_var(b, names[v], IC_FP32, 1, d);
  }
  tu_var(b, "m", IC_FP32, 2, d2);
  tu_var(b, "xs", IC_FP32, 2, (const int64_t[]){0, LEN});
  for (int v = 0; v < nv; v++) ic_builder_feed(b, names[v]);
  for (int i = 0; i < n_ops; i++) {
    const char *x = names[below(&r, nv)], *y = names[below(&r, nv)], *out = names[below(&r, nv)];
    ic_builder_op *op;
    switch (below(&r, 10)) {
      case 0: case 1: { /* binary, often in place (out == x) */
        static const char *const bin[] = {"elementwise_add", "elementwise_sub", "elementwise_mul",
                                          "elementwise_max"};
        op = ic_builder_add_op(b, 0, bin[below(&r, 4)]);
        ic_builder_in(op, "X", x);
        ic_builder_in(op, "Y", y);
        ic_builder_out(op, "Out", below(&r, 3) == 0 ? x : out);
        break;
      }
      case 2: case 3:
        op = ic_builder_add_op(b, 0, "scale");
        ic_builder_in(op, "X", x);
        ic_builder_out(op, "Out", below(&r, 3) == 0 ? x : out);
        ic_builder_attr_float(op, "scale", (float)(below(&r, 7) - 3) * 0.5f);
        ic_builder_attr_float(op, "bias", (float)below(&r, 5) * 0.25f);
        break;
      case 4: {
        static const char *const un[] = {"tanh", "relu", "sigmoid", "abs"};
        op = ic_builder_add_op(b, 0, un[below(&r, 4)]);
        ic_builder_in(op, "X", x);
        ic_builder_out(op, "Out", out);
        break;
      }
      case 5: /* shares its input's buffer */
        op = ic_builder_add_op(b, 0, "assign");
        ic_builder_in(op, "X", x);
        ic_builder_out(op, "Out", out);
        break;
      case 6: { /* reshape there and back: both outputs share the buffer */
        op = ic_builder_add_op(b, 0, "reshape2");
        ic_builder_in(op, "X", x);
        ic_builder_out(op, "Out", "m");
        ic_builder_out(op, "XShape", "xs");
        ic_builder_attr_ints(op, "shape", 2, (const int32_t[]){2, -1});
        op = ic_builder_add_op(b, 0, "reshape2");
        ic_builder_in(op, "X", "m");
        ic_builder_out(op, "Out", out);
        ic_builder_out(op, "XShape", "xs");
        ic_builder_attr_ints(op, "shape", 1, (const int32_t[]){LEN});
        break;
      }
      case 7: { /* many readers at once */
        const char *ins[3] = {x, y, names[below(&r, nv)]};
        op = ic_builder_add_op(b, 0, "sum");
        ic_builder_input(op, "X", 3, ins);
        ic_builder_out(op, "Out", out);
        break;
      }
      case 8: /* random: same values at any thread count */
        op = ic_builder_add_op(b, 0, "uniform_random");
        ic_builder_out(op, "Out", out);
        ic_builder_attr_longs(op, "shape", 1, d);
        ic_builder_attr_int(op, "seed", below(&r, 3));
        break;
      default:
        op = ic_builder_add_op(b, 0, "clip");
        ic_builder_in(op, "X", x);
        ic_builder_out(op, "Out", out);
        ic_builder_attr_float(op, "min", -4.0f);
        ic_builder_attr_float(op, "max", 4.0f);
        break;
    }
  }
  /* Fetch a random subset; the rest are released by GC as soon as they die. */
  int nf = 0;
  for (int v = 0; v < nv; v++) {
    if (below(&r, 2) || (v == nv - 1 && nf == 0)) fetch_list[nf++] = names[v];
  }
  *n_fetch = nf;
  *fetches = fetch_list;
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  return p;
}

typedef struct cfg {
  ic_mode mode;
  int threads;
  bool serial;
  bool prune; /* only the ops the fetches need: the same fetched bits (prune.c) */
} cfg;

static const cfg k_cfgs[] = {{IC_MODE_UNCOMPILED, 1, true, false},
                             {IC_MODE_COMPILED, 1, true, false},
                             {IC_MODE_COMPILED, 2, false, false},
                             {IC_MODE_COMPILED, 4, false, false},
                             {IC_MODE_COMPILED, 16, false, false},
                             {IC_MODE_UNCOMPILED, 1, true, true},
                             {IC_MODE_COMPILED, 2, false, true}};
#define N_CFGS (sizeof k_cfgs / sizeof k_cfgs[0])

static void run_one(ic_executor *const *execs, uint64_t seed, int n_ops, int nv, int reps) {
  int nf;
  const char **fetch_names;
  ic_program *p = random_program(seed, n_ops, nv, &nf, &fetch_names);
  ic_tensor *feeds[64];
  const char *feed_names[64];
  for (int v = 0; v < nv; v++) {
    feeds[v] = tu_rand_f32(1, (const int64_t[]){LEN}, seed * 64 + (uint64_t)v, -2, 2);
    feed_names[v] = p->feeds[v];
  }
  /* Per repetition: a random op whose seed attribute is 0 draws from the executor's seed
   * mixed with its run number, and every configuration's executor runs the same sequence. */
  ic_tensor *ref[3][64] = {{0}}, *got[64];
  ck_assert_int_le(reps, 3);
  for (size_t c = 0; c < N_CFGS; c++) {
    for (int rep = 0; rep < reps; rep++) {
      ic_status st = ic_executor_run(execs[c], p, NULL, (size_t)nv, feed_names,
                                     (const ic_tensor *const *)feeds, (size_t)nf, fetch_names, got);
      ck_assert_msg(st == IC_OK, "seed %llu config %zu: %s", (unsigned long long)seed, c,
                    ic_executor_errmsg(execs[c]));
      for (int f = 0; f < nf; f++) {
        if (!ref[rep][f]) {
          ref[rep][f] = got[f];
          continue;
        }
        char what[96];
        snprintf(what, sizeof what, "seed %llu (%d ops) config %zu rep %d fetch %s",
                 (unsigned long long)seed, n_ops, c, rep, fetch_names[f]);
        tu_assert_bitwise(got[f], ref[rep][f], what);
        ic_tensor_destroy(got[f]);
      }
    }
  }
  for (int rep = 0; rep < reps; rep++) {
    for (int f = 0; f < nf; f++) ic_tensor_destroy(ref[rep][f]);
  }
  for (int v = 0; v < nv; v++) ic_tensor_destroy(feeds[v]);
  ic_program_destroy(p);
}

static void make_execs(ic_executor **execs) {
  for (size_t c = 0; c < N_CFGS; c++) {
    ic_options o;
    ic_options_default(&o);
    o.mode = k_cfgs[c].mode;
    o.threads = k_cfgs[c].threads;
    o.serial = k_cfgs[c].serial;
    o.prune = k_cfgs[c].prune;
    o.cache_capacity = 2;
    ck_assert_int_eq(ic_executor_create(&o, &execs[c]), IC_OK);
    ic_executor_poison_freed(execs[c], true);
  }
}

START_TEST(random_programs) {
  ic_executor *execs[N_CFGS];
  make_execs(execs);
  rng r = {0xC0FFEEull};
  int count = program_count();
  for (int i = 0; i < count; i++) {
    /* Mostly small programs, every tenth one large (up to 2,000 ops). */
    int n_ops = i % 10 == 9 ? 200 + below(&r, 1801) : 10 + below(&r, 191);
    int nv = 2 + below(&r, 14);
    run_one(execs, (uint64_t)i + 1, n_ops, nv, i % 10 == 9 ? 2 : 3);
  }
  for (size_t c = 0; c < N_CFGS; c++) ic_executor_destroy(execs[c]);
}
END_TEST

static TCase *tc_stress(void) {
  TCase *tc = tcase_create("stress");
  tcase_set_timeout(tc, 1200);
  tcase_add_test(tc, random_programs);
  return tc;
}

TU_MAIN("stress", tc_stress)
