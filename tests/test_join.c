/* Concats joined in place (src/analysis/join.c, src/interp/join.c): which inputs the plan lets
 * their producers write into the concat's output, how many concats a run adopts in place, and
 * that every run computes bitwise what a plan without joins computes, through batch changes,
 * mixed layouts, parallel branches, fetched parts and failures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/plan.h"
#include "interp/interp.h"
#include "testutil.h"

#define NONE UINT32_MAX

enum { C = 16, H = 5, W = 6 };

static void var(ic_builder *b, const char *name, int64_t c) {
  tu_var(b, name, IC_FP32, 4, TU_DIMS(-1, c, H, W));
}

/* out = conv2d(in, filter): "dw" a depthwise 3 x 3 with padding 1, else 1 x 1. */
static void conv(ic_builder *b, const char *in, const char *filter, const char *out) {
  bool dw = !strcmp(filter, "wd");
  ic_builder_op *op = ic_builder_add_op(b, 0, dw ? "depthwise_conv2d" : "conv2d");
  ic_builder_in(op, "Input", in);
  ic_builder_in(op, "Filter", filter);
  ic_builder_out(op, "Output", out);
  if (dw) {
    ic_builder_attr_int(op, "groups", C);
    ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){1, 1});
  }
}

static void concat(ic_builder *b, size_t n, const char *const *xs, const char *out, int axis) {
  ic_builder_op *op = ic_builder_add_op(b, 0, "concat");
  ic_builder_input(op, "X", n, xs);
  ic_builder_out(op, "Out", out);
  ic_builder_attr_int(op, "axis", axis);
}

static ic_builder *start(void) {
  ic_builder *b = ic_builder_create();
  var(b, "x", C);
  ic_builder_var(b, 0, "w", IC_FP32, 4, TU_DIMS(C, C, 1, 1), true);
  ic_builder_var(b, 0, "wd", IC_FP32, 4, TU_DIMS(C, 1, 3, 3), true);
  ic_builder_var(b, 0, "w2", IC_FP32, 4, TU_DIMS(C, 2 * C, 1, 1), true);
  ic_builder_var(b, 0, "w4", IC_FP32, 4, TU_DIMS(C, 4 * C, 1, 1), true);
  ic_builder_feed(b, "x");
  return b;
}

/* PP-HGNet's block: s = stem(x); a, b, c a chain of convolutions from s; cat = [s, a, b, c]
 * along the channels (`head` replaces s by the plain feed x: a mixed layout); y = conv(cat);
 * e = conv(a) after the concat (a part read after its concat adopted it). */
static ic_program *hg_block(bool head, size_t n_fetch, const char *const *fetch) {
  ic_builder *b = start();
  var(b, "s", C);
  var(b, "a", C);
  var(b, "b", C);
  var(b, "c", C);
  var(b, "cat", 4 * C);
  var(b, "y", C);
  var(b, "e", C);
  conv(b, "x", "w", "s");
  conv(b, "s", "w", "a");
  conv(b, "a", "wd", "b");
  conv(b, "b", "w", "c");
  concat(b, 4, TU_NAMES(head ? "x" : "s", "a", "b", "c"), "cat", 1);
  conv(b, "cat", "w4", "y");
  conv(b, "a", "wd", "e");
  for (size_t i = 0; i < n_fetch; i++) ic_builder_fetch(b, fetch[i]);
  return tu_build(b);
}

/* Two branches from one stem, joined (they may run side by side): y = conv([p, q]). Along
 * axis 0 (`batch_axis`) the inputs are chunks whatever the batch. */
static ic_program *branches(bool batch_axis) {
  ic_builder *b = start();
  var(b, "s", C);
  var(b, "p", C);
  var(b, "q", C);
  if (batch_axis) {
    var(b, "cat", C);
    var(b, "y", C);
  } else {
    var(b, "cat", 2 * C);
    var(b, "y", C);
  }
  conv(b, "x", "w", "s");
  conv(b, "s", "w", "p");
  conv(b, "s", "wd", "q");
  concat(b, 2, TU_NAMES("p", "q"), "cat", batch_axis ? 0 : 1);
  conv(b, "cat", batch_axis ? "w" : "w2", "y");
  ic_builder_fetch(b, "y");
  return tu_build(b);
}

