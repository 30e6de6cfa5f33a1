/* Malformed programs: one test per class of bad input, each asserting the status and that
 * the message names the place. None may crash, hang or leak (the suite also runs under
 * ASan+UBSan). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program/program.h"
#include "testutil.h"

static void *real_model(size_t *n) {
  char path[4096];
  ck_assert(tu_shared("paddle/pphgnet_plate/inference.pdmodel", path, sizeof path));
  void *b = tu_read_file(path, n);
  ck_assert_ptr_nonnull(b);
  return b;
}

START_TEST(truncated_program_bytes) {
  size_t n;
  unsigned char *b = real_model(&n);
  /* Every cut point in the first 4 KiB and a spread of others: IC_ERR_INVALID_PROGRAM or, where
   * the cut lands between messages and the rest is still a valid program missing ops, a
   * program that loads. Never a crash. */
  size_t errors = 0, cuts = 0;
  for (size_t len = 0; len < n; len += len < 4096 ? 1 : 997) {
    ic_program *p = NULL;
    char err[1024] = "";
    ic_status st = ic_program_from_bytes(b, len, "cut.pdmodel", &p, err, sizeof err);
    cuts++;
    if (st) {
      errors++;
      ck_assert_ptr_null(p);
      ck_assert_msg(st == IC_ERR_INVALID_PROGRAM, "cut at %zu: %s", len, ic_status_name(st));
      tu_assert_msg(err, "cut.pdmodel", NULL);
    }
    ic_program_destroy(p);
  }
  ck_assert_uint_gt(errors, cuts / 2);
  free(b);
}
END_TEST

START_TEST(random_program_bytes) {
  uint64_t s = 0x1234567ull;
  for (int trial = 0; trial < 2000; trial++) {
    size_t len = (size_t)(trial % 300) + 1;
    unsigned char *b = malloc(len);
    for (size_t i = 0; i < len; i++) {
      s ^= s << 13;
      s ^= s >> 7;
      s ^= s << 17;
      b[i] = (unsigned char)s;
    }
    ic_program *p = NULL;
    char err[1024] = "";
    ic_status st = ic_program_from_bytes(b, len, "random.pdmodel", &p, err, sizeof err);
    if (st) {
      ck_assert_ptr_null(p);
      tu_assert_msg(err, "random.pdmodel", NULL);
    }
    ic_program_destroy(p);
    free(b);
  }
  /* flipped bytes in a real program */
  size_t n;
  unsigned char *real = real_model(&n);
  for (int trial = 0; trial < 300; trial++) {
    unsigned char *b = malloc(n);
    memcpy(b, real, n);
    for (int k = 0; k < 8; k++) {
      s ^= s << 13;
      s ^= s >> 7;
      s ^= s << 17;
      b[s % n] ^= (unsigned char)(s >> 32);
    }
    ic_program *p = NULL;
    char err[1024];
    if (ic_program_from_bytes(b, n, "flipped.pdmodel", &p, err, sizeof err) == IC_OK) {
      /* Loaded (the flips hit strings or numbers): analysis must still not crash. */
      ic_executor *e;
      ck_assert_int_eq(ic_executor_create(NULL, &e), IC_OK);
      ic_tensor *out = NULL;
      const char *fetch = ic_program_n_fetch_targets(p) ? ic_program_fetch_target(p, 0) : "x";
      (void)ic_executor_run(e, p, NULL, 0, NULL, NULL, 1, &fetch, &out);
      ic_tensor_destroy(out);
      ic_executor_destroy(e);
    }
    ic_program_destroy(p);
    free(b);
  }
  free(real);
}
END_TEST

START_TEST(missing_file) {
  ic_program *p;
  char err[1024];
  ck_assert_int_eq(ic_program_from_file("/nonexistent/model.pdmodel", &p, err, sizeof err), IC_ERR_IO);
  ck_assert_ptr_null(p);
  tu_assert_msg(err, "/nonexistent/model.pdmodel", NULL);
}
END_TEST

/* An ONNX model handed over as a Paddle program (a file named __model__ in a public
 * repository held one) is named as such; a ProgramDesc-looking prefix is not. */
