/* scale, clip, cast, assign, fill_constant, dropout, uniform_random and gaussian_random,
 * plus the helpers they stand on (Philox, half conversions) and a check that every such op
 * in the real exported models matches its definition. Expected values are computed here
 * from the documented formulas (double precision, relative 1e-6 for float32 arithmetic) or
 * written out by hand for conversions; random ops are checked statistically (tolerances of
 * about six standard errors: the streams are fixed, so the tests are deterministic). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ew_testutil.h"
#include "kernels/cpu/half.h"
#include "kernels/cpu/philox.h"
#include "kernels/kernel.h"
#include "program/program.h"

/* ---- one-op programs ---- */


static ic_status run_prog(ic_builder *b, size_t n, const ew_in *in, ic_tensor **out,
                          char *err) {
  const char *names[8];
  ic_tensor *ts[8];
  for (size_t i = 0; i < n; i++) {
    names[i] = in[i].var;
    ts[i] = in[i].t;
  }
  ic_status st = ew_run(b, n, names, ts, out, err, 1024);
  ic_builder_destroy(b);
  return st;
}

static ic_tensor *run_ok(ic_builder *b, size_t n, const ew_in *in) {
  ic_tensor *out[1];
  char err[1024];
  ic_status st = run_prog(b, n, in, out, err);
  ck_assert_msg(st == IC_OK, "%s", err);
  return out[0];
}

static void run_fail(ic_builder *b, size_t n, const ew_in *in, ic_status code,
                     const char *n1, const char *n2, const char *n3) {
  ic_tensor *out[1];
  char err[1024];
  ic_status st = run_prog(b, n, in, out, err);
  ck_assert_msg(st == code, "status %s, expected %s: %s", ic_status_name(st),
                ic_status_name(code), err);
  tu_assert_msg(err, n1, n2, n3, NULL);
}

/* Run b (no feeds) on an executor with the given seed; fetch "out". */
static ic_tensor *run_seeded(ic_builder *b, uint64_t seed) {
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_options o;
  ic_options_default(&o);
  o.seed = seed;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  ic_tensor *out[1];
  ck_assert_msg(ic_executor_run(e, p, NULL, 0, NULL, NULL, 1, TU_NAMES("out"), out) == IC_OK,
                "%s", ic_executor_errmsg(e));
  ic_executor_destroy(e);
  ic_program_destroy(p);
  return out[0];
}

static bool same_bytes(const ic_tensor *a, const ic_tensor *b) {
  return ic_tensor_nbytes(a) == ic_tensor_nbytes(b) &&
         memcmp(ic_tensor_cdata(a), ic_tensor_cdata(b), ic_tensor_nbytes(a)) == 0;
}

/* ---- Philox and half conversions ---- */

/* Random123's known-answer vectors for Philox4x32-10 (kat_vectors). */
START_TEST(philox_known_answers) {
  static const uint32_t kat[3][10] = {
      {0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
      {~0u, ~0u, ~0u, ~0u, ~0u, ~0u, 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
      {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09,
       0x94fdcceb, 0x5001e420, 0x24126ea1}};
  for (int i = 0; i < 3; i++) {
    ic_philox4 r = ic_philox4x32_10(kat[i][0], kat[i][1], kat[i][2], kat[i][3], kat[i][4],
                                    kat[i][5]);
    for (int k = 0; k < 4; k++) ck_assert_uint_eq(r.v[k], kat[i][6 + k]);
  }
  /* element i of a stream lives in block i / 4: counter words (i / 4) low, high */
  ic_philox4 a = ic_philox_block(0x0123456789abcdefull, (1ull << 34) + 7);
  ic_philox4 b = ic_philox4x32_10(1, 1, 0, 0, 0x89abcdef, 0x01234567);
  for (int k = 0; k < 4; k++) ck_assert_uint_eq(a.v[k], b.v[k]);
  ck_assert(ic_philox_u24(0xffffffffu) < 1.0f && ic_philox_u24(0) == 0.0f);
}
END_TEST

START_TEST(half_conversions) {
  const struct {
    float f;
    uint16_t h;
  } f16[] = {
      {1.0f, 0x3c00},        {-2.0f, 0xc000},     {65504.0f, 0x7bff},
      {65519.0f, 0x7bff},    {65520.0f, 0x7c00},  {1e10f, 0x7c00},
      {-INFINITY, 0xfc00},   {0x1p-24f, 0x0001},  {0x1p-25f, 0x0000}, /* tie to even 0 */
      {0x1.8p-25f, 0x0001},  {0x1p-14f, 0x0400},  {0x1.ffcp-15f, 0x0400},
      {-0.0f, 0x8000},       {1.0f + 0x1p-11f, 0x3c00},           /* tie to even */
      {1.0f + 0x3p-11f, 0x3c02},                                  /* tie to even, up */
      {1.0f + 0x1p-11f + 0x1p-20f, 0x3c01},                       /* above the tie */
      {0.1f, 0x2e66},
  };
  for (size_t i = 0; i < sizeof f16 / sizeof f16[0]; i++) {
    ck_assert_msg(ic_f32_to_f16(f16[i].f) == f16[i].h, "%a -> %04x, expected %04x", f16[i].f,
                  ic_f32_to_f16(f16[i].f), f16[i].h);
  }
  ck_assert_uint_eq(ic_f32_to_f16(NAN) & 0x7e00u, 0x7e00u);
  /* every half survives a round trip through float; the widening is exact */
  for (uint32_t h = 0; h < 65536; h++) {
    float f = ic_f16_to_f32((uint16_t)h);
    bool nan = (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu);
    if (nan) {
      ck_assert(isnan(f));
      continue;
    }
    ck_assert_msg(ic_f32_to_f16(f) == h, "%04x -> %a -> %04x", h, f, ic_f32_to_f16(f));
    int e = (h >> 10) & 0x1f;
    double m = h & 0x3ff, want = e == 0 ? ldexp(m, -24) : e == 31 ? INFINITY
                                                                   : ldexp(1024 + m, e - 25);
    if (h & 0x8000u) want = -want;
    ck_assert_msg((double)f == want, "%04x -> %a, expected %a", h, f, want);
  }
  const struct {
    float f;
    uint16_t b;
  } bf[] = {{1.0f, 0x3f80},           {1.0f + 0x1p-8f, 0x3f80}, {1.0f + 0x3p-8f, 0x3f82},
            {-1.5f, 0xbfc0},          {3.4e38f, 0x7f80},        {INFINITY, 0x7f80},
            {1.0f + 0x1p-8f + 0x1p-20f, 0x3f81}};
  for (size_t i = 0; i < sizeof bf / sizeof bf[0]; i++) {
    ck_assert_uint_eq(ic_f32_to_bf16(bf[i].f), bf[i].b);
  }
  ck_assert_uint_eq(ic_f32_to_bf16(NAN), 0x7fff);
  ck_assert_uint_eq(ic_f32_to_bf16(-NAN), 0x7fff);
  ck_assert(ic_bf16_to_f32(0xbfc0) == -1.5f);
}
END_TEST

/* ---- scale ---- */

START_TEST(scale_values) {
  ic_tensor *x = ew_rand(IC_FP32, 3, TU_DIMS(2, 3, 7), 1, -5, 5);
  int64_t n = ic_tensor_numel(x);
  double *ref = malloc(sizeof(double) * (size_t)n);
  for (int after = -1; after <= 1; after++) { /* -1: attribute absent (true) */
    ic_builder *b;
    ew_in in[] = {{"X", "x", x}};
    ic_builder_op *o = ew_op_program(&b, "scale", 1, in, IC_FP32);
    ic_builder_attr_float(o, "scale", 2.5f);
    ic_builder_attr_float(o, "bias", -0.75f);
    if (after >= 0) ic_builder_attr_bool(o, "bias_after_scale", after);
    ic_tensor *out = run_ok(b, 1, in);
    for (int64_t i = 0; i < n; i++) {
      double v = ew_at(x, i);
      ref[i] = after ? 2.5 * v - 0.75 : 2.5 * (v - 0.75);
    }
    tu_assert_close(out, ref, (size_t)n, 1e-6, 1e-6);
    ic_tensor_destroy(out);
  }
  /* defaults: scale 1, bias 0 */
  ic_builder *b;
  ew_in in[] = {{"X", "x", x}};
  ew_op_program(&b, "scale", 1, in, IC_FP32);
  ic_tensor *out = run_ok(b, 1, in);
  tu_assert_bitwise(out, x, "identity scale");
  ic_tensor_destroy(out);
  /* ScaleTensor and BiasTensor replace the attributes */
  ic_tensor *s = tu_f32(1, TU_DIMS(1), (const float[]){-3});
  ic_tensor *bi = tu_f64(0, NULL, (const double[]){0.5});
  ew_in in3[] = {{"X", "x", x}, {"ScaleTensor", "s", s}, {"BiasTensor", "bi", bi}};
  ic_builder_op *o = ew_op_program(&b, "scale", 3, in3, IC_FP32);
  ic_builder_attr_float(o, "scale", 100);
  ic_builder_attr_float(o, "bias", 100);
  out = run_ok(b, 3, in3);
  for (int64_t i = 0; i < n; i++) ref[i] = -3 * ew_at(x, i) + 0.5;
  tu_assert_close(out, ref, (size_t)n, 1e-6, 1e-6);
  ic_tensor_destroy(out);
  ic_tensor_destroy(s);
  ic_tensor_destroy(bi);
  free(ref);
  ic_tensor_destroy(x);
}
END_TEST

/* Integer X: scale and bias are truncated to X's dtype first (2.5 -> 2, 1.7 -> 1), and
 * float64 is exact. */
START_TEST(scale_dtypes) {
  ic_tensor *xi = tu_i32(1, TU_DIMS(4), (const int32_t[]){1, 2, -3, INT32_MAX});
  ic_builder *b;
  ew_in in[] = {{"X", "x", xi}};
  ic_builder_op *o = ew_op_program(&b, "scale", 1, in, IC_INT32);
  ic_builder_attr_float(o, "scale", 2.5f);
  ic_builder_attr_float(o, "bias", 1.7f);
  ic_tensor *out = run_ok(b, 1, in);
  tu_assert_close(out, (const double[]){3, 5, -5, -1 /* wraps */}, 4, 0, 0);
  ic_tensor_destroy(out);
  ic_tensor *xl = tu_i64(1, TU_DIMS(2), (const int64_t[]){(1ll << 55) + 1, -4});
  ew_in inl[] = {{"X", "x", xl}};
  o = ew_op_program(&b, "scale", 1, inl, IC_INT64);
  ic_builder_attr_float(o, "scale", 3);
  ic_builder_attr_float(o, "bias", 2);
  ic_builder_attr_bool(o, "bias_after_scale", false);
  out = run_ok(b, 1, inl);
  const int64_t *d = ic_tensor_cdata(out);
  ck_assert(d[0] == 3 * ((1ll << 55) + 3) && d[1] == -6);
  ic_tensor_destroy(out);
  ic_tensor *xd = tu_f64(1, TU_DIMS(2), (const double[]){0.1, -1e300});
  ew_in ind[] = {{"X", "x", xd}};
  o = ew_op_program(&b, "scale", 1, ind, IC_FP64);
  ic_builder_attr_float(o, "scale", 0.5f);
  out = run_ok(b, 1, ind);
  tu_assert_close(out, (const double[]){0.05, -5e299}, 2, 1e-15, 0);
  ic_tensor_destroy(out);
  /* empty X */
  ic_tensor *xe = ew_rand(IC_FP32, 2, TU_DIMS(0, 3), 1, 0, 1);
  ew_in ine[] = {{"X", "x", xe}};
  ew_op_program(&b, "scale", 1, ine, IC_FP32);
  out = run_ok(b, 1, ine);
  tu_assert_shape(out, IC_FP32, 2, TU_DIMS(0, 3));
  ic_tensor_destroy(out);
  /* a ScaleTensor of two elements, and a bool X, are refused */
  ic_tensor *s2 = tu_f32(1, TU_DIMS(2), (const float[]){1, 2});
  ew_in bad[] = {{"X", "x", xd}, {"ScaleTensor", "s2", s2}};
  ew_op_program(&b, "scale", 2, bad, IC_FP64);
  run_fail(b, 2, bad, IC_ERR_SHAPE, "input ScaleTensor 's2'", "float32[2]", "one element");
  ic_tensor *xb;
  ck_assert_int_eq(ic_tensor_create(IC_BOOL, 1, TU_DIMS(2), &xb), IC_OK);
  ew_in inb[] = {{"X", "x", xb}};
  ew_op_program(&b, "scale", 1, inb, IC_BOOL);
  run_fail(b, 1, inb, IC_ERR_SHAPE, "(scale)", "input X 'x'", "bool[2]");
  ic_tensor *all[] = {xi, xl, xd, xe, s2, xb};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) ic_tensor_destroy(all[i]);
}
END_TEST

/* ---- clip ---- */

START_TEST(clip_values) {
  ic_tensor *x = tu_f32(1, TU_DIMS(7), (const float[]){-3, -0.5f, 0, 0.25f, 0.5f, 9, NAN});
  ic_builder *b;
  ew_in in[] = {{"X", "x", x}};
  ic_builder_op *o = ew_op_program(&b, "clip", 1, in, IC_FP32);
  ic_builder_attr_float(o, "min", -0.5f);
  ic_builder_attr_float(o, "max", 0.3f);
  ic_tensor *out = run_ok(b, 1, in);
  tu_assert_close(out, (const double[]){-0.5, -0.5, 0, 0.25, 0.3f, 0.3f, NAN}, 7, 0, 0);
  ic_tensor_destroy(out);
  /* a Min tensor replaces the attribute (Paddle writes -FLT_MAX beside it) */
  ic_tensor *mn = tu_f32(1, TU_DIMS(1), (const float[]){0.1f});
  ew_in in2[] = {{"X", "x", x}, {"Min", "mn", mn}};
  o = ew_op_program(&b, "clip", 2, in2, IC_FP32);
  ic_builder_attr_float(o, "min", -3.4028234663852886e+38f);
  ic_builder_attr_float(o, "max", 0.5f);
  out = run_ok(b, 2, in2);
  tu_assert_close(out, (const double[]){0.1f, 0.1f, 0.1f, 0.25, 0.5, 0.5, NAN}, 7, 0, 0);
  ic_tensor_destroy(out);
  /* integer X: bounds truncated to X's dtype (1.5 -> 1, 3.7 -> 3) */
  ic_tensor *xi = tu_i32(1, TU_DIMS(5), (const int32_t[]){-7, 1, 2, 3, 40});
  ew_in ini[] = {{"X", "x", xi}};
  o = ew_op_program(&b, "clip", 1, ini, IC_INT32);
  ic_builder_attr_float(o, "min", 1.5f);
  ic_builder_attr_float(o, "max", 3.7f);
  out = run_ok(b, 1, ini);
  tu_assert_close(out, (const double[]){1, 1, 2, 3, 3}, 5, 0, 0);
  ic_tensor_destroy(out);
  /* float64, both bounds from int64 tensors */
  ic_tensor *xd = tu_f64(1, TU_DIMS(3), (const double[]){-10.5, 0.125, 10.5});
  ic_tensor *lo = tu_i64(1, TU_DIMS(1), (const int64_t[]){-2});
  ic_tensor *hi = tu_i64(1, TU_DIMS(1), (const int64_t[]){4});
  ew_in ind[] = {{"X", "x", xd}, {"Min", "lo", lo}, {"Max", "hi", hi}};
  ew_op_program(&b, "clip", 3, ind, IC_FP64);
  out = run_ok(b, 3, ind);
  tu_assert_close(out, (const double[]){-2, 0.125, 4}, 3, 0, 0);
  ic_tensor_destroy(out);
  ic_tensor *all[] = {x, mn, xi, xd, lo, hi};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) ic_tensor_destroy(all[i]);
}
END_TEST

