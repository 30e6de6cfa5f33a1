/* The matrix products' CUDA kernels (mul, matmul, matmul_v2 through cuBLAS) against their CPU
 * kernels (tests/cuda_harness.h), on the shared case table cases_matmul.h, which test_ops_matmul.c
 * runs on the CPU executors: every transpose combination, 1-D operands, batches that pair one to
 * one, that meet a single matrix (stride 0, or stacked into one product), that broadcast against
 * each other (the pointer-array path), empty dims including K = 0, odd sizes, and bad inputs that
 * fail in infer on both sides.
 *
 * Tolerances (cmm_gpu_tol): cuBLAS sums in another order than oneDNN / OpenBLAS; float32 within
 * 2e-5 relative plus 1e-4 absolute, float64 within 1e-12 both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.h"
#include "cases_matmul.h"

typedef void (*set_attrs_fn)(ic_builder_op *op, const void *ctx);

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

START_TEST(mul_bad_inputs) {
  mul_ncd a = {2, 1};
  check_product_fails("mul", IC_FP32, 3, TU_DIMS(2, 3, 4), IC_FP32, 2, TU_DIMS(5, 3), set_mul, &a,
                      IC_ERR_SHAPE, "X 'x'", "Y 'y'");
  a.x = 3;
  check_product_fails("mul", IC_FP32, 3, TU_DIMS(2, 3, 4), IC_FP32, 2, TU_DIMS(5, 3), set_mul, &a,
                      IC_ERR_SHAPE, "X 'x'", "x_num_col_dims (3)");
}
END_TEST

/* Every row of the shared table. */
START_TEST(table_cases) {
  for (size_t i = 0; i < CMM_N_CASES; i++) {
    const cmm_case *c = &cmm_cases[i];
    ic_tensor *x, *y;
    cmm_inputs(c, 1 + 2 * i, &x, &y);
    ic_builder *b = cmm_program(c, x, y);
    double rtol, atol;
    cmm_gpu_tol(c->dt, &rtol, &atol);
    ch_check_builder(b, 2, TU_NAMES("x", "y"), (ic_tensor *const[]){x, y}, rtol, atol);
    ic_builder_destroy(b);
    ic_tensor_destroy(x);
    ic_tensor_destroy(y);
  }
}
END_TEST

static TCase *tc_table(void) {
  TCase *tc = tcase_create("table");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, table_cases);
  return tc;
}

static TCase *tc_matmul_v2(void) {
  TCase *tc = tcase_create("matmul_v2");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, v2_bad_inputs);
  return tc;
}

static TCase *tc_matmul(void) {
  TCase *tc = tcase_create("matmul");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, v1_bad_inputs);
  return tc;
}

static TCase *tc_mul(void) {
  TCase *tc = tcase_create("mul");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, mul_bad_inputs);
  return tc;
}

CH_MAIN("cuda_matmul", tc_table, tc_matmul_v2, tc_matmul, tc_mul)
