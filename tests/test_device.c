/* Device plans on the emulated-stream backend: every stream a FIFO thread, events and
 * stream-ordered frees as CUDA's, random delays before tasks, freed memory poisoned. Random
 * DAG programs on 1 to 8 streams under every stream policy must give exactly the CPU
 * executor's results, many times over; and the same tests must FAIL when cross-stream events
 * or the cross-stream GC rule are switched off, which shows they test the synchronisation
 * and not just the plumbing. Label "scheduler": also run under ThreadSanitizer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/plan.h"
#include "interp/interp.h"
#include "testutil.h"

#define LEN 64

typedef struct rng {
  uint64_t s;
} rng;

static int below(rng *r, int n) {
  r->s ^= r->s << 13;
  r->s ^= r->s >> 7;
  r->s ^= r->s << 17;
  return (int)(r->s % (uint64_t)n);
}

/* Layers of up to `width` ops; each reads one or two values of earlier layers (so that chains
 * cross from stream to stream) and writes a new one; the last layer is summed and fetched,
 * and some intermediate values are fetched too. */
static ic_program *layered(uint64_t seed, int width, int layers, int *n_fetch,
                           char fetch[][32]) {
  rng r = {seed * 0x9E3779B97F4A7C15ull + 99};
  ic_builder *b = ic_builder_create();
  const int64_t d[1] = {LEN};
  tu_var(b, "x", IC_FP32, 1, d);
  ic_builder_feed(b, "x");
  char names[64 * 9][32];
  int n = 0;
  snprintf(names[n++], 32, "x");
  int prev_start = 0, prev_end = 1;
  for (int l = 0; l < layers; l++) {
    int w = 1 + below(&r, width);
    int start = n;
    for (int k = 0; k < w; k++) {
      snprintf(names[n], 32, "v%d_%d", l, k);
      tu_var(b, names[n], IC_FP32, 1, d);
      const char *a = names[prev_start + below(&r, prev_end - prev_start)];
      const char *c = names[below(&r, n)];
      ic_builder_op *op;
      switch (below(&r, 5)) {
        case 0:
          op = ic_builder_add_op(b, 0, "elementwise_add");
          ic_builder_in(op, "X", a);
          ic_builder_in(op, "Y", c);
          break;
        case 1:
          op = ic_builder_add_op(b, 0, "elementwise_mul");
          ic_builder_in(op, "X", a);
          ic_builder_in(op, "Y", c);
          break;
        case 2:
          op = ic_builder_add_op(b, 0, "tanh");
          ic_builder_in(op, "X", a);
          break;
        case 3:
          op = ic_builder_add_op(b, 0, "scale");
          ic_builder_in(op, "X", a);
          ic_builder_attr_float(op, "scale", 0.5f + (float)below(&r, 4) * 0.25f);
          ic_builder_attr_float(op, "bias", (float)below(&r, 3) - 1.0f);
          break;
        default:
          op = ic_builder_add_op(b, 0, "sigmoid");
          ic_builder_in(op, "X", a);
          break;
      }
      ic_builder_out(op, "Out", names[n]);
      n++;
    }
    prev_start = start;
    prev_end = n;
  }
  const char *last[64];
  for (int k = prev_start; k < prev_end; k++) last[k - prev_start] = names[k];
  tu_var(b, "out", IC_FP32, 1, d);
  ic_builder_op *sum = ic_builder_add_op(b, 0, "sum");
  ic_builder_input(sum, "X", (size_t)(prev_end - prev_start), last);
  ic_builder_out(sum, "Out", "out");
  *n_fetch = 0;
  snprintf(fetch[(*n_fetch)++], 32, "out");
  for (int k = 1; k < n && *n_fetch < 4; k += 1 + below(&r, 7)) snprintf(fetch[(*n_fetch)++], 32, "%s", names[k]);
  for (int f = 0; f < *n_fetch; f++) ic_builder_fetch(b, fetch[f]);
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  return p;
}

