/* Shape ops: shape, reshape2, flatten_contiguous_range, squeeze2, unsqueeze2, transpose2 (the
 * shared case table cases_shape.h, which the CUDA suite runs too). Expected shapes follow Paddle
 * 3.x (checked against PaddlePaddle 3.3.1 where Paddle runs the case); data is checked against
 * index-computing references. */
#include "kernels/kernel.h"
#include "cases_shape.h"
#include "optest.h"

#define I32S(...) ((const int32_t[]){__VA_ARGS__})
#define NI32(...) (sizeof((const int32_t[]){__VA_ARGS__}) / sizeof(int32_t)), I32S(__VA_ARGS__)

/* The XShape convention: [0] followed by the input's dims. */
static void check_xshape(const ic_tensor *dims, const ic_tensor *x) {
  int64_t want[IC_MAX_RANK + 1] = {0};
  for (int i = 0; i < ic_tensor_ndim(x); i++) want[i + 1] = ic_tensor_dims(x)[i];
  ot_check_i32(dims, (size_t)ic_tensor_ndim(x) + 1, want);
}

static int64_t *transpose_ref(int nd, const int64_t *dims, const int *perm);

/* ---- shape ---- */

START_TEST(shape_of_tensors) {
  static const struct {
    ic_dtype dt;
    int nd;
    int64_t dims[4];
  } cases[] = {{IC_FP32, 3, {2, 0, 3}}, {IC_INT64, 1, {7}}, {IC_UINT8, 4, {1, 2, 3, 4}},
               {IC_FP64, 0, {0}}, {IC_FP16, 2, {5, 1}}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "x", ot_iota(cases[i].dt, cases[i].nd, cases[i].dims, 1));
    ot_op(&t, "shape");
    ic_builder_in(t.op, "Input", "x");
    ot_out(&t, "Out", "s");
    ot_ok(&t);
    ot_check_i32(t.out[0], (size_t)cases[i].nd, cases[i].dims);
    ot_end(&t);
  }
}
END_TEST

/* ---- reshape2 ---- */

/* reshape2 of x by the `shape` attribute; checks the result dims, the data and XShape. */
static void reshape_ok(ic_tensor *x, size_t n, const int32_t *shape, int nd, const int64_t *dims) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", x);
  ot_op(&t, "reshape2");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_ints(t.op, "shape", n, shape);
  ot_out(&t, "Out", "y");
  ot_xshape(&t, "xs", "xs_dims");
  ot_ok(&t);
  ot_check_same_data(t.out[0], x, nd, dims);
  check_xshape(t.out[1], x);
  ot_end(&t);
}

START_TEST(reshape_attr) {
  const int64_t *d234 = TU_DIMS(2, 3, 4);
  reshape_ok(ot_iota(IC_FP32, 3, d234, 1), NI32(0, -1), 2, TU_DIMS(2, 12));
  reshape_ok(ot_iota(IC_FP32, 3, d234, 2), NI32(-1), 1, TU_DIMS(24));
  reshape_ok(ot_iota(IC_FP32, 3, d234, 3), NI32(4, 0, 2), 3, TU_DIMS(4, 3, 2));
  reshape_ok(ot_iota(IC_FP32, 3, d234, 4), NI32(0, 0, 4), 3, TU_DIMS(2, 3, 4));
  reshape_ok(ot_iota(IC_FP32, 3, d234, 5), NI32(1, -1, 1, 2), 4, TU_DIMS(1, 12, 1, 2));
  reshape_ok(ot_iota(IC_FP32, 3, d234, 6), NI32(3, 2, 2, 2), 4, TU_DIMS(3, 2, 2, 2));
  reshape_ok(ot_iota(IC_FP32, 3, d234, 7), NI32(0, 3, -1), 3, TU_DIMS(2, 3, 4));
  /* odd sizes and other element widths */
  reshape_ok(ot_iota(IC_INT64, 2, TU_DIMS(5, 7), 1), NI32(7, -1), 2, TU_DIMS(7, 5));
  reshape_ok(ot_iota(IC_FP64, 2, TU_DIMS(5, 7), 1), NI32(35), 1, TU_DIMS(35));
  reshape_ok(ot_iota(IC_UINT8, 3, TU_DIMS(3, 1, 11), 1), NI32(-1, 3), 2, TU_DIMS(11, 3));
  /* to and from 0-D */
  reshape_ok(ot_iota(IC_INT32, 1, TU_DIMS(1), 1), 0, NULL, 0, NULL);
  reshape_ok(ot_iota(IC_FP32, 0, NULL, 1), NI32(1, 1, 1), 3, TU_DIMS(1, 1, 1));
  reshape_ok(ot_iota(IC_FP32, 0, NULL, 1), NI32(-1), 1, TU_DIMS(1));
}
END_TEST

