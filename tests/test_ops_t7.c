/* The training-program ops of the optimizer / AMP / fill family that Paddle's own outputs do
 * not cover (their Paddle-checked cases are the oracle's opt_* and test_train's t7_*): the
 * legacy fill op (no Paddle 2.6.2 or 3.3.1 build registers a kernel for it, so its values are
 * checked here against the conversions fluid's FillKernel makes), proximal_adagrad (no longer
 * registered by either: checked against fluid's formula in double precision), and the clear
 * errors every op of the family gives for bad input. */
#include <math.h>

#include "optest.h"

static ic_tensor *tu_bool1(bool v) {
  ic_tensor *t;
  ck_assert_int_eq(ic_tensor_create(IC_BOOL, 1, TU_DIMS(1), &t), IC_OK);
  *(bool *)ic_tensor_data(t) = v;
  return t;
}

/* Fetch a variable already declared (an input the op updates in place). */
static void fetch_declared(optest *t, const char *name) {
  ic_builder_fetch(t->b, name);
  t->fetch_names[t->n_fetches++] = name;
}

static const float k_fill_values[] = {1.5f, -2.7f, 3.999f, -0.5f, 70000.3f, 1e-3f, 0.1f, -7.0f, 2.5f};

static void fill_op(optest *t, const char *name, int dtype, int ndim, const int32_t *shape,
                    size_t n_values) {
  ic_builder_op *o = ot_op(t, "fill");
  ic_builder_attr_floats(o, "value", n_values, k_fill_values);
  ic_builder_attr_ints(o, "shape", (size_t)ndim, shape);
  if (dtype >= 0) ic_builder_attr_int(o, "dtype", dtype);
  ot_out(t, "Out", name);
}

/* fill in every dtype fluid's CPU kernel registered: static_cast<T>(float) of the first numel
 * values (integers truncate, float16 rounds to nearest even and overflows to inf). */
START_TEST(fill_dtypes) {
  optest t;
  ot_begin(&t);
  const int32_t s23[] = {2, 3};
  fill_op(&t, "f32", -1, 2, s23, 9);
  fill_op(&t, "f64", IC_FP64, 2, s23, 9);
  fill_op(&t, "i32", IC_INT32, 2, s23, 9);
  fill_op(&t, "i64", IC_INT64, 2, s23, 9);
  fill_op(&t, "f16", IC_FP16, 2, s23, 9);
  fill_op(&t, "scalar", IC_FP32, 0, NULL, 1);
  ot_ok(&t);
  double f32[6], f64[6];
  for (int i = 0; i < 6; i++) {
    f32[i] = k_fill_values[i];
    f64[i] = (double)k_fill_values[i];
  }
  tu_assert_shape(t.out[0], IC_FP32, 2, TU_DIMS(2, 3));
  tu_assert_close(t.out[0], f32, 6, 0, 0);
  tu_assert_shape(t.out[1], IC_FP64, 2, TU_DIMS(2, 3));
  tu_assert_close(t.out[1], f64, 6, 0, 0);
  tu_assert_shape(t.out[2], IC_INT32, 2, TU_DIMS(2, 3));
  tu_assert_close(t.out[2], (const double[]){1, -2, 3, 0, 70000, 0}, 6, 0, 0);
  tu_assert_shape(t.out[3], IC_INT64, 2, TU_DIMS(2, 3));
  tu_assert_close(t.out[3], (const double[]){1, -2, 3, 0, 70000, 0}, 6, 0, 0);
  tu_assert_shape(t.out[4], IC_FP16, 2, TU_DIMS(2, 3));
  /* 1.5, -2.7 -> -2.69921875 (0xC166), 3.999 -> 3.998 (0x43FF), -0.5, 70000.3 -> inf, 1e-3 */
  const uint16_t want16[] = {0x3E00, 0xC166, 0x43FF, 0xB800, 0x7C00, 0x1419};
  const uint16_t *h = ic_tensor_cdata(t.out[4]);
  for (int i = 0; i < 6; i++) {
    ck_assert_msg(h[i] == want16[i], "float16 %d is 0x%04x, expected 0x%04x", i, h[i], want16[i]);
  }
  tu_assert_shape(t.out[5], IC_FP32, 0, NULL);
  tu_assert_close(t.out[5], (const double[]){1.5}, 1, 0, 0);
  ot_end(&t);
}
END_TEST

