/* The Paddle 3 ops gammaln, gammaincc, reduce_as, swiglu, trunc_divide, lp_pool2d,
 * fractional_max_pool2d / 3d, svdvals and lu_solve: their values are oracle-checked
 * (tests/data/paddle_oracle/p7_*, tests/data/pir/ops7); here their errors (wrong dtype,
 * rank, dims, attribute, index) and the modes Paddle cannot be asked for (the integer
 * overflow of trunc_divide, fractional pooling that draws its own u), and errors of their
 * grad ops (whose values tests/data/grad_oracle_misc casesp7.txt checks). Every run goes
 * through every executor configuration (tu_run). */
#include <math.h>

#include "optest.h"

/* Run and expect failure with the status and message parts given. */
#define OT_FAIL(t, code, ...)                                                     \
  do {                                                                            \
    ic_status st_ = ot_run(t);                                                    \
    ck_assert_msg(st_ == (code), "status %s: %s", ic_status_name(st_), (t)->err); \
    tu_assert_msg((t)->err, __VA_ARGS__, NULL);                                   \
  } while (0)

static const float k_f6[6] = {0.5f, 1, 2, 3, 4, 5};

/* One op on inputs (slot, feed) given; one output slot `out` fetched as "o". */
static ic_builder_op *unary(optest *t, const char *type, const char *slot, ic_tensor *x) {
  ot_feed(t, "x", x);
  ic_builder_op *o = ot_op(t, type);
  ic_builder_in(o, slot, "x");
  return o;
}

START_TEST(gamma_errors) {
  optest t;
  ot_begin(&t);
  unary(&t, "gammaln", "x", tu_i32(1, TU_DIMS(2), (const int32_t[]){1, 2}));
  ot_out(&t, "out", "o");
  OT_FAIL(&t, IC_ERR_SHAPE, "gammaln", "x 'x'", "int32");
  ot_end(&t);

  ot_begin(&t);
  ot_feed(&t, "a", tu_f32(2, TU_DIMS(2, 3), k_f6));
  ot_feed(&t, "y", tu_f32(1, TU_DIMS(3), k_f6));
  ic_builder_op *o = ot_op(&t, "gammaincc");
  ic_builder_in(o, "x", "a");
  ic_builder_in(o, "y", "y");
  ot_out(&t, "out", "o");
  OT_FAIL(&t, IC_ERR_SHAPE, "gammaincc", "y 'y'", "x's dims", "does not broadcast");
  ot_end(&t);

  ot_begin(&t);
  ot_feed(&t, "a", tu_f32(1, TU_DIMS(2), k_f6));
  ot_feed(&t, "y", tu_f64(1, TU_DIMS(2), (const double[]){1, 2}));
  o = ot_op(&t, "gammaincc");
  ic_builder_in(o, "x", "a");
  ic_builder_in(o, "y", "y");
  ot_out(&t, "out", "o");
  OT_FAIL(&t, IC_ERR_SHAPE, "gammaincc", "y 'y'", "float32");
  ot_end(&t);
}
END_TEST

