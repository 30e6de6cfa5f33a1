/* Hostile programs and files: outputs that alias, meta-only outputs read as data, deeply
 * nested blocks, and files that never end. Every case must give the same clear error in the
 * uncompiled and the compiled executor (1 and 2 threads), never a crash, hang or leak (the
 * suite also runs under ASan+UBSan). The crafted programs of ../shared/repro are run too. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "npy.h"

typedef struct mode_cfg {
  const char *name;
  ic_mode mode;
  int threads;
} mode_cfg;

static const mode_cfg k_modes[] = {
    {"uncompiled", IC_MODE_UNCOMPILED, 1},
    {"compiled/1", IC_MODE_COMPILED, 1},
    {"compiled/2", IC_MODE_COMPILED, 2},
};

/* Run p in every mode (rewrites off); every mode must fail with status want and the very same
 * message, which is returned in msg. With want == IC_OK every mode must agree bitwise. */
static void run_all_modes(const ic_program *p, ic_scope *scope, size_t n_feeds,
                          const char *const *names, ic_tensor *const *feeds, size_t n_fetches,
                          const char *const *fetches, ic_status want, char *msg, size_t len) {
  ic_tensor *ref[4] = {0};
  ck_assert_uint_le(n_fetches, 4);
  for (size_t m = 0; m < sizeof k_modes / sizeof k_modes[0]; m++) {
    ic_options o;
    ic_options_default(&o);
    o.mode = k_modes[m].mode;
    o.threads = k_modes[m].threads;
    o.fuse = false;
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ic_tensor *got[4] = {0};
    ic_status st = ic_executor_run(e, p, scope, n_feeds, names, (const ic_tensor *const *)feeds,
                                   n_fetches, fetches, got);
    ck_assert_msg(st == want, "%s: %s, expected %s: %s", k_modes[m].name, ic_status_name(st),
                  ic_status_name(want), ic_executor_errmsg(e));
    if (st) {
      if (m == 0) snprintf(msg, len, "%s", ic_executor_errmsg(e));
      else ck_assert_str_eq(ic_executor_errmsg(e), msg);
    } else {
      for (size_t i = 0; i < n_fetches; i++) {
        if (m == 0) ref[i] = got[i];
        else {
          tu_assert_bitwise(got[i], ref[i], k_modes[m].name);
          ic_tensor_destroy(got[i]);
        }
      }
    }
    ic_executor_destroy(e);
  }
  for (size_t i = 0; i < n_fetches; i++) ic_tensor_destroy(ref[i]);
}

/* A program refused for its ops is refused with the same message with the rewrites on and
 * on the emulated device too: ops are checked before rewriting and placement rename them. */
static void same_refusal_fused_and_placed(const ic_program *p, ic_scope *scope,
                                          const char *const *names, ic_tensor *const *feeds,
                                          const char *fetch, const char *msg) {
  for (int cfg = 0; cfg < 2; cfg++) {
    ic_options o;
    ic_options_default(&o);
    o.fuse = true;
    if (cfg == 1) ck_assert_int_eq(ic_place_parse("emu:1", &o.device), IC_OK);
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ic_tensor *got = NULL;
    ck_assert_int_eq(ic_executor_run(e, p, scope, 1, names, (const ic_tensor *const *)feeds, 1,
                                     &fetch, &got),
                     IC_ERR_INVALID_PROGRAM);
    ck_assert_str_eq(ic_executor_errmsg(e), msg);
    ic_executor_destroy(e);
  }
}

static ic_program *build(ic_builder *b) {
  ic_program *p = NULL;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  return p;
}

/* x[2, 3, 4] -> op -> outputs as given. */
static void run_x(ic_builder *b, const char *fetch, ic_status want, char *msg, size_t len) {
  ic_program *p = build(b);
  ic_tensor *x = tu_rand_f32(3, TU_DIMS(2, 3, 4), 7, -1, 1);
  run_all_modes(p, NULL, 1, TU_NAMES("x"), &x, 1, &fetch, want, msg, len);
  if (want == IC_ERR_INVALID_PROGRAM) {
    same_refusal_fused_and_placed(p, NULL, TU_NAMES("x"), &x, fetch, msg);
  }
  ic_tensor_destroy(x);
  ic_program_destroy(p);
}

