/* Control flow: while and conditional_block with sub-blocks, built with the program builder,
 * run in the uncompiled executor and the compiled one at 1, 2 and 4 threads (bitwise equal),
 * against references computed in double precision. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ctrlflow.h"
#include "analysis/plan.h"
#include "interp/interp.h"
#include "testutil.h"

typedef struct cfg {
  const char *name;
  ic_mode mode;
  int threads;
  bool serial;
  bool emu; /* on the emulated device emu:0: control-flow ops and their sub-blocks run on
               the host behind placement copies */
} cfg;

static const cfg k_cfgs[] = {{"uncompiled", IC_MODE_UNCOMPILED, 1, true, false},
                             {"compiled serial", IC_MODE_COMPILED, 1, true, false},
                             {"compiled 2", IC_MODE_COMPILED, 2, false, false},
                             {"compiled 4", IC_MODE_COMPILED, 4, false, false},
                             {"emu:0 serial", IC_MODE_COMPILED, 1, true, true},
                             {"emu:0 2 threads", IC_MODE_COMPILED, 2, false, true}};
#define N_CFGS (sizeof k_cfgs / sizeof k_cfgs[0])

static ic_executor *make_exec(const cfg *c) {
  ic_options o;
  ic_options_default(&o);
  o.mode = c->mode;
  o.threads = c->threads;
  o.serial = c->serial;
  if (c->emu) o.device = (ic_place){IC_PLACE_EMULATED, 0};
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  /* real stream threads with random delays: a missing copy or wait shows as a wrong value */
  if (c->emu) ic_executor_emu_testing(e, 50, true, 7);
  return e;
}

static void var(ic_builder *b, int blk, const char *name, ic_dtype dt, int64_t n) {
  ic_builder_var(b, blk, name, dt, 1, (const int64_t[]){n}, false);
}

static ic_builder_op *op1(ic_builder *b, int blk, const char *type, const char *x,
                          const char *out) {
  ic_builder_op *op = ic_builder_add_op(b, blk, type);
  ic_builder_in(op, "X", x);
  ic_builder_out(op, "Out", out);
  return op;
}

static ic_builder_op *scale(ic_builder *b, int blk, const char *x, const char *out, float s,
                            float bias) {
  ic_builder_op *op = op1(b, blk, "scale", x, out);
  ic_builder_attr_float(op, "scale", s);
  ic_builder_attr_float(op, "bias", bias);
  return op;
}

static void fill_i64(ic_builder *b, int blk, const char *out, float v) {
  ic_builder_op *op = ic_builder_add_op(b, blk, "fill_constant");
  ic_builder_out(op, "Out", out);
  ic_builder_attr_longs(op, "shape", 1, (const int64_t[]){1});
  ic_builder_attr_int(op, "dtype", 3); /* INT64 */
  ic_builder_attr_float(op, "value", v);
}

static void less(ic_builder *b, int blk, const char *x, const char *y, const char *out) {
  ic_builder_op *op = ic_builder_add_op(b, blk, "less_than");
  ic_builder_in(op, "X", x);
  ic_builder_in(op, "Y", y);
  ic_builder_out(op, "Out", out);
}

/* A while op; X and Out deliberately list only the condition (analysis finds the rest). */
static void while_op(ic_builder *b, int blk, const char *cond, int sub) {
  ic_builder_op *w = ic_builder_add_op(b, blk, "while");
  ic_builder_in(w, "Condition", cond);
  ic_builder_attr_block(w, "sub_block", sub);
  ic_builder_attr_bool(w, "is_test", true);
}

static ic_program *build(ic_builder *b) {
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  return p;
}

#define N 4

/* acc = x; i = 0; while (i < n) { t = 0.5 * acc + 1; acc = t; i++ }; side = tanh(x)
 * (independent of the loop). Fetches acc, i, side. */
static ic_program *count_loop(int64_t width) {
  ic_builder *b = ic_builder_create();
  int b1 = ic_builder_add_block(b, 0);
  var(b, 0, "x", IC_FP32, width);
  var(b, 0, "n", IC_INT64, 1);
  var(b, 0, "acc", IC_FP32, width);
  var(b, 0, "side", IC_FP32, width);
  var(b, 0, "i", IC_INT64, 1);
  var(b, 0, "cond", IC_BOOL, 1);
  var(b, b1, "t", IC_FP32, width);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "n");
  fill_i64(b, 0, "i", 0);
  op1(b, 0, "assign", "x", "acc");
  less(b, 0, "i", "n", "cond");
  while_op(b, 0, "cond", b1);
  op1(b, 0, "tanh", "x", "side");
  scale(b, b1, "acc", "t", 0.5f, 1.0f);
  op1(b, b1, "assign", "t", "acc");
  ic_builder_attr_float(op1(b, b1, "increment", "i", "i"), "step", 1.0f);
  less(b, b1, "i", "n", "cond");
  ic_builder_fetch(b, "acc");
  ic_builder_fetch(b, "i");
  ic_builder_fetch(b, "side");
  return build(b);
}

/* Runs p in every configuration, checks bitwise agreement, returns the uncompiled outputs. */
static void run_all(const ic_program *p, size_t nf, const char *const *fnames, ic_tensor **feeds,
                    size_t no, const char *const *onames, ic_tensor **out) {
  for (size_t c = 0; c < N_CFGS; c++) {
    ic_executor *e = make_exec(&k_cfgs[c]);
    ic_tensor *got[8] = {0};
    ck_assert_msg(ic_executor_run(e, p, NULL, nf, fnames, (const ic_tensor *const *)feeds, no,
                                  onames, got) == IC_OK,
                  "%s: %s", k_cfgs[c].name, ic_executor_errmsg(e));
    for (size_t k = 0; k < no; k++) {
      if (c == 0) {
        out[k] = got[k];
      } else {
        tu_assert_bitwise(got[k], out[k], k_cfgs[c].name);
        ic_tensor_destroy(got[k]);
      }
    }
    ic_executor_destroy(e);
  }
}

static void check_count(int64_t n) {
  ic_program *p = count_loop(N);
  float xv[N] = {1.0f, -2.0f, 0.25f, 8.0f};
  ic_tensor *feeds[2] = {tu_f32(1, TU_DIMS(N), xv), tu_i64(1, TU_DIMS(1), (int64_t[]){n})};
  ic_tensor *out[3];
  run_all(p, 2, TU_NAMES("x", "n"), feeds, 3, TU_NAMES("acc", "i", "side"), out);
  double ref[N], side[N];
  for (int k = 0; k < N; k++) {
    ref[k] = xv[k];
    for (int64_t it = 0; it < n; it++) ref[k] = 0.5 * ref[k] + 1.0;
    side[k] = tanh(xv[k]);
  }
  tu_assert_close(out[0], ref, N, 1e-6, 1e-6);
  ck_assert_int_eq(*(int64_t *)ic_tensor_data(out[1]), n < 0 ? 0 : n);
  tu_assert_close(out[2], side, N, 1e-6, 1e-6);
  for (int k = 0; k < 3; k++) ic_tensor_destroy(out[k]);
  for (int k = 0; k < 2; k++) ic_tensor_destroy(feeds[k]);
  ic_program_destroy(p);
}

START_TEST(while_counts) {
  check_count(0);
  check_count(1);
  check_count(10);
  check_count(-3);
}
END_TEST

/* The analysis widened the while to everything its body reads and writes outside: the DAG
 * orders the assign writing acc before it and leaves tanh independent of it. */
START_TEST(while_plan) {
  ic_program *p = count_loop(N);
  ic_executor *e = make_exec(&k_cfgs[3]);
  ic_tensor *feeds[2] = {tu_rand_f32(1, TU_DIMS(N), 1, -1, 1),
                         tu_i64(1, TU_DIMS(1), (int64_t[]){3})};
  ic_tensor *out[3] = {0};
  ck_assert_int_eq(ic_executor_run(e, p, NULL, 2, TU_NAMES("x", "n"),
                                   (const ic_tensor *const *)feeds, 3,
                                   TU_NAMES("acc", "i", "side"), out),
                   IC_OK);
  const ic_plan *plan = ic_executor_last_plan(e);
  ck_assert_ptr_nonnull(plan);
  int w = -1, tanh_i = -1;
  for (size_t i = 0; i < plan->n_instrs; i++) {
    if (!strcmp(plan->instrs[i].op->type, "while")) w = (int)i;
    if (!strcmp(plan->instrs[i].op->type, "tanh")) tanh_i = (int)i;
  }
  ck_assert_int_ge(w, 0);
  ck_assert_int_ge(tanh_i, 0);
  const ic_instr *wi = &plan->instrs[w];
  ck_assert_ptr_nonnull(wi->sub);
  /* X widened: acc, i, n are read inside; Out: acc, i, cond written inside. */
  bool reads_acc = false, writes_acc = false;
  for (uint32_t j = 0; j < wi->in[0].n; j++) reads_acc |= !strcmp(plan->vars[wi->in[0].vars[j]].name, "acc");
  for (uint32_t j = 0; j < wi->out[0].n; j++) writes_acc |= !strcmp(plan->vars[wi->out[0].vars[j]].name, "acc");
  ck_assert(reads_acc && writes_acc);
  for (uint32_t k = 0; k < wi->n_succ; k++) ck_assert_int_ne(wi->succ[k], tanh_i);
  for (uint32_t k = 0; k < plan->instrs[tanh_i].n_succ; k++) {
    ck_assert_int_ne(plan->instrs[tanh_i].succ[k], w);
  }
  for (int k = 0; k < 3; k++) ic_tensor_destroy(out[k]);
  for (int k = 0; k < 2; k++) ic_tensor_destroy(feeds[k]);
  ic_executor_destroy(e);
  ic_program_destroy(p);
}
END_TEST

/* On a device (emu:0) the while runs on the host: the loop counter and condition that device
 * kernels made before it are copied back to the host first, and the tanh independent of
 * the loop still runs on the device. */