START_TEST(reshape_empty) {
  /* With no elements, 0 means a literal 0 (and may stand beyond the input's rank). */
  const int64_t *d03 = TU_DIMS(0, 3);
  reshape_ok(ot_iota(IC_FP32, 2, d03, 0), NI32(2, -1), 2, TU_DIMS(2, 0));
  reshape_ok(ot_iota(IC_FP32, 2, d03, 0), NI32(-1, 3), 2, TU_DIMS(0, 3));
  reshape_ok(ot_iota(IC_FP32, 2, d03, 0), NI32(0, 0), 2, TU_DIMS(0, 0));
  reshape_ok(ot_iota(IC_FP32, 2, d03, 0), NI32(3, 0), 2, TU_DIMS(3, 0));
  reshape_ok(ot_iota(IC_INT64, 2, d03, 0), NI32(5, 0, 0, 3), 4, TU_DIMS(5, 0, 0, 3));
}
END_TEST

/* reshape2 with a Shape tensor and/or a ShapeTensor list; the attribute says [24]. */
static void reshape_tensors(ic_tensor *shape, size_t n_list, ic_tensor **list, int nd,
                            const int64_t *dims) {
  static const char *const names[] = {"s0", "s1", "s2", "s3", "s4", "s5"};
  optest t;
  ot_begin(&t);
  ic_tensor *x = ot_iota(IC_FP32, 3, TU_DIMS(2, 3, 4), 9);
  ot_feed(&t, "x", x);
  if (shape) ot_feed(&t, "shape", shape);
  for (size_t i = 0; i < n_list; i++) ot_feed(&t, names[i], list[i]);
  ot_op(&t, "reshape2");
  ic_builder_in(t.op, "X", "x");
  if (shape) ic_builder_in(t.op, "Shape", "shape");
  if (n_list) ic_builder_input(t.op, "ShapeTensor", n_list, names);
  ic_builder_attr_ints(t.op, "shape", NI32(24));
  ot_out(&t, "Out", "y");
  ot_ok(&t);
  ot_check_same_data(t.out[0], x, nd, dims);
  ot_end(&t);
}

START_TEST(reshape_shape_inputs) {
  /* Shape beats the attribute; its 0 still copies a dim and -1 is inferred. */
  reshape_tensors(tu_i32(1, TU_DIMS(3), I32S(0, 4, -1)), 0, NULL, 3, TU_DIMS(2, 4, 3));
  /* any rank of Shape tensor, all its elements */
  reshape_tensors(tu_i64(2, TU_DIMS(2, 1), (const int64_t[]){6, 4}), 0, NULL, 2, TU_DIMS(6, 4));
  /* ShapeTensor beats Shape: single-element tensors of either int type, 0-D included */
  ic_tensor *list[] = {tu_i64(1, TU_DIMS(1), (const int64_t[]){0}), tu_i32(0, NULL, I32S(-1))};
  reshape_tensors(tu_i32(1, TU_DIMS(3), I32S(0, 4, -1)), 2, list, 2, TU_DIMS(2, 12));
  /* the pattern exported programs use: [0 (keep batch), runtime dim, constants...] */
  ic_tensor *list2[] = {tu_i32(1, TU_DIMS(1), I32S(0)), tu_i32(1, TU_DIMS(1), I32S(3)),
                        tu_i32(1, TU_DIMS(1), I32S(2)), tu_i32(1, TU_DIMS(1), I32S(-1))};
  reshape_tensors(NULL, 4, list2, 4, TU_DIMS(2, 3, 2, 2));
}
END_TEST

