/* Errors of the recommendation / word2vec ops (hierarchical_sigmoid, nce, auc,
 * precision_recall, positive_negative_pair and the legacy losses): each bad input, attribute
 * or value fails with a status and a message naming what was expected, never a crash; and
 * nce's draws are reproducible with seed 0 (icore's own seed). Their values are checked
 * against Paddle (tests/data/paddle_oracle, tests/data/train). */
#include "optest.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})

typedef struct in_spec {
  const char *slot, *name;
  ic_tensor *t;
} in_spec;

/* One op over the given inputs, output slot out_slot fetched; expects a failure whose
 * message holds the op type and `want`. */
static void expect_fail(const char *type, size_t n, const in_spec *ins, const char *out_slot,
                        void (*attrs)(ic_builder_op *), const char *want) {
  optest t;
  ot_begin(&t);
  for (size_t i = 0; i < n; i++) ot_feed(&t, ins[i].name, ins[i].t);
  ic_builder_op *o = ot_op(&t, type);
  for (size_t i = 0; i < n; i++) ic_builder_in(o, ins[i].slot, ins[i].name);
  if (attrs) attrs(o);
  ot_out(&t, out_slot, "out");
  ic_status st = ot_run(&t);
  ck_assert_msg(st != IC_OK, "%s: expected a failure (%s)", type, want);
  tu_assert_msg(t.err, type, want, NULL);
  ot_end(&t);
}

static ic_tensor *f32(int nd, const int64_t *dims) { return ot_iota(IC_FP32, nd, dims, 1); }
static ic_tensor *prob(int nd, const int64_t *dims, float v) {
  ic_tensor *t = tu_rand_f32(nd, dims, 3, 0.0f, 1.0f);
  ((float *)ic_tensor_data(t))[0] = v;
  return t;
}

static void nc4(ic_builder_op *o) { ic_builder_attr_int(o, "num_classes", 4); }
static void nc4_sparse(ic_builder_op *o) {
  nc4(o);
  ic_builder_attr_bool(o, "is_sparse", true);
}

START_TEST(hsigmoid_errors) {
  /* a label outside [0, num_classes) on the default tree */
  expect_fail("hierarchical_sigmoid", 3,
              (in_spec[]){{"X", "x", f32(2, D(2, 3))}, {"W", "w", f32(2, D(3, 3))},
                          {"Label", "l", tu_i64(2, D(2, 1), (const int64_t[]){1, 4})}},
              "Out", nc4, "expected a class in [0, 4)");
  /* a custom path naming a node W does not have */
  expect_fail("hierarchical_sigmoid", 5,
              (in_spec[]){{"X", "x", f32(2, D(2, 3))}, {"W", "w", f32(2, D(3, 3))},
                          {"Label", "l", tu_i64(2, D(2, 1), (const int64_t[]){1, 2})},
                          {"PathTable", "pt", tu_i64(2, D(2, 2), (const int64_t[]){0, 1, 0, 9})},
                          {"PathCode", "pc", tu_i64(2, D(2, 2), (const int64_t[]){0, 1, 1, 0})}},
              "Out", nc4, "names node 9, expected a row of W in [0, 3)");
  /* PathTable without PathCode */
  expect_fail("hierarchical_sigmoid", 4,
              (in_spec[]){{"X", "x", f32(2, D(2, 3))}, {"W", "w", f32(2, D(3, 3))},
                          {"Label", "l", tu_i64(2, D(2, 1), (const int64_t[]){1, 2})},
                          {"PathTable", "pt", tu_i64(2, D(2, 2), (const int64_t[]){0, 1, 0, 2})}},
              "Out", nc4, "given together");
  /* W narrower than X; an int32 label */
  expect_fail("hierarchical_sigmoid", 3,
              (in_spec[]){{"X", "x", f32(2, D(2, 3))}, {"W", "w", f32(2, D(3, 2))},
                          {"Label", "l", tu_i64(2, D(2, 1), (const int64_t[]){1, 2})}},
              "Out", nc4, "[nodes, 3]");
  expect_fail("hierarchical_sigmoid", 3,
              (in_spec[]){{"X", "x", f32(2, D(2, 3))}, {"W", "w", f32(2, D(3, 3))},
                          {"Label", "l", tu_i32(2, D(2, 1), (const int32_t[]){1, 2})}},
              "Out", nc4, "int64");
  /* is_sparse on the default tree: Paddle's sparse gradient needs a custom tree */
  expect_fail("hierarchical_sigmoid_grad", 5,
              (in_spec[]){{"X", "x", f32(2, D(2, 3))}, {"W", "w", f32(2, D(3, 3))},
                          {"Label", "l", tu_i64(2, D(2, 1), (const int64_t[]){1, 2})},
                          {"PreOut", "p", f32(2, D(2, 2))}, {"Out@GRAD", "g", f32(2, D(2, 1))}},
              "W@GRAD", nc4_sparse, "custom tree");
}
END_TEST

