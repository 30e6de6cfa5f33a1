/* The quantization ops at inference and in training (is_test false: the moving-average
 * state, the range window, scales from the data) against references written here in double
 * precision: q = round(x / s * bin) (halves to even and clipped to [-bin - 1, bin] for
 * round_type 0; x clipped to [-s, s] and halves away from zero for round_type 1),
 * dequantized q * s / bin. float64 inputs; values are exact up to the last ulp (1e-12
 * relative). Paddle's own float32 results are the oracle cases quant_ops and quant_train_*
 * (test_paddle_oracle); bad input gives clear errors. */
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

static double abs_max(const ic_tensor *x) {
  double m = 0;
  for (int64_t i = 0; i < ic_tensor_numel(x); i++) m = fmax(m, fabs(ew_at(x, i)));
  return m;
}

/* Three training steps of the moving-average quantizers in one program, each step's
 * OutScale/OutAccum/OutState feeding the next: state = r * state + 1, accum = r * accum +
 * max|x|, scale = accum / state (r the float moving_rate), Out quantized with the new scale. */
START_TEST(train_moving_average) {
  for (int deq = 0; deq < 2; deq++) {
    for (int rt = 0; rt < 2; rt++) {
      optest t;
      ot_begin(&t);
      static const char *const xn[3] = {"x0", "x1", "x2"};
      ic_tensor *xs[3];
      for (int k = 0; k < 3; k++) {
        xs[k] = ew_rand(IC_FP64, 2, TU_DIMS(3, 4), 20 + (uint64_t)k, -1.0 - k, 1.0 + k);
        ot_feed(&t, xn[k], xs[k]);
      }
      ot_feed(&t, "s", tu_f64(1, TU_DIMS(1), (const double[]){0.5}));
      ot_feed(&t, "a", tu_f64(1, TU_DIMS(1), (const double[]){1.3}));
      ot_feed(&t, "st", tu_f64(1, TU_DIMS(1), (const double[]){2}));
      static const char *const names[3][4] = {{"o0", "s0", "a0", "t0"},
                                              {"o1", "s1", "a1", "t1"},
                                              {"o2", "s2", "a2", "t2"}};
      const char *in_s = "s", *in_a = "a", *in_t = "st";
      for (int k = 0; k < 3; k++) {
        ic_builder_op *o = ot_op(&t, deq ? "fake_quantize_dequantize_moving_average_abs_max"
                                         : "fake_quantize_moving_average_abs_max");
        ic_builder_in(o, "X", xn[k]);
        ic_builder_in(o, "InScale", in_s);
        ic_builder_in(o, "InAccum", in_a);
        ic_builder_in(o, "InState", in_t);
        ic_builder_attr_int(o, "round_type", rt);
        ic_builder_attr_int(o, "bit_length", 6);
        ic_builder_attr_float(o, "moving_rate", 0.8f);
        ic_builder_attr_bool(o, "is_test", false);
        ot_out(&t, "Out", names[k][0]);
        ot_out(&t, "OutScale", names[k][1]);
        ot_out(&t, "OutAccum", names[k][2]);
        ot_out(&t, "OutState", names[k][3]);
        in_s = names[k][1];
        in_a = names[k][2];
        in_t = names[k][3];
      }
      ot_ok(&t);
      double state = 2, accum = 1.3, r = (double)0.8f, bin = 31;
      for (int k = 0; k < 3; k++) {
        state = r * state + 1;
        accum = r * accum + abs_max(xs[k]);
        double scale = accum / state, ref[12];
        for (int i = 0; i < 12; i++) {
          double q = ref_q(ew_at(xs[k], i), scale, bin, rt);
          ref[i] = deq ? q * scale / bin : q;
        }
        tu_assert_close(t.out[4 * k], ref, 12, 1e-12, 1e-15);
        tu_assert_close(t.out[4 * k + 1], &scale, 1, 1e-15, 0);
        tu_assert_close(t.out[4 * k + 2], &accum, 1, 1e-15, 0);
        tu_assert_close(t.out[4 * k + 3], &state, 1, 1e-15, 0);
      }
      ot_end(&t);
    }
  }
}
END_TEST

