/* The gradients of fluid's sequence and LoD-array ops in training programs written and run by
 * PaddlePaddle 2.6.2 itself (tools/gen_paddle_seq_grad.py, tests/data/paddle_seq_grad): each
 * program is an op on fed LoD tensors, loss = sum(out * w) with w fixed random values, and the
 * backward paddle.static.append_backward emits (sequence_concat_grad, sequence_conv_grad, ...,
 * tensor_array_to_tensor_grad, the array ops whose gradient is the other forward op, and sum
 * over the gradient arrays of an array read more than once). icore runs the whole program and
 * must give Paddle's input gradients (float32 within 1e-5) and their LoD, in every executor
 * configuration (uncompiled, compiled at 1 and 2 threads: tu_run_scope,
 * bitwise equal among them).
 *
 * Its own cases: every grad op type listed in a case's gradops.txt (what Paddle's grad maker
 * emitted) is in the program icore loads; and grad ops given bad inputs (Out@GRAD whose rows
 * or LoD disagree with X, wrong widths, missing inputs) fail with a message naming the op,
 * the variable and what was expected. */
#include "kernels/kernel.h"
#include "program/program.h"
#include "testutil.h"

static TCase *tc_gradops(void);
static TCase *tc_errors(void);

#define SEQ_DIR "paddle_seq_grad"
#define SEQ_SUITE "paddle_seq_grad"
#define SEQ_MIN_CASES 40
#define SEQ_TOOL "tools/gen_paddle_seq_grad.py (Paddle 2.6.2)"
#define SEQ_EXTRA_TCASES tc_gradops, tc_errors
#include "test_paddle_seq.c"

static void assert_lod1(const ic_tensor *t, const uint64_t *want, size_t n) {
  ck_assert_uint_eq(ic_tensor_lod_levels(t), 1);
  size_t got_n;
  const uint64_t *got = ic_tensor_lod(t, 0, &got_n);
  ck_assert_uint_eq(got_n, n);
  for (size_t k = 0; k < n; k++) ck_assert_uint_eq(got[k], want[k]);
}

/* ---- the program holds the grad ops Paddle's backward emitted ---- */

static bool program_has(const ic_program *p, const char *type) {
  for (size_t b = 0; b < p->n_blocks; b++) {
    for (size_t i = 0; i < p->blocks[b].n_ops; i++) {
      if (!strcmp(p->blocks[b].ops[i].type, type)) return true;
    }
  }
  return false;
}

START_TEST(grad_op_types) {
  char path[4096], name[256], line[4096], err[1024];
  snprintf(path, sizeof path, "%s/tests/data/" SEQ_DIR "/cases.txt", IC_SOURCE_DIR);
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "missing %s: run " SEQ_TOOL, path);
  static const char *const wanted[] = {
      "sequence_concat_grad", "sequence_conv_grad", "sequence_expand_as_grad",
      "sequence_pad_grad", "sequence_unpad_grad", "sequence_reshape_grad", "lod_reset_grad",
      "shrink_rnn_memory_grad", "reorder_lod_tensor_by_rank_grad",
      "tensor_array_to_tensor_grad", "lod_tensor_to_array", "array_to_lod_tensor",
      "read_from_array", "write_to_array", "select_input", "select_output", "sum",
      "row_conv_grad", "sequence_slice_grad", "sequence_reverse", "data_norm_grad",
      "deformable_psroi_pooling_grad", "roi_pool_grad", "psroi_pool_grad"};
  bool seen[sizeof wanted / sizeof wanted[0]] = {0};
  int cases = 0;
  while (fscanf(f, "%255s", name) == 1) {
    ic_program *p;
    ck_assert_msg(ic_program_from_file(case_path(name, "inference.pdmodel", path, sizeof path),
                                       &p, err, sizeof err) == IC_OK, "%s", err);
    FILE *g = fopen(case_path(name, "gradops.txt", path, sizeof path), "r");
    ck_assert_msg(g != NULL, "missing %s", path);
    int ops = 0;
    while (fgets(line, sizeof line, g)) {
      char type[128];
      if (sscanf(line, "%127s |", type) != 1) continue;
      ck_assert_msg(program_has(p, type), "%s: no %s op in the program", name, type);
      ck_assert_msg(ic_registry_find(type) != NULL, "%s: icore has no op %s", name, type);
      for (size_t k = 0; k < sizeof wanted / sizeof wanted[0]; k++) {
        if (!strcmp(type, wanted[k])) seen[k] = true;
      }
      ops++;
    }
    fclose(g);
    ck_assert_msg(ops > 0, "%s: gradops.txt lists no grad op", name);
    ic_program_destroy(p);
    cases++;
  }
  fclose(f);
  ck_assert_int_ge(cases, SEQ_MIN_CASES);
  for (size_t k = 0; k < sizeof wanted / sizeof wanted[0]; k++) {
    ck_assert_msg(seen[k], "no case's backward emits %s", wanted[k]);
  }
}
END_TEST

