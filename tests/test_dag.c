/* Exact dependency-graph tests on small hand-built programs: each rule, pruning, implicit
 * edges, priorities, lifetimes and release lists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/plan.h"
#include "testutil.h"

static const int64_t k_dims[1] = {4};

static void vars(ic_builder *b, const char *const *names, size_t n) {
  for (size_t i = 0; i < n; i++) tu_var(b, names[i], IC_FP32, 1, k_dims);
}

static ic_builder_op *unary(ic_builder *b, const char *type, const char *x, const char *out) {
  ic_builder_op *op = ic_builder_add_op(b, 0, type);
  ic_builder_in(op, "X", x);
  ic_builder_out(op, "Out", out);
  return op;
}

static ic_builder_op *add(ic_builder *b, const char *x, const char *y, const char *out) {
  ic_builder_op *op = ic_builder_add_op(b, 0, "elementwise_add");
  ic_builder_in(op, "X", x);
  ic_builder_in(op, "Y", y);
  ic_builder_out(op, "Out", out);
  return op;
}

static ic_builder_op *random_op(ic_builder *b, const char *out) {
  ic_builder_op *op = ic_builder_add_op(b, 0, "uniform_random");
  ic_builder_out(op, "Out", out);
  ic_builder_attr_longs(op, "shape", 1, k_dims);
  ic_builder_attr_int(op, "seed", 7);
  return op;
}

static ic_plan *plan_of(ic_builder *b, size_t nf, const char *const *feeds, size_t nt,
                        const char *const *fetches, bool sequential, ic_program **keep) {
  char err[1024];
  ck_assert_msg(ic_builder_build(b, keep, err, sizeof err) == IC_OK, "%s", err);
  ic_plan *plan;
  ic_err e;
  ic_plan_options o = {.gc = true, .sequential = sequential};
  ck_assert_msg(ic_plan_build(*keep, nf, feeds, nt, fetches, &o, &plan, &e) == IC_OK, "%s", e.msg);
  return plan;
}

/* Successors of instruction i, as a string "1,3" for easy comparison. */
static const char *succ_str(const ic_plan *p, size_t i) {
  static char buf[256];
  buf[0] = '\0';
  for (uint32_t k = 0; k < p->instrs[i].n_succ; k++) {
    char t[16];
    snprintf(t, sizeof t, "%s%u", k ? "," : "", p->instrs[i].succ[k]);
    strcat(buf, t);
  }
  return buf;
}

#define ASSERT_SUCC(p, i, s) ck_assert_str_eq(succ_str(p, i), s)

static uint32_t var_of(const ic_plan *p, const char *name) {
  for (uint32_t v = 0; v < p->n_vars; v++) {
    if (!strcmp(p->vars[v].name, name)) return v;
  }
  ck_abort_msg("no variable %s", name);
  return 0;
}