/* fake_quantize_range_abs_max in training: two steps on one window of 3 scales (fed, then
 * updated in place by both ops) with Iter 3 (the largest scale leaves the window: the scale
 * is recomputed over the window, 1.2) and 1 (a larger max|x| raises it to 1.6). */
START_TEST(train_range_abs_max) {
  optest t;
  ot_begin(&t);
  ic_tensor *x0 = quant_input(), *x1 = quant_input();
  double *d = ic_tensor_data(x0);
  for (int i = 0; i < 12; i++) d[i] = fmin(fmax(d[i], -1.2), 1.2);
  d[2] = -1.2;
  d = ic_tensor_data(x1);
  for (int i = 0; i < 12; i++) d[i] = fmin(fmax(d[i], -1.6), 1.6);
  d[3] = 1.6;
  ot_feed(&t, "x0", x0);
  ot_feed(&t, "x1", x1);
  ot_feed(&t, "w", tu_f64(1, TU_DIMS(3), (const double[]){2, 0.5, 0.3}));
  ot_feed(&t, "s", tu_f64(1, TU_DIMS(1), (const double[]){2}));
  ot_feed(&t, "it0", tu_i64(1, TU_DIMS(1), (const int64_t[]){3}));
  ot_feed(&t, "it1", tu_i64(1, TU_DIMS(1), (const int64_t[]){1}));
  for (int k = 0; k < 2; k++) {
    ic_builder_op *o = ot_op(&t, "fake_quantize_range_abs_max");
    ic_builder_in(o, "X", k ? "x1" : "x0");
    ic_builder_in(o, "InScale", k ? "s0" : "s");
    ic_builder_in(o, "Iter", k ? "it1" : "it0");
    ic_builder_attr_int(o, "window_size", 3);
    ic_builder_attr_int(o, "round_type", k);
    ic_builder_attr_bool(o, "is_test", false);
    ot_out(&t, "Out", k ? "o1" : "o0");
    ot_out(&t, "OutScale", k ? "s1" : "s0");
    ic_builder_out(o, "OutScales", "w");
  }
  ic_builder_fetch(t.b, "w"); /* declared by its feed */
  t.fetch_names[t.n_fetches++] = "w";
  ot_ok(&t);
  const ic_tensor *xs[2] = {x0, x1};
  const double scales[2] = {1.2, 1.6};
  for (int k = 0; k < 2; k++) {
    double ref[12];
    for (int i = 0; i < 12; i++) ref[i] = ref_q(ew_at(xs[k], i), scales[k], 127, k);
    tu_assert_close(t.out[2 * k], ref, 12, 1e-12, 1e-15);
    tu_assert_close(t.out[2 * k + 1], &scales[k], 1, 0, 0);
  }
  tu_assert_close(t.out[4], (const double[]){1.2, 1.6, 0.3}, 3, 0, 0);
  ot_end(&t);
}
END_TEST

/* The abs-max quantizers: OutScale = max|x| (per channel for the channel-wise one in
 * training), Out quantized (and dequantized) with it. */
START_TEST(train_abs_max) {
  for (int op = 0; op < 3; op++) {
    for (int rt = 0; rt < 2; rt++) {
      optest t;
      ot_begin(&t);
      ic_tensor *x = quant_input();
      ot_feed(&t, "x", x);
      static const char *const types[3] = {"fake_quantize_abs_max",
                                           "fake_quantize_dequantize_abs_max",
                                           "fake_channel_wise_quantize_abs_max"};
      ic_builder_op *o = ot_op(&t, types[op]);
      ic_builder_in(o, "X", "x");
      ic_builder_attr_int(o, "round_type", rt);
      ic_builder_attr_int(o, "bit_length", 5);
      if (op == 2) {
        ic_builder_attr_int(o, "quant_axis", rt);
        ic_builder_attr_bool(o, "is_test", false);
      }
      ot_out(&t, "Out", "out");
      ot_out(&t, "OutScale", "os");
      ot_ok(&t);
      int ch = op < 2 ? 1 : rt ? 4 : 3;
      double sc[4] = {0}, ref[12];
      for (int i = 0; i < 12; i++) {
        int k = op < 2 ? 0 : rt ? i % 4 : i / 4;
        sc[k] = fmax(sc[k], fabs(ew_at(x, i)));
      }
      for (int i = 0; i < 12; i++) {
        double s = sc[op < 2 ? 0 : rt ? i % 4 : i / 4], q = ref_q(ew_at(x, i), s, 15, rt);
        ref[i] = op == 1 ? q * s / 15 : q;
      }
      tu_assert_close(t.out[0], ref, 12, 1e-12, 1e-15);
      tu_assert_shape(t.out[1], IC_FP64, 1, TU_DIMS(ch));
      tu_assert_close(t.out[1], sc, (size_t)ch, 0, 0);
      ot_end(&t);
    }
  }
}
END_TEST

