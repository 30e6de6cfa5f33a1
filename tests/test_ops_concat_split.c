/* Data-movement ops: concat, split, slice, over the shared case tables of cases_shape.h (the CUDA
 * suite runs the same), plus errors and tensor-given bounds. Expected shapes follow Paddle 3.x
 * (checked against PaddlePaddle 3.3.1 where Paddle runs the case); data is checked against
 * references that compute every output element's source index. */
#include "cases_shape.h"
#include "optest.h"

#define I32S(...) ((const int32_t[]){__VA_ARGS__})
#define NI32(...) (sizeof((const int32_t[]){__VA_ARGS__}) / sizeof(int32_t)), I32S(__VA_ARGS__)

static const char *const k_names[] = {"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7"};
static const char *const k_outs[] = {"y0", "y1", "y2", "y3", "y4", "y5", "y6", "y7"};

/* ---- concat ---- */

/* Concatenate n fresh inputs of dims `base` except `sizes[i]` along the axis (written as
 * `axis`, possibly negative; or given by a one-element AxisTensor holding it). */
static void concat_ok(ic_dtype dt, int nd, const int64_t *base, int axis, bool axis_tensor,
                      size_t n, const int64_t *sizes) {
  const int ax = axis < 0 ? axis + nd : axis;
  optest t;
  ot_begin(&t);
  ic_tensor *xs[8];
  int64_t od[IC_MAX_RANK];
  memcpy(od, base, (size_t)nd * sizeof *od);
  od[ax] = 0;
  for (size_t i = 0; i < n; i++) {
    int64_t d[IC_MAX_RANK];
    memcpy(d, base, (size_t)nd * sizeof *d);
    d[ax] = sizes[i];
    od[ax] += sizes[i];
    xs[i] = ot_iota(dt, nd, d, 10 * (i + 1));
    ot_feed(&t, k_names[i], xs[i]);
  }
  if (axis_tensor) ot_feed(&t, "axis", tu_i64(1, TU_DIMS(1), (const int64_t[]){axis}));
  ot_op(&t, "concat");
  ic_builder_input(t.op, "X", n, k_names);
  if (axis_tensor) ic_builder_in(t.op, "AxisTensor", "axis");
  ic_builder_attr_int(t.op, "axis", axis_tensor ? 0 : axis);
  ot_out(&t, "Out", "y");
  ot_ok(&t);
  const ic_tensor *y = t.out[0];
  tu_assert_shape(y, dt, nd, od);
  /* Reference: output element -> (input, its flat index), compared byte for byte. */
  const size_t es = ic_dtype_size(dt);
  for (int64_t k = 0; k < ic_tensor_numel(y); k++) {
    int64_t idx[IC_MAX_RANK], d[IC_MAX_RANK];
    ot_unravel(k, nd, od, idx);
    size_t i = 0;
    while (idx[ax] >= sizes[i]) idx[ax] -= sizes[i++];
    memcpy(d, base, (size_t)nd * sizeof *d);
    d[ax] = sizes[i];
    int64_t src = ot_ravel(nd, d, idx);
    ck_assert_msg(memcmp((const char *)ic_tensor_cdata(y) + (size_t)k * es,
                         (const char *)ic_tensor_cdata(xs[i]) + (size_t)src * es, es) == 0,
                  "element %lld should be element %lld of input %zu", (long long)k,
                  (long long)src, i);
  }
  if (dt == IC_FP32 && ic_tensor_numel(y) > 0) {
    /* the same through doubles, as the other suites compare */
    double *ref = malloc((size_t)ic_tensor_numel(y) * sizeof *ref);
    for (int64_t k = 0; k < ic_tensor_numel(y); k++) {
      int64_t idx[IC_MAX_RANK], d[IC_MAX_RANK];
      ot_unravel(k, nd, od, idx);
      size_t i = 0;
      while (idx[ax] >= sizes[i]) idx[ax] -= sizes[i++];
      memcpy(d, base, (size_t)nd * sizeof *d);
      d[ax] = sizes[i];
      ref[k] = ot_val(xs[i], ot_ravel(nd, d, idx));
    }
    tu_assert_close(y, ref, (size_t)ic_tensor_numel(y), 0, 0);
    free(ref);
  }
  ot_end(&t);
}