START_TEST(reduce_as_errors_and_ints) {
  optest t;
  /* target of higher rank */
  ot_begin(&t);
  ot_feed(&t, "x", tu_f32(1, TU_DIMS(6), k_f6));
  ot_feed(&t, "t", tu_f32(2, TU_DIMS(1, 6), k_f6));
  ic_builder_op *o = ot_op(&t, "reduce_as");
  ic_builder_in(o, "x", "x");
  ic_builder_in(o, "target", "t");
  ot_out(&t, "out", "o");
  OT_FAIL(&t, IC_ERR_SHAPE, "reduce_as", "target 't'", "rank 2", "at most x's rank 1");
  ot_end(&t);
  /* a dim neither equal nor 1 */
  ot_begin(&t);
  ot_feed(&t, "x", tu_f32(2, TU_DIMS(2, 3), k_f6));
  ot_feed(&t, "t", tu_f32(1, TU_DIMS(2), k_f6));
  o = ot_op(&t, "reduce_as");
  ic_builder_in(o, "x", "x");
  ic_builder_in(o, "target", "t");
  ot_out(&t, "out", "o");
  OT_FAIL(&t, IC_ERR_SHAPE, "reduce_as", "target 't'", "dim 0 is 2", "x's dim 1 is 3");
  ot_end(&t);
  /* int32 sums to int64 (no wrap), over the leading axis and a size-1 axis */
  ot_begin(&t);
  ot_feed(&t, "x", tu_i32(3, TU_DIMS(2, 2, 2),
                          (const int32_t[]){INT32_MAX, 1, 2, 3, INT32_MAX, 5, 6, 7}));
  ot_feed(&t, "t", tu_i32(2, TU_DIMS(2, 1), (const int32_t[]){0, 0}));
  o = ot_op(&t, "reduce_as");
  ic_builder_in(o, "x", "x");
  ic_builder_in(o, "target", "t");
  ot_out(&t, "out", "o");
  ot_ok(&t);
  tu_assert_shape(t.out[0], IC_INT64, 2, TU_DIMS(2, 1));
  ck_assert_int_eq(((const int64_t *)ic_tensor_cdata(t.out[0]))[0],
                   2 * (int64_t)INT32_MAX + 6);
  ck_assert_int_eq(((const int64_t *)ic_tensor_cdata(t.out[0]))[1], 18);
  ot_end(&t);
}
END_TEST

START_TEST(swiglu_errors) {
  optest t;
  ot_begin(&t);
  unary(&t, "swiglu", "x", tu_f32(2, TU_DIMS(2, 3), k_f6));
  ot_out(&t, "out", "o");
  OT_FAIL(&t, IC_ERR_SHAPE, "swiglu", "x 'x'", "even last dimension");
  ot_end(&t);

  ot_begin(&t);
  ot_feed(&t, "x", tu_f32(2, TU_DIMS(2, 3), k_f6));
  ot_feed(&t, "y", tu_f32(2, TU_DIMS(3, 2), k_f6));
  ic_builder_op *o = ot_op(&t, "swiglu");
  ic_builder_in(o, "x", "x");
  ic_builder_in(o, "y", "y");
  ot_out(&t, "out", "o");
  OT_FAIL(&t, IC_ERR_SHAPE, "swiglu", "y 'y'", "x's dims");
  ot_end(&t);

  ot_begin(&t);
  unary(&t, "swiglu", "x", tu_i64(1, TU_DIMS(2), (const int64_t[]){1, 2}));
  ot_out(&t, "out", "o");
  OT_FAIL(&t, IC_ERR_SHAPE, "swiglu", "x 'x'", "int64");
  ot_end(&t);
}
END_TEST

/* Integer trunc_divide: toward zero; min / -1 wraps (Paddle traps there); a zero divisor
 * fails naming y. */
