/* The comparison, logical, selection, indexing, repetition, scan, sort and padding ops
 * (compare and logical ops, where, gather, gather_nd, index_select, stack, unstack, expand,
 * expand_v2, expand_as_v2, tile, cumsum, one_hot_v2, range, fill_any_like, argsort, top_k,
 * top_k_v2, pad, pad3d, strided_slice, p_norm, flatten2; max_pool2d_with_index, unpool,
 * crop_tensor, scatter_nd_add and put_along_axis: oracle-checked, here their other modes and
 * errors; masked_fill; einsum's errors, its values being oracle-checked) against references computed here by
 * index arithmetic (data movement: exact) or in double precision (cumsum, p_norm), and their
 * errors. Every run goes through every executor configuration (tu_run). */
#include <math.h>

#include "ew_testutil.h"
#include "cases_index.h"
#include "optest.h"

#define NI32(...) (sizeof((const int32_t[]){__VA_ARGS__}) / sizeof(int32_t)), \
                  ((const int32_t[]){__VA_ARGS__})

/* Run and expect failure with the status and message parts given. */
#define OT_FAIL(t, code, ...)                                                     \
  do {                                                                            \
    ic_status st_ = ot_run(t);                                                    \
    ck_assert_msg(st_ == (code), "status %s: %s", ic_status_name(st_), (t)->err); \
    tu_assert_msg((t)->err, __VA_ARGS__, NULL);                                   \
  } while (0)

/* ---- comparison and logical ops ---- */

static double cmp_ref(int op, double a, double b) {
  switch (op) {
    case 0: return a < b;
    case 1: return a <= b;
    case 2: return a > b;
    case 3: return a >= b;
    case 4: return a == b;
    default: return a != b;
  }
}

/* X [2, 3, 4] against Y [3] placed at axis 1, every comparison, float32 with NaN and int64. */
START_TEST(compare_broadcast) {
  static const char *ops[] = {"less_than", "less_equal", "greater_than", "greater_equal",
                              "equal", "not_equal"};
  for (int dt = 0; dt < 2; dt++) {
    for (int op = 0; op < 6; op++) {
      optest t;
      ot_begin(&t);
      ic_tensor *x = dt ? ew_rand(IC_INT64, 3, TU_DIMS(2, 3, 4), 3, -3, 3)
                        : ew_rand(IC_FP32, 3, TU_DIMS(2, 3, 4), 3, -2, 2);
      ic_tensor *y = dt ? tu_i64(1, TU_DIMS(3), (const int64_t[]){-1, 0, 2})
                        : tu_f32(1, TU_DIMS(3), (const float[]){NAN, 0.5f, -1});
      if (!dt) ((float *)ic_tensor_data(x))[5] = NAN;
      if (!dt) ((float *)ic_tensor_data(x))[17] = 0.5f; /* equal to y[1] */
      ot_feed(&t, "x", x);
      ot_feed(&t, "y", y);
      ic_builder_op *o = ot_op(&t, ops[op]);
      ic_builder_in(o, "X", "x");
      ic_builder_in(o, "Y", "y");
      ic_builder_attr_int(o, "axis", 1);
      ot_out(&t, "Out", "out");
      ot_ok(&t);
      tu_assert_shape(t.out[0], IC_BOOL, 3, TU_DIMS(2, 3, 4));
      double ref[24];
      for (int k = 0; k < 24; k++) ref[k] = cmp_ref(op, ew_at(x, k), ew_at(y, (k / 4) % 3));
      tu_assert_close(t.out[0], ref, 24, 0, 0);
      ot_end(&t);
    }
  }
}
END_TEST

START_TEST(logical_ops) {
  static const char *ops[] = {"logical_and", "logical_or", "logical_xor"};
  const float xv[] = {0, 1.5f, 0, -2, NAN, 0};
  for (int op = 0; op < 3; op++) {
    optest t;
    ot_begin(&t);
    ic_tensor *x = tu_f32(2, TU_DIMS(2, 3), xv);
    ic_tensor *y;
    ck_assert_int_eq(ic_tensor_create(IC_BOOL, 1, TU_DIMS(3), &y), IC_OK);
    memcpy(ic_tensor_data(y), (const uint8_t[]){1, 0, 1}, 3);
    ot_feed(&t, "x", x);
    ot_feed(&t, "y", y);
    ic_builder_op *o = ot_op(&t, ops[op]);
    ic_builder_in(o, "X", "x");
    ic_builder_in(o, "Y", "y");
    ot_out(&t, "Out", "out");
    ot_ok(&t);
    double ref[6];
    for (int k = 0; k < 6; k++) {
      bool a = xv[k] != 0, b = ((const uint8_t[]){1, 0, 1})[k % 3];
      ref[k] = op == 0 ? (a && b) : op == 1 ? (a || b) : (a != b);
    }
    tu_assert_shape(t.out[0], IC_BOOL, 2, TU_DIMS(2, 3));
    tu_assert_close(t.out[0], ref, 6, 0, 0);
    ot_end(&t);
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_i64(1, TU_DIMS(4), (const int64_t[]){0, 5, -1, 0}));
  ic_builder_op *o = ot_op(&t, "logical_not");
  ic_builder_in(o, "X", "x");
  ot_out(&t, "Out", "out");
  ot_ok(&t);
  tu_assert_close(t.out[0], (const double[]){1, 0, 0, 1}, 4, 0, 0);
  ot_end(&t);
}
END_TEST

START_TEST(compare_errors) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_f32(1, TU_DIMS(3), (const float[]){1, 2, 3}));
  ot_feed(&t, "y", tu_i32(1, TU_DIMS(3), (const int32_t[]){1, 2, 3}));
  ic_builder_op *o = ot_op(&t, "less_than");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Y", "y");
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "less_than", "X 'x'", "Y 'y'", "same dtype");
  ot_end(&t);
  ot_begin(&t);
  ot_feed(&t, "x", tu_f32(1, TU_DIMS(3), (const float[]){1, 2, 3}));
  ot_feed(&t, "y", tu_f32(1, TU_DIMS(2), (const float[]){1, 2}));
  o = ot_op(&t, "equal");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Y", "y");
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "equal", "do not broadcast");
  ot_end(&t);
}
END_TEST

/* ---- where ---- */

START_TEST(where_select) {
  for (int dt = 0; dt < 3; dt++) {
    static const ic_dtype dts[] = {IC_FP32, IC_INT64, IC_FP64};
    optest t;
    ot_begin(&t);
    ic_tensor *c;
    ck_assert_int_eq(ic_tensor_create(IC_BOOL, 2, TU_DIMS(3, 5), &c), IC_OK);
    for (int k = 0; k < 15; k++) ((uint8_t *)ic_tensor_data(c))[k] = (uint8_t)((k * 7) % 3 == 0);
    ic_tensor *x = ot_iota(dts[dt], 2, TU_DIMS(3, 5), 1);
    ic_tensor *y = ot_iota(dts[dt], 2, TU_DIMS(3, 5), 9);
    ot_feed(&t, "c", c);
    ot_feed(&t, "x", x);
    ot_feed(&t, "y", y);
    ic_builder_op *o = ot_op(&t, "where");
    ic_builder_in(o, "Condition", "c");
    ic_builder_in(o, "X", "x");
    ic_builder_in(o, "Y", "y");
    ot_out(&t, "Out", "out");
    ot_ok(&t);
    double ref[15];
    for (int k = 0; k < 15; k++) ref[k] = (k * 7) % 3 == 0 ? ot_val(x, k) : ot_val(y, k);
    tu_assert_shape(t.out[0], dts[dt], 2, TU_DIMS(3, 5));
    tu_assert_close(t.out[0], ref, 15, 0, 0);
    ot_end(&t);
  }
  optest t;
  ot_begin(&t);
  ic_tensor *c;
  ck_assert_int_eq(ic_tensor_create(IC_BOOL, 1, TU_DIMS(3), &c), IC_OK);
  memset(ic_tensor_data(c), 1, 3);
  ot_feed(&t, "c", c);
  ot_feed(&t, "x", ot_iota(IC_FP32, 1, TU_DIMS(4), 1));
  ot_feed(&t, "y", ot_iota(IC_FP32, 1, TU_DIMS(4), 1));
  ic_builder_op *o = ot_op(&t, "where");
  ic_builder_in(o, "Condition", "c");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Y", "y");
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "where", "X 'x'", "Condition 'c'");
  ot_end(&t);
}
END_TEST

/* ---- masked_fill ---- */

/* X [2, 3, 4], Mask [3, 1] and Value [4] broadcast together (Paddle 3's pd_op.masked_fill);
 * a 0-d Value and a Mask of higher rank than X widen Out; mismatches are errors. */
START_TEST(masked_fill_broadcast) {
  for (int dt = 0; dt < 2; dt++) {
    static const ic_dtype dts[] = {IC_INT64, IC_FP32};
    optest t;
    ot_begin(&t);
    ic_tensor *m;
    ck_assert_int_eq(ic_tensor_create(IC_BOOL, 2, TU_DIMS(3, 1), &m), IC_OK);
    static const uint8_t mv[3] = {1, 0, 1};
    memcpy(ic_tensor_data(m), mv, 3);
    ic_tensor *x = ot_iota(dts[dt], 3, TU_DIMS(2, 3, 4), 3);
    ic_tensor *v = ot_iota(dts[dt], 1, TU_DIMS(4), 40);
    ot_feed(&t, "x", x);
    ot_feed(&t, "m", m);
    ot_feed(&t, "v", v);
    ic_builder_op *o = ot_op(&t, "masked_fill");
    ic_builder_in(o, "X", "x");
    ic_builder_in(o, "Mask", "m");
    ic_builder_in(o, "Value", "v");
    ot_out(&t, "Out", "out");
    ot_ok(&t);
    double ref[24];
    for (int k = 0; k < 24; k++) ref[k] = mv[(k / 4) % 3] ? ot_val(v, k % 4) : ot_val(x, k);
    tu_assert_shape(t.out[0], dts[dt], 3, TU_DIMS(2, 3, 4));
    tu_assert_close(t.out[0], ref, 24, 0, 0);
    ot_end(&t);
  }
  /* Mask [2, 1, 3] over X [3] and a 0-d Value: Out [2, 1, 3]. */
  optest t;
  ot_begin(&t);
  ic_tensor *m, *v;
  ck_assert_int_eq(ic_tensor_create(IC_BOOL, 3, TU_DIMS(2, 1, 3), &m), IC_OK);
  static const uint8_t mv[6] = {0, 1, 0, 1, 1, 0};
  memcpy(ic_tensor_data(m), mv, 6);
  ck_assert_int_eq(ic_tensor_create(IC_FP32, 0, NULL, &v), IC_OK);
  *(float *)ic_tensor_data(v) = -7.5f;
  ic_tensor *x = ot_iota(IC_FP32, 1, TU_DIMS(3), 5);
  ot_feed(&t, "x", x);
  ot_feed(&t, "m", m);
  ot_feed(&t, "v", v);
  ic_builder_op *o = ot_op(&t, "masked_fill");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Mask", "m");
  ic_builder_in(o, "Value", "v");
  ot_out(&t, "Out", "out");
  ot_ok(&t);
  double ref[6];
  for (int k = 0; k < 6; k++) ref[k] = mv[k] ? -7.5 : ot_val(x, k % 3);
  tu_assert_shape(t.out[0], IC_FP32, 3, TU_DIMS(2, 1, 3));
  tu_assert_close(t.out[0], ref, 6, 0, 0);
  ot_end(&t);
  for (int bad = 0; bad < 2; bad++) {
    ot_begin(&t);
    ck_assert_int_eq(ic_tensor_create(IC_BOOL, 1, TU_DIMS(bad ? 4 : 5), &m), IC_OK);
    memset(ic_tensor_data(m), 1, bad ? 4 : 5);
    ot_feed(&t, "x", ot_iota(IC_FP32, 2, TU_DIMS(3, 4), 1));
    ot_feed(&t, "m", m);
    ot_feed(&t, "v", ot_iota(bad ? IC_INT64 : IC_FP32, 0, NULL, 1));
    o = ot_op(&t, "masked_fill");
    ic_builder_in(o, "X", "x");
    ic_builder_in(o, "Mask", "m");
    ic_builder_in(o, "Value", "v");
    ot_out(&t, "Out", "out");
    if (bad) OT_FAIL(&t, IC_ERR_SHAPE, "masked_fill", "Value 'v'", "dtype of X 'x' (float32)");
    else OT_FAIL(&t, IC_ERR_SHAPE, "masked_fill", "Mask 'm'", "does not broadcast");
    ot_end(&t);
  }
}
END_TEST

/* ---- einsum: a bad equation, operand count, rank or label size is an error ---- */

