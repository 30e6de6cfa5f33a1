/* The CUDA kernels of scale, clip, cast, fill_constant, fill_constant_batch_size_like,
 * dropout, uniform_random and gaussian_random against their CPU kernels (cuda_harness.h).
 *
 * Everything here must agree bit for bit (conversions and IEEE arithmetic without FMA
 * contraction on both sides, the same Philox streams), except gaussian_random, whose log,
 * cos and sin come from CUDA's math library: float64 within 1e-14 relative, float32 within
 * one ulp, float16 and bfloat16 within one of their ulps. Scalars that live in tensors
 * (ScaleTensor, BiasTensor, Min, Max, ValueTensor, Seed) are device tensors on the GPU side,
 * read by the kernels there; shape tensors stay on the host (IC_SLOT_VALUE). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.h"
#include "ew_testutil.h"
#include "kernels/cpu/half.h"

/* ---- one-op programs ---- */


static ic_status check_status(ic_builder *b, size_t n, const ew_in *in, double rtol, double atol,
                              char *err, size_t errlen) {
  const char *names[8];
  ic_tensor *ts[8];
  for (size_t i = 0; i < n; i++) {
    names[i] = in[i].var;
    ts[i] = in[i].t;
  }
  ic_program *p;
  ck_assert_msg(ic_builder_build(b, &p, err, errlen) == IC_OK, "%s", err);
  ic_status st = ch_check_op_status(p, n, names, ts, rtol, atol, err, errlen);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  return st;
}

/* Both sides succeed and agree; destroys b. */
static void check(ic_builder *b, size_t n, const ew_in *in, double rtol, double atol) {
  char err[1024];
  ic_status st = check_status(b, n, in, rtol, atol, err, sizeof err);
  ck_assert_msg(st == IC_OK, "%s: %s", ic_status_name(st), err);
}

static const int64_t k_shape3[] = {3, 5, 17};

/* Sizes every op goes through: empty, 0-D, one element, not a multiple of 4, rank 3. */
typedef struct size_case {
  int ndim;
  const int64_t *dims;
} size_case;

static const size_case k_sizes[] = {
    {1, (const int64_t[]){0}}, {0, NULL}, {1, (const int64_t[]){1}},
    {1, (const int64_t[]){7}}, {3, k_shape3},
};
#define N_SIZES (sizeof k_sizes / sizeof k_sizes[0])

static const ic_dtype k_num[] = {IC_FP32, IC_FP64, IC_INT32, IC_INT64};

/* A one-element tensor of dtype dt holding v (integer types: v truncated, NaN as 0, wrapped
 * into the type). */
static ic_tensor *scalar_of(ic_dtype dt, double v) {
  ic_tensor *t;
  ck_assert_int_eq(ic_tensor_create(dt, 1, TU_DIMS(1), &t), IC_OK);
  void *d = ic_tensor_data(t);
  int64_t iv = isnan(v) ? 0 : v > 1e18 ? (int64_t)1e18 : v < -1e18 ? (int64_t)-1e18 : (int64_t)v;
  switch (dt) {
    case IC_FP32: *(float *)d = (float)v; break;
    case IC_FP64: *(double *)d = v; break;
    case IC_FP16: *(uint16_t *)d = ic_f32_to_f16((float)v); break;
    case IC_BF16: *(uint16_t *)d = ic_f32_to_bf16((float)v); break;
    case IC_INT64: *(int64_t *)d = iv; break;
    case IC_INT32: *(int32_t *)d = (int32_t)(uint32_t)(uint64_t)iv; break;
    case IC_INT16: *(int16_t *)d = (int16_t)(uint16_t)(uint64_t)iv; break;
    case IC_INT8: *(int8_t *)d = (int8_t)(uint8_t)(uint64_t)iv; break;
    default: *(uint8_t *)d = (uint8_t)(uint64_t)iv; break; /* uint8, bool */
  }
  return t;
}

/* ---- scale ---- */

