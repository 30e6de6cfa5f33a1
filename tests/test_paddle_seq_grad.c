/* The gradients of fluid's sequence and LoD-array ops in training programs written and run by
 * PaddlePaddle 2.6.2 itself (tools/gen_paddle_seq_grad.py, tests/data/paddle_seq_grad): each
 * program is an op on fed LoD tensors, loss = sum(out * w) with w fixed random values, and the
 * backward paddle.static.append_backward emits (sequence_concat_grad, sequence_conv_grad, ...,
 * tensor_array_to_tensor_grad, and the array ops whose gradient is the other forward op). icore
 * runs the whole program and must give Paddle's input gradients (float32 within 1e-5) and their
 * LoD, in every executor configuration (uncompiled, compiled at 1 and 2 threads: tu_run_scope,
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
#define SEQ_MIN_CASES 35
#define SEQ_TOOL "tools/gen_paddle_seq_grad.py (Paddle 2.6.2)"
#define SEQ_EXTRA_TCASES tc_gradops, tc_errors
#include "test_paddle_seq.c"

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
      "read_from_array", "write_to_array", "select_input", "select_output"};
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

/* ---- bad inputs ---- */

static TCase *tc_errors(void) {
  TCase *tc = tcase_create("errors");
  return tc;
}