/* reshape2 that must fail with IC_ERR_SHAPE; the message must contain every needle. */
static void reshape_bad(ic_tensor *x, size_t n, const int32_t *shape, ic_tensor *shape_t,
                        ic_tensor *list0, const char *n1, const char *n2, const char *n3) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", x);
  if (shape_t) ot_feed(&t, "shp", shape_t);
  if (list0) ot_feed(&t, "lst", list0);
  ot_op(&t, "reshape2");
  ic_builder_in(t.op, "X", "x");
  if (shape_t) ic_builder_in(t.op, "Shape", "shp");
  if (list0) ic_builder_in(t.op, "ShapeTensor", "lst");
  ic_builder_attr_ints(t.op, "shape", n, shape);
  ot_out(&t, "Out", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  ck_assert_ptr_null(t.out[0]);
  tu_assert_msg(t.err, "reshape2", n1, n2, n3, NULL);
  ot_end(&t);
}

START_TEST(reshape_errors) {
  const int64_t *d234 = TU_DIMS(2, 3, 4);
  /* size mismatch: names X, its dims and the requested shape */
  reshape_bad(ot_iota(IC_FP32, 3, d234, 0), NI32(5, -1), NULL, NULL, "'x'", "float32[2, 3, 4]",
              "[5, -1]");
  reshape_bad(ot_iota(IC_FP32, 3, d234, 0), NI32(7), NULL, NULL, "'x'", "float32[2, 3, 4]", "[7]");
  reshape_bad(ot_iota(IC_FP32, 3, d234, 0), NI32(-1, -1), NULL, NULL, "'x'", "[-1, -1]",
              "only one dim may be -1");
  reshape_bad(ot_iota(IC_FP32, 3, d234, 0), NI32(4, 6, 1, 0), NULL, NULL, "'x'", "[4, 6, 1, 0]",
              "index 3");
  reshape_bad(ot_iota(IC_FP32, 3, d234, 0), NI32(-2, 12), NULL, NULL, "'x'", "[-2, 12]", "-2");
  reshape_bad(ot_iota(IC_FP32, 2, TU_DIMS(0, 3), 0), NI32(0, -1), NULL, NULL, "'x'", "[0, -1]",
              "could be any size");
  /* a Shape tensor is named when it is the source, and must be an int tensor */
  reshape_bad(ot_iota(IC_FP32, 3, d234, 0), NI32(24), tu_i32(1, TU_DIMS(2), I32S(5, 5)), NULL,
              "'x'", "[5, 5]", "input Shape 'shp'");
  reshape_bad(ot_iota(IC_FP32, 3, d234, 0), NI32(24), tu_f32(1, TU_DIMS(1), (const float[]){24}),
              NULL, "Shape", "'shp'", "int32 or int64");
  /* ShapeTensor entries hold exactly one value */
  reshape_bad(ot_iota(IC_FP32, 3, d234, 0), NI32(24), NULL,
              tu_i64(1, TU_DIMS(2), (const int64_t[]){2, 12}), "ShapeTensor", "'lst'",
              "exactly one element");
}
END_TEST

/* ---- flatten_contiguous_range ---- */

static void flatten_case(ic_tensor *x, int start, int stop, ic_status want, int nd,
                         const int64_t *dims, const char *needle) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", x);
  ot_op(&t, "flatten_contiguous_range");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_int(t.op, "start_axis", start);
  ic_builder_attr_int(t.op, "stop_axis", stop);
  ot_out(&t, "Out", "y");
  ot_xshape(&t, "xs", "xs_dims");
  ic_status st = ot_run(&t);
  ck_assert_msg(st == want, "flatten(%d, %d): %s: %s", start, stop, ic_status_name(st), t.err);
  if (st == IC_OK) {
    ot_check_same_data(t.out[0], x, nd, dims);
    check_xshape(t.out[1], x);
  } else {
    tu_assert_msg(t.err, "flatten_contiguous_range", "'x'", needle, NULL);
  }
  ot_end(&t);
}