START_TEST(trunc_divide_ints) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_i32(1, TU_DIMS(4), (const int32_t[]){INT32_MIN, -7, 7, -7}));
  ot_feed(&t, "y", tu_i32(1, TU_DIMS(4), (const int32_t[]){-1, 2, -2, -7}));
  ic_builder_op *o = ot_op(&t, "trunc_divide");
  ic_builder_in(o, "x", "x");
  ic_builder_in(o, "y", "y");
  ot_out(&t, "out", "o");
  ot_ok(&t);
  tu_assert_close(t.out[0], (const double[]){INT32_MIN, -3, -3, 1}, 4, 0, 0);
  ot_end(&t);

  ot_begin(&t);
  ot_feed(&t, "x", tu_i64(2, TU_DIMS(2, 2), (const int64_t[]){INT64_MIN, 5, 6, 7}));
  ot_feed(&t, "y", tu_i64(1, TU_DIMS(2), (const int64_t[]){-1, 0}));
  o = ot_op(&t, "trunc_divide");
  ic_builder_in(o, "x", "x");
  ic_builder_in(o, "y", "y");
  ot_out(&t, "out", "o");
  OT_FAIL(&t, IC_ERR_INVALID_ARGUMENT, "trunc_divide", "y 'y'", "division by zero");
  ot_end(&t);

  ot_begin(&t);
  ot_feed(&t, "x", tu_i64(1, TU_DIMS(2), (const int64_t[]){INT64_MIN, 5}));
  ot_feed(&t, "y", tu_i64(1, TU_DIMS(2), (const int64_t[]){-1, -5}));
  o = ot_op(&t, "trunc_divide");
  ic_builder_in(o, "x", "x");
  ic_builder_in(o, "y", "y");
  ot_out(&t, "out", "o");
  ot_ok(&t);
  ck_assert(((const int64_t *)ic_tensor_cdata(t.out[0]))[0] == INT64_MIN);
  ck_assert(((const int64_t *)ic_tensor_cdata(t.out[0]))[1] == -1);
  ot_end(&t);
}
END_TEST

static ic_builder_op *lp_op(optest *t, ic_tensor *x, float p, const char *type) {
  ic_builder_op *o = unary(t, "lp_pool2d", "x", x);
  ic_builder_attr_longs(o, "kernel_size", 2, (const int64_t[]){2, 2});
  ic_builder_attr_longs(o, "strides", 2, (const int64_t[]){1, 1});
  ic_builder_attr_longs(o, "paddings", 2, (const int64_t[]){0, 0});
  ic_builder_attr_float(o, "norm_type", p);
  ic_builder_attr_string(o, "pooling_type", type);
  ot_out(t, "out", "o");
  return o;
}

START_TEST(lp_pool2d_errors) {
  static float v[16];
  for (int k = 0; k < 16; k++) v[k] = (float)k;
  optest t;
  ot_begin(&t);
  lp_op(&t, tu_f32(4, TU_DIMS(1, 1, 4, 4), v), 0.0f, "lp");
  OT_FAIL(&t, IC_ERR_INVALID_PROGRAM, "lp_pool2d", "norm_type", "is 0");
  ot_end(&t);
  ot_begin(&t);
  lp_op(&t, tu_f32(4, TU_DIMS(1, 1, 4, 4), v), 2.0f, "max");
  OT_FAIL(&t, IC_ERR_INVALID_PROGRAM, "lp_pool2d", "pooling_type", "\"lp\"");
  ot_end(&t);
  ot_begin(&t);
  lp_op(&t, tu_f32(3, TU_DIMS(1, 4, 4), v), 2.0f, "lp");
  OT_FAIL(&t, IC_ERR_SHAPE, "lp_pool2d", "x 'x'", "rank 4");
  ot_end(&t);
  /* p = 1 over positive values: the window sums; p = inf: the window maxima */
  for (int inf = 0; inf < 2; inf++) {
    ot_begin(&t);
    lp_op(&t, tu_f32(4, TU_DIMS(1, 1, 4, 4), v), inf ? INFINITY : 1.0f, "lp");
    ot_ok(&t);
    tu_assert_shape(t.out[0], IC_FP32, 4, TU_DIMS(1, 1, 3, 3));
    double ref[9];
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        double a = v[i * 4 + j], b = v[i * 4 + j + 1], c = v[i * 4 + j + 4], d = v[i * 4 + j + 5];
        ref[i * 3 + j] = inf ? d : a + b + c + d;
      }
    }
    tu_assert_close(t.out[0], ref, 9, 1e-6, 1e-6);
    ot_end(&t);
  }
}
END_TEST