START_TEST(while_on_device_plan) {
  ic_program *p = count_loop(N);
  ic_executor *e = make_exec(&k_cfgs[4]);
  ck_assert(k_cfgs[4].emu);
  ic_tensor *feeds[2] = {tu_rand_f32(1, TU_DIMS(N), 1, -1, 1), tu_i64(1, TU_DIMS(1), (int64_t[]){3})};
  ic_tensor *out[3] = {0};
  ck_assert_msg(ic_executor_run(e, p, NULL, 2, TU_NAMES("x", "n"), (const ic_tensor *const *)feeds, 3,
                                TU_NAMES("acc", "i", "side"), out) == IC_OK,
                "%s", ic_executor_errmsg(e));
  ck_assert_int_eq(*(const int64_t *)ic_tensor_data(out[1]), 3);
  const ic_plan *plan = ic_executor_last_plan(e);
  int w = -1;
  bool copied_cond = false, tanh_dev = false;
  for (size_t i = 0; i < plan->n_instrs; i++) {
    const ic_instr *in = &plan->instrs[i];
    if (!strcmp(in->op->type, "while")) w = (int)i;
    if (!strcmp(in->op->type, "tanh")) tanh_dev = in->where == IC_WHERE_DEVICE;
    if (in->where == IC_WHERE_D2H && w < 0 && !strcmp(plan->vars[in->out[0].vars[0]].name, "cond")) {
      copied_cond = true;
    }
  }
  ck_assert_int_ge(w, 0);
  ck_assert_int_eq(plan->instrs[w].where, IC_WHERE_HOST);
  ck_assert_msg(copied_cond, "no copy of cond to the host before the while");
  ck_assert(tanh_dev);
  for (int k = 0; k < 3; k++) ic_tensor_destroy(out[k]);
  for (int k = 0; k < 2; k++) ic_tensor_destroy(feeds[k]);
  ic_executor_destroy(e);
  ic_program_destroy(p);
}
END_TEST

/* 10,000 iterations with a 64 KiB temporary per iteration: peak memory is that of 10. */
START_TEST(while_long_flat_memory) {
  const int64_t W = 16384;
  ic_program *p = count_loop(W);
  ic_tensor *x = tu_rand_f32(1, TU_DIMS(W), 7, -1, 1);
  size_t peaks[2][N_CFGS];
  const int64_t iters[2] = {10, 10000};
  for (int r = 0; r < 2; r++) {
    for (size_t c = 0; c < N_CFGS; c++) {
      ic_executor *e = make_exec(&k_cfgs[c]);
      ic_tensor *feeds[2] = {x, tu_i64(1, TU_DIMS(1), (int64_t[]){iters[r]})};
      ic_tensor *out[3] = {0};
      ck_assert_msg(ic_executor_run(e, p, NULL, 2, TU_NAMES("x", "n"),
                                    (const ic_tensor *const *)feeds, 3,
                                    TU_NAMES("acc", "i", "side"), out) == IC_OK,
                    "%s", ic_executor_errmsg(e));
      ck_assert_int_eq(*(int64_t *)ic_tensor_data(out[1]), iters[r]);
      /* 0.5 a + 1 converges to 2. */
      if (r == 1) {
        const float *a = ic_tensor_data(out[0]);
        for (int64_t k = 0; k < W; k++) ck_assert_float_eq_tol(a[k], 2.0f, 1e-6f);
      }
      ic_memory_stats ms;
      ic_executor_memory_stats(e, &ms);
      peaks[r][c] = ms.peak_bytes;
      for (int k = 0; k < 3; k++) ic_tensor_destroy(out[k]);
      ic_tensor_destroy(feeds[1]);
      ic_executor_destroy(e);
    }
  }
  /* Serial runs allocate in a fixed order: the same peak. With threads, tanh's output may or
   * may not overlap the loop, so the bound is the live set: at most five buffers
   * (acc, t, the next t, side, slack), never one per iteration (10,000 x 64 KiB). */
  for (size_t c = 0; c < N_CFGS; c++) {
    if (k_cfgs[c].serial) {
      ck_assert_msg(peaks[1][c] == peaks[0][c],
                    "%s: peak %zu bytes after 10000 iterations, %zu after 10", k_cfgs[c].name,
                    peaks[1][c], peaks[0][c]);
    }
    ck_assert_msg(peaks[1][c] <= (size_t)W * 4 * 5, "%s: peak %zu", k_cfgs[c].name, peaks[1][c]);
  }
  ic_tensor_destroy(x);
  ic_program_destroy(p);
}
END_TEST

/* What Paddle's skip_eager_deletion_vars and PrepareSafeEagerDeletionOnWhileOp protect from
 * its garbage collector, kept alive here by lifetimes derived from the widened slots:
 *   y = 2x, made before the loop and read by every iteration (never after it);
 *   acc, written by iteration k and read by iteration k + 1;
 *   z = x + 1, read inside the loop and after it (out = acc + z);
 *   cond, written in the body and read by the while op itself in block 0.
 * Body: acc = (0.5 acc + y) * z; i++; cond = i < n. With GC on and freed buffers poisoned
 * (NaN), a value released too early shows in the result. */
static ic_program *gc_loop(void) {
  ic_builder *b = ic_builder_create();
  int b1 = ic_builder_add_block(b, 0);
  const char *f32[] = {"x", "y", "z", "acc", "out"};
  for (int k = 0; k < 5; k++) var(b, 0, f32[k], IC_FP32, N);
  var(b, 0, "n", IC_INT64, 1);
  var(b, 0, "i", IC_INT64, 1);
  var(b, 0, "cond", IC_BOOL, 1);
  var(b, b1, "t", IC_FP32, N);
  var(b, b1, "u", IC_FP32, N);
  var(b, b1, "s", IC_FP32, N);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "n");
  scale(b, 0, "x", "y", 2.0f, 0.0f);
  scale(b, 0, "x", "z", 1.0f, 1.0f);
  op1(b, 0, "assign", "x", "acc");
  fill_i64(b, 0, "i", 0);
  less(b, 0, "i", "n", "cond");
  while_op(b, 0, "cond", b1);
  ic_builder_op *add = ic_builder_add_op(b, 0, "elementwise_add");
  ic_builder_in(add, "X", "acc");
  ic_builder_in(add, "Y", "z");
  ic_builder_out(add, "Out", "out");
  scale(b, b1, "acc", "t", 0.5f, 0.0f);
  ic_builder_op *a1 = ic_builder_add_op(b, b1, "elementwise_add");
  ic_builder_in(a1, "X", "t");
  ic_builder_in(a1, "Y", "y");
  ic_builder_out(a1, "Out", "u");
  ic_builder_op *m1 = ic_builder_add_op(b, b1, "elementwise_mul");
  ic_builder_in(m1, "X", "u");
  ic_builder_in(m1, "Y", "z");
  ic_builder_out(m1, "Out", "s");
  op1(b, b1, "assign", "s", "acc");
  op1(b, b1, "increment", "i", "i");
  less(b, b1, "i", "n", "cond");
  ic_builder_fetch(b, "out");
  return build(b);
}

static uint32_t plan_var(const ic_plan *p, const char *name) {
  for (uint32_t v = 0; v < p->n_vars; v++) {
    if (!strcmp(p->vars[v].name, name)) return v;
  }
  ck_abort_msg("no variable '%s' in the plan", name);
  return 0;
}

START_TEST(gc_keeps_loop_values) {
  ic_program *p = gc_loop();
  float xv[N] = {0.75f, -0.5f, 0.25f, -1.0f};
  ic_tensor *x = tu_f32(1, TU_DIMS(N), xv);
  for (int64_t n = 0; n <= 5; n += 5) {
    double want[N];
    for (int k = 0; k < N; k++) {
      double acc = xv[k], y = 2.0 * xv[k], z = xv[k] + 1.0;
      for (int64_t it = 0; it < n; it++) acc = (0.5 * acc + y) * z;
      want[k] = acc + z;
    }
    ic_tensor *ref = NULL;
    for (size_t c = 0; c < N_CFGS; c++) {
      ic_executor *e = make_exec(&k_cfgs[c]);
      ic_executor_poison_freed(e, true);
      ic_tensor *feeds[2] = {x, tu_i64(1, TU_DIMS(1), &n)};
      ic_tensor *out[1] = {0};
      ck_assert_msg(ic_executor_run(e, p, NULL, 2, TU_NAMES("x", "n"),
                                    (const ic_tensor *const *)feeds, 1, TU_NAMES("out"),
                                    out) == IC_OK,
                    "%s: %s", k_cfgs[c].name, ic_executor_errmsg(e));
      tu_assert_close(out[0], want, N, 1e-5, 1e-6);
      if (!ref) ref = out[0];
      else tu_assert_bitwise(out[0], ref, k_cfgs[c].name);
      if (k_cfgs[c].mode == IC_MODE_COMPILED && !k_cfgs[c].emu) {
        /* The lifetimes themselves: y and z are released no earlier than the while (z only
         * after the add that follows it); cond is an outer variable of the body, never in
         * one of its release lists, and an input of the while. */
        const ic_plan *plan = ic_executor_last_plan(e);
        int32_t w = -1;
        for (size_t i = 0; i < plan->n_instrs; i++) {
          if (!strcmp(plan->instrs[i].op->type, "while")) w = (int32_t)i;
        }
        ck_assert_int_ge(w, 0);
        ck_assert_int_eq(plan->vars[plan_var(plan, "y")].last_use, w);
        ck_assert_int_gt(plan->vars[plan_var(plan, "z")].last_use, w);
        ck_assert_int_gt(plan->vars[plan_var(plan, "acc")].last_use, w);
        const ic_instr *wi = &plan->instrs[w];
        uint32_t cv = plan_var(plan, "cond");
        bool reads_cond = false, writes_cond = false;
        for (size_t k = 0; k < wi->def->n_inputs; k++) {
          for (uint32_t j = 0; j < wi->in[k].n; j++) reads_cond |= wi->in[k].vars[j] == cv;
        }
        for (uint32_t j = 0; j < wi->out[0].n; j++) writes_cond |= wi->out[0].vars[j] == cv;
        ck_assert(reads_cond && writes_cond);
        const ic_subplan *sp = wi->sub;
        for (uint32_t i = 0; i < sp->n_instrs; i++) {
          for (uint32_t g = 0; g < sp->instrs[i].n_gc; g++) {
            const char *nm = sp->names[sp->instrs[i].gc[g]];
            ck_assert_msg(strcmp(nm, "cond") && strcmp(nm, "y") && strcmp(nm, "z") &&
                              strcmp(nm, "acc") && strcmp(nm, "i"),
                          "the body releases outer variable '%s'", nm);
          }
        }
      }
      if (out[0] != ref) ic_tensor_destroy(out[0]);
      ic_tensor_destroy(feeds[1]);
      ic_executor_destroy(e);
    }
    ic_tensor_destroy(ref);
  }
  ic_tensor_destroy(x);
  ic_program_destroy(p);
}
END_TEST