START_TEST(flatten_ranges) {
  const int64_t *d = TU_DIMS(2, 3, 4, 5);
  flatten_case(ot_iota(IC_FP32, 4, d, 1), 1, 3, IC_OK, 2, TU_DIMS(2, 60), NULL);
  flatten_case(ot_iota(IC_FP32, 4, d, 1), 0, -1, IC_OK, 1, TU_DIMS(120), NULL);
  flatten_case(ot_iota(IC_FP32, 4, d, 1), -2, -1, IC_OK, 3, TU_DIMS(2, 3, 20), NULL);
  flatten_case(ot_iota(IC_FP32, 4, d, 1), 0, 1, IC_OK, 3, TU_DIMS(6, 4, 5), NULL);
  flatten_case(ot_iota(IC_FP32, 4, d, 1), 1, 1, IC_OK, 4, d, NULL);
  flatten_case(ot_iota(IC_FP32, 4, d, 1), -4, 0, IC_OK, 4, d, NULL);
  flatten_case(ot_iota(IC_FP32, 4, d, 1), 3, -1, IC_OK, 4, d, NULL);
  flatten_case(ot_iota(IC_INT64, 3, TU_DIMS(3, 1, 5), 1), 1, 2, IC_OK, 2, TU_DIMS(3, 5), NULL);
  flatten_case(ot_iota(IC_FP32, 3, TU_DIMS(2, 0, 3), 1), 0, 1, IC_OK, 2, TU_DIMS(0, 3), NULL);
  /* a 0-D input becomes [1] */
  flatten_case(ot_iota(IC_FP64, 0, NULL, 1), 0, -1, IC_OK, 1, TU_DIMS(1), NULL);
  flatten_case(ot_iota(IC_FP64, 0, NULL, 1), -1, -1, IC_OK, 1, TU_DIMS(1), NULL);
  /* errors */
  flatten_case(ot_iota(IC_FP32, 4, d, 1), 2, 1, IC_ERR_SHAPE, 0, NULL, "comes before");
  flatten_case(ot_iota(IC_FP32, 4, d, 1), 0, 4, IC_ERR_SHAPE, 0, NULL, "stop_axis is 4");
  flatten_case(ot_iota(IC_FP32, 4, d, 1), -5, 0, IC_ERR_SHAPE, 0, NULL, "[-4, 4)");
  flatten_case(ot_iota(IC_FP32, 0, NULL, 1), 1, 1, IC_ERR_SHAPE, 0, NULL, "0-D");
}
END_TEST

/* ---- squeeze2 / unsqueeze2 ---- */

/* squeeze2 or unsqueeze2 of x by the attribute axes; want IC_OK and dims, or an error. */
static void squeeze_case(const char *op, ic_tensor *x, size_t n, const int32_t *axes,
                         ic_status want, int nd, const int64_t *dims, const char *needle) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", x);
  ot_op(&t, op);
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_ints(t.op, "axes", n, axes);
  ot_out(&t, "Out", "y");
  ot_xshape(&t, "xs", "xs_dims");
  ic_status st = ot_run(&t);
  ck_assert_msg(st == want, "%s: %s: %s", op, ic_status_name(st), t.err);
  if (st == IC_OK) {
    ot_check_same_data(t.out[0], x, nd, dims);
    check_xshape(t.out[1], x);
  } else {
    tu_assert_msg(t.err, op, "'x'", needle, NULL);
  }
  ot_end(&t);
}

START_TEST(squeeze_axes) {
  const int64_t *d = TU_DIMS(1, 3, 1, 4);
#define SQ(axes, nd, ...) \
  squeeze_case("squeeze2", ot_iota(IC_FP32, 4, d, 1), axes, IC_OK, nd, TU_DIMS(__VA_ARGS__), NULL)
  squeeze_case("squeeze2", ot_iota(IC_FP32, 4, d, 1), 0, NULL, IC_OK, 2, TU_DIMS(3, 4), NULL);
  SQ(NI32(0), 3, 3, 1, 4);
  SQ(NI32(2), 3, 1, 3, 4);
  SQ(NI32(-2), 3, 1, 3, 4);
  SQ(NI32(1), 4, 1, 3, 1, 4); /* a listed dim that is not 1 stays */
  SQ(NI32(0, 0), 3, 3, 1, 4);
  SQ(NI32(0, -4), 3, 3, 1, 4);
  SQ(NI32(1, 2), 3, 1, 3, 4);
  SQ(NI32(0, 2), 2, 3, 4);
  SQ(NI32(-1, -3), 4, 1, 3, 1, 4);
#undef SQ
  squeeze_case("squeeze2", ot_iota(IC_INT64, 3, TU_DIMS(1, 1, 1), 1), 0, NULL, IC_OK, 0, NULL,
               NULL);
  squeeze_case("squeeze2", ot_iota(IC_UINT8, 3, TU_DIMS(1, 0, 1), 1), 0, NULL, IC_OK, 1,
               TU_DIMS(0), NULL);
  squeeze_case("squeeze2", ot_iota(IC_FP32, 0, NULL, 1), 0, NULL, IC_OK, 0, NULL, NULL);
  squeeze_case("squeeze2", ot_iota(IC_FP32, 0, NULL, 1), NI32(0), IC_OK, 0, NULL, NULL);
  squeeze_case("squeeze2", ot_iota(IC_FP32, 0, NULL, 1), NI32(-1), IC_OK, 0, NULL, NULL);
  /* errors */
  squeeze_case("squeeze2", ot_iota(IC_FP32, 4, d, 1), NI32(4), IC_ERR_SHAPE, 0, NULL,
               "is 4, expected in [-4, 4)");
  squeeze_case("squeeze2", ot_iota(IC_FP32, 4, d, 1), NI32(0, -5), IC_ERR_SHAPE, 0, NULL, "-5");
  squeeze_case("squeeze2", ot_iota(IC_FP32, 0, NULL, 1), NI32(1), IC_ERR_SHAPE, 0, NULL, "0-D");
}
END_TEST