START_TEST(einsum_errors) {
  static const struct {
    const char *eq;
    int n_ops;
    int64_t d0[2], d1[2];
    ic_status code;
    const char *want;
  } k[] = {
      {"ij,jk", 2, {2, 3}, {3, 4}, IC_ERR_INVALID_PROGRAM, "one \"->\""},
      {"iJ->i", 1, {2, 3}, {0, 0}, IC_ERR_INVALID_PROGRAM, "'J' is not a label"},
      {"ij,jk,kl->il", 2, {2, 3}, {3, 4}, IC_ERR_INVALID_PROGRAM, "more than two operands"},
      {"ij->ii", 1, {2, 3}, {0, 0}, IC_ERR_INVALID_PROGRAM, "output label 'i' repeats"},
      {"ij->k", 1, {2, 3}, {0, 0}, IC_ERR_INVALID_PROGRAM, "'k' is in no operand"},
      {"ij,jk->ik", 1, {2, 3}, {0, 0}, IC_ERR_INVALID_PROGRAM, "2 operand(s)"},
      {"ijk->i", 1, {2, 3}, {0, 0}, IC_ERR_SHAPE, "expected rank 3"},
      {"ij,jk->ik", 2, {2, 3}, {4, 5}, IC_ERR_SHAPE, "label 'j' (dim 0) size 4"},
      {"ii->i", 1, {2, 3}, {0, 0}, IC_ERR_SHAPE, "repeats label 'i'"},
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "a", ot_iota(IC_FP32, 2, k[i].d0, 1));
    if (k[i].n_ops == 2) ot_feed(&t, "b", ot_iota(IC_FP32, 2, k[i].d1, 2));
    ic_builder_op *o = ot_op(&t, "einsum");
    ic_builder_input(o, "Operands", (size_t)k[i].n_ops, TU_NAMES("a", "b"));
    ic_builder_attr_string(o, "equation", k[i].eq);
    ot_out(&t, "Out", "out");
    OT_FAIL(&t, k[i].code, "einsum", k[i].want);
    ot_end(&t);
  }
}
END_TEST

/* ---- inverse: a singular matrix, a non-square or rank-1 input, an integer dtype ---- */

START_TEST(inverse_errors) {
  static const struct {
    ic_dtype dt;
    int nd;
    int64_t dims[3];
    const char *want;
  } k[] = {
      {IC_FP32, 3, {2, 3, 3}, "matrix 0 of 2 is not invertible"}, /* iota rows are dependent */
      {IC_FP32, 2, {2, 3}, "not a square matrix"},
      {IC_FP64, 1, {4}, "rank 1, expected at least 2"},
      {IC_INT32, 2, {2, 2}, "dtype"},
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "x", ot_iota(k[i].dt, k[i].nd, k[i].dims, 1));
    ic_builder_op *o = ot_op(&t, "inverse");
    ic_builder_in(o, "Input", "x");
    ot_out(&t, "Output", "out");
    OT_FAIL(&t, i == 0 ? IC_ERR_KERNEL : IC_ERR_SHAPE, "inverse", k[i].want);
    ot_end(&t);
  }
}
END_TEST

/* ---- index_put: an index out of its dim, a value that does not broadcast, a value of
 * another dtype, more index lists than x has dims ---- */

START_TEST(index_put_errors) {
  static const struct {
    int64_t idx;       /* the one int64 index */
    int64_t vdim;      /* value dims [vdim] */
    ic_dtype vdt;
    int n_idx;
    ic_status code;
    const char *want;
  } k[] = {
      {3, 4, IC_FP32, 1, IC_ERR_SHAPE, "index 3 is out of dim 0"},
      {-4, 4, IC_FP32, 1, IC_ERR_SHAPE, "index -4 is out of dim 0"},
      {1, 3, IC_FP32, 1, IC_ERR_SHAPE, "does not broadcast"},
      {1, 4, IC_FP64, 1, IC_ERR_SHAPE, "expected x's dtype float32"},
      {1, 4, IC_FP32, 3, IC_ERR_SHAPE, "index 3 dims of x, which has rank 2"},
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "x", ot_iota(IC_FP32, 2, (int64_t[]){3, 4}, 1));
    ot_feed(&t, "i", tu_i64(1, (int64_t[]){1}, &k[i].idx));
    ot_feed(&t, "v", ot_iota(k[i].vdt, 1, &k[i].vdim, 1));
    ic_builder_op *o = ot_op(&t, "index_put");
    ic_builder_in(o, "x", "x");
    ic_builder_input(o, "indices", (size_t)k[i].n_idx, TU_NAMES("i", "i", "i"));
    ic_builder_in(o, "value", "v");
    ot_out(&t, "out", "out");
    OT_FAIL(&t, k[i].code, "index_put", k[i].want);
    ot_end(&t);
  }
}
END_TEST

/* ---- gather, index_select, gather_nd ---- */

/* Every gather row of the shared table cases_index.h (the CUDA suite runs the same): Out's
 * dims, and each element against X's element at the index's position. */
START_TEST(gather_table) {
  for (size_t r = 0; r < CGA_N_CASES; r++) {
    const cga_case *c = &cga_cases[r];
    size_t n_in;
    const char *names[4];
    ic_tensor *in[4], *out;
    ic_builder *b = cga_program(c, &n_in, names, in);
    char err[1024];
    ic_status st = tu_run(b, n_in, names, in, 1, TU_NAMES("out"), &out, err, sizeof err);
    ck_assert_msg(st == IC_OK, "row %zu: %s", r, err);
    const int ax = cga_axis(c);
    int64_t od[4], sd[4];
    int sn = 0;
    for (int k = 0; k < c->xnd; k++) {
      od[k] = k == ax ? c->n : c->xd[k];
      if (k != ax) sd[sn++] = c->xd[k];
    }
    if (c->scalar) tu_assert_shape(out, c->dt, sn, sd);
    else tu_assert_shape(out, c->dt, c->xnd, od);
    int64_t on = ot_numel(c->xnd, od);
    int64_t *src = malloc((size_t)(on ? on : 1) * sizeof *src);
    for (int64_t k = 0; k < on; k++) {
      int64_t idx[4];
      ot_unravel(k, c->xnd, od, idx);
      idx[ax] = cga_index(c, (int)idx[ax]);
      src[k] = ot_ravel(c->xnd, c->xd, idx);
    }
    ot_check_gather(out, in[0], src, (size_t)on);
    free(src);
    ic_tensor_destroy(out);
    for (size_t k = 0; k < n_in; k++) ic_tensor_destroy(in[k]);
    ic_builder_destroy(b);
  }
}
END_TEST

/* An index out of range fails naming Index. */
START_TEST(gather_axes) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 2, TU_DIMS(3, 2), 0));
  ot_feed(&t, "i", tu_i32(1, TU_DIMS(2), (const int32_t[]){1, 3}));
  ic_builder_op *o = ot_op(&t, "gather");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Index", "i");
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "gather", "Index 'i'", "holds 3", "[0, 3)");
  ot_end(&t);
}
END_TEST

START_TEST(index_select_negative) {
  const int64_t xd[] = {2, 5, 3};
  optest t;
  ot_begin(&t);
  ic_tensor *x = ot_iota(IC_INT32, 3, xd, 4);
  ot_feed(&t, "x", x);
  ot_feed(&t, "i", tu_i64(1, TU_DIMS(4), (const int64_t[]){-1, 0, 3, -5}));
  ic_builder_op *o = ot_op(&t, "index_select");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Index", "i");
  ic_builder_attr_int(o, "dim", 1);
  ot_out(&t, "Out", "out");
  ot_ok(&t);
  const int64_t pos[] = {4, 0, 3, 0}, od[] = {2, 4, 3};
  int64_t src[24];
  for (int64_t k = 0; k < 24; k++) {
    int64_t idx[3];
    ot_unravel(k, 3, od, idx);
    idx[1] = pos[idx[1]];
    src[k] = ot_ravel(3, xd, idx);
  }
  tu_assert_shape(t.out[0], IC_INT32, 3, od);
  ot_check_gather(t.out[0], x, src, 24);
  ot_end(&t);
}
END_TEST

START_TEST(gather_nd_depths) {
  const int64_t xd[] = {3, 4, 2};
  for (int depth = 0; depth <= 3; depth++) {
    optest t;
    ot_begin(&t);
    ic_tensor *x = ot_iota(IC_FP32, 3, xd, 1);
    ot_feed(&t, "x", x);
    /* two rows of `depth` indices, [2, depth] */
    int64_t iv[6] = {2, 3, 1, 0, 1, 0};
    int64_t rows[2][3] = {{2, 3, 1}, {0, 1, 0}};
    int64_t tmp[6];
    for (int r = 0; r < 2; r++) {
      for (int j = 0; j < depth; j++) tmp[r * depth + j] = rows[r][j];
    }
    (void)iv;
    ot_feed(&t, "i", tu_i64(2, TU_DIMS(2, depth), tmp));
    ic_builder_op *o = ot_op(&t, "gather_nd");
    ic_builder_in(o, "X", "x");
    ic_builder_in(o, "Index", "i");
    ot_out(&t, "Out", "out");
    ot_ok(&t);
    int64_t slice = ot_numel(3 - depth, xd + depth), src[48];
    for (int r = 0; r < 2; r++) {
      int64_t idx[3] = {0, 0, 0};
      for (int j = 0; j < depth; j++) idx[j] = rows[r][j];
      int64_t base = ot_ravel(3, xd, idx);
      for (int64_t s = 0; s < slice; s++) src[r * slice + s] = base + s;
    }
    ot_check_gather(t.out[0], x, src, (size_t)(2 * slice));
    ck_assert_int_eq(ic_tensor_ndim(t.out[0]), 1 + 3 - depth);
    ot_end(&t);
  }
}
END_TEST

/* ---- stack, unstack ---- */

START_TEST(stack_unstack) {
  const int64_t xd[] = {2, 3};
  for (int axis = -3; axis <= 2; axis++) {
    optest t;
    ot_begin(&t);
    ic_tensor *xs[3];
    for (int i = 0; i < 3; i++) {
      xs[i] = ot_iota(IC_INT64, 2, xd, (uint64_t)i);
      ot_feed(&t, (const char *[]){"a", "b", "c"}[i], xs[i]);
    }
    ic_builder_op *o = ot_op(&t, "stack");
    ic_builder_input(o, "X", 3, TU_NAMES("a", "b", "c"));
    ic_builder_attr_int(o, "axis", axis);
    ot_out(&t, "Y", "y");
    ot_ok(&t);
    int ax = axis < 0 ? axis + 3 : axis;
    int64_t od[3];
    for (int k = 0, m = 0; k < 3; k++) od[k] = k == ax ? 3 : xd[m++];
    tu_assert_shape(t.out[0], IC_INT64, 3, od);
    const int64_t *y = ic_tensor_cdata(t.out[0]);
    for (int64_t k = 0; k < 18; k++) {
      int64_t idx[3], xi[2];
      ot_unravel(k, 3, od, idx);
      for (int q = 0, m = 0; q < 3; q++) {
        if (q != ax) xi[m++] = idx[q];
      }
      ck_assert(y[k] == ((const int64_t *)ic_tensor_cdata(xs[idx[ax]]))[ot_ravel(2, xd, xi)]);
    }
    ot_end(&t);
  }
  /* unstack along axis 1 of [2, 3, 2] into 3 outputs */
  const int64_t ud[] = {2, 3, 2};
  optest t;
  ot_begin(&t);
  ic_tensor *x = ot_iota(IC_FP32, 3, ud, 1);
  ot_feed(&t, "x", x);
  ic_builder_op *o = ot_op(&t, "unstack");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_int(o, "axis", -2);
  ic_builder_attr_int(o, "num", 3);
  ot_outs(&t, "Y", 3, TU_NAMES("y0", "y1", "y2"));
  ot_ok(&t);
  for (int i = 0; i < 3; i++) {
    int64_t src[4];
    for (int64_t k = 0; k < 4; k++) src[k] = ot_ravel(3, ud, (const int64_t[]){k / 2, i, k % 2});
    tu_assert_shape(t.out[i], IC_FP32, 2, TU_DIMS(2, 2));
    ot_check_gather(t.out[i], x, src, 4);
  }
  ot_end(&t);
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 3, ud, 1));
  o = ot_op(&t, "unstack");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_int(o, "axis", 0);
  ic_builder_attr_int(o, "num", 2);
  ot_outs(&t, "Y", 3, TU_NAMES("y0", "y1", "y2"));
  OT_FAIL(&t, IC_ERR_SHAPE, "unstack", "X 'x'", "3 outputs");
  ot_end(&t);
}
END_TEST

/* ---- expand family and tile ---- */

/* out[k] = x[k mod xd] per dim, x padded with leading 1s. */
static void check_repeat(const ic_tensor *out, const ic_tensor *x, int nd, const int64_t *od) {
  int64_t xd[8];
  int off = nd - ic_tensor_ndim(x);
  for (int i = 0; i < nd; i++) xd[i] = i >= off ? ic_tensor_dims(x)[i - off] : 1;
  int64_t n = ot_numel(nd, od), *src = malloc((size_t)(n ? n : 1) * sizeof *src);
  for (int64_t k = 0; k < n; k++) {
    int64_t idx[8];
    ot_unravel(k, nd, od, idx);
    for (int i = 0; i < nd; i++) idx[i] %= xd[i];
    src[k] = ot_ravel(nd, xd, idx);
  }
  tu_assert_shape(out, ic_tensor_dtype(x), nd, od);
  ot_check_gather(out, x, src, (size_t)n);
  free(src);
}

/* Every row of the shared table cases_index.h (the CUDA suite runs the same). */
START_TEST(repeat_table) {
  for (size_t r = 0; r < CRP_N_CASES; r++) {
    const crp_case *c = &crp_cases[r];
    size_t n_in;
    const char *names[8];
    ic_tensor *in[8], *out;
    ic_builder *b = crp_program(c, &n_in, names, in);
    char err[1024];
    ic_status st = tu_run(b, n_in, names, in, 1, TU_NAMES("out"), &out, err, sizeof err);
    ck_assert_msg(st == IC_OK, "row %zu (%s): %s", r, c->op, err);
    check_repeat(out, in[0], c->ond, c->od);
    ic_tensor_destroy(out);
    for (size_t k = 0; k < n_in; k++) ic_tensor_destroy(in[k]);
    ic_builder_destroy(b);
  }
}
END_TEST

