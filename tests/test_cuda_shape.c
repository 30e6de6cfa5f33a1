/* The data-movement ops' CUDA kernels (transpose2, concat, split, slice) against their CPU
 * kernels (cuda_harness.h), bit for bit, on the shared case tables of cases_shape.h (the
 * ones test_ops_shape.c and test_ops_concat_split.c run on the CPU executors): every element
 * size (uint8, int16, int32/float32,
 * int64/float64), the kernels' paths (a plain copy, whole rows in wide units, the tiled 2-D
 * transpose with a batch, unaligned runs that cannot be widened), negative axes, size-1 and
 * empty dims, tensor-given axes / sections / bounds (host tensors, IC_SLOT_VALUE), grids
 * larger than one launch allows in x and z, and a bad input per op failing the same way on
 * both sides. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.h"
#include "cases_shape.h"
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

/* Every permutation of each sweep, the seeded 6-axis sample, and every row of the shared
 * table, in the row's dtype or in every dtype. */
START_TEST(transpose_table) {
  for (size_t i = 0; i < CTP_N_SWEEPS; i++) {
    const ctp_sweep *w = &ctp_sweeps[i];
    for (size_t d = 0; d < (w->every_dt ? CSH_N_DTS : 1); d++) {
      int32_t p[6] = {0, 1, 2, 3, 4, 5};
      do {
        check_transpose(w->every_dt ? csh_dts[d] : w->dt, w->nd, w->dims, w->nd, p, w->nd == 3,
                        (uint64_t)w->nd);
      } while (ctp_next_perm(p, w->nd));
    }
  }
  for (int r = 0; r < CTP_N_RANDOM6; r++) {
    int32_t q[6];
    ctp_random_perm6(r, q);
    check_transpose(r % 2 ? IC_INT64 : IC_FP32, 6, ctp_random6_dims, 6, q, false, (uint64_t)r);
  }
  for (size_t i = 0; i < CTP_N_CASES; i++) {
    const ctp_case *c = &ctp_cases[i];
    for (size_t d = 0; d < (c->every_dt ? CSH_N_DTS : 1); d++) {
      check_transpose(c->every_dt ? csh_dts[d] : c->dt, c->nd, c->dims, c->nd, c->axis,
                      c->nd == 4 || c->nd == 6, i);
    }
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

/* Every row of the shared table, in the row's dtype or in every dtype. */
START_TEST(concat_table) {
  for (size_t i = 0; i < CCAT_N_CASES; i++) {
    const ccat_case *c = &ccat_cases[i];
    for (size_t d = 0; d < (c->every_dt ? CSH_N_DTS : 1); d++) {
      check_concat(c->every_dt ? csh_dts[d] : c->dt, c->nd, c->base, c->axis, c->n, c->sizes,
                   c->axis_tensor, i);
    }
  }
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

/* A split row: its attributes, AxisTensor (int64 [1]) and SectionsTensorList (int32 [1] and
 * int64 0-D alternately) as the CPU suite feeds them. */
static void check_split_case(const csp_case *c, ic_dtype dt, uint64_t seed) {
  static const char *const snames[] = {"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"};
  ic_tensor *x = rand_tensor(dt, c->nd, c->dims, seed);
  in_t in[12] = {{"X", "x", x}};
  size_t nin = 1;
  ic_tensor *extra[10] = {NULL};
  size_t n_extra = 0;
  if (c->axis_tensor) {
    extra[n_extra] = tu_i64(1, TU_DIMS(1), (const int64_t[]){c->axis});
    in[nin++] = (in_t){"AxisTensor", "axis", extra[n_extra++]};
  }
  for (size_t k = 0; k < c->n_list; k++) {
    extra[n_extra] = k % 2 ? tu_i64(0, NULL, &c->list[k])
                           : tu_i32(1, TU_DIMS(1), (const int32_t[]){(int32_t)c->list[k]});
    in[nin++] = (in_t){"SectionsTensorList", snames[k], extra[n_extra++]};
  }
  ic_builder_op *o;
  ic_builder *b = program(&o, "split", nin, in, c->pieces, dt, false);
  ic_builder_attr_int(o, "axis", c->axis_tensor ? 0 : c->axis);
  ic_builder_attr_int(o, "num", c->num);
  ic_builder_attr_ints(o, "sections", c->n_sec, c->sec);
  run_ok(b, nin, in);
  ic_tensor_destroy(x);
  for (size_t k = 0; k < n_extra; k++) ic_tensor_destroy(extra[k]);
}

/* Every row of the shared table, in the row's dtype or in every dtype. The CPU suite's rows
 * with a SectionsTensorList run with the list given as tensors. */
START_TEST(split_table) {
  for (size_t i = 0; i < CSP_N_CASES; i++) {
    const csp_case *c = &csp_cases[i];
    for (size_t d = 0; d < (c->every_dt ? CSH_N_DTS : 1); d++) {
      check_split_case(c, c->every_dt ? csh_dts[d] : c->dt, i);
    }
  }
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

/* Every row of the shared table, in the row's dtype or in every dtype. */
START_TEST(slice_table) {
  for (size_t i = 0; i < CSL_N_CASES; i++) {
    const csl_case *c = &csl_cases[i];
    for (size_t d = 0; d < (c->every_dt ? CSH_N_DTS : 1); d++) {
      ic_dtype dt = c->every_dt ? csh_dts[d] : c->dt;
      ic_tensor *x = rand_tensor(dt, c->nd, c->dims, i);
      in_t in[] = {{"Input", "x", x}};
      ic_builder_op *o;
      ic_builder *b = program(&o, "slice", 1, in, 1, dt, false);
      ic_builder_attr_ints(o, "axes", c->n, c->axes);
      ic_builder_attr_ints(o, "starts", c->n, c->starts);
      ic_builder_attr_ints(o, "ends", c->n, c->ends);
      if (c->n_flags) ic_builder_attr_ints(o, "infer_flags", c->n_flags, c->flags);
      ic_builder_attr_ints(o, "decrease_axis", c->n_dec, c->dec);
      run_ok(b, 1, in);
      ic_tensor_destroy(x);
    }
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
  tcase_add_test(tc, transpose_table);
  tcase_add_test(tc, transpose_large_grids);
  tcase_add_test(tc, transpose_bad_axis);
  return tc;
}

static TCase *tc_concat_split(void) {
  TCase *tc = tcase_create("concat_split");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, concat_table);
  tcase_add_test(tc, concat_bad_dims);
  tcase_add_test(tc, split_table);
  tcase_add_test(tc, split_bad_sections);
  return tc;
}

static TCase *tc_slice(void) {
  TCase *tc = tcase_create("slice");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, slice_table);
  tcase_add_test(tc, slice_tensor_bounds);
  tcase_add_test(tc, slice_bad_decrease);
  return tc;
}

CH_MAIN("cuda_shape", tc_transpose, tc_concat_split, tc_slice)
