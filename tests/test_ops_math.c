/* The math ops: the unary table of cases_unary.h against double-precision references, the
 * integer kernels, pow's FactorTensor, prelu's modes, elementwise_floordiv / _mod sign
 * conventions, and errors for bad attributes and inputs.
 *
 * Tolerances: float32 kernels compute in float, a few ulps from the double result: relative
 * 1e-5 plus absolute 1e-6 (results near 0). float64: 1e-12 relative. Integers: exact. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cases_unary.h"
#include "ew_testutil.h"
#include "kernels/cpu/fftutil.h"

static ic_builder *unary_program(const cu_case *c, const ic_tensor *x) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ic_builder_op *o = ic_builder_add_op(b, 0, c->type);
  ic_builder_in(o, "X", "x");
  ic_builder_out(o, "Out", "out");
  for (int k = 0; k < 3 && c->names[k]; k++) {
    ic_builder_attr_float(o, c->names[k], (float)c->vals[k]);
  }
  ew_fetch(b, "out", ic_tensor_dtype(x));
  return b;
}

static void check_unary(const cu_case *c, ic_tensor *x) {
  ic_builder *b = unary_program(c, x);
  ic_tensor *out[1];
  char err[1024];
  ic_status st = ew_run(b, 1, TU_NAMES("x"), &x, out, err, sizeof err);
  ic_builder_destroy(b);
  ck_assert_msg(st == IC_OK, "%s: %s", c->type, err);
  ic_dtype dt = ic_tensor_dtype(x);
  tu_assert_shape(out[0], dt, ic_tensor_ndim(x), ic_tensor_dims(x));
  int64_t n = ic_tensor_numel(x);
  double p[3];
  for (int k = 0; k < 3; k++) {
    volatile float f = (float)c->vals[k]; /* the attribute as the kernel reads it */
    p[k] = f;
  }
  double *ref = calloc((size_t)(n ? n : 1), sizeof *ref);
  for (int64_t i = 0; i < n; i++) ref[i] = c->ref(ew_at(x, i), p);
  bool f32 = dt == IC_FP32, f64 = dt == IC_FP64;
  tu_assert_close(out[0], ref, (size_t)n, f32 ? 1e-5 : f64 ? 1e-12 : 0,
                  f32 ? 1e-6 : f64 ? 1e-13 : 0);
  free(ref);
  ic_tensor_destroy(out[0]);
}

/* Every case in float32 and float64 (and int32/int64 where the op takes them), over one
 * element, sizes not divisible by 8, a 4-D batch and an empty tensor. */
START_TEST(unary_table) {
  static const struct {
    int ndim;
    int64_t dims[4];
  } shapes[] = {{1, {1}}, {1, {13}}, {3, {2, 3, 5}}, {4, {2, 4, 9, 7}}, {2, {0, 4}}};
  static const ic_dtype dts[] = {IC_FP32, IC_FP64, IC_INT32, IC_INT64};
  for (size_t i = 0; i < sizeof cu_cases / sizeof cu_cases[0]; i++) {
    const cu_case *c = &cu_cases[i];
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
      for (int d = 0; d < (c->int_too ? 4 : 2); d++) {
        ic_tensor *x = ew_rand(dts[d], shapes[s].ndim, shapes[s].dims, i * 31 + s, c->lo, c->hi);
        check_unary(c, x);
        ic_tensor_destroy(x);
      }
    }
  }
}
END_TEST

/* Knees and ties: the thresholds themselves, halves for round, 0, large magnitudes. */
START_TEST(unary_edges) {
  const float v[] = {-100, -2.5f, -1.5f, -1.25f, -0.5f, 0, 0.5f, 1, 1.25f, 1.5f, 2.5f, 20, 24, 100};
  ic_tensor *x = tu_f32(1, TU_DIMS(14), v);
  static const char *skip[] = {"log", "log2", "log10", "log1p", "rsqrt", "pow", "reciprocal"};
  for (size_t i = 0; i < sizeof cu_cases / sizeof cu_cases[0]; i++) {
    bool sk = false;
    for (size_t k = 0; k < sizeof skip / sizeof skip[0]; k++) {
      sk |= !strcmp(cu_cases[i].type, skip[k]);
    }
    if (!sk) check_unary(&cu_cases[i], x);
  }
  ic_tensor_destroy(x);
}
END_TEST