/* Bad targets fail naming X. */
START_TEST(expand_v2_sources) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 2, TU_DIMS(3, 2), 1));
  ic_builder_op *o = ot_op(&t, "expand_v2");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_ints(o, "shape", NI32(3, 4));
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "expand_v2", "X 'x'", "cannot expand to 4 at dim 1");
  ot_end(&t);
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 2, TU_DIMS(3, 2), 1));
  o = ot_op(&t, "expand_v2");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_ints(o, "shape", NI32(-1, 3, 2));
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "expand_v2", "-1 only keeps an existing dim");
  ot_end(&t);
}
END_TEST

START_TEST(expand_as_and_v1) {
  optest t;
  ic_builder_op *o;
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP64, 2, TU_DIMS(2, 3), 1));
  o = ot_op(&t, "expand");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_ints(o, "expand_times", NI32(3));
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "expand", "1 expand times", "one per dim");
  ot_end(&t);
}
END_TEST

START_TEST(tile_sources) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 1, TU_DIMS(2), 1));
  ic_builder_op *o = ot_op(&t, "tile");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_ints(o, "repeat_times", NI32(2, -1));
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "tile", "repeat times -1", ">= 0");
  ot_end(&t);
}
END_TEST

/* ---- cumsum ---- */

START_TEST(cumsum_modes) {
  const int64_t xd[] = {3, 4, 5};
  for (int mode = 0; mode < 16; mode++) {
    bool excl = mode & 1, rev = mode & 2, flat = mode & 4;
    int axis = (mode & 8) ? 1 : -1;
    optest t;
    ot_begin(&t);
    ic_tensor *x = ew_rand(IC_FP64, 3, xd, (uint64_t)mode, -2, 2);
    ot_feed(&t, "x", x);
    ic_builder_op *o = ot_op(&t, "cumsum");
    ic_builder_in(o, "X", "x");
    ic_builder_attr_int(o, "axis", axis);
    ic_builder_attr_bool(o, "exclusive", excl);
    ic_builder_attr_bool(o, "reverse", rev);
    ic_builder_attr_bool(o, "flatten", flat);
    ot_out(&t, "Out", "out");
    ot_ok(&t);
    double ref[60];
    for (int64_t k = 0; k < 60; k++) {
      /* the sum over the positions before (or after) k on its line */
      double s = 0;
      int64_t idx[3];
      ot_unravel(k, 3, xd, idx);
      for (int64_t j = 0; j < 60; j++) {
        int64_t jd[3];
        ot_unravel(j, 3, xd, jd);
        bool same_line = flat;
        int64_t pk = k, pj = j;
        if (!flat) {
          int ax = axis < 0 ? 2 : axis;
          same_line = true;
          for (int q = 0; q < 3; q++) same_line &= q == ax || jd[q] == idx[q];
          pk = idx[ax];
          pj = jd[ax];
        }
        if (!same_line) continue;
        bool in = rev ? (excl ? pj > pk : pj >= pk) : (excl ? pj < pk : pj <= pk);
        if (in) s += ew_at(x, j);
      }
      ref[k] = s;
    }
    if (flat) {
      tu_assert_shape(t.out[0], IC_FP64, 1, TU_DIMS(60));
    } else {
      tu_assert_shape(t.out[0], IC_FP64, 3, xd);
    }
    tu_assert_close(t.out[0], ref, 60, 1e-12, 1e-12);
    ot_end(&t);
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_i32(1, TU_DIMS(4), (const int32_t[]){INT32_MAX, 1, -5, 2}));
  ic_builder_op *o = ot_op(&t, "cumsum");
  ic_builder_in(o, "X", "x");
  ot_out(&t, "Out", "out");
  ot_ok(&t);
  tu_assert_close(t.out[0], (const double[]){INT32_MAX, INT32_MIN, INT32_MIN - 5.0 + 4294967296.0,
                                             INT32_MIN - 3.0 + 4294967296.0},
                  4, 0, 0);
  ot_end(&t);
}
END_TEST

/* ---- one_hot_v2, range, fill_any_like ---- */

START_TEST(one_hot) {
  for (int mode = 0; mode < 2; mode++) {
    optest t;
    ot_begin(&t);
    const int64_t ids_in[4] = {0, 3, mode ? 7 : 2, mode ? -1 : 1};
    ot_feed(&t, "x", tu_i64(2, TU_DIMS(2, 2), ids_in));
    if (!mode) ot_feed(&t, "d", tu_i32(1, TU_DIMS(1), (const int32_t[]){4}));
    ic_builder_op *o = ot_op(&t, "one_hot_v2");
    ic_builder_in(o, "X", "x");
    if (!mode) ic_builder_in(o, "depth_tensor", "d");
    ic_builder_attr_int(o, "depth", mode ? 4 : -1);
    ic_builder_attr_int(o, "dtype", mode ? 3 : 5); /* int64, float32 */
    ic_builder_attr_bool(o, "allow_out_of_range", mode == 1);
    ot_out(&t, "Out", "out");
    ot_ok(&t);
    const int64_t ids[2][4] = {{0, 3, 2, 1}, {0, 3, 7, -1}};
    double ref[16] = {0};
    for (int i = 0; i < 4; i++) {
      if (ids[mode][i] >= 0 && ids[mode][i] < 4) ref[i * 4 + ids[mode][i]] = 1;
    }
    tu_assert_shape(t.out[0], mode ? IC_INT64 : IC_FP32, 3, TU_DIMS(2, 2, 4));
    tu_assert_close(t.out[0], ref, 16, 0, 0);
    ot_end(&t);
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_i32(1, TU_DIMS(2), (const int32_t[]){1, 4}));
  ic_builder_op *o = ot_op(&t, "one_hot_v2");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_int(o, "depth", 4);
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "one_hot_v2", "X 'x'", "holds 4", "[0, 4)");
  ot_end(&t);
}
END_TEST

/* one_hot (v1): X [..., 1] whose last dim becomes depth; depth_tensor (int32) over the
 * attribute; allow_out_of_range zeroes a row; an out-of-range id and an X whose last dim is
 * not 1 fail. No Paddle oracle: neither 2.6 nor 3.3 registers the op; the reference is the
 * definition (paddle/fluid/operators/one_hot_op.h). */
START_TEST(one_hot_v1) {
  for (int mode = 0; mode < 2; mode++) {
    optest t;
    ot_begin(&t);
    const int64_t ids_in[4] = {0, 3, mode ? 7 : 2, mode ? -1 : 1};
    ot_feed(&t, "x", tu_i64(3, TU_DIMS(2, 2, 1), ids_in));
    if (!mode) ot_feed(&t, "d", tu_i32(1, TU_DIMS(1), (const int32_t[]){4}));
    ic_builder_op *o = ot_op(&t, "one_hot");
    ic_builder_in(o, "X", "x");
    if (!mode) ic_builder_in(o, "depth_tensor", "d");
    ic_builder_attr_int(o, "depth", mode ? 4 : 9); /* depth_tensor wins */
    if (mode) ic_builder_attr_int(o, "dtype", 6); /* float64 */
    ic_builder_attr_bool(o, "allow_out_of_range", mode == 1);
    ot_out(&t, "Out", "out");
    ot_ok(&t);
    const int64_t ids[2][4] = {{0, 3, 2, 1}, {0, 3, 7, -1}};
    double ref[16] = {0};
    for (int i = 0; i < 4; i++) {
      if (ids[mode][i] >= 0 && ids[mode][i] < 4) ref[i * 4 + ids[mode][i]] = 1;
    }
    tu_assert_shape(t.out[0], mode ? IC_FP64 : IC_FP32, 3, TU_DIMS(2, 2, 4));
    tu_assert_close(t.out[0], ref, 16, 0, 0);
    ot_end(&t);
  }
  for (int bad = 0; bad < 2; bad++) {
    optest t;
    ot_begin(&t);
    if (bad) ot_feed(&t, "x", tu_i32(2, TU_DIMS(1, 2), (const int32_t[]){1, 2}));
    else ot_feed(&t, "x", tu_i32(2, TU_DIMS(2, 1), (const int32_t[]){1, 4}));
    ic_builder_op *o = ot_op(&t, "one_hot");
    ic_builder_in(o, "X", "x");
    ic_builder_attr_int(o, "depth", 4);
    ot_out(&t, "Out", "out");
    if (bad) OT_FAIL(&t, IC_ERR_SHAPE, "one_hot", "X 'x'", "last dim of 1");
    else OT_FAIL(&t, IC_ERR_SHAPE, "one_hot", "X 'x'", "holds 4", "[0, 4)");
    ot_end(&t);
  }
}
END_TEST

/* The errors of unique, masked_select, shard_index, edit_distance, iou_similarity and
 * polygon_box_transform (their values are oracle-checked), and unique of an empty X. */
START_TEST(unique_and_friends_errors) {
  const int32_t v6[6] = {1, 2, 2, 0, 1, 5};
  /* unique: an axis out of range; the unsorted path on 2-D X */
  for (int k = 0; k < 2; k++) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "x", tu_i32(2, TU_DIMS(2, 3), v6));
    ic_builder_op *o = ot_op(&t, "unique");
    ic_builder_in(o, "X", "x");
    ic_builder_attr_bool(o, "is_sorted", k == 0);
    if (k == 0) ic_builder_attr_ints(o, "axis", 1, (const int32_t[]){2});
    ic_builder_attr_int(o, "dtype", 3);
    ot_out(&t, "Out", "out");
    ot_out(&t, "Index", "inv");
    if (k == 0) OT_FAIL(&t, IC_ERR_SHAPE, "unique", "axis", "2");
    else OT_FAIL(&t, IC_ERR_SHAPE, "unique", "X 'x'", "0-D or 1-D");
    ot_end(&t);
  }
  /* unique of an empty X: Out [0], Index [0] */
  {
    optest t;
    ot_begin(&t);
    ic_tensor *x;
    ck_assert_int_eq(ic_tensor_create(IC_FP32, 1, TU_DIMS(0), &x), IC_OK);
    ot_feed(&t, "x", x);
    ic_builder_op *o = ot_op(&t, "unique");
    ic_builder_in(o, "X", "x");
    ic_builder_attr_bool(o, "is_sorted", true);
    ic_builder_attr_bool(o, "return_inverse", true);
    ic_builder_attr_int(o, "dtype", 2);
    ot_out(&t, "Out", "out");
    ot_out(&t, "Index", "inv");
    ot_ok(&t);
    tu_assert_shape(t.out[0], IC_FP32, 1, TU_DIMS(0));
    tu_assert_shape(t.out[1], IC_INT32, 1, TU_DIMS(0));
    ot_end(&t);
  }
  /* masked_select: Mask [4] against X [2, 3]; an int32 Mask */
  for (int k = 0; k < 2; k++) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "x", tu_i32(2, TU_DIMS(2, 3), v6));
    if (k == 0) {
      ic_tensor *m;
      ck_assert_int_eq(ic_tensor_create(IC_BOOL, 1, TU_DIMS(4), &m), IC_OK);
      memset(ic_tensor_data(m), 1, 4);
      ot_feed(&t, "m", m);
    } else {
      ot_feed(&t, "m", tu_i32(1, TU_DIMS(3), (const int32_t[]){1, 0, 1}));
    }
    ic_builder_op *o = ot_op(&t, "masked_select");
    ic_builder_in(o, "X", "x");
    ic_builder_in(o, "Mask", "m");
    ot_out(&t, "Y", "y");
    if (k == 0) OT_FAIL(&t, IC_ERR_SHAPE, "masked_select", "Mask 'm'", "does not broadcast");
    else OT_FAIL(&t, IC_ERR_SHAPE, "masked_select", "Mask 'm'", "bool");
    ot_end(&t);
  }
  /* shard_index: an id past index_num; X [6] (rank 1) */
  for (int k = 0; k < 2; k++) {
    optest t;
    ot_begin(&t);
    if (k == 0) ot_feed(&t, "x", tu_i32(2, TU_DIMS(6, 1), v6));
    else ot_feed(&t, "x", tu_i32(1, TU_DIMS(6), v6));
    ic_builder_op *o = ot_op(&t, "shard_index");
    ic_builder_in(o, "X", "x");
    ic_builder_attr_int(o, "index_num", 5);
    ic_builder_attr_int(o, "nshards", 2);
    ic_builder_attr_int(o, "shard_id", 1);
    ot_out(&t, "Out", "out");
    if (k == 0) OT_FAIL(&t, IC_ERR_SHAPE, "shard_index", "X 'x'", "holds 5", "index_num = 5");
    else OT_FAIL(&t, IC_ERR_SHAPE, "shard_index", "X 'x'", "rank >= 2");
    ot_end(&t);
  }
  /* edit_distance: HypsLength without RefsLength; a length past the row */
  for (int k = 0; k < 2; k++) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "h", tu_i64(2, TU_DIMS(2, 3), (const int64_t[]){1, 2, 3, 4, 5, 6}));
    ot_feed(&t, "r", tu_i64(2, TU_DIMS(2, 2), (const int64_t[]){1, 2, 3, 4}));
    ot_feed(&t, "hl", tu_i64(1, TU_DIMS(2), (const int64_t[]){3, 1}));
    ot_feed(&t, "rl", tu_i64(1, TU_DIMS(2), (const int64_t[]){2, 3}));
    ic_builder_op *o = ot_op(&t, "edit_distance");
    ic_builder_in(o, "Hyps", "h");
    ic_builder_in(o, "Refs", "r");
    ic_builder_in(o, "HypsLength", "hl");
    if (k == 1) ic_builder_in(o, "RefsLength", "rl");
    ot_out(&t, "Out", "d");
    ot_out(&t, "SequenceNum", "n");
    if (k == 0) OT_FAIL(&t, IC_ERR_SHAPE, "edit_distance", "both HypsLength and RefsLength");
    else OT_FAIL(&t, IC_ERR_SHAPE, "edit_distance", "string 1", "[0, 2]");
    ot_end(&t);
  }
  /* iou_similarity: Y [2, 3]; polygon_box_transform: 3 channels */
  for (int k = 0; k < 2; k++) {
    optest t;
    ot_begin(&t);
    if (k == 0) {
      ot_feed(&t, "x", ot_iota(IC_FP32, 2, TU_DIMS(2, 4), 1));
      ot_feed(&t, "y", ot_iota(IC_FP32, 2, TU_DIMS(2, 3), 2));
      ic_builder_op *o = ot_op(&t, "iou_similarity");
      ic_builder_in(o, "X", "x");
      ic_builder_in(o, "Y", "y");
      ot_out(&t, "Out", "out");
      OT_FAIL(&t, IC_ERR_SHAPE, "iou_similarity", "Y 'y'", "[M, 4]");
    } else {
      ot_feed(&t, "x", ot_iota(IC_FP32, 4, TU_DIMS(1, 3, 2, 2), 3));
      ic_builder_op *o = ot_op(&t, "polygon_box_transform");
      ic_builder_in(o, "Input", "x");
      ot_out(&t, "Output", "out");
      OT_FAIL(&t, IC_ERR_SHAPE, "polygon_box_transform", "Input 'x'", "even dim 1");
    }
    ot_end(&t);
  }
}
END_TEST

