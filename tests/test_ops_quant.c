/* The quantization ops at inference against references written here in double precision:
 * q = round(x / s * bin) (halves to even and clipped to [-bin - 1, bin] for round_type 0;
 * x clipped to [-s, s] and halves away from zero for round_type 1), dequantized q * s / bin.
 * float64 inputs; values are exact up to the last ulp (1e-12 relative). */
#include <math.h>

#include "ew_testutil.h"
#include "optest.h"

static double rhe(double v) { /* halves to even */
  double f = floor(v), d = v - f;
  return (d > 0.5 || (d == 0.5 && fmod(f, 2) != 0)) ? f + 1 : f;
}
static double rha(double v) { return v < 0 ? -floor(-v + 0.5) : floor(v + 0.5); }

static double ref_q(double x, double s, double bin, int rt) {
  double inv = s <= 1e-30 ? 1 / (s + 1e-6) : 1 / s;
  if (rt == 0) return fmin(fmax(rhe(bin * inv * x), -bin - 1), bin); /* Paddle's order */
  return rha(bin * inv * fmin(fmax(x, -s), s));
}

/* X [3, 4] in float64 with values that hit halves after scaling by 127 / 0.8. */
static ic_tensor *quant_input(void) {
  ic_tensor *x = ew_rand(IC_FP64, 2, TU_DIMS(3, 4), 11, -1.2, 1.2);
  double *d = ic_tensor_data(x);
  d[0] = 0.8 * 2.5 / 127;  /* 2.5 exactly: ties */
  d[1] = -0.8 * 3.5 / 127;
  d[2] = 5;                /* beyond the scale */
  d[3] = -5;
  return x;
}

START_TEST(fake_quant_dequant) {
  for (int rt = 0; rt < 2; rt++) {
    for (int bits = 4; bits <= 8; bits += 4) {
      for (int deq = 0; deq < 2; deq++) {
        optest t;
        ot_begin(&t);
        ic_tensor *x = quant_input();
        ot_feed(&t, "x", x);
        ot_feed(&t, "s", tu_f64(1, TU_DIMS(1), (const double[]){0.8}));
        ic_builder_op *o = ot_op(&t, deq ? "fake_quantize_dequantize_moving_average_abs_max"
                                         : "fake_quantize_range_abs_max");
        ic_builder_in(o, "X", "x");
        ic_builder_in(o, "InScale", "s");
        ic_builder_attr_int(o, "round_type", rt);
        ic_builder_attr_int(o, "bit_length", bits);
        ic_builder_attr_bool(o, "is_test", true);
        ot_out(&t, "Out", "out");
        ot_out(&t, "OutScale", "os");
        ot_ok(&t);
        double bin = (1 << (bits - 1)) - 1, ref[12];
        for (int i = 0; i < 12; i++) {
          double q = ref_q(ew_at(x, i), 0.8, bin, rt);
          ref[i] = deq ? q * 0.8 / bin : q;
        }
        tu_assert_close(t.out[0], ref, 12, 1e-12, 1e-15);
        tu_assert_close(t.out[1], (const double[]){0.8}, 1, 0, 0);
        ot_end(&t);
      }
    }
  }
}
END_TEST

START_TEST(channel_wise_quant_dequant) {
  for (int axis = 0; axis < 2; axis++) {
    for (int rt = 0; rt < 2; rt++) {
      optest t;
      ot_begin(&t);
      ic_tensor *x = quant_input();
      ot_feed(&t, "x", x);
      ic_builder_op *o = ot_op(&t, "fake_channel_wise_quantize_dequantize_abs_max");
      ic_builder_in(o, "X", "x");
      ic_builder_attr_int(o, "quant_axis", axis);
      ic_builder_attr_int(o, "round_type", rt);
      ot_out(&t, "Out", "out");
      ot_out(&t, "OutScale", "os");
      ot_ok(&t);
      int ch = axis ? 4 : 3;
      double sc[4] = {0}, ref[12];
      for (int i = 0; i < 12; i++) {
        int k = axis ? i % 4 : i / 4;
        sc[k] = fmax(sc[k], fabs(ew_at(x, i)));
      }
      for (int i = 0; i < 12; i++) {
        double s = sc[axis ? i % 4 : i / 4];
        ref[i] = ref_q(ew_at(x, i), s, 127, rt) * s / 127;
      }
      tu_assert_close(t.out[0], ref, 12, 1e-12, 1e-15);
      tu_assert_shape(t.out[1], IC_FP64, 1, TU_DIMS(ch));
      tu_assert_close(t.out[1], sc, (size_t)ch, 0, 0);
      ot_end(&t);
    }
  }
}
END_TEST

