/* The data-movement ops' CUDA kernels (transpose2, concat, split, slice) against their CPU
 * kernels (cuda_harness.h), bit for bit: every element size (uint8, int16, int32/float32,
 * int64/float64), the kernels' paths (a plain copy, whole rows in wide units, the tiled 2-D
 * transpose with a batch, unaligned runs that cannot be widened), negative axes, size-1 and
 * empty dims, tensor-given axes / sections / bounds (host tensors, IC_SLOT_VALUE), grids
 * larger than one launch allows in x and z, and a bad input per op failing the same way on
 * both sides. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.h"
#include "ew_testutil.h"

/* A tensor of dtype dt with random bytes (integer dtypes: any value) or, for float32 and
 * float64, random finite values. */
static ic_tensor *rand_tensor(ic_dtype dt, int ndim, const int64_t *dims, uint64_t seed) {
  if (dt == IC_FP32 || dt == IC_FP64) return ew_rand(dt, ndim, dims, seed, -100, 100);
  ic_tensor *t;
  ck_assert_int_eq(ic_tensor_create(dt, ndim, dims, &t), IC_OK);
  uint8_t *p = ic_tensor_data(t);
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 3;
  for (size_t k = 0; k < ic_tensor_nbytes(t); k++) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    p[k] = (uint8_t)(s >> 32);
  }
  return t;
}

static const ic_dtype k_dts[] = {IC_UINT8, IC_INT16, IC_FP32, IC_INT32, IC_INT64, IC_FP64};
#define N_DTS (sizeof k_dts / sizeof k_dts[0])

/* Build and check an op reading `n` variables (slot names, variable names, tensors) and
 * writing `n_out` Out variables (plus XShape when xshape). Destroys nothing. */
typedef struct in_t {
  const char *slot;
  const char *var;
  ic_tensor *t;
} in_t;

static ic_builder *program(ic_builder_op **op, const char *type, size_t n, const in_t *in,
                           size_t n_out, ic_dtype dt, bool xshape) {
  ic_builder *b = ic_builder_create();
  for (size_t i = 0; i < n; i++) ew_feed(b, in[i].var, in[i].t);
  ic_builder_op *o = *op = ic_builder_add_op(b, 0, type);
  for (size_t i = 0; i < n; i++) {
    bool seen = false;
    for (size_t j = 0; j < i; j++) seen |= !strcmp(in[j].slot, in[i].slot);
    if (seen) continue;
    const char *args[16];
    size_t k = 0;
    for (size_t j = i; j < n; j++) {
      if (!strcmp(in[j].slot, in[i].slot)) args[k++] = in[j].var;
    }
    ic_builder_input(o, in[i].slot, k, args);
  }
  static const char *const outs[] = {"o0", "o1", "o2", "o3", "o4", "o5", "o6", "o7"};
  ic_builder_output(o, "Out", n_out, outs);
  for (size_t i = 0; i < n_out; i++) ew_fetch(b, outs[i], dt);
  if (xshape) {
    ic_builder_out(o, "XShape", "xshape");
    ic_builder_var(b, 0, "xshape", dt, 0, NULL, false);
  }
  return b;
}

static ic_status run(ic_builder *b, size_t n, const in_t *in, char *err, size_t errlen) {
  const char *names[16];
  ic_tensor *ts[16];
  for (size_t i = 0; i < n; i++) {
    names[i] = in[i].var;
    ts[i] = in[i].t;
  }
  ic_program *p;
  ck_assert_msg(ic_builder_build(b, &p, err, errlen) == IC_OK, "%s", err);
  ic_status st = ch_check_op_status(p, n, names, ts, 0, 0, err, errlen);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  return st;
}

static void run_ok(ic_builder *b, size_t n, const in_t *in) {
  char err[1024];
  ic_status st = run(b, n, in, err, sizeof err);
  ck_assert_msg(st == IC_OK, "%s: %s", ic_status_name(st), err);
}

/* ---- transpose2 ---- */

static void check_transpose(ic_dtype dt, int ndim, const int64_t *dims, int n_axis,
                            const int32_t *axis, bool xshape, uint64_t seed) {
  ic_tensor *x = rand_tensor(dt, ndim, dims, seed);
  in_t in[] = {{"X", "x", x}};
  ic_builder_op *o;
  ic_builder *b = program(&o, "transpose2", 1, in, 1, dt, xshape);
  ic_builder_attr_ints(o, "axis", (size_t)n_axis, axis);
  run_ok(b, 1, in);
  ic_tensor_destroy(x);
}