START_TEST(clip_errors) {
  ic_tensor *x = tu_f32(1, TU_DIMS(2), (const float[]){1, 2});
  ic_builder *b;
  ew_in in[] = {{"X", "x", x}};
  ic_builder_op *o = ew_op_program(&b, "clip", 1, in, IC_FP32);
  ic_builder_attr_float(o, "min", 2);
  ic_builder_attr_float(o, "max", 1);
  run_fail(b, 1, in, IC_ERR_INVALID_PROGRAM, "(clip)", "'min' is 2", "'max'");
  o = ew_op_program(&b, "clip", 1, in, IC_FP32);
  ic_builder_attr_float(o, "max", 1);
  run_fail(b, 1, in, IC_ERR_INVALID_PROGRAM, "(clip)", "'min'", "missing");
  ic_tensor *hi = tu_f32(1, TU_DIMS(1), (const float[]){-1});
  ew_in in2[] = {{"X", "x", x}, {"Max", "hi", hi}};
  o = ew_op_program(&b, "clip", 2, in2, IC_FP32);
  ic_builder_attr_float(o, "min", 0);
  run_fail(b, 2, in2, IC_ERR_INVALID_ARGUMENT, "min 0 (attribute 'min')",
           "max -1 (input Max 'hi')", "greater");
  ic_tensor *hi2 = tu_f32(2, TU_DIMS(1, 2), (const float[]){1, 2});
  ew_in in3[] = {{"X", "x", x}, {"Max", "hi2", hi2}};
  o = ew_op_program(&b, "clip", 2, in3, IC_FP32);
  ic_builder_attr_float(o, "min", 0);
  run_fail(b, 2, in3, IC_ERR_SHAPE, "input Max 'hi2'", "float32[1, 2]", "one element");
  ic_tensor_destroy(hi2);
  ic_tensor_destroy(hi);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- cast ---- */

static ic_tensor *cast_to(ic_tensor *x, int out_dtype) {
  ic_builder *b;
  ew_in in[] = {{"X", "x", x}};
  ic_builder_op *o = ew_op_program(&b, "cast", 1, in, (ic_dtype)out_dtype);
  ic_builder_attr_int(o, "in_dtype", (int32_t)ic_tensor_dtype(x));
  ic_builder_attr_int(o, "out_dtype", out_dtype);
  ic_tensor *out = run_ok(b, 1, in);
  ck_assert_int_eq(ic_tensor_dtype(out), out_dtype);
  ck_assert_int_eq(ic_tensor_ndim(out), ic_tensor_ndim(x));
  return out;
}

static void expect_u16(const ic_tensor *t, const uint16_t *want, size_t n) {
  const uint16_t *d = ic_tensor_cdata(t);
  for (size_t i = 0; i < n; i++) {
    ck_assert_msg(d[i] == want[i], "element %zu is %04x, expected %04x", i, d[i], want[i]);
  }
}

START_TEST(cast_float_to_int) {
  ic_tensor *x = tu_f32(1, TU_DIMS(6), (const float[]){-1.7f, 1.7f, NAN, 3e9f, -3e9f, 0.5f});
  ic_tensor *o = cast_to(x, IC_INT32);
  tu_assert_close(o, (const double[]){-1, 1, INT32_MIN, INT32_MIN, INT32_MIN, 0}, 6, 0, 0);
  ic_tensor_destroy(o);
  o = cast_to(x, IC_INT64);
  const int64_t *d = ic_tensor_cdata(o);
  const int64_t want[] = {-1, 1, INT64_MIN, 3000000000ll, -3000000000ll, 0};
  for (int i = 0; i < 6; i++) ck_assert(d[i] == want[i]);
  ic_tensor_destroy(o);
  ic_tensor_destroy(x);
  /* narrow integers go through int32 and keep the low bits */
  x = tu_f32(1, TU_DIMS(4), (const float[]){-1.7f, 300.2f, 255.9f, 70000.5f});
  o = cast_to(x, IC_UINT8);
  tu_assert_close(o, (const double[]){255, 44, 255, 112}, 4, 0, 0);
  ic_tensor_destroy(o);
  o = cast_to(x, IC_INT8);
  tu_assert_close(o, (const double[]){-1, 44, -1, 112}, 4, 0, 0);
  ic_tensor_destroy(o);
  o = cast_to(x, IC_INT16);
  tu_assert_close(o, (const double[]){-1, 300, 255, 70000 - 65536}, 4, 0, 0);
  ic_tensor_destroy(o);
  ic_tensor_destroy(x);
  /* to bool: != 0, NaN is true */
  x = tu_f32(1, TU_DIMS(4), (const float[]){0, -0.0f, NAN, -2});
  o = cast_to(x, IC_BOOL);
  tu_assert_close(o, (const double[]){0, 0, 1, 1}, 4, 0, 0);
  ic_tensor_destroy(o);
  ic_tensor_destroy(x);
}
END_TEST

START_TEST(cast_half) {
  ic_tensor *x = tu_f32(1, TU_DIMS(6),
                        (const float[]){1.0f + 0x1p-11f, 1.0f + 0x3p-11f, 65520, 0x1p-24f,
                                        -0.0f, 0.1f});
  ic_tensor *h = cast_to(x, IC_FP16);
  expect_u16(h, (const uint16_t[]){0x3c00, 0x3c02, 0x7c00, 0x0001, 0x8000, 0x2e66}, 6);
  ic_tensor *back = cast_to(h, IC_FP32);
  tu_assert_close(back, (const double[]){1, 1 + 0x1p-9, INFINITY, 0x1p-24, 0, 0.0999755859375},
                  6, 0, 0);
  ic_tensor_destroy(back);
  back = cast_to(h, IC_FP64); /* float16 widens exactly to float64 too */
  tu_assert_close(back, (const double[]){1, 1 + 0x1p-9, INFINITY, 0x1p-24, 0, 0.0999755859375},
                  6, 0, 0);
  ic_tensor_destroy(back);
  ic_tensor_destroy(h);
  ic_tensor_destroy(x);
  x = tu_f32(1, TU_DIMS(4), (const float[]){1.0f + 0x1p-8f, 1.0f + 0x3p-8f, NAN, -1.5f});
  h = cast_to(x, IC_BF16);
  expect_u16(h, (const uint16_t[]){0x3f80, 0x3f82, 0x7fff, 0xbfc0}, 4);
  back = cast_to(h, IC_FP32);
  tu_assert_close(back, (const double[]){1, 1 + 0x1p-6, NAN, -1.5}, 4, 0, 0);
  ic_tensor_destroy(back);
  /* bfloat16 to float16 goes through float */
  ic_tensor *hh = cast_to(h, IC_FP16);
  expect_u16(hh, (const uint16_t[]){0x3c00, 0x3c10, 0x7ff8, 0xbe00}, 4);
  ic_tensor_destroy(hh);
  ic_tensor_destroy(h);
  ic_tensor_destroy(x);
  /* float64 -> float16 rounds through float, as Paddle: 1 + 2^-11 + 2^-40 becomes the tie
   * 1 + 2^-11 in float, then 1.0; a direct rounding would give 1 + 2^-10 */
  x = tu_f64(1, TU_DIMS(1), (const double[]){1.0 + 0x1p-11 + 0x1p-40});
  h = cast_to(x, IC_FP16);
  expect_u16(h, (const uint16_t[]){0x3c00}, 1);
  ic_tensor_destroy(h);
  ic_tensor_destroy(x);
  /* integers to float16 */
  x = tu_i32(1, TU_DIMS(2), (const int32_t[]){2049, -70000});
  h = cast_to(x, IC_FP16);
  expect_u16(h, (const uint16_t[]){0x6800, 0xfc00}, 2);
  ic_tensor_destroy(h);
  ic_tensor_destroy(x);
}
END_TEST

START_TEST(cast_others) {
  /* integer narrowing wraps */
  ic_tensor *x = tu_i64(1, TU_DIMS(3), (const int64_t[]){(1ll << 32) + 5, -1, 1ll << 31});
  ic_tensor *o = cast_to(x, IC_INT32);
  tu_assert_close(o, (const double[]){5, -1, INT32_MIN}, 3, 0, 0);
  ic_tensor_destroy(o);
  o = cast_to(x, IC_FP64);
  tu_assert_close(o, (const double[]){4294967301.0, -1, 2147483648.0}, 3, 0, 0);
  ic_tensor_destroy(o);
  ic_tensor_destroy(x);
  /* int32 -> float32 rounds to nearest even; float64 -> float32 rounds */
  x = tu_i32(1, TU_DIMS(2), (const int32_t[]){16777217, -16777219});
  o = cast_to(x, IC_FP32);
  tu_assert_close(o, (const double[]){16777216, -16777220}, 2, 0, 0);
  ic_tensor_destroy(o);
  ic_tensor_destroy(x);
  x = tu_f64(1, TU_DIMS(2), (const double[]){0.1, 1e300});
  o = cast_to(x, IC_FP32);
  tu_assert_close(o, (const double[]){(float)0.1, INFINITY}, 2, 0, 0);
  ic_tensor_destroy(o);
  ic_tensor_destroy(x);
  /* bool -> float, uint8 -> int64, and a same-dtype cast copies */
  ck_assert_int_eq(ic_tensor_create(IC_BOOL, 2, TU_DIMS(1, 3), &x), IC_OK);
  uint8_t *bd = ic_tensor_data(x);
  bd[1] = 1;
  o = cast_to(x, IC_FP32);
  tu_assert_shape(o, IC_FP32, 2, TU_DIMS(1, 3));
  tu_assert_close(o, (const double[]){0, 1, 0}, 3, 0, 0);
  ic_tensor_destroy(o);
  ic_tensor_destroy(x);
  ck_assert_int_eq(ic_tensor_create(IC_UINT8, 1, TU_DIMS(2), &x), IC_OK);
  ((uint8_t *)ic_tensor_data(x))[0] = 200;
  o = cast_to(x, IC_INT64);
  tu_assert_close(o, (const double[]){200, 0}, 2, 0, 0);
  ic_tensor_destroy(o);
  ic_tensor_destroy(x);
  x = ew_rand(IC_FP32, 3, TU_DIMS(2, 0, 3), 1, 0, 1);
  o = cast_to(x, IC_FP64);
  tu_assert_shape(o, IC_FP64, 3, TU_DIMS(2, 0, 3));
  ic_tensor_destroy(o);
  ic_tensor_destroy(x);
  x = ew_rand(IC_FP32, 2, TU_DIMS(3, 5), 1, -9, 9);
  o = cast_to(x, IC_FP32);
  tu_assert_bitwise(o, x, "same-dtype cast");
  ic_tensor_destroy(o);
  /* an unsupported out_dtype (complex64 = 23) and a missing one */
  ic_builder *b;
  ew_in in[] = {{"X", "x", x}};
  ic_builder_op *op = ew_op_program(&b, "cast", 1, in, IC_FP32);
  ic_builder_attr_int(op, "out_dtype", 23);
  run_fail(b, 1, in, IC_ERR_INVALID_PROGRAM, "(cast)", "'out_dtype' is 23", "float32");
  ew_op_program(&b, "cast", 1, in, IC_FP32);
  run_fail(b, 1, in, IC_ERR_INVALID_PROGRAM, "(cast)", "'out_dtype'", "missing");
  ic_tensor_destroy(x);
}
END_TEST

/* ---- assign ---- */

START_TEST(assign_values) {
  ic_tensor *xs[] = {ew_rand(IC_FP32, 3, TU_DIMS(2, 3, 5), 3, -1, 1),
                     ew_rand(IC_INT64, 1, TU_DIMS(7), 4, -100, 100),
                     ew_rand(IC_FP64, 2, TU_DIMS(0, 2), 4, 0, 1)};
  for (size_t i = 0; i < 3; i++) {
    ic_builder *b;
    ew_in in[] = {{"X", "x", xs[i]}};
    ew_op_program(&b, "assign", 1, in, ic_tensor_dtype(xs[i]));
    ic_tensor *o = run_ok(b, 1, in);
    tu_assert_bitwise(o, xs[i], "assign");
    ic_tensor_destroy(o);
    ic_tensor_destroy(xs[i]);
  }
}
END_TEST

/* ---- fill_constant ---- */

static ic_builder_op *fill_program(ic_builder **b, size_t n, const ew_in *in, int dtype) {
  ic_builder_op *o = ew_op_program(b, "fill_constant", n, in, (ic_dtype)dtype);
  ic_builder_attr_int(o, "dtype", dtype);
  return o;
}

static void expect_fill(const ic_tensor *t, ic_dtype dt, int ndim, const int64_t *dims,
                        double v) {
  tu_assert_shape(t, dt, ndim, dims);
  size_t n = (size_t)ic_tensor_numel(t);
  double *ref = malloc(sizeof(double) * (n ? n : 1));
  for (size_t i = 0; i < n; i++) ref[i] = v;
  tu_assert_close(t, ref, n, 0, 0);
  free(ref);
}

START_TEST(fill_constant_values) {
  ic_builder *b;
  ic_builder_op *o = fill_program(&b, 0, NULL, IC_FP32);
  ic_builder_attr_ints(o, "shape", 2, (const int32_t[]){2, 3});
  ic_builder_attr_float(o, "value", 1.5f);
  ic_tensor *t = run_ok(b, 0, NULL);
  expect_fill(t, IC_FP32, 2, TU_DIMS(2, 3), 1.5);
  ic_tensor_destroy(t);
  /* str_value keeps precision `value` loses: 2^53 + 1 in int64, 0.1 in float64 */
  o = fill_program(&b, 0, NULL, IC_INT64);
  ic_builder_attr_longs(o, "shape", 1, (const int64_t[]){3});
  ic_builder_attr_float(o, "value", 9007199254740992.0f);
  ic_builder_attr_string(o, "str_value", "9007199254740993");
  t = run_ok(b, 0, NULL);
  for (int i = 0; i < 3; i++) {
    ck_assert(((const int64_t *)ic_tensor_cdata(t))[i] == (1ll << 53) + 1);
  }
  ic_tensor_destroy(t);
  o = fill_program(&b, 0, NULL, IC_FP64);
  ic_builder_attr_longs(o, "shape", 1, (const int64_t[]){2});
  ic_builder_attr_float(o, "value", 0.1f);
  ic_builder_attr_string(o, "str_value", "0.1");
  t = run_ok(b, 0, NULL);
  expect_fill(t, IC_FP64, 1, TU_DIMS(2), 0.1);
  ic_tensor_destroy(t);
  /* inf, -inf, nan and True */
  const char *strs[] = {"inf", "-inf", "nan", "True", "False", "-2.5e-3"};
  const double vals[] = {INFINITY, -INFINITY, NAN, 1, 0, -2.5e-3};
  for (int i = 0; i < 6; i++) {
    o = fill_program(&b, 0, NULL, IC_FP32);
    ic_builder_attr_ints(o, "shape", 1, (const int32_t[]){2});
    ic_builder_attr_string(o, "str_value", strs[i]);
    t = run_ok(b, 0, NULL);
    tu_assert_close(t, (const double[]){vals[i], vals[i]}, 2, 1e-7, 0);
    ic_tensor_destroy(t);
  }
  /* value as a SCALAR (Paddle 2.5+), an empty str_value, a rank-0 shape */
  o = fill_program(&b, 0, NULL, IC_FP32);
  ic_builder_attr_scalar_double(o, "value", 2.25);
  ic_builder_attr_string(o, "str_value", "");
  t = run_ok(b, 0, NULL);
  expect_fill(t, IC_FP32, 0, NULL, 2.25);
  ic_tensor_destroy(t);
  /* conversions to the dtype: truncation, bool, float16 */
  o = fill_program(&b, 0, NULL, IC_INT32);
  ic_builder_attr_ints(o, "shape", 3, (const int32_t[]){1, 3, 1});
  ic_builder_attr_float(o, "value", -2.75f);
  t = run_ok(b, 0, NULL);
  expect_fill(t, IC_INT32, 3, TU_DIMS(1, 3, 1), -2);
  ic_tensor_destroy(t);
  o = fill_program(&b, 0, NULL, IC_BOOL);
  ic_builder_attr_ints(o, "shape", 1, (const int32_t[]){5});
  ic_builder_attr_float(o, "value", 0.5f);
  t = run_ok(b, 0, NULL);
  expect_fill(t, IC_BOOL, 1, TU_DIMS(5), 1);
  ic_tensor_destroy(t);
  o = fill_program(&b, 0, NULL, IC_FP16);
  ic_builder_attr_ints(o, "shape", 1, (const int32_t[]){3});
  ic_builder_attr_string(o, "str_value", "0.1");
  t = run_ok(b, 0, NULL);
  tu_assert_shape(t, IC_FP16, 1, TU_DIMS(3));
  expect_u16(t, (const uint16_t[]){0x2e66, 0x2e66, 0x2e66}, 3);
  ic_tensor_destroy(t);
  /* an empty shape */
  o = fill_program(&b, 0, NULL, IC_FP32);
  ic_builder_attr_ints(o, "shape", 2, (const int32_t[]){0, 4});
  t = run_ok(b, 0, NULL);
  tu_assert_shape(t, IC_FP32, 2, TU_DIMS(0, 4));
  ic_tensor_destroy(t);
}
END_TEST

/* ValueTensor replaces the value; ShapeTensor, then ShapeTensorList, replace the shape. */
START_TEST(fill_constant_tensors) {
  ic_tensor *v = tu_f32(1, TU_DIMS(1), (const float[]){4.5f});
  ic_tensor *shape = tu_i32(1, TU_DIMS(2), (const int32_t[]){3, 2});
  ic_tensor *d0 = tu_i64(1, TU_DIMS(1), (const int64_t[]){2});
  ic_tensor *d1 = tu_i32(0, NULL, (const int32_t[]){5});
  ic_builder *b;
  ew_in in1[] = {{"ValueTensor", "v", v}, {"ShapeTensor", "shape", shape},
                   {"ShapeTensorList", "d0", d0}, {"ShapeTensorList", "d1", d1}};
  ic_builder_op *o = fill_program(&b, 4, in1, IC_INT32);
  ic_builder_attr_ints(o, "shape", 1, (const int32_t[]){7});
  ic_builder_attr_float(o, "value", 1);
  ic_tensor *t = run_ok(b, 4, in1);
  expect_fill(t, IC_INT32, 2, TU_DIMS(3, 2), 4);
  ic_tensor_destroy(t);
  ew_in in2[] = {{"ShapeTensorList", "d0", d0}, {"ShapeTensorList", "d1", d1}};
  o = fill_program(&b, 2, in2, IC_FP64);
  ic_builder_attr_ints(o, "shape", 1, (const int32_t[]){7});
  ic_builder_attr_float(o, "value", -1);
  t = run_ok(b, 2, in2);
  expect_fill(t, IC_FP64, 2, TU_DIMS(2, 5), -1);
  ic_tensor_destroy(t);
  /* an int64 ValueTensor stays exact */
  ic_tensor *big = tu_i64(1, TU_DIMS(1), (const int64_t[]){(1ll << 62) + 3});
  ew_in in3[] = {{"ValueTensor", "big", big}};
  o = fill_program(&b, 1, in3, IC_INT64);
  ic_builder_attr_ints(o, "shape", 1, (const int32_t[]){2});
  t = run_ok(b, 1, in3);
  ck_assert(((const int64_t *)ic_tensor_cdata(t))[1] == (1ll << 62) + 3);
  ic_tensor_destroy(t);
  ic_tensor_destroy(big);
  ic_tensor_destroy(v);
  ic_tensor_destroy(shape);
  ic_tensor_destroy(d0);
  ic_tensor_destroy(d1);
}
END_TEST

START_TEST(fill_constant_errors) {
  ic_builder *b;
  ic_builder_op *o = fill_program(&b, 0, NULL, IC_FP32);
  ic_builder_attr_ints(o, "shape", 2, (const int32_t[]){3, -2});
  run_fail(b, 0, NULL, IC_ERR_SHAPE, "(fill_constant)", "attribute 'shape'", "dim 1 = -2");
  o = fill_program(&b, 0, NULL, IC_FP32);
  ic_builder_attr_string(o, "str_value", "1.5x");
  run_fail(b, 0, NULL, IC_ERR_INVALID_PROGRAM, "(fill_constant)", "'str_value'", "'1.5x'");
  o = ew_op_program(&b, "fill_constant", 0, NULL, IC_FP32);
  ic_builder_attr_int(o, "dtype", 24);
  run_fail(b, 0, NULL, IC_ERR_INVALID_PROGRAM, "(fill_constant)", "'dtype' is 24", "float32");
  ic_tensor *s2 = tu_i32(2, TU_DIMS(1, 2), (const int32_t[]){1, 2});
  ew_in in[] = {{"ShapeTensor", "s2", s2}};
  fill_program(&b, 1, in, IC_FP32);
  run_fail(b, 1, in, IC_ERR_SHAPE, "input ShapeTensor 's2'", "int32[1, 2]", "rank 1");
  ic_tensor *sf = tu_f32(1, TU_DIMS(2), (const float[]){1, 2});
  ew_in in2[] = {{"ShapeTensor", "sf", sf}};
  fill_program(&b, 1, in2, IC_FP32);
  run_fail(b, 1, in2, IC_ERR_SHAPE, "input ShapeTensor 'sf'", "float32[2]", "int32 or int64");
  ic_tensor *neg = tu_i64(1, TU_DIMS(1), (const int64_t[]){-1});
  ew_in in3[] = {{"ShapeTensorList", "neg", neg}};
  fill_program(&b, 1, in3, IC_FP32);
  run_fail(b, 1, in3, IC_ERR_SHAPE, "input ShapeTensorList 'neg'", "dim 0 = -1", ">= 0");
  /* the same from ShapeTensor, and too many dims from each source */
  ic_tensor *sneg = tu_i32(1, TU_DIMS(3), (const int32_t[]){2, 1, -3});
  ew_in in4[] = {{"ShapeTensor", "sneg", sneg}};
  fill_program(&b, 1, in4, IC_FP32);
  run_fail(b, 1, in4, IC_ERR_SHAPE, "input ShapeTensor 'sneg'", "dim 2 = -3", ">= 0");
  int32_t ones[IC_MAX_RANK + 1];
  for (int i = 0; i <= IC_MAX_RANK; i++) ones[i] = 1;
  ic_tensor *slong = tu_i32(1, TU_DIMS(IC_MAX_RANK + 1), ones);
  ew_in in5[] = {{"ShapeTensor", "slong", slong}};
  fill_program(&b, 1, in5, IC_FP32);
  run_fail(b, 1, in5, IC_ERR_SHAPE, "input ShapeTensor 'slong'", "dims, expected at most", NULL);
  o = fill_program(&b, 0, NULL, IC_FP32);
  ic_builder_attr_ints(o, "shape", IC_MAX_RANK + 1, ones);
  run_fail(b, 0, NULL, IC_ERR_SHAPE, "attribute 'shape'", "dims, expected at most", NULL);
  ic_tensor_destroy(slong);
  ic_tensor_destroy(sneg);
  ic_tensor_destroy(neg);
  ic_tensor_destroy(sf);
  ic_tensor_destroy(s2);
}
END_TEST

/* ---- dropout ---- */

static ic_builder *dropout_program(ic_tensor *x, ic_tensor *seed, float p, int is_test,
                                   const char *impl, bool with_mask, int fix_seed) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  if (seed) ew_feed(b, "seed", seed);
  ic_builder_op *o = ic_builder_add_op(b, 0, "dropout");
  ic_builder_in(o, "X", "x");
  if (seed) ic_builder_in(o, "Seed", "seed");
  ic_builder_out(o, "Out", "out");
  if (with_mask) {
    ic_builder_var(b, 0, "mask", IC_UINT8, 0, NULL, false);
    ic_builder_out(o, "Mask", "mask");
  }
  ic_builder_attr_float(o, "dropout_prob", p);
  if (is_test >= 0) ic_builder_attr_bool(o, "is_test", is_test);
  if (impl) ic_builder_attr_string(o, "dropout_implementation", impl);
  if (fix_seed) {
    ic_builder_attr_bool(o, "fix_seed", true);
    ic_builder_attr_int(o, "seed", fix_seed);
  }
  ew_fetch(b, "out", ic_tensor_dtype(x));
  return b;
}