START_TEST(fill_errors) {
  optest t;
  const int32_t s33[] = {3, 4}, sneg[] = {2, -1};
  ot_begin(&t);
  fill_op(&t, "y", IC_FP32, 2, s33, 9);
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "fill", "'value'", "holds 9 values, expected at least 12", NULL);
  ot_end(&t);
  ot_begin(&t);
  fill_op(&t, "y", IC_FP32, 2, sneg, 9);
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "fill", "'shape'", "-1", NULL);
  ot_end(&t);
  ot_begin(&t);
  fill_op(&t, "y", IC_BOOL, 1, s33, 9);
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "fill", "'dtype'", "is 0", NULL);
  ot_end(&t);
  /* fill_zeros_like2 takes no float16 */
  ot_begin(&t);
  ot_feed(&t, "x", tu_f32(1, TU_DIMS(2), (const float[]){1, 2}));
  ic_builder_op *o = ot_op(&t, "fill_zeros_like2");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_int(o, "dtype", IC_FP16);
  ot_out(&t, "Out", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "fill_zeros_like2", "'dtype'", "is 4", NULL);
  ot_end(&t);
}
END_TEST

/* One optimizer op over fed inputs: slots[k] is fed values[k] as variable names[k]; outs are
 * fresh variables. */
typedef struct slotv {
  const char *slot, *name;
  ic_tensor *v;
} slotv;

static ic_status run_op(optest *t, const char *type, const slotv *ins, const char *const *outs,
                        size_t n_outs) {
  ot_begin(t);
  for (const slotv *s = ins; s->slot; s++) ot_feed(t, s->name, s->v);
  ic_builder_op *o = ot_op(t, type);
  for (const slotv *s = ins; s->slot; s++) ic_builder_in(o, s->slot, s->name);
  for (size_t k = 0; k < n_outs; k++) {
    char name[64];
    snprintf(name, sizeof name, "o%zu", k);
    ic_builder_out(o, outs[k], name);
    if (k) ic_builder_var(t->b, 0, name, IC_FP32, 0, NULL, false);
  }
  ot_fetch(t, "o0");
  return ot_run(t);
}

static ic_tensor *f32v(int64_t n, float v) {
  float buf[16];
  for (int64_t i = 0; i < n; i++) buf[i] = v + 0.125f * (float)i;
  return tu_f32(1, &n, buf);
}
static ic_tensor *f64v(int64_t n, double v) {
  double buf[16];
  for (int64_t i = 0; i < n; i++) buf[i] = v + 0.125 * (double)i;
  return tu_f64(1, &n, buf);
}

static const char *const k_ftrl_outs[] = {"ParamOut", "SquaredAccumOut", "LinearAccumOut"};