/* Every permutation of ranks 2 to 4 (odd sizes, not multiples of the 32-wide tiles), every
 * element size. */
START_TEST(transpose_all_perms) {
  const ic_dtype dt = k_dts[_i];
  const int64_t dims[] = {5, 33, 7, 35};
  for (int rank = 2; rank <= 4; rank++) {
    int perm[4] = {0, 1, 2, 3};
    /* iterate the permutations in lexicographic order */
    for (;;) {
      int32_t axis[4];
      for (int k = 0; k < rank; k++) axis[k] = perm[k];
      check_transpose(dt, rank, dims + (4 - rank), rank, axis, rank == 3, (uint64_t)rank);
      int i = rank - 2;
      while (i >= 0 && perm[i] > perm[i + 1]) i--;
      if (i < 0) break;
      int j = rank - 1;
      while (perm[j] < perm[i]) j--;
      int t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
      for (int a = i + 1, z = rank - 1; a < z; a++, z--) {
        t = perm[a];
        perm[a] = perm[z];
        perm[z] = t;
      }
    }
  }
}
END_TEST

START_TEST(transpose_shapes) {
  for (size_t d = 0; d < N_DTS; d++) {
    const ic_dtype dt = k_dts[d];
    /* NCHW <-> NHWC */
    check_transpose(dt, 4, TU_DIMS(2, 3, 34, 35), 4, (const int32_t[]){0, 2, 3, 1}, true, 1);
    check_transpose(dt, 4, TU_DIMS(2, 34, 35, 3), 4, (const int32_t[]){0, 3, 1, 2}, true, 2);
    /* negative entries */
    check_transpose(dt, 3, TU_DIMS(4, 6, 9), 3, (const int32_t[]){-1, 0, -2}, false, 3);
    /* size-1 axes, ranks 5 and 6 */
    check_transpose(dt, 6, TU_DIMS(2, 1, 3, 1, 5, 4), 6, (const int32_t[]){5, 4, 3, 2, 1, 0},
                    true, 4);
    check_transpose(dt, 5, TU_DIMS(3, 1, 4, 5, 2), 5, (const int32_t[]){0, 3, 1, 4, 2}, false, 5);
    /* nothing moves (identity; only size-1 axes move): a copy */
    check_transpose(dt, 3, TU_DIMS(3, 4, 5), 3, (const int32_t[]){0, 1, 2}, false, 6);
    check_transpose(dt, 3, TU_DIMS(1, 4, 1), 3, (const int32_t[]){2, 1, 0}, false, 7);
    /* the innermost axis stays: rows */
    check_transpose(dt, 4, TU_DIMS(3, 5, 7, 9), 4, (const int32_t[]){2, 0, 1, 3}, false, 8);
    check_transpose(dt, 3, TU_DIMS(3, 5, 8), 3, (const int32_t[]){1, 0, 2}, false, 9);
    /* empty, one element, 0-D */
    check_transpose(dt, 3, TU_DIMS(0, 5, 3), 3, (const int32_t[]){2, 0, 1}, true, 10);
    check_transpose(dt, 2, TU_DIMS(1, 1), 2, (const int32_t[]){1, 0}, false, 11);
    check_transpose(dt, 0, NULL, 0, NULL, false, 12);
  }
}
END_TEST

/* More tiles along x than a grid has blocks (65535), and a batch beyond grid z. */
START_TEST(transpose_large_grids) {
  if (ch_quick()) return;
  check_transpose(IC_UINT8, 2, TU_DIMS(3, 2100000), 2, (const int32_t[]){1, 0}, false, 1);
  check_transpose(IC_INT16, 3, TU_DIMS(70000, 2, 3), 3, (const int32_t[]){0, 2, 1}, false, 2);
  check_transpose(IC_FP32, 3, TU_DIMS(8, 300, 500), 3, (const int32_t[]){2, 1, 0}, false, 3);
}
END_TEST

