/* Binary elementwise ops (elementwise_add/sub/mul/div/max/min/pow/floordiv/mod) over the
 * shared case table of cases_binary.h (the CUDA suite runs the same table) against a
 * reference written here: plain loops over the output index in double precision, with X
 * and Y indexed through their aligned dims as written out by hand in each case (Paddle's
 * axis rule applied on paper, not by the code under test).
 *
 * Tolerances: float32 results of + - * / are correctly rounded, so a relative 1e-6 of the
 * double reference (plus 1e-7 absolute for cancellations) bounds them; powf gets 1e-5.
 * float64 uses 1e-12; integers must match exactly. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cases_binary.h"

enum { ADD = CB_ADD, SUB = CB_SUB, MUL = CB_MUL, DIV = CB_DIV, MAX = CB_MAX, MIN = CB_MIN,
       POW = CB_POW, FLOORDIV = CB_FLOORDIV, MOD = CB_MOD, N_OPS = CB_N_OPS };
#define k_types cb_types

/* Python's // and %, written from their definitions. */
static double py_floordiv(double a, double b) { return floor(a / b); }
static double py_mod(double a, double b) { return a - b * floor(a / b); }

static double ref_float(int op, double a, double b) {
  switch (op) {
    case ADD: return a + b;
    case SUB: return a - b;
    case MUL: return a * b;
    case DIV: return a / b;
    case MAX: return a > b ? a : b;
    case MIN: return a < b ? a : b;
    case FLOORDIV: return py_floordiv(a, b);
    case MOD: return py_mod(a, b);
    default: return pow(a, b);
  }
}

/* Integer semantics: truncating division, pow through double truncated, 0^-n = 0. */
static double ref_int(int op, int64_t a, int64_t b) {
  switch (op) {
    case ADD: return (double)(a + b);
    case SUB: return (double)(a - b);
    case MUL: return (double)(a * b);
    case DIV: return (double)(a / b);
    case MAX: return (double)(a > b ? a : b);
    case MIN: return (double)(a < b ? a : b);
    case FLOORDIV: return py_floordiv((double)a, (double)b);
    case MOD: return py_mod((double)a, (double)b);
    default: return (a == 0 && b < 0) ? 0 : trunc(pow((double)a, (double)b));
  }
}

/* Strides of the aligned dims, 0 where the operand is broadcast (its dim is 1). */
static void bstrides(int R, const int64_t *aligned, int64_t *st) {
  int64_t acc = 1;
  for (int d = R - 1; d >= 0; d--) {
    st[d] = aligned[d] == 1 ? 0 : acc;
    acc *= aligned[d];
  }
}

static double *reference(int op, const ic_tensor *x, const int64_t *xa, const ic_tensor *y,
                         const int64_t *ya, int R, const int64_t *od) {
  int64_t n = 1, sx[8], sy[8], idx[8];
  for (int d = 0; d < R; d++) n *= od[d];
  bstrides(R, xa, sx);
  bstrides(R, ya, sy);
  double *ref = calloc((size_t)(n ? n : 1), sizeof *ref);
  bool is_int = ic_tensor_dtype(x) == IC_INT32 || ic_tensor_dtype(x) == IC_INT64;
  for (int64_t k = 0; k < n; k++) {
    int64_t rem = k, xi = 0, yi = 0;
    for (int d = R - 1; d >= 0; d--) {
      idx[d] = rem % od[d];
      rem /= od[d];
      xi += idx[d] * sx[d];
      yi += idx[d] * sy[d];
    }
    double a = ew_at(x, xi), b = ew_at(y, yi);
    ref[k] = is_int ? ref_int(op, (int64_t)a, (int64_t)b) : ref_float(op, a, b);
  }
  return ref;
}

static ic_builder *binary_program(int op, const ic_tensor *x, const ic_tensor *y, int axis,
                                  bool set_axis) {
  return cb_program(op, x, y, axis, set_axis);
}