START_TEST(optimizer_errors) {
  optest t;
  /* ftrl takes float32 only (Paddle's CPU kernel) */
  ic_status st = run_op(&t, "ftrl",
                        (const slotv[]){{"Param", "p", f64v(4, 1)},
                                        {"SquaredAccumulator", "s", f64v(4, 1)},
                                        {"LinearAccumulator", "l", f64v(4, 0)},
                                        {"Grad", "g", f64v(4, 0.5)},
                                        {"LearningRate", "lr", f64v(1, 0.1)},
                                        {NULL, NULL, NULL}},
                        k_ftrl_outs, 3);
  ck_assert_int_eq(st, IC_ERR_SHAPE);
  tu_assert_msg(t.err, "ftrl", "Param 'p'", "float64", "float32", NULL);
  ot_end(&t);
  /* a squared accumulator of another shape than Param */
  st = run_op(&t, "ftrl",
              (const slotv[]){{"Param", "p", f32v(4, 1)},
                              {"SquaredAccumulator", "s", f32v(3, 1)},
                              {"LinearAccumulator", "l", f32v(4, 0)},
                              {"Grad", "g", f32v(4, 0.5)},
                              {"LearningRate", "lr", f32v(1, 0.1)},
                              {NULL, NULL, NULL}},
              k_ftrl_outs, 3);
  ck_assert_int_eq(st, IC_ERR_SHAPE);
  tu_assert_msg(t.err, "ftrl", "SquaredAccumulator 's'", "expected float32[4]", "Param 'p'", NULL);
  ot_end(&t);
  /* decayed_adagrad: Moment of another shape, a learning rate of two values */
  static const char *const da_outs[] = {"ParamOut", "MomentOut"};
  st = run_op(&t, "decayed_adagrad",
              (const slotv[]){{"Param", "p", f32v(4, 1)},
                              {"Grad", "g", f32v(4, 0.5)},
                              {"Moment", "m", f32v(5, 0)},
                              {"LearningRate", "lr", f32v(1, 0.1)},
                              {NULL, NULL, NULL}},
              da_outs, 2);
  ck_assert_int_eq(st, IC_ERR_SHAPE);
  tu_assert_msg(t.err, "decayed_adagrad", "Moment 'm'", "float32[5]", "expected float32[4]", NULL);
  ot_end(&t);
  st = run_op(&t, "decayed_adagrad",
              (const slotv[]){{"Param", "p", f32v(4, 1)},
                              {"Grad", "g", f32v(4, 0.5)},
                              {"Moment", "m", f32v(4, 0)},
                              {"LearningRate", "lr", f32v(2, 0.1)},
                              {NULL, NULL, NULL}},
              da_outs, 2);
  ck_assert_int_eq(st, IC_ERR_SHAPE);
  tu_assert_msg(t.err, "decayed_adagrad", "LearningRate 'lr'", "expected one float32 value", NULL);
  ot_end(&t);
  /* proximal_gd: Grad of another dtype */
  static const char *const pg_outs[] = {"ParamOut"};
  st = run_op(&t, "proximal_gd",
              (const slotv[]){{"Param", "p", f32v(4, 1)},
                              {"Grad", "g", f64v(4, 0.5)},
                              {"LearningRate", "lr", f32v(1, 0.1)},
                              {NULL, NULL, NULL}},
              pg_outs, 1);
  ck_assert_int_ne(st, IC_OK);
  tu_assert_msg(t.err, "proximal_gd", "Grad 'g'", "expected float32[4]", NULL);
  ot_end(&t);
  /* dpsgd: a float32 learning rate for a float64 parameter */
  st = run_op(&t, "dpsgd",
              (const slotv[]){{"Param", "p", f64v(4, 1)},
                              {"Grad", "g", f64v(4, 0.5)},
                              {"LearningRate", "lr", f32v(1, 0.1)},
                              {NULL, NULL, NULL}},
              pg_outs, 1);
  ck_assert_int_ne(st, IC_OK);
  tu_assert_msg(t.err, "dpsgd", "LearningRate 'lr'", "expected one float64 value", NULL);
  ot_end(&t);
}
END_TEST

/* A Grad declared SelectedRows: decayed_adagrad refuses it (Paddle's kernel takes a dense
 * one); ftrl takes it (its sparse update). */
