/* sum over LoDTensorArrays (src/kernels/cpu/sum_array.c, chosen by sum's resolve when X's
 * variables are declared arrays), as Paddle's backward emits it for an array read more than
 * once: programs built with the builder write fed tensors into arrays at chosen indexes, sum
 * the arrays and read every element of the result back. Each runs in the uncompiled executor
 * and the compiled one at 1, 2 and 4 threads (tu_run_scope: bitwise equal) and on the
 * emulated device emu:0 (bitwise the host's; the sum stays on the host), against sums
 * computed here: Out is as long as the last index some input wrote, element j sums the
 * inputs' elements j in input order and has the first one's LoD, an element no input wrote
 * stays unwritten (reading it fails). Then the in-place forms (Out is X[0] or X[1]), an
 * input array no op wrote, a sum inside a while loop accumulating into an outer array, and
 * the errors: a mix of arrays and
 * tensors refused when the program is loaded (naming op and variables, as Paddle's
 * SumOpVarTypeInference refuses it), elements whose dims or LoD disagree refused when it runs
 * (naming the element and both inputs).
 *
 * Also slice_array's array-to-array form (src/kernels/cpu/slice_array.c, chosen by its
 * resolve when Out is declared an array; the values of each bound are checked against
 * Paddle in tests/data/paddle_ctrl/array_slice_range and the PIR case ops8): in place
 * (Out is Input), an element never written staying unwritten, the LoD copied, and the empty
 * range refused naming the array and the bounds. */
#include <stdio.h>
#include <string.h>

#include "analysis/plan.h"
#include "interp/interp.h"
#include "testutil.h"

#define MAXO 8

static void tvar(ic_builder *b, int blk, const char *name, ic_dtype dt) {
  ic_builder_var(b, blk, name, dt, 2, TU_DIMS(-1, 2), false);
}

static void array(ic_builder *b, int blk, const char *name) {
  ic_builder_var_kind(b, blk, name, IC_VAR_LOD_TENSOR_ARRAY, false);
}

/* idx = a fresh int64 [1] holding i (its name made from the counter in *k) */
static const char *index_var(ic_builder *b, int blk, int64_t i, int *k, char *buf, size_t len) {
  snprintf(buf, len, "idx%d", (*k)++);
  ic_builder_var(b, blk, buf, IC_INT64, 1, TU_DIMS(1), false);
  ic_builder_op *op = ic_builder_add_op(b, blk, "fill_constant");
  ic_builder_out(op, "Out", buf);
  ic_builder_attr_longs(op, "shape", 1, (const int64_t[]){1});
  ic_builder_attr_int(op, "dtype", 3); /* INT64 */
  ic_builder_attr_float(op, "value", (float)i);
  return buf;
}

static void write_at(ic_builder *b, const char *x, const char *arr, int64_t i, int *k) {
  char buf[32];
  const char *idx = index_var(b, 0, i, k, buf, sizeof buf);
  ic_builder_op *op = ic_builder_add_op(b, 0, "write_to_array");
  ic_builder_in(op, "X", x);
  ic_builder_in(op, "I", idx);
  ic_builder_out(op, "Out", arr);
}

static void read_at(ic_builder *b, const char *arr, int64_t i, const char *out, ic_dtype dt,
                    int *k) {
  char buf[32];
  tvar(b, 0, out, dt);
  const char *idx = index_var(b, 0, i, k, buf, sizeof buf);
  ic_builder_op *op = ic_builder_add_op(b, 0, "read_from_array");
  ic_builder_in(op, "X", arr);
  ic_builder_in(op, "I", idx);
  ic_builder_out(op, "Out", out);
}

static void sum_op(ic_builder *b, int blk, size_t n, const char *const *xs, const char *out) {
  ic_builder_op *op = ic_builder_add_op(b, blk, "sum");
  ic_builder_input(op, "X", n, xs);
  ic_builder_out(op, "Out", out);
}

static void length_of(ic_builder *b, const char *arr, const char *out) {
  ic_builder_var(b, 0, out, IC_INT64, 1, TU_DIMS(1), false);
  ic_builder_op *op = ic_builder_add_op(b, 0, "lod_array_length");
  ic_builder_in(op, "X", arr);
  ic_builder_out(op, "Out", out);
}