START_TEST(onnx_model_named) {
  /* ModelProto: ir_version 8, producer_name "pytorch", producer_version "2.8.0", graph... */
  static const unsigned char onnx[] = {0x08, 0x08, 0x12, 0x07, 'p', 'y', 't', 'o', 'r', 'c',
                                       'h', 0x1a, 0x05, '2', '.', '8', '.', '0', 0x3a, 0x02,
                                       0x0a, 0x00};
  ic_program *p = NULL;
  char err[1024];
  ck_assert_int_eq(ic_program_from_bytes(onnx, sizeof onnx, "m/__model__", &p, err, sizeof err),
                   IC_ERR_INVALID_PROGRAM);
  ck_assert_ptr_null(p);
  tu_assert_msg(err, "m/__model__", "ONNX model", NULL);
  static const unsigned char trunc[] = {0x0a, 0x40, 0x08, 0x00, 'o', 'n', 'n', 'x'};
  ck_assert_int_eq(ic_program_from_bytes(trunc, sizeof trunc, "t.pdmodel", &p, err, sizeof err),
                   IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "not a valid ProgramDesc", NULL);
}
END_TEST

static ic_status build_err(ic_builder *b, char *err, size_t len) {
  ic_program *p = NULL;
  ic_status st = ic_builder_build(b, &p, err, len);
  ic_program_destroy(p);
  return st;
}

START_TEST(undeclared_variable) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(3));
  ic_builder_op *op = ic_builder_add_op(b, 0, "relu");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "ghost");
  char err[1024];
  ck_assert_int_eq(build_err(b, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "op #0 (relu)", "'ghost'", "not declared", NULL);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(bad_blocks_and_dims) {
  char err[1024];
  /* a block whose parent is itself */
  ic_builder *b = ic_builder_create();
  ic_builder_add_block(b, 1);
  ck_assert_int_eq(build_err(b, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "block 1", "parent_idx", NULL);
  ic_builder_destroy(b);
  /* blocks whose parents form a cycle */
  b = ic_builder_create();
  ic_builder_add_block(b, 2);
  ic_builder_add_block(b, 1);
  ck_assert_int_eq(build_err(b, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "cycle", NULL);
  ic_builder_destroy(b);
  /* a dim below -1 (Paddle's shape inference writes -50) loads as unknown (-1) */
  b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 3, TU_DIMS(3, -2, -50));
  {
    ic_program *p = NULL;
    ck_assert_int_eq(ic_builder_build(b, &p, err, sizeof err), IC_OK);
    const ic_vardesc *v = ic_program_find_var(p, 0, "x");
    ck_assert_ptr_nonnull(v);
    ck_assert_int_eq(v->ndim, 3);
    ck_assert(v->dims[0] == 3 && v->dims[1] == -1 && v->dims[2] == -1);
    ic_program_destroy(p);
  }
  ic_builder_destroy(b);
  /* an unknown dtype */
  b = ic_builder_create();
  tu_var(b, "x", (ic_dtype)25, 1, TU_DIMS(3));
  ck_assert_int_eq(build_err(b, err, sizeof err), IC_ERR_UNSUPPORTED);
  tu_assert_msg(err, "'x'", NULL);
  ic_builder_destroy(b);
  /* a variable declared twice */
  b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(3));
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(3));
  ck_assert_int_eq(build_err(b, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'x'", "twice", NULL);
  ic_builder_destroy(b);
  /* a BLOCK attribute naming a block that does not exist */
  b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(3));
  ic_builder_op *op = ic_builder_add_op(b, 0, "while");
  ic_builder_attr_block(op, "sub_block", 5);
  ck_assert_int_eq(build_err(b, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "op #0 (while)", "'sub_block'", "block 5", NULL);
  ic_builder_destroy(b);
  /* two feed ops with one column */
  b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(3));
  tu_var(b, "y", IC_FP32, 1, TU_DIMS(3));
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "y");
  ic_builder_op *f = ic_builder_add_op(b, 0, "feed");
  ic_builder_in(f, "X", "feed");
  ic_builder_out(f, "Out", "y");
  ic_builder_attr_int(f, "col", 0);
  ck_assert_int_eq(build_err(b, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "feed", "col", NULL);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(unknown_op_type) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(3));
  tu_var(b, "y", IC_FP32, 1, TU_DIMS(3));
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "frobnicate");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  ic_builder_fetch(b, "y");
  ic_tensor *x = tu_f32(1, TU_DIMS(3), NULL), *out;
  char err[1024];
  ck_assert_int_eq(tu_run(b, 1, TU_NAMES("x"), &x, 1, TU_NAMES("y"), &out, err, sizeof err),
                   IC_ERR_UNSUPPORTED);
  tu_assert_msg(err, "op #1", "frobnicate", "no kernel", NULL);
  ic_tensor_destroy(x);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(bad_attributes) {
  char err[1024];
  ic_tensor *x = tu_f32(1, TU_DIMS(3), NULL), *out;
  /* missing required attribute: fill_constant without its dtype is fine (default), but a
   * feed op without its column is not */
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(3));
  ic_builder_var_kind(b, 0, "feed", IC_VAR_FEED_MINIBATCH, true);
  ic_builder_op *op = ic_builder_add_op(b, 0, "feed");
  ic_builder_in(op, "X", "feed");
  ic_builder_out(op, "Out", "x");
  ck_assert_int_eq(build_err(b, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "feed", "'col'", NULL);
  ic_builder_destroy(b);
  /* wrongly typed attribute */
  b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(3));
  tu_var(b, "y", IC_FP32, 1, TU_DIMS(3));
  ic_builder_feed(b, "x");
  op = ic_builder_add_op(b, 0, "scale");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  ic_builder_attr_string(op, "scale", "two");
  ic_builder_fetch(b, "y");
  ck_assert_int_eq(tu_run(b, 1, TU_NAMES("x"), &x, 1, TU_NAMES("y"), &out, err, sizeof err),
                   IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "op #1 (scale)", "'scale'", "STRING", "FLOAT", NULL);
  ic_builder_destroy(b);
  /* a missing required attribute of an op */
  b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(3));
  tu_var(b, "y", IC_FP32, 1, TU_DIMS(3));
  ic_builder_feed(b, "x");
  op = ic_builder_add_op(b, 0, "rnn");
  ic_builder_in(op, "Input", "x");
  ic_builder_out(op, "Out", "y");
  ic_builder_fetch(b, "y");
  ck_assert_int_eq(tu_run(b, 1, TU_NAMES("x"), &x, 1, TU_NAMES("y"), &out, err, sizeof err),
                   IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "op #1 (rnn)", "missing", NULL);
  ic_builder_destroy(b);
  ic_tensor_destroy(x);
}
END_TEST