START_TEST(selected_rows_grad) {
  for (int k = 0; k < 2; k++) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "p", f32v(4, 1));
    ot_feed(&t, "m", f32v(4, 0));
    ot_feed(&t, "lr", f32v(1, 0.1));
    ic_builder_var_kind(t.b, 0, "gs", IC_VAR_SELECTED_ROWS, false);
    for (int v = 0; v < 3; v++) {
      ic_builder_var(t.b, 0, (const char *[]){"m2", "s2", "l2"}[v], IC_FP32, 0, NULL, false);
    }
    ic_builder_op *o = ot_op(&t, k ? "ftrl" : "decayed_adagrad");
    ic_builder_in(o, "Param", "p");
    ic_builder_in(o, "Grad", "gs");
    ic_builder_in(o, "LearningRate", "lr");
    if (k) {
      ic_builder_in(o, "SquaredAccumulator", "m");
      ic_builder_in(o, "LinearAccumulator", "m");
      ic_builder_out(o, "SquaredAccumOut", "s2");
      ic_builder_out(o, "LinearAccumOut", "l2");
    } else {
      ic_builder_in(o, "Moment", "m");
      ic_builder_out(o, "MomentOut", "m2");
    }
    ot_out(&t, "ParamOut", "p2");
    ic_status st = ot_run(&t);
    ck_assert_int_ne(st, IC_OK);
    if (!k) {
      ck_assert_msg(st == IC_ERR_UNSUPPORTED, "%s", t.err);
      tu_assert_msg(t.err, "decayed_adagrad", "Grad 'gs'", "SelectedRows", "dense Grad only", NULL);
    } else {
      /* accepted by resolve: it fails only later, for want of a value for gs */
      ck_assert_msg(!strstr(t.err, "SelectedRows"), "%s", t.err);
    }
    ot_end(&t);
  }
}
END_TEST

static const char *const k_avg_outs[] = {"out_sum_1", "out_sum_2", "out_sum_3",
                                         "out_num_accumulates", "out_old_num_accumulates",
                                         "out_num_updates"};

START_TEST(average_accumulates_errors) {
  optest t;
  for (int k = 0; k < 2; k++) {
    ic_tensor *cnt = k ? tu_i32(1, TU_DIMS(1), (const int32_t[]){3})
                       : tu_i64(1, TU_DIMS(1), (const int64_t[]){3});
    ic_status st = run_op(&t, "average_accumulates",
                          (const slotv[]){{"param", "p", f32v(4, 1)},
                                          {"in_sum_1", "s1", f32v(4, 0)},
                                          {"in_sum_2", "s2", f32v(4, 0)},
                                          {"in_sum_3", "s3", f32v(4, 0)},
                                          {"in_num_accumulates", "na", cnt},
                                          {"in_old_num_accumulates", "no",
                                           tu_i64(1, TU_DIMS(1), (const int64_t[]){0})},
                                          {"in_num_updates", "nu",
                                           tu_i64(1, TU_DIMS(1), (const int64_t[]){3})},
                                          {NULL, NULL, NULL}},
                          k_avg_outs, 6);
    if (k) {
      ck_assert_int_eq(st, IC_ERR_SHAPE);
      tu_assert_msg(t.err, "average_accumulates", "in_num_accumulates 'na'",
                    "expected one int64 counter", NULL);
    } else {
      ck_assert_int_eq(st, IC_OK);
    }
    ot_end(&t);
  }
  /* min_average_window above max_average_window */
  ot_begin(&t);
  ot_feed(&t, "p", f32v(2, 1));
  ic_builder_op *o = ot_op(&t, "average_accumulates");
  ic_builder_in(o, "param", "p");
  ic_builder_attr_long(o, "min_average_window", 10);
  ic_builder_attr_long(o, "max_average_window", 5);
  ot_out(&t, "out_sum_1", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "average_accumulates", "'min_average_window'", "is 10",
                "at most max_average_window (5)", NULL);
  ot_end(&t);
}
END_TEST