/* A one-op program with inputs `in`, attributes set by `attrs` (may be NULL), run. */
typedef void (*attr_fn)(ic_builder_op *o);

static ic_status run1(const char *type, size_t n, const ew_in *in, attr_fn attrs, ic_dtype odt,
                      ic_tensor **out, char *err) {
  ic_builder *b;
  ic_builder_op *o = ew_op_program(&b, type, n, in, odt);
  if (attrs) attrs(o);
  const char *names[8];
  ic_tensor *feeds[8];
  for (size_t i = 0; i < n; i++) {
    names[i] = in[i].var;
    feeds[i] = in[i].t;
  }
  ic_status st = ew_run(b, n, names, feeds, out, err, 1024);
  ic_builder_destroy(b);
  return st;
}

static ic_tensor *ok1(const char *type, size_t n, const ew_in *in, attr_fn attrs, ic_dtype odt) {
  ic_tensor *out;
  char err[1024];
  ic_status st = run1(type, n, in, attrs, odt, &out, err);
  ck_assert_msg(st == IC_OK, "%s: %s", type, err);
  return out;
}

static void a_round1(ic_builder_op *o) { ic_builder_attr_int(o, "decimals", 1); }
static void a_round_m1(ic_builder_op *o) { ic_builder_attr_int(o, "decimals", -1); }

START_TEST(round_decimals) {
  ic_tensor *x = tu_f64(1, TU_DIMS(6), (const double[]){1.25, -1.35, 0.05, 2.5, 15, -25});
  ew_in in[] = {{"X", "x", x}};
  ic_tensor *o = ok1("round", 1, in, a_round1, IC_FP64);
  double p1[] = {1}, pm1[] = {-1};
  double r1[6], rm1[6];
  for (int i = 0; i < 6; i++) {
    r1[i] = cu_round(ew_at(x, i), p1);
    rm1[i] = cu_round(ew_at(x, i), pm1);
  }
  tu_assert_close(o, r1, 6, 1e-12, 1e-15);
  ic_tensor_destroy(o);
  o = ok1("round", 1, in, a_round_m1, IC_FP64);
  tu_assert_close(o, rm1, 6, 1e-12, 0);
  ic_tensor_destroy(o);
  o = ok1("round", 1, in, NULL, IC_FP64);
  tu_assert_close(o, (const double[]){1, -1, 0, 2, 15, -25}, 6, 0, 0);
  ic_tensor_destroy(o);
  ic_tensor_destroy(x);
}
END_TEST

static void a_factor3(ic_builder_op *o) { ic_builder_attr_float(o, "factor", 3); }
static void a_factor_neg(ic_builder_op *o) { ic_builder_attr_float(o, "factor", -2); }

/* Integer kernels: square and pow wrap as Paddle's integer arithmetic does, sign of ints,
 * pow with a negative exponent truncates 1 / x^e. */
START_TEST(integer_kernels) {
  ic_tensor *x = tu_i32(1, TU_DIMS(6), (const int32_t[]){-7, -1, 0, 1, 3, 46340});
  ew_in in[] = {{"X", "x", x}};
  ic_tensor *o = ok1("pow", 1, in, a_factor3, IC_INT32);
  int64_t big = (int64_t)46340 * 46340 * 46340;
  tu_assert_close(o, (const double[]){-343, -1, 0, 1, 27, (double)(int32_t)(uint32_t)big}, 6, 0,
                  0);
  ic_tensor_destroy(o);
  o = ok1("pow", 1, in, a_factor_neg, IC_INT32);
  tu_assert_close(o, (const double[]){0, 1, 0, 1, 0, 0}, 6, 0, 0);
  ic_tensor_destroy(o);
  o = ok1("square", 1, in, NULL, IC_INT32);
  tu_assert_close(o, (const double[]){49, 1, 0, 1, 9, (double)(int32_t)(uint32_t)(46340u * 46340u)},
                  6, 0, 0);
  ic_tensor_destroy(o);
  ic_tensor_destroy(x);
  x = tu_i64(1, TU_DIMS(3), (const int64_t[]){-(1ll << 40), 5, 0});
  ew_in in64[] = {{"X", "x", x}};
  o = ok1("sign", 1, in64, NULL, IC_INT64);
  tu_assert_close(o, (const double[]){-1, 1, 0}, 3, 0, 0);
  ic_tensor_destroy(o);
  o = ok1("square", 1, in64, NULL, IC_INT64);
  const int64_t *d = ic_tensor_cdata(o);
  ck_assert(d[0] == 0 && d[1] == 25 && d[2] == 0); /* 2^80 wraps to 0 */
  ic_tensor_destroy(o);
  ic_tensor_destroy(x);
}
END_TEST