START_TEST(scale_attrs) {
  const double scales[] = {1, 2.5, -0.75, 1e10};
  const double biases[] = {0, -1.25, 3};
  for (size_t d = 0; d < 4; d++) {
    for (size_t s = 0; s < N_SIZES; s++) {
      for (int after = 0; after < 2; after++) {
        ic_tensor *x = ew_rand(k_num[d], k_sizes[s].ndim, k_sizes[s].dims, s + 1, -100, 100);
        ew_in in[] = {{"X", "x", x}};
        ic_builder *b;
        ic_builder_op *o = ew_op_program(&b, "scale", 1, in, k_num[d]);
        ic_builder_attr_float(o, "scale", (float)scales[(s + after) % 4]);
        ic_builder_attr_float(o, "bias", (float)biases[s % 3]);
        ic_builder_attr_bool(o, "bias_after_scale", after != 0);
        check(b, 1, in, 0, 0);
        ic_tensor_destroy(x);
      }
    }
    /* defaults */
    ic_tensor *x = ew_rand(k_num[d], 2, TU_DIMS(4, 9), 9, -100, 100);
    ew_in in[] = {{"X", "x", x}};
    ic_builder *b;
    ew_op_program(&b, "scale", 1, in, k_num[d]);
    check(b, 1, in, 0, 0);
    ic_tensor_destroy(x);
  }
}
END_TEST

/* ScaleTensor and BiasTensor replace the attributes; their dtypes convert as on the CPU
 * (an integer X scaled by a float tensor truncates the scale; integers wrap). */
START_TEST(scale_tensors) {
  for (size_t d = 0; d < 4; d++) {
    for (size_t sd = 0; sd < 4; sd++) {
      ic_tensor *x = ew_rand(k_num[d], 3, k_shape3, d + 10 * sd, -1000, 1000);
      ic_tensor *s = scalar_of(k_num[sd], k_num[sd] == IC_INT64 ? 3000000000.0 : -2.75);
      ic_tensor *bt = scalar_of(k_num[3 - sd], 7.5);
      for (int which = 0; which < 3; which++) { /* scale only, bias only, both */
        ew_in in[] = {{"X", "x", x}, {"ScaleTensor", "s", s}, {"BiasTensor", "bt", bt}};
        ew_in in_bias[] = {{"X", "x", x}, {"BiasTensor", "bt", bt}};
        const ew_in *use = which == 1 ? in_bias : in;
        size_t n = which == 0 ? 2 : which == 1 ? 2 : 3;
        ic_builder *b;
        ic_builder_op *o = ew_op_program(&b, "scale", n, use, k_num[d]);
        ic_builder_attr_float(o, "scale", 100);
        ic_builder_attr_float(o, "bias", 100);
        ic_builder_attr_bool(o, "bias_after_scale", which != 2);
        check(b, n, use, 0, 0);
      }
      ic_tensor_destroy(x);
      ic_tensor_destroy(s);
      ic_tensor_destroy(bt);
    }
  }
}
END_TEST