static ic_program *build(ic_builder *b) {
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  return p;
}

static ic_tensor *with_lod(ic_tensor *t, size_t n, const uint64_t *off) {
  ck_assert_int_eq(ic_tensor_set_lod(t, 1, (const size_t[]){n}, (const uint64_t *const[]){off}),
                   IC_OK);
  return t;
}

static void assert_lod(const ic_tensor *t, size_t n, const uint64_t *off, const char *what) {
  if (!off) {
    ck_assert_msg(ic_tensor_lod_levels(t) == 0, "%s: expected no LoD", what);
    return;
  }
  ck_assert_msg(ic_tensor_lod_levels(t) == 1, "%s: expected one LoD level", what);
  size_t got_n;
  const uint64_t *got = ic_tensor_lod(t, 0, &got_n);
  ck_assert_msg(got_n == n, "%s: LoD has %zu offsets, expected %zu", what, got_n, n);
  for (size_t k = 0; k < n; k++) ck_assert_msg(got[k] == off[k], "%s: LoD offset %zu", what, k);
}

/* Runs p in every host configuration (out: the uncompiled results), then on emu:0 (serial
 * and 2 threads) bitwise against them, and checks that block 0 of the device plan has
 * want_sums sums over arrays, each on the host, and (want_dev) some op on the device. */
static void run_everywhere(const ic_program *p, size_t nf, const char *const *fn,
                           ic_tensor **feeds, size_t no, const char *const *on, ic_tensor **out,
                           int want_sums, bool want_dev) {
  char err[1024];
  ck_assert_msg(tu_run_scope(p, NULL, nf, fn, feeds, no, on, out, err, sizeof err) == IC_OK,
                "%s", err);
  for (int threads = 1; threads <= 2; threads++) {
    ic_options o;
    ic_options_default(&o);
    o.device = (ic_place){IC_PLACE_EMULATED, 0};
    o.threads = threads;
    o.serial = threads == 1;
    o.fuse = false;
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ic_executor_emu_testing(e, 50, true, (uint64_t)threads);
    ic_tensor *got[MAXO] = {0};
    ck_assert_msg(ic_executor_run(e, p, NULL, nf, fn, (const ic_tensor *const *)feeds, no, on,
                                  got) == IC_OK,
                  "emu:0 %d threads: %s", threads, ic_executor_errmsg(e));
    for (size_t i = 0; i < no; i++) {
      char what[128];
      snprintf(what, sizeof what, "emu:0 %d threads, fetch %s", threads, on[i]);
      tu_assert_bitwise(got[i], out[i], what);
      ck_assert_msg(ic_lod_equal(got[i]->lod, out[i]->lod), "%s: LoD differs", what);
      ic_tensor_destroy(got[i]);
    }
    const ic_plan *plan = ic_executor_last_plan(e);
    int sums = 0, on_dev = 0;
    for (size_t i = 0; i < plan->n_instrs; i++) {
      const ic_instr *in = &plan->instrs[i];
      if (in->where == IC_WHERE_DEVICE) on_dev++;
      if (strcmp(in->op->type, "sum") != 0) continue;
      sums++;
      ck_assert_msg(in->where == IC_WHERE_HOST, "sum over arrays placed on the device");
      ck_assert_msg(in->def->inputs[0].flags & IC_SLOT_ARRAY, "sum resolved to the tensor sum");
    }
    ck_assert_int_eq(sums, want_sums);
    if (want_dev) ck_assert_int_ge(on_dev, 1); /* the plan does use the device */
    ic_executor_destroy(e);
  }
}

/* A = [x0, -, x1], B = [y0, y1]: Out = [x0 + y0, y1, x1], float32; x0 and y0 share a LoD, y1
 * has its own. Fetches the length, each element, and scale(x0) (a device op). */