/* quantize_linear in training (is_test false): per tensor two steps chained through
 * OutScale/OutAccum/OutState (moving average, rate 0.9f) and once with only_observer (state
 * updated, Y = X); per channel along axis 1, OutScale = max |X| per channel. */
START_TEST(train_quantize_linear) {
  for (int mode = 0; mode < 3; mode++) {
    optest t;
    ot_begin(&t);
    ic_tensor *x0 = ew_rand(IC_FP64, 2, TU_DIMS(3, 4), 31, -1.5, 1.5);
    ic_tensor *x1 = ew_rand(IC_FP64, 2, TU_DIMS(3, 4), 32, -0.7, 0.7);
    ot_feed(&t, "x0", x0);
    ot_feed(&t, "x1", x1);
    ot_feed(&t, "s", tu_f64(1, TU_DIMS(1), (const double[]){0.5}));
    ot_feed(&t, "a", tu_f64(1, TU_DIMS(1), (const double[]){1.3}));
    ot_feed(&t, "st", tu_f64(1, TU_DIMS(1), (const double[]){2}));
    int steps = mode == 0 ? 2 : 1;
    static const char *const names[2][4] = {{"y0", "s0", "a0", "t0"}, {"y1", "s1", "a1", "t1"}};
    for (int k = 0; k < steps; k++) {
      ic_builder_op *o = ot_op(&t, "quantize_linear");
      ic_builder_in(o, "X", k ? "x1" : "x0");
      ic_builder_in(o, "Scale", k ? "s0" : "s");
      ic_builder_in(o, "InAccum", k ? "a0" : "a");
      ic_builder_in(o, "InState", k ? "t0" : "st");
      ic_builder_attr_int(o, "quant_axis", mode == 2 ? 1 : -1);
      ic_builder_attr_int(o, "round_type", k);
      ic_builder_attr_bool(o, "only_observer", mode == 1);
      ic_builder_attr_bool(o, "is_test", false);
      ot_out(&t, "Y", names[k][0]);
      ot_out(&t, "OutScale", names[k][1]);
      ot_out(&t, "OutAccum", names[k][2]);
      ot_out(&t, "OutState", names[k][3]);
    }
    ot_ok(&t);
    const ic_tensor *xs[2] = {x0, x1};
    double state = 2, accum = 1.3, r = (double)0.9f;
    for (int k = 0; k < steps; k++) {
      double sc[4] = {0}, ref[12];
      int ch = mode == 2 ? 4 : 1;
      if (mode == 2) {
        for (int i = 0; i < 12; i++) sc[i % 4] = fmax(sc[i % 4], fabs(ew_at(xs[k], i)));
      } else {
        state = r * state + 1;
        accum = r * accum + abs_max(xs[k]);
        sc[0] = accum / state;
      }
      for (int i = 0; i < 12; i++) {
        ref[i] = mode == 1 ? ew_at(xs[k], i) : ref_q(ew_at(xs[k], i), sc[i % ch], 127, k);
      }
      tu_assert_close(t.out[4 * k], ref, 12, 1e-12, 1e-15);
      tu_assert_close(t.out[4 * k + 1], sc, (size_t)ch, 1e-15, 0);
      /* per channel, state and accum pass through */
      tu_assert_close(t.out[4 * k + 2], mode == 2 ? (const double[]){1.3} : &accum, 1, 1e-15, 0);
      tu_assert_close(t.out[4 * k + 3], mode == 2 ? (const double[]){2} : &state, 1, 1e-15, 0);
    }
    ot_end(&t);
  }
  /* per tensor training needs the moving-average state */
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", quant_input());
  ot_feed(&t, "s", tu_f64(1, TU_DIMS(1), (const double[]){0.5}));
  ic_builder_op *o = ot_op(&t, "quantize_linear");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Scale", "s");
  ic_builder_attr_int(o, "quant_axis", -1);
  ic_builder_attr_bool(o, "is_test", false);
  ot_out(&t, "Y", "y");
  ot_out(&t, "OutScale", "os");
  ic_status st = ot_run(&t);
  ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "quantize_linear", "input InAccum is absent", "moving average", NULL);
  ot_end(&t);
}
END_TEST

