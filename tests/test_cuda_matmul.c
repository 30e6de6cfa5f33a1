/* The matrix products' CUDA kernels (mul, matmul, matmul_v2 through cuBLAS) against their CPU
 * kernels (tests/cuda_harness.h), on random inputs with the shapes of the CPU suite
 * (test_ops_matmul.c): every transpose combination, 1-D operands, batches that pair one to
 * one, that meet a single matrix (stride 0, or stacked into one product), that broadcast
 * against each other (the pointer-array path), empty dims including K = 0, odd sizes, and
 * bad inputs that fail in infer on both sides.
 *
 * Tolerances: cuBLAS sums in another order than oneDNN / OpenBLAS. With inputs in [-1, 1)
 * and K up to 784 the rounding errors of both sides are a few 1e-6 absolute, so float32
 * results must agree within 2e-5 relative plus 1e-4 absolute (outputs near 0 have no
 * relative accuracy), float64 within 1e-12 both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.h"
#include "ew_testutil.h"

static double rtol_of(ic_dtype dt) { return dt == IC_FP64 ? 1e-12 : 2e-5; }
static double atol_of(ic_dtype dt) { return dt == IC_FP64 ? 1e-12 : 1e-4; }

/* A product op of X [xdims] and Y [ydims] with the given attributes set by `attrs`. */
typedef void (*set_attrs_fn)(ic_builder_op *op, const void *ctx);

static void check_product(const char *type, ic_dtype dt, int xn, const int64_t *xd, int yn,
                          const int64_t *yd, set_attrs_fn set, const void *ctx, uint64_t seed) {
  ic_tensor *x = ew_rand(dt, xn, xd, seed, -1, 1), *y = ew_rand(dt, yn, yd, seed + 1, -1, 1);
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ew_feed(b, "y", y);
  ic_builder_op *op = ic_builder_add_op(b, 0, type);
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Y", "y");
  ic_builder_out(op, "Out", "out");
  if (set) set(op, ctx);
  ew_fetch(b, "out", dt);
  ic_tensor *in[2] = {x, y};
  ch_check_builder(b, 2, TU_NAMES("x", "y"), in, rtol_of(dt), atol_of(dt));
  ic_builder_destroy(b);
  ic_tensor_destroy(x);
  ic_tensor_destroy(y);
}

/* Same, expecting both sides to fail with `code`, the message holding the needles. */
static void check_product_fails(const char *type, ic_dtype xdt, int xn, const int64_t *xd,
                                ic_dtype ydt, int yn, const int64_t *yd, set_attrs_fn set,
                                const void *ctx, ic_status code, const char *n1,
                                const char *n2) {
  ic_tensor *x = ew_rand(xdt, xn, xd, 1, -1, 1), *y = ew_rand(ydt, yn, yd, 2, -1, 1);
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ew_feed(b, "y", y);
  ic_builder_op *op = ic_builder_add_op(b, 0, type);
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Y", "y");
  ic_builder_out(op, "Out", "out");
  if (set) set(op, ctx);
  ew_fetch(b, "out", xdt);
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_tensor *in[2] = {x, y};
  ic_status st = ch_check_op_status(p, 2, TU_NAMES("x", "y"), in, 0, 0, err, sizeof err);
  ck_assert_msg(st == code, "expected %s, got %s: %s", ic_status_name(code), ic_status_name(st),
                err);
  tu_assert_msg(err, n1, n2, NULL);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  ic_tensor_destroy(x);
  ic_tensor_destroy(y);
}

/* ---- matmul_v2 ---- */

typedef struct v2_attrs {
  bool tx, ty;
} v2_attrs;

static void set_v2(ic_builder_op *op, const void *ctx) {
  const v2_attrs *a = ctx;
  ic_builder_attr_bool(op, "trans_x", a->tx);
  ic_builder_attr_bool(op, "trans_y", a->ty);
}