/* Every row of the shared table, in its dtype or in every dtype. */
START_TEST(concat_table) {
  for (size_t i = 0; i < CCAT_N_CASES; i++) {
    const ccat_case *c = &ccat_cases[i];
    if (c->large) continue; /* 6.6M elements for the GPU's grid: the loops here take ~40 s */
    for (size_t d = 0; d < csh_cpu_dts(c->every_dt, c->large); d++) {
      concat_ok(c->every_dt ? csh_dts[d] : c->dt, c->nd, c->base, c->axis, c->axis_tensor, c->n,
                c->sizes);
    }
  }
}
END_TEST

static void concat_bad(ic_tensor *a, ic_tensor *b, int axis, ic_tensor *axis_t, const char *n1,
                       const char *n2, const char *n3) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "a", a);
  ot_feed(&t, "b", b);
  if (axis_t) ot_feed(&t, "ax", axis_t);
  ot_op(&t, "concat");
  ic_builder_input(t.op, "X", 2, TU_NAMES("a", "b"));
  if (axis_t) ic_builder_in(t.op, "AxisTensor", "ax");
  ic_builder_attr_int(t.op, "axis", axis);
  ot_out(&t, "Out", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  ck_assert_ptr_null(t.out[0]);
  tu_assert_msg(t.err, "concat", n1, n2, n3, NULL);
  ot_end(&t);
}

START_TEST(concat_errors) {
  /* a shape mismatch names the offending input, its dims and the first input's */
  concat_bad(ot_iota(IC_FP32, 2, TU_DIMS(2, 3), 0), ot_iota(IC_FP32, 2, TU_DIMS(2, 4), 0), 0,
             NULL, "input X 'b' is float32[2, 4]", "dim 1 to be 3", "'a' (float32[2, 3])");
  concat_bad(ot_iota(IC_FP32, 2, TU_DIMS(2, 3), 0), ot_iota(IC_FP32, 3, TU_DIMS(2, 3, 1), 0), 0,
             NULL, "'b'", "float32[2, 3, 1]", "rank");
  concat_bad(ot_iota(IC_FP32, 2, TU_DIMS(2, 3), 0), ot_iota(IC_INT32, 2, TU_DIMS(2, 3), 0), 0,
             NULL, "'b'", "int32[2, 3]", "dtype");
  concat_bad(ot_iota(IC_FP32, 2, TU_DIMS(2, 3), 0), ot_iota(IC_FP32, 2, TU_DIMS(2, 3), 0), 2,
             NULL, "'a'", "attribute 'axis' is 2", "[-2, 2)");
  concat_bad(ot_iota(IC_FP32, 2, TU_DIMS(2, 3), 0), ot_iota(IC_FP32, 2, TU_DIMS(2, 3), 0), 0,
             tu_i32(1, TU_DIMS(1), I32S(-3)), "'a'", "AxisTensor", "is -3");
  concat_bad(ot_iota(IC_FP32, 2, TU_DIMS(2, 3), 0), ot_iota(IC_FP32, 2, TU_DIMS(2, 3), 0), 0,
             tu_f32(1, TU_DIMS(1), (const float[]){1}), "AxisTensor", "'ax'", "int32 or int64");
  concat_bad(ot_iota(IC_FP32, 0, NULL, 0), ot_iota(IC_FP32, 0, NULL, 0), 0, NULL, "'a'", "0-D",
             "rank >= 1");
}
END_TEST

/* ---- split ---- */

typedef csp_case split_cfg;