typedef struct fixture {
  ic_scope *s;
  ic_tensor *w[4];
} fixture;

static void fixture_init(fixture *f) {
  ck_assert_int_eq(ic_scope_create(NULL, &f->s), IC_OK);
  const char *names[4] = {"w", "wd", "w2", "w4"};
  const int64_t cin[4] = {C, 1, 2 * C, 4 * C}, k[4] = {1, 3, 1, 1};
  for (int i = 0; i < 4; i++) {
    f->w[i] = tu_rand_f32(4, TU_DIMS(C, cin[i], k[i], k[i]), 3 + (uint64_t)i, -0.3f, 0.3f);
    ck_assert_int_eq(ic_scope_set(f->s, names[i], f->w[i]), IC_OK);
  }
}

static void fixture_free(fixture *f) {
  for (int i = 0; i < 4; i++) ic_tensor_destroy(f->w[i]);
  ic_scope_destroy(f->s);
}

static ic_executor *executor(int threads, bool plain, bool joins) {
  ic_options o;
  ic_options_default(&o);
  o.threads = threads;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  ic_executor_plain_layout(e, plain);
  ic_executor_no_joins(e, !joins);
  return e;
}

static void run(ic_executor *e, const fixture *f, const ic_program *p, const ic_tensor *x,
                size_t n_fetch, const char *const *fetch, ic_tensor **out) {
  ck_assert_msg(ic_executor_run(e, p, f->s, 1, TU_NAMES("x"), &x, n_fetch, fetch, out) == IC_OK,
                "%s", ic_executor_errmsg(e));
}

/* Run p with and without joins over the batch sizes in `batches`, requiring bitwise-equal
 * fetches on every run and `joined[k]` concats adopted in place on run k. */
static void check_runs(const ic_program *p, size_t n_fetch, const char *const *fetch, int threads,
                       bool plain, size_t n_runs, const int64_t *batches, const size_t *joined,
                       const char *what) {
  fixture f;
  fixture_init(&f);
  ic_executor *ej = executor(threads, plain, true), *er = executor(threads, plain, false);
  for (size_t k = 0; k < n_runs; k++) {
    ic_tensor *x = tu_rand_f32(4, TU_DIMS(batches[k], C, H, W), 11 + k, -1, 1);
    ic_tensor *got[4], *want[4];
    run(ej, &f, p, x, n_fetch, fetch, got);
    ck_assert_msg(ic_executor_last_joined(ej) == joined[k], "%s, run %zu (batch %lld): %zu joined, expected %zu",
                  what, k, (long long)batches[k], ic_executor_last_joined(ej), joined[k]);
    run(er, &f, p, x, n_fetch, fetch, want);
    ck_assert_uint_eq(ic_executor_last_joined(er), 0);
    for (size_t i = 0; i < n_fetch; i++) {
      char msg[160];
      snprintf(msg, sizeof msg, "%s, run %zu, fetch %s", what, k, fetch[i]);
      tu_assert_bitwise(got[i], want[i], msg);
      ic_tensor_destroy(got[i]);
      ic_tensor_destroy(want[i]);
    }
    ic_tensor_destroy(x);
  }
  ck_assert_uint_eq(ic_executor_last_plan(er)->n_joins, 0);
  ic_executor_destroy(ej);
  ic_executor_destroy(er);
  fixture_free(&f);
}

/* The plan: s, a, b, c are parts of the one join; a fetched variable, the feed and a variable
 * read twice by the concat are not. */