START_TEST(unsqueeze_axes) {
  const int64_t *d = TU_DIMS(2, 3);
#define UQ(axes, nd, ...)                                                                  \
  squeeze_case("unsqueeze2", ot_iota(IC_FP32, 2, d, 1), axes, IC_OK, nd, TU_DIMS(__VA_ARGS__), \
               NULL)
  UQ(NI32(0), 3, 1, 2, 3);
  UQ(NI32(-1), 3, 2, 3, 1);
  UQ(NI32(2), 3, 2, 3, 1);
  UQ(NI32(-3), 3, 1, 2, 3);
  UQ(NI32(1), 3, 2, 1, 3);
  /* each axis indexes the shape built so far */
  UQ(NI32(0, 0), 4, 1, 1, 2, 3);
  UQ(NI32(-1, -1), 4, 2, 3, 1, 1);
  UQ(NI32(0, 2), 4, 1, 2, 1, 3);
  UQ(NI32(0, -1), 4, 1, 2, 3, 1);
  UQ(NI32(1, 1), 4, 2, 1, 1, 3);
  UQ(NI32(2, 0), 4, 1, 2, 3, 1);
  UQ(NI32(-2, 1), 4, 2, 1, 1, 3);
  UQ(NI32(2, 0, 4), 5, 1, 2, 3, 1, 1);
  squeeze_case("unsqueeze2", ot_iota(IC_FP32, 2, d, 1), 0, NULL, IC_OK, 2, d, NULL);
#undef UQ
  squeeze_case("unsqueeze2", ot_iota(IC_INT64, 0, NULL, 1), NI32(0), IC_OK, 1, TU_DIMS(1), NULL);
  squeeze_case("unsqueeze2", ot_iota(IC_INT64, 0, NULL, 1), NI32(-1, -1), IC_OK, 2,
               TU_DIMS(1, 1), NULL);
  squeeze_case("unsqueeze2", ot_iota(IC_FP64, 2, TU_DIMS(0, 5), 1), NI32(1), IC_OK, 3,
               TU_DIMS(0, 1, 5), NULL);
  /* errors */
  squeeze_case("unsqueeze2", ot_iota(IC_FP32, 2, d, 1), NI32(3), IC_ERR_SHAPE, 0, NULL,
               "axis 3");
  squeeze_case("unsqueeze2", ot_iota(IC_FP32, 2, d, 1), NI32(-4), IC_ERR_SHAPE, 0, NULL,
               "axis -4");
  squeeze_case("unsqueeze2", ot_iota(IC_FP32, 8, TU_DIMS(1, 2, 1, 2, 1, 2, 1, 2), 1), NI32(0, 0),
               IC_ERR_SHAPE, 0, NULL, "rank 10");
}
END_TEST