START_TEST(bad_shapes_name_op_and_variable) {
  /* a matmul whose inner dims disagree: the message names the op and both variables */
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 2, TU_DIMS(2, 3));
  tu_var(b, "w", IC_FP32, 2, TU_DIMS(4, 5));
  tu_var(b, "y", IC_FP32, 2, TU_DIMS(2, 5));
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "w");
  ic_builder_op *op = ic_builder_add_op(b, 0, "matmul_v2");
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Y", "w");
  ic_builder_out(op, "Out", "y");
  ic_builder_fetch(b, "y");
  ic_tensor *feeds[2] = {tu_f32(2, TU_DIMS(2, 3), NULL), tu_f32(2, TU_DIMS(4, 5), NULL)}, *out;
  char err[1024];
  ck_assert_int_eq(tu_run(b, 2, TU_NAMES("x", "w"), feeds, 1, TU_NAMES("y"), &out, err, sizeof err),
                   IC_ERR_SHAPE);
  tu_assert_msg(err, "op #2 (matmul_v2)", "'x'", "'w'", NULL);
  ic_tensor_destroy(feeds[0]);
  ic_tensor_destroy(feeds[1]);
  ic_builder_destroy(b);
}
END_TEST

/* A convolution fed a wrong channel count or rank: IC_ERR_SHAPE naming the op, the input
 * and the filter, in every executor configuration; and a real model's feed of the wrong
 * shape is refused before anything runs. */