static ic_executor *emu_exec(ic_stream_policy pol, int threads, int delay_us, uint64_t seed) {
  ic_options o;
  ic_options_default(&o);
  o.device = (ic_place){IC_PLACE_EMULATED, 0};
  o.streams = pol;
  o.threads = threads;
  o.serial = threads == 1;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  ic_executor_emu_testing(e, delay_us, true, seed);
  return e;
}

static ic_executor *cpu_exec(void) {
  ic_options o;
  ic_options_default(&o);
  o.serial = true;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  return e;
}

/* Run p on e and on the CPU; true when every fetch is bitwise equal. */
static bool agrees(ic_executor *e, ic_executor *cpu, const ic_program *p, ic_tensor *x,
                   int nf, char fetch[][32], bool must_succeed) {
  const char *names[8];
  for (int f = 0; f < nf; f++) names[f] = fetch[f];
  ic_tensor *got[8], *ref[8];
  ck_assert_int_eq(ic_executor_run(cpu, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x,
                                   (size_t)nf, names, ref),
                   IC_OK);
  ic_status st = ic_executor_run(e, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x,
                                 (size_t)nf, names, got);
  if (must_succeed) ck_assert_msg(st == IC_OK, "%s", ic_executor_errmsg(e));
  bool same = st == IC_OK;
  for (int f = 0; f < nf; f++) {
    if (same) {
      same = ic_tensor_nbytes(got[f]) == ic_tensor_nbytes(ref[f]) &&
             memcmp(ic_tensor_cdata(got[f]), ic_tensor_cdata(ref[f]), ic_tensor_nbytes(ref[f])) == 0;
    }
    if (st == IC_OK) ic_tensor_destroy(got[f]);
    ic_tensor_destroy(ref[f]);
  }
  return same;
}

START_TEST(simple_program_matches_cpu) {
  int nf;
  char fetch[8][32];
  ic_program *p = layered(1, 2, 4, &nf, fetch);
  ic_tensor *x = tu_rand_f32(1, (const int64_t[]){LEN}, 5, -1, 1);
  ic_executor *cpu = cpu_exec();
  for (int pol = 0; pol < 3; pol++) {
    for (int t = 1; t <= 2; t++) {
      ic_executor *e = emu_exec((ic_stream_policy)pol, t, 0, 1);
      for (int rep = 0; rep < 3; rep++) ck_assert(agrees(e, cpu, p, x, nf, fetch, true));
      const ic_plan *plan = ic_executor_last_plan(e);
      ck_assert_ptr_nonnull(plan);
      size_t h2d = 0, d2h = 0, dev = 0;
      for (size_t i = 0; i < plan->n_instrs; i++) {
        h2d += plan->instrs[i].where == IC_WHERE_H2D;
        d2h += plan->instrs[i].where == IC_WHERE_D2H;
        dev += plan->instrs[i].where == IC_WHERE_DEVICE;
      }
      ck_assert_uint_eq(h2d, 1);          /* the feed goes in once */
      ck_assert_uint_eq(d2h, (size_t)nf); /* every fetch comes out */
      ck_assert_uint_gt(dev, 3);
      if (pol == IC_STREAMS_SINGLE) ck_assert_uint_eq(plan->n_streams, 1);
      if (pol == IC_STREAMS_PER_BACKEND) ck_assert_uint_eq(plan->n_streams, 3);
      ic_executor_destroy(e);
    }
  }
  ic_executor_destroy(cpu);
  ic_tensor_destroy(x);
  ic_program_destroy(p);
}
END_TEST

/* Device -> host -> device round trips through host temporaries (concat reads its axis as a
 * host value, so it runs on the host): each concat's result is copied back to the device and
 * then dead on the host. The copy is asynchronous, so the host buffer must outlive it: freed
 * when the copy was merely enqueued, the next concat of the same size reuses it and the copy
 * reads the wrong values (seen on SSD: box_coder reading prior boxes that a later concat had
 * overwritten). Every policy, serial and pooled, many runs; bitwise equal to the CPU. */
