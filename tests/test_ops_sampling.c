/* The sampling ops: multinomial (shapes, the draws' distribution with and without
 * replacement, zero weights never drawn, the errors Paddle raises: negative or NaN weights, a
 * zero row, too many samples without replacement, bad rank or num_samples), randint,
 * randperm and bernoulli (ranges, frequencies, permutations, seeds, errors). tu_run checks
 * that every executor configuration draws the same values. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ew_testutil.h"

/* One run of b in the compiled executor (no configuration sweep: for many small programs). */
static ic_status ew_run_once(ic_builder *b, ic_tensor **out, char *err, size_t errlen) {
  ic_program *p;
  ic_status st = ic_builder_build(b, &p, err, errlen);
  if (st) return st;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(NULL, &e), IC_OK);
  st = ic_executor_run(e, p, NULL, 0, NULL, NULL, 1, TU_NAMES("out"), out);
  if (st) snprintf(err, errlen, "%s", ic_executor_errmsg(e));
  ic_executor_destroy(e);
  ic_program_destroy(p);
  return st;
}

static ic_builder *program(const ic_tensor *x, int64_t num_samples, bool replacement) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ic_builder_op *o = ic_builder_add_op(b, 0, "multinomial");
  ic_builder_in(o, "X", "x");
  ic_builder_out(o, "Out", "out");
  ic_builder_attr_int(o, "num_samples", num_samples);
  ic_builder_attr_bool(o, "replacement", replacement);
  ew_fetch(b, "out", IC_INT64);
  return b;
}

static ic_status draw(const ic_tensor *x, int64_t num_samples, bool replacement, ic_tensor **out,
                      char *err, size_t errlen) {
  ic_builder *b = program(x, num_samples, replacement);
  ic_status st = ew_run(b, 1, TU_NAMES("x"), (ic_tensor *const[]){(ic_tensor *)x}, out, err, errlen);
  ic_builder_destroy(b);
  return st;
}

/* With replacement: 40000 draws from each of two rows follow the weights (relative
 * frequencies within 5 standard errors), zero weights never come up, in float32 and
 * float64; a rank-1 X gives a rank-1 Out. */