static void v2(ic_dtype dt, int xn, const int64_t *xd, int yn, const int64_t *yd, bool tx,
               bool ty, uint64_t seed) {
  v2_attrs a = {tx, ty};
  check_product("matmul_v2", dt, xn, xd, yn, yd, set_v2, &a, seed);
}

START_TEST(v2_transposes) {
  for (int t = 0; t < 4; t++) {
    bool tx = t & 1, ty = t & 2;
    for (int dt = IC_FP32; dt <= IC_FP64; dt++) {
      v2((ic_dtype)dt, 2, tx ? TU_DIMS(5, 3) : TU_DIMS(3, 5), 2, ty ? TU_DIMS(7, 5) : TU_DIMS(5, 7),
         tx, ty, 10 + t);
      /* batches paired one to one (strided) */
      v2((ic_dtype)dt, 3, tx ? TU_DIMS(2, 4, 3) : TU_DIMS(2, 3, 4), 3,
         ty ? TU_DIMS(2, 5, 4) : TU_DIMS(2, 4, 5), tx, ty, 20 + t);
      /* X batched against one Y: stacked rows (no trans_x) or Y stride 0 (trans_x) */
      v2((ic_dtype)dt, 4, tx ? TU_DIMS(2, 3, 4, 3) : TU_DIMS(2, 3, 3, 4), 2,
         ty ? TU_DIMS(5, 4) : TU_DIMS(4, 5), tx, ty, 30 + t);
      /* one X against batched Y: X stride 0 */
      v2((ic_dtype)dt, 2, tx ? TU_DIMS(4, 3) : TU_DIMS(3, 4), 3,
         ty ? TU_DIMS(3, 5, 4) : TU_DIMS(3, 4, 5), tx, ty, 40 + t);
    }
  }
  /* odd sizes, a 1 x 1 product and a bigger one */
  v2(IC_FP32, 2, TU_DIMS(17, 33), 2, TU_DIMS(33, 9), false, false, 50);
  v2(IC_FP32, 2, TU_DIMS(1, 1), 2, TU_DIMS(1, 1), false, false, 51);
  v2(IC_FP32, 3, TU_DIMS(8, 129, 65), 3, TU_DIMS(8, 65, 257), false, false, 52);
  v2(IC_FP64, 3, TU_DIMS(3, 65, 31), 2, TU_DIMS(65, 47), true, false, 53);
}
END_TEST

START_TEST(v2_vectors) {
  for (int t = 0; t < 4; t++) {
    bool tx = t & 1, ty = t & 2; /* ignored on 1-D operands */
    v2(IC_FP32, 1, TU_DIMS(4), 1, TU_DIMS(4), tx, ty, 60 + t);
    v2(IC_FP64, 1, TU_DIMS(1), 1, TU_DIMS(1), tx, ty, 64 + t);
    v2(IC_FP32, 1, TU_DIMS(4), 3, ty ? TU_DIMS(2, 3, 4) : TU_DIMS(2, 4, 3), tx, ty, 68 + t);
    v2(IC_FP32, 1, TU_DIMS(4), 2, ty ? TU_DIMS(3, 4) : TU_DIMS(4, 3), tx, ty, 72 + t);
    v2(IC_FP32, 3, tx ? TU_DIMS(2, 4, 3) : TU_DIMS(2, 3, 4), 1, TU_DIMS(4), tx, ty, 76 + t);
    v2(IC_FP64, 2, tx ? TU_DIMS(4, 3) : TU_DIMS(3, 4), 1, TU_DIMS(4), tx, ty, 80 + t);
  }
}
END_TEST