static TCase *tc_gradops(void) {
  TCase *tc = tcase_create("gradops");
  tcase_add_test(tc, grad_op_types);
  return tc;
}

/* ---- one grad op built with the builder: bad inputs, absent outputs ---- */

#include "optest.h"

static ic_tensor *lod1(ic_tensor *t, size_t n, const uint64_t *off) {
  const size_t lens[1] = {n};
  const uint64_t *lv[1] = {off};
  ck_assert_int_eq(ic_tensor_set_lod(t, 1, lens, lv), IC_OK);
  return t;
}

static ic_tensor *rnd(int nd, const int64_t *d, uint64_t seed) {
  return tu_rand_f32(nd, d, seed, -1, 1);
}

/* Run t (its op added) and require an error whose message names every string given. */
#define EXPECT_FAIL(t, ...)                                                     \
  do {                                                                          \
    ic_status st_ = ot_run(t);                                                  \
    ck_assert_msg(st_ != IC_OK, "expected a failure");                          \
    tu_assert_msg((t)->err, __VA_ARGS__, NULL);                                 \
  } while (0)

/* sequence_concat_grad with X@GRAD = [g0, @EMPTY@, g2] (an input needing no gradient) gives
 * g0 and g2 bitwise as with every gradient wanted: each input's own part of Out@GRAD. */
START_TEST(sequence_concat_grad_absent_output) {
  static const uint64_t l0[3] = {0, 3, 3}, l1[3] = {0, 0, 2}, l2[3] = {0, 1, 4};
  ic_tensor *got[2][3] = {{0}};
  for (int all = 0; all < 2; all++) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "x0", lod1(rnd(2, TU_DIMS(3, 2), 1), 3, l0));
    ot_feed(&t, "x1", lod1(rnd(2, TU_DIMS(2, 2), 2), 3, l1));
    ot_feed(&t, "x2", lod1(rnd(2, TU_DIMS(4, 2), 3), 3, l2));
    ot_feed(&t, "dout", rnd(2, TU_DIMS(9, 2), 4));
    ot_op(&t, "sequence_concat_grad");
    ic_builder_input(t.op, "X", 3, (const char *const[]){"x0", "x1", "x2"});
    ic_builder_in(t.op, "Out@GRAD", "dout");
    const char *outs[3] = {"g0", all ? "g1" : "@EMPTY@", "g2"};
    ic_builder_output(t.op, "X@GRAD", 3, outs);
    ot_fetch(&t, "g0");
    ot_fetch(&t, "g2");
    if (all) ot_fetch(&t, "g1");
    ot_ok(&t);
    for (size_t k = 0; k < t.n_fetches; k++) ck_assert_int_eq(ic_tensor_clone(t.out[k], &got[all][k]), IC_OK);
    if (all) {
      /* Out's rows: x0[0:3], x2[0:1] (sequence 0), x1[0:2], x2[1:4] (sequence 1) */
      const float *g = ic_tensor_cdata(t.feeds[3]);
      const float *g0 = ic_tensor_cdata(t.out[0]), *g2 = ic_tensor_cdata(t.out[1]);
      const float *g1 = ic_tensor_cdata(t.out[2]);
      ck_assert(!memcmp(g0, g, 6 * sizeof *g));
      ck_assert(!memcmp(g2, g + 6, 2 * sizeof *g));
      ck_assert(!memcmp(g1, g + 8, 4 * sizeof *g));
      ck_assert(!memcmp(g2 + 2, g + 12, 6 * sizeof *g));
      assert_lod1(t.out[2], l1, 3);
    }
    ot_end(&t);
  }
  tu_assert_bitwise(got[0][0], got[1][0], "X@GRAD[0] with X@GRAD[1] absent");
  tu_assert_bitwise(got[0][1], got[1][1], "X@GRAD[2] with X@GRAD[1] absent");
  for (int a = 0; a < 2; a++) {
    for (int k = 0; k < 3; k++) ic_tensor_destroy(got[a][k]);
  }
}
END_TEST