START_TEST(with_replacement) {
  const double w[2][5] = {{1, 0, 3, 4, 2}, {0, 0, 5, 0, 0.5}};
  for (int dt = 0; dt < 2; dt++) {
    ic_tensor *x;
    if (dt) {
      x = tu_f64(2, TU_DIMS(2, 5), &w[0][0]);
    } else {
      float f[10];
      for (int i = 0; i < 10; i++) f[i] = (float)(&w[0][0])[i];
      x = tu_f32(2, TU_DIMS(2, 5), f);
    }
    const int64_t S = 40000;
    ic_tensor *out;
    char err[1024];
    ck_assert_msg(draw(x, S, true, &out, err, sizeof err) == IC_OK, "%s", err);
    tu_assert_shape(out, IC_INT64, 2, TU_DIMS(2, S));
    const int64_t *o = ic_tensor_cdata(out);
    for (int r = 0; r < 2; r++) {
      double sum = 0;
      int64_t count[5] = {0};
      for (int k = 0; k < 5; k++) sum += w[r][k];
      for (int64_t s = 0; s < S; s++) {
        const int64_t v = o[r * S + s];
        ck_assert_msg(v >= 0 && v < 5, "row %d sample %lld: %lld", r, (long long)s, (long long)v);
        count[v]++;
      }
      for (int k = 0; k < 5; k++) {
        const double p = w[r][k] / sum, f = (double)count[k] / (double)S;
        if (p == 0) ck_assert_msg(count[k] == 0, "row %d: zero weight %d drawn", r, k);
        ck_assert_msg(fabs(f - p) <= 5 * sqrt(p * (1 - p) / (double)S) + 1e-12,
                      "row %d category %d: frequency %g, weight share %g", r, k, f, p);
      }
    }
    ic_tensor_destroy(out);
    ic_tensor_destroy(x);
  }
  ic_tensor *x1 = tu_f32(1, TU_DIMS(3), (const float[]){0.2f, 0.3f, 0.5f}), *out;
  char err[1024];
  ck_assert_msg(draw(x1, 7, true, &out, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_shape(out, IC_INT64, 1, TU_DIMS(7));
  ic_tensor_destroy(out);
  ic_tensor_destroy(x1);
}
END_TEST

/* Without replacement: each row's samples are distinct and never a zero weight; drawing as
 * many as there are non-zero weights gives each of them once; the first draw follows the
 * weights (4000 rows of the same weights). */
START_TEST(without_replacement) {
  const int64_t R = 4000, K = 6;
  double *w = malloc((size_t)(R * K) * sizeof *w);
  const double row[6] = {0.5, 0, 2, 1, 0, 0.5};
  for (int64_t i = 0; i < R * K; i++) w[i] = row[i % K];
  ic_tensor *x = tu_f64(2, TU_DIMS(R, K), w), *out;
  char err[1024];
  ck_assert_msg(draw(x, 4, false, &out, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_shape(out, IC_INT64, 2, TU_DIMS(R, 4));
  const int64_t *o = ic_tensor_cdata(out);
  int64_t first[6] = {0};
  for (int64_t i = 0; i < R; i++) {
    bool seen[6] = {false};
    for (int s = 0; s < 4; s++) {
      const int64_t v = o[i * 4 + s];
      ck_assert(v >= 0 && v < K && row[v] != 0 && !seen[v]);
      seen[v] = true;
    }
    first[o[i * 4]]++;
  }
  for (int k = 0; k < K; k++) {
    const double p = row[k] / 4.0, f = (double)first[k] / (double)R;
    ck_assert_msg(fabs(f - p) <= 5 * sqrt(p * (1 - p) / (double)R) + 1e-12,
                  "first draws of category %d: %g, share %g", k, f, p);
  }
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  free(w);
}
END_TEST

static void expect_fail(const ic_tensor *x, int64_t num_samples, bool replacement, ic_status code,
                        const char *want1, const char *want2) {
  ic_tensor *out = NULL;
  char err[1024];
  ic_status st = draw(x, num_samples, replacement, &out, err, sizeof err);
  ck_assert_msg(st == code, "status %d, expected %d: %s", st, code, err);
  ck_assert_msg(strstr(err, want1) && strstr(err, want2), "message: %s", err);
}

START_TEST(errors) {
  ic_tensor *neg = tu_f32(2, TU_DIMS(2, 3), (const float[]){1, 2, 3, 0.5f, -1, 2});
  expect_fail(neg, 1, true, IC_ERR_INVALID_ARGUMENT, "row 1 holds -1 at category 1", "'x'");
  ic_tensor *nan = tu_f32(1, TU_DIMS(3), (const float[]){1, NAN, 3});
  expect_fail(nan, 1, true, IC_ERR_INVALID_ARGUMENT, "category 1", ">= 0");
  ic_tensor *inf = tu_f32(1, TU_DIMS(2), (const float[]){1, INFINITY});
  expect_fail(inf, 1, true, IC_ERR_INVALID_ARGUMENT, "finite", "'x'");
  ic_tensor *zero = tu_f32(2, TU_DIMS(2, 2), (const float[]){1, 1, 0, 0});
  expect_fail(zero, 1, true, IC_ERR_INVALID_ARGUMENT, "row 1 sums to 0", "> 0");
  ic_tensor *few = tu_f32(1, TU_DIMS(4), (const float[]){1, 0, 2, 0});
  expect_fail(few, 3, false, IC_ERR_INVALID_ARGUMENT, "2 non-zero weights", "num_samples (3)");
  ic_tensor *ok = NULL;
  char err[1024];
  ck_assert_msg(draw(few, 3, true, &ok, err, sizeof err) == IC_OK, "%s", err);
  ic_tensor_destroy(ok);
  ic_tensor *r3 = tu_f32(3, TU_DIMS(1, 2, 2), (const float[]){1, 1, 1, 1});
  expect_fail(r3, 1, true, IC_ERR_SHAPE, "'x'", "rank 1");
  expect_fail(few, 0, true, IC_ERR_INVALID_PROGRAM, "num_samples", "> 0");
  ic_tensor *ints = tu_i32(1, TU_DIMS(2), (const int32_t[]){1, 2});
  expect_fail(ints, 1, true, IC_ERR_SHAPE, "'x'", "int32");
  ic_tensor *all[] = {neg, nan, inf, zero, few, r3, ints};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) ic_tensor_destroy(all[i]);
}
END_TEST

/* A program of one attribute-only op (randint, randperm) fetching "out". */
static ic_tensor *run_attr_op(ic_builder *b, char *err, size_t errlen, ic_status *st) {
  ic_tensor *out = NULL;
  *st = tu_run(b, 0, NULL, NULL, 1, TU_NAMES("out"), &out, err, errlen);
  return out;
}

static ic_builder *randint_program(int64_t low, int64_t high, int64_t n, int dtype, int seed) {
  ic_builder *b = ic_builder_create();
  ic_builder_op *o = ic_builder_add_op(b, 0, "randint");
  ic_builder_out(o, "Out", "out");
  ic_builder_attr_longs(o, "shape", 2, (const int64_t[]){n / 4, 4});
  ic_builder_attr_long(o, "low", low);
  ic_builder_attr_long(o, "high", high);
  ic_builder_attr_int(o, "dtype", dtype);
  ic_builder_attr_int(o, "seed", seed);
  ew_fetch(b, "out", (ic_dtype)dtype);
  return b;
}

/* randint: every value in [low, high), each of 7 values about equally often (40000 draws,
 * 5 standard errors), int32 and int64, negative bounds, a huge int64 range; seeded runs
 * repeat; low >= high refused. */
START_TEST(randint_values) {
  char err[1024];
  ic_status st;
  for (int dt = IC_INT32; dt <= IC_INT64; dt++) {
    ic_builder *b = randint_program(-3, 4, 40000, dt, 9);
    ic_tensor *t = run_attr_op(b, err, sizeof err, &st);
    ck_assert_msg(st == IC_OK, "%s", err);
    tu_assert_shape(t, (ic_dtype)dt, 2, TU_DIMS(10000, 4));
    int64_t count[7] = {0};
    for (int64_t i = 0; i < 40000; i++) {
      const int64_t v = (int64_t)ew_at(t, i);
      ck_assert_msg(v >= -3 && v < 4, "value %lld", (long long)v);
      count[v + 3]++;
    }
    for (int k = 0; k < 7; k++) {
      const double f = (double)count[k] / 40000.0, p = 1.0 / 7;
      ck_assert_msg(fabs(f - p) < 5 * sqrt(p * (1 - p) / 40000.0), "value %d: %g", k - 3, f);
    }
    ic_tensor *t2 = run_attr_op(b, err, sizeof err, &st);
    ew_assert_same(t, t2);
    ic_tensor_destroy(t);
    ic_tensor_destroy(t2);
    ic_builder_destroy(b);
  }
  ic_builder *b = randint_program(INT64_MIN / 2, INT64_MAX / 2, 64, IC_INT64, 3);
  ic_tensor *t = run_attr_op(b, err, sizeof err, &st);
  ck_assert_msg(st == IC_OK, "%s", err);
  const int64_t *v = ic_tensor_cdata(t);
  bool neg = false, pos = false;
  for (int i = 0; i < 64; i++) {
    ck_assert(v[i] >= INT64_MIN / 2 && v[i] < INT64_MAX / 2);
    neg |= v[i] < 0;
    pos |= v[i] > 0;
  }
  ck_assert(neg && pos);
  ic_tensor_destroy(t);
  ic_builder_destroy(b);
  b = randint_program(5, 5, 4, IC_INT64, 0);
  t = run_attr_op(b, err, sizeof err, &st);
  ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
  ck_assert_msg(strstr(err, "'low'") && strstr(err, "less than"), "%s", err);
  ic_builder_destroy(b);
  b = randint_program(0, (int64_t)1 << 40, 4, IC_INT32, 0);
  t = run_attr_op(b, err, sizeof err, &st);
  ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
  ck_assert_msg(strstr(err, "int32"), "%s", err);
  ic_builder_destroy(b);
}
END_TEST

/* randperm: each of int64, int32, float32, float64 holds every value 0 .. n-1 once; position
 * 0 takes each of 5 values about equally often over the seed attributes 1 to 5000; n = 0 is
 * empty; n < 0 refused. */
START_TEST(randperm_values) {
  char err[1024];
  ic_status st;
  const int dts[4] = {IC_INT64, IC_INT32, IC_FP32, IC_FP64};
  for (int k = 0; k < 4; k++) {
    ic_builder *b = ic_builder_create();
    ic_builder_op *o = ic_builder_add_op(b, 0, "randperm");
    ic_builder_out(o, "Out", "out");
    ic_builder_attr_long(o, "n", 1000);
    ic_builder_attr_int(o, "dtype", dts[k]);
    ew_fetch(b, "out", (ic_dtype)dts[k]);
    ic_tensor *t = run_attr_op(b, err, sizeof err, &st);
    ck_assert_msg(st == IC_OK, "%s", err);
    tu_assert_shape(t, (ic_dtype)dts[k], 1, TU_DIMS(1000));
    bool seen[1000] = {false};
    int fixed = 0;
    for (int i = 0; i < 1000; i++) {
      const int64_t v = (int64_t)ew_at(t, i);
      ck_assert(v >= 0 && v < 1000 && !seen[v]);
      seen[v] = true;
      fixed += v == i;
    }
    ck_assert_msg(fixed < 10, "%d fixed points: not shuffled", fixed);
    ic_tensor_destroy(t);
    ic_builder_destroy(b);
  }
  int64_t first[5] = {0};
  for (uint64_t seed = 1; seed <= 5000; seed++) {
    ic_builder *b = ic_builder_create();
    ic_builder_op *o = ic_builder_add_op(b, 0, "randperm");
    ic_builder_out(o, "Out", "out");
    ic_builder_attr_long(o, "n", 5);
    ic_builder_attr_int(o, "seed", (int)seed);
    ew_fetch(b, "out", IC_INT64);
    ic_tensor *t = NULL;
    ck_assert_int_eq(ew_run_once(b, &t, err, sizeof err), IC_OK);
    first[((const int64_t *)ic_tensor_cdata(t))[0]]++;
    ic_tensor_destroy(t);
    ic_builder_destroy(b);
  }
  for (int v = 0; v < 5; v++) {
    ck_assert_msg(fabs((double)first[v] / 5000 - 0.2) < 5 * sqrt(0.16 / 5000), "value %d first: %lld",
                  v, (long long)first[v]);
  }
  for (int64_t n = -1; n <= 0; n++) {
    ic_builder *b = ic_builder_create();
    ic_builder_op *o = ic_builder_add_op(b, 0, "randperm");
    ic_builder_out(o, "Out", "out");
    ic_builder_attr_long(o, "n", n);
    ew_fetch(b, "out", IC_INT64);
    ic_tensor *t = run_attr_op(b, err, sizeof err, &st);
    if (n < 0) {
      ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
      ck_assert_msg(strstr(err, "'n'") && strstr(err, ">= 0"), "%s", err);
    } else {
      ck_assert_msg(st == IC_OK, "%s", err);
      tu_assert_shape(t, IC_INT64, 1, TU_DIMS(0));
      ic_tensor_destroy(t);
    }
    ic_builder_destroy(b);
  }
}
END_TEST

/* bernoulli: 0 and 1 only, in X's dtype; probability 0 never and 1 always fires; 0.3 about
 * 30% of 40000 elements; a probability outside [0, 1] or NaN is refused naming X. */
START_TEST(bernoulli_values) {
  const int64_t n = 40000;
  float *p = malloc((size_t)n * sizeof *p);
  for (int64_t i = 0; i < n; i++) p[i] = i % 4 == 0 ? 0.0f : i % 4 == 1 ? 1.0f : 0.3f;
  ic_tensor *x = tu_f32(2, TU_DIMS(n / 4, 4), p);
  for (int dt = 0; dt < 2; dt++) {
    ic_tensor *xin = x;
    if (dt) {
      double *d = malloc((size_t)n * sizeof *d);
      for (int64_t i = 0; i < n; i++) d[i] = p[i];
      xin = tu_f64(2, TU_DIMS(n / 4, 4), d);
      free(d);
    }
    ic_builder *b = ic_builder_create();
    ew_feed(b, "x", xin);
    ic_builder_op *o = ic_builder_add_op(b, 0, "bernoulli");
    ic_builder_in(o, "X", "x");
    ic_builder_out(o, "Out", "out");
    ew_fetch(b, "out", ic_tensor_dtype(xin));
    ic_tensor *out;
    char err[1024];
    ck_assert_msg(ew_run(b, 1, TU_NAMES("x"), &xin, &out, err, sizeof err) == IC_OK, "%s", err);
    tu_assert_shape(out, ic_tensor_dtype(xin), 2, TU_DIMS(n / 4, 4));
    int64_t ones = 0, tries = 0;
    for (int64_t i = 0; i < n; i++) {
      const double v = ew_at(out, i);
      ck_assert(v == 0 || v == 1);
      if (i % 4 == 0) ck_assert(v == 0);
      if (i % 4 == 1) ck_assert(v == 1);
      if (i % 4 >= 2) ones += v == 1, tries++;
    }
    ck_assert_msg(fabs((double)ones / (double)tries - 0.3) < 5 * sqrt(0.21 / (double)tries),
                  "%lld of %lld", (long long)ones, (long long)tries);
    ic_tensor_destroy(out);
    ic_builder_destroy(b);
    if (dt) ic_tensor_destroy(xin);
  }
  const float bad[2][3] = {{0.5f, 1.5f, 0}, {0.5f, NAN, 0}};
  for (int k = 0; k < 2; k++) {
    ic_tensor *xb = tu_f32(1, TU_DIMS(3), bad[k]), *out = NULL;
    ic_builder *b = ic_builder_create();
    ew_feed(b, "x", xb);
    ic_builder_op *o = ic_builder_add_op(b, 0, "bernoulli");
    ic_builder_in(o, "X", "x");
    ic_builder_out(o, "Out", "out");
    ew_fetch(b, "out", IC_FP32);
    char err[1024];
    ck_assert_int_eq(ew_run(b, 1, TU_NAMES("x"), &xb, &out, err, sizeof err),
                     IC_ERR_INVALID_ARGUMENT);
    ck_assert_msg(strstr(err, "X 'x'") && strstr(err, "element 1") && strstr(err, "[0, 1]"), "%s",
                  err);
    ic_builder_destroy(b);
    ic_tensor_destroy(xb);
  }
  ic_tensor_destroy(x);
  free(p);
}
END_TEST

/* uniform_random_batch_size_like from a [5, 3] Input: the batch dim lands in output_dim_idx;
 * every value in [min, max) with a mean near the middle (1000 draws), float32 and float64; a
 * seed repeats and another seed differs; diag_num 4 / diag_step 2 put diag_val at elements
 * 0, 3, 6, 9; bad attributes are refused. */
static ic_builder *urbsl_program(const ic_tensor *x, int64_t in_idx, int64_t out_idx, int dtype,
                                 int seed, int diag_num, float lo, float hi) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ic_builder_op *o = ic_builder_add_op(b, 0, "uniform_random_batch_size_like");
  ic_builder_in(o, "Input", "x");
  ic_builder_out(o, "Out", "out");
  ic_builder_attr_longs(o, "shape", 2,
                        out_idx == 0 ? (const int64_t[]){-1, 200} : (const int64_t[]){200, -1});
  ic_builder_attr_int(o, "input_dim_idx", (int)in_idx);
  ic_builder_attr_int(o, "output_dim_idx", (int)out_idx);
  ic_builder_attr_int(o, "dtype", dtype);
  ic_builder_attr_int(o, "seed", seed);
  ic_builder_attr_float(o, "min", lo);
  ic_builder_attr_float(o, "max", hi);
  ic_builder_attr_int(o, "diag_num", diag_num);
  ic_builder_attr_int(o, "diag_step", 2);
  ic_builder_attr_float(o, "diag_val", 7.0f);
  ew_fetch(b, "out", (ic_dtype)dtype);
  return b;
}

START_TEST(uniform_random_batch_size_like_values) {
  float xv[15] = {0};
  ic_tensor *x = tu_f32(2, TU_DIMS(5, 3), xv);
  char err[1024];
  for (int dt = IC_FP32; dt <= IC_FP64; dt++) {
    ic_tensor *t[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3; k++) {
      ic_builder *b = urbsl_program(x, 0, 1, dt, k < 2 ? 11 : 12, 0, 2.0f, 4.0f);
      ck_assert_msg(ew_run(b, 1, TU_NAMES("x"), &x, &t[k], err, sizeof err) == IC_OK, "%s", err);
      ic_builder_destroy(b);
      tu_assert_shape(t[k], (ic_dtype)dt, 2, TU_DIMS(200, 5));
    }
    double sum = 0;
    for (int64_t i = 0; i < 1000; i++) {
      const double v = ew_at(t[0], i);
      ck_assert_msg(v >= 2.0 && v < 4.0, "element %lld: %g", (long long)i, v);
      sum += v;
    }
    ck_assert_msg(fabs(sum / 1000 - 3.0) < 0.1, "mean %g", sum / 1000);
    ew_assert_same(t[0], t[1]);
    ck_assert(memcmp(ic_tensor_cdata(t[0]), ic_tensor_cdata(t[2]), 1000 * ic_dtype_size((ic_dtype)dt)));
    for (int k = 0; k < 3; k++) ic_tensor_destroy(t[k]);
  }
  ic_tensor *d = NULL;
  ic_builder *b = urbsl_program(x, 1, 0, IC_FP32, 5, 4, -1.0f, 1.0f);
  ck_assert_msg(ew_run(b, 1, TU_NAMES("x"), &x, &d, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  tu_assert_shape(d, IC_FP32, 2, TU_DIMS(3, 200));
  for (int64_t i = 0; i < 600; i++) {
    const double v = ew_at(d, i);
    if (i < 12 && i % 3 == 0) ck_assert_msg(v == 7.0, "diagonal element %lld: %g", (long long)i, v);
    else ck_assert_msg(v >= -1.0 && v < 1.0, "element %lld: %g", (long long)i, v);
  }
  ic_tensor_destroy(d);
  const struct {
    int64_t in_idx, out_idx;
    int diag;
    float lo, hi;
    const char *want;
  } bad[] = {{0, 0, 0, 1.0f, 1.0f, "'min'"}, {0, 2, 0, 0, 1, "'output_dim_idx'"},
             {2, 0, 0, 0, 1, "'input_dim_idx'"}, {0, 0, 500, 0, 1, "diag_num"}};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    ic_tensor *o = NULL;
    b = urbsl_program(x, bad[k].in_idx, bad[k].out_idx, IC_FP32, 1, bad[k].diag, bad[k].lo,
                      bad[k].hi);
    ck_assert_int_ne(ew_run(b, 1, TU_NAMES("x"), &x, &o, err, sizeof err), IC_OK);
    ck_assert_msg(strstr(err, bad[k].want), "case %zu: %s", k, err);
    ic_builder_destroy(b);
  }
  ic_tensor_destroy(x);
}
END_TEST

/* ---- the random ops without Paddle's bits (dropout_nd training, gumbel_softmax, exponential,
 * poisson, sampling_id, shuffle_batch): structure, ranges, seeds and loose statistics. ---- */

/* One op `type` with inputs (slot, var, tensor) fed, outputs (slot, var, dtype) fetched. */
typedef struct rop_out {
  const char *slot, *var;
  ic_dtype dt;
} rop_out;

static ic_status rop_run(const char *type, size_t n_in, const ew_in *in, size_t n_out,
                         const rop_out *out, void (*attrs)(ic_builder_op *), ic_tensor **res,
                         char *err) {
  ic_builder *b = ic_builder_create();
  for (size_t i = 0; i < n_in; i++) ew_feed(b, in[i].var, in[i].t);
  ic_builder_op *o = ic_builder_add_op(b, 0, type);
  for (size_t i = 0; i < n_in; i++) ic_builder_in(o, in[i].slot, in[i].var);
  const char *names[4], *fnames[4];
  ic_tensor *feeds[4];
  for (size_t i = 0; i < n_out; i++) {
    ic_builder_out(o, out[i].slot, out[i].var);
    ew_fetch(b, out[i].var, out[i].dt);
    names[i] = out[i].var;
  }
  for (size_t i = 0; i < n_in; i++) fnames[i] = in[i].var, feeds[i] = in[i].t;
  if (attrs) attrs(o);
  ic_status st = tu_run(b, n_in, fnames, feeds, n_out, names, res, err, 1024);
  ic_builder_destroy(b);
  return st;
}

static int g_dnd;
static void a_dnd(ic_builder_op *o) {
  ic_builder_attr_float(o, "dropout_prob", 0.3f);
  ic_builder_attr_bool(o, "is_test", g_dnd == 2);
  ic_builder_attr_string(o, "dropout_implementation", g_dnd == 2 ? "downgrade_in_infer"
                                                                 : "upscale_in_train");
  if (g_dnd == 1) ic_builder_attr_ints(o, "axis", 0, NULL);
  else if (g_dnd == 3) ic_builder_attr_ints(o, "axis", 1, (const int32_t[]){3});
  else ic_builder_attr_ints(o, "axis", 2, (const int32_t[]){0, 2});
}

/* dropout_nd training: Mask [40, 1, 50] (1 on the axes not listed), Out = X / 0.7 where the
 * broadcast Mask keeps, 0 elsewhere; about 30% dropped; Seed 9 repeats, Seed 10 differs; an
 * empty axis makes one decision [1, 1, 1]; is_test gives X * 0.7 (downgrade); an axis beyond
 * X's rank is refused. */
START_TEST(dropout_nd_training) {
  const int64_t D0 = 40, D1 = 3, D2 = 50, n = D0 * D1 * D2;
  float *xv = malloc((size_t)n * sizeof *xv);
  for (int64_t i = 0; i < n; i++) xv[i] = 1.0f + 0.001f * (float)(i % 997);
  ic_tensor *x = tu_f32(3, TU_DIMS(D0, D1, D2), xv);
  ic_tensor *s9 = tu_i32(1, TU_DIMS(1), (const int32_t[]){9});
  ic_tensor *s10 = tu_i32(1, TU_DIMS(1), (const int32_t[]){10});
  const rop_out outs[] = {{"Out", "out", IC_FP32}, {"Mask", "mask", IC_UINT8}};
  char err[1024];
  ic_tensor *r[2], *r2[2], *r3[2];
  g_dnd = 0;
  ew_in in9[] = {{"X", "x", x}, {"Seed", "seed", s9}}, in10[] = {{"X", "x", x}, {"Seed", "seed", s10}};
  ck_assert_msg(rop_run("dropout_nd", 2, in9, 2, outs, a_dnd, r, err) == IC_OK, "%s", err);
  tu_assert_shape(r[0], IC_FP32, 3, TU_DIMS(D0, D1, D2));
  tu_assert_shape(r[1], IC_UINT8, 3, TU_DIMS(D0, 1, D2));
  const float *o = ic_tensor_cdata(r[0]);
  const uint8_t *m = ic_tensor_cdata(r[1]);
  int64_t dropped = 0;
  for (int64_t i = 0; i < D0; i++) {
    for (int64_t k = 0; k < D2; k++) {
      const uint8_t keep = m[i * D2 + k];
      ck_assert(keep <= 1);
      dropped += !keep;
      for (int64_t j = 0; j < D1; j++) {
        const int64_t at = (i * D1 + j) * D2 + k;
        const float want = keep ? xv[at] / 0.7f : 0.0f;
        ck_assert_msg(fabsf(o[at] - want) <= 1e-6f * fabsf(want), "element %lld: %g, want %g",
                      (long long)at, o[at], want);
      }
    }
  }
  const double f = (double)dropped / (double)(D0 * D2);
  ck_assert_msg(fabs(f - 0.3) < 5 * sqrt(0.21 / (double)(D0 * D2)), "dropped %g", f);
  ck_assert_msg(rop_run("dropout_nd", 2, in9, 2, outs, a_dnd, r2, err) == IC_OK, "%s", err);
  ew_assert_same(r[1], r2[1]);
  ew_assert_same(r[0], r2[0]);
  ck_assert_msg(rop_run("dropout_nd", 2, in10, 2, outs, a_dnd, r3, err) == IC_OK, "%s", err);
  ck_assert(memcmp(ic_tensor_cdata(r[1]), ic_tensor_cdata(r3[1]), (size_t)(D0 * D2)) != 0);
  for (int k = 0; k < 2; k++) {
    ic_tensor_destroy(r[k]);
    ic_tensor_destroy(r2[k]);
    ic_tensor_destroy(r3[k]);
  }
  g_dnd = 1;
  ck_assert_msg(rop_run("dropout_nd", 2, in9, 2, outs, a_dnd, r, err) == IC_OK, "%s", err);
  tu_assert_shape(r[1], IC_UINT8, 3, TU_DIMS(1, 1, 1));
  const uint8_t one = *(const uint8_t *)ic_tensor_cdata(r[1]);
  o = ic_tensor_cdata(r[0]);
  for (int64_t i = 0; i < n; i++) ck_assert(o[i] == (one ? xv[i] / 0.7f : 0.0f));
  ic_tensor_destroy(r[0]);
  ic_tensor_destroy(r[1]);
  g_dnd = 2;
  ew_in in1[] = {{"X", "x", x}};
  ck_assert_msg(rop_run("dropout_nd", 1, in1, 1, outs, a_dnd, r, err) == IC_OK, "%s", err);
  o = ic_tensor_cdata(r[0]);
  for (int64_t i = 0; i < n; i++) ck_assert(o[i] == xv[i] * 0.7f);
  ic_tensor_destroy(r[0]);
  g_dnd = 3;
  ck_assert_int_eq(rop_run("dropout_nd", 1, in1, 1, outs, a_dnd, r, err), IC_ERR_SHAPE);
  ck_assert_msg(strstr(err, "axis 3"), "%s", err);
  ic_tensor_destroy(x);
  ic_tensor_destroy(s9);
  ic_tensor_destroy(s10);
  free(xv);
}
END_TEST

static int g_gs;
static void a_gs(ic_builder_op *o) {
  ic_builder_attr_float(o, "temperature", g_gs == 3 ? 0.0f : g_gs == 1 ? 1.0f : 0.7f);
  ic_builder_attr_bool(o, "hard", g_gs != 1);
  ic_builder_attr_int(o, "axis", g_gs == 2 ? 0 : -1);
}

/* gumbel_softmax: hard rows are one-hot and pick category k with frequency p_k when X = log p
 * (the Gumbel-max property; 6000 rows, 5 standard errors), along the last axis and along
 * axis 0 of the transposed layout; soft rows are positive and sum to 1; temperature 0 is
 * refused. */
START_TEST(gumbel_softmax_values) {
  const int64_t R = 6000;
  const double p[4] = {0.1, 0.2, 0.3, 0.4};
  double *xv = malloc((size_t)(4 * R) * sizeof *xv), *xt = malloc((size_t)(4 * R) * sizeof *xt);
  for (int64_t i = 0; i < R; i++) {
    for (int k = 0; k < 4; k++) xv[i * 4 + k] = xt[k * R + i] = log(p[k]);
  }
  ic_tensor *x = tu_f64(2, TU_DIMS(R, 4), xv), *x0 = tu_f64(2, TU_DIMS(4, R), xt);
  const rop_out outs[] = {{"Out", "out", IC_FP64}};
  char err[1024];
  for (g_gs = 0; g_gs < 3; g_gs++) {
    ew_in in[] = {{"X", "x", g_gs == 2 ? x0 : x}};
    ic_tensor *r;
    ck_assert_msg(rop_run("gumbel_softmax", 1, in, 1, outs, a_gs, &r, err) == IC_OK, "%s", err);
    const double *o = ic_tensor_cdata(r);
    int64_t count[4] = {0};
    for (int64_t i = 0; i < R; i++) {
      double sum = 0;
      int hot = -1;
      for (int k = 0; k < 4; k++) {
        const double v = g_gs == 2 ? o[k * R + i] : o[i * 4 + k];
        sum += v;
        if (g_gs == 1) ck_assert(v > 0 && v < 1);
        else ck_assert(v == 0.0 || v == 1.0);
        if (v == 1.0) hot = k;
      }
      ck_assert_msg(fabs(sum - 1) < 1e-12, "row %lld sums to %g", (long long)i, sum);
      if (g_gs != 1) count[hot]++;
    }
    for (int k = 0; g_gs != 1 && k < 4; k++) {
      const double f = (double)count[k] / (double)R;
      ck_assert_msg(fabs(f - p[k]) < 5 * sqrt(p[k] * (1 - p[k]) / (double)R),
                    "mode %d category %d: %g", g_gs, k, f);
    }
    ic_tensor_destroy(r);
  }
  g_gs = 3;
  ew_in in[] = {{"X", "x", x}};
  ic_tensor *r;
  ck_assert_int_eq(rop_run("gumbel_softmax", 1, in, 1, outs, a_gs, &r, err), IC_ERR_INVALID_PROGRAM);
  ck_assert_msg(strstr(err, "temperature"), "%s", err);
  ic_tensor_destroy(x);
  ic_tensor_destroy(x0);
  free(xv);
  free(xt);
}
END_TEST

static void a_exp(ic_builder_op *o) { ic_builder_attr_float(o, "lambda", 2.5f); }

/* exponential (lambda 2.5): every draw >= 0, mean 0.4 and variance 0.16 within 5 standard
 * errors (20000 draws), float32 and float64. poisson: means 0, 0.7, 4, 25 and 100 (5000 draws
 * each, float32 and float64): integers, mean within 5 standard errors, variance within 10%;
 * a negative mean refused. */
START_TEST(exponential_poisson_values) {
  const int64_t N = 20000;
  const rop_out o32[] = {{"Out", "out", IC_FP32}}, o64[] = {{"Out", "out", IC_FP64}};
  char err[1024];
  for (int dt = 0; dt < 2; dt++) {
    ic_tensor *x = dt ? tu_f64(1, TU_DIMS(N), NULL) : tu_f32(1, TU_DIMS(N), NULL), *r;
    ew_in in[] = {{"X", "x", x}};
    ck_assert_msg(rop_run("exponential", 1, in, 1, dt ? o64 : o32, a_exp, &r, err) == IC_OK,
                  "%s", err);
    double s = 0, s2 = 0;
    for (int64_t i = 0; i < N; i++) {
      const double v = ew_at(r, i);
      ck_assert(v >= 0);
      s += v, s2 += v * v;
    }
    const double mean = s / N, var = s2 / N - mean * mean;
    ck_assert_msg(fabs(mean - 0.4) < 5 * 0.4 / sqrt((double)N), "mean %g", mean);
    ck_assert_msg(fabs(var - 0.16) < 0.016, "variance %g", var);
    ic_tensor_destroy(r);
    ic_tensor_destroy(x);
  }
  const double lam[5] = {0, 0.7, 4, 25, 100};
  const int64_t M = 5000;
  double *rates = malloc((size_t)(5 * M) * sizeof *rates);
  for (int64_t i = 0; i < 5 * M; i++) rates[i] = lam[i / M];
  for (int dt = 0; dt < 2; dt++) {
    ic_tensor *x, *r;
    if (dt) {
      x = tu_f64(1, TU_DIMS(5 * M), rates);
    } else {
      float *f = malloc((size_t)(5 * M) * sizeof *f);
      for (int64_t i = 0; i < 5 * M; i++) f[i] = (float)rates[i];
      x = tu_f32(1, TU_DIMS(5 * M), f);
      free(f);
    }
    ew_in in[] = {{"X", "x", x}};
    ck_assert_msg(rop_run("poisson", 1, in, 1, dt ? o64 : o32, NULL, &r, err) == IC_OK, "%s", err);
    for (int k = 0; k < 5; k++) {
      double s = 0, s2 = 0;
      for (int64_t i = k * M; i < (k + 1) * M; i++) {
        const double v = ew_at(r, i);
        ck_assert_msg(v >= 0 && v == floor(v), "draw %g", v);
        s += v, s2 += v * v;
      }
      const double mean = s / M, var = s2 / M - mean * mean;
      if (lam[k] == 0) {
        ck_assert(s == 0);
        continue;
      }
      ck_assert_msg(fabs(mean - lam[k]) < 5 * sqrt(lam[k] / M), "mean %g for %g", mean, lam[k]);
      ck_assert_msg(fabs(var - lam[k]) < 0.1 * lam[k], "variance %g for %g", var, lam[k]);
    }
    ic_tensor_destroy(r);
    ic_tensor_destroy(x);
  }
  free(rates);
  ic_tensor *neg = tu_f32(1, TU_DIMS(2), (const float[]){1, -1}), *r;
  ew_in in[] = {{"X", "x", neg}};
  ck_assert_int_eq(rop_run("poisson", 1, in, 1, o32, NULL, &r, err), IC_ERR_SHAPE);
  ck_assert_msg(strstr(err, "element 1") && strstr(err, ">= 0"), "%s", err);
  ic_tensor_destroy(neg);
}
END_TEST

static int g_sid;
static void a_sid(ic_builder_op *o) {
  ic_builder_attr_float(o, "min", g_sid ? 0.5f : 0.0f);
  ic_builder_attr_float(o, "max", 1.0f);
  ic_builder_attr_int(o, "seed", g_sid == 2 ? 0 : 17 + g_sid);
}

/* sampling_id over rows of weights 0.2, 0.5, 0.3: frequencies 0.2, 0.5, 0.3; with min 0.5
 * the draw r in [0.5, 1) gives index 1 for r < 0.7 (0.4) and 2 otherwise; a seed repeats;
 * a rank-1 X is refused. */
START_TEST(sampling_id_values) {
  const int64_t R = 20000;
  double *w = malloc((size_t)(3 * R) * sizeof *w);
  for (int64_t i = 0; i < R; i++) w[3 * i] = 0.2, w[3 * i + 1] = 0.5, w[3 * i + 2] = 0.3;
  ic_tensor *x = tu_f64(2, TU_DIMS(R, 3), w);
  const rop_out outs[] = {{"Out", "out", IC_INT64}};
  char err[1024];
  const double want[2][3] = {{0.2, 0.5, 0.3}, {0, 0.4, 0.6}};
  ic_tensor *first = NULL;
  for (g_sid = 0; g_sid < 2; g_sid++) {
    ew_in in[] = {{"X", "x", x}};
    ic_tensor *r;
    ck_assert_msg(rop_run("sampling_id", 1, in, 1, outs, a_sid, &r, err) == IC_OK, "%s", err);
    tu_assert_shape(r, IC_INT64, 1, TU_DIMS(R));
    const int64_t *o = ic_tensor_cdata(r);
    int64_t count[3] = {0};
    for (int64_t i = 0; i < R; i++) {
      ck_assert(o[i] >= 0 && o[i] < 3);
      count[o[i]]++;
    }
    for (int k = 0; k < 3; k++) {
      const double f = (double)count[k] / R, p = want[g_sid][k];
      ck_assert_msg(fabs(f - p) <= 5 * sqrt(p * (1 - p) / R), "min %d index %d: %g", g_sid, k, f);
    }
    if (g_sid == 0) first = r;
    else ic_tensor_destroy(r);
  }
  g_sid = 0;
  ew_in in[] = {{"X", "x", x}};
  ic_tensor *again;
  ck_assert_msg(rop_run("sampling_id", 1, in, 1, outs, a_sid, &again, err) == IC_OK, "%s", err);
  ew_assert_same(first, again);
  ic_tensor_destroy(first);
  ic_tensor_destroy(again);
  ic_tensor *x1 = tu_f32(1, TU_DIMS(3), (const float[]){0.2f, 0.5f, 0.3f}), *r;
  ew_in in1[] = {{"X", "x", x1}};
  ck_assert_int_eq(rop_run("sampling_id", 1, in1, 1, outs, a_sid, &r, err), IC_ERR_SHAPE);
  ck_assert_msg(strstr(err, "rank 2"), "%s", err);
  ic_tensor_destroy(x1);
  ic_tensor_destroy(x);
  free(w);
}
END_TEST

static int64_t g_sb_startup;
static void a_sb(ic_builder_op *o) { ic_builder_attr_int(o, "startup_seed", (int)g_sb_startup); }

/* minstd_rand0's first output after seed s: Paddle's SeedOut. */
static int64_t minstd_next(int64_t s) {
  uint64_t st = (uint64_t)s % 2147483647u;
  if (!st) st = 1;
  return (int64_t)(st * 16807u % 2147483647u);
}

/* shuffle_batch of int64 [4, 5, 3] (20 rows of 3): ShuffleIdx a permutation with
 * Out[ShuffleIdx[i]] = X[i]; SeedOut minstd_rand0's step from Seed 7, -5, and from
 * startup_seed 123 without Seed; the same seed repeats the permutation. */
START_TEST(shuffle_batch_values) {
  int64_t xv[60];
  for (int i = 0; i < 60; i++) xv[i] = i;
  ic_tensor *x = tu_i64(3, TU_DIMS(4, 5, 3), xv);
  const rop_out outs[] = {{"Out", "out", IC_INT64}, {"ShuffleIdx", "idx", IC_INT64},
                          {"SeedOut", "seed_out", IC_INT64}};
  char err[1024];
  const int64_t seeds[3] = {7, -5, 0};
  ic_tensor *keep = NULL;
  for (int k = 0; k < 3; k++) {
    ic_tensor *s = tu_i64(1, TU_DIMS(1), &seeds[k]), *r[3];
    ew_in in[] = {{"X", "x", x}, {"Seed", "seed", s}};
    g_sb_startup = 123;
    ck_assert_msg(rop_run("shuffle_batch", k == 2 ? 1 : 2, in, 3, outs, a_sb, r, err) == IC_OK,
                  "%s", err);
    tu_assert_shape(r[0], IC_INT64, 3, TU_DIMS(4, 5, 3));
    tu_assert_shape(r[1], IC_INT64, 1, TU_DIMS(20));
    tu_assert_shape(r[2], IC_INT64, 1, TU_DIMS(1));
    const int64_t *o = ic_tensor_cdata(r[0]), *idx = ic_tensor_cdata(r[1]);
    bool seen[20] = {false};
    for (int i = 0; i < 20; i++) {
      ck_assert(idx[i] >= 0 && idx[i] < 20 && !seen[idx[i]]);
      seen[idx[i]] = true;
      for (int j = 0; j < 3; j++) ck_assert(o[idx[i] * 3 + j] == xv[i * 3 + j]);
    }
    const int64_t want = minstd_next(k == 2 ? 123 : seeds[k]);
    ck_assert_msg(*(const int64_t *)ic_tensor_cdata(r[2]) == want, "SeedOut %lld, want %lld",
                  (long long)*(const int64_t *)ic_tensor_cdata(r[2]), (long long)want);
    if (k == 0) {
      keep = r[1];
    } else {
      ic_tensor_destroy(r[1]);
    }
    ic_tensor_destroy(r[0]);
    ic_tensor_destroy(r[2]);
    ic_tensor_destroy(s);
  }
  ic_tensor *s = tu_i64(1, TU_DIMS(1), &seeds[0]), *r[3];
  ew_in in[] = {{"X", "x", x}, {"Seed", "seed", s}};
  ck_assert_msg(rop_run("shuffle_batch", 2, in, 3, outs, a_sb, r, err) == IC_OK, "%s", err);
  ew_assert_same(keep, r[1]);
  for (int k = 0; k < 3; k++) ic_tensor_destroy(r[k]);
  ic_tensor_destroy(keep);
  ic_tensor_destroy(s);
  ic_tensor_destroy(x);
}
END_TEST

static TCase *tc_multinomial(void) {
  TCase *tc = tcase_create("multinomial");
  tcase_add_test(tc, with_replacement);
  tcase_add_test(tc, without_replacement);
  tcase_add_test(tc, errors);
  tcase_add_test(tc, randint_values);
  tcase_add_test(tc, randperm_values);
  tcase_add_test(tc, bernoulli_values);
  tcase_add_test(tc, uniform_random_batch_size_like_values);
  tcase_add_test(tc, dropout_nd_training);
  tcase_add_test(tc, gumbel_softmax_values);
  tcase_add_test(tc, exponential_poisson_values);
  tcase_add_test(tc, sampling_id_values);
  tcase_add_test(tc, shuffle_batch_values);
  return tc;
}

TU_MAIN("ops_sampling", tc_multinomial)