static ic_builder_op *fmp_op(optest *t, int nd, ic_tensor *x, const int64_t *out,
                             const int64_t *k, float u) {
  ic_builder_op *o = unary(t, nd == 2 ? "fractional_max_pool2d" : "fractional_max_pool3d",
                           "x", x);
  ic_builder_attr_longs(o, "output_size", (size_t)nd, out);
  ic_builder_attr_longs(o, "kernel_size", (size_t)nd, k);
  ic_builder_attr_float(o, "random_u", u);
  ic_builder_attr_bool(o, "return_mask", true);
  ot_out(t, "out", "o");
  ot_out(t, "mask", "m");
  return o;
}

START_TEST(fractional_pool_errors) {
  static float v[64];
  for (int k = 0; k < 64; k++) v[k] = (float)k;
  optest t;
  ot_begin(&t);
  fmp_op(&t, 2, tu_f32(4, TU_DIMS(1, 1, 4, 4), v), TU_DIMS(3, 3), TU_DIMS(3, 3), 0.5f);
  OT_FAIL(&t, IC_ERR_SHAPE, "fractional_max_pool2d", "x 'x'", "output_size - 1 + kernel_size");
  ot_end(&t);
  ot_begin(&t);
  fmp_op(&t, 2, tu_f32(4, TU_DIMS(1, 1, 4, 4), v), TU_DIMS(2, 2), TU_DIMS(0, 0), 1.5f);
  OT_FAIL(&t, IC_ERR_INVALID_PROGRAM, "fractional_max_pool2d", "random_u");
  ot_end(&t);
  ot_begin(&t);
  fmp_op(&t, 3, tu_f32(4, TU_DIMS(1, 1, 4, 4), v), TU_DIMS(2, 2, 2), TU_DIMS(0, 0, 0), 0.5f);
  OT_FAIL(&t, IC_ERR_SHAPE, "fractional_max_pool3d", "x 'x'", "rank 5");
  ot_end(&t);
  ot_begin(&t);
  fmp_op(&t, 2, tu_f32(4, TU_DIMS(1, 1, 4, 4), v), TU_DIMS(0, 2), TU_DIMS(0, 0), 0.5f);
  OT_FAIL(&t, IC_ERR_INVALID_PROGRAM, "fractional_max_pool2d", "output_size", ">= 1");
  ot_end(&t);
}
END_TEST

/* random_u 0: icore draws u (Paddle's draw cannot be matched): only the shape and validity,
 * every output the input at its mask, and with increasing inputs every window's maximum its
 * last element, so the masks increase along each row. */
START_TEST(fractional_pool_drawn_u) {
  static float v[2 * 3 * 9 * 7];
  for (int k = 0; k < 2 * 3 * 9 * 7; k++) v[k] = (float)k * 0.5f - 3;
  for (int nd = 2; nd <= 3; nd++) {
    for (int kk = 0; kk < 2; kk++) {
      optest t;
      ot_begin(&t);
      ic_tensor *x = nd == 2 ? tu_f32(4, TU_DIMS(2, 3, 9, 7), v)
                             : tu_f32(5, TU_DIMS(2, 1, 3, 9, 7), v);
      const int64_t *out = nd == 2 ? TU_DIMS(4, 3) : TU_DIMS(2, 4, 3);
      const int64_t *k = kk ? (nd == 2 ? TU_DIMS(2, 3) : TU_DIMS(1, 2, 3))
                            : (nd == 2 ? TU_DIMS(0, 0) : TU_DIMS(0, 0, 0));
      fmp_op(&t, nd, x, out, k, 0.0f);
      ot_ok(&t);
      const int64_t planes = nd == 2 ? 6 : 2, per_in = nd == 2 ? 63 : 189,
                    per_out = nd == 2 ? 12 : 24;
      if (nd == 2) {
        tu_assert_shape(t.out[0], IC_FP32, 4, TU_DIMS(2, 3, 4, 3));
        tu_assert_shape(t.out[1], IC_INT32, 4, TU_DIMS(2, 3, 4, 3));
      } else {
        tu_assert_shape(t.out[0], IC_FP32, 5, TU_DIMS(2, 1, 2, 4, 3));
        tu_assert_shape(t.out[1], IC_INT32, 5, TU_DIMS(2, 1, 2, 4, 3));
      }
      const float *o = ic_tensor_cdata(t.out[0]);
      const int32_t *m = ic_tensor_cdata(t.out[1]);
      for (int64_t p = 0; p < planes; p++) {
        for (int64_t j = 0; j < per_out; j++) {
          const int32_t at = m[p * per_out + j];
          ck_assert_msg(at >= 0 && at < per_in, "mask %d out of the plane", at);
          ck_assert(o[p * per_out + j] == v[p * per_in + at]);
          if (j % 3) ck_assert_int_gt(at, m[p * per_out + j - 1]);
        }
      }
      ot_end(&t);
    }
  }
}
END_TEST