START_TEST(raw_war_waw) {
  /* 0: feed x   1: a = relu(x)   2: x = relu(b) (WAR on x after 1; WAW after feed 0)
   * 3: a = relu(x) (RAW on x from 2, WAW on a from 1)   4: fetch a */
  ic_builder *b = ic_builder_create();
  vars(b, TU_NAMES("x", "a", "b"), 3);
  ic_builder_feed(b, "x");
  unary(b, "relu", "x", "a");
  unary(b, "relu", "b", "x");
  unary(b, "relu", "x", "a");
  ic_builder_fetch(b, "a");
  ic_program *prog;
  ic_plan *p = plan_of(b, 1, TU_NAMES("x"), 1, TU_NAMES("a"), false, &prog);
  ck_assert_uint_eq(p->n_instrs, 5);
  ASSERT_SUCC(p, 0, "1");   /* feed x -> relu reads x; 0 -> 2 (WAW) implied via 1 -> 2 */
  ASSERT_SUCC(p, 1, "2");   /* reader of x before writer 2 (WAR); 1 -> 3 (WAW a) implied */
  ASSERT_SUCC(p, 2, "3");   /* RAW on x */
  ASSERT_SUCC(p, 3, "4");
  ck_assert_uint_eq(p->instrs[0].n_preds, 0);
  ck_assert_uint_eq(p->instrs[3].n_preds, 1);
  /* b is read before any op writes it: bound from the scope */
  ck_assert_int_eq(p->vars[var_of(p, "b")].kind, IC_PV_EXTERNAL);
  ck_assert_uint_eq(p->stats.edges, 4);
  ck_assert_uint_eq(p->stats.edges_before_pruning, 6);
  ck_assert_uint_eq(p->stats.critical_path, 5);
  /* a chain: every instruction but the root feed and the fetch is alone */
  ck_assert(!p->instrs[0].alone);
  for (size_t i = 1; i < 4; i++) ck_assert(p->instrs[i].alone);
  ck_assert(!p->instrs[4].alone);
  ic_plan_destroy(p);
  ic_program_destroy(prog);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(transitive_pruning) {
  /* 0 feed x; 1 a = relu(x); 2 c = relu(a); 3 d = a + c. Edges 1->2, 1->3, 2->3: 1->3 pruned. */
  ic_builder *b = ic_builder_create();
  vars(b, TU_NAMES("x", "a", "c", "d"), 4);
  ic_builder_feed(b, "x");
  unary(b, "relu", "x", "a");
  unary(b, "relu", "a", "c");
  add(b, "a", "c", "d");
  ic_builder_fetch(b, "d");
  ic_program *prog;
  ic_plan *p = plan_of(b, 1, TU_NAMES("x"), 1, TU_NAMES("d"), false, &prog);
  ASSERT_SUCC(p, 1, "2");
  ASSERT_SUCC(p, 2, "3");
  ck_assert_uint_eq(p->instrs[3].n_preds, 1);
  ck_assert_uint_eq(p->stats.edges_before_pruning, 5);
  ck_assert_uint_eq(p->stats.edges, 4);
  ic_plan_destroy(p);
  ic_program_destroy(prog);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(independent_branches_and_width) {
  /* Two independent chains joined at the end: width 2, no edges between the chains. */
  ic_builder *b = ic_builder_create();
  vars(b, TU_NAMES("x", "y", "a1", "a2", "b1", "b2", "out"), 7);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "y");
  unary(b, "relu", "x", "a1"); /* 2 */
  unary(b, "relu", "y", "b1"); /* 3 */
  unary(b, "tanh", "a1", "a2"); /* 4 */
  unary(b, "tanh", "b1", "b2"); /* 5 */
  add(b, "a2", "b2", "out");   /* 6 */
  ic_builder_fetch(b, "out");
  ic_program *prog;
  ic_plan *p = plan_of(b, 2, TU_NAMES("x", "y"), 1, TU_NAMES("out"), false, &prog);
  ASSERT_SUCC(p, 2, "4");
  ASSERT_SUCC(p, 3, "5");
  ASSERT_SUCC(p, 4, "6");
  ASSERT_SUCC(p, 5, "6");
  ck_assert_uint_eq(p->n_roots, 2);
  ck_assert_uint_eq(p->stats.max_width, 2);
  /* the branches run beside each other; the join has everything before it */
  for (size_t i = 2; i < 6; i++) ck_assert(!p->instrs[i].alone);
  ck_assert(p->instrs[6].alone);
  ck_assert_uint_eq(p->stats.critical_path, 5);
  /* heights: instructions on the longest path to the end, the fetch included */
  static const uint32_t heights[] = {5, 5, 4, 4, 3, 3, 2, 1};
  ck_assert_uint_eq(p->n_instrs, 8);
  for (size_t i = 0; i < 8; i++) {
    ck_assert_msg(p->instrs[i].height == heights[i], "instruction %zu: height %u, expected %u", i,
                  p->instrs[i].height, heights[i]);
  }
  ic_plan_destroy(p);
  ic_program_destroy(prog);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(implicit_random_and_sequential) {
  /* Random ops writing unrelated variables keep their order; ordinary ops do not. */
  ic_builder *b = ic_builder_create();
  vars(b, TU_NAMES("r1", "r2", "r3", "x", "y"), 5);
  ic_builder_feed(b, "x");
  random_op(b, "r1");          /* 1 */
  unary(b, "relu", "x", "y");  /* 2 */
  random_op(b, "r2");          /* 3 */
  random_op(b, "r3");          /* 4 */
  ic_builder_fetch(b, "r1");
  ic_builder_fetch(b, "r2");
  ic_builder_fetch(b, "r3");
  ic_builder_fetch(b, "y");
  const char *const fetches[] = {"r1", "r2", "r3", "y"};
  ic_program *prog;
  ic_plan *p = plan_of(b, 1, TU_NAMES("x"), 4, fetches, false, &prog);
  ck_assert_int_eq(p->instrs[1].n_succ, 2); /* -> r2's random op (implicit), -> fetch r1 */
  ck_assert_uint_eq(p->instrs[1].succ[0], 3);
  ck_assert_uint_eq(p->instrs[1].succ_kind[0], IC_EDGE_IMPLICIT);
  ck_assert_uint_eq(p->instrs[3].succ[0], 4);
  ck_assert_uint_eq(p->instrs[2].n_preds, 1); /* only the feed: no implicit edge to relu */
  ck_assert_uint_eq(p->stats.implicit_edges, 2);
  /* fetch ops write distinct columns of one holder: no edges among them */
  for (size_t i = 5; i < 9; i++) ck_assert_uint_eq(p->instrs[i].n_succ, 0);
  ic_plan_destroy(p);
  ic_program_destroy(prog);
  /* sequential: one chain in program order */
  p = plan_of(b, 1, TU_NAMES("x"), 4, fetches, true, &prog);
  for (size_t i = 0; i + 1 < p->n_instrs; i++) {
    ck_assert_uint_eq(p->instrs[i].n_succ, 1);
    ck_assert_uint_eq(p->instrs[i].succ[0], i + 1);
  }
  ck_assert_uint_eq(p->stats.critical_path, p->n_instrs);
  ic_plan_destroy(p);
  ic_program_destroy(prog);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(lifetimes_and_releases) {
  /* x fed; a = relu(x); s = shape(a) reads a's shape only; c = relu(a); fetch s, c.
   * a's last buffer use is instruction 3 (relu), not the shape op. */
  ic_builder *b = ic_builder_create();
  vars(b, TU_NAMES("x", "a", "c"), 3);
  ic_builder_var(b, 0, "s", IC_INT32, 1, TU_DIMS(1), false);
  ic_builder_feed(b, "x");
  unary(b, "relu", "x", "a");                     /* 1 */
  ic_builder_op *sh = ic_builder_add_op(b, 0, "shape");
  ic_builder_in(sh, "Input", "a");                /* 2 */
  ic_builder_out(sh, "Out", "s");
  unary(b, "relu", "a", "c");                     /* 3 */
  ic_builder_fetch(b, "s");
  ic_builder_fetch(b, "c");
  ic_program *prog;
  ic_plan *p = plan_of(b, 1, TU_NAMES("x"), 2, TU_NAMES("s", "c"), false, &prog);
  uint32_t a = var_of(p, "a"), x = var_of(p, "x"), c = var_of(p, "c");
  ck_assert_int_eq(p->vars[a].first_write, 1);
  ck_assert_int_eq(p->vars[a].last_use, 3);
  ck_assert_uint_eq(p->vars[a].n_uses, 2); /* written by 1, read by 3; the shape op does not count */
  ck_assert(p->vars[x].keep);              /* fed */
  ck_assert(p->vars[c].keep);              /* fetched */
  ck_assert_uint_eq(p->vars[x].n_uses, 0);
  ck_assert_uint_eq(p->instrs[2].n_gc, 0); /* shape releases nothing */
  ck_assert_uint_eq(p->instrs[3].n_gc, 1);
  ck_assert_uint_eq(p->instrs[3].gc[0], a);
  ic_plan_destroy(p);
  ic_program_destroy(prog);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(priority_orders_roots) {
  ic_builder *b = ic_builder_create();
  vars(b, TU_NAMES("r1", "r2", "r3"), 3);
  const char *outs[] = {"r1", "r2", "r3"};
  int prio[] = {5, -1, 5};
  for (int i = 0; i < 3; i++) {
    ic_builder_op *op = ic_builder_add_op(b, 0, "fill_constant");
    ic_builder_out(op, "Out", outs[i]);
    ic_builder_attr_longs(op, "shape", 1, k_dims);
    ic_builder_attr_int(op, "dtype", IC_FP32);
    ic_builder_attr_float(op, "value", (float)i);
    ic_builder_attr_int(op, "scheduling_priority", prio[i]);
  }
  ic_program *prog;
  ic_plan *p = plan_of(b, 0, NULL, 3, outs, false, &prog);
  ck_assert_uint_eq(p->n_roots, 3);
  ck_assert_uint_eq(p->roots[0], 1); /* priority -1 first */
  ck_assert_uint_eq(p->roots[1], 0); /* ties in program order */
  ck_assert_uint_eq(p->roots[2], 2);
  ic_plan_destroy(p);
  ic_program_destroy(prog);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(unknown_op_and_bad_slot) {
  ic_builder *b = ic_builder_create();
  vars(b, TU_NAMES("x", "y"), 2);
  unary(b, "no_such_op", "x", "y");
  ic_program *prog;
  char err[1024];
  ck_assert_int_eq(ic_builder_build(b, &prog, err, sizeof err), IC_OK);
  ic_plan *p;
  ic_err e;
  ic_plan_options o = {.gc = true};
  ck_assert_int_eq(ic_plan_build(prog, 0, NULL, 1, TU_NAMES("y"), &o, &p, &e), IC_ERR_UNSUPPORTED);
  tu_assert_msg(e.msg, "op #0", "no_such_op", NULL);
  ic_program_destroy(prog);
  ic_builder_destroy(b);
  /* a slot the op does not have */
  b = ic_builder_create();
  vars(b, TU_NAMES("x", "y", "z"), 3);
  ic_builder_op *op = unary(b, "relu", "x", "y");
  ic_builder_in(op, "Bogus", "z");
  ck_assert_int_eq(ic_builder_build(b, &prog, err, sizeof err), IC_OK);
  ck_assert_int_eq(ic_plan_build(prog, 0, NULL, 1, TU_NAMES("y"), &o, &p, &e), IC_ERR_UNSUPPORTED);
  tu_assert_msg(e.msg, "op #0 (relu)", "Bogus", "'z'", NULL);
  ic_program_destroy(prog);
  ic_builder_destroy(b);
}
END_TEST

static TCase *tc_rules(void) {
  TCase *tc = tcase_create("rules");
  tcase_add_test(tc, raw_war_waw);
  tcase_add_test(tc, transitive_pruning);
  tcase_add_test(tc, independent_branches_and_width);
  tcase_add_test(tc, implicit_random_and_sequential);
  tcase_add_test(tc, lifetimes_and_releases);
  tcase_add_test(tc, priority_orders_roots);
  tcase_add_test(tc, unknown_op_and_bad_slot);
  return tc;
}

TU_MAIN("dag", tc_rules)