START_TEST(dequantize_ops) {
  /* fake_dequantize_max_abs */
  optest t;
  ot_begin(&t);
  ic_tensor *x = quant_input();
  ot_feed(&t, "x", x);
  ot_feed(&t, "s", tu_f64(1, TU_DIMS(1), (const double[]){0.8}));
  ic_builder_op *o = ot_op(&t, "fake_dequantize_max_abs");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Scale", "s");
  ic_builder_attr_float(o, "max_range", 127);
  ot_out(&t, "Out", "out");
  ot_ok(&t);
  double ref[12];
  for (int i = 0; i < 12; i++) ref[i] = ew_at(x, i) * 0.8 / 127;
  tu_assert_close(t.out[0], ref, 12, 1e-12, 0);
  ot_end(&t);
  /* fake_channel_wise_dequantize_max_abs: one scale along axis 0 and 1, two scales */
  const double s3[] = {0.5, 1, 0.25}, s4[] = {0.5, 1, 0.7, 0.3};
  for (int mode = 0; mode < 3; mode++) {
    ot_begin(&t);
    x = quant_input();
    ot_feed(&t, "x", x);
    ot_feed(&t, "a", mode == 0 ? tu_f64(1, TU_DIMS(3), s3) : tu_f64(1, TU_DIMS(4), s4));
    if (mode == 2) ot_feed(&t, "b", tu_f64(1, TU_DIMS(1), (const double[]){0.8}));
    o = ot_op(&t, "fake_channel_wise_dequantize_max_abs");
    ic_builder_in(o, "X", "x");
    ic_builder_input(o, "Scales", mode == 2 ? 2 : 1, TU_NAMES("a", "b"));
    ic_builder_attr_ints(o, "quant_bits", mode == 2 ? 2 : 1, (const int32_t[]){8, 4});
    ic_builder_attr_int(o, "quant_axis", mode == 1 ? 1 : 0);
    ot_out(&t, "Out", "out");
    ot_ok(&t);
    for (int i = 0; i < 12; i++) {
      double v = ew_at(x, i);
      if (mode == 0) ref[i] = v * s3[i / 4] / 127;
      if (mode == 1) ref[i] = v * s4[i % 4] / 127;
      if (mode == 2) ref[i] = v * s4[i % 4] * 0.8 / (127.0 * 7.0);
    }
    tu_assert_close(t.out[0], ref, 12, 1e-12, 0);
    ot_end(&t);
  }
}
END_TEST

START_TEST(linear_ops) {
  const double s3[] = {0.5, 1, 0.25};
  for (int mode = 0; mode < 6; mode++) {
    /* 0/1 quantize per tensor rt 0/1; 2 quantize per channel; 3 dequantize per tensor;
     * 4 dequantize per channel; 5 dequantize int8 per channel */
    bool deq = mode >= 3, chan = mode == 2 || mode >= 4;
    int rt = mode == 1;
    optest t;
    ot_begin(&t);
    ic_tensor *x;
    if (mode == 5) {
      ck_assert_int_eq(ic_tensor_create(IC_INT8, 2, TU_DIMS(3, 4), &x), IC_OK);
      for (int i = 0; i < 12; i++) ((int8_t *)ic_tensor_data(x))[i] = (int8_t)(i * 23 - 128);
    } else {
      x = quant_input();
    }
    ot_feed(&t, "x", x);
    ot_feed(&t, "s", chan ? tu_f64(1, TU_DIMS(3), s3)
                         : tu_f64(1, TU_DIMS(1), (const double[]){0.8}));
    ot_feed(&t, "z", tu_f64(1, TU_DIMS(1), (const double[]){0}));
    ic_builder_op *o = ot_op(&t, deq ? "dequantize_linear" : "quantize_linear");
    ic_builder_in(o, "X", "x");
    ic_builder_in(o, "Scale", "s");
    ic_builder_in(o, "ZeroPoint", "z");
    ic_builder_attr_int(o, "quant_axis", chan ? 0 : -1);
    ic_builder_attr_int(o, "round_type", rt);
    ic_builder_attr_int(o, "qmax", 127);
    ic_builder_attr_bool(o, "is_test", true);
    ot_out(&t, "Y", "y");
    ot_ok(&t);
    double ref[12];
    for (int i = 0; i < 12; i++) {
      double s = chan ? s3[i / 4] : 0.8;
      ref[i] = deq ? ew_at(x, i) * s / 127 : ref_q(ew_at(x, i), s, 127, rt);
    }
    tu_assert_shape(t.out[0], IC_FP64, 2, TU_DIMS(3, 4));
    tu_assert_close(t.out[0], ref, 12, 1e-12, 1e-15);
    ot_end(&t);
  }
}
END_TEST

START_TEST(quant_errors) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", quant_input());
  ot_feed(&t, "s", tu_f64(1, TU_DIMS(2), (const double[]){1, 2}));
  ic_builder_op *o = ot_op(&t, "quantize_linear");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Scale", "s");
  ic_builder_attr_int(o, "quant_axis", 0);
  ot_out(&t, "Y", "y");
  ic_status st = ot_run(&t);
  ck_assert_int_eq(st, IC_ERR_SHAPE);
  tu_assert_msg(t.err, "quantize_linear", "Scale 's'", "expected 3 values", NULL);
  ot_end(&t);
  ot_begin(&t);
  ot_feed(&t, "x", quant_input());
  ot_feed(&t, "s", tu_f64(1, TU_DIMS(1), (const double[]){1}));
  o = ot_op(&t, "fake_quantize_range_abs_max");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "InScale", "s");
  ic_builder_attr_bool(o, "is_test", false);
  ot_out(&t, "Out", "y");
  st = ot_run(&t);
  ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "fake_quantize_range_abs_max", "'is_test'", "training", NULL);
  ot_end(&t);
  ot_begin(&t);
  ot_feed(&t, "x", quant_input());
  o = ot_op(&t, "fake_channel_wise_quantize_dequantize_abs_max");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_int(o, "round_type", 2);
  ot_out(&t, "Out", "y");
  st = ot_run(&t);
  ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "fake_channel_wise_quantize_dequantize_abs_max", "'round_type'", "got 2",
                NULL);
  ot_end(&t);
}
END_TEST

static TCase *tc_quant(void) {
  TCase *tc = tcase_create("quant");
  tcase_add_test(tc, fake_quant_dequant);
  tcase_add_test(tc, channel_wise_quant_dequant);
  tcase_add_test(tc, dequantize_ops);
  tcase_add_test(tc, linear_ops);
  tcase_add_test(tc, quant_errors);
  return tc;
}

TU_MAIN("ops_quant", tc_quant)