START_TEST(linalg_errors) {
  optest t;
  ot_begin(&t);
  unary(&t, "svdvals", "x", tu_f32(1, TU_DIMS(6), k_f6));
  ot_out(&t, "s", "o");
  OT_FAIL(&t, IC_ERR_SHAPE, "svdvals", "x 'x'", "rank >= 2");
  ot_end(&t);
  /* svdvals of diag(3, -2) and a batch: [2, k] */
  ot_begin(&t);
  unary(&t, "svdvals", "x", tu_f64(3, TU_DIMS(2, 2, 2), (const double[]){3, 0, 0, -2,
                                                                         0, 1, 1, 0}));
  ot_out(&t, "s", "o");
  ot_ok(&t);
  tu_assert_shape(t.out[0], IC_FP64, 2, TU_DIMS(2, 2));
  tu_assert_close(t.out[0], (const double[]){3, 2, 1, 1}, 4, 1e-12, 1e-12);
  ot_end(&t);

  for (int bad = 0; bad < 3; bad++) {
    ot_begin(&t);
    ot_feed(&t, "b", tu_f64(2, TU_DIMS(2, 1), (const double[]){1, 2}));
    ot_feed(&t, "lu", tu_f64(2, TU_DIMS(2, 2), (const double[]){2, 1, 0.5, 3}));
    ot_feed(&t, "p", bad == 2 ? tu_i64(1, TU_DIMS(2), (const int64_t[]){1, 2})
                              : tu_i32(1, TU_DIMS(2), (const int32_t[]){bad ? 3 : 2, 2}));
    ic_builder_op *o = ot_op(&t, "lu_solve");
    ic_builder_in(o, "b", "b");
    ic_builder_in(o, "lu", "lu");
    ic_builder_in(o, "pivots", "p");
    ic_builder_attr_string(o, "trans", bad == 0 ? "X" : "N");
    ot_out(&t, "out", "o");
    if (bad == 0) OT_FAIL(&t, IC_ERR_INVALID_PROGRAM, "lu_solve", "trans", "'X'");
    if (bad == 1) OT_FAIL(&t, IC_ERR_INVALID_ARGUMENT, "lu_solve", "pivots 'p'", "holds 3");
    if (bad == 2) OT_FAIL(&t, IC_ERR_SHAPE, "lu_solve", "pivots 'p'", "int64");
    ot_end(&t);
  }
}
END_TEST

/* Grad ops: a mask outside the plane, a y@GRAD without y, reduce_as_grad of a bool x (whose
 * sums are int64), lu_solve_grad with a bad pivot. */
