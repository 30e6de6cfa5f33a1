/* multinomial: shapes, the draws' distribution with and without replacement, zero weights
 * never drawn, the same indices in every executor configuration (tu_run), and the errors
 * Paddle raises (negative or NaN weights, a zero row, too many samples without replacement,
 * bad rank or num_samples). */
#include <math.h>
#include <string.h>

#include "ew_testutil.h"

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

static TCase *tc_multinomial(void) {
  TCase *tc = tcase_create("multinomial");
  tcase_add_test(tc, with_replacement);
  tcase_add_test(tc, without_replacement);
  tcase_add_test(tc, errors);
  return tc;
}

TU_MAIN("ops_multinomial", tc_multinomial)