static ic_builder *x_program(void) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 3, TU_DIMS(2, 3, 4));
  tu_var(b, "y", IC_FP32, 3, TU_DIMS(-1, -1, -1));
  tu_var(b, "z", IC_FP32, 4, TU_DIMS(-1, -1, -1, -1));
  ic_builder_feed(b, "x");
  return b;
}

/* ---- defect: outputs that alias ---- */

START_TEST(transpose_out_is_xshape) {
  ic_builder *b = x_program();
  ic_builder_op *op = ic_builder_add_op(b, 0, "transpose2");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  ic_builder_out(op, "XShape", "y");
  ic_builder_attr_ints(op, "axis", 3, (const int32_t[]){2, 0, 1});
  ic_builder_fetch(b, "y");
  char msg[1024];
  run_x(b, "y", IC_ERR_INVALID_PROGRAM, msg, sizeof msg);
  tu_assert_msg(msg, "op #1 (transpose2)", "Out", "XShape", "'y'", NULL);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(reshape_out_is_xshape) {
  ic_builder *b = x_program();
  ic_builder_op *op = ic_builder_add_op(b, 0, "reshape2");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  ic_builder_out(op, "XShape", "y");
  ic_builder_attr_ints(op, "shape", 3, (const int32_t[]){4, 3, 2});
  ic_builder_fetch(b, "y");
  char msg[1024];
  run_x(b, "y", IC_ERR_INVALID_PROGRAM, msg, sizeof msg);
  tu_assert_msg(msg, "op #1 (reshape2)", "Out", "XShape", "'y'", NULL);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(split_same_output_twice) {
  ic_builder *b = x_program();
  ic_builder_op *op = ic_builder_add_op(b, 0, "split");
  ic_builder_in(op, "X", "x");
  ic_builder_output(op, "Out", 2, TU_NAMES("y", "y"));
  ic_builder_attr_int(op, "axis", 0);
  ic_builder_attr_int(op, "num", 2);
  ic_builder_fetch(b, "y");
  char msg[1024];
  run_x(b, "y", IC_ERR_INVALID_PROGRAM, msg, sizeof msg);
  tu_assert_msg(msg, "op #1 (split)", "Out", "'y'", "twice", NULL);
  ic_builder_destroy(b);

  /* Many outputs (the hashed path): the 100th repeats the 3rd. */
  b = x_program();
  char names[200][16];
  const char *args[200];
  for (int i = 0; i < 200; i++) {
    snprintf(names[i], sizeof names[i], "s%d", i == 99 ? 2 : i);
    args[i] = names[i];
    if (i != 99) tu_var(b, names[i], IC_FP32, 3, TU_DIMS(-1, -1, -1));
  }
  op = ic_builder_add_op(b, 0, "split");
  ic_builder_in(op, "X", "x");
  ic_builder_output(op, "Out", 200, args);
  ic_builder_attr_int(op, "axis", 2);
  ic_builder_attr_int(op, "num", 200);
  ic_builder_fetch(b, "s0");
  run_x(b, "s0", IC_ERR_INVALID_PROGRAM, msg, sizeof msg);
  tu_assert_msg(msg, "op #1 (split)", "'s2'", "twice", NULL);
  ic_builder_destroy(b);
}
END_TEST

/* An inference batch_norm on x[2, 3, 4] (C = 3) with its statistics as persistables. */
static ic_builder_op *bn_program(ic_builder *b, const char *y, const char *saved_mean,
                                 const char *saved_var) {
  tu_var(b, "x", IC_FP32, 3, TU_DIMS(2, 3, 4));
  tu_var(b, "y", IC_FP32, 3, TU_DIMS(-1, 3, 4));
  tu_var(b, "sm", IC_FP32, 1, TU_DIMS(3));
  tu_var(b, "sv", IC_FP32, 1, TU_DIMS(3));
  tu_var(b, "r", IC_FP32, 1, TU_DIMS(3));
  const char *params[] = {"scale", "bias", "mean", "var"};
  for (int i = 0; i < 4; i++) ic_builder_var(b, 0, params[i], IC_FP32, 1, TU_DIMS(3), true);
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "batch_norm");
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Scale", "scale");
  ic_builder_in(op, "Bias", "bias");
  ic_builder_in(op, "Mean", "mean");
  ic_builder_in(op, "Variance", "var");
  ic_builder_out(op, "Y", y);
  ic_builder_out(op, "MeanOut", "mean");
  ic_builder_out(op, "VarianceOut", "var");
  ic_builder_out(op, "SavedMean", saved_mean);
  ic_builder_out(op, "SavedVariance", saved_var);
  ic_builder_attr_bool(op, "is_test", true);
  ic_builder_attr_float(op, "epsilon", 1e-5f);
  ic_builder_attr_string(op, "data_layout", "NCHW");
  return op;
}

static void run_bn(ic_builder *b, const char *fetch, ic_status want, char *msg, size_t len) {
  ic_program *p = build(b);
  ic_scope *s;
  char err[1024];
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  ck_assert_msg(ic_params_random(p, 3, s, err, sizeof err) == IC_OK, "%s", err);
  ic_tensor *x = tu_rand_f32(3, TU_DIMS(2, 3, 4), 7, -1, 1);
  run_all_modes(p, s, 1, TU_NAMES("x"), &x, 1, &fetch, want, msg, len);
  if (want == IC_ERR_INVALID_PROGRAM) {
    same_refusal_fused_and_placed(p, s, TU_NAMES("x"), &x, fetch, msg);
  }
  ic_tensor_destroy(x);
  ic_scope_destroy(s);
  ic_program_destroy(p);
}

START_TEST(batch_norm_y_is_saved_stat) {
  char msg[1024];
  ic_builder *b = ic_builder_create();
  bn_program(b, "y", "y", "sv");
  ic_builder_fetch(b, "y");
  run_bn(b, "y", IC_ERR_INVALID_PROGRAM, msg, sizeof msg);
  tu_assert_msg(msg, "op #1 (batch_norm)", "output Y", "SavedMean", "'y'", NULL);
  ic_builder_destroy(b);

  b = ic_builder_create();
  bn_program(b, "y", "sm", "y");
  ic_builder_fetch(b, "y");
  run_bn(b, "y", IC_ERR_INVALID_PROGRAM, msg, sizeof msg);
  tu_assert_msg(msg, "op #1 (batch_norm)", "output Y", "SavedVariance", "'y'", NULL);
  ic_builder_destroy(b);

  /* MeanOut = Mean and VarianceOut = Variance are Paddle's in-place pairs: they run. */
  b = ic_builder_create();
  bn_program(b, "y", "sm", "sv");
  ic_builder_fetch(b, "y");
  run_bn(b, "y", IC_OK, msg, sizeof msg);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(meta_only_output_names_an_input) {
  /* transpose2 with XShape = X would drop X's data. */
  ic_builder *b = x_program();
  ic_builder_op *op = ic_builder_add_op(b, 0, "transpose2");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  ic_builder_out(op, "XShape", "x");
  ic_builder_attr_ints(op, "axis", 3, (const int32_t[]){2, 0, 1});
  ic_builder_fetch(b, "y");
  char msg[1024];
  run_x(b, "y", IC_ERR_INVALID_PROGRAM, msg, sizeof msg);
  tu_assert_msg(msg, "op #1 (transpose2)", "XShape", "input X", "'x'", NULL);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(in_place_output_reads_the_old_value) {
  /* relu and scale writing their own input: the kernel reads a snapshot, so the result is
   * the out-of-place one in every mode. */
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(4));
  tu_var(b, "t", IC_FP32, 1, TU_DIMS(4));
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "scale");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "t");
  ic_builder_attr_float(op, "scale", 1.0f);
  op = ic_builder_add_op(b, 0, "relu");
  ic_builder_in(op, "X", "t");
  ic_builder_out(op, "Out", "t");
  op = ic_builder_add_op(b, 0, "scale");
  ic_builder_in(op, "X", "t");
  ic_builder_out(op, "Out", "t");
  ic_builder_attr_float(op, "scale", 2.0f);
  ic_builder_attr_float(op, "bias", 1.0f);
  ic_builder_fetch(b, "t");
  ic_program *p = build(b);
  ic_tensor *x = tu_f32(1, TU_DIMS(4), (const float[]){-1, 0.5f, -2, 3});
  for (size_t m = 0; m < sizeof k_modes / sizeof k_modes[0]; m++) {
    ic_options o;
    ic_options_default(&o);
    o.mode = k_modes[m].mode;
    o.threads = k_modes[m].threads;
    o.fuse = false;
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ic_tensor *got = NULL;
    ck_assert_msg(ic_executor_run(e, p, NULL, 1, TU_NAMES("x"), (const ic_tensor *const *)&x,
                                  1, TU_NAMES("t"), &got) == IC_OK,
                  "%s", ic_executor_errmsg(e));
    tu_assert_close(got, (const double[]){1, 2, 1, 7}, 4, 0, 0);
    ic_tensor_destroy(got);
    ic_executor_destroy(e);
  }
  ic_tensor_destroy(x);
  ic_program_destroy(p);
  ic_builder_destroy(b);
}
END_TEST