START_TEST(two_arrays_f32) {
  ic_builder *b = ic_builder_create();
  const char *feeds_n[] = {"x0", "x1", "y0", "y1"};
  for (int k = 0; k < 4; k++) {
    tvar(b, 0, feeds_n[k], IC_FP32);
    ic_builder_feed(b, feeds_n[k]);
  }
  array(b, 0, "A");
  array(b, 0, "B");
  array(b, 0, "S");
  int k = 0;
  write_at(b, "x0", "A", 0, &k);
  write_at(b, "x1", "A", 2, &k);
  write_at(b, "y0", "B", 0, &k);
  write_at(b, "y1", "B", 1, &k);
  sum_op(b, 0, 2, TU_NAMES("A", "B"), "S");
  length_of(b, "S", "len");
  read_at(b, "S", 0, "s0", IC_FP32, &k);
  read_at(b, "S", 1, "s1", IC_FP32, &k);
  read_at(b, "S", 2, "s2", IC_FP32, &k);
  tvar(b, 0, "dev", IC_FP32);
  ic_builder_op *sc = ic_builder_add_op(b, 0, "scale");
  ic_builder_in(sc, "X", "x0");
  ic_builder_out(sc, "Out", "dev");
  ic_builder_attr_float(sc, "scale", 2.0f);
  const char *const on[] = {"len", "s0", "s1", "s2", "dev"};
  for (int j = 0; j < 5; j++) ic_builder_fetch(b, on[j]);
  ic_program *p = build(b);

  static const uint64_t lod_a[] = {0, 1, 3}, lod_b[] = {0, 2};
  ic_tensor *x0 = with_lod(tu_rand_f32(2, TU_DIMS(3, 2), 1, -1, 1), 3, lod_a);
  ic_tensor *x1 = tu_rand_f32(2, TU_DIMS(1, 2), 2, -1, 1);
  ic_tensor *y0 = with_lod(tu_rand_f32(2, TU_DIMS(3, 2), 3, -1, 1), 3, lod_a);
  ic_tensor *y1 = with_lod(tu_rand_f32(2, TU_DIMS(2, 2), 4, -1, 1), 2, lod_b);
  ic_tensor *feeds[] = {x0, x1, y0, y1}, *out[MAXO] = {0};
  run_everywhere(p, 4, feeds_n, feeds, 5, on, out, 1, true);

  ck_assert_int_eq(*(const int64_t *)ic_tensor_data(out[0]), 3);
  const float *a = ic_tensor_data(x0), *c = ic_tensor_data(y0);
  double want[6];
  for (int j = 0; j < 6; j++) want[j] = (double)(float)(a[j] + c[j]); /* float32 add */
  tu_assert_shape(out[1], IC_FP32, 2, TU_DIMS(3, 2));
  tu_assert_close(out[1], want, 6, 0, 0);
  assert_lod(out[1], 3, lod_a, "S[0]");
  tu_assert_bitwise(out[2], y1, "S[1] is B[1]");
  assert_lod(out[2], 2, lod_b, "S[1]");
  tu_assert_bitwise(out[3], x1, "S[2] is A[2]");
  assert_lod(out[3], 0, NULL, "S[2]");
  for (int j = 0; j < 5; j++) ic_tensor_destroy(out[j]);
  for (int j = 0; j < 4; j++) ic_tensor_destroy(feeds[j]);
  ic_program_destroy(p);
}
END_TEST

/* Three float64 arrays A = [-, p], B = [q, r], C = [-, -, -, s]: Out = [q, p + r, -, s] (4
 * long, element 2 never written: reading it fails in every executor). */
static ic_program *three_arrays(bool read_hole) {
  ic_builder *b = ic_builder_create();
  const char *fn[] = {"p", "q", "r", "s"};
  for (int k = 0; k < 4; k++) {
    tvar(b, 0, fn[k], IC_FP64);
    ic_builder_feed(b, fn[k]);
  }
  array(b, 0, "A");
  array(b, 0, "B");
  array(b, 0, "C");
  array(b, 0, "S");
  int k = 0;
  write_at(b, "p", "A", 1, &k);
  write_at(b, "q", "B", 0, &k);
  write_at(b, "r", "B", 1, &k);
  write_at(b, "s", "C", 3, &k);
  sum_op(b, 0, 3, TU_NAMES("A", "B", "C"), "S");
  length_of(b, "S", "len");
  read_at(b, "S", 0, "s0", IC_FP64, &k);
  read_at(b, "S", 1, "s1", IC_FP64, &k);
  read_at(b, "S", read_hole ? 2 : 3, "s3", IC_FP64, &k);
  const char *const on[] = {"len", "s0", "s1", "s3"};
  for (int j = 0; j < 4; j++) ic_builder_fetch(b, on[j]);
  return build(b);
}