START_TEST(scale_bad_tensor) {
  ic_tensor *x = ew_rand(IC_FP32, 1, TU_DIMS(4), 1, 0, 1);
  ic_tensor *s = ew_rand(IC_FP32, 1, TU_DIMS(2), 2, 0, 1);
  ew_in in[] = {{"X", "x", x}, {"ScaleTensor", "s2", s}};
  ic_builder *b;
  ew_op_program(&b, "scale", 2, in, IC_FP32);
  char err[1024];
  ck_assert_int_eq(check_status(b, 2, in, 0, 0, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "ScaleTensor 's2'", "one element", NULL);
  ic_tensor_destroy(x);
  ic_tensor_destroy(s);
}
END_TEST

/* ---- clip ---- */

START_TEST(clip_attrs) {
  for (size_t d = 0; d < 4; d++) {
    for (size_t s = 0; s < N_SIZES; s++) {
      ic_tensor *x = ew_rand(k_num[d], k_sizes[s].ndim, k_sizes[s].dims, s + 3, -10, 10);
      if (k_num[d] == IC_FP32 && ic_tensor_numel(x) > 2) {
        ((float *)ic_tensor_data(x))[1] = NAN;
        ((float *)ic_tensor_data(x))[2] = -INFINITY;
      }
      ew_in in[] = {{"X", "x", x}};
      ic_builder *b;
      ic_builder_op *o = ew_op_program(&b, "clip", 1, in, k_num[d]);
      ic_builder_attr_float(o, "min", -2.5f);
      ic_builder_attr_float(o, "max", 3.7f);
      check(b, 1, in, 0, 0);
      ic_tensor_destroy(x);
    }
  }
}
END_TEST

START_TEST(clip_tensors) {
  const ic_dtype bdt[] = {IC_FP32, IC_INT64, IC_FP64, IC_INT32};
  for (size_t d = 0; d < 4; d++) {
    for (size_t k = 0; k < 4; k++) {
      ic_tensor *x = ew_rand(k_num[d], 3, k_shape3, d + 20, -10, 10);
      ic_tensor *lo = scalar_of(bdt[k], -3.5), *hi = scalar_of(bdt[(k + 1) % 4], 4.25);
      ew_in both[] = {{"X", "x", x}, {"Min", "lo", lo}, {"Max", "hi", hi}};
      ic_builder *b;
      ic_builder_op *o = ew_op_program(&b, "clip", 3, both, k_num[d]);
      ic_builder_attr_float(o, "min", -1e30f); /* ignored: the tensors win */
      ic_builder_attr_float(o, "max", 1e30f);
      check(b, 3, both, 0, 0);
      /* one tensor, the other bound from its attribute */
      ew_in one[] = {{"X", "x", x}, {"Max", "hi", hi}};
      o = ew_op_program(&b, "clip", 2, one, k_num[d]);
      ic_builder_attr_float(o, "min", 0.5f);
      check(b, 2, one, 0, 0);
      ic_tensor_destroy(x);
      ic_tensor_destroy(lo);
      ic_tensor_destroy(hi);
    }
  }
}
END_TEST

/* Attribute bounds that cross once converted to an int32 X (3e9 is INT32_MIN there) fail on
 * both sides, naming the attributes. (Crossed tensor bounds fail only on the CPU: the device
 * cannot report them; not tested here.) */
START_TEST(clip_bad_bounds) {
  ic_tensor *x = ew_rand(IC_INT32, 1, TU_DIMS(5), 1, -10, 10);
  ew_in in[] = {{"X", "x", x}};
  ic_builder *b;
  ic_builder_op *o = ew_op_program(&b, "clip", 1, in, IC_INT32);
  ic_builder_attr_float(o, "min", -1);
  ic_builder_attr_float(o, "max", 3e9f);
  char err[1024];
  ck_assert_int_eq(check_status(b, 1, in, 0, 0, err, sizeof err), IC_ERR_INVALID_ARGUMENT);
  tu_assert_msg(err, "attribute 'min'", "attribute 'max'", NULL);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- cast ---- */

static const ic_dtype k_all[] = {IC_BOOL, IC_INT16, IC_INT32, IC_INT64, IC_FP16,
                                 IC_FP32, IC_FP64, IC_UINT8, IC_INT8,  IC_BF16};
#define N_ALL (sizeof k_all / sizeof k_all[0])

/* Values that stress every conversion: NaN, infinities, signed zeros, fractions of both
 * signs, the edges of every integer type and of float16, and beyond. */
static const double k_special[] = {
    NAN, INFINITY, -INFINITY, -0.0, 0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 127.9, -128.9, 255.7,
    256.3, -1, 32767.5, -32768.9, 65504, 65519, 65520, 70000, 1e-8, -6e-8, 2147483647.0,
    2147483648.5, -2147483649.5, 16777217, 3e9, -3e9, 9.3e18, -9.3e18, 1e30, 3.4e38, 1e300};
#define N_SPECIAL (sizeof k_special / sizeof k_special[0])

/* n elements of dtype dt: the special values where they fit the type's nature (floats take
 * them all; integer types their bit patterns of random 64-bit words and the extremes; bool
 * bytes beyond 0 and 1), then random values. */
static ic_tensor *cast_input(ic_dtype dt, int64_t n, uint64_t seed) {
  ic_tensor *t;
  ck_assert_int_eq(ic_tensor_create(dt, 1, TU_DIMS(n), &t), IC_OK);
  void *d = ic_tensor_data(t);
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 7;
  for (int64_t k = 0; k < n; k++) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    double v = k < (int64_t)N_SPECIAL ? k_special[k] : (ew_uniform(&s) - 0.5) * 1e6;
    switch (dt) {
      case IC_FP32: ((float *)d)[k] = (float)v; break;
      case IC_FP64: ((double *)d)[k] = v; break;
      case IC_FP16: ((uint16_t *)d)[k] = (uint16_t)s; break; /* every bit pattern */
      case IC_BF16: ((uint16_t *)d)[k] = (uint16_t)(s >> 16); break;
      case IC_BOOL: ((uint8_t *)d)[k] = (uint8_t)(k % 4 == 3 ? s : (uint64_t)(k % 2)); break;
      case IC_UINT8: ((uint8_t *)d)[k] = (uint8_t)s; break;
      case IC_INT8: ((int8_t *)d)[k] = (int8_t)s; break;
      case IC_INT16: ((int16_t *)d)[k] = (int16_t)s; break;
      case IC_INT32:
        ((int32_t *)d)[k] = k == 0 ? INT32_MIN : k == 1 ? INT32_MAX : (int32_t)s;
        break;
      case IC_INT64:
        ((int64_t *)d)[k] = k == 0 ? INT64_MIN : k == 1 ? INT64_MAX : k == 2 ? (1ll << 53) + 1
                            : (int64_t)s;
        break;
      case IC_COMPLEX64: case IC_COMPLEX128: break; /* no CUDA cast of complex */
    }
  }
  return t;
}

START_TEST(cast_every_pair) {
  const ic_dtype from = k_all[_i];
  for (size_t j = 0; j < N_ALL; j++) {
    const int64_t sizes[] = {0, 1, 5, 1000};
    for (size_t k = 0; k < 4; k++) {
      ic_tensor *x = cast_input(from, sizes[k], 31 * _i + j);
      ew_in in[] = {{"X", "x", x}};
      ic_builder *b;
      ic_builder_op *o = ew_op_program(&b, "cast", 1, in, k_all[j]);
      ic_builder_attr_int(o, "in_dtype", from);
      ic_builder_attr_int(o, "out_dtype", k_all[j]);
      check(b, 1, in, 0, 0);
      ic_tensor_destroy(x);
    }
  }
}
END_TEST

START_TEST(cast_bad_dtype) {
  ic_tensor *x = ew_rand(IC_FP32, 1, TU_DIMS(3), 1, 0, 1);
  ew_in in[] = {{"X", "x", x}};
  ic_builder *b;
  ic_builder_op *o = ew_op_program(&b, "cast", 1, in, IC_FP32);
  ic_builder_attr_int(o, "out_dtype", 8); /* complex64 in Paddle: not icore's */
  char err[1024];
  ck_assert_int_eq(check_status(b, 1, in, 0, 0, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'out_dtype'", NULL);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- fill_constant and fill_constant_batch_size_like ---- */

START_TEST(fill_constant_values) {
  const char *strs[] = {"", "inf", "-inf", "nan", "True", "False", "9007199254740993", "0.1",
                        "-300.75", "1e10"};
  for (size_t j = 0; j < N_ALL; j++) {
    for (size_t k = 0; k < sizeof strs / sizeof strs[0]; k++) {
      ic_builder *b;
      ic_builder_op *o = ew_op_program(&b, "fill_constant", 0, NULL, k_all[j]);
      ic_builder_attr_int(o, "dtype", k_all[j]);
      ic_builder_attr_longs(o, "shape", 2, (const int64_t[]){(int64_t)k % 3, 7});
      ic_builder_attr_float(o, "value", -2.5f);
      ic_builder_attr_string(o, "str_value", strs[k]);
      check(b, 0, NULL, 0, 0);
    }
  }
}
END_TEST

/* ValueTensor (on the device) of every dtype into every dtype; shapes from ShapeTensor and
 * ShapeTensorList (on the host). */
START_TEST(fill_constant_tensors) {
  const double vals[] = {-3.75, 70000.5, 1e10, NAN};
  for (size_t vi = 0; vi < N_ALL; vi++) {
    for (size_t j = 0; j < N_ALL; j++) {
      ic_tensor *v = scalar_of(k_all[vi], vals[(vi + j) % 4]);
      ic_tensor *shape = tu_i64(1, TU_DIMS(2), (const int64_t[]){3, 11});
      ic_tensor *d0 = tu_i32(1, TU_DIMS(1), (const int32_t[]){2});
      ic_tensor *d1 = tu_i64(1, TU_DIMS(1), (const int64_t[]){5});
      ew_in in1[] = {{"ValueTensor", "v", v}, {"ShapeTensor", "shape", shape}};
      ic_builder *b;
      ic_builder_op *o = ew_op_program(&b, "fill_constant", 2, in1, k_all[j]);
      ic_builder_attr_int(o, "dtype", k_all[j]);
      check(b, 2, in1, 0, 0);
      ew_in in2[] = {{"ValueTensor", "v", v}, {"ShapeTensorList", "d0", d0},
                    {"ShapeTensorList", "d1", d1}};
      o = ew_op_program(&b, "fill_constant", 3, in2, k_all[j]);
      ic_builder_attr_int(o, "dtype", k_all[j]);
      check(b, 3, in2, 0, 0);
      ic_tensor *tensors[] = {v, shape, d0, d1};
      for (size_t i = 0; i < 4; i++) ic_tensor_destroy(tensors[i]);
    }
  }
}
END_TEST

START_TEST(fill_constant_large_and_bad) {
  ic_builder *b;
  ic_builder_op *o = ew_op_program(&b, "fill_constant", 0, NULL, IC_FP64);
  ic_builder_attr_int(o, "dtype", IC_FP64);
  ic_builder_attr_longs(o, "shape", 2, (const int64_t[]){3, (ch_quick() ? 1 << 10 : 1 << 23) + 1});
  ic_builder_attr_float(o, "value", 0.1f);
  check(b, 0, NULL, 0, 0);
  ic_tensor *neg = tu_i64(1, TU_DIMS(1), (const int64_t[]){-1});
  ew_in in[] = {{"ShapeTensorList", "neg", neg}};
  o = ew_op_program(&b, "fill_constant", 1, in, IC_FP32);
  char err[1024];
  ck_assert_int_eq(check_status(b, 1, in, 0, 0, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "ShapeTensorList 'neg'", ">= 0", NULL);
  ic_tensor_destroy(neg);
}
END_TEST

START_TEST(fill_constant_batch_size_like_values) {
  const ic_dtype dts[] = {IC_FP32, IC_FP64, IC_INT32, IC_INT64,
                          IC_INT16, IC_INT8, IC_UINT8, IC_BOOL};
  for (size_t j = 0; j < sizeof dts / sizeof dts[0]; j++) {
    for (int k = 0; k < 3; k++) {
      ic_tensor *input = ew_rand(IC_FP32, 3, TU_DIMS(k * 3, 4, 6), 1, 0, 1);
      ew_in in[] = {{"Input", "input", input}};
      ic_builder *b;
      ic_builder_op *o = ew_op_program(&b, "fill_constant_batch_size_like", 1, in, dts[j]);
      ic_builder_attr_int(o, "dtype", dts[j]);
      if (k == 2) ic_builder_attr_ints(o, "shape", 3, (const int32_t[]){4, -1, 2});
      else ic_builder_attr_ints(o, "shape", 3, (const int32_t[]){-1, 5, 2});
      ic_builder_attr_int(o, "input_dim_idx", k == 2 ? 2 : 0);
      ic_builder_attr_int(o, "output_dim_idx", k == 2 ? 1 : 0);
      if (k == 1) ic_builder_attr_string(o, "str_value", dts[j] == IC_UINT8 ? "200" : "-7");
      else ic_builder_attr_float(o, "value", 1.75f);
      check(b, 1, in, 0, 0);
      ic_tensor_destroy(input);
    }
  }
}
END_TEST

/* ---- dropout ---- */

static ic_builder_op *dropout_program(ic_builder **bp, size_t n, const ew_in *in, bool mask) {
  ic_builder_op *o = ew_op_program(bp, "dropout", n, in, ic_tensor_dtype(in[0].t));
  if (mask) {
    ic_builder_out(o, "Mask", "mask");
    ew_fetch(*bp, "mask", IC_UINT8);
  }
  return o;
}

START_TEST(dropout_inference) {
  for (int dt = IC_FP32; dt <= IC_FP64; dt++) {
    for (size_t s = 0; s < N_SIZES; s++) {
      for (int impl = 0; impl < 2; impl++) {
        ic_tensor *x = ew_rand((ic_dtype)dt, k_sizes[s].ndim, k_sizes[s].dims, s, -3, 3);
        ew_in in[] = {{"X", "x", x}};
        ic_builder *b;
        ic_builder_op *o = dropout_program(&b, 1, in, impl == 0);
        ic_builder_attr_float(o, "dropout_prob", 0.3f);
        ic_builder_attr_bool(o, "is_test", true);
        ic_builder_attr_string(o, "dropout_implementation",
                               impl ? "upscale_in_train" : "downgrade_in_infer");
        check(b, 1, in, 0, 0);
        ic_tensor_destroy(x);
      }
    }
  }
}
END_TEST

/* Training: the Philox mask for a fixed seed, the Seed input (int32 and int64, on the
 * device), and seed 0 (the executor's seed and the op's position); p 0, 0.3 and 1. */
START_TEST(dropout_training) {
  const float ps[] = {0, 0.3f, 1};
  const int64_t sizes[] = {0, 1, 7, 1001};
  for (int dt = IC_FP32; dt <= IC_FP64; dt++) {
    for (size_t pi = 0; pi < 3; pi++) {
      for (size_t s = 0; s < 4; s++) {
        for (int seeding = 0; seeding < 4; seeding++) {
          ic_tensor *x = ew_rand((ic_dtype)dt, 1, TU_DIMS(sizes[s]), s + 40, -3, 3);
          ic_tensor *seed = seeding == 2 ? scalar_of(IC_INT32, 12345)
                            : seeding == 3 ? scalar_of(IC_INT64, 987654321) : NULL;
          ew_in in[] = {{"X", "x", x}, {"Seed", "seed", seed}};
          size_t n = seed ? 2 : 1;
          ic_builder *b;
          ic_builder_op *o = dropout_program(&b, n, in, true);
          ic_builder_attr_float(o, "dropout_prob", ps[pi]);
          ic_builder_attr_bool(o, "is_test", false);
          ic_builder_attr_bool(o, "fix_seed", seeding == 1);
          ic_builder_attr_int(o, "seed", 77);
          ic_builder_attr_string(o, "dropout_implementation",
                                 s % 2 ? "upscale_in_train" : "downgrade_in_infer");
          check(b, n, in, 0, 0);
          ic_tensor_destroy(x);
          ic_tensor_destroy(seed);
        }
      }
    }
  }
}
END_TEST

/* More Philox blocks than one launch has threads; and training without Mask (inference). */
START_TEST(dropout_large_and_no_mask) {
  ic_tensor *x = ew_rand(IC_FP32, 2, TU_DIMS(ch_quick() ? 16 : 1 << 16, 1025), 5, -3, 3);
  ew_in in[] = {{"X", "x", x}};
  ic_builder *b;
  ic_builder_op *o = dropout_program(&b, 1, in, true);
  ic_builder_attr_float(o, "dropout_prob", 0.5f);
  ic_builder_attr_bool(o, "fix_seed", true);
  ic_builder_attr_int(o, "seed", 5);
  check(b, 1, in, 0, 0);
  o = dropout_program(&b, 1, in, false);
  ic_builder_attr_float(o, "dropout_prob", 0.5f);
  check(b, 1, in, 0, 0);
  ic_tensor_destroy(x);
}
END_TEST

START_TEST(dropout_bad_seed) {
  ic_tensor *x = ew_rand(IC_FP32, 1, TU_DIMS(8), 1, 0, 1);
  ic_tensor *seed = scalar_of(IC_FP32, 3);
  ew_in in[] = {{"X", "x", x}, {"Seed", "fseed", seed}};
  ic_builder *b;
  dropout_program(&b, 2, in, true);
  char err[1024];
  ck_assert_int_eq(check_status(b, 2, in, 0, 0, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Seed 'fseed'", "int32", NULL);
  ic_tensor_destroy(x);
  ic_tensor_destroy(seed);
}
END_TEST

/* ---- uniform_random and gaussian_random ---- */

static const ic_dtype k_rand_dts[] = {IC_FP32, IC_FP64, IC_FP16, IC_BF16};

static void random_tolerance(bool gaussian, ic_dtype dt, double *rtol, double *atol) {
  *rtol = *atol = 0;
  if (!gaussian) return;
  switch (dt) {
    case IC_FP32: *rtol = 1.2e-7; *atol = 1e-30; break;
    /* mean + std * z cancels near zero: libm and CUDA's log/cos differ by an ulp of z,
     * which is an ulp of the O(1) terms, not of the small result (first GPU run: 5 of
     * 4099 elements near -0.018 were off by 1e-17 absolute). */
    case IC_FP64: *rtol = 1e-14; *atol = 1e-14; break;
    case IC_FP16: *rtol = 1e-3; *atol = 6e-8; break;
    default: *rtol = 8e-3; *atol = 1e-30; break;
  }
}

START_TEST(random_values) {
  const bool gaussian = _i == 1;
  const char *type = gaussian ? "gaussian_random" : "uniform_random";
  const int64_t sizes[] = {0, 1, 5, 4096 + 3};
  for (size_t d = 0; d < 4; d++) {
    for (size_t s = 0; s < 4; s++) {
      for (int seed = 0; seed < 2; seed++) {
        ic_builder *b;
        ic_builder_op *o = ew_op_program(&b, type, 0, NULL, k_rand_dts[d]);
        ic_builder_attr_int(o, "dtype", k_rand_dts[d]);
        ic_builder_attr_longs(o, "shape", 2, (const int64_t[]){sizes[s], 1});
        ic_builder_attr_int(o, "seed", seed ? 1234 : 0);
        if (gaussian) {
          ic_builder_attr_float(o, "mean", 1.5f);
          ic_builder_attr_float(o, "std", 2.25f);
        } else {
          ic_builder_attr_float(o, "min", -2.5f);
          ic_builder_attr_float(o, "max", 7.25f);
        }
        double rtol, atol;
        random_tolerance(gaussian, k_rand_dts[d], &rtol, &atol);
        check(b, 0, NULL, rtol, atol);
      }
    }
  }
}
END_TEST

/* diag_num / diag_step / diag_val; a shape from ShapeTensor (host) */
START_TEST(uniform_diag_and_shape_tensor) {
  for (size_t d = 0; d < 4; d++) {
    ic_tensor *shape = tu_i32(1, TU_DIMS(2), (const int32_t[]){9, 13});
    ew_in in[] = {{"ShapeTensor", "shape", shape}};
    ic_builder *b;
    ic_builder_op *o = ew_op_program(&b, "uniform_random", 1, in, k_rand_dts[d]);
    ic_builder_attr_int(o, "dtype", k_rand_dts[d]);
    ic_builder_attr_int(o, "seed", 3);
    ic_builder_attr_int(o, "diag_num", 9);
    ic_builder_attr_int(o, "diag_step", 13);
    ic_builder_attr_float(o, "diag_val", 7.3f);
    check(b, 1, in, 0, 0);
    o = ew_op_program(&b, "gaussian_random", 1, in, k_rand_dts[d]);
    ic_builder_attr_int(o, "dtype", k_rand_dts[d]);
    double rtol, atol;
    random_tolerance(true, k_rand_dts[d], &rtol, &atol);
    check(b, 1, in, rtol, atol);
    ic_tensor_destroy(shape);
  }
}
END_TEST

/* More Philox blocks than one launch has threads (65536 x 256). */
START_TEST(random_large) {
  if (ch_quick()) return;
  for (int g = 0; g < 2; g++) {
    ic_builder *b;
    ic_builder_op *o = ew_op_program(&b, g ? "gaussian_random" : "uniform_random", 0, NULL, IC_FP32);
    ic_builder_attr_longs(o, "shape", 2, (const int64_t[]){(1 << 24) + 1, 4 + g});
    ic_builder_attr_int(o, "seed", 99);
    double rtol, atol;
    random_tolerance(g != 0, IC_FP32, &rtol, &atol);
    check(b, 0, NULL, rtol, atol);
  }
}
END_TEST

START_TEST(random_bad_attrs) {
  ic_builder *b;
  ic_builder_op *o = ew_op_program(&b, "uniform_random", 0, NULL, IC_FP32);
  ic_builder_attr_longs(o, "shape", 1, (const int64_t[]){4});
  ic_builder_attr_int(o, "diag_num", 3);
  ic_builder_attr_int(o, "diag_step", 2);
  char err[1024];
  ck_assert_int_eq(check_status(b, 0, NULL, 0, 0, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "diag_num 3", "diag_step 2", NULL);
}
END_TEST

static TCase *tc_scale_clip(void) {
  TCase *tc = tcase_create("scale_clip");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, scale_attrs);
  tcase_add_test(tc, scale_tensors);
  tcase_add_test(tc, scale_bad_tensor);
  tcase_add_test(tc, clip_attrs);
  tcase_add_test(tc, clip_tensors);
  tcase_add_test(tc, clip_bad_bounds);
  return tc;
}

static TCase *tc_cast(void) {
  TCase *tc = tcase_create("cast");
  tcase_set_timeout(tc, 600);
  tcase_add_loop_test(tc, cast_every_pair, 0, (int)N_ALL);
  tcase_add_test(tc, cast_bad_dtype);
  return tc;
}

static TCase *tc_fill(void) {
  TCase *tc = tcase_create("fill");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, fill_constant_values);
  tcase_add_test(tc, fill_constant_tensors);
  tcase_add_test(tc, fill_constant_large_and_bad);
  tcase_add_test(tc, fill_constant_batch_size_like_values);
  return tc;
}

static TCase *tc_random(void) {
  TCase *tc = tcase_create("random");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, dropout_inference);
  tcase_add_test(tc, dropout_training);
  tcase_add_test(tc, dropout_large_and_no_mask);
  tcase_add_test(tc, dropout_bad_seed);
  tcase_add_loop_test(tc, random_values, 0, 2);
  tcase_add_test(tc, uniform_diag_and_shape_tensor);
  tcase_add_test(tc, random_large);
  tcase_add_test(tc, random_bad_attrs);
  return tc;
}

CH_MAIN("cuda_misc", tc_scale_clip, tc_cast, tc_fill, tc_random)