START_TEST(sequence_grad_bad_inputs) {
  static const uint64_t l3[4] = {0, 2, 2, 5}, l2[3] = {0, 1, 4};
  optest t;
  /* sequence_concat_grad: Out@GRAD's rows are not the rows X's LoD gives Out */
  ot_begin(&t);
  ot_feed(&t, "x0", lod1(rnd(2, TU_DIMS(5, 3), 1), 4, l3));
  ot_feed(&t, "x1", lod1(rnd(2, TU_DIMS(5, 3), 2), 4, l3));
  ot_feed(&t, "dout", rnd(2, TU_DIMS(9, 3), 3));
  ot_op(&t, "sequence_concat_grad");
  ic_builder_input(t.op, "X", 2, (const char *const[]){"x0", "x1"});
  ic_builder_in(t.op, "Out@GRAD", "dout");
  ic_builder_output(t.op, "X@GRAD", 2, (const char *const[]){"g0", "g1"});
  ot_fetch(&t, "g0");
  ot_fetch(&t, "g1");
  EXPECT_FAIL(&t, "sequence_concat_grad", "input Out@GRAD 'dout'", "expected dims [10, 3]");
  ot_end(&t);
  /* sequence_concat_grad: inputs with different sequence counts */
  ot_begin(&t);
  ot_feed(&t, "x0", lod1(rnd(2, TU_DIMS(5, 3), 1), 4, l3));
  ot_feed(&t, "x1", lod1(rnd(2, TU_DIMS(4, 3), 2), 3, l2));
  ot_feed(&t, "dout", rnd(2, TU_DIMS(9, 3), 3));
  ot_op(&t, "sequence_concat_grad");
  ic_builder_input(t.op, "X", 2, (const char *const[]){"x0", "x1"});
  ic_builder_in(t.op, "Out@GRAD", "dout");
  ic_builder_output(t.op, "X@GRAD", 2, (const char *const[]){"g0", "g1"});
  ot_fetch(&t, "g0");
  ot_fetch(&t, "g1");
  EXPECT_FAIL(&t, "sequence_concat_grad", "input X 'x1'", "2 sequences, expected 3");
  ot_end(&t);
  /* sequence_conv_grad: Out@GRAD of the wrong width; X without LoD */
  for (int v = 0; v < 2; v++) {
    ot_begin(&t);
    ic_tensor *x = rnd(2, TU_DIMS(5, 2), 1);
    ot_feed(&t, "x", v ? x : lod1(x, 4, l3));
    ot_feed(&t, "f", rnd(2, TU_DIMS(6, 4), 2));
    ot_feed(&t, "dout", rnd(2, TU_DIMS(5, v ? 4 : 3), 3));
    ot_op(&t, "sequence_conv_grad");
    ic_builder_in(t.op, "X", "x");
    ic_builder_in(t.op, "Filter", "f");
    ic_builder_in(t.op, "Out@GRAD", "dout");
    ic_builder_attr_int(t.op, "contextLength", 3);
    ic_builder_attr_int(t.op, "contextStart", -1);
    ot_out(&t, "X@GRAD", "dx");
    ot_out(&t, "Filter@GRAD", "df");
    if (v) EXPECT_FAIL(&t, "sequence_conv_grad", "input X 'x'", "LoD");
    else EXPECT_FAIL(&t, "sequence_conv_grad", "input Out@GRAD 'dout'", "expected float32[5, 4]");
    ot_end(&t);
  }
  /* sequence_expand_as_grad: X's rows are not Y's sequences */
  ot_begin(&t);
  ot_feed(&t, "x", rnd(2, TU_DIMS(2, 3), 1));
  ot_feed(&t, "y", lod1(rnd(2, TU_DIMS(5, 1), 2), 4, l3));
  ot_feed(&t, "dout", rnd(2, TU_DIMS(5, 3), 3));
  ot_op(&t, "sequence_expand_as_grad");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "Y", "y");
  ic_builder_in(t.op, "Out@GRAD", "dout");
  ot_out(&t, "X@GRAD", "dx");
  EXPECT_FAIL(&t, "sequence_expand_as_grad", "input X 'x'", "expected 3 (the sequences of Y 'y')");
  ot_end(&t);
  /* sequence_pad_grad: Out@GRAD padded to another length than padded_length */
  ot_begin(&t);
  ot_feed(&t, "x", lod1(rnd(2, TU_DIMS(5, 2), 1), 4, l3));
  ot_feed(&t, "dout", rnd(3, TU_DIMS(3, 4, 2), 2));
  ot_op(&t, "sequence_pad_grad");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "Out@GRAD", "dout");
  ic_builder_attr_int(t.op, "padded_length", -1);
  ot_out(&t, "X@GRAD", "dx");
  EXPECT_FAIL(&t, "sequence_pad_grad", "input Out@GRAD 'dout'", "float32[3, 3, 2]", "padded to 3");
  ot_end(&t);
  /* sequence_unpad_grad: Out@GRAD without LoD; with a sequence longer than X's length */
  for (int v = 0; v < 2; v++) {
    static const uint64_t lx[4] = {0, 2, 2, 6};
    ot_begin(&t);
    ot_feed(&t, "x", rnd(3, TU_DIMS(3, 3, 2), 1));
    ic_tensor *g = rnd(2, TU_DIMS(v ? 6 : 5, 2), 2);
    ot_feed(&t, "dout", v ? lod1(g, 4, lx) : g);
    ot_op(&t, "sequence_unpad_grad");
    ic_builder_in(t.op, "X", "x");
    ic_builder_in(t.op, "Out@GRAD", "dout");
    ot_out(&t, "X@GRAD", "dx");
    if (v) EXPECT_FAIL(&t, "sequence_unpad_grad", "input Out@GRAD 'dout'", "sequence 2 of 4 rows", "padded to 3");
    else EXPECT_FAIL(&t, "sequence_unpad_grad", "input Out@GRAD 'dout'", "LoD");
    ot_end(&t);
  }
  /* sequence_reshape_grad: Out@GRAD not in rows of new_dim */
  ot_begin(&t);
  ot_feed(&t, "x", lod1(rnd(2, TU_DIMS(5, 2), 1), 4, l3));
  ot_feed(&t, "dout", rnd(2, TU_DIMS(2, 5), 2));
  ot_op(&t, "sequence_reshape_grad");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "Out@GRAD", "dout");
  ic_builder_attr_int(t.op, "new_dim", 10);
  ot_out(&t, "X@GRAD", "dx");
  EXPECT_FAIL(&t, "sequence_reshape_grad", "input Out@GRAD 'dout'", "float32[1, 10]");
  ot_end(&t);
  /* lod_reset_grad: Out@GRAD of other dims than X */
  ot_begin(&t);
  ot_feed(&t, "x", lod1(rnd(2, TU_DIMS(5, 2), 1), 4, l3));
  ot_feed(&t, "dout", rnd(2, TU_DIMS(4, 2), 2));
  ot_op(&t, "lod_reset_grad");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "Out@GRAD", "dout");
  ot_out(&t, "X@GRAD", "dx");
  EXPECT_FAIL(&t, "lod_reset_grad", "input Out@GRAD 'dout'", "expected dims [5, 2]");
  ot_end(&t);
  /* shrink_rnn_memory_grad: Out@GRAD with more rows than X */
  ot_begin(&t);
  ot_feed(&t, "x", rnd(2, TU_DIMS(3, 2), 1));
  ot_feed(&t, "dout", rnd(2, TU_DIMS(4, 2), 2));
  ot_op(&t, "shrink_rnn_memory_grad");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "Out@GRAD", "dout");
  ot_out(&t, "X@GRAD", "dx");
  EXPECT_FAIL(&t, "shrink_rnn_memory_grad", "input Out@GRAD 'dout'", "at most X's 3 rows");
  ot_end(&t);
  /* (helper M) sequence_slice_grad: a slice past its sequence's end */
  {
    ic_tensor *off = NULL, *len = NULL;
    ck_assert_int_eq(ic_tensor_create(IC_INT64, 1, TU_DIMS(3), &off), IC_OK);
    ck_assert_int_eq(ic_tensor_create(IC_INT64, 1, TU_DIMS(3), &len), IC_OK);
    const int64_t ov[3] = {1, 0, 2}, lv[3] = {1, 0, 2};
    memcpy(ic_tensor_data(off), ov, sizeof ov);
    memcpy(ic_tensor_data(len), lv, sizeof lv);
    ot_begin(&t);
    ot_feed(&t, "x", lod1(rnd(2, TU_DIMS(5, 2), 1), 4, l3));
    ot_feed(&t, "off", off);
    ot_feed(&t, "len", len);
    ot_feed(&t, "dout", rnd(2, TU_DIMS(3, 2), 2));
    ot_op(&t, "sequence_slice_grad");
    ic_builder_in(t.op, "X", "x");
    ic_builder_in(t.op, "Offset", "off");
    ic_builder_in(t.op, "Length", "len");
    ic_builder_in(t.op, "Out@GRAD", "dout");
    ot_out(&t, "X@GRAD", "dx");
    EXPECT_FAIL(&t, "sequence_slice_grad", "slice 2 (Offset 2, Length 2)", "(3 rows)");
    ot_end(&t);
  }
  /* (helper M) deformable_psroi_pooling(_grad): ROIs without LoD; Trans of the wrong parts */
  for (int v = 0; v < 2; v++) {
    static const uint64_t l1[2] = {0, 2};
    ot_begin(&t);
    ot_feed(&t, "x", rnd(4, TU_DIMS(1, 4, 5, 5), 1));
    ic_tensor *rois = rnd(2, TU_DIMS(2, 4), 2);
    ot_feed(&t, "rois", v ? lod1(rois, 2, l1) : rois);
    ot_feed(&t, "trans", rnd(4, TU_DIMS(2, 2, 2, v ? 3 : 2), 3));
    ot_feed(&t, "cnt", rnd(4, TU_DIMS(2, 4, 2, 2), 4));
    ot_feed(&t, "dout", rnd(4, TU_DIMS(2, 4, 2, 2), 5));
    ot_op(&t, "deformable_psroi_pooling_grad");
    ic_builder_in(t.op, "Input", "x");
    ic_builder_in(t.op, "ROIs", "rois");
    ic_builder_in(t.op, "Trans", "trans");
    ic_builder_in(t.op, "TopCount", "cnt");
    ic_builder_in(t.op, "Output@GRAD", "dout");
    ic_builder_attr_int(t.op, "output_dim", 4);
    ic_builder_attr_int(t.op, "pooled_height", 2);
    ic_builder_attr_int(t.op, "pooled_width", 2);
    ic_builder_attr_ints(t.op, "group_size", 2, (const int32_t[]){1, 1});
    ic_builder_attr_ints(t.op, "part_size", 2, (const int32_t[]){2, 2});
    ot_out(&t, "Input@GRAD", "dx");
    if (v) EXPECT_FAIL(&t, "deformable_psroi_pooling_grad", "input Trans 'trans'", "expected dims [2, 2, 2, 2]");
    else EXPECT_FAIL(&t, "deformable_psroi_pooling_grad", "input ROIs 'rois'", "LoD");
    ot_end(&t);
  }
}
END_TEST