/* ---- defect: meta-only outputs read as data ---- */

START_TEST(saved_mean_read_as_data) {
  const char *consumers[] = {"relu", "hard_swish", "scale"};
  for (int c = 0; c < 3; c++) {
    ic_builder *b = ic_builder_create();
    bn_program(b, "y", "sm", "sv");
    ic_builder_op *op = ic_builder_add_op(b, 0, consumers[c]);
    ic_builder_in(op, "X", "sm");
    ic_builder_out(op, "Out", "r");
    ic_builder_fetch(b, "r");
    char msg[1024];
    run_bn(b, "r", IC_ERR_NOT_FOUND, msg, sizeof msg);
    char where[64];
    snprintf(where, sizeof where, "op #2 (%s)", consumers[c]);
    tu_assert_msg(msg, where, "input X 'sm'", "holds no data", NULL);
    ic_builder_destroy(b);
  }
  /* fetched: by the program's fetch op, and by a fetch the executor adds */
  ic_builder *b = ic_builder_create();
  bn_program(b, "y", "sm", "sv");
  ic_builder_fetch(b, "sm");
  char msg[1024];
  run_bn(b, "sm", IC_ERR_NOT_FOUND, msg, sizeof msg);
  tu_assert_msg(msg, "op #2 (fetch)", "input X 'sm'", "holds no data", NULL);
  ic_builder_destroy(b);
  b = ic_builder_create();
  bn_program(b, "y", "sm", "sv");
  run_bn(b, "sv", IC_ERR_NOT_FOUND, msg, sizeof msg);
  tu_assert_msg(msg, "fetch op (added for 'sv')", "input X 'sv'", "holds no data", NULL);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(xshape_read_as_data) {
  ic_builder *b = x_program();
  ic_builder_op *op = ic_builder_add_op(b, 0, "transpose2");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  ic_builder_out(op, "XShape", "z");
  ic_builder_attr_ints(op, "axis", 3, (const int32_t[]){2, 0, 1});
  op = ic_builder_add_op(b, 0, "relu");
  ic_builder_in(op, "X", "z");
  ic_builder_out(op, "Out", "y");
  ic_builder_fetch(b, "y");
  char msg[1024];
  run_x(b, "y", IC_ERR_NOT_FOUND, msg, sizeof msg);
  tu_assert_msg(msg, "op #2 (relu)", "input X 'z'", "holds no data", NULL);
  ic_builder_destroy(b);
}
END_TEST

/* Found by fuzz_diff: the compiled executor refuses a program at analysis, or when it binds
 * a run, before any op runs; the uncompiled one found the same faults only when it reached
 * the op, so an earlier op failing at run time (here a softmax with a bad axis) reported
 * another error, and an unset input was worded differently. Both now check the whole program
 * first, in program order. */
START_TEST(program_errors_before_run_errors) {
  for (int fault = 0; fault < 2; fault++) {
    ic_builder *b = x_program();
    ic_builder_op *op = ic_builder_add_op(b, 0, "softmax");
    ic_builder_in(op, "X", "x");
    ic_builder_out(op, "Out", "y");
    ic_builder_attr_int(op, "axis", 7);
    op = ic_builder_add_op(b, 0, "split");
    ic_builder_in(op, "X", fault ? "ghost" : "y");
    ic_builder_output(op, "Out", 2, fault ? TU_NAMES("y", "z") : TU_NAMES("z", "z"));
    ic_builder_attr_int(op, "axis", 0);
    ic_builder_attr_int(op, "num", 2);
    tu_var(b, "ghost", IC_FP32, 3, TU_DIMS(2, 3, 4));
    ic_builder_fetch(b, "z");
    char msg[1024];
    run_x(b, "z", fault ? IC_ERR_NOT_FOUND : IC_ERR_INVALID_PROGRAM, msg, sizeof msg);
    if (fault) tu_assert_msg(msg, "op #2 (split)", "input X 'ghost'", "has not been set", NULL);
    else tu_assert_msg(msg, "op #2 (split)", "output Out", "'z' twice", NULL);
    ic_builder_destroy(b);
  }
}
END_TEST

/* ---- the crafted programs of ../shared/repro ---- */

START_TEST(shared_repro_programs) {
  static const struct {
    const char *file, *feed, *frag1, *frag2;
    ic_status want;
  } cases[] = {
      {"transpose_out_is_xshape", "x4x16x16", "(transpose2)", "XShape", IC_ERR_INVALID_PROGRAM},
      {"reshape_out_is_xshape", "x4x16x16", "(reshape2)", "XShape", IC_ERR_INVALID_PROGRAM},
      {"split_same_out_twice", "x2x4", "(split)", "twice", IC_ERR_INVALID_PROGRAM},
      {"bn_y_is_savedmean", "img", "(batch_norm)", "SavedMean", IC_ERR_INVALID_PROGRAM},
      {"bn_y_is_savedvar", "img", "(batch_norm)", "SavedVariance", IC_ERR_INVALID_PROGRAM},
      {"bn_savedmean_relu", "img", "(relu)", "holds no data", IC_ERR_NOT_FOUND},
      {"bn_savedmean_hard_swish", "img", "(hard_swish)", "holds no data", IC_ERR_NOT_FOUND},
      {"bn_savedmean_scale", "img", "(scale)", "holds no data", IC_ERR_NOT_FOUND},
      {"bn_fetch_savedmean", "img", "(fetch)", "holds no data", IC_ERR_NOT_FOUND},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[4096], feed[4096], err[1024];
    snprintf(path, sizeof path, "%s/repro/%s.pdmodel", IC_SHARED_DIR, cases[i].file);
    snprintf(feed, sizeof feed, "%s/repro/%s.npy", IC_SHARED_DIR, cases[i].feed);
    ic_program *p;
    ck_assert_msg(ic_program_from_file(path, &p, err, sizeof err) == IC_OK, "%s", err);
    ic_tensor *x;
    ck_assert_msg(ic_npy_load(feed, &x, err, sizeof err) == IC_OK, "%s", err);
    ic_scope *s;
    ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
    ck_assert_msg(ic_params_random(p, 1, s, err, sizeof err) == IC_OK, "%s", err);
    size_t nf = ic_program_n_fetch_targets(p);
    ck_assert_uint_ge(nf, 1);
    const char *fetch = ic_program_fetch_target(p, 0);
    char msg[1024];
    run_all_modes(p, s, 1, TU_NAMES("x"), &x, 1, &fetch, cases[i].want, msg, sizeof msg);
    tu_assert_msg(msg, cases[i].frag1, cases[i].frag2, NULL);
    ic_tensor_destroy(x);
    ic_scope_destroy(s);
    ic_program_destroy(p);
  }
}
END_TEST

/* ---- defect: quadratic load of deeply nested blocks ---- */

START_TEST(deeply_nested_blocks) {
  /* 100,000 blocks, each the child of the one before (about a megabyte): loading walked
   * every block's parent chain to the root, 21 s for this program. It must load, or be
   * refused with a message naming a block, in well under a second. */
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(2));
  for (int i = 1; i < 100000; i++) ck_assert_int_eq(ic_builder_add_block(b, i - 1), i);
  /* one op deep down that reads a root variable */
  ic_builder_op *op = ic_builder_add_op(b, 99999, "relu");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "x");
  void *bytes;
  size_t n;
  char err[1024];
  ck_assert_int_eq(ic_builder_serialize(b, &bytes, &n), IC_OK);
  ck_assert_uint_gt(n, 500000);
  ic_program *p = NULL;
  ic_status st = ic_program_from_bytes(bytes, n, "nested.pdmodel", &p, err, sizeof err);
  if (st) {
    ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
    ck_assert_ptr_null(p);
    tu_assert_msg(err, "nested.pdmodel", "block", "nested", NULL);
  } else {
    ck_assert_uint_eq(ic_program_n_fetch_targets(p), 0);
  }
  ic_program_destroy(p);
  ic_builder_destroy(b);
  free(bytes);
}
END_TEST