/* unsqueeze2 of a [2, 3] input with AxesTensor and/or AxesTensorList; attribute axes [0]. */
static void unsqueeze_tensors(ic_tensor *axes_t, size_t n_list, ic_tensor **list, ic_status want,
                              int nd, const int64_t *dims, const char *needle) {
  static const char *const names[] = {"a0", "a1", "a2"};
  optest t;
  ot_begin(&t);
  ic_tensor *x = ot_iota(IC_FP32, 2, TU_DIMS(2, 3), 4);
  ot_feed(&t, "x", x);
  if (axes_t) ot_feed(&t, "axes", axes_t);
  for (size_t i = 0; i < n_list; i++) ot_feed(&t, names[i], list[i]);
  ot_op(&t, "unsqueeze2");
  ic_builder_in(t.op, "X", "x");
  if (axes_t) ic_builder_in(t.op, "AxesTensor", "axes");
  if (n_list) ic_builder_input(t.op, "AxesTensorList", n_list, names);
  ic_builder_attr_ints(t.op, "axes", NI32(0));
  ot_out(&t, "Out", "y");
  ic_status st = ot_run(&t);
  ck_assert_msg(st == want, "%s: %s", ic_status_name(st), t.err);
  if (st == IC_OK) ot_check_same_data(t.out[0], x, nd, dims);
  else tu_assert_msg(t.err, "unsqueeze2", needle, NULL);
  ot_end(&t);
}

START_TEST(unsqueeze_axes_tensors) {
  unsqueeze_tensors(tu_i32(1, TU_DIMS(2), I32S(0, -1)), 0, NULL, IC_OK, 4, TU_DIMS(1, 2, 3, 1),
                    NULL);
  ic_tensor *l1[] = {tu_i64(1, TU_DIMS(1), (const int64_t[]){0}), tu_i32(0, NULL, I32S(3))};
  unsqueeze_tensors(NULL, 2, l1, IC_OK, 4, TU_DIMS(1, 2, 3, 1), NULL);
  /* AxesTensor beats AxesTensorList, which beats the attribute */
  ic_tensor *l2[] = {tu_i64(1, TU_DIMS(1), (const int64_t[]){0}),
                     tu_i64(1, TU_DIMS(1), (const int64_t[]){3})};
  unsqueeze_tensors(tu_i32(1, TU_DIMS(1), I32S(1)), 2, l2, IC_OK, 3, TU_DIMS(2, 1, 3), NULL);
  unsqueeze_tensors(tu_f32(1, TU_DIMS(1), (const float[]){1}), 0, NULL, IC_ERR_SHAPE, 0, NULL,
                    "'axes'");
}
END_TEST

/* ---- transpose2 ---- */

/* src[k] = the input index of output element k for out = transpose(x dims, perm). */
static int64_t *transpose_ref(int nd, const int64_t *dims, const int *perm) {
  int64_t od[IC_MAX_RANK], oi[IC_MAX_RANK], ii[IC_MAX_RANK];
  int64_t n = 1;
  for (int i = 0; i < nd; i++) {
    od[i] = dims[perm[i]];
    n *= dims[i];
  }
  int64_t *src = malloc((size_t)(n ? n : 1) * sizeof *src);
  for (int64_t k = 0; k < n; k++) {
    ot_unravel(k, nd, od, oi);
    for (int i = 0; i < nd; i++) ii[perm[i]] = oi[i];
    src[k] = ot_ravel(nd, dims, ii);
  }
  return src;
}

/* transpose2 of a fresh tensor of dims/dtype by perm (entries given as written, possibly
 * negative); checks dims, data and XShape. */
static void transpose_ok(ic_dtype dt, int nd, const int64_t *dims, const int32_t *axis) {
  int perm[IC_MAX_RANK];
  int32_t ax[IC_MAX_RANK];
  int64_t od[IC_MAX_RANK];
  for (int i = 0; i < nd; i++) {
    perm[i] = axis[i] < 0 ? axis[i] + nd : axis[i];
    ax[i] = axis[i];
    od[i] = dims[perm[i]];
  }
  optest t;
  ot_begin(&t);
  ic_tensor *x = ot_iota(dt, nd, dims, 3);
  ot_feed(&t, "x", x);
  ot_op(&t, "transpose2");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_ints(t.op, "axis", (size_t)nd, ax);
  ot_out(&t, "Out", "y");
  ot_xshape(&t, "xs", "xs_dims");
  ot_ok(&t);
  tu_assert_shape(t.out[0], dt, nd, od);
  int64_t *src = transpose_ref(nd, dims, perm);
  ot_check_gather(t.out[0], x, src, (size_t)ic_tensor_numel(x));
  free(src);
  check_xshape(t.out[1], x);
  ot_end(&t);
}