/* Batch dims that broadcast against each other: device pointer arrays. */
START_TEST(v2_broadcast) {
  v2(IC_FP32, 4, TU_DIMS(2, 1, 3, 4), 3, TU_DIMS(5, 4, 2), false, false, 90);
  v2(IC_FP64, 4, TU_DIMS(2, 1, 4, 3), 3, TU_DIMS(5, 2, 4), true, true, 91);
  v2(IC_FP32, 3, TU_DIMS(1, 3, 4), 4, TU_DIMS(2, 3, 4, 5), false, false, 92);
  v2(IC_FP32, 4, TU_DIMS(3, 1, 2, 4), 4, TU_DIMS(1, 2, 4, 3), false, false, 93);
  v2(IC_FP32, 5, TU_DIMS(2, 1, 3, 5, 6), 5, TU_DIMS(1, 4, 3, 7, 6), false, true, 94);
  v2(IC_FP64, 4, TU_DIMS(7, 1, 9, 5), 4, TU_DIMS(1, 11, 5, 3), false, false, 95);
}
END_TEST

START_TEST(v2_empty) {
  /* no matrices at all */
  v2(IC_FP32, 4, TU_DIMS(2, 0, 3, 4), 3, TU_DIMS(5, 4, 2), false, false, 100);
  v2(IC_FP32, 3, TU_DIMS(0, 3, 4), 3, TU_DIMS(5, 4, 2), false, false, 101);
  /* K = 0: zeros, plain, batched and broadcast */
  v2(IC_FP32, 2, TU_DIMS(3, 0), 2, TU_DIMS(0, 2), false, false, 102);
  v2(IC_FP64, 3, TU_DIMS(2, 3, 0), 3, TU_DIMS(2, 0, 2), false, false, 103);
  v2(IC_FP32, 4, TU_DIMS(2, 1, 3, 0), 3, TU_DIMS(5, 0, 2), false, false, 104);
  v2(IC_FP64, 1, TU_DIMS(0), 1, TU_DIMS(0), false, false, 105);
  /* M or N = 0 */
  v2(IC_FP32, 2, TU_DIMS(0, 4), 2, TU_DIMS(4, 2), false, false, 106);
  v2(IC_FP32, 2, TU_DIMS(3, 4), 2, TU_DIMS(4, 0), false, false, 107);
}
END_TEST

START_TEST(v2_bad_inputs) {
  v2_attrs a = {false, false};
  check_product_fails("matmul_v2", IC_FP32, 2, TU_DIMS(2, 3), IC_FP32, 2, TU_DIMS(4, 5), set_v2,
                      &a, IC_ERR_SHAPE, "X 'x'", "Y 'y'");
  check_product_fails("matmul_v2", IC_FP32, 3, TU_DIMS(2, 3, 4), IC_FP32, 3, TU_DIMS(3, 4, 2),
                      set_v2, &a, IC_ERR_SHAPE, "X 'x'", "do not broadcast");
  check_product_fails("matmul_v2", IC_INT32, 2, TU_DIMS(2, 3), IC_INT32, 2, TU_DIMS(3, 2), set_v2,
                      &a, IC_ERR_SHAPE, "X 'x'", "int32");
  check_product_fails("matmul_v2", IC_FP32, 2, TU_DIMS(2, 3), IC_FP64, 2, TU_DIMS(3, 2), set_v2,
                      &a, IC_ERR_SHAPE, "Y 'y'", "float32");
}
END_TEST

/* ---- matmul (v1) ---- */

typedef struct v1_attrs {
  bool tx, ty;
  float alpha;
} v1_attrs;

static void set_v1(ic_builder_op *op, const void *ctx) {
  const v1_attrs *a = ctx;
  ic_builder_attr_bool(op, "transpose_X", a->tx);
  ic_builder_attr_bool(op, "transpose_Y", a->ty);
  ic_builder_attr_float(op, "alpha", a->alpha);
}

static void v1(ic_dtype dt, int xn, const int64_t *xd, int yn, const int64_t *yd, bool tx,
               bool ty, float alpha, uint64_t seed) {
  v1_attrs a = {tx, ty, alpha};
  check_product("matmul", dt, xn, xd, yn, yd, set_v1, &a, seed);
}