/* The grads that read a rank table or an array: a rank table of another sequence count, an
 * Out@GRAD that does not fit the array's elements. */
START_TEST(array_grad_bad_inputs) {
  static const uint64_t l3[4] = {0, 2, 2, 5};
  optest t;
  ot_begin(&t);
  ot_feed(&t, "seq", lod1(rnd(2, TU_DIMS(5, 1), 1), 4, l3));
  ot_feed(&t, "dout", rnd(2, TU_DIMS(4, 2), 2));
  ic_builder_var(t.b, 0, "rank", IC_INT64, 1, TU_DIMS(-1), false); /* icore: an int64 tensor */
  ic_builder_op *rt = ic_builder_add_op(t.b, 0, "lod_rank_table");
  ic_builder_in(rt, "X", "seq");
  ic_builder_out(rt, "Out", "rank");
  ic_builder_attr_int(rt, "level", 0);
  ot_op(&t, "reorder_lod_tensor_by_rank_grad");
  ic_builder_in(t.op, "X", "dout");
  ic_builder_in(t.op, "RankTable", "rank");
  ot_out(&t, "Out", "dx");
  EXPECT_FAIL(&t, "reorder_lod_tensor_by_rank_grad", "RankTable 'rank'", "3 items", "4 sequences of input X 'dout'");
  ot_end(&t);

  for (int stack = 0; stack < 2; stack++) {
    ot_begin(&t);
    ot_feed(&t, "a", rnd(2, TU_DIMS(2, 3), 1));
    ot_feed(&t, "b", rnd(2, TU_DIMS(2, 3), 2));
    ot_feed(&t, "i0", tu_i64(1, TU_DIMS(1), (const int64_t[]){0}));
    ot_feed(&t, "i1", tu_i64(1, TU_DIMS(1), (const int64_t[]){1}));
    ot_feed(&t, "dout", rnd(2, TU_DIMS(4, 2), 3));
    ic_builder_var_kind(t.b, 0, "arr", IC_VAR_LOD_TENSOR_ARRAY, false);
    ic_builder_var_kind(t.b, 0, "darr", IC_VAR_LOD_TENSOR_ARRAY, false);
    for (int k = 0; k < 2; k++) {
      ic_builder_op *w = ic_builder_add_op(t.b, 0, "write_to_array");
      ic_builder_in(w, "X", k ? "b" : "a");
      ic_builder_in(w, "I", k ? "i1" : "i0");
      ic_builder_out(w, "Out", "arr");
    }
    ot_op(&t, "tensor_array_to_tensor_grad");
    ic_builder_in(t.op, "X", "arr");
    ic_builder_in(t.op, "Out@GRAD", "dout");
    ic_builder_out(t.op, "X@GRAD", "darr");
    ic_builder_attr_int(t.op, "axis", 0);
    ic_builder_attr_bool(t.op, "use_stack", stack);
    ic_builder_op *r = ic_builder_add_op(t.b, 0, "read_from_array");
    ic_builder_in(r, "X", "darr");
    ic_builder_in(r, "I", "i0");
    ic_builder_out(r, "Out", "g0");
    ot_fetch(&t, "g0");
    EXPECT_FAIL(&t, "tensor_array_to_tensor_grad", "input Out@GRAD 'dout'",
                stack ? "expected dims [2, 2, 3]" : "expected dims [4, 3]", "X 'arr'");
    ot_end(&t);
  }
}
END_TEST