START_TEST(three_arrays_f64) {
  ic_program *p = three_arrays(false);
  static const uint64_t lod_r[] = {0, 2, 3};
  double pv[6] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, rv[6] = {1e-17, -2, 3.5, 4, -5, 1e16};
  ic_tensor *feeds[] = {with_lod(tu_f64(2, TU_DIMS(3, 2), pv), 3, lod_r),
                        tu_f64(2, TU_DIMS(2, 2), (double[]){-1, -2, -3, -4}),
                        with_lod(tu_f64(2, TU_DIMS(3, 2), rv), 3, lod_r),
                        tu_f64(2, TU_DIMS(1, 2), (double[]){7, 8})};
  ic_tensor *out[MAXO] = {0};
  run_everywhere(p, 4, TU_NAMES("p", "q", "r", "s"), feeds, 4,
                 TU_NAMES("len", "s0", "s1", "s3"), out, 1, false);
  ck_assert_int_eq(*(const int64_t *)ic_tensor_data(out[0]), 4);
  tu_assert_bitwise(out[1], feeds[1], "S[0] is B[0]");
  double want[6];
  for (int j = 0; j < 6; j++) want[j] = pv[j] + rv[j];
  tu_assert_shape(out[2], IC_FP64, 2, TU_DIMS(3, 2));
  tu_assert_close(out[2], want, 6, 0, 0);
  assert_lod(out[2], 3, lod_r, "S[1]");
  tu_assert_bitwise(out[3], feeds[3], "S[3] is C[3]");
  for (int j = 0; j < 4; j++) ic_tensor_destroy(out[j]);
  ic_program_destroy(p);

  /* the hole: element 2 was written by no input */
  p = three_arrays(true);
  char err[1024];
  ck_assert_int_ne(tu_run_scope(p, NULL, 4, TU_NAMES("p", "q", "r", "s"), feeds, 4,
                                TU_NAMES("len", "s0", "s1", "s3"), out, err, sizeof err),
                   IC_OK);
  tu_assert_msg(err, "(read_from_array)", "element 2 of array X 'S' was never written", NULL);
  ic_program_destroy(p);
  for (int j = 0; j < 4; j++) ic_tensor_destroy(feeds[j]);
}
END_TEST

/* In place, as Paddle's backward writes it in loops: sum(X = [A, B], Out = A) and
 * sum(X = [A, B], Out = B): every input element counts once either way. A = [a0, a1],
 * B = [b0]: Out = [a0 + b0, a1]. */
START_TEST(in_place) {
  for (int which = 0; which < 2; which++) {
    ic_builder *b = ic_builder_create();
    const char *fn[] = {"a0", "a1", "b0"};
    for (int k = 0; k < 3; k++) {
      tvar(b, 0, fn[k], IC_FP32);
      ic_builder_feed(b, fn[k]);
    }
    array(b, 0, "A");
    array(b, 0, "B");
    int k = 0;
    write_at(b, "a0", "A", 0, &k);
    write_at(b, "a1", "A", 1, &k);
    write_at(b, "b0", "B", 0, &k);
    const char *o = which ? "B" : "A";
    sum_op(b, 0, 2, TU_NAMES("A", "B"), o);
    length_of(b, o, "len");
    read_at(b, o, 0, "s0", IC_FP32, &k);
    read_at(b, o, 1, "s1", IC_FP32, &k);
    ic_builder_fetch(b, "len");
    ic_builder_fetch(b, "s0");
    ic_builder_fetch(b, "s1");
    ic_program *p = build(b);
    ic_tensor *feeds[] = {tu_f32(2, TU_DIMS(1, 2), (float[]){1, 2}),
                          tu_f32(2, TU_DIMS(1, 2), (float[]){3, 4}),
                          tu_f32(2, TU_DIMS(1, 2), (float[]){10, 20})};
    ic_tensor *out[MAXO] = {0};
    run_everywhere(p, 3, fn, feeds, 3, TU_NAMES("len", "s0", "s1"), out, 1, false);
    ck_assert_int_eq(*(const int64_t *)ic_tensor_data(out[0]), 2);
    tu_assert_close(out[1], (const double[]){11, 22}, 2, 0, 0);
    tu_assert_close(out[2], (const double[]){3, 4}, 2, 0, 0);
    for (int j = 0; j < 3; j++) ic_tensor_destroy(out[j]);
    for (int j = 0; j < 3; j++) ic_tensor_destroy(feeds[j]);
    ic_program_destroy(p);
  }
}
END_TEST