static ic_status run_binary(int op, ic_tensor *x, ic_tensor *y, int axis, ic_tensor **out,
                            char *err, size_t errlen) {
  ic_builder *b = binary_program(op, x, y, axis, true);
  ic_status st = ew_run(b, 2, TU_NAMES("x", "y"), (ic_tensor *const[]){x, y}, out, err, errlen);
  ic_builder_destroy(b);
  return st;
}

typedef cb_case bcase;
#define k_cases cb_cases

static void check_case(const bcase *c, int op, ic_dtype dt, uint64_t seed) {
  ic_tensor *x, *y;
  cb_inputs(c, op, dt, seed, &x, &y);
  ic_tensor *out[1];
  char err[1024];
  ic_status st = run_binary(op, x, y, c->axis, out, err, sizeof err);
  ck_assert_msg(st == IC_OK, "%s x rank %d y rank %d axis %d: %s", k_types[op], c->rx, c->ry,
                c->axis, err);
  tu_assert_shape(out[0], dt, c->R, c->od);
  double *ref = reference(op, x, c->xa, y, c->ya, c->R, c->od);
  double rtol = dt == IC_FP32 ? (op == POW ? 1e-5 : 1e-6) : dt == IC_FP64 ? 1e-12 : 0;
  double atol = dt == IC_FP32 ? 1e-7 : dt == IC_FP64 ? 1e-14 : 0;
  tu_assert_close(out[0], ref, (size_t)ic_tensor_numel(out[0]), rtol, atol);
  free(ref);
  ic_tensor_destroy(out[0]);
  ic_tensor_destroy(x);
  ic_tensor_destroy(y);
}

START_TEST(broadcast_float32) {
  for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
    for (int op = 0; op < N_OPS; op++) check_case(&k_cases[i], op, IC_FP32, i * 7 + (size_t)op);
  }
}
END_TEST

/* bool add (or) and mul (and) over every broadcast case, against the truth table; the input
 * bytes include 2 and 255, which count as true. */
START_TEST(broadcast_bool) {
  for (size_t i = 0; i < CB_N_CASES; i++) {
    const cb_case *c = &cb_cases[i];
    for (int op = ADD; op <= MUL; op += MUL - ADD) {
      ic_tensor *x, *y, *out[1];
      cb_bool_inputs(c, 40 + i, &x, &y);
      char err[1024];
      ic_status st = run_binary(op, x, y, c->axis, out, err, sizeof err);
      ck_assert_msg(st == IC_OK, "%s bool case %zu: %s", k_types[op], i, err);
      tu_assert_shape(out[0], IC_BOOL, c->R, c->od);
      int64_t n = 1, sx[8], sy[8];
      for (int d = 0; d < c->R; d++) n *= c->od[d];
      bstrides(c->R, c->xa, sx);
      bstrides(c->R, c->ya, sy);
      const uint8_t *px = ic_tensor_data(x), *py = ic_tensor_data(y), *po = ic_tensor_data(out[0]);
      for (int64_t k = 0; k < n; k++) {
        int64_t rem = k, xi = 0, yi = 0;
        for (int d = c->R - 1; d >= 0; d--) {
          xi += rem % c->od[d] * sx[d];
          yi += rem % c->od[d] * sy[d];
          rem /= c->od[d];
        }
        const bool a = px[xi] != 0, b = py[yi] != 0;
        ck_assert_msg(po[k] == (op == ADD ? (a || b) : (a && b)),
                      "%s bool case %zu element %lld: %d from %d, %d", k_types[op], i,
                      (long long)k, po[k], px[xi], py[yi]);
      }
      ic_tensor_destroy(out[0]);
      ic_tensor_destroy(x);
      ic_tensor_destroy(y);
    }
  }
}
END_TEST

START_TEST(broadcast_float64) {
  for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
    for (int op = 0; op < N_OPS; op++) check_case(&k_cases[i], op, IC_FP64, i * 5 + (size_t)op);
  }
}
END_TEST

/* Outputs large enough (>= 65536 elements) for the CPU kernels to split them across their
 * threads (ic_bcast_run): within one row, mid-row with Y one value per row, X one value per
 * row. run_binary's executors at 2 and 4 threads must give the uncompiled run's bits. */