/* Every permutation of each sweep, the seeded sample of 6-axis permutations, and every row of
 * the shared table, each in its dtype or in every dtype. */
START_TEST(transpose_table) {
  for (size_t i = 0; i < CTP_N_SWEEPS; i++) {
    const ctp_sweep *w = &ctp_sweeps[i];
    for (size_t d = 0; d < csh_cpu_dts(w->every_dt, w->large); d++) {
      int32_t p[6] = {0, 1, 2, 3, 4, 5};
      do {
        transpose_ok(w->every_dt ? csh_dts[d] : w->dt, w->nd, w->dims, p);
      } while (ctp_next_perm(p, w->nd));
    }
  }
  for (int r = 0; r < CTP_N_RANDOM6; r++) {
    int32_t q[6];
    ctp_random_perm6(r, q);
    transpose_ok(r % 2 ? IC_INT64 : IC_FP32, 6, ctp_random6_dims, q);
  }
  for (size_t i = 0; i < CTP_N_CASES; i++) {
    const ctp_case *c = &ctp_cases[i];
    for (size_t d = 0; d < csh_cpu_dts(c->every_dt, false); d++) {
      transpose_ok(c->every_dt ? csh_dts[d] : c->dt, c->nd, c->dims, c->axis);
    }
  }
}
END_TEST

static void transpose_bad(size_t n, const int32_t *axis, const char *needle) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 3, TU_DIMS(2, 3, 4), 0));
  ot_op(&t, "transpose2");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_ints(t.op, "axis", n, axis);
  ot_out(&t, "Out", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "transpose2", "'x'", "float32[2, 3, 4]", needle, NULL);
  ot_end(&t);
}

START_TEST(transpose_errors) {
  transpose_bad(NI32(0, 0, 1), "axis 0 appears twice");
  transpose_bad(NI32(2, -1, 0), "axis 2 appears twice");
  transpose_bad(NI32(1, 0), "2 entries, expected one per dim (3)");
  transpose_bad(NI32(0, 1, 3), "is 3, expected in [-3, 3)");
  /* the attribute is required */
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", ot_iota(IC_FP32, 2, TU_DIMS(2, 3), 0));
  ot_op(&t, "transpose2");
  ic_builder_in(t.op, "X", "x");
  ot_out(&t, "Out", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "transpose2", "'axis'", "missing", NULL);
  ot_end(&t);
}
END_TEST

/* ---- the real exported programs ---- */

/* Every op of these types in the shared Paddle models must match its definition's slots and
 * parse its attributes (the exporters add slots such as empty ShapeTensor lists, XShape, and
 * attributes such as use_mkldnn that the ops must accept). */
START_TEST(real_model_ops_bind) {
  static const char *const models[] = {
      "paddle/mobilenet_v2/inference.pdmodel", "paddle/pphgnet_plate/inference.pdmodel",
      "paddle/ppocr_rec_svtr/inference.pdmodel", "paddle/crnn_rec/inference.pdmodel"};
  static const char *const types[] = {"concat", "flatten_contiguous_range", "reshape2", "shape",
                                      "slice", "split", "squeeze2", "transpose2", "unsqueeze2"};
  size_t seen = 0;
  for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
    char path[4096], err[1024];
    ck_assert_msg(tu_shared(models[m], path, sizeof path), "missing %s", models[m]);
    ic_program *p;
    ck_assert_msg(ic_program_from_file(path, &p, err, sizeof err) == IC_OK, "%s", err);
    for (size_t i = 0; i < p->blocks[0].n_ops; i++) {
      const ic_op *op = &p->blocks[0].ops[i];
      bool mine = false;
      for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) mine |= !strcmp(op->type, types[k]);
      if (!mine) continue;
      const ic_opdef *def;
      ic_err e;
      ck_assert_int_eq(ic_opdef_lookup(op, &def, &e), IC_OK);
      const ic_slot *ins[8], *outs[8];
      ck_assert_msg(ic_opdef_match(def, op, ins, outs, &e) == IC_OK, "%s: %s", models[m], e.msg);
      char attrs[256] = {0};
      ck_assert_uint_le(def->attrs_size, sizeof attrs);
      ck_assert_msg(ic_opdef_parse(def, op, attrs, &e) == IC_OK, "%s: %s", models[m], e.msg);
      seen++;
    }
    ic_program_destroy(p);
  }
  ck_assert_uint_ge(seen, 40);
}
END_TEST