START_TEST(v1_transposes_alpha) {
  for (int t = 0; t < 4; t++) {
    bool tx = t & 1, ty = t & 2;
    v1(IC_FP32, 2, tx ? TU_DIMS(5, 3) : TU_DIMS(3, 5), 2, ty ? TU_DIMS(7, 5) : TU_DIMS(5, 7), tx,
       ty, 0.5f, 110 + t);
    v1(IC_FP64, 3, tx ? TU_DIMS(2, 5, 3) : TU_DIMS(2, 3, 5), 3,
       ty ? TU_DIMS(2, 7, 5) : TU_DIMS(2, 5, 7), tx, ty, -2.0f, 114 + t);
    /* X batched against one Y: stacked rows, or Y stride 0 when X is transposed */
    v1(IC_FP32, 3, tx ? TU_DIMS(4, 5, 3) : TU_DIMS(4, 3, 5), 2, ty ? TU_DIMS(7, 5) : TU_DIMS(5, 7),
       tx, ty, 1.0f, 118 + t);
    /* one X against batched Y */
    v1(IC_FP32, 2, tx ? TU_DIMS(5, 3) : TU_DIMS(3, 5), 3,
       ty ? TU_DIMS(2, 7, 5) : TU_DIMS(2, 5, 7), tx, ty, 1.5f, 122 + t);
  }
}
END_TEST

START_TEST(v1_vectors) {
  v1(IC_FP32, 1, TU_DIMS(6), 1, TU_DIMS(6), false, false, 1.0f, 130);
  v1(IC_FP32, 1, TU_DIMS(4), 2, TU_DIMS(4, 3), false, false, 1.0f, 131);
  v1(IC_FP64, 3, TU_DIMS(2, 3, 4), 1, TU_DIMS(4), false, false, 1.0f, 132);
  v1(IC_FP32, 1, TU_DIMS(4), 3, TU_DIMS(2, 4, 3), false, false, 3.0f, 133);
  /* transpose_X turns a 1-D X into a column */
  v1(IC_FP32, 1, TU_DIMS(4), 2, TU_DIMS(1, 3), true, false, 1.0f, 134);
  v1(IC_FP32, 3, TU_DIMS(2, 3, 1), 1, TU_DIMS(4), false, true, 1.0f, 135);
}
END_TEST

START_TEST(v1_flattened_batches) {
  /* batch dims that differ but hold the same count */
  v1(IC_FP32, 4, TU_DIMS(2, 3, 4, 5), 3, TU_DIMS(6, 5, 7), false, false, 1.0f, 140);
  v1(IC_FP64, 4, TU_DIMS(2, 2, 3, 4), 4, TU_DIMS(2, 2, 4, 5), false, false, 1.0f, 141);
  v1(IC_FP32, 4, TU_DIMS(2, 3, 5, 4), 3, TU_DIMS(6, 7, 5), true, true, 0.25f, 142);
  /* zero batches, and K = 0 */
  v1(IC_FP32, 3, TU_DIMS(0, 3, 4), 2, TU_DIMS(4, 5), false, false, 1.0f, 143);
  v1(IC_FP32, 3, TU_DIMS(2, 3, 0), 3, TU_DIMS(2, 0, 5), false, false, 1.0f, 144);
  v1(IC_FP64, 3, TU_DIMS(9, 17, 33), 3, TU_DIMS(9, 33, 19), false, false, 1.0f, 145);
}
END_TEST

START_TEST(v1_bad_inputs) {
  v1_attrs a = {false, false, 1.0f};
  /* v1 does not broadcast batches */
  check_product_fails("matmul", IC_FP32, 4, TU_DIMS(2, 1, 3, 4), IC_FP32, 3, TU_DIMS(5, 4, 2),
                      set_v1, &a, IC_ERR_SHAPE, "X 'x'", "Y 'y'");
  check_product_fails("matmul", IC_FP32, 2, TU_DIMS(3, 4), IC_FP32, 2, TU_DIMS(2, 3), set_v1, &a,
                      IC_ERR_SHAPE, "X 'x'", "width 4");
}
END_TEST