static void range_case(ic_dtype dt, double s, double e, double st, int n, const double *want) {
  optest t;
  ot_begin(&t);
  const char *nm[] = {"s", "e", "st"};
  double v[] = {s, e, st};
  for (int i = 0; i < 3; i++) {
    ic_tensor *x;
    ck_assert_int_eq(ic_tensor_create(dt, 1, TU_DIMS(1), &x), IC_OK);
    switch (dt) {
      case IC_FP32: *(float *)ic_tensor_data(x) = (float)v[i]; break;
      case IC_FP64: *(double *)ic_tensor_data(x) = v[i]; break;
      case IC_INT32: *(int32_t *)ic_tensor_data(x) = (int32_t)v[i]; break;
      default: *(int64_t *)ic_tensor_data(x) = (int64_t)v[i]; break;
    }
    ot_feed(&t, nm[i], x);
  }
  ic_builder_op *o = ot_op(&t, "range");
  ic_builder_in(o, "Start", "s");
  ic_builder_in(o, "End", "e");
  ic_builder_in(o, "Step", "st");
  ot_out(&t, "Out", "out");
  if (n < 0) {
    OT_FAIL(&t, IC_ERR_INVALID_ARGUMENT, "range", "Start 's'", "finite range");
  } else {
    ot_ok(&t);
    tu_assert_shape(t.out[0], dt, 1, TU_DIMS(n));
    tu_assert_close(t.out[0], want, (size_t)n, 1e-6, 0);
  }
  ot_end(&t);
}

START_TEST(range_values) {
  range_case(IC_FP32, 0.5, 3, 0.75, 4, (const double[]){0.5, 1.25, 2, 2.75});
  range_case(IC_FP64, 1, -1, -0.5, 4, (const double[]){1, 0.5, 0, -0.5});
  range_case(IC_INT64, 10, -3, -4, 4, (const double[]){10, 6, 2, -2});
  range_case(IC_INT32, 2, 9, 3, 3, (const double[]){2, 5, 8});
  range_case(IC_INT32, 2, 2, 3, 0, NULL);
  /* float32 counts in float: (3 - 0.1f) / 0.1f is 29 there, 29.0000002 in double */
  {
    double want[29];
    float v = 0.1f;
    for (int i = 0; i < 29; i++, v += 0.1f) want[i] = v;
    range_case(IC_FP32, 0.1f, 3, 0.1f, 29, want);
  }
  range_case(IC_INT32, 2, 9, 0, -1, NULL);
  range_case(IC_FP32, 0, 5, -1, -1, NULL);
}
END_TEST

START_TEST(fill_any_like_dtypes) {
  for (int mode = 0; mode < 3; mode++) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "x", ot_iota(IC_FP64, 2, TU_DIMS(2, 3), 1));
    ic_builder_op *o = ot_op(&t, "fill_any_like");
    ic_builder_in(o, "X", "x");
    ic_builder_attr_float(o, "value", -3.75f);
    ic_builder_attr_int(o, "dtype", mode == 0 ? -1 : mode == 1 ? 3 : 5);
    ot_out(&t, "Out", "out");
    ot_ok(&t);
    ic_dtype want = mode == 0 ? IC_FP64 : mode == 1 ? IC_INT64 : IC_FP32;
    double v = mode == 1 ? -3 : -3.75, ref[6] = {v, v, v, v, v, v};
    tu_assert_shape(t.out[0], want, 2, TU_DIMS(2, 3));
    tu_assert_close(t.out[0], ref, 6, 0, 0);
    ot_end(&t);
  }
}
END_TEST

/* ---- argsort, top_k, top_k_v2 ---- */

/* The sorted order by value (NaN above every number), ties in index order, from scratch:
 * selection of the best remaining element each time. */
static void ref_order(const double *v, int n, bool desc, int64_t *ord) {
  bool used[64] = {false};
  for (int r = 0; r < n; r++) {
    int best = -1;
    for (int k = 0; k < n; k++) {
      if (used[k]) continue;
      if (best < 0) {
        best = k;
        continue;
      }
      double a = v[k], b = v[best];
      bool na = isnan(a), nb = isnan(b);
      bool better = desc ? ((na && !nb) || (!na && !nb && a > b))
                         : ((!na && nb) || (!na && !nb && a < b));
      if (better) best = k;
    }
    used[best] = true;
    ord[r] = best;
  }
}

/* flip, reverse and meshgrid refuse what Paddle refuses, naming the op and the rule. */
START_TEST(flip_reverse_meshgrid_errors) {
  static const struct {
    const char *op, *want;
    int64_t axes[2];
    size_t n_axes;
  } flips[] = {
      {"flip", "names axis 1 twice", {1, -2}, 2},
      {"flip", "'axis'", {3, 0}, 1},
      {"reverse", "is empty", {0, 0}, 0},
      {"reverse", "'axis'", {-4, 0}, 1},
  };
  for (size_t k = 0; k < sizeof flips / sizeof flips[0]; k++) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "x", ot_iota(IC_FP32, 3, TU_DIMS(2, 3, 4), 1));
    ot_op(&t, flips[k].op);
    ic_builder_in(t.op, "X", "x");
    ic_builder_attr_ints(t.op, "axis", flips[k].n_axes,
                         (const int32_t[]){(int32_t)flips[k].axes[0], (int32_t)flips[k].axes[1]});
    ot_out(&t, "Out", "out");
    ck_assert_int_ne(ot_run(&t), IC_OK);
    tu_assert_msg(t.err, flips[k].op, flips[k].want, NULL);
    ot_end(&t);
  }
  for (int k = 0; k < 3; k++) {
    /* a rank-2 input; two dtypes; two inputs but one output */
    optest t;
    ot_begin(&t);
    ot_feed(&t, "a", ot_iota(IC_FP32, 1, TU_DIMS(3), 1));
    ot_feed(&t, "b", k == 0   ? ot_iota(IC_FP32, 2, TU_DIMS(2, 2), 2)
                     : k == 1 ? ot_iota(IC_INT64, 1, TU_DIMS(2), 2)
                              : ot_iota(IC_FP32, 1, TU_DIMS(2), 2));
    ot_op(&t, "meshgrid");
    static const char *const ins[2] = {"a", "b"}, *const outs[2] = {"o0", "o1"};
    ic_builder_input(t.op, "X", 2, ins);
    ot_outs(&t, "Out", k == 2 ? 1 : 2, outs);
    ck_assert_int_ne(ot_run(&t), IC_OK);
    tu_assert_msg(t.err, "meshgrid", k == 0 ? "rank 2, expected 0 or 1"
                                     : k == 1 ? "expected X[0]'s float32"
                                              : "2 inputs X but 1 outputs Out", NULL);
    ot_end(&t);
  }
}
END_TEST

/* The errors of tril_triu, roll, where_index, index_sample, take_along_axis, unbind,
 * shuffle_channel and affine_channel: each names the op and the attribute or variable at
 * fault. (Their values are checked against Paddle by the oracle cases tril_triu_masks,
 * roll_axes, where_index_cases, index_sample_take_along and unbind_shuffle_affine.) */
START_TEST(gather_roll_triangle_errors) {
  const char *const outs3[3] = {"o0", "o1", "o2"};
  for (int k = 0; k < 19; k++) {
    optest t;
    ot_begin(&t);
    const char *op = "", *want1 = "", *want2 = "";
    ic_tensor *x3 = ot_iota(IC_FP32, 3, TU_DIMS(2, 3, 4), 1);
    switch (k) {
      case 0: /* rank 1 */
        ot_feed(&t, "x", ot_iota(IC_FP32, 1, TU_DIMS(4), 1));
        ot_op(&t, op = "tril_triu");
        ic_builder_in(t.op, "X", "x");
        want1 = "X 'x'", want2 = "expected rank >= 2";
        break;
      case 1: case 2: case 3: case 4: { /* roll: counts, axis range, ShiftsTensor dtype */
        ot_feed(&t, "x", x3), x3 = NULL;
        if (k == 4) ot_feed(&t, "s", tu_f32(1, TU_DIMS(1), (const float[]){1}));
        ot_op(&t, op = "roll");
        ic_builder_in(t.op, "X", "x");
        if (k == 4) ic_builder_in(t.op, "ShiftsTensor", "s");
        static const int32_t sh[3][2] = {{1, 2}, {1, 0}, {1, 2}}, ax[3][2] = {{0, 0}, {3, 0}};
        static const size_t nsh[3] = {2, 1, 2}, nax[3] = {1, 1, 0};
        const int m = k == 4 ? 1 : k - 1;
        ic_builder_attr_ints(t.op, "shifts", nsh[m], sh[m]);
        ic_builder_attr_ints(t.op, "axis", nax[m], ax[m]);
        want1 = k == 1 ? "names 1 axes, but attribute 'shifts' holds 2 shifts"
              : k == 2 ? "attribute 'axis' is 3, expected in [-3, 3)"
              : k == 3 ? "is empty (roll the flattened tensor), so expected 1 shift"
                       : "ShiftsTensor 's'";
        want2 = k == 4 ? "int32 or int64" : "X 'x'";
        break;
      }
      case 5: /* 0-D Condition */
        ot_feed(&t, "c", tu_f32(0, NULL, (const float[]){1}));
        ot_op(&t, op = "where_index");
        ic_builder_in(t.op, "Condition", "c");
        want1 = "Condition 'c'", want2 = "expected rank >= 1";
        break;
      case 6: case 7: case 8: /* index_sample: a value, the dtype, the batch */
        ot_feed(&t, "x", ot_iota(IC_FP32, 2, TU_DIMS(2, 6), 1));
        ot_feed(&t, "i", k == 6   ? tu_i64(2, TU_DIMS(2, 2), (const int64_t[]){0, 5, 6, 1})
                         : k == 7 ? tu_f32(2, TU_DIMS(2, 1), (const float[]){0, 1})
                                  : tu_i64(2, TU_DIMS(3, 1), (const int64_t[]){0, 1, 2}));
        ot_op(&t, op = "index_sample");
        ic_builder_in(t.op, "X", "x");
        ic_builder_in(t.op, "Index", "i");
        want1 = "Index 'i'";
        want2 = k == 6 ? "holds 6 at [1, 0], expected in [0, 6)"
              : k == 7 ? "int32" : "expected dim 0 equal to dim 0 of X 'x' (2";
        break;
      case 9: case 10: case 11: case 12: { /* take_along_axis */
        ot_feed(&t, "x", x3), x3 = NULL;
        static const int64_t zeros[8] = {0};
        ot_feed(&t, "i", k == 11  ? tu_i64(2, TU_DIMS(2, 1), zeros)
                         : k == 12 ? tu_i64(3, TU_DIMS(2, 4, 1), zeros)
                                   : tu_i64(3, TU_DIMS(1, 1, 2), (const int64_t[]){1, -5}));
        ot_op(&t, op = "take_along_axis");
        ic_builder_in(t.op, "Input", "x");
        ic_builder_in(t.op, "Index", "i");
        ic_builder_attr_int(t.op, "Axis", k == 9 ? -4 : 2);
        ot_out(&t, "Result", "r");
        want1 = k == 9 ? "attribute 'Axis' is -4, expected in [-3, 3)" : "Index 'i'";
        want2 = k == 9   ? "Input 'x'"
              : k == 10 ? "holds -5 at element 1, expected in [-4, 4)"
              : k == 11 ? "expected the rank of Input 'x' (3)"
                        : "has dim 1 of 4, expected at most that of Input 'x' (3)";
        break;
      }
      case 13: case 14: /* unbind: output count, axis */
        ot_feed(&t, "x", x3), x3 = NULL;
        ot_op(&t, op = "unbind");
        ic_builder_in(t.op, "X", "x");
        ic_builder_attr_int(t.op, "axis", k == 13 ? -1 : 3);
        ot_outs(&t, "Out", 3, outs3);
        want1 = "X 'x'";
        want2 = k == 13 ? "has 4 slices along axis 2, but the op has 3 outputs Out"
                        : "attribute 'axis' is 3";
        break;
      case 15: case 16: /* shuffle_channel: group */
        ot_feed(&t, "x", ot_iota(IC_FP32, 4, TU_DIMS(1, 6, 2, 2), 1));
        ot_op(&t, op = "shuffle_channel");
        ic_builder_in(t.op, "X", "x");
        ic_builder_attr_int(t.op, "group", k == 15 ? 4 : 0);
        want1 = k == 15 ? "6 channels, not divisible by attribute 'group' (4)" : "group";
        want2 = k == 15 ? "X 'x'" : "is 0, expected > 0";
        break;
      default: /* 17, 18: affine_channel's Scale, data_layout */
        ot_feed(&t, "x", ot_iota(IC_FP32, 4, TU_DIMS(1, 3, 2, 2), 1));
        ot_feed(&t, "s", tu_f32(1, TU_DIMS(2), (const float[]){1, 2}));
        ot_feed(&t, "b", tu_f32(1, TU_DIMS(3), (const float[]){1, 2, 3}));
        ot_op(&t, op = "affine_channel");
        ic_builder_in(t.op, "X", "x");
        ic_builder_in(t.op, "Scale", "s");
        ic_builder_in(t.op, "Bias", "b");
        ic_builder_attr_string(t.op, "data_layout", k == 17 ? "NCHW" : "NCWH");
        want1 = k == 17 ? "Scale 's'" : "data_layout";
        want2 = k == 17 ? "expected float32[3] (one value per channel of X 'x')"
                        : "is 'NCWH', expected NCHW, NHWC or AnyLayout";
        break;
    }
    if (x3) ic_tensor_destroy(x3);
    if (strcmp(op, "take_along_axis") && strcmp(op, "unbind")) ot_out(&t, "Out", "out");
    ck_assert_int_ne(ot_run(&t), IC_OK);
    tu_assert_msg(t.err, op, want1, want2, NULL);
    ot_end(&t);
  }
}
END_TEST

