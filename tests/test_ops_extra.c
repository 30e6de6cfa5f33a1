/* Errors of elementwise_fmax/fmin/heaviside, bitwise_*, cross, dot, mv, addmm, bce_loss,
 * kldiv_loss, nll_loss, log_loss, multiplex, cummax, cummin, frobenius_norm, fill_diagonal,
 * bilinear_tensor_product, logspace and nms: each bad dtype, rank, shape, attribute or value
 * fails with a status and a message naming the op and what was expected. Their values are
 * checked against Paddle (tests/data/paddle_oracle, tests/data/pir/more2). */
#include "optest.h"

#define OT_FAIL(t, code, ...)                                                     \
  do {                                                                            \
    ic_status st_ = ot_run(t);                                                    \
    ck_assert_msg(st_ == (code), "status %s: %s", ic_status_name(st_), (t)->err); \
    tu_assert_msg((t)->err, __VA_ARGS__, NULL);                                   \
  } while (0)

#define D(...) ((const int64_t[]){__VA_ARGS__})

/* One op over inputs given as (slot, name, tensor), one output slot "Out" fetched unless
 * out_slot says otherwise; expects failure. */
typedef struct in_spec {
  const char *slot, *name;
  ic_tensor *t;
} in_spec;

static void expect_fail(const char *type, size_t n, const in_spec *ins, const char *out_slot,
                        void (*attrs)(ic_builder_op *), ic_status code, const char *want) {
  optest t;
  ot_begin(&t);
  for (size_t i = 0; i < n; i++) ot_feed(&t, ins[i].name, ins[i].t);
  ic_builder_op *o = ot_op(&t, type);
  for (size_t i = 0; i < n; i++) ic_builder_in(o, ins[i].slot, ins[i].name);
  if (attrs) attrs(o);
  ot_out(&t, out_slot ? out_slot : "Out", "out");
  OT_FAIL(&t, code, type, want);
  ot_end(&t);
}

static ic_tensor *f32(int nd, const int64_t *dims) { return ot_iota(IC_FP32, nd, dims, 1); }

START_TEST(binary_errors) {
  /* fmax: X and Y dtypes differ; heaviside on bool; bitwise on float; shapes that do not
   * broadcast */
  expect_fail("elementwise_fmax", 2,
              (in_spec[]){{"X", "x", f32(1, D(3))}, {"Y", "y", ot_iota(IC_FP64, 1, D(3), 0)}},
              NULL, NULL, IC_ERR_SHAPE, "same dtype");
  expect_fail("elementwise_heaviside", 2,
              (in_spec[]){{"X", "x", ot_iota(IC_BOOL, 1, D(3), 0)},
                          {"Y", "y", ot_iota(IC_BOOL, 1, D(3), 0)}},
              NULL, NULL, IC_ERR_SHAPE, "expected dtype");
  expect_fail("bitwise_and", 2,
              (in_spec[]){{"X", "x", f32(1, D(3))}, {"Y", "y", f32(1, D(3))}}, NULL, NULL,
              IC_ERR_SHAPE, "expected dtype bool");
  expect_fail("bitwise_not", 1, (in_spec[]){{"X", "x", f32(1, D(3))}}, NULL, NULL, IC_ERR_SHAPE,
              "expected dtype bool");
  expect_fail("elementwise_fmin", 2,
              (in_spec[]){{"X", "x", f32(2, D(2, 3))}, {"Y", "y", f32(1, D(4))}}, NULL, NULL,
              IC_ERR_SHAPE, "do not broadcast");
}
END_TEST

static void cross_dim5(ic_builder_op *o) { ic_builder_attr_int(o, "dim", 5); }
static void cross_dim0(ic_builder_op *o) { ic_builder_attr_int(o, "dim", 0); }