/* moving_average_abs_max_scale: in training Out = X and the moving average (rate 0.85f) in
 * OutScale/OutAccum/OutState; at inference OutScale is left as it is (read back, here fed;
 * empty when not read back) and Out = X; training without InState is refused; straight_through_estimator_grad copies
 * Out@GRAD. */
START_TEST(observer_scale) {
  for (int test = 0; test < 2; test++) {
    optest t;
    ot_begin(&t);
    ic_tensor *x = quant_input();
    ot_feed(&t, "x", x);
    ot_feed(&t, "a", tu_f64(1, TU_DIMS(1), (const double[]){0.4}));
    ot_feed(&t, "st", tu_f64(1, TU_DIMS(1), (const double[]){1.5}));
    if (test) {
      /* a persistable OutScale (read back): fed here in place of the scope's value */
      ic_builder_var(t.b, 0, "os", IC_FP64, 1, TU_DIMS(1), true);
      ic_builder_feed(t.b, "os");
      t.feed_names[t.n_feeds] = "os";
      t.feeds[t.n_feeds++] = tu_f64(1, TU_DIMS(1), (const double[]){0.25});
    }
    ic_builder_op *o = ot_op(&t, "moving_average_abs_max_scale");
    ic_builder_in(o, "X", "x");
    ic_builder_in(o, "InAccum", "a");
    ic_builder_in(o, "InState", "st");
    ic_builder_attr_float(o, "moving_rate", 0.85f);
    ic_builder_attr_bool(o, "is_test", test);
    ot_out(&t, "Out", "y");
    ot_out(&t, "OutAccum", "a1");
    ot_out(&t, "OutState", "t1");
    if (test) {
      ic_builder_out(o, "OutScale", "os");
      ic_builder_fetch(t.b, "os"); /* declared by its feed */
      t.fetch_names[t.n_fetches++] = "os";
    } else {
      ot_out(&t, "OutScale", "os");
    }
    ot_ok(&t);
    double xv[12];
    for (int i = 0; i < 12; i++) xv[i] = ew_at(x, i);
    tu_assert_close(t.out[0], xv, 12, 0, 0);
    double r = (double)0.85f, state = test ? 1.5 : r * 1.5 + 1,
           accum = test ? 0.4 : r * 0.4 + abs_max(x), scale = test ? 0.25 : accum / state;
    tu_assert_close(t.out[1], &accum, 1, 1e-15, 0);
    tu_assert_close(t.out[2], &state, 1, 1e-15, 0);
    tu_assert_close(t.out[3], &scale, 1, 1e-15, 0);
    ot_end(&t);
  }
  optest t;
  /* at inference, an OutScale not read back (a PIR program's value, not persistable) is
   * what Paddle leaves there: an empty tensor; Out is still X */
  ot_begin(&t);
  ic_tensor *x = quant_input();
  ot_feed(&t, "x", x);
  ic_builder_op *o = ot_op(&t, "moving_average_abs_max_scale");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_bool(o, "is_test", true);
  ot_out(&t, "Out", "y");
  ot_out(&t, "OutScale", "os");
  ot_ok(&t);
  double xv[12];
  for (int i = 0; i < 12; i++) xv[i] = ew_at(x, i);
  tu_assert_close(t.out[0], xv, 12, 0, 0);
  ck_assert_int_eq(ic_tensor_numel(t.out[1]), 0);
  ot_end(&t);
  ot_begin(&t);
  ot_feed(&t, "x", quant_input());
  o = ot_op(&t, "moving_average_abs_max_scale");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_bool(o, "is_test", false);
  ot_out(&t, "OutScale", "os");
  ic_status st = ot_run(&t);
  ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "moving_average_abs_max_scale", "input InAccum is absent",
                "training (is_test false)", NULL);
  ot_end(&t);
  ot_begin(&t);
  ic_tensor *g = quant_input();
  ot_feed(&t, "g", g);
  o = ot_op(&t, "straight_through_estimator_grad");
  ic_builder_in(o, "Out@GRAD", "g");
  ot_out(&t, "X@GRAD", "dx");
  ot_ok(&t);
  double gv[12];
  for (int i = 0; i < 12; i++) gv[i] = ew_at(g, i);
  tu_assert_close(t.out[0], gv, 12, 0, 0);
  ot_end(&t);
}
END_TEST