/* Empty tensors: roll, tril_triu and unbind give empty outputs, where_index [0, rank],
 * take_along_axis an empty Result. */
START_TEST(gather_roll_triangle_empty) {
  for (int k = 0; k < 5; k++) {
    static const char *ops[5] = {"roll", "tril_triu", "where_index", "take_along_axis", "unbind"};
    optest t;
    ot_begin(&t);
    ot_feed(&t, "x", ot_iota(IC_FP32, 3, TU_DIMS(2, 0, 3), 1));
    if (k == 3) ot_feed(&t, "i", tu_i64(3, TU_DIMS(2, 0, 1), NULL));
    ot_op(&t, ops[k]);
    ic_builder_in(t.op, k == 2 ? "Condition" : k == 3 ? "Input" : "X", "x");
    if (k == 0) {
      ic_builder_attr_ints(t.op, "shifts", 1, (const int32_t[]){1});
      ic_builder_attr_ints(t.op, "axis", 1, (const int32_t[]){-1});
    }
    if (k == 3) {
      ic_builder_in(t.op, "Index", "i");
      ic_builder_attr_int(t.op, "Axis", 2);
    }
    if (k == 4) {
      static const char *const outs[2] = {"o0", "o1"};
      ot_outs(&t, "Out", 2, outs);
    } else {
      ot_out(&t, k == 3 ? "Result" : "Out", "out");
    }
    ot_ok(&t);
    if (k == 2) {
      tu_assert_shape(t.out[0], IC_INT64, 2, TU_DIMS(0, 3));
    } else if (k == 3) {
      tu_assert_shape(t.out[0], IC_FP32, 3, TU_DIMS(2, 0, 1));
    } else if (k == 4) {
      tu_assert_shape(t.out[0], IC_FP32, 2, TU_DIMS(0, 3));
      tu_assert_shape(t.out[1], IC_FP32, 2, TU_DIMS(0, 3));
    } else {
      tu_assert_shape(t.out[0], IC_FP32, 3, TU_DIMS(2, 0, 3));
    }
    ot_end(&t);
  }
}
END_TEST

/* isnan_v2, isinf_v2 and isfinite_v2 on float16 and bfloat16 bit patterns (Paddle's oracle
 * cases feed only float32, float64 and int32): +-inf, quiet and signalling NaN, the largest
 * finite value, zero and a subnormal. */
START_TEST(isfinite_half_floats) {
  static const uint16_t f16[7] = {0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x7bff, 0x0000, 0x0001};
  static const uint16_t bf16[7] = {0x7f80, 0xff80, 0x7fc0, 0x7f81, 0x7f7f, 0x8000, 0x0001};
  static const uint8_t want[3][7] = {{0, 0, 1, 1, 0, 0, 0}, /* isnan */
                                     {1, 1, 0, 0, 0, 0, 0}, /* isinf */
                                     {0, 0, 0, 0, 1, 1, 1}}; /* isfinite */
  static const char *ops[3] = {"isnan_v2", "isinf_v2", "isfinite_v2"};
  for (int h = 0; h < 2; h++) {
    for (int o = 0; o < 3; o++) {
      optest t;
      ot_begin(&t);
      ic_tensor *x;
      ck_assert_int_eq(ic_tensor_create(h ? IC_BF16 : IC_FP16, 1, TU_DIMS(7), &x), IC_OK);
      memcpy(ic_tensor_data(x), h ? bf16 : f16, sizeof f16);
      ot_feed(&t, "x", x);
      ot_op(&t, ops[o]);
      ic_builder_in(t.op, "X", "x");
      ot_out(&t, "Out", "out");
      ot_ok(&t);
      tu_assert_shape(t.out[0], IC_BOOL, 1, TU_DIMS(7));
      ck_assert_mem_eq(ic_tensor_data(t.out[0]), want[o], 7);
      ot_end(&t);
    }
  }
}
END_TEST

/* temporal_shift and scatter refuse bad attributes and indices by name. */
START_TEST(temporal_shift_scatter_errors) {
  for (int k = 0; k < 2; k++) {
    /* 5 frames are no multiple of seg_num 2; shift_ratio over 0.5 */
    optest t;
    ot_begin(&t);
    ot_feed(&t, "x", ot_iota(IC_FP32, 4, TU_DIMS(5, 4, 2, 2), 1));
    ot_op(&t, "temporal_shift");
    ic_builder_in(t.op, "X", "x");
    ic_builder_attr_int(t.op, "seg_num", 2);
    if (k) ic_builder_attr_float(t.op, "shift_ratio", 0.75f);
    ot_out(&t, "Out", "out");
    ck_assert_int_ne(ot_run(&t), IC_OK);
    tu_assert_msg(t.err, "temporal_shift", k ? "shift_ratio" : "a multiple of seg_num 2", NULL);
    ot_end(&t);
  }
  for (int k = 0; k < 2; k++) {
    /* an index past the rows; Updates with the wrong row count */
    optest t;
    ot_begin(&t);
    ot_feed(&t, "x", ot_iota(IC_FP32, 2, TU_DIMS(4, 3), 1));
    ot_feed(&t, "ids", tu_i32(1, TU_DIMS(2), (const int32_t[]){1, k ? 2 : 4}));
    ot_feed(&t, "u", ot_iota(IC_FP32, 2, TU_DIMS(k ? 3 : 2, 3), 2));
    ot_op(&t, "scatter");
    ic_builder_in(t.op, "X", "x");
    ic_builder_in(t.op, "Ids", "ids");
    ic_builder_in(t.op, "Updates", "u");
    ot_out(&t, "Out", "out");
    ck_assert_int_ne(ot_run(&t), IC_OK);
    tu_assert_msg(t.err, "scatter", k ? "one row per index" : "entry 1 is 4, expected in [0, 4)",
                  NULL);
    ot_end(&t);
  }
}
END_TEST

/* lrn, channel_shuffle, pixel_unshuffle and maxout refuse what Paddle refuses, by name. */
START_TEST(shuffle_lrn_maxout_errors) {
  static const struct {
    const char *op, *attr, *want;
    int64_t v;
  } cases[] = {
      {"lrn", "n", "expected an odd size", 4},
      {"channel_shuffle", "groups", "a multiple of groups 4", 4},
      {"pixel_unshuffle", "downscale_factor", "multiples of downscale_factor 3", 3},
      {"maxout", "groups", "a multiple of groups 4", 4},
      {"maxout", "axis", "expected 1, -1 or 3", 2},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "x", ot_iota(IC_FP32, 4, TU_DIMS(1, 6, 4, 4), 1));
    ot_op(&t, cases[k].op);
    ic_builder_in(t.op, "X", "x");
    ic_builder_attr_int(t.op, cases[k].attr, (int32_t)cases[k].v);
    if (!strcmp(cases[k].attr, "axis")) ic_builder_attr_int(t.op, "groups", 2);
    ot_out(&t, "Out", "out");
    ck_assert_int_ne(ot_run(&t), IC_OK);
    tu_assert_msg(t.err, cases[k].op, cases[k].want, NULL);
    ot_end(&t);
  }
}
END_TEST

/* fluid 1.x's squeeze and unsqueeze (no XShape; neither Paddle 2.6 nor 3.3 registers them any
 * more, so no oracle): squeeze2's and unsqueeze2's dims, the values untouched. */
START_TEST(squeeze_unsqueeze_v1) {
  static const struct {
    const char *op;
    int32_t axes[3];
    size_t n;
    int nd;
    int64_t want[7];
  } cases[] = {
      {"squeeze", {0, 2}, 2, 2, {3, 2}},
      {"squeeze", {0}, 0, 2, {3, 2}},
      {"squeeze", {1, -2}, 2, 3, {1, 3, 2}},
      {"unsqueeze", {0, 3, 6}, 3, 7, {1, 1, 3, 1, 1, 2, 1}},
      {"unsqueeze", {-1}, 1, 5, {1, 3, 1, 2, 1}},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    optest t;
    ot_begin(&t);
    ic_tensor *x = ot_iota(IC_FP32, 4, TU_DIMS(1, 3, 1, 2), 1);
    ot_feed(&t, "x", x);
    ot_op(&t, cases[k].op);
    ic_builder_in(t.op, "X", "x");
    ic_builder_attr_ints(t.op, "axes", cases[k].n, cases[k].axes);
    ot_out(&t, "Out", "out");
    ot_ok(&t);
    tu_assert_shape(t.out[0], IC_FP32, cases[k].nd, cases[k].want);
    ck_assert_int_eq(memcmp(ic_tensor_cdata(t.out[0]), ic_tensor_cdata(x), 6 * sizeof(float)), 0);
    ot_end(&t);
  }
}
END_TEST

/* fluid's cos_sim (no Paddle oracle: 2.6 and 3.3 no longer register it): matching rows and
 * one Y row against every X row, against the formula in double. */
START_TEST(cos_sim_rows) {
  for (int single = 0; single < 2; single++) {
    optest t;
    ot_begin(&t);
    ic_tensor *x = ew_rand(IC_FP32, 3, TU_DIMS(4, 2, 3), 11, -1, 1);
    ic_tensor *y = ew_rand(IC_FP32, 3, TU_DIMS(single ? 1 : 4, 2, 3), 12, -1, 1);
    ot_feed(&t, "x", x);
    ot_feed(&t, "y", y);
    ot_op(&t, "cos_sim");
    ic_builder_in(t.op, "X", "x");
    ic_builder_in(t.op, "Y", "y");
    ot_out(&t, "Out", "out");
    ot_ok(&t);
    double want[4];
    for (int r = 0; r < 4; r++) {
      double dot = 0, nx = 0, ny = 0;
      for (int k = 0; k < 6; k++) {
        double a = ot_val(x, r * 6 + k), b = ot_val(y, (single ? 0 : r) * 6 + k);
        dot += a * b, nx += a * a, ny += b * b;
      }
      want[r] = dot / (sqrt(nx) * sqrt(ny));
    }
    tu_assert_shape(t.out[0], IC_FP32, 2, TU_DIMS(4, 1));
    tu_assert_close(t.out[0], want, 4, 1e-5, 1e-6);
    ot_end(&t);
  }
}
END_TEST