START_TEST(split_across_threads) {
  static const bcase big[] = {
      {1, {70001}, 1, {70001}, -1, 1, {70001}, {70001}, {70001}},
      {3, {3, 37, 701}, 2, {37, 1}, 1, 3, {3, 37, 701}, {1, 37, 1}, {3, 37, 701}},
      {2, {111, 1}, 2, {111, 701}, -1, 2, {111, 1}, {111, 701}, {111, 701}},
  };
  for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
    check_case(&big[i], CB_SUB, IC_FP32, 900 + i);
    check_case(&big[i], CB_DIV, IC_FP64, 910 + i);
  }
}
END_TEST

START_TEST(broadcast_int) {
  for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
    for (int op = 0; op < N_OPS; op++) {
      check_case(&k_cases[i], op, IC_INT32, i * 3 + (size_t)op);
      check_case(&k_cases[i], op, IC_INT64, i * 11 + (size_t)op);
    }
  }
}
END_TEST

/* The default axis (attribute absent) is -1. */
START_TEST(default_axis) {
  ic_tensor *x = ew_rand(IC_FP32, 3, TU_DIMS(2, 3, 4), 1, -1, 1);
  ic_tensor *y = ew_rand(IC_FP32, 1, TU_DIMS(4), 2, -1, 1);
  ic_builder *b = binary_program(ADD, x, y, 0, false);
  ic_tensor *out[1];
  char err[1024];
  ck_assert_msg(ew_run(b, 2, TU_NAMES("x", "y"), (ic_tensor *const[]){x, y}, out, err,
                       sizeof err) == IC_OK, "%s", err);
  double *ref = reference(ADD, x, TU_DIMS(2, 3, 4), y, TU_DIMS(1, 1, 4), 3, TU_DIMS(2, 3, 4));
  tu_assert_close(out[0], ref, 24, 1e-6, 1e-7);
  free(ref);
  ic_tensor_destroy(out[0]);
  ic_tensor_destroy(x);
  ic_tensor_destroy(y);
  ic_builder_destroy(b);
}
END_TEST

static ic_tensor *run_i32(int op, const int32_t *xv, const int32_t *yv, int64_t n) {
  ic_tensor *x = tu_i32(1, TU_DIMS(n), xv), *y = tu_i32(1, TU_DIMS(n), yv), *out[1];
  char err[1024];
  ck_assert_msg(run_binary(op, x, y, -1, out, err, sizeof err) == IC_OK, "%s", err);
  ic_tensor_destroy(x);
  ic_tensor_destroy(y);
  return out[0];
}

/* Integer corner cases: truncating division of negatives, INT_MIN / -1 and overflow wrap,
 * pow with negative exponents and bases. */
START_TEST(integer_semantics) {
  ic_tensor *o = run_i32(DIV, (const int32_t[]){7, -7, 7, -7, 0, INT32_MIN},
                         (const int32_t[]){2, 2, -2, -2, 3, -1}, 6);
  tu_assert_close(o, (const double[]){3, -3, -3, 3, 0, INT32_MIN}, 6, 0, 0);
  ic_tensor_destroy(o);
  o = run_i32(ADD, (const int32_t[]){INT32_MAX, INT32_MIN}, (const int32_t[]){1, -1}, 2);
  tu_assert_close(o, (const double[]){INT32_MIN, INT32_MAX}, 2, 0, 0);
  ic_tensor_destroy(o);
  o = run_i32(MUL, (const int32_t[]){65536, -3}, (const int32_t[]){65536, 5}, 2);
  tu_assert_close(o, (const double[]){0, -15}, 2, 0, 0);
  ic_tensor_destroy(o);
  o = run_i32(POW, (const int32_t[]){2, 2, 3, -2, 0, 1, -1, 0, 2},
              (const int32_t[]){3, -1, 2, 3, -1, -5, -3, 0, 40}, 9);
  tu_assert_close(o, (const double[]){8, 0, 9, -8, 0, 1, -1, 1, INT32_MIN}, 9, 0, 0);
  ic_tensor_destroy(o);
  /* int64 keeps values beyond 2^53 in add */
  ic_tensor *x = tu_i64(1, TU_DIMS(2), (const int64_t[]){(1ll << 60) + 1, INT64_MAX});
  ic_tensor *y = tu_i64(1, TU_DIMS(2), (const int64_t[]){2, 1}), *out[1];
  char err[1024];
  ck_assert_msg(run_binary(ADD, x, y, -1, out, err, sizeof err) == IC_OK, "%s", err);
  const int64_t *d = ic_tensor_cdata(out[0]);
  ck_assert(d[0] == (1ll << 60) + 3 && d[1] == INT64_MIN);
  ic_tensor_destroy(out[0]);
  ic_tensor_destroy(x);
  ic_tensor_destroy(y);
}
END_TEST