/* The conditional_block side of those rules (Paddle's
 * PrepareSafeEagerDeletionOnConditionalOpAndConditionalGradOp): y = 2x read only inside the
 * branch, z = x + 1 read inside and after it, out = x before and y * z when the branch runs;
 * res = out + z. GC on, freed buffers poisoned, both decisions, every configuration. */
START_TEST(gc_keeps_branch_values) {
  ic_builder *b = ic_builder_create();
  int bt = ic_builder_add_block(b, 0);
  const char *f32[] = {"x", "y", "z", "out", "res"};
  for (int k = 0; k < 5; k++) var(b, 0, f32[k], IC_FP32, N);
  var(b, 0, "c", IC_BOOL, 1);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "c");
  scale(b, 0, "x", "y", 2.0f, 0.0f);
  scale(b, 0, "x", "z", 1.0f, 1.0f);
  op1(b, 0, "assign", "x", "out");
  ic_builder_op *cb = ic_builder_add_op(b, 0, "conditional_block");
  ic_builder_in(cb, "Cond", "c");
  ic_builder_out(cb, "Out", "out");
  ic_builder_attr_block(cb, "sub_block", bt);
  ic_builder_attr_bool(cb, "is_scalar_condition", true);
  ic_builder_op *m = ic_builder_add_op(b, bt, "elementwise_mul");
  ic_builder_in(m, "X", "y");
  ic_builder_in(m, "Y", "z");
  ic_builder_out(m, "Out", "out");
  ic_builder_op *a = ic_builder_add_op(b, 0, "elementwise_add");
  ic_builder_in(a, "X", "out");
  ic_builder_in(a, "Y", "z");
  ic_builder_out(a, "Out", "res");
  ic_builder_fetch(b, "res");
  ic_program *p = build(b);
  float xv[N] = {0.75f, -0.5f, 0.25f, -1.0f};
  ic_tensor *x = tu_f32(1, TU_DIMS(N), xv);
  for (int take = 0; take < 2; take++) {
    double want[N];
    for (int k = 0; k < N; k++) {
      double y = 2.0 * xv[k], z = (double)xv[k] + 1.0;
      want[k] = (take ? y * z : xv[k]) + z;
    }
    ic_tensor *c;
    ck_assert_int_eq(ic_tensor_create(IC_BOOL, 1, TU_DIMS(1), &c), IC_OK);
    *(uint8_t *)ic_tensor_data(c) = (uint8_t)take;
    ic_tensor *ref = NULL;
    for (size_t cf = 0; cf < N_CFGS; cf++) {
      ic_executor *e = make_exec(&k_cfgs[cf]);
      ic_executor_poison_freed(e, true);
      ic_tensor *out[1] = {0};
      ck_assert_msg(ic_executor_run(e, p, NULL, 2, TU_NAMES("x", "c"), (const ic_tensor *const[]){x, c},
                                    1, TU_NAMES("res"), out) == IC_OK,
                    "%s: %s", k_cfgs[cf].name, ic_executor_errmsg(e));
      tu_assert_close(out[0], want, N, 1e-6, 1e-6);
      if (!ref) ref = out[0];
      else tu_assert_bitwise(out[0], ref, k_cfgs[cf].name);
      if (k_cfgs[cf].mode == IC_MODE_COMPILED && !k_cfgs[cf].emu) {
        const ic_plan *plan = ic_executor_last_plan(e);
        int32_t ci = -1;
        for (size_t i = 0; i < plan->n_instrs; i++) {
          if (!strcmp(plan->instrs[i].op->type, "conditional_block")) ci = (int32_t)i;
        }
        ck_assert_int_ge(ci, 0);
        ck_assert_int_eq(plan->vars[plan_var(plan, "y")].last_use, ci);
        ck_assert_int_gt(plan->vars[plan_var(plan, "z")].last_use, ci);
      }
      if (out[0] != ref) ic_tensor_destroy(out[0]);
      ic_executor_destroy(e);
    }
    ic_tensor_destroy(ref);
    ic_tensor_destroy(c);
  }
  ic_tensor_destroy(x);
  ic_program_destroy(p);
}
END_TEST

/* acc = x; i = 0; while (i < n) { j = 0; while (j < m) { acc = acc + one; j++ }; i++ }:
 * acc = x + n*m. j lives in block 1 and is outer to block 2. */
START_TEST(while_nested) {
  ic_builder *b = ic_builder_create();
  int b1 = ic_builder_add_block(b, 0);
  int b2 = ic_builder_add_block(b, b1);
  var(b, 0, "x", IC_FP32, N);
  var(b, 0, "one", IC_FP32, N);
  var(b, 0, "n", IC_INT64, 1);
  var(b, 0, "m", IC_INT64, 1);
  var(b, 0, "acc", IC_FP32, N);
  var(b, 0, "i", IC_INT64, 1);
  var(b, 0, "c0", IC_BOOL, 1);
  var(b, b1, "j", IC_INT64, 1);
  var(b, b1, "c1", IC_BOOL, 1);
  var(b, b2, "tmp", IC_FP32, N);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "n");
  ic_builder_feed(b, "m");
  scale(b, 0, "x", "one", 0.0f, 1.0f);
  op1(b, 0, "assign", "x", "acc");
  fill_i64(b, 0, "i", 0);
  less(b, 0, "i", "n", "c0");
  while_op(b, 0, "c0", b1);
  fill_i64(b, b1, "j", 0);
  less(b, b1, "j", "m", "c1");
  while_op(b, b1, "c1", b2);
  op1(b, b1, "increment", "i", "i");
  less(b, b1, "i", "n", "c0");
  ic_builder_op *add = ic_builder_add_op(b, b2, "elementwise_add");
  ic_builder_in(add, "X", "acc");
  ic_builder_in(add, "Y", "one");
  ic_builder_out(add, "Out", "tmp");
  op1(b, b2, "assign", "tmp", "acc");
  op1(b, b2, "increment", "j", "j");
  less(b, b2, "j", "m", "c1");
  ic_builder_fetch(b, "acc");
  ic_program *p = build(b);
  float xv[N] = {0.5f, -1.0f, 3.0f, 0.0f};
  const int64_t cases[][2] = {{3, 4}, {0, 5}, {2, 0}, {1, 1}};
  for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
    ic_tensor *feeds[3] = {tu_f32(1, TU_DIMS(N), xv), tu_i64(1, TU_DIMS(1), &cases[t][0]),
                           tu_i64(1, TU_DIMS(1), &cases[t][1])};
    ic_tensor *out[1];
    run_all(p, 3, TU_NAMES("x", "n", "m"), feeds, 1, TU_NAMES("acc"), out);
    double ref[N];
    for (int k = 0; k < N; k++) ref[k] = xv[k] + (double)(cases[t][0] * cases[t][1]);
    tu_assert_close(out[0], ref, N, 0, 1e-6);
    ic_tensor_destroy(out[0]);
    for (int k = 0; k < 3; k++) ic_tensor_destroy(feeds[k]);
  }
  ic_program_destroy(p);
}
END_TEST

/* if (a < b) out = 2x else out = -x, as two conditional_blocks on c and not c; one executor
 * and one cached plan, the branch changing between runs. Also the non-scalar form: a block
 * guarded by a tensor that is empty or not. */
START_TEST(cond_branches) {
  ic_builder *b = ic_builder_create();
  int bt = ic_builder_add_block(b, 0);
  int bf = ic_builder_add_block(b, 0);
  var(b, 0, "x", IC_FP32, N);
  var(b, 0, "a", IC_INT64, 1);
  var(b, 0, "bb", IC_INT64, 1);
  var(b, 0, "c", IC_BOOL, 1);
  var(b, 0, "nc", IC_BOOL, 1);
  var(b, 0, "out", IC_FP32, N);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "a");
  ic_builder_feed(b, "bb");
  less(b, 0, "a", "bb", "c");
  op1(b, 0, "logical_not", "c", "nc");
  const char *conds[2] = {"c", "nc"};
  int blocks[2] = {bt, bf};
  for (int k = 0; k < 2; k++) {
    ic_builder_op *cb = ic_builder_add_op(b, 0, "conditional_block");
    ic_builder_in(cb, "Cond", conds[k]);
    ic_builder_out(cb, "Out", "out");
    ic_builder_attr_block(cb, "sub_block", blocks[k]);
    ic_builder_attr_bool(cb, "is_scalar_condition", true);
  }
  scale(b, bt, "x", "out", 2.0f, 0.0f);
  scale(b, bf, "x", "out", -1.0f, 0.0f);
  ic_builder_fetch(b, "out");
  ic_program *p = build(b);
  float xv[N] = {1.5f, -2.0f, 0.0f, 7.0f};
  ic_tensor *x = tu_f32(1, TU_DIMS(N), xv);
  for (size_t c = 0; c < N_CFGS; c++) {
    ic_executor *e = make_exec(&k_cfgs[c]);
    for (int run = 0; run < 4; run++) {
      int64_t av = run % 2 ? 5 : 1, bv = 3;
      ic_tensor *feeds[3] = {x, tu_i64(1, TU_DIMS(1), &av), tu_i64(1, TU_DIMS(1), &bv)};
      ic_tensor *out = NULL;
      ck_assert_msg(ic_executor_run(e, p, NULL, 3, TU_NAMES("x", "a", "bb"),
                                    (const ic_tensor *const *)feeds, 1, TU_NAMES("out"),
                                    &out) == IC_OK,
                    "%s: %s", k_cfgs[c].name, ic_executor_errmsg(e));
      double ref[N];
      for (int k = 0; k < N; k++) ref[k] = av < bv ? 2.0 * xv[k] : -(double)xv[k];
      tu_assert_close(out, ref, N, 0, 0);
      ic_tensor_destroy(out);
      ic_tensor_destroy(feeds[1]);
      ic_tensor_destroy(feeds[2]);
    }
    ic_executor_destroy(e);
  }
  ic_tensor_destroy(x);
  ic_program_destroy(p);
}
END_TEST