/* fake_channel_wise_quantize_abs_max at inference quantizes with the scales its OutScale
 * already holds (Paddle's kernel reads the output as it finds it): the loader gives it an
 * input OutScale, here fed. */
START_TEST(channel_wise_quant_inference) {
  optest t;
  ot_begin(&t);
  ic_tensor *x = quant_input();
  ot_feed(&t, "x", x);
  const double sc[4] = {0.5, 1.0, 0.7, 0.3};
  ot_feed(&t, "os", tu_f64(1, TU_DIMS(4), sc));
  ic_builder_op *o = ot_op(&t, "fake_channel_wise_quantize_abs_max");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_int(o, "quant_axis", 1);
  ic_builder_attr_int(o, "round_type", 0);
  ic_builder_attr_bool(o, "is_test", true);
  ot_out(&t, "Out", "out");
  ic_builder_out(o, "OutScale", "os");
  ic_builder_fetch(t.b, "os"); /* declared by its feed */
  t.fetch_names[t.n_fetches++] = "os";
  ot_ok(&t);
  double ref[12];
  for (int i = 0; i < 12; i++) ref[i] = ref_q(ew_at(x, i), sc[i % 4], 127, 0);
  tu_assert_close(t.out[0], ref, 12, 1e-12, 1e-15);
  tu_assert_close(t.out[1], sc, 4, 0, 0);
  ot_end(&t);
}
END_TEST

/* One training-mode quantizer op on x (float64 [3, 4]) with the given extra inputs (slot,
 * variable, value or NULL when the variable is not fed) and outputs; returns the status and
 * leaves the message in t->err. */
typedef struct qslot {
  const char *slot, *var;
  ic_tensor *v;
} qslot;

static ic_status run_bad(optest *t, const char *type, const qslot *ins, const qslot *outs,
                         int64_t window) {
  ot_begin(t);
  ot_feed(t, "x", quant_input());
  for (const qslot *q = ins; q && q->slot; q++) {
    if (q->v) ot_feed(t, q->var, q->v);
  }
  ic_builder_op *o = ot_op(t, type);
  ic_builder_in(o, "X", "x");
  for (const qslot *q = ins; q && q->slot; q++) {
    if (!q->v) ic_builder_var(t->b, 0, q->var, IC_FP64, 1, TU_DIMS(1), false);
    ic_builder_in(o, q->slot, q->var);
  }
  ic_builder_attr_bool(o, "is_test", false);
  if (window) ic_builder_attr_int(o, "window_size", window);
  ot_out(t, "Out", "y");
  for (const qslot *q = outs; q && q->slot; q++) {
    bool declared = false;
    for (const qslot *p = ins; p && p->slot; p++) declared |= !strcmp(p->var, q->var);
    if (!declared) ic_builder_var(t->b, 0, q->var, IC_FP64, 1, TU_DIMS(1), false);
    ic_builder_out(o, q->slot, q->var);
  }
  return ot_run(t);
}

static ic_tensor *one(double v) { return tu_f64(1, TU_DIMS(1), (const double[]){v}); }
static ic_tensor *iter(int64_t v) { return tu_i64(1, TU_DIMS(1), &v); }

static ic_tensor *vals(int n) { /* 1, 2, ..., n */
  double v[8];
  for (int i = 0; i < n; i++) v[i] = i + 1;
  return tu_f64(1, TU_DIMS(n), v);
}

#define QEND {NULL, NULL, NULL}