START_TEST(plan_parts) {
  fixture f;
  fixture_init(&f);
  ic_tensor *x = tu_rand_f32(4, TU_DIMS(1, C, H, W), 11, -1, 1);
  for (int k = 0; k < 3; k++) {
    ic_program *p;
    const char *fetch[3] = {"y", "e", "a"};
    if (k < 2) {
      p = hg_block(k == 1, k == 0 ? 2 : 3, fetch);
    } else { /* a twice among the inputs */
      ic_builder *b = start();
      var(b, "a", C);
      var(b, "cat", 2 * C);
      conv(b, "x", "w", "a");
      concat(b, 2, TU_NAMES("a", "a"), "cat", 1);
      ic_builder_fetch(b, "cat");
      p = tu_build(b);
    }
    ic_executor *e = executor(1, false, true);
    ic_tensor *out[3];
    size_t n_fetch = k == 0 ? 2 : k == 1 ? 3 : 1;
    run(e, &f, p, x, n_fetch, k == 2 ? TU_NAMES("cat") : fetch, out);
    for (size_t i = 0; i < n_fetch; i++) ic_tensor_destroy(out[i]);
    const ic_plan *pl = ic_executor_last_plan(e);
    if (k == 2) {
      ck_assert_uint_eq(pl->n_joins, 0);
    } else {
      ck_assert_uint_eq(pl->n_joins, 1);
      ck_assert_uint_eq(pl->stats.joins, 1);
      const ic_join *j = &pl->joins[0];
      ck_assert_uint_eq(j->n_parts, 4);
      ck_assert_str_eq(pl->instrs[j->concat].op->type, "concat");
      const char *want[2][4] = {{"s", "a", "b", "c"}, {NULL, NULL, "b", "c"}};
      for (uint32_t i = 0; i < 4; i++) {
        const char *name = j->part_var[i] == NONE ? NULL : pl->vars[j->part_var[i]].name;
        ck_assert_msg(want[k][i] ? name && !strcmp(name, want[k][i]) : !name,
                      "case %d part %u: %s", k, i, name ? name : "(copied)");
      }
    }
    ic_executor_destroy(e);
    ic_program_destroy(p);
  }
  ic_tensor_destroy(x);
  fixture_free(&f);
}
END_TEST

/* Batch 1: the first run copies, the next adopt; batch 2 copies (each input is one chunk per
 * image); back at batch 1 the first run copies again. Blocked and plain activations, one and
 * two threads. */
START_TEST(batch_changes) {
  const char *const fetch[2] = {"y", "e"};
  ic_program *p = hg_block(false, 2, fetch);
  const int64_t batches[6] = {1, 1, 1, 2, 1, 1};
  const size_t joined[6] = {0, 1, 1, 0, 0, 1};
  for (int plain = 0; plain < 2; plain++) {
    for (int threads = 1; threads <= 2; threads++) {
      char what[64];
      snprintf(what, sizeof what, "%s, %d threads", plain ? "plain" : "blocked", threads);
      check_runs(p, 2, fetch, threads, plain, 6, batches, joined, what);
    }
  }
  ic_program_destroy(p);
}
END_TEST

/* The feed (plain) beside blocked convolution outputs: no chunk copy, so never adopted; with
 * plain activations the feed is copied into place and the rest adopted. Fetching a part (a)
 * and the concat itself changes nothing. */
START_TEST(mixed_layouts_and_fetches) {
  const char *const fetch[4] = {"y", "e", "a", "cat"};
  ic_program *p = hg_block(true, 4, fetch);
  const int64_t batches[3] = {1, 1, 1};
  const size_t none[3] = {0, 0, 0}, joined[3] = {0, 1, 1};
  check_runs(p, 4, fetch, 2, false, 3, batches, none, "blocked parts and a plain feed");
  check_runs(p, 4, fetch, 2, true, 3, batches, joined, "plain, the feed copied in");
  ic_program_destroy(p);
}
END_TEST

/* Parts written by branches that may run on two threads at once (the buffer is made by
 * whichever comes first); along the batch axis the parts are chunks at any batch size. */
START_TEST(parallel_parts) {
  ic_program *p = branches(false);
  int64_t batches[24];
  size_t joined[24];
  for (int k = 0; k < 24; k++) {
    batches[k] = 1;
    joined[k] = k > 0;
  }
  check_runs(p, 1, TU_NAMES("y"), 2, false, 24, batches, joined, "branches");
  ic_program_destroy(p);
  p = branches(true);
  const int64_t b2[4] = {2, 2, 3, 3};
  const size_t plain_joined[4] = {0, 1, 0, 1}, blocked_joined[4] = {0, 0, 0, 0};
  check_runs(p, 1, TU_NAMES("y"), 2, true, 4, b2, plain_joined, "batch axis, plain");
  /* blocked inputs along the batch axis are unpacked by the kernel: no chunk copy */
  check_runs(p, 1, TU_NAMES("y"), 2, false, 4, b2, blocked_joined, "batch axis, blocked");
  ic_program_destroy(p);
}
END_TEST