START_TEST(product_errors) {
  expect_fail("cross", 2, (in_spec[]){{"X", "x", f32(2, D(2, 4))}, {"Y", "y", f32(2, D(2, 4))}},
              NULL, NULL, IC_ERR_SHAPE, "no dim of size 3");
  expect_fail("cross", 2, (in_spec[]){{"X", "x", f32(2, D(2, 3))}, {"Y", "y", f32(2, D(2, 3))}},
              NULL, cross_dim5, IC_ERR_INVALID_ARGUMENT, "attribute dim is 5");
  expect_fail("cross", 2, (in_spec[]){{"X", "x", f32(2, D(2, 3))}, {"Y", "y", f32(2, D(2, 3))}},
              NULL, cross_dim0, IC_ERR_SHAPE, "expected 3");
  expect_fail("cross", 2, (in_spec[]){{"X", "x", f32(2, D(2, 3))}, {"Y", "y", f32(2, D(3, 3))}},
              NULL, NULL, IC_ERR_SHAPE, "X's dtype and dims");
  expect_fail("dot", 2, (in_spec[]){{"X", "x", f32(3, D(1, 2, 3))}, {"Y", "y", f32(3, D(1, 2, 3))}},
              NULL, NULL, IC_ERR_SHAPE, "rank 1 or 2");
  expect_fail("mv", 2, (in_spec[]){{"X", "x", f32(2, D(2, 3))}, {"Vec", "v", f32(1, D(4))}}, NULL,
              NULL, IC_ERR_SHAPE, "float32[3]");
  expect_fail("addmm", 3,
              (in_spec[]){{"Input", "i", f32(2, D(3, 4))}, {"X", "x", f32(2, D(2, 3))},
                          {"Y", "y", f32(2, D(3, 4))}},
              NULL, NULL, IC_ERR_SHAPE, "M = 2, N = 4");
  expect_fail("addmm", 3,
              (in_spec[]){{"Input", "i", f32(1, D(4))}, {"X", "x", f32(2, D(2, 3))},
                          {"Y", "y", f32(2, D(2, 4))}},
              NULL, NULL, IC_ERR_SHAPE, "dim 0 = X's dim 1");
  expect_fail("bilinear_tensor_product", 3,
              (in_spec[]){{"X", "x", f32(2, D(2, 3))}, {"Y", "y", f32(2, D(2, 4))},
                          {"Weight", "w", f32(3, D(5, 4, 3))}},
              NULL, NULL, IC_ERR_SHAPE, "X's and Y's widths");
}
END_TEST

static void red_bogus(ic_builder_op *o) { ic_builder_attr_string(o, "reduction", "avg"); }

START_TEST(loss_errors) {
  /* bce_loss: X outside [0, 1] */
  ic_tensor *x = tu_f32(1, D(3), (const float[]){0.5f, 1.5f, 0.2f});
  expect_fail("bce_loss", 2, (in_spec[]){{"X", "x", x}, {"Label", "l", f32(1, D(3))}}, NULL, NULL,
              IC_ERR_SHAPE, "holds 1.5 at element 1, expected in [0, 1]");
  expect_fail("kldiv_loss", 2, (in_spec[]){{"X", "x", f32(1, D(3))}, {"Target", "t", f32(1, D(3))}},
              "Loss", red_bogus, IC_ERR_INVALID_PROGRAM, "expected none, sum, mean or batchmean");
  expect_fail("log_loss", 2,
              (in_spec[]){{"Predicted", "p", f32(2, D(3, 2))}, {"Labels", "l", f32(2, D(3, 2))}},
              "Loss", NULL, IC_ERR_SHAPE, "[N, 1]");
  /* nll_loss: a label out of range, Label of the wrong dims, Weight of the wrong size */
  expect_fail("nll_loss", 2,
              (in_spec[]){{"X", "x", f32(2, D(2, 3))},
                          {"Label", "l", tu_i64(1, D(2), (const int64_t[]){1, 3})}},
              NULL, NULL, IC_ERR_SHAPE, "holds 3 at element 1, expected in [0, 3)");
  expect_fail("nll_loss", 2,
              (in_spec[]){{"X", "x", f32(2, D(2, 3))},
                          {"Label", "l", tu_i64(1, D(3), (const int64_t[]){1, 0, 2})}},
              NULL, NULL, IC_ERR_SHAPE, "expected dims [2]");
  expect_fail("nll_loss", 3,
              (in_spec[]){{"X", "x", f32(2, D(2, 3))},
                          {"Label", "l", tu_i64(1, D(2), (const int64_t[]){1, 0})},
                          {"Weight", "w", f32(1, D(4))}},
              NULL, NULL, IC_ERR_SHAPE, "one weight per class");
  expect_fail("nll_loss", 2,
              (in_spec[]){{"X", "x", f32(3, D(2, 3, 4))},
                          {"Label", "l", tu_i64(1, D(2), (const int64_t[]){1, 0})}},
              NULL, NULL, IC_ERR_SHAPE, "rank 2");
}
END_TEST