START_TEST(sort_and_topk) {
  const int64_t xd[] = {3, 6, 2};
  for (int mode = 0; mode < 6; mode++) {
    /* 0/1 argsort asc/desc axis 1; 2/3 top_k_v2 largest/smallest k 4 axis 1 (K tensor on
     * 3); 4 top_k k 1 (last axis); 5 argsort int64 axis 0 */
    bool is_sort = mode < 2 || mode == 5, desc = mode == 1 || mode == 2 || mode == 4;
    int axis = mode == 4 ? 2 : mode == 5 ? 0 : 1;
    int k = mode == 4 ? 1 : is_sort ? (int)xd[axis] : 4;
    optest t;
    ot_begin(&t);
    ic_tensor *x = mode == 5 ? ew_rand(IC_INT64, 3, xd, 5, -3, 3)
                             : ew_rand(IC_FP32, 3, xd, 6, -1, 1);
    if (mode != 5) {
      ((float *)ic_tensor_data(x))[4] = NAN;
      ((float *)ic_tensor_data(x))[6] = ((float *)ic_tensor_data(x))[2]; /* a tie on axis 1 */
    }
    ot_feed(&t, "x", x);
    if (mode == 3) ot_feed(&t, "k", tu_i32(1, TU_DIMS(1), (const int32_t[]){k}));
    ic_builder_op *o = ot_op(&t, is_sort ? "argsort" : mode == 4 ? "top_k" : "top_k_v2");
    ic_builder_in(o, "X", "x");
    if (is_sort) {
      ic_builder_attr_int(o, "axis", axis);
      ic_builder_attr_bool(o, "descending", desc);
      ic_builder_attr_bool(o, "stable", true); /* else ties come in std::sort's order */
    } else if (mode == 4) {
      ic_builder_attr_int(o, "k", k);
    } else {
      if (mode == 3) ic_builder_in(o, "K", "k");
      ic_builder_attr_int(o, "k", mode == 3 ? 1 : k);
      ic_builder_attr_int(o, "axis", axis);
      ic_builder_attr_bool(o, "largest", desc);
    }
    ot_out(&t, "Out", "out");
    ot_out(&t, "Indices", "idx");
    ot_ok(&t);
    int64_t od[3] = {xd[0], xd[1], xd[2]};
    od[axis] = k;
    int64_t on = ot_numel(3, od), src[64];
    double want_idx[64];
    ck_assert_int_le(on, 64);
    for (int64_t q = 0; q < on; q++) {
      int64_t idx[3];
      ot_unravel(q, 3, od, idx);
      double line[8];
      int64_t ord[8], at[3] = {idx[0], idx[1], idx[2]};
      for (int j = 0; j < xd[axis]; j++) {
        at[axis] = j;
        line[j] = ew_at(x, ot_ravel(3, xd, at));
      }
      ref_order(line, (int)xd[axis], desc, ord);
      at[axis] = ord[idx[axis]];
      src[q] = ot_ravel(3, xd, at);
      want_idx[q] = (double)ord[idx[axis]];
    }
    tu_assert_shape(t.out[1], IC_INT64, 3, od);
    ot_check_gather(t.out[0], x, src, (size_t)on);
    if (is_sort) {
      tu_assert_close(t.out[1], want_idx, (size_t)on, 0, 0);
    } else {
      /* top_k places the tie as libstdc++'s nth_element does (test_paddle_oracle's
       * sort_ties checks that order): here each index holds its value, once per row. */
      const int64_t *gi = ic_tensor_cdata(t.out[1]);
      for (int64_t q = 0; q < on; q++) {
        int64_t idx[3], at[3];
        ot_unravel(q, 3, od, idx);
        memcpy(at, idx, sizeof at);
        at[axis] = gi[q];
        double want = ot_val(x, ot_ravel(3, xd, at)), got = ot_val(t.out[0], q);
        ck_assert_msg(want == got || (want != want && got != got),
                      "mode %d: Indices[%lld] = %lld holds %g, Out has %g", mode, (long long)q,
                      (long long)gi[q], want, got);
        for (int64_t j = 0; j < idx[axis]; j++) {
          at[axis] = j;
          ck_assert_int_ne(gi[ot_ravel(3, od, at)], gi[q]);
        }
      }
    }
    ot_end(&t);
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 2, TU_DIMS(2, 3), 1));
  ic_builder_op *o = ot_op(&t, "top_k_v2");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_int(o, "k", 4);
  ot_out(&t, "Out", "out");
  ot_out(&t, "Indices", "idx");
  OT_FAIL(&t, IC_ERR_SHAPE, "top_k_v2", "X 'x'", "k 4", "[0, 3]");
  ot_end(&t);
}
END_TEST

/* ---- pad, pad3d ---- */

START_TEST(pad_constant) {
  optest t;
  ot_begin(&t);
  ic_tensor *x = ot_iota(IC_INT32, 2, TU_DIMS(2, 3), 1);
  ot_feed(&t, "x", x);
  ic_builder_op *o = ot_op(&t, "pad");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_ints(o, "paddings", NI32(1, 0, 2, 1));
  ic_builder_attr_float(o, "pad_value", 7.9f);
  ot_out(&t, "Out", "out");
  ot_ok(&t);
  double ref[18];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 6; j++) {
      bool in = i >= 1 && j >= 2 && j < 5;
      ref[i * 6 + j] = in ? ot_val(x, (i - 1) * 3 + (j - 2)) : 7;
    }
  }
  tu_assert_shape(t.out[0], IC_INT32, 2, TU_DIMS(3, 6));
  tu_assert_close(t.out[0], ref, 18, 0, 0);
  ot_end(&t);
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_INT32, 2, TU_DIMS(2, 3), 1));
  o = ot_op(&t, "pad");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_ints(o, "paddings", NI32(1, 0));
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "pad", "'paddings' has 2 values", "2 per dim");
  ot_end(&t);
}
END_TEST

/* Python-style reference of one padded index: mode 0 constant, 1 reflect, 2 replicate,
 * 3 circular; -1 for the constant. */
static int64_t pad_src(int mode, int64_t j, int64_t before, int64_t n) {
  int64_t i = j - before;
  if (i >= 0 && i < n) return i;
  if (mode == 0) return -1;
  if (mode == 2) return i < 0 ? 0 : n - 1;
  if (mode == 3) {
    while (i < 0) i += n;
    return i % n;
  }
  while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;
  return i;
}

START_TEST(pad3d_modes) {
  static const char *modes[] = {"constant", "reflect", "replicate", "circular"};
  const int32_t pads[6] = {2, 1, 1, 2, 1, 0}; /* W: 2, 1; H: 1, 2; D: 1, 0 */
  for (int mode = 0; mode < 4; mode++) {
    for (int last = 0; last < 2; last++) {
      for (int tens = 0; tens < 2; tens++) {
        const int64_t N = 2, C = 2, D = 2, H = 3, W = 4;
        int64_t xd[5] = {N, C, D, H, W}, xl[5] = {N, D, H, W, C};
        optest t;
        ot_begin(&t);
        ic_tensor *x = ot_iota(IC_FP64, 5, last ? xl : xd, 3);
        ot_feed(&t, "x", x);
        if (tens) ot_feed(&t, "p", tu_i32(1, TU_DIMS(6), pads));
        ic_builder_op *o = ot_op(&t, "pad3d");
        ic_builder_in(o, "X", "x");
        if (tens) ic_builder_in(o, "Paddings", "p");
        if (!tens) ic_builder_attr_ints(o, "paddings", 6, pads);
        ic_builder_attr_string(o, "mode", modes[mode]);
        ic_builder_attr_float(o, "value", 1.5f);
        ic_builder_attr_string(o, "data_format", last ? "NDHWC" : "NCDHW");
        ot_out(&t, "Out", "out");
        ot_ok(&t);
        int64_t OD = D + 1, OH = H + 3, OW = W + 3;
        int64_t od[5] = {N, C, OD, OH, OW}, odl[5] = {N, OD, OH, OW, C};
        int64_t on = ot_numel(5, od);
        double *ref = malloc((size_t)on * sizeof *ref);
        for (int64_t q = 0; q < on; q++) {
          int64_t i[5], s[5];
          ot_unravel(q, 5, last ? odl : od, i);
          int64_t n = i[0], c = last ? i[4] : i[1], d = last ? i[1] : i[2];
          int64_t h = last ? i[2] : i[3], w = last ? i[3] : i[4];
          int64_t sd = pad_src(mode, d, 1, D), sh = pad_src(mode, h, 1, H);
          int64_t sw = pad_src(mode, w, 2, W);
          if (sd < 0 || sh < 0 || sw < 0) {
            ref[q] = 1.5;
            continue;
          }
          if (last) {
            s[0] = n, s[1] = sd, s[2] = sh, s[3] = sw, s[4] = c;
          } else {
            s[0] = n, s[1] = c, s[2] = sd, s[3] = sh, s[4] = sw;
          }
          ref[q] = ot_val(x, ot_ravel(5, last ? xl : xd, s));
        }
        tu_assert_shape(t.out[0], IC_FP64, 5, last ? odl : od);
        tu_assert_close(t.out[0], ref, (size_t)on, 0, 0);
        free(ref);
        ot_end(&t);
      }
    }
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 5, TU_DIMS(1, 1, 1, 2, 2), 1));
  ic_builder_op *o = ot_op(&t, "pad3d");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_ints(o, "paddings", NI32(2, 0, 0, 0, 0, 0));
  ic_builder_attr_string(o, "mode", "reflect");
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "pad3d", "X 'x'", "holds 2 at position 0", "reflect");
  ot_end(&t);
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 5, TU_DIMS(1, 1, 1, 2, 2), 1));
  o = ot_op(&t, "pad3d");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_ints(o, "paddings", NI32(0, 0, 0, 0, 0, 0));
  ic_builder_attr_string(o, "mode", "wrap");
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_INVALID_PROGRAM, "pad3d", "'mode'", "wrap");
  ot_end(&t);
}
END_TEST

START_TEST(pad2d_modes) {
  static const char *modes[] = {"constant", "reflect", "edge"};
  const int32_t pads[4] = {1, 2, 2, 1}; /* top, bottom, left, right */
  for (int mode = 0; mode < 3; mode++) {
    for (int last = 0; last < 2; last++) {
      for (int tens = 0; tens < 2; tens++) {
        const int64_t N = 2, C = 3, H = 3, W = 4;
        int64_t xd[4] = {N, C, H, W}, xl[4] = {N, H, W, C};
        optest t;
        ot_begin(&t);
        ic_tensor *x = ot_iota(IC_INT64, 4, last ? xl : xd, 3);
        ot_feed(&t, "x", x);
        if (tens) ot_feed(&t, "p", tu_i32(1, TU_DIMS(4), pads));
        ic_builder_op *o = ot_op(&t, "pad2d");
        ic_builder_in(o, "X", "x");
        if (tens) ic_builder_in(o, "Paddings", "p");
        if (!tens) ic_builder_attr_ints(o, "paddings", 4, pads);
        ic_builder_attr_string(o, "mode", modes[mode]);
        ic_builder_attr_float(o, "pad_value", -7);
        ic_builder_attr_string(o, "data_format", last ? "NHWC" : "NCHW");
        ot_out(&t, "Out", "out");
        ot_ok(&t);
        int64_t OH = H + 3, OW = W + 3;
        int64_t od[4] = {N, C, OH, OW}, odl[4] = {N, OH, OW, C};
        int64_t on = ot_numel(4, od);
        double *ref = malloc((size_t)on * sizeof *ref);
        for (int64_t q = 0; q < on; q++) {
          int64_t i[4], s[4];
          ot_unravel(q, 4, last ? odl : od, i);
          int64_t n = i[0], c = last ? i[3] : i[1], h = last ? i[1] : i[2], w = last ? i[2] : i[3];
          int64_t sh = pad_src(mode, h, 1, H), sw = pad_src(mode, w, 2, W);
          if (sh < 0 || sw < 0) {
            ref[q] = -7;
            continue;
          }
          if (last) {
            s[0] = n, s[1] = sh, s[2] = sw, s[3] = c;
          } else {
            s[0] = n, s[1] = c, s[2] = sh, s[3] = sw;
          }
          ref[q] = ot_val(x, ot_ravel(4, last ? xl : xd, s));
        }
        tu_assert_shape(t.out[0], IC_INT64, 4, last ? odl : od);
        tu_assert_close(t.out[0], ref, (size_t)on, 0, 0);
        free(ref);
        ot_end(&t);
      }
    }
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 4, TU_DIMS(1, 1, 2, 2), 1));
  ic_builder_op *o = ot_op(&t, "pad2d");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_ints(o, "paddings", NI32(0, 0, 2, 0));
  ic_builder_attr_string(o, "mode", "reflect");
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "pad2d", "X 'x'", "holds 2 at position 2", "reflect");
  ot_end(&t);
}
END_TEST

/* ---- strided_slice ---- */

/* Python's slice of n elements: the positions, count returned. */
static int py_slice(int64_t n, int64_t s, int64_t e, int64_t st, int64_t *pos) {
  int cnt = 0;
  if (st > 0) {
    s = s < 0 ? (s + n < 0 ? 0 : s + n) : (s > n ? n : s);
    e = e < 0 ? (e + n < 0 ? 0 : e + n) : (e > n ? n : e);
    for (int64_t i = s; i < e; i += st) pos[cnt++] = i;
  } else {
    s = s < 0 ? (s + n < -1 ? -1 : s + n) : (s > n - 1 ? n - 1 : s);
    e = e < 0 ? (e + n < -1 ? -1 : e + n) : (e > n - 1 ? n - 1 : e);
    for (int64_t i = s; i > e; i += st) pos[cnt++] = i;
  }
  return cnt;
}