START_TEST(dropout_inference) {
  ic_tensor *x = ew_rand(IC_FP32, 3, TU_DIMS(2, 5, 7), 9, -3, 3);
  int64_t n = ic_tensor_numel(x);
  double *ref = malloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) ref[i] = ew_at(x, i) * (1 - 0.25);
  ic_tensor *out[1];
  char err[1024];
  /* downgrade_in_infer (the default) scales by 1 - p; Mask declared but not produced */
  ic_builder *b = dropout_program(x, NULL, 0.25f, 1, NULL, true, 0);
  ck_assert_msg(ew_run(b, 1, TU_NAMES("x"), &x, out, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_close(out[0], ref, (size_t)n, 1e-6, 0);
  ic_tensor_destroy(out[0]);
  ck_assert_int_eq(tu_run(b, 1, TU_NAMES("x"), &x, 1, TU_NAMES("mask"), out, err, sizeof err),
                   IC_ERR_NOT_FOUND);
  tu_assert_msg(err, "'mask'", NULL);
  ic_builder_destroy(b);
  /* upscale_in_train passes X through */
  b = dropout_program(x, NULL, 0.25f, 1, "upscale_in_train", false, 0);
  ck_assert_msg(ew_run(b, 1, TU_NAMES("x"), &x, out, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_bitwise(out[0], x, "upscale_in_train inference");
  ic_tensor_destroy(out[0]);
  ic_builder_destroy(b);
  /* training without a Mask output computes the inference result, as Paddle */
  b = dropout_program(x, NULL, 0.25f, -1, NULL, false, 0);
  ck_assert_msg(ew_run(b, 1, TU_NAMES("x"), &x, out, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_close(out[0], ref, (size_t)n, 1e-6, 0);
  ic_tensor_destroy(out[0]);
  ic_builder_destroy(b);
  free(ref);
  ic_tensor_destroy(x);
  /* float64 */
  x = tu_f64(1, TU_DIMS(2), (const double[]){1, -3});
  b = dropout_program(x, NULL, 0.5f, 1, "downgrade_in_infer", false, 0);
  ck_assert_msg(ew_run(b, 1, TU_NAMES("x"), &x, out, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_close(out[0], (const double[]){0.5, -1.5}, 2, 0, 0);
  ic_tensor_destroy(out[0]);
  ic_builder_destroy(b);
  ic_tensor_destroy(x);
}
END_TEST

/* Inference dropouts that compute Out = X run as a view (analysis/fuse_dropout.c): x -> relu
 * -> r -> dropout -> d -> relu -> y, fetched y (and d where fetch_d). Each case: whether the
 * plan holds an assign instead of the dropout, and the same bits as the unfused run at 1 and 2
 * threads. */
typedef struct dv_case {
  const char *name;
  const char *impl; /* NULL: the default, downgrade_in_infer */
  float p;
  int is_test;      /* -1: absent */
  bool mask, seed, in_place, fetch_d, f64;
  bool fused;
} dv_case;

static const dv_case k_dv[] = {
    {"upscale, is_test", "upscale_in_train", 0.3f, 1, true, false, false, false, false, true},
    {"upscale, no Mask, is_test false", "upscale_in_train", 0.3f, 0, false, false, false, false, false, true},
    {"downgrade p 0", "downgrade_in_infer", 0.0f, 1, true, false, false, false, false, true},
    {"default impl p 0, float64, Out fetched", NULL, 0.0f, 1, false, false, false, true, true, true},
    {"downgrade p 0.25 scales", NULL, 0.25f, 1, true, false, false, false, false, false},
    {"training with Mask", "upscale_in_train", 0.3f, 0, true, false, false, false, false, false},
    {"a Seed input", "upscale_in_train", 0.3f, 1, false, true, false, false, false, false},
    {"in place", "upscale_in_train", 0.3f, 1, false, false, true, false, false, false},
};

START_TEST(dropout_as_view) {
  for (size_t c = 0; c < sizeof k_dv / sizeof k_dv[0]; c++) {
    const dv_case *k = &k_dv[c];
    const ic_dtype dt = k->f64 ? IC_FP64 : IC_FP32;
    const int64_t dims[3] = {2, 5, 7};
    ic_builder *b = ic_builder_create();
    const char *d = k->in_place ? "r" : "d";
    ic_builder_var(b, 0, "x", dt, 3, dims, false);
    ic_builder_var(b, 0, "r", dt, 3, dims, false);
    if (!k->in_place) ic_builder_var(b, 0, "d", dt, 3, dims, false);
    ic_builder_var(b, 0, "y", dt, 3, dims, false);
    ic_builder_feed(b, "x");
    ic_builder_op *o = ic_builder_add_op(b, 0, "relu");
    ic_builder_in(o, "X", "x");
    ic_builder_out(o, "Out", "r");
    if (k->seed) {
      ic_builder_var(b, 0, "seed", IC_INT32, 1, (const int64_t[]){1}, false);
      o = ic_builder_add_op(b, 0, "fill_constant");
      ic_builder_out(o, "Out", "seed");
      ic_builder_attr_int(o, "dtype", IC_INT32);
      ic_builder_attr_longs(o, "shape", 1, (const int64_t[]){1});
      ic_builder_attr_float(o, "value", 7);
    }
    o = ic_builder_add_op(b, 0, "dropout");
    ic_builder_in(o, "X", "r");
    if (k->seed) ic_builder_in(o, "Seed", "seed");
    ic_builder_out(o, "Out", d);
    if (k->mask) {
      ic_builder_var(b, 0, "mask", IC_UINT8, 3, dims, false);
      ic_builder_out(o, "Mask", "mask");
    }
    ic_builder_attr_float(o, "dropout_prob", k->p);
    if (k->is_test >= 0) ic_builder_attr_bool(o, "is_test", k->is_test);
    if (k->impl) ic_builder_attr_string(o, "dropout_implementation", k->impl);
    o = ic_builder_add_op(b, 0, "relu");
    ic_builder_in(o, "X", d);
    ic_builder_out(o, "Out", "y");
    ic_builder_fetch(b, "y");
    if (k->fetch_d) ic_builder_fetch(b, d);
    ic_program *p;
    char err[1024];
    ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s: %s", k->name, err);
    ic_builder_destroy(b);
    ic_tensor *x = ew_rand(dt, 3, dims, 11, -3, 3);
    const char *fetch[2] = {"y", d};
    const size_t n_fetch = k->fetch_d ? 2 : 1;
    ic_tensor *ref[2], *f1[2], *f2[2];
    ck_assert_msg(tu_run_scope(p, NULL, 1, TU_NAMES("x"), &x, n_fetch, fetch, ref, err,
                               sizeof err) == IC_OK,
                  "%s: %s", k->name, err);
    static const char *const types[] = {"dropout", "assign"};
    size_t c1[2], c2[2];
    tu_run_rewritten(p, NULL, 1, TU_NAMES("x"), &x, n_fetch, fetch, 1, f1, 2, types, c1);
    tu_run_rewritten(p, NULL, 1, TU_NAMES("x"), &x, n_fetch, fetch, 2, f2, 2, types, c2);
    ck_assert_msg(c1[0] == (size_t)!k->fused && c1[1] == (size_t)k->fused && c2[0] == c1[0] &&
                      c2[1] == c1[1],
                  "%s: %zu dropout and %zu assign instructions, expected %d and %d", k->name,
                  c1[0], c1[1], !k->fused, k->fused);
    for (size_t i = 0; i < n_fetch; i++) {
      tu_assert_bitwise(f1[i], ref[i], k->name);
      tu_assert_bitwise(f2[i], ref[i], k->name);
      ic_tensor_destroy(ref[i]);
      ic_tensor_destroy(f1[i]);
      ic_tensor_destroy(f2[i]);
    }
    ic_tensor_destroy(x);
    ic_program_destroy(p);
  }
}
END_TEST

/* Training: Mask in {0, 1} with about 1 - p ones, Out = X / (1 - p) (upscale) or X where
 * kept and 0 where dropped, the same mask on every run, another for another seed. */
static void train(ic_tensor *x, ic_tensor *seed, float p, const char *impl, int fix_seed,
                  ic_tensor **out, ic_tensor **mask) {
  ic_builder *b = dropout_program(x, seed, p, 0, impl, true, fix_seed);
  ic_tensor *got[2];
  char err[1024];
  const char *names[] = {"x", "seed"};
  ic_tensor *feeds[] = {x, seed};
  ck_assert_msg(tu_run(b, seed ? 2 : 1, names, feeds, 2, TU_NAMES("out", "mask"), got, err,
                       sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  *out = got[0];
  *mask = got[1];
}

START_TEST(dropout_training) {
  ic_tensor *x = ew_rand(IC_FP32, 2, TU_DIMS(100, 201), 5, 0.5, 2);
  int64_t n = ic_tensor_numel(x);
  for (int up = 0; up < 2; up++) {
    ic_tensor *out, *mask;
    train(x, NULL, 0.3f, up ? "upscale_in_train" : "downgrade_in_infer", 17, &out, &mask);
    tu_assert_shape(mask, IC_UINT8, 2, TU_DIMS(100, 201));
    const uint8_t *m = ic_tensor_cdata(mask);
    const float *o = ic_tensor_cdata(out);
    int64_t kept = 0;
    for (int64_t i = 0; i < n; i++) {
      ck_assert(m[i] <= 1);
      kept += m[i];
      float want = m[i] ? (up ? ((const float *)ic_tensor_cdata(x))[i] / (1.0f - 0.3f)
                              : ((const float *)ic_tensor_cdata(x))[i])
                        : 0.0f;
      ck_assert_msg(o[i] == want, "element %lld", (long long)i);
    }
    double frac = (double)kept / (double)n; /* standard error 0.0032 */
    ck_assert_msg(fabs(frac - 0.7) < 0.02, "kept %.4f, expected 0.7", frac);
    ic_tensor *out2, *mask2;
    train(x, NULL, 0.3f, up ? "upscale_in_train" : "downgrade_in_infer", 17, &out2, &mask2);
    ck_assert(same_bytes(mask, mask2) && same_bytes(out, out2));
    ic_tensor_destroy(out2);
    ic_tensor_destroy(mask2);
    train(x, NULL, 0.3f, up ? "upscale_in_train" : "downgrade_in_infer", 18, &out2, &mask2);
    ck_assert(!same_bytes(mask, mask2));
    ic_tensor_destroy(out2);
    ic_tensor_destroy(mask2);
    /* a Seed input replaces the attribute */
    ic_tensor *seed = tu_i32(1, TU_DIMS(1), (const int32_t[]){17});
    train(x, seed, 0.3f, up ? "upscale_in_train" : "downgrade_in_infer", 99, &out2, &mask2);
    ck_assert(same_bytes(mask, mask2));
    ic_tensor_destroy(out2);
    ic_tensor_destroy(mask2);
    ic_tensor_destroy(seed);
    ic_tensor_destroy(out);
    ic_tensor_destroy(mask);
  }
  /* p = 1 drops everything, p = 0 nothing */
  ic_tensor *out, *mask;
  train(x, NULL, 1.0f, "upscale_in_train", 3, &out, &mask);
  for (int64_t i = 0; i < n; i++) {
    ck_assert(((const uint8_t *)ic_tensor_cdata(mask))[i] == 0);
    ck_assert(((const float *)ic_tensor_cdata(out))[i] == 0);
  }
  ic_tensor_destroy(out);
  ic_tensor_destroy(mask);
  train(x, NULL, 0.0f, "upscale_in_train", 3, &out, &mask);
  tu_assert_bitwise(out, x, "p = 0");
  ic_tensor_destroy(out);
  ic_tensor_destroy(mask);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- the special-function family, shifts, copysign, rrelu, memcpy, share_buffer: what the
 * Paddle oracle cases cannot show (rrelu's Noise, which save_inference_model drops) and
 * every refusal, each naming the op, the variable or attribute and what was expected. ---- */

/* One op `type` on feeds x (and y when given) in slots xs (ys), writing slot os to "out". */
static ic_builder *one_op(const char *type, const char *xs, ic_tensor *x, const char *ys,
                          ic_tensor *y, const char *os, ic_dtype out_dt, ic_builder_op **op) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  if (y) ew_feed(b, "y", y);
  ic_builder_op *o = ic_builder_add_op(b, 0, type);
  ic_builder_in(o, xs, "x");
  if (y) ic_builder_in(o, ys, "y");
  ic_builder_out(o, os, "out");
  ew_fetch(b, "out", out_dt);
  *op = o;
  return b;
}

static void expect_fail(ic_builder *b, ic_tensor *x, ic_tensor *y, ic_status code,
                        const char *n1, const char *n2, const char *n3) {
  ic_tensor *feeds[2] = {x, y}, *out[1];
  char err[1024];
  ic_status st = ew_run(b, y ? 2 : 1, y ? TU_NAMES("x", "y") : TU_NAMES("x"), feeds, out, err,
                        sizeof err);
  ck_assert_msg(st == code, "status %s, expected %s: %s", ic_status_name(st),
                ic_status_name(code), err);
  tu_assert_msg(err, n1, n2, n3, NULL);
  ic_builder_destroy(b);
}

START_TEST(rrelu_noise) {
  ic_tensor *x = tu_f32(1, TU_DIMS(5), (const float[]){-2.0f, 0.0f, -0.0f, 3.0f, NAN});
  ic_builder_op *o;
  ic_builder *b = one_op("rrelu", "X", x, NULL, NULL, "Out", IC_FP32, &o);
  ic_builder_out(o, "Noise", "noise");
  ew_fetch(b, "noise", IC_FP32);
  ic_builder_attr_float(o, "lower", 0.2f);
  ic_builder_attr_float(o, "upper", 0.4f);
  ic_builder_attr_bool(o, "is_test", true);
  ic_tensor *got[2];
  char err[1024];
  ck_assert_msg(tu_run(b, 1, TU_NAMES("x"), &x, 2, TU_NAMES("out", "noise"), got, err,
                       sizeof err) == IC_OK, "%s", err);
  const float mid = (0.2f + 0.4f) / 2.0f;
  const float *out = ic_tensor_cdata(got[0]), *noise = ic_tensor_cdata(got[1]);
  const float want_out[4] = {-2.0f * mid, 0.0f, -0.0f, 3.0f}, want_noise[5] = {mid, 1, 1, 1, mid};
  for (int i = 0; i < 4; i++) ck_assert(out[i] == want_out[i]);
  ck_assert(signbit(out[2]));
  ck_assert(isnan(out[4]));
  for (int i = 0; i < 5; i++) ck_assert(noise[i] == want_noise[i]);
  for (int i = 0; i < 2; i++) ic_tensor_destroy(got[i]);
  ic_builder_destroy(b);
  ic_tensor_destroy(x);
}
END_TEST

START_TEST(special_ops_errors) {
  ic_tensor *x = tu_f32(1, TU_DIMS(2), (const float[]){-1.5f, 2.0f});
  ic_tensor *xd = tu_f64(1, TU_DIMS(2), (const double[]){1.0, 2.0});
  ic_tensor *xi = tu_i32(1, TU_DIMS(2), (const int32_t[]){1, 2});
  ic_tensor *y3 = tu_f32(1, TU_DIMS(3), (const float[]){1, 2, 3});
  ic_builder_op *o;
  /* rrelu: training mode (random slopes) is refused before anything runs; bounds checked */
  ic_builder *b = one_op("rrelu", "X", x, NULL, NULL, "Out", IC_FP32, &o);
  ic_builder_attr_bool(o, "is_test", false);
  expect_fail(b, x, NULL, IC_ERR_UNSUPPORTED, "rrelu", "is_test false", "random");
  b = one_op("rrelu", "X", x, NULL, NULL, "Out", IC_FP32, &o);
  ic_builder_attr_bool(o, "is_test", true);
  ic_builder_attr_float(o, "lower", -0.5f);
  expect_fail(b, x, NULL, IC_ERR_INVALID_PROGRAM, "'lower'", "-0.5", "[0, 1]");
  b = one_op("rrelu", "X", x, NULL, NULL, "Out", IC_FP32, &o);
  ic_builder_attr_bool(o, "is_test", true);
  ic_builder_attr_float(o, "lower", 0.5f);
  ic_builder_attr_float(o, "upper", 0.25f);
  expect_fail(b, x, NULL, IC_ERR_INVALID_PROGRAM, "'upper'", "0.25", ">= lower");
  b = one_op("rrelu", "X", xi, NULL, NULL, "Out", IC_INT32, &o);
  ic_builder_attr_bool(o, "is_test", true);
  expect_fail(b, xi, NULL, IC_ERR_SHAPE, "input X 'x'", "int32[2]", "float32 or float64");
  /* memcpy: place types 0..4 only */
  b = one_op("memcpy", "X", x, NULL, NULL, "Out", IC_FP32, &o);
  ic_builder_attr_int(o, "dst_place_type", 5);
  expect_fail(b, x, NULL, IC_ERR_INVALID_PROGRAM, "'dst_place_type'", "is 5", "4 (custom");
  /* unary special functions: float only */
  static const char *const unary[] = {"lgamma", "digamma", "polygamma", "i0", "i0e", "i1",
                                      "i1e"};
  for (size_t k = 0; k < sizeof unary / sizeof unary[0]; k++) {
    bool lower = k >= 2;
    b = one_op(unary[k], lower ? "x" : "X", xi, NULL, NULL, lower ? "out" : "Out", IC_INT32, &o);
    expect_fail(b, xi, NULL, IC_ERR_SHAPE, unary[k], "'x'", "int32[2]");
  }
  /* binary ops: one dtype, broadcastable dims, their dtypes */
  b = one_op("copysign", "x", x, "y", xd, "out", IC_FP32, &o);
  expect_fail(b, x, xd, IC_ERR_SHAPE, "copysign", "float32", "float64");
  b = one_op("nextafter", "x", x, "y", y3, "out", IC_FP32, &o);
  expect_fail(b, x, y3, IC_ERR_SHAPE, "nextafter", "[2]", "[3]");
  b = one_op("nextafter", "x", xi, "y", xi, "out", IC_INT32, &o);
  expect_fail(b, xi, xi, IC_ERR_SHAPE, "nextafter", "input x 'x'", "int32[2]");
  b = one_op("bitwise_left_shift", "x", x, "y", x, "out", IC_FP32, &o);
  expect_fail(b, x, x, IC_ERR_SHAPE, "bitwise_left_shift", "input x 'x'", "float32[2]");
  b = one_op("bitwise_right_shift", "x", xi, "y", x, "out", IC_INT32, &o);
  expect_fail(b, xi, x, IC_ERR_SHAPE, "bitwise_right_shift", "int32", "float32");
  /* share_buffer: X's tensors of one dtype */
  b = ic_builder_create();
  ew_feed(b, "x", x);
  ew_feed(b, "y", xd);
  o = ic_builder_add_op(b, 0, "share_buffer");
  ic_builder_input(o, "X", 2, (const char *[]){"x", "y"});
  ic_builder_output(o, "Out", 2, (const char *[]){"out", "out2"});
  ic_builder_var(b, 0, "out2", IC_FP64, 0, NULL, false);
  ew_fetch(b, "out", IC_FP32);
  expect_fail(b, x, xd, IC_ERR_SHAPE, "share_buffer", "input X 'y'", "X[0]'s dtype float32");
  ic_tensor_destroy(x);
  ic_tensor_destroy(xd);
  ic_tensor_destroy(xi);
  ic_tensor_destroy(y3);
}
END_TEST

START_TEST(dropout_errors) {
  ic_tensor *x = tu_f32(1, TU_DIMS(2), (const float[]){1, 2}), *out[1];
  char err[1024];
  ic_builder *b = dropout_program(x, NULL, 1.5f, 1, NULL, false, 0);
  ck_assert_int_eq(ew_run(b, 1, TU_NAMES("x"), &x, out, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "(dropout)", "'dropout_prob' is 1.5", "[0, 1]", NULL);
  ic_builder_destroy(b);
  b = dropout_program(x, NULL, 0.5f, 1, "upscale", false, 0);
  ck_assert_int_eq(ew_run(b, 1, TU_NAMES("x"), &x, out, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'dropout_implementation'", "'upscale'", "upscale_in_train", NULL);
  ic_builder_destroy(b);
  ic_tensor *xi = tu_i32(1, TU_DIMS(2), (const int32_t[]){1, 2});
  b = dropout_program(xi, NULL, 0.5f, 1, NULL, false, 0);
  ck_assert_int_eq(ew_run(b, 1, TU_NAMES("x"), &xi, out, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "input X 'x'", "int32[2]", "float32 or float64", NULL);
  ic_builder_destroy(b);
  ic_tensor_destroy(xi);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- uniform_random and gaussian_random ---- */

static ic_builder *random_program(const char *type, int seed, int dtype, int64_t n) {
  ic_builder *b = ic_builder_create();
  ic_builder_op *o = ic_builder_add_op(b, 0, type);
  ic_builder_out(o, "Out", "out");
  ic_builder_attr_longs(o, "shape", 2, (const int64_t[]){n / 4, 4});
  ic_builder_attr_int(o, "seed", seed);
  ic_builder_attr_int(o, "dtype", dtype);
  if (!strcmp(type, "uniform_random")) {
    ic_builder_attr_float(o, "min", -2);
    ic_builder_attr_float(o, "max", 3);
  } else {
    ic_builder_attr_float(o, "mean", 1.5f);
    ic_builder_attr_float(o, "std", 2);
  }
  ew_fetch(b, "out", (ic_dtype)dtype);
  return b;
}

static void moments(const ic_tensor *t, double *mean, double *sd, double *lo, double *hi) {
  int64_t n = ic_tensor_numel(t);
  double s = 0, s2 = 0;
  *lo = INFINITY;
  *hi = -INFINITY;
  for (int64_t i = 0; i < n; i++) {
    double v = ew_at(t, i);
    s += v;
    s2 += v * v;
    *lo = fmin(*lo, v);
    *hi = fmax(*hi, v);
  }
  *mean = s / (double)n;
  *sd = sqrt(s2 / (double)n - *mean * *mean);
}

START_TEST(uniform_statistics) {
  for (int dt = IC_FP32; dt <= IC_FP64; dt++) {
    ic_builder *b = random_program("uniform_random", 7, dt, 100000);
    ic_tensor *t = run_seeded(b, 0);
    tu_assert_shape(t, (ic_dtype)dt, 2, TU_DIMS(25000, 4));
    double mean, sd, lo, hi;
    moments(t, &mean, &sd, &lo, &hi);
    /* U[-2, 3): mean 0.5 (standard error 0.0046), sd 5 / sqrt(12) (error 0.0033) */
    ck_assert_msg(lo >= -2 && hi < 3 && lo < -1.99 && hi > 2.99, "range [%g, %g]", lo, hi);
    ck_assert_msg(fabs(mean - 0.5) < 0.03, "mean %g", mean);
    ck_assert_msg(fabs(sd - 5 / sqrt(12.0)) < 0.02, "sd %g", sd);
    /* the stream layout: element i is word i % 4 of Philox block i / 4 with key = seed */
    for (int64_t i = 0; i < 8; i++) {
      ic_philox4 r = ic_philox_block(7, (uint64_t)i);
      double u = (double)(r.v[i % 4] >> 8) / 16777216.0;
      ck_assert_msg(fabs(ew_at(t, i) - (-2 + 5 * u)) < 1e-6, "element %lld", (long long)i);
    }
    ic_tensor_destroy(t);
    ic_builder_destroy(b);
  }
}
END_TEST

START_TEST(gaussian_statistics) {
  for (int dt = IC_FP32; dt <= IC_FP64; dt++) {
    ic_builder *b = random_program("gaussian_random", 11, dt, 100000);
    ic_tensor *t = run_seeded(b, 0);
    double mean, sd, lo, hi;
    moments(t, &mean, &sd, &lo, &hi);
    /* N(1.5, 2): standard errors 0.0063 (mean) and 0.0045 (sd) */
    ck_assert_msg(fabs(mean - 1.5) < 0.04, "mean %g", mean);
    ck_assert_msg(fabs(sd - 2) < 0.03, "sd %g", sd);
    ck_assert_msg(lo < 1.5 - 4 * 2 && hi > 1.5 + 4 * 2, "tails [%g, %g]", lo, hi);
    int64_t within = 0, n = ic_tensor_numel(t);
    for (int64_t i = 0; i < n; i++) within += fabs(ew_at(t, i) - 1.5) < 2;
    ck_assert_msg(fabs((double)within / (double)n - 0.6827) < 0.01, "within 1 sd: %g",
                  (double)within / (double)n);
    /* Box-Muller on words (0, 1) of block 0 gives elements 0 and 1 */
    ic_philox4 r = ic_philox_block(11, 0);
    double u1 = ((double)r.v[0] + 1) / 4294967296.0, u2 = r.v[1] / 4294967296.0;
    const double two_pi = 6.283185307179586;
    double z0 = sqrt(-2 * log(u1)) * cos(two_pi * u2), z1 = sqrt(-2 * log(u1)) * sin(two_pi * u2);
    ck_assert(fabs(ew_at(t, 0) - (1.5 + 2 * z0)) < 1e-5);
    ck_assert(fabs(ew_at(t, 1) - (1.5 + 2 * z1)) < 1e-5);
    ic_tensor_destroy(t);
    ic_builder_destroy(b);
  }
}
END_TEST

/* Same seed, same values on every run; seed 0 follows the executor's seed; a non-zero
 * seed ignores it; different seeds and different unseeded ops give different values. */
START_TEST(random_seeds) {
  const char *types[] = {"uniform_random", "gaussian_random"};
  for (int k = 0; k < 2; k++) {
    ic_builder *b = random_program(types[k], 5, IC_FP32, 64);
    ic_tensor *a = run_seeded(b, 0), *a2 = run_seeded(b, 0), *a3 = run_seeded(b, 123);
    ck_assert(same_bytes(a, a2) && same_bytes(a, a3));
    ic_builder_destroy(b);
    b = random_program(types[k], 6, IC_FP32, 64);
    ic_tensor *c = run_seeded(b, 0);
    ck_assert(!same_bytes(a, c));
    ic_builder_destroy(b);
    b = random_program(types[k], 0, IC_FP32, 64);
    ic_tensor *e0 = run_seeded(b, 0), *e0b = run_seeded(b, 0), *e1 = run_seeded(b, 1);
    ck_assert(same_bytes(e0, e0b) && !same_bytes(e0, e1) && !same_bytes(e0, a));
    ic_builder_destroy(b);
    /* two unseeded ops in one program draw different streams */
    b = random_program(types[k], 0, IC_FP32, 64);
    ic_builder_op *o = ic_builder_add_op(b, 0, types[k]);
    ic_builder_out(o, "Out", "out2");
    ic_builder_attr_longs(o, "shape", 2, (const int64_t[]){16, 4});
    ic_builder_var(b, 0, "out2", IC_FP32, 0, NULL, false);
    ic_builder_fetch(b, "out2");
    ic_program *p;
    char err[1024];
    ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
    ic_tensor *two[2];
    ck_assert_msg(tu_run_scope(p, NULL, 0, NULL, NULL, 2, TU_NAMES("out", "out2"), two, err,
                               sizeof err) == IC_OK, "%s", err);
    ck_assert(!same_bytes(two[0], two[1]));
    ic_tensor_destroy(two[0]);
    ic_tensor_destroy(two[1]);
    ic_program_destroy(p);
    ic_builder_destroy(b);
    ic_tensor *all[] = {a, a2, a3, c, e0, e0b, e1};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) ic_tensor_destroy(all[i]);
  }
}
END_TEST

/* Runs of one executor: an op whose seed attribute is 0 draws a fresh stream per run (run
 * k mixes the executor's seed with k, as Paddle's generator advances: a new dropout mask
 * every training step), the same sequence in every mode and in a second executor with the
 * same seed; a non-zero seed attribute repeats on every run. */
START_TEST(random_streams_per_run) {
  ic_builder *b = random_program("uniform_random", 0, IC_FP32, 64);
  ic_builder_op *o = ic_builder_add_op(b, 0, "uniform_random");
  ic_builder_out(o, "Out", "fixed");
  ic_builder_attr_longs(o, "shape", 2, (const int64_t[]){16, 4});
  ic_builder_attr_int(o, "seed", 9);
  ic_builder_var(b, 0, "fixed", IC_FP32, 0, NULL, false);
  ic_builder_fetch(b, "fixed");
  /* dropout in training mode with fix_seed false: its mask follows the run too */
  ic_builder_var(b, 0, "dx", IC_FP32, 2, TU_DIMS(16, 4), false);
  ic_builder_var(b, 0, "dmask", IC_UINT8, 0, NULL, false);
  ic_builder_var(b, 0, "dout", IC_FP32, 0, NULL, false);
  o = ic_builder_add_op(b, 0, "fill_constant");
  ic_builder_out(o, "Out", "dx");
  ic_builder_attr_longs(o, "shape", 2, (const int64_t[]){16, 4});
  ic_builder_attr_int(o, "dtype", IC_FP32);
  ic_builder_attr_float(o, "value", 1.0f);
  o = ic_builder_add_op(b, 0, "dropout");
  ic_builder_in(o, "X", "dx");
  ic_builder_out(o, "Out", "dout");
  ic_builder_out(o, "Mask", "dmask");
  ic_builder_attr_float(o, "dropout_prob", 0.5f);
  ic_builder_attr_bool(o, "is_test", false);
  ic_builder_fetch(b, "dout");
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  enum { RUNS = 3, N_EXEC = 4 };
  ic_tensor *got[N_EXEC][RUNS][3];
  for (int x = 0; x < N_EXEC; x++) {
    ic_options opt;
    ic_options_default(&opt);
    opt.seed = 77;
    opt.mode = x % 2 ? IC_MODE_UNCOMPILED : IC_MODE_COMPILED;
    opt.threads = x < 2 ? 1 : 2;
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&opt, &e), IC_OK);
    for (int r = 0; r < RUNS; r++) {
      ck_assert_msg(ic_executor_run(e, p, NULL, 0, NULL, NULL, 3, TU_NAMES("out", "fixed", "dout"),
                                    got[x][r]) == IC_OK,
                    "%s", ic_executor_errmsg(e));
    }
    ic_executor_destroy(e);
  }
  for (int r = 0; r < RUNS; r++) {
    for (int x = 1; x < N_EXEC; x++) {
      for (int f = 0; f < 3; f++) ck_assert_msg(same_bytes(got[x][r][f], got[0][r][f]), "executor %d run %d fetch %d", x, r, f);
    }
    ck_assert(same_bytes(got[0][r][1], got[0][0][1])); /* seed 9: the same every run */
    for (int q = 0; q < r; q++) {
      ck_assert_msg(!same_bytes(got[0][r][0], got[0][q][0]), "runs %d and %d drew alike", q, r);
      ck_assert_msg(!same_bytes(got[0][r][2], got[0][q][2]), "dropout masks of runs %d and %d", q, r);
    }
  }
  for (int x = 0; x < N_EXEC; x++) {
    for (int r = 0; r < RUNS; r++) {
      for (int f = 0; f < 3; f++) ic_tensor_destroy(got[x][r][f]);
    }
  }
  ic_program_destroy(p);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(random_options) {
  /* diag_num / diag_step / diag_val, and a shape from ShapeTensor */
  ic_tensor *shape = tu_i64(1, TU_DIMS(2), (const int64_t[]){4, 5});
  ic_builder *b;
  ew_in in[] = {{"ShapeTensor", "shape", shape}};
  ic_builder_op *o = ew_op_program(&b, "uniform_random", 1, in, IC_FP32);
  ic_builder_attr_ints(o, "shape", 1, (const int32_t[]){3});
  ic_builder_attr_int(o, "seed", 3);
  ic_builder_attr_int(o, "diag_num", 4);
  ic_builder_attr_int(o, "diag_step", 5);
  ic_builder_attr_float(o, "diag_val", 7);
  ic_tensor *t = run_ok(b, 1, in);
  tu_assert_shape(t, IC_FP32, 2, TU_DIMS(4, 5));
  for (int64_t i = 0; i < 20; i++) {
    double v = ew_at(t, i);
    if (i % 6 == 0 && i / 6 < 4) ck_assert(v == 7);
    else ck_assert(v >= -1 && v < 1); /* default range [-1, 1) */
  }
  ic_tensor_destroy(t);
  /* float16 and bfloat16 outputs */
  for (int dt = 0; dt < 2; dt++) {
    ic_builder *bb = ic_builder_create();
    ic_builder_op *g = ic_builder_add_op(bb, 0, dt ? "gaussian_random" : "uniform_random");
    ic_builder_out(g, "Out", "out");
    ic_builder_attr_ints(g, "shape", 1, (const int32_t[]){1000});
    ic_builder_attr_int(g, "dtype", dt ? IC_BF16 : IC_FP16);
    ew_fetch(bb, "out", dt ? IC_BF16 : IC_FP16);
    t = run_seeded(bb, 1);
    ic_tensor *f = cast_to(t, IC_FP32);
    double mean, sd, lo, hi;
    moments(f, &mean, &sd, &lo, &hi);
    ck_assert_msg(fabs(mean) < 0.2 && sd > 0.4, "mean %g sd %g", mean, sd);
    ic_tensor_destroy(f);
    ic_tensor_destroy(t);
    ic_builder_destroy(bb);
  }
  /* errors: min >= max, an integer dtype, a diagonal past the end */
  o = ew_op_program(&b, "uniform_random", 0, NULL, IC_FP32);
  ic_builder_attr_ints(o, "shape", 1, (const int32_t[]){3});
  ic_builder_attr_float(o, "min", 1);
  ic_builder_attr_float(o, "max", 1);
  run_fail(b, 0, NULL, IC_ERR_INVALID_PROGRAM, "(uniform_random)", "'min' is 1", "'max'");
  o = ew_op_program(&b, "gaussian_random", 0, NULL, IC_INT32);
  ic_builder_attr_ints(o, "shape", 1, (const int32_t[]){3});
  ic_builder_attr_int(o, "dtype", IC_INT32);
  run_fail(b, 0, NULL, IC_ERR_INVALID_PROGRAM, "(gaussian_random)", "'dtype' is 2", "float64");
  o = ew_op_program(&b, "uniform_random", 0, NULL, IC_FP32);
  ic_builder_attr_ints(o, "shape", 1, (const int32_t[]){10});
  ic_builder_attr_int(o, "diag_num", 4);
  ic_builder_attr_int(o, "diag_step", 3);
  run_fail(b, 0, NULL, IC_ERR_SHAPE, "diag_num 4", "element 12", "shape [10]");
  o = ew_op_program(&b, "gaussian_random", 0, NULL, IC_FP32);
  ic_builder_attr_ints(o, "shape", 1, (const int32_t[]){3});
  ic_builder_attr_float(o, "std", -1);
  run_fail(b, 0, NULL, IC_ERR_INVALID_PROGRAM, "(gaussian_random)", "'std' is -1", ">= 0");
  ic_tensor_destroy(shape);
}
END_TEST

/* ---- the real models ---- */

/* Every op of these types in the exported models has slots its definition accepts and
 * attributes its parser reads. */
START_TEST(real_model_ops) {
  static const char *const models[] = {
      "paddle/mobilenet_v2/inference.pdmodel", "paddle/pphgnet_plate/inference.pdmodel",
      "paddle/ppocr_rec_svtr/inference.pdmodel", "paddle/crnn_rec/inference.pdmodel"};
  static const char *const mine[] = {
      "abs", "assign", "cast", "clip", "dropout", "elementwise_add", "elementwise_div",
      "elementwise_max", "elementwise_min", "elementwise_mul", "elementwise_pow",
      "elementwise_sub", "exp", "fill_constant", "gaussian_random", "gelu", "hard_sigmoid",
      "hard_swish", "leaky_relu", "relu", "relu6", "scale", "sigmoid", "sqrt", "swish", "tanh",
      "uniform_random"};
  size_t checked = 0;
  for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
    char path[4096], err[1024];
    ck_assert_msg(tu_shared(models[m], path, sizeof path), "missing %s", models[m]);
    ic_program *p;
    ck_assert_msg(ic_program_from_file(path, &p, err, sizeof err) == IC_OK, "%s", err);
    for (size_t i = 0; i < p->blocks[0].n_ops; i++) {
      const ic_op *op = &p->blocks[0].ops[i];
      bool is_mine = false;
      for (size_t k = 0; k < sizeof mine / sizeof mine[0]; k++) {
        is_mine |= !strcmp(op->type, mine[k]);
      }
      if (!is_mine) continue;
      const ic_opdef *def;
      ic_err e;
      ck_assert_msg(ic_opdef_lookup(op, &def, &e) == IC_OK, "%s", e.msg);
      void *attrs = calloc(1, def->attrs_size + 1);
      const ic_slot *ins[8], *outs[8];
      ck_assert_msg(ic_opdef_parse(def, op, attrs, &e) == IC_OK, "%s: %s", models[m], e.msg);
      ck_assert_msg(ic_opdef_match(def, op, ins, outs, &e) == IC_OK, "%s: %s", models[m], e.msg);
      free(attrs);
      checked++;
    }
    ic_program_destroy(p);
  }
  ck_assert_uint_gt(checked, 200);
}
END_TEST

static TCase *tc_helpers(void) {
  TCase *tc = tcase_create("helpers");
  tcase_add_test(tc, philox_known_answers);
  tcase_add_test(tc, half_conversions);
  return tc;
}

static TCase *tc_math(void) {
  TCase *tc = tcase_create("math");
  tcase_add_test(tc, scale_values);
  tcase_add_test(tc, scale_dtypes);
  tcase_add_test(tc, clip_values);
  tcase_add_test(tc, clip_errors);
  tcase_add_test(tc, assign_values);
  return tc;
}

static TCase *tc_cast(void) {
  TCase *tc = tcase_create("cast");
  tcase_add_test(tc, cast_float_to_int);
  tcase_add_test(tc, cast_half);
  tcase_add_test(tc, cast_others);
  return tc;
}

/* assert: a true condition lets the run through (depend passes X on, nop does nothing); a
 * false one fails naming the condition and the data; a condition that is not one bool is
 * refused. seed 0 draws a value. */
START_TEST(assert_depend_nop_seed) {
  for (int v = 0; v < 3; v++) {
    ic_builder *b = ic_builder_create();
    tu_var(b, "c", IC_BOOL, 1, TU_DIMS(v == 2 ? 2 : 1));
    tu_var(b, "x", IC_FP32, 1, TU_DIMS(3));
    tu_var(b, "y", IC_FP32, 1, TU_DIMS(3));
    tu_var(b, "s", IC_INT32, 1, TU_DIMS(1));
    ic_builder_feed(b, "c");
    ic_builder_feed(b, "x");
    ic_builder_op *op = ic_builder_add_op(b, 0, "assert");
    ic_builder_in(op, "Cond", "c");
    ic_builder_in(op, "Data", "x");
    ic_builder_attr_long(op, "summarize", 2);
    op = ic_builder_add_op(b, 0, "nop");
    op = ic_builder_add_op(b, 0, "depend");
    ic_builder_in(op, "X", "x");
    ic_builder_in(op, "Dep", "c");
    ic_builder_out(op, "Out", "y");
    op = ic_builder_add_op(b, 0, "seed");
    ic_builder_attr_int(op, "seed", 0);
    ic_builder_out(op, "Out", "s");
    ic_builder_fetch(b, "y");
    ic_builder_fetch(b, "s");
    const uint8_t cv[2] = {v == 0, 1};
    ic_tensor *c;
    ck_assert_int_eq(ic_tensor_create(IC_BOOL, 1, TU_DIMS(v == 2 ? 2 : 1), &c), IC_OK);
    memcpy(ic_tensor_data(c), cv, v == 2 ? 2 : 1);
    ic_tensor *x = tu_f32(1, TU_DIMS(3), (const float[]){1.5f, -2, 3});
    ic_tensor *out[2];
    char err[1024];
    ic_status st = tu_run(b, 2, TU_NAMES("c", "x"), (ic_tensor *[]){c, x}, 2, TU_NAMES("y", "s"),
                          out, err, sizeof err);
    if (v == 0) {
      ck_assert_msg(st == IC_OK, "%s", err);
      tu_assert_close(out[0], (const double[]){1.5, -2, 3}, 3, 0, 0);
      ck_assert_int_ge(((const int32_t *)ic_tensor_cdata(out[1]))[0], 0);
      ic_tensor_destroy(out[0]);
      ic_tensor_destroy(out[1]);
    } else if (v == 1) {
      ck_assert_int_eq(st, IC_ERR_INVALID_ARGUMENT);
      tu_assert_msg(err, "assert", "the condition 'c' is false", "x float32[3]: [1.5 -2]", NULL);
    } else {
      ck_assert_int_eq(st, IC_ERR_SHAPE);
      tu_assert_msg(err, "assert", "input Cond 'c'", "one bool", NULL);
    }
    ic_tensor_destroy(c);
    ic_tensor_destroy(x);
    ic_builder_destroy(b);
  }
}
END_TEST

/* crop (v1; values: the oracle case crop_v1): a block reaching past X; both Offsets and
 * the attribute. */
START_TEST(crop_errors) {
  for (int v = 0; v < 2; v++) {
    ic_builder *b = ic_builder_create();
    tu_var(b, "x", IC_FP32, 2, TU_DIMS(3, 4));
    tu_var(b, "off", IC_INT32, 1, TU_DIMS(2));
    tu_var(b, "y", IC_FP32, 2, TU_DIMS(-1, -1));
    ic_builder_feed(b, "x");
    if (v) ic_builder_feed(b, "off");
    ic_builder_op *op = ic_builder_add_op(b, 0, "crop");
    ic_builder_in(op, "X", "x");
    if (v) ic_builder_in(op, "Offsets", "off");
    ic_builder_attr_ints(op, "shape", 2, (const int32_t[]){2, 3});
    ic_builder_attr_ints(op, "offsets", 2, (const int32_t[]){2, 0});
    ic_builder_out(op, "Out", "y");
    ic_builder_fetch(b, "y");
    ic_tensor *x = tu_f32(2, TU_DIMS(3, 4), NULL), *off = tu_i32(1, TU_DIMS(2), (const int32_t[]){0, 0});
    ic_tensor *out[1];
    char err[1024];
    ic_status st = v ? tu_run(b, 2, TU_NAMES("x", "off"), (ic_tensor *[]){x, off}, 1, TU_NAMES("y"),
                              out, err, sizeof err)
                     : tu_run(b, 1, TU_NAMES("x"), &x, 1, TU_NAMES("y"), out, err, sizeof err);
    if (v) {
      ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
      tu_assert_msg(err, "crop", "Offsets and attribute 'offsets' are both given", NULL);
    } else {
      ck_assert_int_eq(st, IC_ERR_SHAPE);
      tu_assert_msg(err, "crop", "input X 'x'", "block of 2 from offset 2 along dim 0", NULL);
    }
    ic_tensor_destroy(x);
    ic_tensor_destroy(off);
    ic_builder_destroy(b);
  }
}
END_TEST

/* fill_any as older Paddle wrote it (value_float and value_int, no `value`): integer tensors
 * take value_int, the others value_float; `value` wins when present; NaN into a float tensor
 * is refused. Also empty of complex64 (zeros, the dims of its shape attribute). */
static ic_status fill_any_run(const ic_tensor *x, const char *which, double v1, int v2,
                              ic_tensor **out, char *err, size_t n) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ic_builder_op *o = ic_builder_add_op(b, 0, "fill_any");
  ic_builder_in(o, "X", "x");
  ic_builder_out(o, "Out", "out");
  if (strchr(which, 'v')) ic_builder_attr_float(o, "value", (float)v1);
  if (strchr(which, 'f')) ic_builder_attr_float(o, "value_float", (float)v1);
  if (strchr(which, 'i')) ic_builder_attr_int(o, "value_int", v2);
  ew_fetch(b, "out", x->dtype);
  ic_status st = ew_run(b, 1, TU_NAMES("x"), (ic_tensor *const[]){(ic_tensor *)x}, out, err, n);
  ic_builder_destroy(b);
  return st;
}

START_TEST(fill_any_legacy_empty_complex) {
  ic_tensor *xf = tu_f32(1, TU_DIMS(3), (const float[]){1, 2, 3});
  ic_tensor *xi = tu_i32(2, TU_DIMS(2, 2), (const int32_t[]){1, 2, 3, 4});
  ic_tensor *o;
  char err[1024];
  ck_assert_msg(fill_any_run(xf, "fi", 2.5, 9, &o, err, sizeof err) == IC_OK, "%s", err);
  for (int i = 0; i < 3; i++) ck_assert(ew_at(o, i) == 2.5);
  ic_tensor_destroy(o);
  ck_assert_msg(fill_any_run(xi, "fi", 2.5, -9, &o, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_shape(o, IC_INT32, 2, TU_DIMS(2, 2));
  for (int i = 0; i < 4; i++) ck_assert(ew_at(o, i) == -9);
  ic_tensor_destroy(o);
  ck_assert_msg(fill_any_run(xi, "vi", -3.75, 9, &o, err, sizeof err) == IC_OK, "%s", err);
  for (int i = 0; i < 4; i++) ck_assert(ew_at(o, i) == -3);
  ic_tensor_destroy(o);
  ck_assert_int_ne(fill_any_run(xf, "v", NAN, 0, &o, err, sizeof err), IC_OK);
  ck_assert_msg(strstr(err, "NaN") && strstr(err, "'x'"), "%s", err);
  ic_tensor_destroy(xf);
  ic_tensor_destroy(xi);
  ic_builder *b = ic_builder_create();
  ic_builder_op *e = ic_builder_add_op(b, 0, "empty");
  ic_builder_out(e, "Out", "out");
  ic_builder_attr_longs(e, "shape", 2, (const int64_t[]){2, 3});
  ic_builder_attr_int(e, "dtype", IC_COMPLEX64);
  ew_fetch(b, "out", IC_COMPLEX64);
  ck_assert_msg(ew_run(b, 0, NULL, NULL, &o, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_shape(o, IC_COMPLEX64, 2, TU_DIMS(2, 3));
  const float *c = ic_tensor_cdata(o);
  for (int i = 0; i < 12; i++) ck_assert(c[i] == 0.0f);
  ic_tensor_destroy(o);
  ic_builder_destroy(b);
}
END_TEST

static TCase *tc_fill(void) {
  TCase *tc = tcase_create("fill");
  tcase_add_test(tc, fill_constant_values);
  tcase_add_test(tc, fill_constant_tensors);
  tcase_add_test(tc, fill_constant_errors);
  tcase_add_test(tc, assert_depend_nop_seed);
  tcase_add_test(tc, crop_errors);
  tcase_add_test(tc, fill_any_legacy_empty_complex);
  return tc;
}

static TCase *tc_random(void) {
  TCase *tc = tcase_create("random");
  tcase_add_test(tc, dropout_inference);
  tcase_add_test(tc, dropout_as_view);
  tcase_add_test(tc, dropout_training);
  tcase_add_test(tc, dropout_errors);
  tcase_add_test(tc, uniform_statistics);
  tcase_add_test(tc, gaussian_statistics);
  tcase_add_test(tc, random_seeds);
  tcase_add_test(tc, rrelu_noise);
  tcase_add_test(tc, special_ops_errors);
  tcase_add_test(tc, random_streams_per_run);
  tcase_add_test(tc, random_options);
  return tc;
}

static TCase *tc_models(void) {
  TCase *tc = tcase_create("models");
  tcase_add_test(tc, real_model_ops);
  return tc;
}

TU_MAIN("ops_misc", tc_helpers, tc_math, tc_cast, tc_fill, tc_random, tc_models)