/* An array no op wrote (Paddle's create_array adds none) is an empty one, in every executor:
 * sum(X = [N, A]) is A, and sum(X = [N]) is empty. */
START_TEST(unwritten_input) {
  ic_builder *b = ic_builder_create();
  tvar(b, 0, "a0", IC_FP32);
  ic_builder_feed(b, "a0");
  array(b, 0, "A");
  array(b, 0, "N");
  array(b, 0, "S");
  array(b, 0, "E");
  int k = 0;
  write_at(b, "a0", "A", 1, &k);
  sum_op(b, 0, 2, TU_NAMES("N", "A"), "S");
  sum_op(b, 0, 1, TU_NAMES("N"), "E");
  length_of(b, "S", "len");
  length_of(b, "E", "len_e");
  read_at(b, "S", 1, "s1", IC_FP32, &k);
  ic_builder_fetch(b, "len");
  ic_builder_fetch(b, "len_e");
  ic_builder_fetch(b, "s1");
  ic_program *p = build(b);
  ic_tensor *a0 = tu_f32(2, TU_DIMS(1, 2), (float[]){5, 6}), *out[MAXO] = {0};
  run_everywhere(p, 1, TU_NAMES("a0"), &a0, 3, TU_NAMES("len", "len_e", "s1"), out, 2, false);
  ck_assert_int_eq(*(const int64_t *)ic_tensor_data(out[0]), 2);
  ck_assert_int_eq(*(const int64_t *)ic_tensor_data(out[1]), 0);
  tu_assert_bitwise(out[2], a0, "S[1] is A[1]");
  for (int j = 0; j < 3; j++) ic_tensor_destroy(out[j]);
  ic_tensor_destroy(a0);
  ic_program_destroy(p);
}
END_TEST

/* Inside a while loop (the sub-plan's and the uncompiled sub-block's resolve): ACC = [x];
 * each iteration i writes y_i = (i + 1) * x into a loop-local array T at index i (so T's
 * elements below i are unwritten) and sums ACC = sum(ACC, T) in place. After n iterations
 * ACC = [x + y_0, y_1, ..., y_{n-1}]. */