static ic_status split_run(const split_cfg *c, optest *t, ic_tensor **x, size_t n_out) {
  ot_begin(t);
  *x = ot_iota(c->dt, c->nd, c->dims, 5);
  ot_feed(t, "x", *x);
  if (c->axis_tensor) ot_feed(t, "axis", tu_i64(1, TU_DIMS(1), (const int64_t[]){c->axis}));
  for (size_t i = 0; i < c->n_list; i++) {
    ot_feed(t, k_names[i],
            i % 2 ? tu_i64(0, NULL, &c->list[i])
                  : tu_i32(1, TU_DIMS(1), (const int32_t[]){(int32_t)c->list[i]}));
  }
  ot_op(t, "split");
  ic_builder_in(t->op, "X", "x");
  if (c->axis_tensor) ic_builder_in(t->op, "AxisTensor", "axis");
  if (c->n_list) ic_builder_input(t->op, "SectionsTensorList", c->n_list, k_names);
  ic_builder_attr_int(t->op, "axis", c->axis_tensor ? 0 : c->axis);
  ic_builder_attr_int(t->op, "num", c->num);
  ic_builder_attr_ints(t->op, "sections", c->n_sec, c->sec);
  ot_outs(t, "Out", n_out, k_outs);
  return ot_run(t);
}

static void split_ok(split_cfg c) {
  optest t;
  ic_tensor *x;
  ic_status st = split_run(&c, &t, &x, c.pieces);
  ck_assert_msg(st == IC_OK, "%s: %s", ic_status_name(st), t.err);
  const int ax = c.axis < 0 ? c.axis + c.nd : c.axis;
  int64_t off = 0;
  for (size_t j = 0; j < c.pieces; j++) {
    int64_t od[IC_MAX_RANK], idx[IC_MAX_RANK];
    memcpy(od, c.dims, sizeof c.dims);
    od[ax] = c.sizes[j];
    tu_assert_shape(t.out[j], c.dt, c.nd, od);
    int64_t n = ot_numel(c.nd, od);
    int64_t *src = malloc((size_t)(n ? n : 1) * sizeof *src);
    for (int64_t k = 0; k < n; k++) {
      ot_unravel(k, c.nd, od, idx);
      idx[ax] += off;
      src[k] = ot_ravel(c.nd, c.dims, idx);
    }
    ot_check_gather(t.out[j], x, src, (size_t)n);
    free(src);
    off += c.sizes[j];
  }
  ot_end(&t);
}

/* Every row of the shared table, in its dtype or in every dtype. */
START_TEST(split_table) {
  for (size_t i = 0; i < CSP_N_CASES; i++) {
    for (size_t d = 0; d < csh_cpu_dts(csp_cases[i].every_dt, csp_cases[i].large); d++) {
      split_cfg c = csp_cases[i];
      if (c.every_dt) c.dt = csh_dts[d];
      split_ok(c);
    }
  }
}
END_TEST

static void split_bad(split_cfg c, size_t n_out, const char *n1, const char *n2) {
  optest t;
  ic_tensor *x;
  ck_assert_int_eq(split_run(&c, &t, &x, n_out), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "split", n1, n2, NULL);
  for (size_t i = 0; i < n_out; i++) ck_assert_ptr_null(t.out[i]);
  ot_end(&t);
}