static void nce_base(ic_builder_op *o) {
  ic_builder_attr_int(o, "num_total_classes", 6);
  ic_builder_attr_int(o, "num_neg_samples", 2);
}
static void nce_sampler3(ic_builder_op *o) {
  nce_base(o);
  ic_builder_attr_int(o, "sampler", 3);
}
static void nce_custom_neg3(ic_builder_op *o) {
  nce_base(o);
  ic_builder_attr_ints(o, "custom_neg_classes", 3, (const int32_t[]){1, 2, 3});
}
static void nce_custom_dist(ic_builder_op *o) {
  nce_base(o);
  ic_builder_attr_int(o, "sampler", 2);
}

START_TEST(nce_errors) {
  const in_spec base[3] = {{"Input", "x", f32(2, D(2, 3))},
                           {"Label", "l", tu_i64(2, D(2, 1), (const int64_t[]){1, 5})},
                           {"Weight", "w", f32(2, D(6, 3))}};
  in_spec ins[3];
  memcpy(ins, base, sizeof ins);
  expect_fail("nce", 3, ins, "Cost", nce_sampler3, "expected 0 (uniform)");
  ins[0].t = f32(2, D(2, 3)), ins[1].t = tu_i64(2, D(2, 1), (const int64_t[]){1, 5});
  ins[2].t = f32(2, D(6, 3));
  expect_fail("nce", 3, ins, "Cost", nce_custom_neg3, "expected num_neg_samples (2)");
  ins[0].t = f32(2, D(2, 3)), ins[1].t = tu_i64(2, D(2, 1), (const int64_t[]){1, 5});
  ins[2].t = f32(2, D(6, 3));
  expect_fail("nce", 3, ins, "Cost", nce_custom_dist, "needs CustomDistProbs");
  /* a true class outside [0, num_total_classes) */
  ins[0].t = f32(2, D(2, 3)), ins[1].t = tu_i64(2, D(2, 1), (const int64_t[]){1, 6});
  ins[2].t = f32(2, D(6, 3));
  expect_fail("nce", 3, ins, "Cost", nce_base, "expected a class in [0, 6) (from Label)");
  /* Weight rows other than num_total_classes */
  ins[0].t = f32(2, D(2, 3)), ins[1].t = tu_i64(2, D(2, 1), (const int64_t[]){1, 2});
  ins[2].t = f32(2, D(5, 3));
  expect_fail("nce", 3, ins, "Cost", nce_base, "[num_total_classes, Input's width]");
}
END_TEST

/* With seed 0 icore draws from its executor seed: every configuration of tu_run draws the
 * same negatives (tu_run asserts bitwise-equal results), and they are classes. */
START_TEST(nce_seed0_reproducible) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", f32(2, D(4, 3)));
  ot_feed(&t, "l", tu_i64(2, D(4, 1), (const int64_t[]){0, 3, 5, 2}));
  ot_feed(&t, "w", f32(2, D(6, 3)));
  ic_builder_op *o = ot_op(&t, "nce");
  ic_builder_in(o, "Input", "x");
  ic_builder_in(o, "Label", "l");
  ic_builder_in(o, "Weight", "w");
  ic_builder_attr_int(o, "num_total_classes", 6);
  ic_builder_attr_int(o, "num_neg_samples", 5);
  ic_builder_attr_int(o, "sampler", 1);
  ot_out(&t, "Cost", "cost");
  ot_out(&t, "SampleLabels", "labels");
  ot_ok(&t);
  const ic_tensor *lab = t.out[1];
  tu_assert_shape(lab, IC_INT64, 2, D(4, 6));
  for (int64_t k = 0; k < 24; k++) {
    const int64_t v = ((const int64_t *)ic_tensor_cdata(lab))[k];
    ck_assert_msg(v >= 0 && v < 6, "sample %lld is %lld", (long long)k, (long long)v);
  }
  ot_end(&t);
}
END_TEST