START_TEST(in_while_loop) {
  ic_builder *b = ic_builder_create();
  int b1 = ic_builder_add_block(b, 0);
  tvar(b, 0, "x", IC_FP32);
  ic_builder_var(b, 0, "n", IC_INT64, 1, TU_DIMS(1), false);
  ic_builder_var(b, 0, "i", IC_INT64, 1, TU_DIMS(1), false);
  ic_builder_var(b, 0, "cond", IC_BOOL, 1, TU_DIMS(1), false);
  array(b, 0, "ACC");
  array(b, b1, "T");
  ic_builder_var(b, b1, "fi", IC_FP32, 1, TU_DIMS(1), false);
  tvar(b, b1, "y", IC_FP32);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "n");
  int k = 0;
  write_at(b, "x", "ACC", 0, &k);
  ic_builder_op *op = ic_builder_add_op(b, 0, "fill_constant");
  ic_builder_out(op, "Out", "i");
  ic_builder_attr_longs(op, "shape", 1, (const int64_t[]){1});
  ic_builder_attr_int(op, "dtype", 3);
  ic_builder_attr_float(op, "value", 0);
  op = ic_builder_add_op(b, 0, "less_than");
  ic_builder_in(op, "X", "i");
  ic_builder_in(op, "Y", "n");
  ic_builder_out(op, "Out", "cond");
  op = ic_builder_add_op(b, 0, "while");
  ic_builder_in(op, "Condition", "cond");
  ic_builder_attr_block(op, "sub_block", b1);
  ic_builder_attr_bool(op, "is_test", true);
  /* body: fi = float(i); y = x * (fi + 1); T[i] = y; ACC = ACC + T; i++; cond = i < n */
  op = ic_builder_add_op(b, b1, "cast");
  ic_builder_in(op, "X", "i");
  ic_builder_out(op, "Out", "fi");
  ic_builder_attr_int(op, "in_dtype", 3);
  ic_builder_attr_int(op, "out_dtype", 5);
  op = ic_builder_add_op(b, b1, "scale");
  ic_builder_in(op, "X", "fi");
  ic_builder_out(op, "Out", "fi");
  ic_builder_attr_float(op, "scale", 1.0f);
  ic_builder_attr_float(op, "bias", 1.0f);
  op = ic_builder_add_op(b, b1, "elementwise_mul");
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Y", "fi");
  ic_builder_out(op, "Out", "y");
  op = ic_builder_add_op(b, b1, "write_to_array");
  ic_builder_in(op, "X", "y");
  ic_builder_in(op, "I", "i");
  ic_builder_out(op, "Out", "T");
  sum_op(b, b1, 2, TU_NAMES("ACC", "T"), "ACC");
  op = ic_builder_add_op(b, b1, "increment");
  ic_builder_in(op, "X", "i");
  ic_builder_out(op, "Out", "i");
  ic_builder_attr_float(op, "step", 1.0f);
  op = ic_builder_add_op(b, b1, "less_than");
  ic_builder_in(op, "X", "i");
  ic_builder_in(op, "Y", "n");
  ic_builder_out(op, "Out", "cond");
  length_of(b, "ACC", "len");
  read_at(b, "ACC", 0, "s0", IC_FP32, &k);
  read_at(b, "ACC", 2, "s2", IC_FP32, &k);
  ic_builder_fetch(b, "len");
  ic_builder_fetch(b, "s0");
  ic_builder_fetch(b, "s2");
  ic_program *p = build(b);
  float xv[4] = {0.5f, -1.25f, 2, 3};
  ic_tensor *feeds[] = {tu_f32(2, TU_DIMS(2, 2), xv), tu_i64(1, TU_DIMS(1), (int64_t[]){4})};
  ic_tensor *out[MAXO] = {0};
  run_everywhere(p, 2, TU_NAMES("x", "n"), feeds, 3, TU_NAMES("len", "s0", "s2"), out, 0, false);
  ck_assert_int_eq(*(const int64_t *)ic_tensor_data(out[0]), 4);
  double w0[4], w2[4];
  for (int j = 0; j < 4; j++) w0[j] = 2.0 * xv[j], w2[j] = 3.0 * xv[j];
  tu_assert_close(out[1], w0, 4, 0, 0);
  tu_assert_close(out[2], w2, 4, 0, 0);
  for (int j = 0; j < 3; j++) ic_tensor_destroy(out[j]);
  for (int j = 0; j < 2; j++) ic_tensor_destroy(feeds[j]);
  ic_program_destroy(p);
}
END_TEST

/* A mix of arrays and tensors is refused before anything runs, naming the op and both
 * variables; so is a tensor-array sum whose elements disagree, when it runs. */