START_TEST(strided_slice_cases) {
  const int64_t xd[] = {4, 7};
  static const struct {
    int64_t s0, e0, t0, s1, e1, t1;
  } cs[] = {{0, 4, 1, 0, 7, 2},      {3, -5, -1, -1, -100, -3}, {-100, 100, 3, 5, 1, -2},
            {1, 3, 1, 6, 2, 1},      {2, 100, 1, -2, -1, 1},    {100, -100, -2, 6, 0, -1},
            {-1, -4, -1, 0, 100, 5}};
  for (size_t c = 0; c < sizeof cs / sizeof cs[0]; c++) {
    for (int src = 0; src < 3; src++) {
      optest t;
      ot_begin(&t);
      ic_tensor *x = ot_iota(IC_INT64, 2, xd, 1);
      ot_feed(&t, "x", x);
      int32_t sv[] = {(int32_t)cs[c].s0, (int32_t)cs[c].s1};
      int32_t ev[] = {(int32_t)cs[c].e0, (int32_t)cs[c].e1};
      int32_t tv[] = {(int32_t)cs[c].t0, (int32_t)cs[c].t1};
      if (src == 1) {
        ot_feed(&t, "st", tu_i32(1, TU_DIMS(2), sv));
        ot_feed(&t, "en", tu_i32(1, TU_DIMS(2), ev));
        ot_feed(&t, "sd", tu_i32(1, TU_DIMS(2), tv));
      } else if (src == 2) {
        ot_feed(&t, "s0", tu_i64(1, TU_DIMS(1), (const int64_t[]){sv[0]}));
        ot_feed(&t, "s1", tu_i64(1, TU_DIMS(1), (const int64_t[]){sv[1]}));
        ot_feed(&t, "e0", tu_i64(1, TU_DIMS(1), (const int64_t[]){ev[0]}));
        ot_feed(&t, "e1", tu_i64(1, TU_DIMS(1), (const int64_t[]){ev[1]}));
      }
      ic_builder_op *o = ot_op(&t, "strided_slice");
      ic_builder_in(o, "Input", "x");
      ic_builder_attr_ints(o, "axes", NI32(0, 1));
      if (src == 1) {
        ic_builder_in(o, "StartsTensor", "st");
        ic_builder_in(o, "EndsTensor", "en");
        ic_builder_in(o, "StridesTensor", "sd");
      } else {
        if (src == 2) {
          ic_builder_input(o, "StartsTensorList", 2, TU_NAMES("s0", "s1"));
          ic_builder_input(o, "EndsTensorList", 2, TU_NAMES("e0", "e1"));
        } else {
          ic_builder_attr_ints(o, "starts", 2, sv);
          ic_builder_attr_ints(o, "ends", 2, ev);
        }
        ic_builder_attr_ints(o, "strides", 2, tv);
      }
      ic_builder_attr_ints(o, "infer_flags", NI32(1, 1));
      ot_out(&t, "Out", "out");
      ot_ok(&t);
      int64_t p0[8], p1[8], src_i[64];
      int n0 = py_slice(4, cs[c].s0, cs[c].e0, cs[c].t0, p0);
      int n1 = py_slice(7, cs[c].s1, cs[c].e1, cs[c].t1, p1);
      for (int i = 0; i < n0; i++) {
        for (int j = 0; j < n1; j++) src_i[i * n1 + j] = p0[i] * 7 + p1[j];
      }
      tu_assert_shape(t.out[0], IC_INT64, 2, TU_DIMS(n0, n1));
      ot_check_gather(t.out[0], x, src_i, (size_t)(n0 * n1));
      ot_end(&t);
    }
  }
  /* decrease_axis, and the x[-1] form */
  optest t;
  ot_begin(&t);
  ic_tensor *x = ot_iota(IC_FP32, 2, xd, 1);
  ot_feed(&t, "x", x);
  ic_builder_op *o = ot_op(&t, "strided_slice");
  ic_builder_in(o, "Input", "x");
  ic_builder_attr_ints(o, "axes", NI32(0, 1));
  ic_builder_attr_ints(o, "starts", NI32(-1, 1));
  ic_builder_attr_ints(o, "ends", NI32(0, 7));
  ic_builder_attr_ints(o, "strides", NI32(1, 3));
  ic_builder_attr_ints(o, "infer_flags", NI32(-1, 1));
  ic_builder_attr_ints(o, "decrease_axis", NI32(0));
  ot_out(&t, "Out", "out");
  ot_ok(&t);
  tu_assert_shape(t.out[0], IC_FP32, 1, TU_DIMS(2));
  ot_check_gather(t.out[0], x, (const int64_t[]){22, 25}, 2);
  ot_end(&t);
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 2, xd, 1));
  o = ot_op(&t, "strided_slice");
  ic_builder_in(o, "Input", "x");
  ic_builder_attr_ints(o, "axes", NI32(1));
  ic_builder_attr_ints(o, "starts", NI32(0));
  ic_builder_attr_ints(o, "ends", NI32(3));
  ic_builder_attr_ints(o, "strides", NI32(0));
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "strided_slice", "Input 'x'", "stride of axis 1 is 0");
  ot_end(&t);
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 2, xd, 1));
  o = ot_op(&t, "strided_slice");
  ic_builder_in(o, "Input", "x");
  ic_builder_attr_ints(o, "axes", NI32(1));
  ic_builder_attr_ints(o, "starts", NI32(0));
  ic_builder_attr_ints(o, "ends", NI32(3));
  ic_builder_attr_ints(o, "strides", NI32(1));
  ic_builder_attr_ints(o, "decrease_axis", NI32(1));
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "strided_slice", "decrease_axis names dim 1", "not 1");
  ot_end(&t);
}
END_TEST

/* ---- p_norm, flatten2 ---- */

START_TEST(p_norm_orders) {
  const double ps[] = {2, 1, 3.5, INFINITY, -INFINITY, 0};
  const int64_t xd[] = {2, 3, 4};
  for (size_t pi = 0; pi < 6; pi++) {
    for (int mode = 0; mode < 3; mode++) { /* axis 1; axis -1 keepdim; asvector */
      optest t;
      ot_begin(&t);
      ic_tensor *x = ew_rand(IC_FP64, 3, xd, pi * 3 + (size_t)mode, -2, 2);
      ((double *)ic_tensor_data(x))[5] = 0;
      ot_feed(&t, "x", x);
      ic_builder_op *o = ot_op(&t, "p_norm");
      ic_builder_in(o, "X", "x");
      ic_builder_attr_float(o, "porder", (float)ps[pi]);
      ic_builder_attr_int(o, "axis", mode == 0 ? 1 : -1);
      ic_builder_attr_bool(o, "keepdim", mode == 1);
      ic_builder_attr_bool(o, "asvector", mode == 2);
      ic_builder_attr_float(o, "epsilon", 1e-12f);
      ot_out(&t, "Out", "out");
      ot_ok(&t);
      int ax = mode == 0 ? 1 : 2;
      double ref[24];
      int64_t nout = mode == 2 ? 1 : 24 / xd[ax];
      for (int64_t q = 0; q < nout; q++) {
        double acc = ps[pi] == INFINITY ? 0 : ps[pi] == -INFINITY ? INFINITY : 0;
        for (int64_t k = 0; k < 24; k++) {
          int64_t idx[3];
          ot_unravel(k, 3, xd, idx);
          if (mode != 2) {
            int64_t rest[2], m = 0;
            for (int d = 0; d < 3; d++) {
              if (d != ax) rest[m++] = idx[d];
            }
            if (rest[0] * (ax == 1 ? 4 : 3) + rest[1] != q) continue;
          }
          double v = fabs(ew_at(x, k));
          if (ps[pi] == INFINITY) acc = fmax(acc, v);
          else if (ps[pi] == -INFINITY) acc = fmin(acc, v);
          else if (ps[pi] == 0) acc += v != 0;
          else acc += pow(v, ps[pi]);
        }
        ref[q] = (ps[pi] == 0 || isinf(ps[pi])) ? acc : pow(acc, 1 / ps[pi]);
      }
      if (mode == 0) tu_assert_shape(t.out[0], IC_FP64, 2, TU_DIMS(2, 4));
      if (mode == 1) tu_assert_shape(t.out[0], IC_FP64, 3, TU_DIMS(2, 3, 1));
      if (mode == 2) tu_assert_shape(t.out[0], IC_FP64, 0, NULL);
      tu_assert_close(t.out[0], ref, (size_t)nout, 1e-12, 0);
      ot_end(&t);
    }
  }
}
END_TEST

START_TEST(flatten2_axes) {
  const int64_t xd[] = {2, 3, 4};
  for (int axis = 0; axis <= 3; axis++) {
    optest t;
    ot_begin(&t);
    ic_tensor *x = ot_iota(IC_FP32, 3, xd, 1);
    ot_feed(&t, "x", x);
    ic_builder_op *o = ot_op(&t, "flatten2");
    ic_builder_in(o, "X", "x");
    ic_builder_attr_int(o, "axis", axis);
    ot_out(&t, "Out", "out");
    ot_xshape(&t, "xs", "xs_dims");
    ot_ok(&t);
    ot_check_same_data(t.out[0], x, 2, TU_DIMS(ot_numel(axis, xd), ot_numel(3 - axis, xd + axis)));
    ot_check_i32(t.out[1], 4, TU_DIMS(0, 2, 3, 4));
    ot_end(&t);
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 3, xd, 1));
  ic_builder_op *o = ot_op(&t, "flatten2");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_int(o, "axis", 4);
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "flatten2", "X 'x'", "'axis' is 4");
  ot_end(&t);
}
END_TEST

/* fluid's flatten: flatten2 without XShape (no Paddle wheel registers it any more). */
START_TEST(flatten_v1_axes) {
  const int64_t xd[] = {2, 3, 4};
  for (int axis = 0; axis <= 3; axis++) {
    optest t;
    ot_begin(&t);
    ic_tensor *x = ot_iota(IC_FP32, 3, xd, 1);
    ot_feed(&t, "x", x);
    ic_builder_op *o = ot_op(&t, "flatten");
    ic_builder_in(o, "X", "x");
    ic_builder_attr_int(o, "axis", axis);
    ot_out(&t, "Out", "out");
    ot_ok(&t);
    ot_check_same_data(t.out[0], x, 2, TU_DIMS(ot_numel(axis, xd), ot_numel(3 - axis, xd + axis)));
    ot_end(&t);
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 3, xd, 1));
  ic_builder_op *o = ot_op(&t, "flatten");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_int(o, "axis", -1);
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "flatten", "X 'x'", "'axis' is -1");
  ot_end(&t);
}
END_TEST

/* ---- assign_value: every source of values ---- */

START_TEST(assign_value_sources) {
  for (int mode = 0; mode < 5; mode++) {
    optest t;
    ot_begin(&t);
    ic_builder_op *o = ot_op(&t, "assign_value");
    ic_builder_attr_ints(o, "shape", NI32(2, 2));
    static const int dts[] = {5, 6, 2, 3, 0};
    ic_builder_attr_int(o, "dtype", dts[mode]);
    double want[4] = {1.5, -2.25, 3, 1e10};
    switch (mode) {
      case 0:
        ic_builder_attr_floats(o, "fp32_values", 4, (const float[]){1.5f, -2.25f, 3, 1e10f});
        break;
      case 1: ic_builder_attr_doubles(o, "fp64_values", 4, want); break;
      case 2:
        ic_builder_attr_ints(o, "int32_values", NI32(7, -8, INT32_MAX, INT32_MIN));
        want[0] = 7, want[1] = -8, want[2] = INT32_MAX, want[3] = INT32_MIN;
        break;
      case 3:
        ic_builder_attr_longs(o, "int64_values", 4, (const int64_t[]){1ll << 40, -5, 0, 9});
        want[0] = 1099511627776.0, want[1] = -5, want[2] = 0, want[3] = 9;
        break;
      default:
        ic_builder_attr_bools(o, "bool_values", 4, (const bool[]){true, false, false, true});
        want[0] = 1, want[1] = 0, want[2] = 0, want[3] = 1;
        break;
    }
    ot_out(&t, "Out", "out");
    ot_ok(&t);
    tu_assert_shape(t.out[0], (ic_dtype)dts[mode], 2, TU_DIMS(2, 2));
    tu_assert_close(t.out[0], want, 4, mode == 0 ? 1e-7 : 0, 0);
    ot_end(&t);
  }
  optest t;
  ot_begin(&t);
  ic_builder_op *o = ot_op(&t, "assign_value");
  ic_builder_attr_ints(o, "shape", NI32(3));
  ic_builder_attr_int(o, "dtype", 5);
  ic_builder_attr_floats(o, "fp32_values", 2, (const float[]){1, 2});
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_INVALID_PROGRAM, "assign_value", "2 values", "3 elements");
  ot_end(&t);
}
END_TEST

/* ---- set_value ---- */

START_TEST(set_value_slices) {
  const int64_t xd[] = {3, 4};
  for (int mode = 0; mode < 3; mode++) {
    /* 0: typed fp32_values [1] into x[::2, 1:3]; 1: ValueTensor [2] into x[-1, ::-2] with the
     * row decreased; 2: ValueTensor [2, 1] with none_axes into x[1:3, 0] decreased */
    optest t;
    ot_begin(&t);
    ic_tensor *x = ot_iota(IC_FP32, 2, xd, 1);
    ot_feed(&t, "x", x);
    if (mode == 1) ot_feed(&t, "v", tu_f32(1, TU_DIMS(2), (const float[]){-1, -2}));
    if (mode == 2) ot_feed(&t, "v", tu_f32(2, TU_DIMS(2, 1), (const float[]){-3, -4}));
    ic_builder_op *o = ot_op(&t, "set_value");
    ic_builder_in(o, "Input", "x");
    if (mode) ic_builder_in(o, "ValueTensor", "v");
    ic_builder_attr_int(o, "dtype", 5);
    if (mode == 0) {
      ic_builder_attr_ints(o, "axes", NI32(0, 1));
      ic_builder_attr_ints(o, "starts", NI32(0, 1));
      ic_builder_attr_ints(o, "ends", NI32(100, 3));
      ic_builder_attr_ints(o, "steps", NI32(2, 1));
      ic_builder_attr_ints(o, "shape", NI32(1));
      ic_builder_attr_floats(o, "fp32_values", 1, (const float[]){9.5f});
    } else if (mode == 1) {
      ic_builder_attr_ints(o, "axes", NI32(0, 1));
      ic_builder_attr_ints(o, "starts", NI32(-1, -1));
      ic_builder_attr_ints(o, "ends", NI32(3, -100));
      ic_builder_attr_ints(o, "steps", NI32(1, -2));
      ic_builder_attr_ints(o, "decrease_axes", NI32(0));
    } else {
      ic_builder_attr_ints(o, "axes", NI32(0, 1));
      ic_builder_attr_ints(o, "starts", NI32(1, 0));
      ic_builder_attr_ints(o, "ends", NI32(3, 1));
      ic_builder_attr_ints(o, "decrease_axes", NI32(1));
      ic_builder_attr_ints(o, "none_axes", NI32(1));
    }
    ot_out(&t, "Out", "out");
    ot_ok(&t);
    double ref[12];
    for (int k = 0; k < 12; k++) ref[k] = ot_val(x, k);
    if (mode == 0) ref[1] = ref[2] = ref[9] = ref[10] = 9.5;
    if (mode == 1) ref[11] = -1, ref[9] = -2;
    if (mode == 2) ref[4] = -3, ref[8] = -4;
    tu_assert_shape(t.out[0], IC_FP32, 2, xd);
    tu_assert_close(t.out[0], ref, 12, 0, 0);
    ot_end(&t);
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 2, xd, 1));
  ot_feed(&t, "v", tu_f32(1, TU_DIMS(3), (const float[]){1, 2, 3}));
  ic_builder_op *o = ot_op(&t, "set_value");
  ic_builder_in(o, "Input", "x");
  ic_builder_in(o, "ValueTensor", "v");
  ic_builder_attr_ints(o, "axes", NI32(1));
  ic_builder_attr_ints(o, "starts", NI32(0));
  ic_builder_attr_ints(o, "ends", NI32(2));
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "set_value", "ValueTensor 'v'", "does not broadcast", "[3, 2]");
  ot_end(&t);
}
END_TEST