START_TEST(conv_bad_shapes) {
  /* x -> reshape2 (to `shape`) -> r -> conv2d: a wrong rank reaches the convolution. */
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 4, TU_DIMS(-1, -1, -1, -1));
  tu_var(b, "r", IC_FP32, 4, TU_DIMS(-1, -1, -1, -1));
  tu_var(b, "xs", IC_FP32, 5, TU_DIMS(0, -1, -1, -1, -1));
  ic_builder_var(b, 0, "w", IC_FP32, 4, TU_DIMS(8, 3, 3, 3), true);
  tu_var(b, "y", IC_FP32, 4, TU_DIMS(-1, 8, -1, -1));
  ic_builder_feed(b, "x");
  ic_builder_op *rs = ic_builder_add_op(b, 0, "reshape2");
  ic_builder_in(rs, "X", "x");
  ic_builder_out(rs, "Out", "r");
  ic_builder_out(rs, "XShape", "xs");
  ic_builder_attr_ints(rs, "shape", 4, (const int32_t[]){0, 0, 0, 0});
  ic_builder_op *op = ic_builder_add_op(b, 0, "conv2d");
  ic_builder_in(op, "Input", "r");
  ic_builder_in(op, "Filter", "w");
  ic_builder_out(op, "Output", "y");
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){1, 1});
  ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){1, 1});
  ic_builder_attr_ints(op, "dilations", 2, (const int32_t[]){1, 1});
  ic_builder_attr_int(op, "groups", 1);
  ic_builder_fetch(b, "y");
  ic_program *p;
  ck_assert_int_eq(ic_builder_build(b, &p, NULL, 0), IC_OK);
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  ic_tensor *w = tu_f32(4, TU_DIMS(8, 3, 3, 3), NULL);
  ck_assert_int_eq(ic_scope_set(s, "w", w), IC_OK);
  /* 4 channels where the filter takes 3 */
  ic_tensor *bad = tu_f32(4, TU_DIMS(1, 4, 8, 8), NULL), *out;
  char err[1024];
  ck_assert_int_eq(tu_run_scope(p, s, 1, TU_NAMES("x"), &bad, 1, TU_NAMES("y"), &out, err, sizeof err),
                   IC_ERR_SHAPE);
  tu_assert_msg(err, "op #2 (conv2d)", "'r'", "'w'", NULL);
  ic_tensor_destroy(bad);
  ic_program_destroy(p);
  /* rank 3 after the reshape */
  ic_builder_attr_ints(rs, "shape", 3, (const int32_t[]){3, 8, 8});
  ck_assert_int_eq(ic_builder_build(b, &p, NULL, 0), IC_OK);
  bad = tu_f32(4, TU_DIMS(1, 3, 8, 8), NULL);
  ck_assert_int_eq(tu_run_scope(p, s, 1, TU_NAMES("x"), &bad, 1, TU_NAMES("y"), &out, err, sizeof err),
                   IC_ERR_SHAPE);
  tu_assert_msg(err, "op #2 (conv2d)", "'r'", NULL);
  ic_tensor_destroy(bad);
  ic_tensor_destroy(w);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  /* MobileNetV2 declares [-1, 3, 224, 224] (a hint, as in Paddle): a 4-channel image is
   * refused by the first convolution, naming it, the variable and both channel counts. */
  char path[4096];
  ck_assert(tu_shared("paddle/mobilenet_v2/inference.pdmodel", path, sizeof path));
  ck_assert_int_eq(ic_model_load(path, NULL, IC_LOAD_NO_PARAMS, &p, &s, err, sizeof err), IC_OK);
  ck_assert_int_eq(ic_params_random(p, 1, s, err, sizeof err), IC_OK);
  ic_tensor *x = tu_f32(4, TU_DIMS(1, 4, 224, 224), NULL);
  ck_assert_int_eq(tu_run_scope(p, s, 1, TU_NAMES("inputs"), &x, 1,
                                (const char *const[]){ic_program_fetch_target(p, 0)}, &out, err,
                                sizeof err),
                   IC_ERR_SHAPE);
  tu_assert_msg(err, "conv2d", "'inputs'", "float32[1, 4, 224, 224]", "4 channels", "expected", NULL);
  ic_tensor_destroy(x);
  ic_scope_destroy(s);
  ic_program_destroy(p);
}
END_TEST

static TCase *tc_bad(void) {
  TCase *tc = tcase_create("bad input");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, truncated_program_bytes);
  tcase_add_test(tc, random_program_bytes);
  tcase_add_test(tc, missing_file);
  tcase_add_test(tc, onnx_model_named);
  tcase_add_test(tc, undeclared_variable);
  tcase_add_test(tc, bad_blocks_and_dims);
  tcase_add_test(tc, unknown_op_type);
  tcase_add_test(tc, bad_attributes);
  tcase_add_test(tc, bad_shapes_name_op_and_variable);
  tcase_add_test(tc, conv_bad_shapes);
  return tc;
}

TU_MAIN("bad_input", tc_bad)