START_TEST(split_errors) {
  split_bad((split_cfg){IC_FP32, 2, {5, 6}, .axis = 0, .num = 2}, 2, "input X 'x' is float32[5, 6]",
            "along axis 0 into 2 equal pieces");
  split_bad((split_cfg){IC_FP32, 2, {5, 6}, .axis = 1, .n_sec = 2, .sec = {2, 2}}, 2, "'x'",
            "[2, 2] (attribute 'sections'): the sections must sum to 6");
  split_bad((split_cfg){IC_FP32, 2, {5, 6}, .axis = 1, .n_sec = 2, .sec = {-1, -1}}, 2, "'x'",
            "only one may be -1");
  split_bad((split_cfg){IC_FP32, 2, {5, 6}, .axis = 1, .n_sec = 2, .sec = {6, -1}}, 2, "'x'",
            "must sum to less than 6");
  split_bad((split_cfg){IC_FP32, 2, {5, 6}, .axis = 1, .n_sec = 2, .sec = {-2, 8}}, 2, "'x'",
            "section 0 is -2");
  split_bad((split_cfg){IC_FP32, 2, {5, 6}, .axis = 1, .n_sec = 2, .sec = {1, 1}, .n_list = 2,
                        .list = {2, 3}},
            2, "'x'", "[2, 3] (from input SectionsTensorList)");
  split_bad((split_cfg){IC_FP32, 2, {5, 6}, .axis = 1, .num = 3}, 2, "'x'",
            "3 pieces, but output Out lists 2 variables");
  split_bad((split_cfg){IC_FP32, 2, {5, 6}, .axis = 1}, 1, "'x'", "'num' is 0");
  split_bad((split_cfg){IC_FP32, 2, {5, 6}, .axis = 2, .num = 2}, 2, "'x'",
            "attribute 'axis' is 2, expected in [-2, 2)");
  split_bad((split_cfg){IC_FP32, 0, {0}, .axis = 0, .num = 1}, 1, "'x'", "0-D");
}
END_TEST

/* ---- slice ---- */

typedef csl_case slice_cfg;

static void slice_check(const slice_cfg *c, const ic_tensor *y, const ic_tensor *x) {
  tu_assert_shape(y, c->dt, c->ond, c->odims);
  int64_t n = ot_numel(c->nd, c->len);
  int64_t *src = malloc((size_t)(n ? n : 1) * sizeof *src);
  int64_t idx[IC_MAX_RANK];
  for (int64_t k = 0; k < n; k++) {
    ot_unravel(k, c->nd, c->len, idx);
    for (int i = 0; i < c->nd; i++) idx[i] += c->start[i];
    src[k] = ot_ravel(c->nd, c->dims, idx);
  }
  ot_check_gather(y, x, src, (size_t)n);
  free(src);
}

/* slice by attributes only */
static ic_status slice_run(const slice_cfg *c, optest *t, ic_tensor **x) {
  ot_begin(t);
  *x = ot_iota(c->dt, c->nd, c->dims, 7);
  ot_feed(t, "x", *x);
  ot_op(t, "slice");
  ic_builder_in(t->op, "Input", "x");
  ic_builder_attr_ints(t->op, "axes", c->n, c->axes);
  ic_builder_attr_ints(t->op, "starts", c->n, c->starts);
  ic_builder_attr_ints(t->op, "ends", c->n, c->ends);
  if (c->n_flags) ic_builder_attr_ints(t->op, "infer_flags", c->n_flags, c->flags);
  ic_builder_attr_ints(t->op, "decrease_axis", c->n_dec, c->dec);
  ot_out(t, "Out", "y");
  return ot_run(t);
}

static void slice_ok(slice_cfg c) {
  optest t;
  ic_tensor *x;
  ic_status st = slice_run(&c, &t, &x);
  ck_assert_msg(st == IC_OK, "%s: %s", ic_status_name(st), t.err);
  slice_check(&c, t.out[0], x);
  ot_end(&t);
}

#define D345 IC_FP32, 3, {3, 4, 5}

/* Every row of the shared table, in its dtype or in every dtype. */
START_TEST(slice_table) {
  for (size_t i = 0; i < CSL_N_CASES; i++) {
    for (size_t d = 0; d < csh_cpu_dts(csl_cases[i].every_dt, csl_cases[i].large); d++) {
      slice_cfg c = csl_cases[i];
      if (c.every_dt) c.dt = csh_dts[d];
      slice_ok(c);
    }
  }
}
END_TEST

/* slice of a [3, 4, 5] float input on axes [1, 2] (attribute starts [0, 0], ends [3, 3]) with
 * tensor-given starts and/or ends. */
typedef struct slice_tensors {
  ic_tensor *starts_t, *ends_t;
  size_t n_starts_list, n_ends_list;
  ic_tensor *starts_list[2], *ends_list[2];
} slice_tensors;