static void cum_dtype(ic_builder_op *o) { ic_builder_attr_int(o, "dtype", 5); }
static void cum_axis(ic_builder_op *o) { ic_builder_attr_int(o, "axis", 2); }
static void fn_dim(ic_builder_op *o) { ic_builder_attr_ints(o, "dim", 1, (const int32_t[]){3}); }

START_TEST(other_errors) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "a", f32(2, D(2, 2)));
  ot_feed(&t, "b", f32(2, D(2, 2)));
  ot_feed(&t, "i", tu_i32(2, D(2, 1), (const int32_t[]){1, 2}));
  ic_builder_op *m = ot_op(&t, "multiplex");
  ic_builder_input(m, "X", 2, TU_NAMES("a", "b"));
  ic_builder_in(m, "Ids", "i");
  ot_out(&t, "Out", "out");
  OT_FAIL(&t, IC_ERR_SHAPE, "multiplex", "holds 2 at row 1, expected in [0, 2)");
  ot_end(&t);
  expect_fail("multiplex", 2,
              (in_spec[]){{"X", "a", f32(2, D(2, 2))},
                          {"Ids", "i", tu_i64(2, D(2, 1), (const int64_t[]){0, 0})}},
              NULL, NULL, IC_ERR_SHAPE, "expected dtype int32");
  for (int k = 0; k < 2; k++) {
    ot_begin(&t);
    ot_feed(&t, "x", f32(2, D(2, 3)));
    ic_builder_op *o = ot_op(&t, k ? "cummin" : "cummax");
    ic_builder_in(o, "x", "x");
    (k ? cum_axis : cum_dtype)(o);
    ot_out(&t, "out", "out");
    ot_out(&t, "indices", "idx");
    if (k) OT_FAIL(&t, IC_ERR_INVALID_ARGUMENT, "cummin", "attribute axis is 2");
    else OT_FAIL(&t, IC_ERR_INVALID_PROGRAM, "cummax", "expected 3 (int64) or 2 (int32)");
    ot_end(&t);
  }
  expect_fail("frobenius_norm", 1, (in_spec[]){{"X", "x", f32(2, D(2, 3))}}, NULL, fn_dim,
              IC_ERR_INVALID_ARGUMENT, "attribute dim holds 3");
  expect_fail("fill_diagonal", 1, (in_spec[]){{"X", "x", f32(1, D(3))}}, NULL, NULL, IC_ERR_SHAPE,
              "rank >= 2");
  expect_fail("fill_diagonal", 1, (in_spec[]){{"X", "x", f32(3, D(2, 3, 3))}}, NULL, NULL,
              IC_ERR_SHAPE, "all dims equal");
  expect_fail("nms", 1, (in_spec[]){{"Boxes", "b", f32(2, D(3, 5))}}, "KeepBoxesIdxs", NULL,
              IC_ERR_SHAPE, "[N, 4]");
  ic_tensor *zero = tu_i32(1, D(1), (const int32_t[]){0});
  expect_fail("logspace", 4,
              (in_spec[]){{"Start", "s", f32(1, D(1))}, {"Stop", "e", f32(1, D(1))},
                          {"Num", "n", zero}, {"Base", "b", f32(1, D(1))}},
              NULL, NULL, IC_ERR_SHAPE, "is 0, expected > 0");
}
END_TEST

static TCase *tc_errors(void) {
  TCase *tc = tcase_create("errors");
  tcase_add_test(tc, binary_errors);
  tcase_add_test(tc, product_errors);
  tcase_add_test(tc, loss_errors);
  tcase_add_test(tc, other_errors);
  return tc;
}

TU_MAIN("ops_extra", tc_errors)