START_TEST(amp_errors) {
  optest t;
  /* check_finite_and_unscale: a float64 Scale for float32 X */
  ot_begin(&t);
  ot_feed(&t, "x", f32v(3, 1));
  ot_feed(&t, "s", f64v(1, 2));
  ic_builder_op *o = ot_op(&t, "check_finite_and_unscale");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Scale", "s");
  ot_out(&t, "Out", "y");
  ot_out(&t, "FoundInfinite", "f");
  ck_assert_int_ne(ot_run(&t), IC_OK);
  tu_assert_msg(t.err, "check_finite_and_unscale", "X 'x'", "expected float64 like Scale 's'",
                NULL);
  ot_end(&t);
  /* one Out for two X */
  ot_begin(&t);
  ot_feed(&t, "x", f32v(3, 1));
  ot_feed(&t, "x2", f32v(2, 1));
  ot_feed(&t, "s", f32v(1, 2));
  o = ot_op(&t, "check_finite_and_unscale");
  ic_builder_input(o, "X", 2, (const char *const[]){"x", "x2"});
  ic_builder_in(o, "Scale", "s");
  ot_out(&t, "Out", "y");
  ot_out(&t, "FoundInfinite", "f");
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_ARGUMENT);
  tu_assert_msg(t.err, "check_finite_and_unscale", "Out holds 1 variables",
                "expected one per X (2)", NULL);
  ot_end(&t);
  /* update_loss_scaling: PrevLossScaling float64 for float32 X; int64 good steps; an absent
   * required attribute */
  for (int k = 0; k < 3; k++) {
    ot_begin(&t);
    ot_feed(&t, "x", f32v(3, 1));
    ot_feed(&t, "found", tu_bool1(false));
    ot_feed(&t, "prev", k == 0 ? f64v(1, 8) : f32v(1, 8));
    ot_feed(&t, "good", k == 1 ? tu_i64(1, TU_DIMS(1), (const int64_t[]){1})
                               : tu_i32(1, TU_DIMS(1), (const int32_t[]){1}));
    ot_feed(&t, "bad", tu_i32(1, TU_DIMS(1), (const int32_t[]){0}));
    o = ot_op(&t, "update_loss_scaling");
    ic_builder_in(o, "X", "x");
    ic_builder_in(o, "FoundInfinite", "found");
    ic_builder_in(o, "PrevLossScaling", "prev");
    ic_builder_in(o, "InGoodSteps", "good");
    ic_builder_in(o, "InBadSteps", "bad");
    ic_builder_out(o, "Out", "x");
    ic_builder_out(o, "LossScaling", "prev");
    ic_builder_out(o, "OutGoodSteps", "good");
    ic_builder_out(o, "OutBadSteps", "bad");
    if (k != 2) ic_builder_attr_int(o, "incr_every_n_steps", 2);
    ic_builder_attr_int(o, "decr_every_n_nan_or_inf", 2);
    ic_builder_attr_float(o, "incr_ratio", 2);
    ic_builder_attr_float(o, "decr_ratio", 0.5f);
    fetch_declared(&t, "prev");
    ic_status st = ot_run(&t);
    if (k == 0) {
      ck_assert_int_eq(st, IC_ERR_SHAPE);
      tu_assert_msg(t.err, "update_loss_scaling", "PrevLossScaling 'prev'",
                    "expected one float32 value", NULL);
    } else if (k == 1) {
      ck_assert_int_eq(st, IC_ERR_SHAPE);
      tu_assert_msg(t.err, "update_loss_scaling", "InGoodSteps 'good'",
                    "expected one int32 value", NULL);
    } else {
      ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
      tu_assert_msg(t.err, "update_loss_scaling", "incr_every_n_steps", NULL);
    }
    ot_end(&t);
  }
}
END_TEST

/* update_loss_scaling in place: the good-step count reaching incr_every_n_steps doubles the
 * scale and the gradients pass unchanged (Out names X). */
START_TEST(update_loss_scaling_in_place) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", f32v(3, 1));
  ot_feed(&t, "found", tu_bool1(false));
  ot_feed(&t, "prev", f32v(1, 8));
  ot_feed(&t, "good", tu_i32(1, TU_DIMS(1), (const int32_t[]){1}));
  ot_feed(&t, "bad", tu_i32(1, TU_DIMS(1), (const int32_t[]){1}));
  ic_builder_op *o = ot_op(&t, "update_loss_scaling");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "FoundInfinite", "found");
  ic_builder_in(o, "PrevLossScaling", "prev");
  ic_builder_in(o, "InGoodSteps", "good");
  ic_builder_in(o, "InBadSteps", "bad");
  ic_builder_out(o, "Out", "x");
  ic_builder_out(o, "LossScaling", "prev");
  ic_builder_out(o, "OutGoodSteps", "good");
  ic_builder_out(o, "OutBadSteps", "bad");
  ic_builder_attr_int(o, "incr_every_n_steps", 2);
  ic_builder_attr_int(o, "decr_every_n_nan_or_inf", 2);
  ic_builder_attr_float(o, "incr_ratio", 2);
  ic_builder_attr_float(o, "decr_ratio", 0.5f);
  fetch_declared(&t, "x");
  fetch_declared(&t, "prev");
  fetch_declared(&t, "good");
  fetch_declared(&t, "bad");
  ot_ok(&t);
  tu_assert_close(t.out[0], (const double[]){1, 1.125, 1.25}, 3, 0, 0);
  tu_assert_close(t.out[1], (const double[]){16}, 1, 0, 0);
  tu_assert_close(t.out[2], (const double[]){0}, 1, 0, 0);
  tu_assert_close(t.out[3], (const double[]){0}, 1, 0, 0);
  ot_end(&t);
}
END_TEST