START_TEST(grad_errors) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "m", tu_i32(4, TU_DIMS(1, 1, 1, 2), (const int32_t[]){0, 9}));
  ot_feed(&t, "g", tu_f32(4, TU_DIMS(1, 1, 1, 2), k_f6));
  ot_feed(&t, "x", tu_f32(4, TU_DIMS(1, 1, 2, 3), k_f6));
  ic_builder_op *o = ot_op(&t, "fractional_max_pool2d_grad");
  ic_builder_in(o, "mask", "m");
  ic_builder_in(o, "out@GRAD", "g");
  ic_builder_in(o, "x", "x");
  ic_builder_attr_longs(o, "output_size", 2, (const int64_t[]){1, 2});
  ot_out(&t, "x@GRAD", "o");
  OT_FAIL(&t, IC_ERR_INVALID_ARGUMENT, "fractional_max_pool2d_grad", "mask 'm'", "holds 9",
          "[0, 6)");
  ot_end(&t);

  ot_begin(&t);
  ot_feed(&t, "g", tu_f32(2, TU_DIMS(2, 1), k_f6));
  ot_feed(&t, "x", tu_f32(2, TU_DIMS(2, 2), k_f6));
  o = ot_op(&t, "swiglu_grad");
  ic_builder_in(o, "out@GRAD", "g");
  ic_builder_in(o, "x", "x");
  ot_out(&t, "x@GRAD", "dx");
  ot_out(&t, "y@GRAD", "dy");
  OT_FAIL(&t, IC_ERR_SHAPE, "swiglu_grad", "y@GRAD", "without y");
  ot_end(&t);

  ot_begin(&t);
  ic_tensor *bx;
  ck_assert_int_eq(ic_tensor_create(IC_BOOL, 1, TU_DIMS(2), &bx), IC_OK);
  memset(ic_tensor_data(bx), 1, 2);
  ot_feed(&t, "g", tu_i64(1, TU_DIMS(1), (const int64_t[]){2}));
  ot_feed(&t, "tg", tu_i64(1, TU_DIMS(1), (const int64_t[]){0}));
  ot_feed(&t, "x", bx);
  o = ot_op(&t, "reduce_as_grad");
  ic_builder_in(o, "out@GRAD", "g");
  ic_builder_in(o, "target", "tg");
  ic_builder_in(o, "x", "x");
  ot_out(&t, "x@GRAD", "o");
  OT_FAIL(&t, IC_ERR_SHAPE, "reduce_as_grad", "x 'x'", "bool");
  ot_end(&t);

  ot_begin(&t);
  ot_feed(&t, "b", tu_f64(2, TU_DIMS(2, 1), (const double[]){1, 2}));
  ot_feed(&t, "lu", tu_f64(2, TU_DIMS(2, 2), (const double[]){2, 1, 0.5, 3}));
  ot_feed(&t, "p", tu_i32(1, TU_DIMS(2), (const int32_t[]){0, 2}));
  ot_feed(&t, "x", tu_f64(2, TU_DIMS(2, 1), (const double[]){1, 2}));
  ot_feed(&t, "g", tu_f64(2, TU_DIMS(2, 1), (const double[]){1, 1}));
  o = ot_op(&t, "lu_solve_grad");
  ic_builder_in(o, "b", "b");
  ic_builder_in(o, "lu", "lu");
  ic_builder_in(o, "pivots", "p");
  ic_builder_in(o, "out", "x");
  ic_builder_in(o, "out@GRAD", "g");
  ot_out(&t, "lu@GRAD", "o");
  OT_FAIL(&t, IC_ERR_INVALID_ARGUMENT, "lu_solve_grad", "pivots 'p'", "holds 0");
  ot_end(&t);
}
END_TEST

static TCase *tc_p7(void) {
  TCase *tc = tcase_create("p7");
  tcase_add_test(tc, gamma_errors);
  tcase_add_test(tc, reduce_as_errors_and_ints);
  tcase_add_test(tc, swiglu_errors);
  tcase_add_test(tc, trunc_divide_ints);
  tcase_add_test(tc, lp_pool2d_errors);
  tcase_add_test(tc, fractional_pool_errors);
  tcase_add_test(tc, fractional_pool_drawn_u);
  tcase_add_test(tc, linalg_errors);
  tcase_add_test(tc, grad_errors);
  return tc;
}

TU_MAIN("ops_p7", tc_p7)