/* A block guarded by a non-scalar Cond runs when the tensor has elements. */
START_TEST(cond_nonscalar) {
  ic_builder *b = ic_builder_create();
  int bt = ic_builder_add_block(b, 0);
  var(b, 0, "x", IC_FP32, -1);
  var(b, 0, "out", IC_FP32, -1);
  ic_builder_feed(b, "x");
  scale(b, 0, "x", "out", 1.0f, 0.0f);
  ic_builder_op *cb = ic_builder_add_op(b, 0, "conditional_block");
  ic_builder_in(cb, "Cond", "x");
  ic_builder_out(cb, "Out", "out");
  ic_builder_attr_block(cb, "sub_block", bt);
  ic_builder_attr_bool(cb, "is_scalar_condition", false);
  scale(b, bt, "x", "out", 3.0f, 0.0f);
  ic_builder_fetch(b, "out");
  ic_program *p = build(b);
  for (int64_t n = 0; n <= 2; n += 2) {
    ic_tensor *x = tu_f32(1, TU_DIMS(n), (float[]){1.0f, 2.0f});
    ic_tensor *out[1];
    run_all(p, 1, TU_NAMES("x"), &x, 1, TU_NAMES("out"), out);
    tu_assert_shape(out[0], IC_FP32, 1, TU_DIMS(n));
    if (n) tu_assert_close(out[0], (double[]){3.0, 6.0}, 2, 0, 0);
    ic_tensor_destroy(out[0]);
    ic_tensor_destroy(x);
  }
  ic_program_destroy(p);
}
END_TEST

/* The body fails on iteration k (gather's index runs past a table of k rows): the error
 * names the while, the iteration, the block and the op, and the executor runs again. */
START_TEST(while_fails_at_iteration) {
  ic_builder *b = ic_builder_create();
  int b1 = ic_builder_add_block(b, 0);
  var(b, 0, "table", IC_FP32, -1);
  var(b, 0, "n", IC_INT64, 1);
  var(b, 0, "i", IC_INT64, 1);
  var(b, 0, "cond", IC_BOOL, 1);
  var(b, 0, "acc", IC_FP32, 1);
  var(b, b1, "row", IC_FP32, 1);
  var(b, b1, "s", IC_FP32, 1);
  ic_builder_feed(b, "table");
  ic_builder_feed(b, "n");
  fill_i64(b, 0, "i", 0);
  ic_builder_op *f = ic_builder_add_op(b, 0, "fill_constant");
  ic_builder_out(f, "Out", "acc");
  ic_builder_attr_longs(f, "shape", 1, (const int64_t[]){1});
  ic_builder_attr_int(f, "dtype", 5);
  ic_builder_attr_float(f, "value", 0.0f);
  less(b, 0, "i", "n", "cond");
  while_op(b, 0, "cond", b1);
  ic_builder_op *g = ic_builder_add_op(b, b1, "gather");
  ic_builder_in(g, "X", "table");
  ic_builder_in(g, "Index", "i");
  ic_builder_out(g, "Out", "row");
  ic_builder_op *add = ic_builder_add_op(b, b1, "elementwise_add");
  ic_builder_in(add, "X", "acc");
  ic_builder_in(add, "Y", "row");
  ic_builder_out(add, "Out", "s");
  op1(b, b1, "assign", "s", "acc");
  op1(b, b1, "increment", "i", "i");
  less(b, b1, "i", "n", "cond");
  ic_builder_fetch(b, "acc");
  ic_program *p = build(b);
  ic_tensor *table = tu_f32(1, TU_DIMS(3), (float[]){1.0f, 2.0f, 4.0f});
  for (size_t c = 0; c < N_CFGS; c++) {
    ic_executor *e = make_exec(&k_cfgs[c]);
    for (int run = 0; run < 2; run++) {
      int64_t n = run ? 3 : 5;
      ic_tensor *feeds[2] = {table, tu_i64(1, TU_DIMS(1), &n)};
      ic_tensor *out = NULL;
      ic_status st = ic_executor_run(e, p, NULL, 2, TU_NAMES("table", "n"),
                                     (const ic_tensor *const *)feeds, 1, TU_NAMES("acc"), &out);
      if (run == 0) {
        ck_assert_msg(st != IC_OK, "%s: expected a failure", k_cfgs[c].name);
        ck_assert_ptr_null(out);
        tu_assert_msg(ic_executor_errmsg(e), "(while) in block 0", "iteration 3 of block 1",
                      "(gather) in block 1", NULL);
      } else {
        ck_assert_msg(st == IC_OK, "%s: %s", k_cfgs[c].name, ic_executor_errmsg(e));
        tu_assert_close(out, (double[]){7.0}, 1, 0, 0);
        ic_tensor_destroy(out);
      }
      ic_tensor_destroy(feeds[1]);
    }
    ic_executor_destroy(e);
  }
  ic_tensor_destroy(table);
  ic_program_destroy(p);
}
END_TEST

/* arr[i] = x * (i + 1) for i < n in a while, then its length, element n - 1 and the stack of
 * all. One executor runs n = 3 then n = 2: the array starts empty on every run. */
START_TEST(tensor_array) {
  ic_builder *b = ic_builder_create();
  int b1 = ic_builder_add_block(b, 0);
  var(b, 0, "x", IC_FP32, 2);
  var(b, 0, "n", IC_INT64, 1);
  var(b, 0, "i", IC_INT64, 1);
  var(b, 0, "cond", IC_BOOL, 1);
  ic_builder_var_kind(b, 0, "arr", IC_VAR_LOD_TENSOR_ARRAY, false);
  var(b, 0, "len", IC_INT64, 1);
  var(b, 0, "last_i", IC_INT64, 1);
  var(b, 0, "last", IC_FP32, 2);
  ic_builder_var(b, 0, "all", IC_FP32, 2, TU_DIMS(-1, 2), false);
  var(b, 0, "idx", IC_INT32, -1);
  var(b, b1, "fi", IC_FP32, 1);
  var(b, b1, "y", IC_FP32, 2);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "n");
  fill_i64(b, 0, "i", 0);
  less(b, 0, "i", "n", "cond");
  while_op(b, 0, "cond", b1);
  ic_builder_op *c = op1(b, b1, "cast", "i", "fi");
  ic_builder_attr_int(c, "in_dtype", 3);
  ic_builder_attr_int(c, "out_dtype", 5);
  ic_builder_op *m = ic_builder_add_op(b, b1, "elementwise_mul");
  ic_builder_in(m, "X", "x");
  ic_builder_in(m, "Y", "fi");
  ic_builder_out(m, "Out", "y");
  ic_builder_op *w = ic_builder_add_op(b, b1, "elementwise_add");
  ic_builder_in(w, "X", "y");
  ic_builder_in(w, "Y", "x");
  ic_builder_out(w, "Out", "y2");
  ic_builder_var(b, b1, "y2", IC_FP32, 1, TU_DIMS(2), false);
  ic_builder_op *wa = ic_builder_add_op(b, b1, "write_to_array");
  ic_builder_in(wa, "X", "y2");
  ic_builder_in(wa, "I", "i");
  ic_builder_out(wa, "Out", "arr");
  op1(b, b1, "increment", "i", "i");
  less(b, b1, "i", "n", "cond");
  op1(b, 0, "lod_array_length", "arr", "len");
  ic_builder_attr_float(op1(b, 0, "increment", "len", "last_i"), "step", -1.0f);
  ic_builder_op *rd = ic_builder_add_op(b, 0, "read_from_array");
  ic_builder_in(rd, "X", "arr");
  ic_builder_in(rd, "I", "last_i");
  ic_builder_out(rd, "Out", "last");
  ic_builder_op *st = ic_builder_add_op(b, 0, "tensor_array_to_tensor");
  ic_builder_in(st, "X", "arr");
  ic_builder_out(st, "Out", "all");
  ic_builder_out(st, "OutIndex", "idx");
  ic_builder_attr_int(st, "axis", 0);
  ic_builder_attr_bool(st, "use_stack", true);
  ic_builder_fetch(b, "len");
  ic_builder_fetch(b, "last");
  ic_builder_fetch(b, "all");
  ic_program *p = build(b);
  float xv[2] = {1.5f, -0.5f};
  ic_tensor *x = tu_f32(1, TU_DIMS(2), xv);
  for (size_t cf = 0; cf < N_CFGS; cf++) {
    ic_executor *e = make_exec(&k_cfgs[cf]);
    for (int64_t n = 3; n >= 2; n--) {
      ic_tensor *feeds[2] = {x, tu_i64(1, TU_DIMS(1), &n)};
      ic_tensor *out[3] = {0};
      ck_assert_msg(ic_executor_run(e, p, NULL, 2, TU_NAMES("x", "n"),
                                    (const ic_tensor *const *)feeds, 3,
                                    TU_NAMES("len", "last", "all"), out) == IC_OK,
                    "%s: %s", k_cfgs[cf].name, ic_executor_errmsg(e));
      ck_assert_int_eq(*(int64_t *)ic_tensor_data(out[0]), n);
      double last[2], all[6];
      for (int k = 0; k < 2; k++) last[k] = xv[k] * (double)n;
      for (int64_t r = 0; r < n; r++) {
        for (int k = 0; k < 2; k++) all[r * 2 + k] = xv[k] * (double)(r + 1);
      }
      tu_assert_close(out[1], last, 2, 0, 0);
      tu_assert_shape(out[2], IC_FP32, 2, TU_DIMS(n, 2));
      tu_assert_close(out[2], all, (size_t)(2 * n), 0, 0);
      for (int k = 0; k < 3; k++) ic_tensor_destroy(out[k]);
      ic_tensor_destroy(feeds[1]);
    }
    ic_executor_destroy(e);
  }
  ic_tensor_destroy(x);
  ic_program_destroy(p);
}
END_TEST

/* A random op (seed 0) in a while body draws a new stream each iteration, as Paddle's
 * advancing generator does, and the same values in every executor configuration; the
 * whole run repeats exactly with the executor's seed. */