/* proximal_adagrad against fluid's formula in double: l1 = l2 = 0, l2 only, and l1 0.3 with
 * l2 0.1 (some |prox| below lr l1: 0). */
START_TEST(proximal_adagrad_values) {
  const float p[6] = {0.5f, -0.25f, 0.02f, -0.8f, 0.1f, 0.0f};
  const float m[6] = {0.1f, 0.2f, 0.3f, 0.05f, 0.0f, 1.0f};
  const float g[6] = {0.3f, -0.6f, 0.1f, 0.2f, -0.4f, 0.0f};
  const float lr = 0.2f;
  const float cfg[3][2] = {{0, 0}, {0, 0.5f}, {0.3f, 0.1f}};
  for (int k = 0; k < 3; k++) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "p", tu_f32(1, TU_DIMS(6), p));
    ot_feed(&t, "m", tu_f32(1, TU_DIMS(6), m));
    ot_feed(&t, "g", tu_f32(1, TU_DIMS(6), g));
    ot_feed(&t, "lr", tu_f32(1, TU_DIMS(1), &lr));
    ic_builder_op *o = ot_op(&t, "proximal_adagrad");
    ic_builder_in(o, "Param", "p");
    ic_builder_in(o, "Moment", "m");
    ic_builder_in(o, "Grad", "g");
    ic_builder_in(o, "LearningRate", "lr");
    if (k) {
      ic_builder_attr_float(o, "l1", cfg[k][0]);
      ic_builder_attr_float(o, "l2", cfg[k][1]);
    }
    ot_out(&t, "ParamOut", "po");
    ot_out(&t, "MomentOut", "mo");
    ot_ok(&t);
    double rp[6], rm[6];
    int zeros = 0;
    for (int i = 0; i < 6; i++) {
      double mn = (double)m[i] + (double)g[i] * g[i];
      double prox = p[i] - (double)lr * g[i] / sqrt(mn);
      double l1 = cfg[k][0], l2 = cfg[k][1];
      rm[i] = mn;
      if (l1 > 0) {
        double v = fmax(fabs(prox) - lr * l1, 0) / (1 + lr * l2);
        rp[i] = prox > 0 ? v : prox < 0 ? -v : 0;
        zeros += v == 0;
      } else {
        rp[i] = prox / (1 + lr * l2);
      }
    }
    if (k == 2) ck_assert_int_gt(zeros, 0);
    tu_assert_close(t.out[0], rp, 6, 1e-6, 1e-7);
    tu_assert_close(t.out[1], rm, 6, 1e-6, 1e-7);
    ot_end(&t);
  }
}
END_TEST

static TCase *tc_t7(void) {
  TCase *tc = tcase_create("t7");
  tcase_add_test(tc, fill_dtypes);
  tcase_add_test(tc, proximal_adagrad_values);
  tcase_add_test(tc, fill_errors);
  tcase_add_test(tc, optimizer_errors);
  tcase_add_test(tc, selected_rows_grad);
  tcase_add_test(tc, average_accumulates_errors);
  tcase_add_test(tc, amp_errors);
  tcase_add_test(tc, update_loss_scaling_in_place);
  return tc;
}

TU_MAIN("ops_t7", tc_t7)