/* ---- mul ---- */

typedef struct mul_ncd {
  int x, y; /* -1: attribute absent */
} mul_ncd;

static void set_mul(ic_builder_op *op, const void *ctx) {
  const mul_ncd *a = ctx;
  if (a->x >= 0) ic_builder_attr_int(op, "x_num_col_dims", a->x);
  if (a->y >= 0) ic_builder_attr_int(op, "y_num_col_dims", a->y);
}

static void mul(ic_dtype dt, int xn, const int64_t *xd, int yn, const int64_t *yd, int xncd,
                int yncd, uint64_t seed) {
  mul_ncd a = {xncd, yncd};
  check_product("mul", dt, xn, xd, yn, yd, set_mul, &a, seed);
}

START_TEST(mul_shapes) {
  mul(IC_FP32, 2, TU_DIMS(3, 5), 2, TU_DIMS(5, 7), -1, -1, 150);
  mul(IC_FP64, 2, TU_DIMS(3, 5), 2, TU_DIMS(5, 7), -1, -1, 151);
  mul(IC_FP32, 4, TU_DIMS(2, 3, 4, 5), 2, TU_DIMS(20, 7), 2, 1, 152);
  mul(IC_FP64, 4, TU_DIMS(2, 3, 4, 5), 4, TU_DIMS(4, 5, 3, 2), 2, 2, 153);
  mul(IC_FP32, 2, TU_DIMS(3, 4), 3, TU_DIMS(4, 2, 3), 1, 1, 154);
  mul(IC_FP32, 3, TU_DIMS(3, 4, 2), 2, TU_DIMS(8, 3), 1, 1, 155);
  mul(IC_FP32, 3, TU_DIMS(2, 3, 4), 2, TU_DIMS(24, 5), 0, 1, 156);
  mul(IC_FP32, 2, TU_DIMS(1, 1), 2, TU_DIMS(1, 1), 1, 1, 157);
  mul(IC_FP32, 2, TU_DIMS(0, 4), 2, TU_DIMS(4, 3), 1, 1, 158);
  mul(IC_FP32, 2, TU_DIMS(19, 33), 2, TU_DIMS(33, 17), 1, 1, 159);
  mul(IC_FP32, 2, TU_DIMS(1, 784), 2, TU_DIMS(784, 300), 1, 1, 160); /* a batch-1 layer */
}
END_TEST

START_TEST(mul_bad_inputs) {
  mul_ncd a = {2, 1};
  check_product_fails("mul", IC_FP32, 3, TU_DIMS(2, 3, 4), IC_FP32, 2, TU_DIMS(5, 3), set_mul, &a,
                      IC_ERR_SHAPE, "X 'x'", "Y 'y'");
  a.x = 3;
  check_product_fails("mul", IC_FP32, 3, TU_DIMS(2, 3, 4), IC_FP32, 2, TU_DIMS(5, 3), set_mul, &a,
                      IC_ERR_SHAPE, "X 'x'", "x_num_col_dims (3)");
}
END_TEST

static TCase *tc_matmul_v2(void) {
  TCase *tc = tcase_create("matmul_v2");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, v2_transposes);
  tcase_add_test(tc, v2_vectors);
  tcase_add_test(tc, v2_broadcast);
  tcase_add_test(tc, v2_empty);
  tcase_add_test(tc, v2_bad_inputs);
  return tc;
}

static TCase *tc_matmul(void) {
  TCase *tc = tcase_create("matmul");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, v1_transposes_alpha);
  tcase_add_test(tc, v1_vectors);
  tcase_add_test(tc, v1_flattened_batches);
  tcase_add_test(tc, v1_bad_inputs);
  return tc;
}

static TCase *tc_mul(void) {
  TCase *tc = tcase_create("mul");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, mul_shapes);
  tcase_add_test(tc, mul_bad_inputs);
  return tc;
}

CH_MAIN("cuda_matmul", tc_matmul_v2, tc_matmul, tc_mul)