START_TEST(train_errors) {
  static const char ma[] = "fake_quantize_dequantize_moving_average_abs_max",
                    rg[] = "fake_quantize_range_abs_max";
  static const qslot ma_outs[] = {
      {"OutScale", "s", NULL}, {"OutAccum", "a", NULL}, {"OutState", "t", NULL}, QEND};
  optest t;
  /* moving average: InState missing, InAccum of two values, OutState missing */
  ic_status st = run_bad(
      &t, ma, (const qslot[]){{"InScale", "s", one(1)}, {"InAccum", "a", one(1)}, QEND},
      ma_outs, 0);
  ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, ma, "input InState is absent", "training (is_test false)", NULL);
  ot_end(&t);
  st = run_bad(&t, ma,
               (const qslot[]){{"InScale", "s", one(1)}, {"InAccum", "a", vals(2)},
                               {"InState", "t", one(1)}, QEND},
               ma_outs, 0);
  ck_assert_int_eq(st, IC_ERR_SHAPE);
  tu_assert_msg(t.err, ma, "InAccum 'a'", "float64[2]", "expected one element of X's dtype",
                NULL);
  ot_end(&t);
  st = run_bad(&t, ma,
               (const qslot[]){{"InScale", "s", one(1)}, {"InAccum", "a", one(1)},
                               {"InState", "t", one(1)}, QEND},
               (const qslot[]){{"OutScale", "s", NULL}, {"OutAccum", "a", NULL}, QEND}, 0);
  ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, ma, "output OutState is absent", NULL);
  ot_end(&t);
  /* range: window never set, Iter missing, Iter negative, window of the wrong size,
   * OutScales missing, InScale of two values */
  static const qslot rg_outs[] = {{"OutScale", "s", NULL}, {"OutScales", "w", NULL}, QEND};
  st = run_bad(&t, rg, (const qslot[]){{"InScale", "s", one(1)}, QEND}, rg_outs, 3);
  /* the window w is declared by the output only, never fed: it has not been set */
  ck_assert_int_eq(st, IC_ERR_NOT_FOUND);
  tu_assert_msg(t.err, rg, "OutScales 'w'", "has not been set", NULL);
  ot_end(&t);
  st = run_bad(&t, rg, (const qslot[]){{"InScale", "s", one(1)}, {"OutScales", "w", vals(3)}, QEND},
               rg_outs, 3);
  ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, rg, "input Iter", "absent", NULL);
  ot_end(&t);
  st = run_bad(&t, rg,
               (const qslot[]){{"InScale", "s", one(1)}, {"Iter", "i", iter(-1)},
                               {"OutScales", "w", vals(3)}, QEND},
               rg_outs, 3);
  ck_assert_msg(st == IC_ERR_SHAPE, "%s", t.err);
  tu_assert_msg(t.err, rg, "Iter 'i'", "expected >= 0", NULL);
  ot_end(&t);
  st = run_bad(&t, rg,
               (const qslot[]){{"InScale", "s", one(1)}, {"Iter", "i", iter(2)},
                               {"OutScales", "w", vals(2)}, QEND},
               rg_outs, 3);
  ck_assert_int_eq(st, IC_ERR_SHAPE);
  tu_assert_msg(t.err, rg, "OutScales 'w'", "window_size = 3", NULL);
  ot_end(&t);
  st = run_bad(&t, rg, (const qslot[]){{"InScale", "s", one(1)}, {"Iter", "i", iter(2)}, QEND},
               (const qslot[]){{"OutScale", "s", NULL}, QEND}, 3);
  ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, rg, "output OutScales is absent", NULL);
  ot_end(&t);
  st = run_bad(&t, rg,
               (const qslot[]){{"InScale", "s", vals(2)}, {"Iter", "i", iter(2)},
                               {"OutScales", "w", vals(3)}, QEND},
               rg_outs, 3);
  ck_assert_int_eq(st, IC_ERR_SHAPE);
  tu_assert_msg(t.err, rg, "InScale 's'", "expected one element", NULL);
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
  tcase_add_test(tc, train_moving_average);
  tcase_add_test(tc, train_range_abs_max);
  tcase_add_test(tc, train_abs_max);
  tcase_add_test(tc, train_errors);
  tcase_add_test(tc, channel_wise_quant_inference);
  tcase_add_test(tc, train_quantize_linear);
  tcase_add_test(tc, observer_scale);
  return tc;
}

TU_MAIN("ops_quant", tc_quant)