START_TEST(errors) {
  char err[1024];
  ic_tensor *out[MAXO] = {0};
  ic_tensor *x = tu_rand_f32(2, TU_DIMS(3, 2), 9, -1, 1);
  /* sum(X = [A, t]) */
  ic_builder *b = ic_builder_create();
  tvar(b, 0, "t", IC_FP32);
  ic_builder_feed(b, "t");
  array(b, 0, "A");
  array(b, 0, "S");
  int k = 0;
  write_at(b, "t", "A", 0, &k);
  sum_op(b, 0, 2, TU_NAMES("A", "t"), "S");
  length_of(b, "S", "len");
  ic_builder_fetch(b, "len");
  ck_assert_int_eq(tu_run(b, 1, TU_NAMES("t"), &x, 1, TU_NAMES("len"), out, err, sizeof err),
                   IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "(sum) in block 0", "input X mixes LoDTensorArray 'A' with 't'",
                "all LoDTensorArrays or none", NULL);
  ic_builder_destroy(b);

  /* elements 0 of A and B: float32[3, 2] and float32[2, 2]; then equal dims, other LoD */
  for (int lod = 0; lod < 2; lod++) {
    b = ic_builder_create();
    tvar(b, 0, "u", IC_FP32);
    tvar(b, 0, "v", IC_FP32);
    ic_builder_feed(b, "u");
    ic_builder_feed(b, "v");
    array(b, 0, "A");
    array(b, 0, "B");
    array(b, 0, "S");
    k = 0;
    write_at(b, "u", "A", 0, &k);
    write_at(b, "v", "B", 0, &k);
    sum_op(b, 0, 2, TU_NAMES("A", "B"), "S");
    length_of(b, "S", "len");
    ic_builder_fetch(b, "len");
    static const uint64_t l1[] = {0, 1, 3}, l2[] = {0, 2, 3};
    ic_tensor *feeds[2] = {with_lod(tu_rand_f32(2, TU_DIMS(3, 2), 1, -1, 1), 3, l1),
                           lod ? with_lod(tu_rand_f32(2, TU_DIMS(3, 2), 2, -1, 1), 3, l2)
                               : tu_rand_f32(2, TU_DIMS(2, 2), 2, -1, 1)};
    ck_assert_int_eq(tu_run(b, 2, TU_NAMES("u", "v"), feeds, 1, TU_NAMES("len"), out, err,
                            sizeof err),
                     IC_ERR_SHAPE);
    if (lod) {
      tu_assert_msg(err, "(sum) in block 0", "element 0 of input X 'B' has LoD",
                    "like element 0 of X 'A'", NULL);
    } else {
      tu_assert_msg(err, "(sum) in block 0", "element 0 of input X 'B' is float32[2, 2]",
                    "expected float32[3, 2]", "like element 0 of X 'A'", NULL);
    }
    ic_builder_destroy(b);
    ic_tensor_destroy(feeds[0]);
    ic_tensor_destroy(feeds[1]);
  }
  ic_tensor_destroy(x);
}
END_TEST


static void slice_op(ic_builder *b, const char *arr, int64_t start, int64_t end,
                     const char *out) {
  ic_builder_op *op = ic_builder_add_op(b, 0, "slice");
  ic_builder_in(op, "Input", arr);
  ic_builder_out(op, "Out", out);
  ic_builder_attr_longs(op, "axes", 1, (const int64_t[]){0});
  ic_builder_attr_longs(op, "starts", 1, (const int64_t[]){start});
  ic_builder_attr_longs(op, "ends", 1, (const int64_t[]){end});
  ic_builder_attr_longs(op, "decrease_axis", 0, NULL);
}

/* A = [x0, -, x2, x3] (x2 with a LoD); S = A[1:10] in place (A = A[1:]): [-, x2, x3]; then
 * T = S[-2:-1] = [x2]. Fetches both lengths and T[0] and S[2]; S[0] was never written. */