START_TEST(transpose_bad_axis) {
  ic_tensor *x = rand_tensor(IC_FP32, 3, TU_DIMS(2, 3, 4), 1);
  in_t in[] = {{"X", "tx", x}};
  ic_builder_op *o;
  ic_builder *b = program(&o, "transpose2", 1, in, 1, IC_FP32, false);
  ic_builder_attr_ints(o, "axis", 3, (const int32_t[]){0, 2, -1});
  char err[1024];
  ck_assert_int_eq(run(b, 1, in, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'tx'", "not a permutation", NULL);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- concat ---- */

static void check_concat(ic_dtype dt, int ndim, const int64_t *base, int axis, size_t n,
                         const int64_t *along, bool axis_tensor, uint64_t seed) {
  static const char *const names[] = {"c0", "c1", "c2", "c3", "c4", "c5"};
  in_t in[8];
  ic_tensor *xs[8];
  int ax = axis < 0 ? axis + ndim : axis;
  for (size_t i = 0; i < n; i++) {
    int64_t dims[IC_MAX_RANK];
    memcpy(dims, base, sizeof(int64_t) * (size_t)ndim);
    dims[ax] = along[i];
    xs[i] = rand_tensor(dt, ndim, dims, seed + i);
    in[i] = (in_t){"X", names[i], xs[i]};
  }
  ic_tensor *at = NULL;
  size_t nin = n;
  if (axis_tensor) {
    at = tu_i64(0, NULL, (const int64_t[]){axis});
    in[nin++] = (in_t){"AxisTensor", "axis", at};
  }
  ic_builder_op *o;
  ic_builder *b = program(&o, "concat", nin, in, 1, dt, false);
  ic_builder_attr_int(o, "axis", axis_tensor ? 0 : axis);
  run_ok(b, nin, in);
  for (size_t i = 0; i < n; i++) ic_tensor_destroy(xs[i]);
  ic_tensor_destroy(at);
}

START_TEST(concat_axes) {
  const ic_dtype dt = k_dts[_i];
  const int64_t base[] = {3, 5, 7, 2};
  for (int axis = -4; axis < 4; axis++) {
    check_concat(dt, 4, base, axis, 3, (const int64_t[]){2, 0, 5}, false, 1);
    check_concat(dt, 4, base, axis, 1, (const int64_t[]){3}, axis % 2 == 0, 2);
  }
  /* five inputs, odd byte runs; an AxisTensor beats the attribute */
  check_concat(dt, 2, (const int64_t[]){5, 1}, 1, 5, (const int64_t[]){1, 3, 2, 7, 1}, true, 3);
  check_concat(dt, 1, (const int64_t[]){1}, 0, 4, (const int64_t[]){1, 0, 17, 16}, false, 4);
  /* all empty */
  check_concat(dt, 2, (const int64_t[]){0, 4}, 1, 2, (const int64_t[]){2, 3}, false, 5);
  /* a large one */
  check_concat(dt, 3, (const int64_t[]){16, 1, 3000}, 1, 3, (const int64_t[]){100, 1, 37}, false,
               6);
}
END_TEST

START_TEST(concat_bad_dims) {
  ic_tensor *a = rand_tensor(IC_FP32, 2, TU_DIMS(2, 3), 1);
  ic_tensor *b2 = rand_tensor(IC_FP32, 2, TU_DIMS(3, 3), 2);
  in_t in[] = {{"X", "ca", a}, {"X", "cb", b2}};
  ic_builder_op *o;
  ic_builder *b = program(&o, "concat", 2, in, 1, IC_FP32, false);
  ic_builder_attr_int(o, "axis", 1);
  char err[1024];
  ck_assert_int_eq(run(b, 2, in, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "'cb'", "dim 0", NULL);
  ic_tensor_destroy(a);
  ic_tensor_destroy(b2);
}
END_TEST

/* ---- split ---- */

static void check_split(ic_dtype dt, int ndim, const int64_t *dims, int axis, int num,
                        size_t n_sections, const int32_t *sections, bool tensors, size_t n_out,
                        uint64_t seed) {
  static const char *const snames[] = {"s0", "s1", "s2", "s3", "s4", "s5"};
  ic_tensor *x = rand_tensor(dt, ndim, dims, seed);
  in_t in[10] = {{"X", "x", x}};
  size_t nin = 1;
  ic_tensor *extra[8] = {NULL};
  size_t n_extra = 0;
  if (tensors) {
    extra[n_extra] = tu_i32(1, TU_DIMS(1), (const int32_t[]){axis});
    in[nin++] = (in_t){"AxisTensor", "axis", extra[n_extra++]};
    for (size_t k = 0; k < n_sections; k++) {
      extra[n_extra] = k % 2 ? tu_i64(0, NULL, (const int64_t[]){sections[k]})
                             : tu_i32(1, TU_DIMS(1), (const int32_t[]){sections[k]});
      in[nin++] = (in_t){"SectionsTensorList", snames[k], extra[n_extra++]};
    }
  }
  ic_builder_op *o;
  ic_builder *b = program(&o, "split", nin, in, n_out, dt, false);
  ic_builder_attr_int(o, "axis", tensors ? 0 : axis);
  ic_builder_attr_int(o, "num", num);
  if (n_sections) {
    int32_t attr[8];
    for (size_t k = 0; k < n_sections; k++) attr[k] = tensors ? 1 : sections[k];
    ic_builder_attr_ints(o, "sections", n_sections, attr);
  }
  run_ok(b, nin, in);
  ic_tensor_destroy(x);
  for (size_t k = 0; k < n_extra; k++) ic_tensor_destroy(extra[k]);
}

START_TEST(split_cases) {
  const ic_dtype dt = k_dts[_i];
  const int64_t dims[] = {6, 9, 3};
  for (int axis = -3; axis < 3; axis++) {
    check_split(dt, 3, dims, axis, 3, 0, NULL, false, 3, 1);
  }
  check_split(dt, 3, dims, 1, 0, 3, (const int32_t[]){2, -1, 3}, false, 3, 2);
  check_split(dt, 3, dims, 1, 0, 4, (const int32_t[]){0, 4, 0, 5}, false, 4, 3);
  check_split(dt, 3, dims, -1, 0, 2, (const int32_t[]){1, -1}, true, 2, 4);
  check_split(dt, 3, dims, 2, 0, 3, (const int32_t[]){2, 0, 1}, true, 3, 5);
  check_split(dt, 2, (const int64_t[]){4, 0}, 1, 3, 0, NULL, false, 3, 6); /* empty axis */
  check_split(dt, 2, (const int64_t[]){0, 4}, 1, 2, 0, NULL, false, 2, 7); /* empty outer */
  check_split(dt, 2, (const int64_t[]){3, 40001}, 1, 0, 3, (const int32_t[]){1, 40000, 0}, false,
              3, 8);
}
END_TEST

START_TEST(split_bad_sections) {
  ic_tensor *x = rand_tensor(IC_FP32, 2, TU_DIMS(4, 6), 1);
  in_t in[] = {{"X", "sx", x}};
  ic_builder_op *o;
  ic_builder *b = program(&o, "split", 1, in, 2, IC_FP32, false);
  ic_builder_attr_int(o, "axis", 1);
  ic_builder_attr_ints(o, "sections", 2, (const int32_t[]){2, 3});
  char err[1024];
  ck_assert_int_eq(run(b, 1, in, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'sx'", "sum to", NULL);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- slice ---- */

typedef struct slice_case {
  int ndim;
  int64_t dims[6];
  int n_axes;
  int32_t axes[4], starts[4], ends[4];
  int n_decrease;
  int32_t decrease[4];
  int32_t infer_flags; /* 0: none written */
} slice_case;

static const slice_case k_slices[] = {
    {3, {4, 5, 6}, 1, {1}, {1}, {4}, 0, {0}, 0},
    {3, {4, 5, 6}, 2, {0, 2}, {-3, 1}, {-1, 100}, 0, {0}, 0},
    {3, {4, 5, 6}, 1, {2}, {2}, {5}, 0, {0}, 0},               /* innermost window */
    {3, {4, 5, 6}, 1, {0}, {1}, {3}, 0, {0}, 0},               /* outermost: rows */
    {3, {4, 5, 6}, 3, {0, 1, 2}, {0, 0, 0}, {4, 5, 6}, 0, {0}, 0}, /* everything: a copy */
    {3, {4, 5, 6}, 1, {-1}, {4}, {1}, 0, {0}, 0},              /* end before start: empty */
    {3, {4, 5, 6}, 2, {1, -1}, {-1, 2}, {0, 3}, 2, {1, 2}, -1}, /* x[:, -1, 2] */
    {2, {3, 7}, 2, {0, 1}, {1, 3}, {2, 4}, 2, {0, 1}, 0},      /* a 0-D result */
    {2, {0, 7}, 1, {1}, {2}, {5}, 0, {0}, 0},                  /* empty input */
    {4, {2, 3, 9, 11}, 3, {1, 2, 3}, {1, 2, 3}, {3, 8, 10}, 0, {0}, 0},
    {2, {3, 70001}, 1, {1}, {1}, {70000}, 0, {0}, 0},
    {1, {9}, 2, {0, 0}, {1, 2}, {8, 7}, 0, {0}, 0},            /* repeated axis: last wins */
};

START_TEST(slice_attrs) {
  const slice_case *c = &k_slices[_i];
  for (size_t d = 0; d < N_DTS; d++) {
    ic_tensor *x = rand_tensor(k_dts[d], c->ndim, c->dims, _i);
    in_t in[] = {{"Input", "x", x}};
    ic_builder_op *o;
    ic_builder *b = program(&o, "slice", 1, in, 1, k_dts[d], false);
    ic_builder_attr_ints(o, "axes", (size_t)c->n_axes, c->axes);
    ic_builder_attr_ints(o, "starts", (size_t)c->n_axes, c->starts);
    ic_builder_attr_ints(o, "ends", (size_t)c->n_axes, c->ends);
    if (c->n_decrease) ic_builder_attr_ints(o, "decrease_axis", (size_t)c->n_decrease, c->decrease);
    if (c->infer_flags) {
      int32_t flags[4] = {c->infer_flags, c->infer_flags, c->infer_flags, c->infer_flags};
      ic_builder_attr_ints(o, "infer_flags", (size_t)c->n_axes, flags);
    }
    run_ok(b, 1, in);
    ic_tensor_destroy(x);
  }
}
END_TEST

/* StartsTensor and EndsTensorList (host tensors) replace the attributes. */
START_TEST(slice_tensor_bounds) {
  ic_tensor *x = rand_tensor(IC_FP32, 3, TU_DIMS(5, 6, 7), 1);
  ic_tensor *st = tu_i64(1, TU_DIMS(2), (const int64_t[]){1, -4});
  ic_tensor *e0 = tu_i32(1, TU_DIMS(1), (const int32_t[]){4});
  ic_tensor *e1 = tu_i64(0, NULL, (const int64_t[]){6});
  in_t in[] = {{"Input", "x", x}, {"StartsTensor", "st", st}, {"EndsTensorList", "e0", e0},
               {"EndsTensorList", "e1", e1}};
  ic_builder_op *o;
  ic_builder *b = program(&o, "slice", 4, in, 1, IC_FP32, false);
  ic_builder_attr_ints(o, "axes", 2, (const int32_t[]){0, 2});
  ic_builder_attr_ints(o, "starts", 2, (const int32_t[]){0, 0});
  ic_builder_attr_ints(o, "ends", 2, (const int32_t[]){1, 1});
  run_ok(b, 4, in);
  ic_tensor *objs[] = {x, st, e0, e1};
  for (size_t i = 0; i < 4; i++) ic_tensor_destroy(objs[i]);
}
END_TEST

START_TEST(slice_bad_decrease) {
  ic_tensor *x = rand_tensor(IC_FP32, 2, TU_DIMS(4, 6), 1);
  in_t in[] = {{"Input", "slx", x}};
  ic_builder_op *o;
  ic_builder *b = program(&o, "slice", 1, in, 1, IC_FP32, false);
  ic_builder_attr_ints(o, "axes", 1, (const int32_t[]){1});
  ic_builder_attr_ints(o, "starts", 1, (const int32_t[]){1});
  ic_builder_attr_ints(o, "ends", 1, (const int32_t[]){3});
  ic_builder_attr_ints(o, "decrease_axis", 1, (const int32_t[]){1});
  char err[1024];
  ck_assert_int_eq(run(b, 1, in, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Input 'slx'", "decrease_axis", NULL);
  ic_tensor_destroy(x);
}
END_TEST

static TCase *tc_transpose(void) {
  TCase *tc = tcase_create("transpose2");
  tcase_set_timeout(tc, 600);
  tcase_add_loop_test(tc, transpose_all_perms, 0, (int)N_DTS);
  tcase_add_test(tc, transpose_shapes);
  tcase_add_test(tc, transpose_large_grids);
  tcase_add_test(tc, transpose_bad_axis);
  return tc;
}

static TCase *tc_concat_split(void) {
  TCase *tc = tcase_create("concat_split");
  tcase_set_timeout(tc, 600);
  tcase_add_loop_test(tc, concat_axes, 0, (int)N_DTS);
  tcase_add_test(tc, concat_bad_dims);
  tcase_add_loop_test(tc, split_cases, 0, (int)N_DTS);
  tcase_add_test(tc, split_bad_sections);
  return tc;
}

static TCase *tc_slice(void) {
  TCase *tc = tcase_create("slice");
  tcase_set_timeout(tc, 600);
  tcase_add_loop_test(tc, slice_attrs, 0, (int)(sizeof k_slices / sizeof k_slices[0]));
  tcase_add_test(tc, slice_tensor_bounds);
  tcase_add_test(tc, slice_bad_decrease);
  return tc;
}

CH_MAIN("cuda_shape", tc_transpose, tc_concat_split, tc_slice)