static void auc15(ic_builder_op *o) {
  ic_builder_attr_int(o, "num_thresholds", 15);
  ic_builder_attr_int(o, "slide_steps", 0);
}
static void pr4(ic_builder_op *o) { ic_builder_attr_int(o, "class_number", 4); }
static void col3(ic_builder_op *o) { ic_builder_attr_int(o, "column", 3); }

START_TEST(metric_errors) {
  expect_fail("auc", 4,
              (in_spec[]){{"Predict", "p", prob(2, D(3, 1), 1.5f)},
                          {"Label", "l", tu_i64(1, D(3), (const int64_t[]){0, 1, 1})},
                          {"StatPos", "sp", ot_iota(IC_INT64, 1, D(16), 0)},
                          {"StatNeg", "sn", ot_iota(IC_INT64, 1, D(16), 0)}},
              "AUC", auc15, "expected a probability in [0, 1]");
  expect_fail("auc", 4,
              (in_spec[]){{"Predict", "p", prob(2, D(3, 1), 0.5f)},
                          {"Label", "l", tu_i64(1, D(3), (const int64_t[]){0, 1, 1})},
                          {"StatPos", "sp", ot_iota(IC_INT64, 1, D(15), 0)},
                          {"StatNeg", "sn", ot_iota(IC_INT64, 1, D(16), 0)}},
              "AUC", auc15, "expected 16 counts");  /* fewer than B (more are read as Paddle does) */
  expect_fail("precision_recall", 3,
              (in_spec[]){{"MaxProbs", "p", f32(2, D(2, 1))},
                          {"Indices", "i", tu_i32(2, D(2, 1), (const int32_t[]){0, 4})},
                          {"Labels", "l", tu_i32(2, D(2, 1), (const int32_t[]){0, 1})}},
              "BatchMetrics", pr4, "expected a class in [0, 4)");
  expect_fail("positive_negative_pair", 3,
              (in_spec[]){{"Score", "s", f32(2, D(2, 3))}, {"Label", "l", f32(2, D(2, 1))},
                          {"QueryID", "q", tu_i64(2, D(2, 1), (const int64_t[]){0, 0})}},
              "PositivePair", col3, "column is 3, expected in [-3, 3)");
}
END_TEST

START_TEST(loss_errors) {
  expect_fail("bpr_loss", 2,
              (in_spec[]){{"X", "x", f32(2, D(2, 5))},
                          {"Label", "l", tu_i64(2, D(2, 1), (const int64_t[]){0, 5})}},
              "Y", NULL, "expected a class in [0, 5)");
  expect_fail("hinge_loss", 2,
              (in_spec[]){{"Logits", "x", f32(2, D(3, 1))}, {"Labels", "y", f32(2, D(2, 1))}},
              "Loss", NULL, "3 elements");
  expect_fail("rank_loss", 3,
              (in_spec[]){{"Label", "l", f32(2, D(3, 1))}, {"Left", "a", f32(2, D(3, 1))},
                          {"Right", "b", ot_iota(IC_FP64, 2, D(3, 1), 0)}},
              "Out", NULL, "dtype");
  expect_fail("teacher_student_sigmoid_loss", 2,
              (in_spec[]){{"X", "x", tu_i32(2, D(3, 1), (const int32_t[]){1, 2, 3})},
                          {"Label", "y", tu_i32(2, D(3, 1), (const int32_t[]){1, 2, 3})}},
              "Y", NULL, "float32 or float64");
}
END_TEST

static TCase *tc_rec(void) {
  TCase *tc = tcase_create("rec");
  tcase_add_test(tc, hsigmoid_errors);
  tcase_add_test(tc, nce_errors);
  tcase_add_test(tc, nce_seed0_reproducible);
  tcase_add_test(tc, metric_errors);
  tcase_add_test(tc, loss_errors);
  return tc;
}

TU_MAIN("ops_rec", tc_rec)