START_TEST(many_blocks_load) {
  /* 100,000 blocks in chains 60 deep, each with an op reading a root variable: loads. */
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(2));
  for (int i = 1; i < 100000; i++) {
    ck_assert_int_eq(ic_builder_add_block(b, i % 60 == 0 ? 0 : i - 1), i);
    ic_builder_op *op = ic_builder_add_op(b, i, "relu");
    ic_builder_in(op, "X", "x");
    ic_builder_out(op, "Out", "x");
  }
  ic_program *p = build(b);
  ic_program_destroy(p);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(parent_cycle_far_from_root) {
  ic_builder *b = ic_builder_create();
  for (int i = 1; i < 60; i++) ic_builder_add_block(b, i == 30 ? 59 : i - 1);
  char err[1024];
  ic_program *p = NULL;
  ck_assert_int_eq(ic_builder_build(b, &p, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  ck_assert_ptr_null(p);
  tu_assert_msg(err, "block", "cycle", NULL);
  ic_builder_destroy(b);
}
END_TEST

/* ---- defect: files that never end ---- */

START_TEST(program_from_endless_files) {
  char err[1024];
  ic_program *p = (ic_program *)1;
  ck_assert_int_eq(ic_program_from_file("/dev/zero", &p, err, sizeof err), IC_ERR_IO);
  ck_assert_ptr_null(p);
  tu_assert_msg(err, "/dev/zero", "not a regular file", NULL);
  char *dir = tu_tmpdir();
  char fifo[4096];
  snprintf(fifo, sizeof fifo, "%s/model.pdmodel", dir);
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  /* no writer ever opens it: the loader must not wait for one */
  p = (ic_program *)1;
  ck_assert_int_eq(ic_program_from_file(fifo, &p, err, sizeof err), IC_ERR_IO);
  ck_assert_ptr_null(p);
  tu_assert_msg(err, fifo, "not a regular file", NULL);
  ck_assert_int_eq(ic_program_from_file(dir, &p, err, sizeof err), IC_ERR_IO);
  tu_assert_msg(err, dir, "directory", NULL);
  ic_tensor *t = (ic_tensor *)1;
  ck_assert_int_eq(ic_npy_load("/dev/zero", &t, err, sizeof err), IC_ERR_IO);
  ck_assert_ptr_null(t);
  tu_assert_msg(err, "/dev/zero", "not a regular file", NULL);
  ck_assert_int_eq(ic_npy_load(fifo, &t, err, sizeof err), IC_ERR_IO);
  tu_assert_msg(err, fifo, "not a regular file", NULL);
  /* the parameter loaders: a combined file, one tensor */
  ic_builder *b = ic_builder_create();
  ic_builder_var(b, 0, "w", IC_FP32, 1, TU_DIMS(2), true);
  p = build(b);
  ic_builder_destroy(b);
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  const char *endless[] = {"/dev/zero", fifo};
  for (int i = 0; i < 2; i++) {
    ck_assert_int_eq(ic_params_load(p, endless[i], IC_PARAMS_COMBINED, s, err, sizeof err),
                     IC_ERR_IO);
    tu_assert_msg(err, endless[i], "not a regular file", NULL);
    ck_assert_int_eq(ic_tensor_load_file(endless[i], &t, err, sizeof err), IC_ERR_IO);
    tu_assert_msg(err, endless[i], "not a regular file", NULL);
  }
  ck_assert_uint_eq(ic_scope_size(s), 0);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

static TCase *tc_hostile(void) {
  TCase *tc = tcase_create("hostile");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, transpose_out_is_xshape);
  tcase_add_test(tc, reshape_out_is_xshape);
  tcase_add_test(tc, split_same_output_twice);
  tcase_add_test(tc, batch_norm_y_is_saved_stat);
  tcase_add_test(tc, meta_only_output_names_an_input);
  tcase_add_test(tc, in_place_output_reads_the_old_value);
  tcase_add_test(tc, saved_mean_read_as_data);
  tcase_add_test(tc, xshape_read_as_data);
  tcase_add_test(tc, program_errors_before_run_errors);
  tcase_add_test(tc, shared_repro_programs);
  tcase_add_test(tc, deeply_nested_blocks);
  tcase_add_test(tc, many_blocks_load);
  tcase_add_test(tc, parent_cycle_far_from_root);
  tcase_add_test(tc, program_from_endless_files);
  return tc;
}

TU_MAIN("hostile", tc_hostile)