START_TEST(random_in_loop_body) {
  ic_builder *b = ic_builder_create();
  int b1 = ic_builder_add_block(b, 0);
  var(b, 0, "n", IC_INT64, 1);
  var(b, 0, "i", IC_INT64, 1);
  var(b, 0, "cond", IC_BOOL, 1);
  ic_builder_var_kind(b, 0, "arr", IC_VAR_LOD_TENSOR_ARRAY, false);
  ic_builder_var(b, 0, "all", IC_FP32, 2, TU_DIMS(-1, 8), false);
  var(b, 0, "idx", IC_INT32, -1);
  ic_builder_var(b, b1, "r", IC_FP32, 1, TU_DIMS(8), false);
  ic_builder_feed(b, "n");
  fill_i64(b, 0, "i", 0);
  less(b, 0, "i", "n", "cond");
  while_op(b, 0, "cond", b1);
  ic_builder_op *u = ic_builder_add_op(b, b1, "uniform_random");
  ic_builder_out(u, "Out", "r");
  ic_builder_attr_longs(u, "shape", 1, (const int64_t[]){8});
  ic_builder_attr_int(u, "seed", 0);
  ic_builder_op *wa = ic_builder_add_op(b, b1, "write_to_array");
  ic_builder_in(wa, "X", "r");
  ic_builder_in(wa, "I", "i");
  ic_builder_out(wa, "Out", "arr");
  op1(b, b1, "increment", "i", "i");
  less(b, b1, "i", "n", "cond");
  ic_builder_op *st = ic_builder_add_op(b, 0, "tensor_array_to_tensor");
  ic_builder_in(st, "X", "arr");
  ic_builder_out(st, "Out", "all");
  ic_builder_out(st, "OutIndex", "idx");
  ic_builder_attr_int(st, "axis", 0);
  ic_builder_attr_bool(st, "use_stack", true);
  ic_builder_fetch(b, "all");
  ic_program *p = build(b);
  int64_t n = 4;
  ic_tensor *nt = tu_i64(1, TU_DIMS(1), &n);
  ic_tensor *first = NULL;
  for (size_t cf = 0; cf < N_CFGS; cf++) {
    ic_executor *e = make_exec(&k_cfgs[cf]);
    ic_tensor *out = NULL;
    ck_assert_msg(ic_executor_run(e, p, NULL, 1, TU_NAMES("n"), (const ic_tensor *const *)&nt, 1,
                                  TU_NAMES("all"), &out) == IC_OK,
                  "%s: %s", k_cfgs[cf].name, ic_executor_errmsg(e));
    tu_assert_shape(out, IC_FP32, 2, TU_DIMS(4, 8));
    const float *v = ic_tensor_data(out);
    for (int r = 1; r < 4; r++) {
      ck_assert_msg(memcmp(v, v + 8 * r, 8 * sizeof *v) != 0,
                    "%s: iteration %d drew iteration 0's values", k_cfgs[cf].name, r);
    }
    if (!first) first = out;
    else {
      tu_assert_bitwise(out, first, k_cfgs[cf].name);
      ic_tensor_destroy(out);
    }
    ic_executor_destroy(e);
  }
  ic_tensor_destroy(first);
  ic_tensor_destroy(nt);
  ic_program_destroy(p);
}
END_TEST

/* select_output routes x to Out[mask], select_input reads X[mask] back (the other slot holds
 * nothing); a mask out of range fails naming it. */
/* The LoD-array and beam-search ops refuse inputs that do not fit, naming the op, the input
 * and what was expected, the same in every executor (their values are checked against
 * Paddle 2.6.2 by test_ctrl_lod). */
static void expect_run_error(ic_builder *b, size_t nf, const char *const *fnames,
                             ic_tensor **feeds, const char *fetch, const char *want1,
                             const char *want2) {
  char err[1024];
  ic_tensor *out[1] = {0};
  ic_status st = tu_run(b, nf, fnames, feeds, 1, (const char *const[]){fetch}, out, err, sizeof err);
  ck_assert_int_ne(st, IC_OK);
  tu_assert_msg(err, want1, want2, NULL);
  ic_builder_destroy(b);
}

START_TEST(lod_array_errors) {
  ic_tensor *x = tu_rand_f32(2, TU_DIMS(5, 2), 3, -1, 1);
  ck_assert_int_eq(ic_tensor_set_lod(x, 1, (const size_t[]){3},
                                     (const uint64_t *const[]){(const uint64_t[]){0, 2, 5}}),
                   IC_OK);
  ic_tensor *plain = tu_rand_f32(2, TU_DIMS(5, 2), 4, -1, 1);
  /* lod_rank_table: a level the LoD does not have */
  ic_builder *b = ic_builder_create();
  ic_builder_var(b, 0, "x", IC_FP32, 2, TU_DIMS(-1, 2), false);
  var(b, 0, "rank", IC_INT64, -1);
  ic_builder_feed(b, "x");
  ic_builder_op *op = op1(b, 0, "lod_rank_table", "x", "rank");
  ic_builder_attr_int(op, "level", 1);
  expect_run_error(b, 1, TU_NAMES("x"), &x, "rank", "(lod_rank_table)",
                   "attribute level is 1, but input X 'x' has 1 LoD level(s)");
  /* max_sequence_len: a tensor no lod_rank_table wrote */
  b = ic_builder_create();
  var(b, 0, "t", IC_INT64, -1);
  var(b, 0, "len", IC_INT64, 1);
  ic_builder_feed(b, "t");
  op = ic_builder_add_op(b, 0, "max_sequence_len");
  ic_builder_in(op, "RankTable", "t");
  ic_builder_out(op, "Out", "len");
  ic_tensor *junk = tu_i64(1, TU_DIMS(4), (int64_t[]){0, 9, 1, 1});
  expect_run_error(b, 1, TU_NAMES("t"), &junk, "len", "(max_sequence_len)",
                   "input RankTable 't' is int64[4], not a rank table written by lod_rank_table");
  ic_tensor_destroy(junk);
  /* lod_tensor_to_array: X without LoD (the rank table from a LoD tensor) */
  b = ic_builder_create();
  ic_builder_var(b, 0, "x", IC_FP32, 2, TU_DIMS(-1, 2), false);
  ic_builder_var(b, 0, "p", IC_FP32, 2, TU_DIMS(-1, 2), false);
  var(b, 0, "rank", IC_INT64, -1);
  ic_builder_var_kind(b, 0, "arr", IC_VAR_LOD_TENSOR_ARRAY, false);
  var(b, 0, "n", IC_INT64, 1);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "p");
  op1(b, 0, "lod_rank_table", "x", "rank");
  op = ic_builder_add_op(b, 0, "lod_tensor_to_array");
  ic_builder_in(op, "X", "p");
  ic_builder_in(op, "RankTable", "rank");
  ic_builder_out(op, "Out", "arr");
  op1(b, 0, "lod_array_length", "arr", "n");
  expect_run_error(b, 2, TU_NAMES("x", "p"), (ic_tensor *[]){x, plain}, "n",
                   "(lod_tensor_to_array)", "input X 'p' is float32[5, 2], without LoD, expected a LoD tensor");
  /* reorder_lod_tensor_by_rank: a table of 2 sequences for a tensor of 5 rows */
  b = ic_builder_create();
  ic_builder_var(b, 0, "x", IC_FP32, 2, TU_DIMS(-1, 2), false);
  ic_builder_var(b, 0, "p", IC_FP32, 2, TU_DIMS(-1, 2), false);
  var(b, 0, "rank", IC_INT64, -1);
  ic_builder_var(b, 0, "out", IC_FP32, 2, TU_DIMS(-1, 2), false);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "p");
  op1(b, 0, "lod_rank_table", "x", "rank");
  op = ic_builder_add_op(b, 0, "reorder_lod_tensor_by_rank");
  ic_builder_in(op, "X", "p");
  ic_builder_in(op, "RankTable", "rank");
  ic_builder_out(op, "Out", "out");
  expect_run_error(b, 2, TU_NAMES("x", "p"), (ic_tensor *[]){x, plain}, "out",
                   "(reorder_lod_tensor_by_rank)", "RankTable 'rank' has 2 items, expected a permutation of the 5 sequences of input X 'p'");
  /* beam_search: scores without the two-level LoD */
  b = ic_builder_create();
  ic_builder_var(b, 0, "pre_ids", IC_INT64, 2, TU_DIMS(-1, 2), false);
  ic_builder_var(b, 0, "pre_scores", IC_FP32, 2, TU_DIMS(-1, 2), false);
  ic_builder_var(b, 0, "scores", IC_FP32, 2, TU_DIMS(-1, 2), false);
  ic_builder_var(b, 0, "sel", IC_INT64, 2, TU_DIMS(-1, 2), false);
  ic_builder_var(b, 0, "sel_sc", IC_FP32, 2, TU_DIMS(-1, 2), false);
  ic_builder_feed(b, "pre_ids");
  ic_builder_feed(b, "pre_scores");
  ic_builder_feed(b, "scores");
  op = ic_builder_add_op(b, 0, "beam_search");
  ic_builder_in(op, "pre_ids", "pre_ids");
  ic_builder_in(op, "pre_scores", "pre_scores");
  ic_builder_in(op, "scores", "scores");
  ic_builder_out(op, "selected_ids", "sel");
  ic_builder_out(op, "selected_scores", "sel_sc");
  ic_builder_attr_int(op, "beam_size", 2);
  ic_builder_attr_int(op, "end_id", 0);
  ic_tensor *bf[3] = {tu_i64(2, TU_DIMS(2, 1), (int64_t[]){1, 1}),
                      tu_f32(2, TU_DIMS(2, 1), (float[]){0, 0}), tu_rand_f32(2, TU_DIMS(2, 3), 5, 0.1f, 1)};
  ck_assert_int_eq(ic_tensor_set_lod(bf[2], 1, (const size_t[]){2},
                                     (const uint64_t *const[]){(const uint64_t[]){0, 2}}),
                   IC_OK);
  expect_run_error(b, 3, TU_NAMES("pre_ids", "pre_scores", "scores"), bf, "sel", "(beam_search)",
                   "expected a valid LoD of 2 levels or more");
  for (int k = 0; k < 3; k++) ic_tensor_destroy(bf[k]);
  ic_tensor_destroy(x);
  ic_tensor_destroy(plain);
}
END_TEST

/* The small ops decoders use: size and is_empty (0-D, as Paddle 2.6), reduce_all over an
 * axis or all, gather_tree against a hand-made tree (and a parent out of range refused). */