static ic_program *round_trips(int n_branch, int *n_fetch, char fetch[][32]) {
  ic_builder *b = ic_builder_create();
  const int64_t d[1] = {LEN};
  tu_var(b, "x", IC_FP32, 1, d);
  ic_builder_feed(b, "x");
  char names[4][8][32];
  const char *ys[8];
  for (int k = 0; k < n_branch; k++) {
    snprintf(names[0][k], 32, "d%d", k);
    snprintf(names[1][k], 32, "h%d", k);
    snprintf(names[2][k], 32, "y%d", k);
    for (int j = 0; j < 3; j++) tu_var(b, names[j][k], IC_FP32, 1, d);
    ic_builder_op *op = ic_builder_add_op(b, 0, "scale"); /* device */
    ic_builder_in(op, "X", "x");
    ic_builder_attr_float(op, "scale", 1.0f + (float)k);
    ic_builder_attr_float(op, "bias", (float)k);
    ic_builder_out(op, "Out", names[0][k]);
    op = ic_builder_add_op(b, 0, "concat"); /* host */
    ic_builder_in(op, "X", names[0][k]);
    ic_builder_attr_int(op, "axis", 0);
    ic_builder_out(op, "Out", names[1][k]);
    op = ic_builder_add_op(b, 0, "tanh"); /* device again: a copy in */
    ic_builder_in(op, "X", names[1][k]);
    ic_builder_out(op, "Out", names[2][k]);
    ys[k] = names[2][k];
  }
  tu_var(b, "out", IC_FP32, 1, d);
  ic_builder_op *sum = ic_builder_add_op(b, 0, "sum");
  ic_builder_input(sum, "X", (size_t)n_branch, ys);
  ic_builder_out(sum, "Out", "out");
  *n_fetch = 0;
  snprintf(fetch[(*n_fetch)++], 32, "out");
  snprintf(fetch[(*n_fetch)++], 32, "y0");
  for (int f = 0; f < *n_fetch; f++) ic_builder_fetch(b, fetch[f]);
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  return p;
}

START_TEST(host_sources_outlive_copies) {
  ic_executor *cpu = cpu_exec();
  int nf;
  char fetch[8][32];
  ic_program *p = round_trips(6, &nf, fetch);
  ic_tensor *x = tu_rand_f32(1, (const int64_t[]){LEN}, 77, -1, 1);
  for (int pol = 0; pol < 3; pol++) {
    for (int t = 1; t <= 3; t++) {
      ic_executor *e = emu_exec((ic_stream_policy)pol, t, 200, (uint64_t)(pol * 3 + t));
      for (int rep = 0; rep < 8; rep++) {
        ck_assert_msg(agrees(e, cpu, p, x, nf, fetch, true), "%s, %d threads, run %d",
                      pol == 0 ? "single" : pol == 1 ? "per-backend" : "per-operator", t, rep);
      }
      const ic_plan *plan = ic_executor_last_plan(e);
      size_t h2d = 0, host = 0;
      for (size_t i = 0; i < plan->n_instrs; i++) {
        h2d += plan->instrs[i].where == IC_WHERE_H2D;
        host += plan->instrs[i].where == IC_WHERE_HOST && strcmp(plan->instrs[i].def->name, "concat") == 0;
      }
      ck_assert_uint_eq(host, 6); /* the round trips are really there */
      ck_assert_uint_eq(h2d, 7);  /* the feed, and each concat's result */
      ic_executor_destroy(e);
    }
  }
  ic_tensor_destroy(x);
  ic_program_destroy(p);
  ic_executor_destroy(cpu);
}
END_TEST

/* ICORE_DEVICE_PROGRAMS overrides how many random programs (the sanitizer builds use fewer). */
static int program_count(int dflt) {
  const char *v = getenv("ICORE_DEVICE_PROGRAMS");
  int n = v ? atoi(v) : 0;
  return n > 0 ? n : dflt;
}