START_TEST(pow_factor_tensor) {
  ic_tensor *x = tu_f64(1, TU_DIMS(4), (const double[]){0.5, 1, 2, 3});
  ic_tensor *f = tu_f32(1, TU_DIMS(1), (const float[]){-1.5f});
  ew_in in[] = {{"X", "x", x}, {"FactorTensor", "f", f}};
  ic_tensor *o = ok1("pow", 2, in, a_factor3, IC_FP64); /* the tensor wins */
  double ref[4];
  for (int i = 0; i < 4; i++) ref[i] = pow(ew_at(x, i), -1.5);
  tu_assert_close(o, ref, 4, 1e-12, 0);
  ic_tensor_destroy(o);
  ic_tensor *f2 = tu_f32(1, TU_DIMS(2), (const float[]){1, 2});
  ew_in bad[] = {{"X", "x", x}, {"FactorTensor", "f", f2}};
  char err[1024];
  ck_assert_int_eq(run1("pow", 2, bad, NULL, IC_FP64, &o, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "(pow)", "FactorTensor 'f'", "one element", NULL);
  ic_tensor_destroy(f2);
  ic_tensor_destroy(f);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- prelu ---- */

static const char *g_mode, *g_fmt;
static void a_prelu(ic_builder_op *o) {
  ic_builder_attr_string(o, "mode", g_mode);
  if (g_fmt) ic_builder_attr_string(o, "data_format", g_fmt);
}

static void prelu_check(const char *mode, const char *fmt, ic_dtype dt, int nd,
                        const int64_t *dims, int and_, const int64_t *adims) {
  ic_tensor *x = ew_rand(dt, nd, dims, 7, -2, 2), *al = ew_rand(dt, and_, adims, 8, 0, 0.5);
  ew_in in[] = {{"X", "x", x}, {"Alpha", "a", al}};
  g_mode = mode;
  g_fmt = fmt;
  ic_tensor *o = ok1("prelu", 2, in, a_prelu, dt);
  int64_t n = ic_tensor_numel(x);
  double *ref = malloc((size_t)n * sizeof *ref);
  bool last = fmt && !strcmp(fmt, "NHWC");
  for (int64_t i = 0; i < n; i++) {
    /* the multi-index of i, computed from scratch */
    int64_t rem = i, idx[8];
    for (int k = nd - 1; k >= 0; k--) {
      idx[k] = rem % dims[k];
      rem /= dims[k];
    }
    int64_t ai = 0;
    if (!strcmp(mode, "channel")) {
      ai = last ? idx[nd - 1] : idx[1];
    } else if (!strcmp(mode, "element")) {
      ai = i % (n / dims[0]);
    }
    double v = ew_at(x, i);
    ref[i] = v > 0 ? v : ew_at(al, ai) * v;
  }
  tu_assert_close(o, ref, (size_t)n, dt == IC_FP32 ? 1e-6 : 1e-14, 0);
  free(ref);
  ic_tensor_destroy(o);
  ic_tensor_destroy(al);
  ic_tensor_destroy(x);
}

/* Every prelu row of the shared table cases_unary.h, float32 and float64. */
START_TEST(prelu_modes) {
  for (int d = 0; d < 2; d++) {
    ic_dtype dt = d ? IC_FP64 : IC_FP32;
    for (size_t i = 0; i < CPR_N_CASES; i++) {
      const cpr_case *c = &cpr_cases[i];
      prelu_check(c->mode, c->fmt, dt, c->nd, c->dims, c->and_, c->adims);
    }
  }
}
END_TEST

START_TEST(prelu_errors) {
  ic_tensor *x = ew_rand(IC_FP32, 4, TU_DIMS(2, 3, 4, 5), 1, -1, 1);
  ic_tensor *a2 = ew_rand(IC_FP32, 1, TU_DIMS(2), 2, 0, 1);
  ew_in in[] = {{"X", "x", x}, {"Alpha", "a", a2}};
  ic_tensor *o;
  char err[1024];
  g_fmt = NULL;
  g_mode = "channel";
  ck_assert_int_eq(run1("prelu", 2, in, a_prelu, IC_FP32, &o, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "(prelu)", "Alpha 'a'", "expected 3 values for mode channel", NULL);
  g_mode = "rows";
  ck_assert_int_ne(run1("prelu", 2, in, a_prelu, IC_FP32, &o, err), IC_OK);
  tu_assert_msg(err, "prelu", "'mode'", "rows", NULL);
  g_mode = "channel";
  g_fmt = "HWCN";
  ck_assert_int_ne(run1("prelu", 2, in, a_prelu, IC_FP32, &o, err), IC_OK);
  tu_assert_msg(err, "prelu", "'data_format'", "HWCN", NULL);
  ic_tensor_destroy(a2);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- elementwise_floordiv / elementwise_mod ---- */

/* Python's // and % on doubles, written from their definitions. */
static double py_floordiv(double a, double b) { return floor(a / b); }
static double py_mod(double a, double b) { return a - b * floor(a / b); }

START_TEST(floordiv_mod_signs) {
  const int32_t av[] = {7, -7, 7, -7, 0, 6, -6, 1, INT32_MIN};
  const int32_t bv[] = {2, 2, -2, -2, 3, -3, 4, -5, 3};
  ic_tensor *a = tu_i32(1, TU_DIMS(9), av), *b = tu_i32(1, TU_DIMS(9), bv);
  ew_in in[] = {{"X", "x", a}, {"Y", "y", b}};
  ic_tensor *q = ok1("elementwise_floordiv", 2, in, NULL, IC_INT32);
  ic_tensor *m = ok1("elementwise_mod", 2, in, NULL, IC_INT32);
  double rq[9], rm[9];
  for (int i = 0; i < 9; i++) {
    rq[i] = py_floordiv(av[i], bv[i]);
    rm[i] = py_mod(av[i], bv[i]);
  }
  tu_assert_close(q, rq, 9, 0, 0);
  tu_assert_close(m, rm, 9, 0, 0);
  ic_tensor_destroy(q);
  ic_tensor_destroy(m);
  /* floats, with Y broadcast along axis 0 */
  const double xv[] = {7.5, -7.5, 5.25, -5.25, 1e-3, 6, -0.5, 9};
  ic_tensor *x = tu_f64(2, TU_DIMS(2, 4), xv);
  ic_tensor *y = tu_f64(1, TU_DIMS(2), (const double[]){2, -0.75});
  ew_in fin[] = {{"X", "x", x}, {"Y", "y", y}};
  for (int op = 0; op < 2; op++) {
    ic_tensor *out;
    char err[1024];
    ic_builder *bb;
    ic_builder_op *o = ew_op_program(&bb, op ? "elementwise_mod" : "elementwise_floordiv", 2,
                                     fin, IC_FP64);
    ic_builder_attr_int(o, "axis", 0);
    ic_tensor *feeds[] = {x, y};
    ck_assert_int_eq(ew_run(bb, 2, TU_NAMES("x", "y"), feeds, &out, err, sizeof err), IC_OK);
    ic_builder_destroy(bb);
    double ref[8];
    for (int i = 0; i < 8; i++) {
      double yy = i < 4 ? 2 : -0.75;
      ref[i] = op ? py_mod(xv[i], yy) : py_floordiv(xv[i], yy);
    }
    tu_assert_close(out, ref, 8, 1e-12, 1e-15);
    ic_tensor_destroy(out);
  }
  ic_tensor_destroy(y);
  ic_tensor_destroy(x);
  /* an integer zero divisor is an error naming Y */
  ic_tensor *z = tu_i32(1, TU_DIMS(9), (const int32_t[]){1, 1, 1, 0, 1, 1, 1, 1, 1});
  ew_in zin[] = {{"X", "x", a}, {"Y", "y", z}};
  ic_tensor *out;
  char err[1024];
  ck_assert_int_eq(run1("elementwise_mod", 2, zin, NULL, IC_INT32, &out, err),
                   IC_ERR_INVALID_ARGUMENT);
  tu_assert_msg(err, "elementwise_mod", "Y 'y'", "division by zero", NULL);
  ic_tensor_destroy(z);
  ic_tensor_destroy(a);
  ic_tensor_destroy(b);
}
END_TEST

static void a_fft_axis1(ic_builder_op *o) {
  ic_builder_attr_longs(o, "axes", 1, (const int64_t[]){1});
  ic_builder_attr_string(o, "normalization", "backward");
  ic_builder_attr_bool(o, "forward", false);
  ic_builder_attr_long(o, "last_dim_size", 8);
}
static void a_fft_twice(ic_builder_op *o) {
  ic_builder_attr_longs(o, "axes", 2, (const int64_t[]){1, -1});
  ic_builder_attr_string(o, "normalization", "backward");
}
static void a_fft_norm(ic_builder_op *o) {
  ic_builder_attr_longs(o, "axes", 1, (const int64_t[]){0});
  ic_builder_attr_string(o, "normalization", "by_n");
}

/* The FFT ops' checks (values: the oracle case fft_modes and the JSON case fft): fft_c2r's
 * half spectrum must have n / 2 + 1 values for last_dim_size n; an axis named twice; an
 * unknown normalization; a complex input to fft_r2c. */
/* The 1-D FFT (fftutil.c: mixed radix over factors up to 16, else Bluestein) against the DFT
 * sum in long double, both directions: every length 1 to 160, powers of two, products of
 * small and large primes and primes (Bluestein) up to 1021; the worst
 * error relative to the largest output is below 1e-13. A strided input reads the same
 * values. */
static double fft_err(int64_t n, int sign, int64_t stride) {
  double *x = malloc((size_t)(2 * n * stride) * sizeof(double)), *y = malloc((size_t)(2 * n) * sizeof(double));
  double *work = malloc((size_t)(ic_fft_plan_len(n) + 1) * sizeof(double));
  ck_assert(x && y && work);
  unsigned s = (unsigned)(n * 7919 + 17);
  for (int64_t j = 0; j < 2 * n * stride; j++) {
    s = s * 1103515245u + 12345u;
    x[j] = (double)((s >> 8) % 20001) / 10000.0 - 1.0;
  }
  ic_fft_plan p;
  ic_fft_plan_init(&p, n, sign, work);
  ic_fft_exec(&p, x, stride, y);
  long double *w = malloc((size_t)(2 * n) * sizeof(long double));
  ck_assert(w != NULL);
  for (int64_t j = 0; j < n; j++) {
    const long double t = 2.0L * 3.14159265358979323846264338327950288L * (long double)j / (long double)n;
    w[2 * j] = cosl(t);
    w[2 * j + 1] = sign * sinl(t);
  }
  double worst = 0, top = 0;
  for (int64_t k = 0; k < n; k++) {
    long double re = 0, im = 0;
    for (int64_t j = 0, e = 0; j < n; j++, e = e + k >= n ? e + k - n : e + k) {
      const long double c = w[2 * e], sn = w[2 * e + 1];
      re += x[2 * j * stride] * c - x[2 * j * stride + 1] * sn;
      im += x[2 * j * stride] * sn + x[2 * j * stride + 1] * c;
    }
    const double d = hypot((double)(re - y[2 * k]), (double)(im - y[2 * k + 1]));
    worst = d > worst ? d : worst;
    const double m = hypot((double)re, (double)im);
    top = m > top ? m : top;
  }
  free(w);
  free(x);
  free(y);
  free(work);
  return top > 0 ? worst / top : worst;
}

START_TEST(fft_lengths) {
  static const int64_t more[] = {256, 512, 1024, 210, 360, 960, 17, 34, 101, 1021,
                                 2 * 3 * 5 * 7 * 11, 17 * 19};
  for (int sign = -1; sign <= 1; sign += 2) {
    for (int64_t n = 1; n <= 160 + (int64_t)(sizeof more / sizeof more[0]); n++) {
      const int64_t len = n <= 160 ? n : more[n - 161];
      const double e = fft_err(len, sign, 1);
      ck_assert_msg(e < 1e-13, "n = %lld, sign %d: relative error %g", (long long)len, sign, e);
    }
  }
  ck_assert_msg(fft_err(48, -1, 3) < 1e-13, "strided input");
  ck_assert_msg(fft_err(37, 1, 5) < 1e-13, "strided input, Bluestein");
}
END_TEST

START_TEST(fft_errors) {
  ic_tensor *zr = tu_f32(2, TU_DIMS(2, 4), NULL);
  ic_tensor *z;
  ck_assert_int_eq(ic_tensor_create(IC_COMPLEX64, 2, TU_DIMS(2, 4), &z), IC_OK);
  memset(ic_tensor_data(z), 0, 2 * 4 * 8);
  ic_tensor *out;
  char err[1024];
  ew_in in[] = {{"X", "x", z}};
  ck_assert_int_eq(run1("fft_c2r", 1, in, a_fft_axis1, IC_FP32, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "fft_c2r", "input X 'x'", "n / 2 + 1 = 5", "n = 8", NULL);
  ew_in inr[] = {{"X", "x", zr}};
  ck_assert_int_eq(run1("fft_r2c", 1, inr, a_fft_twice, IC_COMPLEX64, &out, err),
                   IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "fft_r2c", "'axes' names axis 1 twice", NULL);
  ck_assert_int_eq(run1("fft_r2c", 1, inr, a_fft_norm, IC_COMPLEX64, &out, err),
                   IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "normalization", "by_n", "backward, forward or ortho", NULL);
  ck_assert_int_eq(run1("fft_r2c", 1, in, a_fft_axis1, IC_COMPLEX64, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "fft_r2c", "input X 'x'", "complex64[2, 4]", "float32 or float64", NULL);
  ic_tensor_destroy(z);
  ic_tensor_destroy(zr);
}
END_TEST

/* Float-only math ops refuse integers, naming the input and the dtypes expected. */
START_TEST(bad_dtype) {
  ic_tensor *xi = tu_i32(1, TU_DIMS(2), (const int32_t[]){1, 2});
  const char *float_only[] = {"silu", "log", "rsqrt", "mish", "erf", "softplus", "elu",
                              "selu", "brelu", "logsigmoid", "sin", "cos", "reciprocal"};
  for (size_t i = 0; i < sizeof float_only / sizeof float_only[0]; i++) {
    ew_in in[] = {{"X", "x", xi}};
    ic_tensor *out;
    char err[1024];
    ck_assert_int_eq(run1(float_only[i], 1, in, NULL, IC_FP32, &out, err), IC_ERR_SHAPE);
    tu_assert_msg(err, float_only[i], "input X 'x'", "int32[2]", "float32 or float64", NULL);
  }
  ic_tensor_destroy(xi);
}
END_TEST

/* stft two-sided (onesided false: Paddle's own kernel fails in this mode, so the oracle case
 * stft_modes covers only onesided): the first n_fft / 2 + 1 bins equal the onesided result
 * and bin k > n_fft / 2 is the conjugate of bin n_fft - k, for an even and an odd n_fft,
 * normalized or not; then the errors (a window of the wrong length, fewer samples than
 * n_fft, a rank-1 X). */
static int64_t g_stft_n;
static bool g_stft_one, g_stft_norm;
static void a_stft(ic_builder_op *o) {
  ic_builder_attr_int(o, "n_fft", (int)g_stft_n);
  ic_builder_attr_int(o, "hop_length", 3);
  ic_builder_attr_bool(o, "normalized", g_stft_norm);
  ic_builder_attr_bool(o, "onesided", g_stft_one);
}

START_TEST(stft_two_sided) {
  float xv[2 * 23], wv[8];
  for (int i = 0; i < 46; i++) xv[i] = (float)sin(0.37 * i + 0.1 * (i % 5));
  for (int i = 0; i < 8; i++) wv[i] = 0.5f + 0.06f * (float)i;
  ic_tensor *x = tu_f32(2, TU_DIMS(2, 23), xv);
  char err[1024];
  for (int v = 0; v < 2; v++) {
    g_stft_n = v ? 7 : 8;
    g_stft_norm = v == 1;
    ic_tensor *w = tu_f32(1, TU_DIMS(g_stft_n), wv);
    ew_in in[] = {{"X", "x", x}, {"Window", "w", w}};
    g_stft_one = true;
    ic_tensor *one = ok1("stft", 2, in, a_stft, IC_COMPLEX64);
    g_stft_one = false;
    ic_tensor *two = ok1("stft", 2, in, a_stft, IC_COMPLEX64);
    const int64_t n = g_stft_n, nf = 1 + (23 - n) / 3, h = n / 2 + 1;
    tu_assert_shape(one, IC_COMPLEX64, 3, TU_DIMS(2, h, nf));
    tu_assert_shape(two, IC_COMPLEX64, 3, TU_DIMS(2, n, nf));
    const float *o1 = ic_tensor_cdata(one), *o2 = ic_tensor_cdata(two);
    for (int64_t b = 0; b < 2; b++) {
      for (int64_t k = 0; k < n; k++) {
        for (int64_t f = 0; f < nf; f++) {
          const float *z = o2 + 2 * ((b * n + k) * nf + f);
          const int64_t kk = k < h ? k : n - k;
          const float *r = o1 + 2 * ((b * h + kk) * nf + f);
          const float im = k < h ? r[1] : -r[1];
          ck_assert_msg(fabsf(z[0] - r[0]) <= 1e-5f && fabsf(z[1] - im) <= 1e-5f,
                        "n_fft %lld b %lld bin %lld frame %lld: %g%+gi, expected %g%+gi",
                        (long long)n, (long long)b, (long long)k, (long long)f, z[0], z[1],
                        r[0], im);
        }
      }
    }
    ic_tensor_destroy(one);
    ic_tensor_destroy(two);
    ic_tensor_destroy(w);
  }
  ic_tensor *out;
  g_stft_n = 8;
  ic_tensor *w7 = tu_f32(1, TU_DIMS(7), wv), *x1 = tu_f32(1, TU_DIMS(23), xv);
  ic_tensor *xs = tu_f32(2, TU_DIMS(2, 5), xv), *w8 = tu_f32(1, TU_DIMS(8), wv);
  ew_in bw[] = {{"X", "x", x}, {"Window", "w", w7}};
  ck_assert_int_eq(run1("stft", 2, bw, a_stft, IC_COMPLEX64, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Window 'w'", "n_fft", NULL);
  ew_in bx[] = {{"X", "x", xs}, {"Window", "w", w8}};
  ck_assert_int_eq(run1("stft", 2, bx, a_stft, IC_COMPLEX64, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "fewer than", NULL);
  ew_in b1[] = {{"X", "x", x1}, {"Window", "w", w8}};
  ck_assert_int_eq(run1("stft", 2, b1, a_stft, IC_COMPLEX64, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "rank 2", NULL);
  ic_tensor *all[] = {x, w7, x1, xs, w8};
  for (size_t i = 0; i < 5; i++) ic_tensor_destroy(all[i]);
}
END_TEST

static TCase *tc_values(void) {
  TCase *tc = tcase_create("values");
  tcase_add_test(tc, unary_table);
  tcase_add_test(tc, unary_edges);
  tcase_add_test(tc, round_decimals);
  tcase_add_test(tc, integer_kernels);
  tcase_add_test(tc, pow_factor_tensor);
  tcase_add_test(tc, prelu_modes);
  tcase_add_test(tc, floordiv_mod_signs);
  return tc;
}

static TCase *tc_errors(void) {
  TCase *tc = tcase_create("errors");
  tcase_add_test(tc, prelu_errors);
  tcase_add_test(tc, bad_dtype);
  tcase_add_test(tc, fft_errors);
  tcase_add_test(tc, fft_lengths);
  tcase_add_test(tc, stft_two_sided);
  return tc;
}

TU_MAIN("ops_math", tc_values, tc_errors)