START_TEST(slice_into_array) {
  char err[1024];
  ic_tensor *xs[3] = {tu_rand_f32(2, TU_DIMS(3, 2), 1, -1, 1), tu_rand_f32(2, TU_DIMS(3, 2), 2, -1, 1),
                      tu_rand_f32(2, TU_DIMS(3, 2), 3, -1, 1)};
  static const uint64_t lod[] = {0, 1, 3};
  with_lod(xs[1], 3, lod);
  ic_builder *b = ic_builder_create();
  const char *names[] = {"x0", "x2", "x3"};
  for (int i = 0; i < 3; i++) {
    tvar(b, 0, names[i], IC_FP32);
    ic_builder_feed(b, names[i]);
  }
  array(b, 0, "A");
  array(b, 0, "T");
  int k = 0;
  write_at(b, "x0", "A", 0, &k);
  write_at(b, "x2", "A", 2, &k);
  write_at(b, "x3", "A", 3, &k);
  slice_op(b, "A", 1, 10, "A");
  slice_op(b, "A", -2, -1, "T");
  length_of(b, "A", "lenA");
  length_of(b, "T", "lenT");
  read_at(b, "T", 0, "t0", IC_FP32, &k);
  read_at(b, "A", 2, "a2", IC_FP32, &k);
  ic_builder_fetch(b, "lenA");
  ic_builder_fetch(b, "lenT");
  ic_builder_fetch(b, "t0");
  ic_builder_fetch(b, "a2");
  ic_program *p = build(b);
  ic_tensor *out[MAXO] = {0};
  ck_assert_msg(tu_run_scope(p, NULL, 3, names, xs, 4, TU_NAMES("lenA", "lenT", "t0", "a2"), out,
                             err, sizeof err) == IC_OK,
                "%s", err);
  ck_assert_int_eq(((const int64_t *)out[0]->data)[0], 3);
  ck_assert_int_eq(((const int64_t *)out[1]->data)[0], 1);
  tu_assert_bitwise(out[2], xs[1], "T[0] = x2");
  assert_lod(out[2], 3, lod, "T[0]");
  tu_assert_bitwise(out[3], xs[2], "A[1:][2] = x3");
  assert_lod(out[3], 0, NULL, "A[1:][2]");
  for (int i = 0; i < 4; i++) ic_tensor_destroy(out[i]);
  ic_program_destroy(p);

  /* the element never written stays so: reading A[1:][0] fails */
  b = ic_builder_create();
  tvar(b, 0, "x0", IC_FP32);
  ic_builder_feed(b, "x0");
  array(b, 0, "A");
  array(b, 0, "S");
  k = 0;
  write_at(b, "x0", "A", 2, &k);
  slice_op(b, "A", 1, 3, "S");
  read_at(b, "S", 0, "s0", IC_FP32, &k);
  ic_builder_fetch(b, "s0");
  ck_assert_int_ne(tu_run(b, 1, TU_NAMES("x0"), xs, 1, TU_NAMES("s0"), out, err, sizeof err),
                   IC_OK);
  ic_builder_destroy(b);

  /* an empty range: A has one element, A[1:1] and A[2:] */
  for (int c = 0; c < 2; c++) {
    b = ic_builder_create();
    tvar(b, 0, "x0", IC_FP32);
    ic_builder_feed(b, "x0");
    array(b, 0, "A");
    array(b, 0, "S");
    k = 0;
    write_at(b, "x0", "A", 0, &k);
    slice_op(b, "A", c ? 2 : 1, c ? 2147483647 : 1, "S");
    length_of(b, "S", "len");
    ic_builder_fetch(b, "len");
    ck_assert_int_eq(tu_run(b, 1, TU_NAMES("x0"), xs, 1, TU_NAMES("len"), out, err, sizeof err),
                     IC_ERR_SHAPE);
    tu_assert_msg(err, "(slice", "of tensor array 'A' (1 elements) is empty",
                  c ? "selects [2, 1)" : "selects [1, 1)", "the end must exceed the start", NULL);
    ic_builder_destroy(b);
  }
  for (int i = 0; i < 3; i++) ic_tensor_destroy(xs[i]);
}
END_TEST

static TCase *tc_sum(void) {
  TCase *tc = tcase_create("sum_array");
  tcase_add_test(tc, two_arrays_f32);
  tcase_add_test(tc, three_arrays_f64);
  tcase_add_test(tc, in_place);
  tcase_add_test(tc, unwritten_input);
  tcase_add_test(tc, in_while_loop);
  tcase_add_test(tc, errors);
  tcase_add_test(tc, slice_into_array);
  return tc;
}

TU_MAIN("array_sum", tc_sum)