START_TEST(random_dags_match_cpu) {
  ic_executor *cpu = cpu_exec();
  int count = program_count(60);
  size_t max_streams = 0;
  for (int i = 0; i < count; i++) {
    int nf;
    char fetch[8][32];
    int width = 1 + i % 8;
    ic_program *p = layered((uint64_t)i + 10, width, 3 + i % 5, &nf, fetch);
    ic_tensor *x = tu_rand_f32(1, (const int64_t[]){LEN}, (uint64_t)i, -1, 1);
    ic_stream_policy pol = (ic_stream_policy)(i % 3);
    ic_executor *e = emu_exec(pol, 1 + i % 3, 150, (uint64_t)i);
    for (int rep = 0; rep < 3; rep++) {
      ck_assert_msg(agrees(e, cpu, p, x, nf, fetch, true), "program %d (width %d, %s), run %d", i,
                    width, pol == 0 ? "single" : pol == 1 ? "per-backend" : "per-operator", rep);
    }
    const ic_plan *plan = ic_executor_last_plan(e);
    if (plan->n_streams > max_streams) max_streams = plan->n_streams;
    ic_executor_destroy(e);
    ic_tensor_destroy(x);
    ic_program_destroy(p);
  }
  /* The wide programs really did spread over several streams. */
  if (count >= 24) ck_assert_uint_ge(max_streams, 4);
  ic_executor_destroy(cpu);
}
END_TEST

/* The two tests below break the synchronisation on purpose, so they race by design:
 * ThreadSanitizer rightly reports them. Its build says so and leaves them to the others. */
#if defined(__SANITIZE_THREAD__)
#define SKIP_UNDER_TSAN(what)                                                          \
  do {                                                                                 \
    printf("SKIP under ThreadSanitizer: %s races on purpose (run in the other builds)\n", \
           what);                                                                      \
    return;                                                                            \
  } while (0)
#else
#define SKIP_UNDER_TSAN(what) (void)0
#endif

/* With cross-stream event waits switched off, the same tests find wrong answers. */
START_TEST(fails_without_events) {
  SKIP_UNDER_TSAN("fails_without_events");
  ic_executor *cpu = cpu_exec();
  int wrong = 0, runs = 0;
  for (int i = 0; i < 40 && wrong == 0; i++) {
    int nf;
    char fetch[8][32];
    ic_program *p = layered((uint64_t)i + 500, 6, 5, &nf, fetch);
    ic_tensor *x = tu_rand_f32(1, (const int64_t[]){LEN}, (uint64_t)i, -1, 1);
    ic_executor *e = emu_exec(IC_STREAMS_PER_OPERATOR, 2, 300, (uint64_t)i);
    ic_executor_break_sync(e, true, false);
    for (int rep = 0; rep < 3; rep++, runs++) wrong += !agrees(e, cpu, p, x, nf, fetch, false);
    ic_executor_destroy(e);
    ic_tensor_destroy(x);
    ic_program_destroy(p);
  }
  ck_assert_msg(wrong > 0, "no wrong answer in %d runs without events: the test proves nothing", runs);
  ic_executor_destroy(cpu);
}
END_TEST

/* With the cross-stream GC rule switched off (a variable used on two streams freed on its
 * own stream without waiting for the other), the same tests find wrong answers. */
START_TEST(fails_without_gc_rule) {
  SKIP_UNDER_TSAN("fails_without_gc_rule");
  ic_executor *cpu = cpu_exec();
  int wrong = 0, runs = 0;
  for (int i = 0; i < 40 && wrong == 0; i++) {
    int nf;
    char fetch[8][32];
    ic_program *p = layered((uint64_t)i + 900, 6, 5, &nf, fetch);
    ic_tensor *x = tu_rand_f32(1, (const int64_t[]){LEN}, (uint64_t)i, -1, 1);
    ic_executor *e = emu_exec(IC_STREAMS_PER_OPERATOR, 2, 300, (uint64_t)i);
    ic_executor_break_sync(e, false, true);
    for (int rep = 0; rep < 3; rep++, runs++) wrong += !agrees(e, cpu, p, x, nf, fetch, false);
    ic_executor_destroy(e);
    ic_tensor_destroy(x);
    ic_program_destroy(p);
  }
  ck_assert_msg(wrong > 0, "no wrong answer in %d runs without the GC rule: the test proves nothing",
                runs);
  ic_executor_destroy(cpu);
}
END_TEST