START_TEST(decoder_small_ops) {
  ic_builder *b = ic_builder_create();
  ic_builder_var(b, 0, "x", IC_FP32, 2, TU_DIMS(-1, 3), false);
  ic_builder_var(b, 0, "m", IC_BOOL, 2, TU_DIMS(2, 3), false);
  const char *outs[] = {"n", "e", "all1", "all"};
  for (int k = 0; k < 4; k++) ic_builder_var(b, 0, outs[k], k == 0 ? IC_INT64 : IC_BOOL, 1, TU_DIMS(-1), false);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "m");
  ic_builder_op *op = ic_builder_add_op(b, 0, "size");
  ic_builder_in(op, "Input", "x");
  ic_builder_out(op, "Out", "n");
  op1(b, 0, "is_empty", "x", "e");
  op = op1(b, 0, "reduce_all", "m", "all1");
  ic_builder_attr_longs(op, "dim", 1, (const int64_t[]){1});
  ic_builder_attr_bool(op, "keep_dim", true);
  op = op1(b, 0, "reduce_all", "m", "all");
  ic_builder_attr_bool(op, "reduce_all", true);
  for (int64_t rows = 0; rows <= 2; rows += 2) {
    ic_tensor *feeds[2] = {tu_rand_f32(2, TU_DIMS(rows, 3), 1, -1, 1), NULL};
    ck_assert_int_eq(ic_tensor_create(IC_BOOL, 2, TU_DIMS(2, 3), &feeds[1]), IC_OK);
    uint8_t *m = ic_tensor_data(feeds[1]);
    const uint8_t mv[6] = {1, 1, 1, 1, 0, 1};
    memcpy(m, mv, 6);
    ic_tensor *out[4] = {0};
    char err[512];
    ck_assert_msg(tu_run(b, 2, TU_NAMES("x", "m"), feeds, 4, outs, out, err, sizeof err) == IC_OK, "%s", err);
    tu_assert_shape(out[0], IC_INT64, 0, NULL);
    ck_assert_int_eq(*(const int64_t *)ic_tensor_data(out[0]), rows * 3);
    tu_assert_shape(out[1], IC_BOOL, 0, NULL);
    ck_assert_int_eq(*(const uint8_t *)ic_tensor_data(out[1]), rows == 0);
    tu_assert_shape(out[2], IC_BOOL, 2, TU_DIMS(2, 1));
    ck_assert_int_eq(((const uint8_t *)ic_tensor_data(out[2]))[0], 1);
    ck_assert_int_eq(((const uint8_t *)ic_tensor_data(out[2]))[1], 0);
    tu_assert_shape(out[3], IC_BOOL, 0, NULL);
    ck_assert_int_eq(*(const uint8_t *)ic_tensor_data(out[3]), 0);
    for (int k = 0; k < 4; k++) ic_tensor_destroy(out[k]);
    for (int k = 0; k < 2; k++) ic_tensor_destroy(feeds[k]);
  }
  ic_builder_destroy(b);
  /* gather_tree over 3 steps, 1 batch, 2 beams */
  b = ic_builder_create();
  ic_builder_var(b, 0, "ids", IC_INT64, 3, TU_DIMS(3, 1, 2), false);
  ic_builder_var(b, 0, "par", IC_INT64, 3, TU_DIMS(3, 1, 2), false);
  ic_builder_var(b, 0, "out", IC_INT64, 3, TU_DIMS(3, 1, 2), false);
  ic_builder_feed(b, "ids");
  ic_builder_feed(b, "par");
  op = ic_builder_add_op(b, 0, "gather_tree");
  ic_builder_in(op, "Ids", "ids");
  ic_builder_in(op, "Parents", "par");
  ic_builder_out(op, "Out", "out");
  /* step 2 beam 0 came from beam 1 at step 1, which came from beam 0 at step 0; beam 1
   * from beam 0, from beam 1 */
  ic_tensor *gf[2] = {tu_i64(3, TU_DIMS(3, 1, 2), (int64_t[]){10, 11, 20, 21, 30, 31}),
                      tu_i64(3, TU_DIMS(3, 1, 2), (int64_t[]){0, 0, 1, 0, 1, 0})};
  ic_tensor *g[1] = {0};
  char err[512];
  ck_assert_msg(tu_run(b, 2, TU_NAMES("ids", "par"), gf, 1, TU_NAMES("out"), g, err, sizeof err) == IC_OK, "%s", err);
  const int64_t want[6] = {10, 11, 21, 20, 30, 31};
  for (int k = 0; k < 6; k++) ck_assert_int_eq(((const int64_t *)ic_tensor_data(g[0]))[k], want[k]);
  ic_tensor_destroy(g[0]);
  ((int64_t *)ic_tensor_data(gf[1]))[4] = 2;
  ck_assert_int_ne(tu_run(b, 2, TU_NAMES("ids", "par"), gf, 1, TU_NAMES("out"), g, err, sizeof err), IC_OK);
  tu_assert_msg(err, "(gather_tree)", "input Parents 'par' holds 2 at step 2, batch 0: expected a beam in [0, 2)", NULL);
  for (int k = 0; k < 2; k++) ic_tensor_destroy(gf[k]);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(select_ops) {
  ic_builder *b = ic_builder_create();
  var(b, 0, "x", IC_FP32, 3);
  var(b, 0, "mask", IC_INT32, 1);
  var(b, 0, "o0", IC_FP32, 3);
  var(b, 0, "o1", IC_FP32, 3);
  var(b, 0, "y", IC_FP32, 3);
  var(b, 0, "z", IC_FP32, 3);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "mask");
  ic_builder_op *so = ic_builder_add_op(b, 0, "select_output");
  ic_builder_in(so, "X", "x");
  ic_builder_in(so, "Mask", "mask");
  ic_builder_output(so, "Out", 2, TU_NAMES("o0", "o1"));
  ic_builder_op *si = ic_builder_add_op(b, 0, "select_input");
  ic_builder_input(si, "X", 2, TU_NAMES("o0", "o1"));
  ic_builder_in(si, "Mask", "mask");
  ic_builder_out(si, "Out", "y");
  scale(b, 0, "y", "z", 2.0f, 0.0f);
  ic_builder_fetch(b, "z");
  ic_program *p = build(b);
  float xv[3] = {1.0f, -2.0f, 0.5f};
  for (int32_t m = 0; m <= 2; m++) {
    ic_tensor *feeds[2] = {tu_f32(1, TU_DIMS(3), xv), tu_i32(1, TU_DIMS(1), &m)};
    if (m < 2) {
      ic_tensor *out[1];
      run_all(p, 2, TU_NAMES("x", "mask"), feeds, 1, TU_NAMES("z"), out);
      tu_assert_close(out[0], (double[]){2.0, -4.0, 1.0}, 3, 0, 0);
      ic_tensor_destroy(out[0]);
    } else {
      ic_tensor *out[1] = {0};
      char err[1024];
      ck_assert_int_ne(tu_run_scope(p, NULL, 2, TU_NAMES("x", "mask"), feeds, 1, TU_NAMES("z"),
                                    out, err, sizeof err),
                       IC_OK);
      tu_assert_msg(err, "(select_output)", "Mask 'mask'", "expected an index into the 2 outputs",
                    NULL);
    }
    ic_tensor_destroy(feeds[0]);
    ic_tensor_destroy(feeds[1]);
  }
  ic_program_destroy(p);
}
END_TEST

/* A convolution followed by relu is one fused op, unless a sub-block reads the convolution's
 * own output: then the rewrite keeps it (fuse on, the default, in every configuration). */
START_TEST(fuse_keeps_sub_block_values) {
  ic_builder *b = ic_builder_create();
  int bt = ic_builder_add_block(b, 0);
  ic_builder_var(b, 0, "x", IC_FP32, 4, TU_DIMS(1, 1, 2, 2), false);
  ic_builder_var(b, 0, "w", IC_FP32, 4, TU_DIMS(1, 1, 1, 1), true);
  ic_builder_var(b, 0, "y", IC_FP32, 4, TU_DIMS(1, 1, 2, 2), false);
  ic_builder_var(b, 0, "r", IC_FP32, 4, TU_DIMS(1, 1, 2, 2), false);
  ic_builder_var(b, 0, "z", IC_FP32, 4, TU_DIMS(1, 1, 2, 2), false);
  ic_builder_feed(b, "x");
  ic_builder_op *cv = ic_builder_add_op(b, 0, "conv2d");
  ic_builder_in(cv, "Input", "x");
  ic_builder_in(cv, "Filter", "w");
  ic_builder_out(cv, "Output", "y");
  ic_builder_attr_ints(cv, "strides", 2, (const int32_t[]){1, 1});
  ic_builder_attr_ints(cv, "paddings", 2, (const int32_t[]){0, 0});
  ic_builder_attr_ints(cv, "dilations", 2, (const int32_t[]){1, 1});
  ic_builder_attr_int(cv, "groups", 1);
  op1(b, 0, "relu", "y", "r");
  ic_builder_op *cb = ic_builder_add_op(b, 0, "conditional_block");
  ic_builder_in(cb, "Cond", "x");
  ic_builder_out(cb, "Out", "z");
  ic_builder_attr_block(cb, "sub_block", bt);
  ic_builder_attr_bool(cb, "is_scalar_condition", false);
  scale(b, bt, "y", "z", 3.0f, 0.0f);
  ic_builder_fetch(b, "r");
  ic_builder_fetch(b, "z");
  ic_program *p = build(b);
  float xv[4] = {1.0f, -2.0f, 0.5f, -0.25f};
  ic_tensor *feeds[2] = {tu_f32(4, TU_DIMS(1, 1, 2, 2), xv),
                         tu_f32(4, TU_DIMS(1, 1, 1, 1), (float[]){2.0f})};
  ic_scope *scope;
  ck_assert_int_eq(ic_scope_create(NULL, &scope), IC_OK);
  ck_assert_int_eq(ic_scope_set(scope, "w", feeds[1]), IC_OK);
  double r[4], z[4];
  for (int k = 0; k < 4; k++) {
    r[k] = xv[k] > 0 ? 2.0 * xv[k] : 0.0;
    z[k] = 6.0 * xv[k];
  }
  for (size_t c = 0; c < N_CFGS; c++) {
    ic_executor *e = make_exec(&k_cfgs[c]); /* fuse on: the default */
    ic_tensor *out[2] = {0};
    ck_assert_msg(ic_executor_run(e, p, scope, 1, TU_NAMES("x"), (const ic_tensor *const *)feeds,
                                  2, TU_NAMES("r", "z"), out) == IC_OK,
                  "%s: %s", k_cfgs[c].name, ic_executor_errmsg(e));
    tu_assert_close(out[0], r, 4, 1e-6, 0);
    tu_assert_close(out[1], z, 4, 1e-6, 0);
    for (int k = 0; k < 2; k++) ic_tensor_destroy(out[k]);
    ic_executor_destroy(e);
  }
  for (int k = 0; k < 2; k++) ic_tensor_destroy(feeds[k]);
  ic_scope_destroy(scope);
  ic_program_destroy(p);
}
END_TEST