/* SVTR's neck: an assign's view of a convolution's output is read by another convolution and
 * by the concat that joins the two (s, c = assign(s), q = conv(c), y = conv([c, q])). The
 * view keeps s's blocked layout (analysis/layout.c), so the concat is adopted with c copied
 * into place beside the part q; at batch 2 it copies. */
START_TEST(assigned_input) {
  ic_builder *b = start();
  var(b, "s", C);
  var(b, "c", C);
  var(b, "q", C);
  var(b, "cat", 2 * C);
  var(b, "y", C);
  conv(b, "x", "w", "s");
  ic_builder_op *op = ic_builder_add_op(b, 0, "assign");
  ic_builder_in(op, "X", "s");
  ic_builder_out(op, "Out", "c");
  conv(b, "c", "wd", "q");
  concat(b, 2, TU_NAMES("c", "q"), "cat", 1);
  conv(b, "cat", "w2", "y");
  ic_builder_fetch(b, "y");
  ic_program *p = tu_build(b);
  const int64_t batches[5] = {1, 1, 1, 2, 1};
  const size_t joined[5] = {0, 1, 1, 0, 0};
  for (int plain = 0; plain < 2; plain++) {
    for (int threads = 1; threads <= 2; threads++) {
      char what[64];
      snprintf(what, sizeof what, "assign, %s, %d threads", plain ? "plain" : "blocked", threads);
      check_runs(p, 1, TU_NAMES("y"), threads, plain, 5, batches, joined, what);
    }
  }
  ic_program_destroy(p);
}
END_TEST

/* A failure anywhere (after some parts were placed, at the concat itself) fails the run,
 * leaks nothing (ASan) and leaves the executor computing the same again, joined. */
START_TEST(failures) {
  const char *const fetch[2] = {"y", "e"};
  ic_program *p = hg_block(false, 2, fetch);
  fixture f;
  fixture_init(&f);
  ic_tensor *x = tu_rand_f32(4, TU_DIMS(1, C, H, W), 11, -1, 1);
  ic_executor *e = executor(2, false, true);
  ic_tensor *good[2], *out[2];
  run(e, &f, p, x, 2, fetch, good);
  for (size_t i = 0; i < 2; i++) ic_tensor_destroy(good[i]);
  run(e, &f, p, x, 2, fetch, good);
  ck_assert_uint_eq(ic_executor_last_joined(e), 1);
  for (size_t k = 0; k < p->blocks[0].n_ops; k++) {
    ic_executor_inject_failure(e, (long)k);
    ck_assert_int_eq(ic_executor_run(e, p, f.s, 1, TU_NAMES("x"), (const ic_tensor *const *)&x,
                                     2, fetch, out),
                     IC_ERR_KERNEL);
    ic_executor_inject_failure(e, -1);
    run(e, &f, p, x, 2, fetch, out);
    ck_assert_msg(ic_executor_last_joined(e) == 1, "after a failure at op %zu", k);
    for (size_t i = 0; i < 2; i++) {
      tu_assert_bitwise(out[i], good[i], "after a failure");
      ic_tensor_destroy(out[i]);
    }
  }
  for (size_t i = 0; i < 2; i++) ic_tensor_destroy(good[i]);
  ic_executor_destroy(e);
  ic_tensor_destroy(x);
  fixture_free(&f);
  ic_program_destroy(p);
}
END_TEST

static TCase *tc_join(void) {
  TCase *tc = tcase_create("join");
  tcase_add_test(tc, plan_parts);
  tcase_add_test(tc, batch_changes);
  tcase_add_test(tc, mixed_layouts_and_fetches);
  tcase_add_test(tc, parallel_parts);
  tcase_add_test(tc, assigned_input);
  tcase_add_test(tc, failures);
  return tc;
}

TU_MAIN("join", tc_join)