START_TEST(no_cuda_is_a_clear_error) {
#ifndef IC_WITH_CUDA
  ic_options o;
  ic_options_default(&o);
  o.device = (ic_place){IC_PLACE_CUDA, 0};
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(2));
  ic_builder_feed(b, "x");
  ic_builder_fetch(b, "x");
  ic_program *p;
  ck_assert_int_eq(ic_builder_build(b, &p, NULL, 0), IC_OK);
  ic_tensor *x = tu_f32(1, TU_DIMS(2), NULL), *out;
  ck_assert_int_eq(ic_executor_run(e, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x, 1,
                                   TU_NAMES("x"), &out),
                   IC_ERR_UNSUPPORTED);
  tu_assert_msg(ic_executor_errmsg(e), "cuda:0", "without CUDA", NULL);
  ic_tensor_destroy(x);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  ic_executor_destroy(e);
#endif
}
END_TEST

/* CUDA graphs need a CUDA device: elsewhere a clear error. */
START_TEST(cuda_graph_needs_cuda) {
  ic_options o;
  ic_options_default(&o);
  o.device = (ic_place){IC_PLACE_EMULATED, 0};
  o.cuda_graph = true;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  int nf;
  char fetch[8][32];
  ic_program *p = layered(3, 2, 3, &nf, fetch);
  ic_tensor *x = tu_rand_f32(1, (const int64_t[]){LEN}, 1, -1, 1), *out[8];
  const char *names[8];
  for (int f = 0; f < nf; f++) names[f] = fetch[f];
  ck_assert_int_eq(ic_executor_run(e, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x,
                                   (size_t)nf, names, out),
                   IC_ERR_UNSUPPORTED);
  tu_assert_msg(ic_executor_errmsg(e), "cuda_graph", "CUDA device", NULL);
  ic_tensor_destroy(x);
  ic_program_destroy(p);
  ic_executor_destroy(e);
}
END_TEST

START_TEST(places_parse) {
  ic_place pl;
  ck_assert_int_eq(ic_place_parse("cuda:3", &pl), IC_OK);
  ck_assert(pl.kind == IC_PLACE_CUDA && pl.index == 3);
  ck_assert_int_eq(ic_place_parse("emu", &pl), IC_OK);
  ck_assert(pl.kind == IC_PLACE_EMULATED && pl.index == 0);
  ck_assert_int_eq(ic_place_parse("cpu", &pl), IC_OK);
  ck_assert_int_eq(ic_place_parse("cuda:", &pl), IC_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(ic_place_parse("tpu:0", &pl), IC_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(ic_place_parse("cpu:1", &pl), IC_ERR_INVALID_ARGUMENT);
  char buf[32];
  ck_assert_str_eq(ic_place_name((ic_place){IC_PLACE_CUDA, 1}, buf, sizeof buf), "cuda:1");
}
END_TEST

static TCase *tc_emu(void) {
  TCase *tc = tcase_create("emulated device");
  tcase_set_timeout(tc, 900);
  tcase_add_test(tc, places_parse);
  tcase_add_test(tc, cuda_graph_needs_cuda);
  tcase_add_test(tc, no_cuda_is_a_clear_error);
  tcase_add_test(tc, simple_program_matches_cpu);
  tcase_add_test(tc, random_dags_match_cpu);
  tcase_add_test(tc, host_sources_outlive_copies);
  tcase_add_test(tc, fails_without_events);
  tcase_add_test(tc, fails_without_gc_rule);
  return tc;
}

TU_MAIN("device", tc_emu)