/* count (persistable, in the caller's scope) += 1 per iteration of a while; i, cond and the
 * body's tmp are temporaries. y = x + z after the loop fails when z does not broadcast.
 * in_sub: count is declared in the loop's block rather than block 0 (Paddle keeps every
 * persistable in the global scope wherever it is declared). */
static ic_program *persist_loop_in(bool in_sub) {
  ic_builder *b = ic_builder_create();
  int b1 = ic_builder_add_block(b, 0);
  var(b, 0, "x", IC_FP32, 3);
  var(b, 0, "z", IC_FP32, 3);
  var(b, 0, "y", IC_FP32, 3);
  var(b, 0, "n", IC_INT64, 1);
  var(b, 0, "i", IC_INT64, 1);
  var(b, 0, "cond", IC_BOOL, 1);
  ic_builder_var(b, in_sub ? b1 : 0, "count", IC_FP32, 1, TU_DIMS(1), true);
  var(b, b1, "tmp", IC_FP32, 1);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "z");
  ic_builder_feed(b, "n");
  fill_i64(b, 0, "i", 0);
  less(b, 0, "i", "n", "cond");
  while_op(b, 0, "cond", b1);
  ic_builder_op *add = ic_builder_add_op(b, 0, "elementwise_add");
  ic_builder_in(add, "X", "x");
  ic_builder_in(add, "Y", "z");
  ic_builder_out(add, "Out", "y");
  scale(b, b1, "count", "tmp", 1.0f, 1.0f);
  op1(b, b1, "assign", "tmp", "count");
  op1(b, b1, "increment", "i", "i");
  less(b, b1, "i", "n", "cond");
  ic_builder_fetch(b, "y");
  return build(b);
}

static ic_program *persist_loop(void) { return persist_loop_in(false); }

static ic_status run_persist(ic_executor *e, const ic_program *p, ic_scope *s, int64_t n,
                             int64_t zlen) {
  float xv[3] = {1, 2, 3}, zv[4] = {0.5f, 0.25f, 0.125f, 1};
  ic_tensor *feeds[3] = {tu_f32(1, TU_DIMS(3), xv), tu_f32(1, TU_DIMS(zlen), zv),
                         tu_i64(1, TU_DIMS(1), &n)};
  ic_tensor *out[1] = {0};
  ic_status st = ic_executor_run(e, p, s, 3, TU_NAMES("x", "z", "n"),
                                 (const ic_tensor *const *)feeds, 1, TU_NAMES("y"), out);
  if (!st) {
    const float *y = ic_tensor_cdata(out[0]);
    for (int k = 0; k < 3; k++) {
      if (y[k] != xv[k] + zv[k]) st = IC_ERR_INTERNAL;
    }
  }
  ic_tensor_destroy(out[0]);
  for (int k = 0; k < 3; k++) ic_tensor_destroy(feeds[k]);
  return st;
}

static float scope_f32(const ic_scope *s, const char *name) {
  const ic_tensor *t = ic_scope_get(s, name);
  ck_assert_ptr_nonnull(t);
  return *(const float *)ic_tensor_cdata(t);
}

/* A persistable a sub-block writes follows the rules of one block 0 writes: the run works on
 * a shadow and commits it after a successful run, in storage the scope owns; a failed run
 * leaves the scope as it was (the same storage, the same value); the loop's temporaries
 * never enter the caller's scope. */
START_TEST(while_commits_persistables) {
  ic_program *p = persist_loop_in(_i);
  for (size_t c = 0; c < N_CFGS; c++) {
    ic_executor *e = make_exec(&k_cfgs[c]);
    ic_scope *s;
    ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
    ic_tensor *c0 = tu_f32(1, TU_DIMS(1), (float[]){5.0f});
    ck_assert_int_eq(ic_scope_set(s, "count", c0), IC_OK);
    ic_tensor_destroy(c0);
    ck_assert_msg(run_persist(e, p, s, 3, 3) == IC_OK, "%s: %s", k_cfgs[c].name,
                  ic_executor_errmsg(e));
    ck_assert_msg(scope_f32(s, "count") == 8.0f, "%s: count %g", k_cfgs[c].name, scope_f32(s, "count"));
    /* The next run reads the committed value. */
    ck_assert_int_eq(run_persist(e, p, s, 2, 3), IC_OK);
    ck_assert_float_eq(scope_f32(s, "count"), 10.0f);
    ic_memory_stats ms;
    ic_executor_memory_stats(e, &ms);
    ck_assert_msg(ms.live_bytes == 0, "%s: the scope holds %zu bytes of the executor's buffers",
                  k_cfgs[c].name, ms.live_bytes);
    /* The loop ran, then y = x + z failed: nothing is committed. */
    const void *before = ic_tensor_cdata(ic_scope_get(s, "count"));
    ck_assert_int_ne(run_persist(e, p, s, 4, 4), IC_OK);
    tu_assert_msg(ic_executor_errmsg(e), "(elementwise_add)", NULL);
    ck_assert_ptr_eq(ic_tensor_cdata(ic_scope_get(s, "count")), before);
    ck_assert_float_eq(scope_f32(s, "count"), 10.0f);
    /* Zero iterations: count stays the scope's own tensor. */
    ck_assert_int_eq(run_persist(e, p, s, 0, 3), IC_OK);
    ck_assert_ptr_eq(ic_tensor_cdata(ic_scope_get(s, "count")), before);
    const char *temps[] = {"i", "cond", "tmp", "y", "x", "z", "n"};
    for (size_t k = 0; k < sizeof temps / sizeof *temps; k++) {
      ck_assert_msg(!ic_scope_get(s, temps[k]), "%s: '%s' entered the caller's scope",
                    k_cfgs[c].name, temps[k]);
    }
    ck_assert_uint_eq(ic_scope_size(s), 1);
    ic_scope_destroy(s);
    ic_executor_destroy(e);
  }
  ic_program_destroy(p);
}
END_TEST

/* options.prune and control flow: a while loop the fetch does not need stays when its body
 * writes a persistable (count += 1 per iteration, committed to the scope) and goes when it
 * has no effect (count_loop fetching only side); a fetch that needs it keeps it. */
static size_t count_type(const ic_plan_desc *d, const char *type) {
  size_t n = 0;
  for (size_t i = 0; i < d->n_instrs; i++) n += strcmp(d->instrs[i].op_type, type) == 0;
  return n;
}

START_TEST(prune_keeps_effectful_loops) {
  ic_program *p = persist_loop();
  for (size_t c = 0; c < N_CFGS; c++) {
    ic_options o;
    ic_options_default(&o);
    o.mode = k_cfgs[c].mode;
    o.threads = k_cfgs[c].threads;
    o.serial = k_cfgs[c].serial;
    o.prune = true;
    if (k_cfgs[c].emu) ck_assert_int_eq(ic_place_parse("emu:0", &o.device), IC_OK);
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ic_scope *s;
    ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
    ic_tensor *c0 = tu_f32(1, TU_DIMS(1), (float[]){5.0f});
    ck_assert_int_eq(ic_scope_set(s, "count", c0), IC_OK);
    ic_tensor_destroy(c0);
    ck_assert_msg(run_persist(e, p, s, 3, 3) == IC_OK, "%s: %s", k_cfgs[c].name,
                  ic_executor_errmsg(e));
    ck_assert_msg(scope_f32(s, "count") == 8.0f, "%s: count %g", k_cfgs[c].name,
                  scope_f32(s, "count"));
    ic_scope_destroy(s);
    ic_executor_destroy(e);
  }
  ic_program_destroy(p);

  p = count_loop(4);
  ic_options o;
  ic_options_default(&o);
  o.prune = true;
  char err[1024];
  ic_plan_desc *d;
  ck_assert_msg(ic_plan_describe(p, &o, 2, TU_NAMES("x", "n"), 1, TU_NAMES("side"), &d, err,
                                 sizeof err) == IC_OK, "%s", err);
  ck_assert_uint_eq(count_type(d, "while"), 0);
  ck_assert_uint_eq(count_type(d, "tanh"), 1);
  ic_plan_desc_destroy(d);
  ck_assert_msg(ic_plan_describe(p, &o, 2, TU_NAMES("x", "n"), 1, TU_NAMES("acc"), &d, err,
                                 sizeof err) == IC_OK, "%s", err);
  ck_assert_uint_eq(count_type(d, "while"), 1);
  ck_assert_uint_eq(count_type(d, "tanh"), 0);
  ic_plan_desc_destroy(d);
  o.prune = false;
  ck_assert_msg(ic_plan_describe(p, &o, 2, TU_NAMES("x", "n"), 1, TU_NAMES("side"), &d, err,
                                 sizeof err) == IC_OK, "%s", err);
  ck_assert_uint_eq(count_type(d, "while"), 1);
  ic_plan_desc_destroy(d);
  ic_program_destroy(p);
}
END_TEST

#define PT_THREADS 4
#define PT_RUNS 3
#define PT_ITERS 300

typedef struct pshared {
  const ic_program *p;
  ic_scope *scope;
  ic_executor *exec[PT_THREADS];
  atomic_int failures;
} pshared;

static void *persist_worker(void *arg) {
  void **a = arg;
  pshared *sh = a[0];
  ic_executor *e = a[1];
  for (int r = 0; r < PT_RUNS; r++) {
    if (run_persist(e, sh->p, sh->scope, PT_ITERS, 3) != IC_OK) atomic_fetch_add(&sh->failures, 1);
  }
  return NULL;
}

/* Runs whose loops update one scope's persistable, on several threads (one executor each,
 * then one executor for all): updating runs are serialized per scope, so every increment
 * lands. */