static ic_status slice_tensor_run(slice_tensors *s, optest *t, ic_tensor **x) {
  static const char *const sl[] = {"s0", "s1"}, *const el[] = {"e0", "e1"};
  ot_begin(t);
  *x = ot_iota(IC_FP32, 3, TU_DIMS(3, 4, 5), 8);
  ot_feed(t, "x", *x);
  if (s->starts_t) ot_feed(t, "st", s->starts_t);
  if (s->ends_t) ot_feed(t, "et", s->ends_t);
  for (size_t i = 0; i < s->n_starts_list; i++) ot_feed(t, sl[i], s->starts_list[i]);
  for (size_t i = 0; i < s->n_ends_list; i++) ot_feed(t, el[i], s->ends_list[i]);
  ot_op(t, "slice");
  ic_builder_in(t->op, "Input", "x");
  if (s->starts_t) ic_builder_in(t->op, "StartsTensor", "st");
  if (s->ends_t) ic_builder_in(t->op, "EndsTensor", "et");
  if (s->n_starts_list) ic_builder_input(t->op, "StartsTensorList", s->n_starts_list, sl);
  if (s->n_ends_list) ic_builder_input(t->op, "EndsTensorList", s->n_ends_list, el);
  ic_builder_attr_ints(t->op, "axes", NI32(1, 2));
  ic_builder_attr_ints(t->op, "starts", NI32(0, 0));
  ic_builder_attr_ints(t->op, "ends", NI32(3, 3));
  ic_builder_attr_ints(t->op, "infer_flags", NI32(-1, -1));
  ot_out(t, "Out", "y");
  return ot_run(t);
}

static void slice_tensor_ok(slice_tensors s, const int64_t *start, const int64_t *len) {
  optest t;
  ic_tensor *x;
  ic_status st = slice_tensor_run(&s, &t, &x);
  ck_assert_msg(st == IC_OK, "%s: %s", ic_status_name(st), t.err);
  slice_cfg c = {IC_FP32, 3, {3, 4, 5}, .ond = 3};
  memcpy(c.start, start, 3 * sizeof *start);
  memcpy(c.len, len, 3 * sizeof *len);
  memcpy(c.odims, len, 3 * sizeof *len);
  slice_check(&c, t.out[0], x);
  ot_end(&t);
}

START_TEST(slice_tensor_bounds) {
  slice_tensor_ok((slice_tensors){.starts_t = tu_i64(1, TU_DIMS(2), (const int64_t[]){1, 2})},
                  TU_DIMS(0, 1, 2), TU_DIMS(3, 2, 1));
  slice_tensor_ok((slice_tensors){.ends_t = tu_i32(1, TU_DIMS(2), I32S(2, -1))}, TU_DIMS(0, 0, 0),
                  TU_DIMS(3, 2, 4));
  slice_tensor_ok((slice_tensors){.n_starts_list = 2,
                                  .starts_list = {tu_i64(1, TU_DIMS(1), (const int64_t[]){1}),
                                                  tu_i32(0, NULL, I32S(2))}},
                  TU_DIMS(0, 1, 2), TU_DIMS(3, 2, 1));
  slice_tensor_ok((slice_tensors){.n_ends_list = 2,
                                  .ends_list = {tu_i32(1, TU_DIMS(1), I32S(-1)),
                                                tu_i32(1, TU_DIMS(1), I32S(100))}},
                  TU_DIMS(0, 0, 0), TU_DIMS(3, 3, 5));
  /* StartsTensor beats StartsTensorList, which beats the attribute */
  slice_tensor_ok((slice_tensors){.starts_t = tu_i64(1, TU_DIMS(2), (const int64_t[]){1, 2}),
                                  .n_starts_list = 2,
                                  .starts_list = {tu_i32(1, TU_DIMS(1), I32S(2)),
                                                  tu_i32(1, TU_DIMS(1), I32S(3))},
                                  .ends_t = tu_i32(1, TU_DIMS(2), I32S(4, 5))},
                  TU_DIMS(0, 1, 2), TU_DIMS(3, 3, 3));
}
END_TEST