/* ------------------------------------------------- max_pool2d_with_index, unpool, crop_tensor,
 * scatter_nd_add, put_along_axis (checked against the Paddle oracle; here the modes the
 * oracle lacks and the errors) */

/* ceil_mode windows (the last one holds a single row or column) and unpool's default size
 * (H - 1) * stride - 2 * padding + ksize, on a map whose values are their own flat index. */
START_TEST(pool_with_index_unpool_hand_checked) {
  optest t;
  ot_begin(&t);
  float xv[25];
  for (int i = 0; i < 25; i++) xv[i] = (float)i;
  ot_feed(&t, "x", tu_f32(4, TU_DIMS(1, 1, 5, 5), xv));
  ot_op(&t, "max_pool2d_with_index");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_ints(t.op, "ksize", 2, (const int32_t[]){2, 2});
  ic_builder_attr_ints(t.op, "strides", 2, (const int32_t[]){2, 2});
  ic_builder_attr_ints(t.op, "paddings", 2, (const int32_t[]){0, 0});
  ic_builder_attr_bool(t.op, "ceil_mode", true);
  ot_out(&t, "Out", "out");
  ot_out(&t, "Mask", "mask");
  ot_op(&t, "unpool");
  ic_builder_in(t.op, "X", "out");
  ic_builder_in(t.op, "Indices", "mask");
  ic_builder_attr_string(t.op, "unpooling_type", "max");
  ic_builder_attr_ints(t.op, "ksize", 2, (const int32_t[]){2, 2});
  ic_builder_attr_ints(t.op, "strides", 2, (const int32_t[]){2, 2});
  ot_out(&t, "Out", "up");
  ot_ok(&t);
  const int64_t want[9] = {6, 8, 9, 16, 18, 19, 21, 23, 24};
  ck_assert_int_eq(ic_tensor_dtype(t.out[1]), IC_INT32);
  ck_assert_int_eq(ic_tensor_numel(t.out[0]), 9);
  for (int i = 0; i < 9; i++) {
    ck_assert_double_eq(ot_val(t.out[0], i), (double)want[i]);
    ck_assert_double_eq(ot_val(t.out[1], i), (double)want[i]);
  }
  ck_assert_int_eq(ic_tensor_numel(t.out[2]), 36); /* 6 x 6 */
  for (int64_t k = 0, j = 0; k < 36; k++) {
    const bool hit = j < 9 && want[j] == k;
    ck_assert_double_eq(ot_val(t.out[2], k), hit ? (double)k : 0.0);
    j += hit;
  }
  ot_end(&t);
}
END_TEST

static void pwi_bad(int nd, const int64_t *dims, const int32_t *ksize, size_t nk,
                    const int32_t *strides, const char *n1, const char *n2) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(nd, dims, 3, -1, 1));
  ot_op(&t, "max_pool2d_with_index");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_ints(t.op, "ksize", nk, ksize);
  ic_builder_attr_ints(t.op, "strides", 2, strides);
  ot_out(&t, "Out", "out");
  ot_out(&t, "Mask", "mask");
  ck_assert_int_ne(ot_run(&t), IC_OK);
  tu_assert_msg(t.err, "max_pool2d_with_index", n1, n2, NULL);
  ot_end(&t);
}

static void unpool_bad(const int64_t *idims, const int32_t *idx, const char *type, const char *n1,
                       const char *n2) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(4, TU_DIMS(1, 1, 2, 2), 4, -1, 1));
  ot_feed(&t, "idx", tu_i32(4, idims, idx));
  ot_op(&t, "unpool");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "Indices", "idx");
  ic_builder_attr_string(t.op, "unpooling_type", type);
  ic_builder_attr_ints(t.op, "ksize", 2, (const int32_t[]){2, 2});
  ic_builder_attr_ints(t.op, "strides", 2, (const int32_t[]){2, 2});
  ic_builder_attr_ints(t.op, "output_size", 2, (const int32_t[]){3, 3});
  ot_out(&t, "Out", "out");
  ck_assert_int_ne(ot_run(&t), IC_OK);
  tu_assert_msg(t.err, "unpool", n1, n2, NULL);
  ot_end(&t);
}

START_TEST(pool_with_index_unpool_errors) {
  const int32_t k2[] = {2, 2}, s1[] = {1, 1}, s0[] = {0, 1};
  pwi_bad(4, TU_DIMS(1, 1, 4, 4), (const int32_t[]){2, 2, 2}, 3, s1, "'ksize'", "has 3 values");
  pwi_bad(4, TU_DIMS(1, 1, 4, 4), k2, 2, s0, "'strides'", "holds 0, expected > 0");
  pwi_bad(3, TU_DIMS(1, 4, 4), k2, 2, s1, "'x'", "rank 4");
  pwi_bad(4, TU_DIMS(1, 1, 1, 4), (const int32_t[]){3, 3}, 2, s1, "'x'", "too small for ksize 3");
  const int32_t ok[] = {0, 3, 8, 4}, far[] = {0, 3, 8, 9}, neg[] = {0, -1, 8, 4};
  unpool_bad(TU_DIMS(1, 1, 2, 2), far, "max", "'idx'", "entry 3 is 9, expected in [0, 9)");
  unpool_bad(TU_DIMS(1, 1, 2, 2), neg, "max", "'idx'", "entry 1 is -1, expected in [0, 9)");
  unpool_bad(TU_DIMS(1, 1, 2, 2), ok, "avg", "'unpooling_type'", "expected \"max\"");
  unpool_bad(TU_DIMS(1, 1, 4, 1), ok, "max", "'idx'", "expected X's dims");
}
END_TEST

static void crop_bad(const int64_t *shape, size_t ns, const int64_t *offs, const char *n1,
                     const char *n2) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(2, TU_DIMS(3, 4), 5, -1, 1));
  ot_op(&t, "crop_tensor");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_longs(t.op, "shape", ns, shape);
  ic_builder_attr_longs(t.op, "offsets", 2, offs);
  ot_out(&t, "Out", "out");
  ck_assert_int_ne(ot_run(&t), IC_OK);
  tu_assert_msg(t.err, "crop_tensor", n1, n2, NULL);
  ot_end(&t);
}

START_TEST(crop_tensor_errors) {
  crop_bad((const int64_t[]){2, -1}, 2, (const int64_t[]){2, 1}, "'x'",
           "dim 0 of size 3 cannot hold a crop of 2 at offset 2");
  crop_bad((const int64_t[]){0, 2}, 2, (const int64_t[]){0, 0}, "attribute 'shape'",
           "expected > 0 or -1");
  crop_bad((const int64_t[]){2}, 1, (const int64_t[]){0, 0}, "attribute 'shape' gives 1 values",
           "one per dim");
  crop_bad((const int64_t[]){1, 1}, 2, (const int64_t[]){0, -1}, "attribute 'offsets'",
           "expected >= 0");
  /* -1: to the end from the offset */
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_INT64, 2, TU_DIMS(3, 4), 1));
  ot_op(&t, "crop_tensor");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_longs(t.op, "shape", 2, (const int64_t[]){-1, 2});
  ic_builder_attr_longs(t.op, "offsets", 2, (const int64_t[]){1, 2});
  ot_out(&t, "Out", "out");
  ot_ok(&t);
  ck_assert_int_eq(ic_tensor_numel(t.out[0]), 4);
  const int64_t src[4] = {6, 7, 10, 11};
  for (int i = 0; i < 4; i++) ck_assert_double_eq(ot_val(t.out[0], i), ot_val(t.feeds[0], src[i]));
  ot_end(&t);
}
END_TEST

static void snd_bad(const int64_t *idims, int ni, const int64_t *idx, const int64_t *udims,
                    int nu, const char *n1, const char *n2) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(2, TU_DIMS(3, 2), 6, -1, 1));
  ot_feed(&t, "idx", tu_i64(ni, idims, idx));
  ot_feed(&t, "upd", tu_rand_f32(nu, udims, 7, -1, 1));
  ot_op(&t, "scatter_nd_add");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "Index", "idx");
  ic_builder_in(t.op, "Updates", "upd");
  ot_out(&t, "Out", "out");
  ck_assert_int_ne(ot_run(&t), IC_OK);
  tu_assert_msg(t.err, "scatter_nd_add", n1, n2, NULL);
  ot_end(&t);
}

static void paa_bad(const char *reduce, int axis, const int64_t *idx, const char *n1,
                    const char *n2) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(2, TU_DIMS(3, 2), 6, -1, 1));
  ot_feed(&t, "idx", tu_i64(2, TU_DIMS(1, 2), idx));
  ot_feed(&t, "val", tu_rand_f32(2, TU_DIMS(1, 2), 7, -1, 1));
  ot_op(&t, "put_along_axis");
  ic_builder_in(t.op, "Input", "x");
  ic_builder_in(t.op, "Index", "idx");
  ic_builder_in(t.op, "Value", "val");
  ic_builder_attr_int(t.op, "Axis", axis);
  ic_builder_attr_string(t.op, "Reduce", reduce);
  ot_out(&t, "Result", "out");
  ck_assert_int_ne(ot_run(&t), IC_OK);
  tu_assert_msg(t.err, "put_along_axis", n1, n2, NULL);
  ot_end(&t);
}

START_TEST(scatter_nd_add_put_along_axis_errors) {
  snd_bad(TU_DIMS(2, 1), 2, (const int64_t[]){0, 3}, TU_DIMS(2, 2), 2, "'idx'",
          "entry 1 (row 1, dim 0) is 3, expected in [-3, 3)");
  snd_bad(TU_DIMS(2, 1), 2, (const int64_t[]){0, -4}, TU_DIMS(2, 2), 2, "'idx'", "is -4");
  snd_bad(TU_DIMS(2, 1), 2, (const int64_t[]){0, 1}, TU_DIMS(2, 3), 2, "'upd'",
          "expected Index's dims without the last");
  snd_bad(TU_DIMS(1, 3), 2, (const int64_t[]){0, 1, 0}, TU_DIMS(1), 1, "'idx'",
          "has last dim 3, expected at most X's rank 2");
  paa_bad("median", 0, (const int64_t[]){0, 1}, "'Reduce'", "\"median\", expected \"assign\"");
  paa_bad("add", 2, (const int64_t[]){0, 1}, "'Axis' is 2", "expected in [-2, 2)");
  paa_bad("assign", 0, (const int64_t[]){0, 3}, "'idx'", "entry 1 is 3, expected in [-3, 3)");
}
END_TEST

static TCase *tc_select(void) {
  TCase *tc = tcase_create("select");
  tcase_add_test(tc, compare_broadcast);
  tcase_add_test(tc, logical_ops);
  tcase_add_test(tc, compare_errors);
  tcase_add_test(tc, where_select);
  tcase_add_test(tc, masked_fill_broadcast);
  tcase_add_test(tc, einsum_errors);
  tcase_add_test(tc, inverse_errors);
  tcase_add_test(tc, index_put_errors);
  tcase_add_test(tc, gather_table);
  tcase_add_test(tc, gather_axes);
  tcase_add_test(tc, index_select_negative);
  tcase_add_test(tc, gather_nd_depths);
  tcase_add_test(tc, stack_unstack);
  return tc;
}

static TCase *tc_repeat(void) {
  TCase *tc = tcase_create("repeat");
  tcase_add_test(tc, repeat_table);
  tcase_add_test(tc, expand_v2_sources);
  tcase_add_test(tc, expand_as_and_v1);
  tcase_add_test(tc, tile_sources);
  tcase_add_test(tc, pad_constant);
  tcase_add_test(tc, pad3d_modes);
  tcase_add_test(tc, pad2d_modes);
  tcase_add_test(tc, strided_slice_cases);
  tcase_add_test(tc, flatten2_axes);
  tcase_add_test(tc, flatten_v1_axes);
  tcase_add_test(tc, set_value_slices);
  return tc;
}

static TCase *tc_compute(void) {
  TCase *tc = tcase_create("compute");
  tcase_add_test(tc, cumsum_modes);
  tcase_add_test(tc, one_hot);
  tcase_add_test(tc, one_hot_v1);
  tcase_add_test(tc, unique_and_friends_errors);
  tcase_add_test(tc, range_values);
  tcase_add_test(tc, fill_any_like_dtypes);
  tcase_add_test(tc, sort_and_topk);
  tcase_add_test(tc, flip_reverse_meshgrid_errors);
  tcase_add_test(tc, temporal_shift_scatter_errors);
  tcase_add_test(tc, shuffle_lrn_maxout_errors);
  tcase_add_test(tc, squeeze_unsqueeze_v1);
  tcase_add_test(tc, cos_sim_rows);
  tcase_add_test(tc, gather_roll_triangle_errors);
  tcase_add_test(tc, gather_roll_triangle_empty);
  tcase_add_test(tc, isfinite_half_floats);
  tcase_add_test(tc, p_norm_orders);
  tcase_add_test(tc, assign_value_sources);
  tcase_add_test(tc, pool_with_index_unpool_hand_checked);
  tcase_add_test(tc, pool_with_index_unpool_errors);
  tcase_add_test(tc, crop_tensor_errors);
  tcase_add_test(tc, scatter_nd_add_put_along_axis_errors);
  return tc;
}

TU_MAIN("ops_index", tc_select, tc_repeat, tc_compute)