/* read_from_array as write_to_array's gradient: an index past the gradient array's end gives
 * zeros shaped like X_W with its LoD; without X_W it is an error naming the array. */
START_TEST(read_from_array_x_w) {
  static const uint64_t l2[3] = {0, 1, 3};
  for (int with_xw = 0; with_xw < 2; with_xw++) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "a", rnd(2, TU_DIMS(2, 3), 1));
    ot_feed(&t, "w", lod1(rnd(2, TU_DIMS(3, 4), 2), 3, l2));
    ot_feed(&t, "i0", tu_i64(1, TU_DIMS(1), (const int64_t[]){0}));
    ot_feed(&t, "i2", tu_i64(1, TU_DIMS(1), (const int64_t[]){2}));
    ic_builder_var_kind(t.b, 0, "arr", IC_VAR_LOD_TENSOR_ARRAY, false);
    ic_builder_op *w = ic_builder_add_op(t.b, 0, "write_to_array");
    ic_builder_in(w, "X", "a");
    ic_builder_in(w, "I", "i0");
    ic_builder_out(w, "Out", "arr");
    ot_op(&t, "read_from_array");
    ic_builder_in(t.op, "X", "arr");
    ic_builder_in(t.op, "I", "i2");
    if (with_xw) ic_builder_in(t.op, "X_W", "w");
    ot_out(&t, "Out", "r");
    if (!with_xw) {
      EXPECT_FAIL(&t, "read_from_array", "index I 'i2' is 2", "array X 'arr' has 1 elements");
    } else {
      ot_ok(&t);
      tu_assert_shape(t.out[0], IC_FP32, 2, TU_DIMS(3, 4));
      static const double zeros[12] = {0};
      tu_assert_close(t.out[0], zeros, 12, 0, 0);
      assert_lod1(t.out[0], l2, 3);
    }
    ot_end(&t);
  }
}
END_TEST

static TCase *tc_errors(void) {
  TCase *tc = tcase_create("builder");
  tcase_add_test(tc, sequence_concat_grad_absent_output);
  tcase_add_test(tc, sequence_grad_bad_inputs);
  tcase_add_test(tc, array_grad_bad_inputs);
  tcase_add_test(tc, read_from_array_x_w);
  return tc;
}