/* The pattern PP-OCR's SVTR exports: a runtime dim taken with shape + slice (decreased to a
 * 0-D int32) feeds a reshape2 ShapeTensor list next to constants, then a transpose2. */
START_TEST(shape_slice_reshape_chain) {
  optest t;
  ot_begin(&t);
  ic_tensor *x = ot_iota(IC_FP32, 3, TU_DIMS(2, 5, 6), 2);
  ot_feed(&t, "x", x);
  ot_feed(&t, "zero", tu_i32(1, TU_DIMS(1), I32S(0)));
  ot_feed(&t, "minus1", tu_i64(1, TU_DIMS(1), (const int64_t[]){-1}));
  ic_builder_var(t.b, 0, "x_shape", IC_INT32, 1, TU_DIMS(3), false);
  ic_builder_op *sh = ic_builder_add_op(t.b, 0, "shape");
  ic_builder_in(sh, "Input", "x");
  ic_builder_out(sh, "Out", "x_shape");
  ic_builder_op *sl = ic_builder_add_op(t.b, 0, "slice");
  ic_builder_in(sl, "Input", "x_shape");
  ic_builder_out(sl, "Out", "n");
  ic_builder_attr_ints(sl, "axes", NI32(0));
  ic_builder_attr_ints(sl, "starts", NI32(1));
  ic_builder_attr_ints(sl, "ends", NI32(2));
  ic_builder_attr_ints(sl, "infer_flags", NI32(1));
  ic_builder_attr_ints(sl, "decrease_axis", NI32(0));
  ot_op(&t, "reshape2");
  ic_builder_in(t.op, "X", "x");
  ic_builder_input(t.op, "ShapeTensor", 3, TU_NAMES("zero", "minus1", "n"));
  ic_builder_attr_ints(t.op, "shape", NI32(0, -1, 5));
  ot_out(&t, "Out", "r");
  ot_xshape(&t, "r_xshape", "r_xshape_dims");
  ic_builder_op *tr = ic_builder_add_op(t.b, 0, "transpose2");
  ic_builder_in(tr, "X", "r");
  ic_builder_out(tr, "Out", "tr");
  ic_builder_attr_ints(tr, "axis", NI32(0, 2, 1));
  ot_fetch(&t, "tr");
  ot_fetch(&t, "n");
  ot_ok(&t);
  ot_check_same_data(t.out[0], x, 3, TU_DIMS(2, 6, 5));
  check_xshape(t.out[1], x);
  int64_t *src = transpose_ref(3, TU_DIMS(2, 6, 5), (const int[]){0, 2, 1});
  tu_assert_shape(t.out[2], IC_FP32, 3, TU_DIMS(2, 5, 6));
  ot_check_gather(t.out[2], x, src, 60);
  free(src);
  tu_assert_shape(t.out[3], IC_INT32, 0, NULL);
  ck_assert_int_eq(*(const int32_t *)ic_tensor_cdata(t.out[3]), 5);
  ot_end(&t);
}
END_TEST

static TCase *tc_shape(void) {
  TCase *tc = tcase_create("shape");
  tcase_add_test(tc, shape_of_tensors);
  tcase_add_test(tc, real_model_ops_bind);
  tcase_add_test(tc, shape_slice_reshape_chain);
  return tc;
}

static TCase *tc_reshape(void) {
  TCase *tc = tcase_create("reshape2");
  tcase_add_test(tc, reshape_attr);
  tcase_add_test(tc, reshape_empty);
  tcase_add_test(tc, reshape_shape_inputs);
  tcase_add_test(tc, reshape_errors);
  return tc;
}

static TCase *tc_flatten_squeeze(void) {
  TCase *tc = tcase_create("flatten_squeeze");
  tcase_add_test(tc, flatten_ranges);
  tcase_add_test(tc, squeeze_axes);
  tcase_add_test(tc, unsqueeze_axes);
  tcase_add_test(tc, unsqueeze_axes_tensors);
  return tc;
}

static TCase *tc_transpose(void) {
  TCase *tc = tcase_create("transpose2");
  tcase_add_test(tc, transpose_table);
  tcase_add_test(tc, transpose_errors);
  return tc;
}

TU_MAIN("ops_shape", tc_shape, tc_reshape, tc_flatten_squeeze, tc_transpose)