START_TEST(slice_errors) {
  optest t;
  ic_tensor *x;
  /* a decreased dim must be 1 */
  slice_cfg c1 = {D345, 1, {0}, {0}, {2}, .n_dec = 1, .dec = {0}};
  ck_assert_int_eq(slice_run(&c1, &t, &x), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "slice", "input Input 'x' is float32[3, 4, 5]", "removes dim 0",
                "is 2 after slicing", NULL);
  ot_end(&t);
  slice_cfg c2 = {D345, 1, {3}, {0}, {1}, .n_flags = 0};
  ck_assert_int_eq(slice_run(&c2, &t, &x), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "'x'", "attribute 'axes' entry is 3, expected in [-3, 3)", NULL);
  ot_end(&t);
  slice_cfg c3 = {D345, 1, {-4}, {0}, {1}, .n_flags = 0};
  ck_assert_int_eq(slice_run(&c3, &t, &x), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "'x'", "is -4", NULL);
  ot_end(&t);
  slice_cfg c4 = {D345, 1, {0}, {0}, {1}, .n_dec = 1, .dec = {5}};
  ck_assert_int_eq(slice_run(&c4, &t, &x), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "'x'", "'decrease_axis' entry is 5", NULL);
  ot_end(&t);
  /* tensor-given bounds: one per axis, int only */
  slice_tensors s1 = {.starts_t = tu_i64(1, TU_DIMS(3), (const int64_t[]){1, 1, 1})};
  ck_assert_int_eq(slice_tensor_run(&s1, &t, &x), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "'x'", "input StartsTensor gives 3 starts, expected one per entry of 'axes' (2)",
                NULL);
  ot_end(&t);
  slice_tensors s2 = {.ends_t = tu_f32(1, TU_DIMS(2), (const float[]){1, 1})};
  ck_assert_int_eq(slice_tensor_run(&s2, &t, &x), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "EndsTensor", "'et'", "int32 or int64", NULL);
  ot_end(&t);
  slice_tensors s3 = {.n_ends_list = 1, .ends_list = {tu_i32(1, TU_DIMS(2), I32S(1, 1))}};
  ck_assert_int_eq(slice_tensor_run(&s3, &t, &x), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "EndsTensorList", "'e0'", "exactly one element", NULL);
  ot_end(&t);
  /* attribute lists of the wrong length, and a missing `axes` */
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 2, TU_DIMS(2, 3), 0));
  ot_op(&t, "slice");
  ic_builder_in(t.op, "Input", "x");
  ic_builder_attr_ints(t.op, "axes", NI32(0, 1));
  ic_builder_attr_ints(t.op, "starts", NI32(0));
  ic_builder_attr_ints(t.op, "ends", NI32(1, 1));
  ot_out(&t, "Out", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "'x'", "attribute 'starts' gives 1 starts", NULL);
  ot_end(&t);
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 2, TU_DIMS(2, 3), 0));
  ot_op(&t, "slice");
  ic_builder_in(t.op, "Input", "x");
  ot_out(&t, "Out", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "slice", "'axes'", "missing", NULL);
  ot_end(&t);
}
END_TEST

static TCase *tc_concat(void) {
  TCase *tc = tcase_create("concat");
  tcase_add_test(tc, concat_table);
  tcase_add_test(tc, concat_errors);
  return tc;
}

static TCase *tc_split(void) {
  TCase *tc = tcase_create("split");
  tcase_add_test(tc, split_table);
  tcase_add_test(tc, split_errors);
  return tc;
}

static TCase *tc_slice(void) {
  TCase *tc = tcase_create("slice");
  tcase_add_test(tc, slice_table);
  tcase_add_test(tc, slice_tensor_bounds);
  tcase_add_test(tc, slice_errors);
  return tc;
}

TU_MAIN("ops_concat_split", tc_concat, tc_split, tc_slice)