/* max and min return a NaN operand; float division by zero is IEEE. */
START_TEST(float_special_values) {
  float nan = NAN, inf = INFINITY;
  ic_tensor *x = tu_f32(1, TU_DIMS(4), (const float[]){nan, 1, 2, -1});
  ic_tensor *y = tu_f32(1, TU_DIMS(4), (const float[]){1, nan, 3, 0}), *out[1];
  char err[1024];
  ck_assert_msg(run_binary(MAX, x, y, -1, out, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_close(out[0], (const double[]){nan, nan, 3, 0}, 4, 0, 0);
  ic_tensor_destroy(out[0]);
  ck_assert_msg(run_binary(MIN, x, y, -1, out, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_close(out[0], (const double[]){nan, nan, 2, -1}, 4, 0, 0);
  ic_tensor_destroy(out[0]);
  ck_assert_msg(run_binary(DIV, x, y, -1, out, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_close(out[0], (const double[]){nan, nan, 2.0 / 3.0, -inf}, 4, 1e-6, 0);
  ic_tensor_destroy(out[0]);
  ic_tensor_destroy(x);
  ic_tensor_destroy(y);
}
END_TEST

static void expect_fail(int op, ic_tensor *x, ic_tensor *y, int axis, ic_status code,
                        const char *n1, const char *n2, const char *n3, const char *n4) {
  ic_tensor *out[1];
  char err[1024];
  ic_status st = run_binary(op, x, y, axis, out, err, sizeof err);
  ck_assert_msg(st == code, "%s: status %s, expected %s: %s", k_types[op], ic_status_name(st),
                ic_status_name(code), err);
  tu_assert_msg(err, k_types[op], n1, n2, n3, n4, NULL);
}

START_TEST(bad_inputs) {
  ic_tensor *x = ew_rand(IC_FP32, 2, TU_DIMS(2, 3), 1, 0, 1);
  ic_tensor *y4 = ew_rand(IC_FP32, 1, TU_DIMS(4), 2, 0, 1);
  /* shapes that do not broadcast: the message names both inputs and their shapes */
  expect_fail(ADD, x, y4, -1, IC_ERR_SHAPE, "X 'x' float32[2, 3]", "Y 'y' float32[4]",
              "dim 1 is 3 in X and 4 in Y", "axis -1");
  ic_tensor *y23 = ew_rand(IC_FP32, 2, TU_DIMS(2, 4), 2, 0, 1);
  expect_fail(MUL, x, y23, -1, IC_ERR_SHAPE, "X 'x' float32[2, 3]", "Y 'y' float32[2, 4]",
              "dim 1", "do not broadcast");
  /* equal ranks take axis -1 or 0 only */
  ic_tensor *y21 = ew_rand(IC_FP32, 2, TU_DIMS(2, 1), 2, 0, 1);
  expect_fail(SUB, x, y21, 1, IC_ERR_SHAPE, "'x'", "'y'", "axis 1", "-1 or 0");
  /* axis out of range, and a placement that runs past the end */
  ic_tensor *y3 = ew_rand(IC_FP32, 1, TU_DIMS(3), 2, 0, 1);
  expect_fail(ADD, x, y3, 2, IC_ERR_SHAPE, "'x'", "'y'", "axis 2", "-1 or in [0, 2)");
  /* negative axes other than -1 fail in Paddle's kernels too */
  expect_fail(ADD, x, y3, -2, IC_ERR_SHAPE, "'x'", "'y'", "axis -2", "-1 or in [0, 2)");
  ic_tensor *y32 = ew_rand(IC_FP32, 2, TU_DIMS(3, 2), 2, 0, 1);
  ic_tensor *x3 = ew_rand(IC_FP32, 3, TU_DIMS(2, 3, 4), 2, 0, 1);
  expect_fail(ADD, x3, y32, 2, IC_ERR_SHAPE, "'x' float32[2, 3, 4]", "'y' float32[3, 2]",
              "rank-2", "dim 2");
  /* dtypes: unequal, or not supported */
  ic_tensor *yd = ew_rand(IC_FP64, 2, TU_DIMS(2, 3), 2, 0, 1);
  expect_fail(ADD, x, yd, -1, IC_ERR_SHAPE, "X 'x' float32[2, 3]", "Y 'y' float64[2, 3]",
              "same dtype", "'x'");
  ic_tensor *xb, *yb;
  ck_assert_int_eq(ic_tensor_create(IC_BOOL, 1, TU_DIMS(2), &xb), IC_OK);
  ck_assert_int_eq(ic_tensor_create(IC_BOOL, 1, TU_DIMS(2), &yb), IC_OK);
  /* bool: add and mul only (Paddle registers no other bool kernel) */
  expect_fail(SUB, xb, yb, -1, IC_ERR_SHAPE, "X 'x'", "bool[2]", "expected dtype", "float32");
  expect_fail(MAX, xb, yb, -1, IC_ERR_SHAPE, "X 'x'", "bool[2]", "expected dtype", "float32");
  /* integer division by zero */
  ic_tensor *xi = tu_i32(1, TU_DIMS(3), (const int32_t[]){1, 2, 3});
  ic_tensor *yi = tu_i32(1, TU_DIMS(3), (const int32_t[]){1, 0, 3});
  expect_fail(DIV, xi, yi, -1, IC_ERR_INVALID_ARGUMENT, "Y 'y'", "division by zero", "'y'",
              "0");
  ic_tensor *all[] = {x, y4, y23, y21, y3, y32, x3, yd, xb, yb, xi, yi};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) ic_tensor_destroy(all[i]);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * The squeeze-excitation rewrite (fuse.c, CPU plans): elementwise_mul(x, s) -> m then
 * elementwise_add(x, m) (or (m, x)) becomes one ic_scale_residual, bitwise the unfused result
 * (fuse off, compiled and uncompiled), at 1 and 2 threads, float32 and float64, s [N,C,1,1]
 * or [C] with axis 1. Not rewritten when m is fetched too, or the add's other operand is not x.
 * ------------------------------------------------------------------------------------- */

typedef struct se_case {
  ic_dtype dt;
  bool s_vec;       /* s is [C] with axis 1, else [N, C, 1, 1] */
  bool m_first;     /* elementwise_add(m, x) */
  bool fetch_m;     /* m is fetched as well: no rewrite */
  bool other_add;   /* the add takes another tensor: no rewrite */
} se_case;

/* Run with the rewrites at `threads`; the number of ic_scale_residual instructions. */
static size_t se_run(ic_program *p, ic_scope *params, size_t n_feeds, const char **feeds,
                     ic_tensor **fv, size_t n_fetch, const char **fetch, int threads,
                     ic_tensor **out) {
  static const char *const type[] = {"ic_scale_residual"};
  size_t n;
  tu_run_rewritten(p, params, n_feeds, feeds, fv, n_fetch, fetch, threads, out, 1, type, &n);
  return n;
}

/* Uniform values in [lo, hi) of dtype dt (float64: the float32 draw widened). */
static ic_tensor *se_rand(ic_dtype dt, int ndim, const int64_t *dims, uint64_t seed) {
  ic_tensor *t = tu_rand_f32(ndim, dims, seed, -2, 2);
  if (dt != IC_FP64) return t;
  int64_t n = ic_tensor_numel(t);
  double *v = malloc((size_t)n * sizeof *v);
  for (int64_t i = 0; i < n; i++) v[i] = ((const float *)ic_tensor_cdata(t))[i];
  ic_tensor *d = tu_f64(ndim, dims, v);
  free(v);
  ic_tensor_destroy(t);
  return d;
}

static void se_check(const se_case *k) {
  ic_builder *b = ic_builder_create();
  const int64_t xd[4] = {2, 8, 5, 7};
  tu_var(b, "x", k->dt, 4, xd);
  tu_var(b, "z", k->dt, 4, xd);
  if (k->s_vec) tu_var(b, "s", k->dt, 1, TU_DIMS(8));
  else tu_var(b, "s", k->dt, 4, TU_DIMS(2, 8, 1, 1));
  tu_var(b, "m", k->dt, 4, xd);
  tu_var(b, "y", k->dt, 4, xd);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "s");
  ic_builder_feed(b, "z");
  ic_builder_op *op = ic_builder_add_op(b, 0, "elementwise_mul");
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Y", "s");
  ic_builder_out(op, "Out", "m");
  ic_builder_attr_int(op, "axis", k->s_vec ? 1 : -1);
  op = ic_builder_add_op(b, 0, "elementwise_add");
  const char *other = k->other_add ? "z" : "x";
  ic_builder_in(op, "X", k->m_first ? "m" : other);
  ic_builder_in(op, "Y", k->m_first ? other : "m");
  ic_builder_out(op, "Out", "y");
  ic_builder_attr_int(op, "axis", -1);
  ic_builder_fetch(b, "y");
  if (k->fetch_m) ic_builder_fetch(b, "m");
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  ic_scope *params;
  ck_assert_int_eq(ic_scope_create(NULL, &params), IC_OK);
  ic_tensor *fv[3];
  const int64_t sd4[4] = {2, 8, 1, 1}, sd1[1] = {8};
  fv[0] = se_rand(k->dt, 4, xd, 3);
  fv[1] = k->s_vec ? se_rand(k->dt, 1, sd1, 4) : se_rand(k->dt, 4, sd4, 4);
  fv[2] = se_rand(k->dt, 4, xd, 5);
  const char *feeds[3] = {"x", "s", "z"}, *fetch[2] = {"y", "m"};
  size_t n_fetch = k->fetch_m ? 2 : 1;
  ic_tensor *ref[2], *f1[2], *f2[2];
  ck_assert_msg(
      tu_run_scope(p, params, 3, feeds, fv, n_fetch, fetch, ref, err, sizeof err) == IC_OK, "%s",
      err);
  size_t n1 = se_run(p, params, 3, feeds, fv, n_fetch, fetch, 1, f1);
  size_t n2 = se_run(p, params, 3, feeds, fv, n_fetch, fetch, 2, f2);
  bool want = !k->fetch_m && !k->other_add;
  ck_assert_msg(n1 == (size_t)want && n2 == (size_t)want, "%zu, %zu ic_scale_residual, expected %d",
                n1, n2, want);
  for (size_t i = 0; i < n_fetch; i++) {
    tu_assert_bitwise(f1[i], ref[i], "fused, 1 thread, against unfused");
    tu_assert_bitwise(f2[i], ref[i], "fused, 2 threads, against unfused");
    ic_tensor_destroy(ref[i]);
    ic_tensor_destroy(f1[i]);
    ic_tensor_destroy(f2[i]);
  }
  for (int i = 0; i < 3; i++) ic_tensor_destroy(fv[i]);
  ic_scope_destroy(params);
  ic_program_destroy(p);
}

/* Not rewritten when the declared dims cannot prove that s broadcasts onto x: here x and s
 * are both [2, 8, ?, ?], and at run time s is the larger ([2, 8, 5, 7] against x [2, 8, 1, 1]),
 * which the two ops broadcast and the fused op could not. The run must succeed and equal the
 * unfused one, and a program whose s is declared [2, 8, 1, 1] is still rewritten. */
START_TEST(scale_residual_needs_proof) {
  for (int declared_small = 0; declared_small < 2; declared_small++) {
    ic_builder *b = ic_builder_create();
    const int64_t xd[4] = {2, 8, -1, -1};
    tu_var(b, "x", IC_FP32, 4, xd);
    tu_var(b, "s", IC_FP32, 4, declared_small ? TU_DIMS(2, 8, 1, 1) : xd);
    tu_var(b, "m", IC_FP32, 4, xd);
    tu_var(b, "y", IC_FP32, 4, xd);
    ic_builder_feed(b, "x");
    ic_builder_feed(b, "s");
    ic_builder_op *op = ic_builder_add_op(b, 0, "elementwise_mul");
    ic_builder_in(op, "X", "x");
    ic_builder_in(op, "Y", "s");
    ic_builder_out(op, "Out", "m");
    ic_builder_attr_int(op, "axis", -1);
    op = ic_builder_add_op(b, 0, "elementwise_add");
    ic_builder_in(op, "X", "x");
    ic_builder_in(op, "Y", "m");
    ic_builder_out(op, "Out", "y");
    ic_builder_attr_int(op, "axis", -1);
    ic_builder_fetch(b, "y");
    ic_program *p;
    char err[1024];
    ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
    ic_builder_destroy(b);
    ic_scope *params;
    ck_assert_int_eq(ic_scope_create(NULL, &params), IC_OK);
    ic_tensor *fv[2];
    if (declared_small) {
      fv[0] = se_rand(IC_FP32, 4, TU_DIMS(2, 8, 5, 7), 3);
      fv[1] = se_rand(IC_FP32, 4, TU_DIMS(2, 8, 1, 1), 4);
    } else {
      fv[0] = se_rand(IC_FP32, 4, TU_DIMS(2, 8, 1, 1), 3);
      fv[1] = se_rand(IC_FP32, 4, TU_DIMS(2, 8, 5, 7), 4);
    }
    const char *feeds[2] = {"x", "s"}, *fetch[1] = {"y"};
    ic_tensor *ref[1], *got[1];
    ck_assert_msg(tu_run_scope(p, params, 2, feeds, fv, 1, fetch, ref, err, sizeof err) == IC_OK,
                  "%s", err);
    size_t n = se_run(p, params, 2, feeds, fv, 1, fetch, 1, got);
    ck_assert_msg(n == (size_t)declared_small, "%zu ic_scale_residual, expected %d", n,
                  declared_small);
    tu_assert_shape(got[0], IC_FP32, 4, TU_DIMS(2, 8, 5, 7));
    tu_assert_bitwise(got[0], ref[0], "fused plan against unfused");
    ic_tensor_destroy(ref[0]);
    ic_tensor_destroy(got[0]);
    ic_tensor_destroy(fv[0]);
    ic_tensor_destroy(fv[1]);
    ic_scope_destroy(params);
    ic_program_destroy(p);
  }
}
END_TEST

START_TEST(scale_residual_rewrite) {
  se_check(&(se_case){.dt = IC_FP32});
  se_check(&(se_case){.dt = IC_FP32, .s_vec = true, .m_first = true});
  se_check(&(se_case){.dt = IC_FP64, .m_first = true});
  se_check(&(se_case){.dt = IC_FP32, .fetch_m = true});
  se_check(&(se_case){.dt = IC_FP32, .other_add = true});
}
END_TEST

static TCase *tc_broadcast(void) {
  TCase *tc = tcase_create("broadcast");
  tcase_add_test(tc, broadcast_float32);
  tcase_add_test(tc, broadcast_float64);
  tcase_add_test(tc, broadcast_bool);
  tcase_add_test(tc, broadcast_int);
  tcase_add_test(tc, default_axis);
  tcase_add_test(tc, split_across_threads);
  return tc;
}

static TCase *tc_semantics(void) {
  TCase *tc = tcase_create("semantics");
  tcase_add_test(tc, integer_semantics);
  tcase_add_test(tc, float_special_values);
  tcase_add_test(tc, bad_inputs);
  tcase_add_test(tc, scale_residual_rewrite);
  tcase_add_test(tc, scale_residual_needs_proof);
  return tc;
}

TU_MAIN("ops_elementwise", tc_broadcast, tc_semantics)