START_TEST(while_commits_concurrently) {
  ic_program *p = persist_loop();
  for (size_t c = 0; c < N_CFGS; c++) {
    for (int shared_exec = 0; shared_exec < 2; shared_exec++) {
      pshared sh = {.p = p};
      ck_assert_int_eq(ic_scope_create(NULL, &sh.scope), IC_OK);
      ic_tensor *c0 = tu_f32(1, TU_DIMS(1), (float[]){1.0f});
      ck_assert_int_eq(ic_scope_set(sh.scope, "count", c0), IC_OK);
      ic_tensor_destroy(c0);
      for (int t = 0; t < PT_THREADS; t++) {
        sh.exec[t] = shared_exec && t ? sh.exec[0] : make_exec(&k_cfgs[c]);
      }
      pthread_t th[PT_THREADS];
      void *args[PT_THREADS][2];
      for (int t = 0; t < PT_THREADS; t++) {
        args[t][0] = &sh;
        args[t][1] = sh.exec[t];
        ck_assert_int_eq(pthread_create(&th[t], NULL, persist_worker, args[t]), 0);
      }
      for (int t = 0; t < PT_THREADS; t++) pthread_join(th[t], NULL);
      ck_assert_int_eq(atomic_load(&sh.failures), 0);
      ck_assert_msg(scope_f32(sh.scope, "count") == 1.0f + PT_THREADS * PT_RUNS * PT_ITERS,
                    "%s: count %g", k_cfgs[c].name, scope_f32(sh.scope, "count"));
      for (int t = 0; t < PT_THREADS; t++) {
        if (!shared_exec || !t) ic_executor_destroy(sh.exec[t]);
      }
      ic_scope_destroy(sh.scope);
    }
  }
  ic_program_destroy(p);
}
END_TEST

/* Rejected at load, with the op located. */
static void expect_bad(ic_builder *b, const char *a, const char *c) {
  ic_program *p = NULL;
  char err[1024];
  ck_assert_int_ne(ic_builder_build(b, &p, err, sizeof err), IC_OK);
  ck_assert_ptr_null(p);
  tu_assert_msg(err, a, c, NULL);
  ic_builder_destroy(b);
}

START_TEST(bad_programs) {
  /* sub_block out of range */
  ic_builder *b = ic_builder_create();
  var(b, 0, "c", IC_BOOL, 1);
  while_op(b, 0, "c", 5);
  expect_bad(b, "op #0 (while) in block 0", "names block 5");
  /* a sub-block whose parent is not the op's block */
  b = ic_builder_create();
  int b1 = ic_builder_add_block(b, 0);
  int b2 = ic_builder_add_block(b, b1);
  var(b, 0, "c", IC_BOOL, 1);
  while_op(b, 0, "c", b2);
  expect_bad(b, "op #0 (while) in block 0", "has parent block 1, expected the op's block 0");
  /* a while without a condition */
  b = ic_builder_create();
  b1 = ic_builder_add_block(b, 0);
  ic_builder_op *w = ic_builder_add_op(b, 0, "while");
  ic_builder_attr_block(w, "sub_block", b1);
  expect_bad(b, "op #0 (while) in block 0", "expected exactly one Condition variable, got 0");
  /* conditional_block without a sub_block */
  b = ic_builder_create();
  var(b, 0, "c", IC_BOOL, 1);
  ic_builder_op *cb = ic_builder_add_op(b, 0, "conditional_block");
  ic_builder_in(cb, "Cond", "c");
  expect_bad(b, "(conditional_block) in block 0", "BLOCK attribute 'sub_block'");
}
END_TEST

/* A recurrent op (fluid's StaticRNN) over x [T, 2] (and y when `two`): per step
 * hn = x_t + hm, o = hn * 2 (stacked into o); hm starts as h0 and is the previous hn. The
 * links can be spoilt: `ex` and `st` name the memories, n_st how many states. */
static ic_builder *rnn_prog(bool two, int64_t ty, const char *ex, const char *st, int n_st,
                            bool with_block) {
  ic_builder *b = ic_builder_create();
  int b1 = ic_builder_add_block(b, 0);
  ic_builder_var(b, 0, "x", IC_FP32, 2, TU_DIMS(-1, 2), false);
  ic_builder_var(b, 0, "y", IC_FP32, 2, TU_DIMS(ty, 2), false);
  var(b, 0, "h0", IC_FP32, 2);
  ic_builder_var(b, 0, "o", IC_FP32, 2, TU_DIMS(-1, 2), false);
  var(b, b1, "x", IC_FP32, 2);
  var(b, b1, "y", IC_FP32, 2);
  var(b, b1, "hm", IC_FP32, 2);
  var(b, b1, "hn", IC_FP32, 2);
  var(b, b1, "h2", IC_FP32, 2);
  var(b, b1, "o", IC_FP32, 2);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "y");
  ic_builder_feed(b, "h0");
  ic_builder_op *add = ic_builder_add_op(b, b1, "elementwise_add");
  ic_builder_in(add, "X", "x");
  ic_builder_in(add, "Y", two ? "y" : "hm");
  ic_builder_out(add, "Out", "hn");
  scale(b, b1, "hn", "o", 2.0f, 0.0f);
  ic_builder_op *r = ic_builder_add_op(b, 0, "recurrent");
  ic_builder_input(r, "inputs", two ? 2 : 1, TU_NAMES("x", "y"));
  ic_builder_in(r, "initial_states", "h0");
  ic_builder_out(r, "outputs", "o");
  if (with_block) ic_builder_attr_block(r, "sub_block", b1);
  ic_builder_attr_bool(r, "has_states", true);
  ic_builder_attr_bool(r, "reverse", false);
  ic_builder_attr_strings(r, "ex_states", 1, TU_NAMES(ex));
  ic_builder_attr_strings(r, "states", (size_t)n_st, TU_NAMES(st, "h2"));
  ic_builder_fetch(b, "o");
  return b;
}

/* recurrent: a program whose links do not fit is refused at load, naming the op and the
 * link; inputs of different lengths, or a state no op writes, fail the run, the same in every
 * executor. Its values are checked against Paddle 2.6.2 by test_ctrl_oracle (static_rnn_*). */
START_TEST(recurrent_errors) {
  expect_bad(rnn_prog(false, 4, "hm", "hn", 1, false), "op #3 (recurrent) in block 0",
             "expected a BLOCK attribute 'sub_block', got none");
  expect_bad(rnn_prog(false, 4, "nope", "hn", 1, true), "op #3 (recurrent) in block 0",
             "ex_states 'nope' is not a variable of the step block (block 1)");
  expect_bad(rnn_prog(false, 4, "hm", "h0", 1, true), "(recurrent)",
             "states 'h0' is not a variable of the step block (block 1)");
  expect_bad(rnn_prog(false, 4, "hm", "hn", 2, true), "(recurrent)",
             "1 ex_states, 2 states and 1 initial_states");
  ic_builder *b = rnn_prog(false, 4, "hm", "hn", 1, true);
  ic_builder_op *r = ic_builder_add_op(b, 0, "recurrent");
  ic_builder_attr_block(r, "sub_block", 1);
  expect_bad(b, "op #5 (recurrent)", "no `inputs` variable");
  ic_tensor *x = tu_rand_f32(2, TU_DIMS(4, 2), 1, -1, 1);
  ic_tensor *y3 = tu_rand_f32(2, TU_DIMS(3, 2), 2, -1, 1);
  ic_tensor *h0 = tu_rand_f32(1, TU_DIMS(2), 3, -1, 1);
  ic_tensor *feeds[] = {x, y3, h0};
  expect_run_error(rnn_prog(true, -1, "hm", "hn", 1, true), 3, TU_NAMES("x", "y", "h0"), feeds,
                   "o", "op #3 (recurrent) in block 0",
                   "inputs 'y' is float32[3, 2]: its sequence length 3 differs from 4 of "
                   "inputs 'x'");
  expect_run_error(rnn_prog(false, -1, "hm", "h2", 1, true), 3, TU_NAMES("x", "y", "h0"), feeds,
                   "o", "step 0 of block 1",
                   "states 'h2' holds no data at the end of the step");
  /* and a program that fits: o[t] = 2 (x[0] + ... + x[t] + h0) */
  ic_builder *ok = rnn_prog(false, -1, "hm", "hn", 1, true);
  char err[1024];
  ic_tensor *out[1] = {0};
  ck_assert_msg(tu_run(ok, 3, TU_NAMES("x", "y", "h0"), feeds, 1, TU_NAMES("o"), out, err,
                       sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(ok);
  ck_assert_int_eq(out[0]->ndim, 2);
  ck_assert_int_eq(out[0]->dims[0], 4);
  const float *xv = x->data, *hv = h0->data, *ov = out[0]->data;
  float acc[2] = {hv[0], hv[1]};
  for (int t = 0; t < 4; t++) {
    for (int j = 0; j < 2; j++) {
      acc[j] += xv[t * 2 + j];
      ck_assert_float_eq_tol(ov[t * 2 + j], 2.0f * acc[j], 1e-6f);
    }
  }
  ic_tensor_destroy(out[0]);
  ic_tensor_destroy(x);
  ic_tensor_destroy(y3);
  ic_tensor_destroy(h0);
}
END_TEST

static TCase *tc_while(void) {
  TCase *tc = tcase_create("while");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, while_counts);
  tcase_add_test(tc, while_plan);
  tcase_add_test(tc, while_on_device_plan);
  tcase_add_test(tc, while_long_flat_memory);
  tcase_add_test(tc, while_nested);
  tcase_add_test(tc, gc_keeps_loop_values);
  tcase_add_test(tc, while_fails_at_iteration);
  tcase_add_test(tc, tensor_array);
  tcase_add_test(tc, random_in_loop_body);
  tcase_add_test(tc, lod_array_errors);
  tcase_add_test(tc, decoder_small_ops);
  /* 0: count declared in block 0; 1: declared in the loop's block (was a local of the
   * compiled sub-plan, cleared every iteration, while the uncompiled executor committed it) */
  tcase_add_loop_test(tc, while_commits_persistables, 0, 2);
  tcase_add_test(tc, while_commits_concurrently);
  tcase_add_test(tc, prune_keeps_effectful_loops);
  return tc;
}

static TCase *tc_cond(void) {
  TCase *tc = tcase_create("conditional_block");
  tcase_add_test(tc, cond_branches);
  tcase_add_test(tc, gc_keeps_branch_values);
  tcase_add_test(tc, cond_nonscalar);
  tcase_add_test(tc, select_ops);
  tcase_add_test(tc, fuse_keeps_sub_block_values);
  tcase_add_test(tc, bad_programs);
  tcase_add_test(tc, recurrent_errors);
  return tc;
}

TU_MAIN("ctrlflow", tc_while, tc_cond)
