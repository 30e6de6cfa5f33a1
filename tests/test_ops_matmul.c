/* mul, matmul (v1) and matmul_v2 against plain double-precision loops. Expected output shapes
 * are written out by hand from Paddle's rules (fluid matmul_op.cc, phi MatmulInferMeta and
 * MatmulWithFlattenInferMeta) and were checked against Paddle 3.3.1 where it agrees. */
#include "mathutil.h"

/* c[M x N] = alpha * op(a) * op(b) where a is stored [M, K] ([K, M] when ta) and b [K, N]
 * ([N, K] when tb). */
static void ref_gemm(const double *a, const double *b, double *c, int64_t M, int64_t K,
                     int64_t N, bool ta, bool tb, double alpha) {
  for (int64_t m = 0; m < M; m++) {
    for (int64_t n = 0; n < N; n++) {
      double s = 0;
      for (int64_t k = 0; k < K; k++) {
        double av = ta ? a[k * M + m] : a[m * K + k];
        double bv = tb ? b[n * K + k] : b[k * N + n];
        s += av * bv;
      }
      c[m * N + n] = alpha * s;
    }
  }
}

static double tol(ic_dtype dt) { return dt == IC_FP32 ? 2e-5 : 1e-12; }

/* ---- matmul_v2 ---------------------------------------------------------------------- */

/* numpy.matmul with Paddle's batch rule (dims pair when equal or either is <= 1; a 0 wins),
 * written with an index unravel per output matrix. */
static double *ref_matmul_v2(const ic_tensor *xt, const ic_tensor *yt, bool tx, bool ty,
                             int64_t *n_out) {
  double *x = mu_f64(xt), *y = mu_f64(yt);
  int xn = ic_tensor_ndim(xt), yn = ic_tensor_ndim(yt);
  int64_t xd[IC_MAX_RANK + 1], yd[IC_MAX_RANK + 1];
  memcpy(xd, ic_tensor_dims(xt), sizeof(int64_t) * (size_t)xn);
  memcpy(yd, ic_tensor_dims(yt), sizeof(int64_t) * (size_t)yn);
  if (xn == 1) {
    xd[1] = xd[0];
    xd[0] = 1;
    xn = 2;
    tx = false;
  }
  if (yn == 1) {
    yd[1] = 1;
    yn = 2;
    ty = false;
  }
  int64_t M = tx ? xd[xn - 1] : xd[xn - 2], K = tx ? xd[xn - 2] : xd[xn - 1];
  int64_t N = ty ? yd[yn - 2] : yd[yn - 1];
  int nb = (xn > yn ? xn : yn) - 2;
  int64_t bx[IC_MAX_RANK], by[IC_MAX_RANK], bo[IC_MAX_RANK], nbo = 1;
  for (int i = 0; i < nb; i++) {
    int xi = i - (nb - (xn - 2)), yi = i - (nb - (yn - 2));
    bx[i] = xi >= 0 ? xd[xi] : 1;
    by[i] = yi >= 0 ? yd[yi] : 1;
    bo[i] = bx[i] == 0 || by[i] == 0 ? 0 : bx[i] > by[i] ? bx[i] : by[i];
    nbo *= bo[i];
  }
  *n_out = nbo * M * N;
  double *out = malloc(sizeof(double) * (size_t)(*n_out ? *n_out : 1));
  for (int64_t ob = 0; ob < nbo; ob++) {
    int64_t rest = ob, xoff = 0, yoff = 0, xs = 1, ys = 1;
    for (int i = nb - 1; i >= 0; i--) {
      int64_t idx = rest % bo[i];
      rest /= bo[i];
      xoff += (bx[i] == 1 ? 0 : idx) * xs;
      yoff += (by[i] == 1 ? 0 : idx) * ys;
      xs *= bx[i];
      ys *= by[i];
    }
    ref_gemm(x + xoff * M * K, y + yoff * K * N, out + ob * M * N, M, K, N, tx, ty, 1.0);
  }
  free(x);
  free(y);
  return out;
}

static ic_status run_v2(ic_tensor *x, ic_tensor *y, bool tx, bool ty, ic_tensor **out,
                        char *err) {
  mu_prog p;
  mu_init(&p);
  mu_feed(&p, "x", x);
  mu_feed(&p, "y", y);
  ic_builder_op *op = mu_op(&p, "matmul_v2", "Out");
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Y", "y");
  ic_builder_attr_bool(op, "trans_x", tx);
  ic_builder_attr_bool(op, "trans_y", ty);
  return mu_run(&p, out, err, 1024);
}

static void check_v2(ic_dtype dt, int xn, const int64_t *xd, int yn, const int64_t *yd, bool tx,
                     bool ty, int on, const int64_t *od) {
  ic_tensor *x = mu_rand(dt, xn, xd, 1 + (uint64_t)xn), *y = mu_rand(dt, yn, yd, 7 + (uint64_t)yn);
  ic_tensor *out;
  char err[1024];
  ck_assert_msg(run_v2(x, y, tx, ty, &out, err) == IC_OK, "%s", err);
  tu_assert_shape(out, dt, on, od);
  int64_t n;
  double *ref = ref_matmul_v2(x, y, tx, ty, &n);
  tu_assert_close(out, ref, (size_t)n, tol(dt), tol(dt));
  free(ref);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  ic_tensor_destroy(y);
}

START_TEST(v2_transposes_2d) {
  /* M = 3, K = 5, N = 7: sizes that fill no vector register */
  for (int t = 0; t < 4; t++) {
    bool tx = t & 1, ty = t & 2;
    check_v2(IC_FP32, 2, tx ? TU_DIMS(5, 3) : TU_DIMS(3, 5), 2, ty ? TU_DIMS(7, 5) : TU_DIMS(5, 7),
             tx, ty, 2, TU_DIMS(3, 7));
    check_v2(IC_FP64, 2, tx ? TU_DIMS(5, 3) : TU_DIMS(3, 5), 2, ty ? TU_DIMS(7, 5) : TU_DIMS(5, 7),
             tx, ty, 2, TU_DIMS(3, 7));
  }
  check_v2(IC_FP32, 2, TU_DIMS(17, 33), 2, TU_DIMS(33, 9), false, false, 2, TU_DIMS(17, 9));
  check_v2(IC_FP32, 2, TU_DIMS(1, 1), 2, TU_DIMS(1, 1), false, false, 2, TU_DIMS(1, 1));
}
END_TEST

START_TEST(v2_transposes_batched) {
  for (int t = 0; t < 4; t++) {
    bool tx = t & 1, ty = t & 2;
    /* equal batches */
    check_v2(IC_FP32, 3, tx ? TU_DIMS(2, 4, 3) : TU_DIMS(2, 3, 4), 3,
             ty ? TU_DIMS(2, 5, 4) : TU_DIMS(2, 4, 5), tx, ty, 3, TU_DIMS(2, 3, 5));
    /* a batched X against a plain Y (the stacked-rows path when X is not transposed) */
    check_v2(IC_FP64, 4, tx ? TU_DIMS(2, 3, 4, 3) : TU_DIMS(2, 3, 3, 4), 2,
             ty ? TU_DIMS(5, 4) : TU_DIMS(4, 5), tx, ty, 4, TU_DIMS(2, 3, 3, 5));
    /* a plain X against a batched Y */
    check_v2(IC_FP32, 2, tx ? TU_DIMS(4, 3) : TU_DIMS(3, 4), 3,
             ty ? TU_DIMS(3, 5, 4) : TU_DIMS(3, 4, 5), tx, ty, 3, TU_DIMS(3, 3, 5));
  }
}
END_TEST

START_TEST(v2_vectors) {
  for (int t = 0; t < 4; t++) {
    bool tx = t & 1, ty = t & 2;
    /* 1-D x 1-D: a rank-0 dot product, transposes ignored */
    check_v2(IC_FP32, 1, TU_DIMS(4), 1, TU_DIMS(4), tx, ty, 0, NULL);
    check_v2(IC_FP64, 1, TU_DIMS(1), 1, TU_DIMS(1), tx, ty, 0, NULL);
    /* 1-D x N-D: X's transpose ignored, Y's honoured */
    check_v2(IC_FP32, 1, TU_DIMS(4), 3, ty ? TU_DIMS(2, 3, 4) : TU_DIMS(2, 4, 3), tx, ty, 2,
             TU_DIMS(2, 3));
    check_v2(IC_FP32, 1, TU_DIMS(4), 2, ty ? TU_DIMS(3, 4) : TU_DIMS(4, 3), tx, ty, 1,
             TU_DIMS(3));
    /* N-D x 1-D */
    check_v2(IC_FP32, 3, tx ? TU_DIMS(2, 4, 3) : TU_DIMS(2, 3, 4), 1, TU_DIMS(4), tx, ty, 2,
             TU_DIMS(2, 3));
    check_v2(IC_FP64, 2, tx ? TU_DIMS(4, 3) : TU_DIMS(3, 4), 1, TU_DIMS(4), tx, ty, 1,
             TU_DIMS(3));
  }
}
END_TEST

START_TEST(v2_broadcast) {
  check_v2(IC_FP32, 4, TU_DIMS(2, 1, 3, 4), 3, TU_DIMS(5, 4, 2), false, false, 4,
           TU_DIMS(2, 5, 3, 2));
  check_v2(IC_FP64, 4, TU_DIMS(2, 1, 4, 3), 3, TU_DIMS(5, 2, 4), true, true, 4,
           TU_DIMS(2, 5, 3, 2));
  check_v2(IC_FP32, 3, TU_DIMS(1, 3, 4), 4, TU_DIMS(2, 3, 4, 5), false, false, 4,
           TU_DIMS(2, 3, 3, 5));
  check_v2(IC_FP32, 4, TU_DIMS(3, 1, 2, 4), 4, TU_DIMS(1, 2, 4, 3), false, false, 4,
           TU_DIMS(3, 2, 2, 3));
}
END_TEST

START_TEST(v2_empty) {
  /* a zero batch dim pairs with anything and empties Out */
  check_v2(IC_FP32, 4, TU_DIMS(2, 0, 3, 4), 3, TU_DIMS(5, 4, 2), false, false, 4,
           TU_DIMS(2, 0, 3, 2));
  check_v2(IC_FP32, 3, TU_DIMS(0, 3, 4), 3, TU_DIMS(5, 4, 2), false, false, 3, TU_DIMS(0, 3, 2));
  /* K = 0: zeros */
  check_v2(IC_FP32, 2, TU_DIMS(3, 0), 2, TU_DIMS(0, 2), false, false, 2, TU_DIMS(3, 2));
  check_v2(IC_FP64, 1, TU_DIMS(0), 1, TU_DIMS(0), false, false, 0, NULL);
  /* M = 0 and N = 0 */
  check_v2(IC_FP32, 2, TU_DIMS(0, 4), 2, TU_DIMS(4, 2), false, false, 2, TU_DIMS(0, 2));
  check_v2(IC_FP32, 2, TU_DIMS(3, 4), 2, TU_DIMS(4, 0), false, false, 2, TU_DIMS(3, 0));
}
END_TEST

START_TEST(v2_bad_inputs) {
  char err[1024];
  ic_tensor *out;
  ic_tensor *x = mu_rand(IC_FP32, 2, TU_DIMS(2, 3), 1), *y = mu_rand(IC_FP32, 2, TU_DIMS(4, 5), 2);
  ck_assert_int_eq(run_v2(x, y, false, false, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "matmul_v2", "X 'x'", "[2, 3]", "Y 'y'", "[4, 5]", NULL);
  ck_assert_ptr_null(out);
  ic_tensor_destroy(y);
  /* batch dims 2 and 3 do not broadcast */
  ic_tensor *xb = mu_rand(IC_FP32, 3, TU_DIMS(2, 3, 4), 1);
  y = mu_rand(IC_FP32, 3, TU_DIMS(3, 4, 2), 2);
  ck_assert_int_eq(run_v2(xb, y, false, false, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "[2, 3, 4]", "Y 'y'", "[3, 4, 2]", "2 against 3", NULL);
  ic_tensor_destroy(y);
  ic_tensor_destroy(xb);
  /* integers, mixed dtypes and rank 0 */
  ic_tensor *xi = mu_rand(IC_INT32, 2, TU_DIMS(2, 3), 1);
  ic_tensor *yi = mu_rand(IC_INT32, 2, TU_DIMS(3, 2), 2);
  ck_assert_int_eq(run_v2(xi, yi, false, false, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "int32", "float32 or float64", NULL);
  y = mu_rand(IC_FP64, 2, TU_DIMS(3, 2), 2);
  ck_assert_int_eq(run_v2(x, y, false, false, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Y 'y'", "float64[3, 2]", "float32", NULL);
  ic_tensor_destroy(y);
  ic_tensor *s = mu_rand(IC_FP32, 0, NULL, 3);
  ck_assert_int_eq(run_v2(s, x, false, false, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "rank >= 1", NULL);
  ic_tensor_destroy(s);
  /* oneDNN fuse attributes are refused */
  mu_prog p;
  mu_init(&p);
  ic_tensor *y3 = mu_rand(IC_FP32, 2, TU_DIMS(3, 2), 2);
  mu_feed(&p, "x", x);
  mu_feed(&p, "y", y3);
  ic_builder_op *op = mu_op(&p, "matmul_v2", "Out");
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Y", "y");
  ic_builder_attr_ints(op, "fused_reshape_Out", 2, (const int32_t[]){2, 2});
  ck_assert_int_eq(mu_run(&p, &out, err, sizeof err), IC_ERR_UNSUPPORTED);
  tu_assert_msg(err, "fused_reshape_Out", NULL);
  ic_tensor_destroy(y3);
  ic_tensor_destroy(xi);
  ic_tensor_destroy(yi);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- matmul (v1) ------------------------------------------------------------------------ */

static ic_status run_v1(ic_tensor *x, ic_tensor *y, bool tx, bool ty, double alpha,
                        ic_tensor **out, char *err) {
  mu_prog p;
  mu_init(&p);
  mu_feed(&p, "x", x);
  mu_feed(&p, "y", y);
  ic_builder_op *op = mu_op(&p, "matmul", "Out");
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Y", "y");
  ic_builder_attr_bool(op, "transpose_X", tx);
  ic_builder_attr_bool(op, "transpose_Y", ty);
  ic_builder_attr_float(op, "alpha", (float)alpha);
  /* what Paddle 2.x exports beside them */
  ic_builder_attr_int(op, "head_number", 1);
  ic_builder_attr_ints(op, "fused_reshape_X", 0, NULL);
  ic_builder_attr_float(op, "Scale_x", 1.0f);
  ic_builder_attr_bool(op, "use_mkldnn", false);
  return mu_run(&p, out, err, 1024);
}

/* Run matmul on random X and Y, then compare with `batches` products of the given sizes:
 * product b reads X at b * xstep and Y at b * ystep (element offsets) and writes Out at
 * b * M * N. */
static void check_v1(ic_dtype dt, int xn, const int64_t *xd, int yn, const int64_t *yd, bool tx,
                     bool ty, double alpha, int on, const int64_t *od, int64_t batches,
                     int64_t xstep, int64_t ystep, int64_t M, int64_t K, int64_t N) {
  ic_tensor *x = mu_rand(dt, xn, xd, 3), *y = mu_rand(dt, yn, yd, 4), *out;
  char err[1024];
  ck_assert_msg(run_v1(x, y, tx, ty, alpha, &out, err) == IC_OK, "%s", err);
  tu_assert_shape(out, dt, on, od);
  double *xv = mu_f64(x), *yv = mu_f64(y);
  double *ref = malloc(sizeof(double) * (size_t)(batches * M * N + 1));
  for (int64_t b = 0; b < batches; b++) {
    ref_gemm(xv + b * xstep, yv + b * ystep, ref + b * M * N, M, K, N, tx, ty, alpha);
  }
  tu_assert_close(out, ref, (size_t)(batches * M * N), tol(dt), tol(dt));
  free(ref);
  free(xv);
  free(yv);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  ic_tensor_destroy(y);
}

START_TEST(v1_transposes_alpha) {
  for (int t = 0; t < 4; t++) {
    bool tx = t & 1, ty = t & 2;
    check_v1(IC_FP32, 2, tx ? TU_DIMS(5, 3) : TU_DIMS(3, 5), 2, ty ? TU_DIMS(7, 5) : TU_DIMS(5, 7),
             tx, ty, 0.5, 2, TU_DIMS(3, 7), 1, 0, 0, 3, 5, 7);
    check_v1(IC_FP64, 3, tx ? TU_DIMS(2, 5, 3) : TU_DIMS(2, 3, 5), 3,
             ty ? TU_DIMS(2, 7, 5) : TU_DIMS(2, 5, 7), tx, ty, -2.0, 3, TU_DIMS(2, 3, 7), 2, 15,
             35, 3, 5, 7);
    /* [B, M, K] x [K, N]: every X matrix against the same Y */
    check_v1(IC_FP32, 3, tx ? TU_DIMS(4, 5, 3) : TU_DIMS(4, 3, 5), 2,
             ty ? TU_DIMS(7, 5) : TU_DIMS(5, 7), tx, ty, 1.0, 3, TU_DIMS(4, 3, 7), 4, 15, 0, 3,
             5, 7);
    /* [M, K] x [B, K, N] */
    check_v1(IC_FP32, 2, tx ? TU_DIMS(5, 3) : TU_DIMS(3, 5), 3,
             ty ? TU_DIMS(2, 7, 5) : TU_DIMS(2, 5, 7), tx, ty, 1.0, 3, TU_DIMS(2, 3, 7), 2, 0, 35,
             3, 5, 7);
  }
}
END_TEST

START_TEST(v1_vectors) {
  /* [K] x [K] gives [1] in matmul v1 (rank 0 in matmul_v2) */
  check_v1(IC_FP32, 1, TU_DIMS(6), 1, TU_DIMS(6), false, false, 1.0, 1, TU_DIMS(1), 1, 0, 0, 1,
           6, 1);
  /* [K] x [K, N] gives [N]; [B, M, K] x [K] gives [B, M]; [K] x [B, K, N] gives [B, N] */
  check_v1(IC_FP32, 1, TU_DIMS(4), 2, TU_DIMS(4, 3), false, false, 1.0, 1, TU_DIMS(3), 1, 0, 0, 1,
           4, 3);
  check_v1(IC_FP64, 3, TU_DIMS(2, 3, 4), 1, TU_DIMS(4), false, false, 1.0, 2, TU_DIMS(2, 3), 2,
           12, 0, 3, 4, 1);
  check_v1(IC_FP32, 1, TU_DIMS(4), 3, TU_DIMS(2, 4, 3), false, false, 3.0, 2, TU_DIMS(2, 3), 2, 0,
           12, 1, 4, 3);
  /* v1 transposes a 1-D X into a column: [4]^T x [1, 3] is the outer product [4, 3] */
  check_v1(IC_FP32, 1, TU_DIMS(4), 2, TU_DIMS(1, 3), true, false, 1.0, 2, TU_DIMS(4, 3), 1, 0, 0,
           4, 1, 3);
  /* and a 1-D Y into a row: [2, 3, 1] x [4]^T is [2, 3, 4] */
  check_v1(IC_FP32, 3, TU_DIMS(2, 3, 1), 1, TU_DIMS(4), false, true, 1.0, 3, TU_DIMS(2, 3, 4), 2,
           3, 0, 3, 1, 4);
}
END_TEST

START_TEST(v1_flattened_batches) {
  /* batches pair by flat index when their counts agree: [2, 3] against [6] */
  check_v1(IC_FP32, 4, TU_DIMS(2, 3, 4, 5), 3, TU_DIMS(6, 5, 7), false, false, 1.0, 4,
           TU_DIMS(2, 3, 4, 7), 6, 20, 35, 4, 5, 7);
  check_v1(IC_FP64, 4, TU_DIMS(2, 2, 3, 4), 4, TU_DIMS(2, 2, 4, 5), false, false, 1.0, 4,
           TU_DIMS(2, 2, 3, 5), 4, 12, 20, 3, 4, 5);
  /* zero matrices in the batch */
  check_v1(IC_FP32, 3, TU_DIMS(0, 3, 4), 2, TU_DIMS(4, 5), false, false, 1.0, 3, TU_DIMS(0, 3, 5),
           0, 12, 0, 3, 4, 5);
}
END_TEST

START_TEST(v1_bad_inputs) {
  char err[1024];
  ic_tensor *out;
  /* no broadcasting of 1s in v1: 2 matrices against 5 */
  ic_tensor *x = mu_rand(IC_FP32, 4, TU_DIMS(2, 1, 3, 4), 1);
  ic_tensor *y = mu_rand(IC_FP32, 3, TU_DIMS(5, 4, 2), 2);
  ck_assert_int_eq(run_v1(x, y, false, false, 1.0, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "matmul", "X 'x'", "[2, 1, 3, 4]", "Y 'y'", "[5, 4, 2]", NULL);
  ck_assert_ptr_null(out);
  ic_tensor_destroy(x);
  ic_tensor_destroy(y);
  /* K mismatch */
  x = mu_rand(IC_FP32, 2, TU_DIMS(3, 4), 1);
  y = mu_rand(IC_FP32, 2, TU_DIMS(2, 3), 2);
  ck_assert_int_eq(run_v1(x, y, false, false, 1.0, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "[3, 4]", "width 4", "Y 'y'", "[2, 3]", "height 2", NULL);
  /* with the transpose it fits: [3, 4]^T x [3, 2]^T is invalid, [3, 4]^T x [2, 3]^T is [4, 2] */
  ck_assert_int_eq(run_v1(x, y, true, true, 1.0, &out, err), IC_OK);
  ic_tensor_destroy(out);
  ic_tensor_destroy(y);
  /* head_number is refused */
  mu_prog p;
  mu_init(&p);
  y = mu_rand(IC_FP32, 2, TU_DIMS(4, 2), 2);
  mu_feed(&p, "x", x);
  mu_feed(&p, "y", y);
  ic_builder_op *op = mu_op(&p, "matmul", "Out");
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Y", "y");
  ic_builder_attr_int(op, "head_number", 2);
  ck_assert_int_eq(mu_run(&p, &out, err, sizeof err), IC_ERR_UNSUPPORTED);
  tu_assert_msg(err, "head_number", NULL);
  ic_tensor_destroy(y);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- mul ---------------------------------------------------------------------------------- */

#define NCD_DEFAULT INT32_MIN /* leave the attribute out */

static ic_status run_mul(ic_tensor *x, ic_tensor *y, int xncd, int yncd, ic_tensor **out,
                         char *err) {
  mu_prog p;
  mu_init(&p);
  mu_feed(&p, "x", x);
  mu_feed(&p, "y", y);
  ic_builder_op *op = mu_op(&p, "mul", "Out");
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Y", "y");
  if (xncd != NCD_DEFAULT) ic_builder_attr_int(op, "x_num_col_dims", xncd);
  if (yncd != NCD_DEFAULT) ic_builder_attr_int(op, "y_num_col_dims", yncd);
  return mu_run(&p, out, err, 1024);
}

/* mul is one product of X as [M, K] by Y as [K, N]. */
static void check_mul(ic_dtype dt, int xn, const int64_t *xd, int yn, const int64_t *yd, int xncd,
                      int yncd, int on, const int64_t *od, int64_t M, int64_t K, int64_t N) {
  ic_tensor *x = mu_rand(dt, xn, xd, 5), *y = mu_rand(dt, yn, yd, 6), *out;
  char err[1024];
  ck_assert_msg(run_mul(x, y, xncd, yncd, &out, err) == IC_OK, "%s", err);
  tu_assert_shape(out, dt, on, od);
  double *xv = mu_f64(x), *yv = mu_f64(y), *ref = malloc(sizeof(double) * (size_t)(M * N + 1));
  ref_gemm(xv, yv, ref, M, K, N, false, false, 1.0);
  tu_assert_close(out, ref, (size_t)(M * N), tol(dt), tol(dt));
  free(ref);
  free(xv);
  free(yv);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  ic_tensor_destroy(y);
}

START_TEST(mul_shapes) {
  /* defaults: 1 and 1 */
  check_mul(IC_FP32, 2, TU_DIMS(3, 5), 2, TU_DIMS(5, 7), NCD_DEFAULT, NCD_DEFAULT, 2,
            TU_DIMS(3, 7), 3, 5, 7);
  /* x_num_col_dims 2 on a 4-D X */
  check_mul(IC_FP32, 4, TU_DIMS(2, 3, 4, 5), 2, TU_DIMS(20, 7), 2, 1, 3, TU_DIMS(2, 3, 7), 6, 20,
            7);
  check_mul(IC_FP64, 4, TU_DIMS(2, 3, 4, 5), 4, TU_DIMS(4, 5, 3, 2), 2, 2, 4, TU_DIMS(2, 3, 3, 2),
            6, 20, 6);
  /* Y's trailing dims survive: [3, 4] x [4, 2, 3] is [3, 2, 3] */
  check_mul(IC_FP32, 2, TU_DIMS(3, 4), 3, TU_DIMS(4, 2, 3), 1, 1, 3, TU_DIMS(3, 2, 3), 3, 4, 6);
  /* x_num_col_dims 1 on a 3-D X folds the rest into K */
  check_mul(IC_FP32, 3, TU_DIMS(3, 4, 2), 2, TU_DIMS(8, 3), 1, 1, 2, TU_DIMS(3, 3), 3, 8, 3);
  /* x_num_col_dims 0: one row */
  check_mul(IC_FP32, 3, TU_DIMS(2, 3, 4), 2, TU_DIMS(24, 5), 0, 1, 1, TU_DIMS(5), 1, 24, 5);
  /* odd and empty sizes */
  check_mul(IC_FP32, 2, TU_DIMS(1, 1), 2, TU_DIMS(1, 1), 1, 1, 2, TU_DIMS(1, 1), 1, 1, 1);
  check_mul(IC_FP32, 2, TU_DIMS(0, 4), 2, TU_DIMS(4, 3), 1, 1, 2, TU_DIMS(0, 3), 0, 4, 3);
  check_mul(IC_FP32, 2, TU_DIMS(19, 33), 2, TU_DIMS(33, 17), 1, 1, 2, TU_DIMS(19, 17), 19, 33, 17);
}
END_TEST

START_TEST(mul_bad_inputs) {
  char err[1024];
  ic_tensor *out;
  ic_tensor *x = mu_rand(IC_FP32, 3, TU_DIMS(2, 3, 4), 1);
  ic_tensor *y = mu_rand(IC_FP32, 2, TU_DIMS(5, 3), 2);
  ck_assert_int_eq(run_mul(x, y, 2, 1, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "mul", "X 'x'", "[2, 3, 4]", "4 columns", "Y 'y'", "[5, 3]", "5 rows", NULL);
  /* rank must exceed num_col_dims */
  ck_assert_int_eq(run_mul(x, y, 3, 1, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "x_num_col_dims (3)", NULL);
  ck_assert_int_eq(run_mul(x, y, 1, 2, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Y 'y'", "y_num_col_dims (2)", NULL);
  /* a negative num_col_dims is a malformed program */
  ck_assert_int_eq(run_mul(x, y, -1, 1, &out, err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "x_num_col_dims", "-1", NULL);
  ic_tensor_destroy(y);
  /* an empty Y is refused, as in Paddle */
  y = mu_rand(IC_FP32, 2, TU_DIMS(0, 3), 2);
  ic_tensor *x0 = mu_rand(IC_FP32, 2, TU_DIMS(2, 0), 1);
  ck_assert_int_eq(run_mul(x0, y, 1, 1, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Y 'y'", "at least one element", NULL);
  ic_tensor_destroy(x0);
  ic_tensor_destroy(y);
  ic_tensor_destroy(x);
}
END_TEST

static TCase *tc_matmul_v2(void) {
  TCase *tc = tcase_create("matmul_v2");
  tcase_add_test(tc, v2_transposes_2d);
  tcase_add_test(tc, v2_transposes_batched);
  tcase_add_test(tc, v2_vectors);
  tcase_add_test(tc, v2_broadcast);
  tcase_add_test(tc, v2_empty);
  tcase_add_test(tc, v2_bad_inputs);
  return tc;
}

static TCase *tc_matmul(void) {
  TCase *tc = tcase_create("matmul");
  tcase_add_test(tc, v1_transposes_alpha);
  tcase_add_test(tc, v1_vectors);
  tcase_add_test(tc, v1_flattened_batches);
  tcase_add_test(tc, v1_bad_inputs);
  return tc;
}

static TCase *tc_mul(void) {
  TCase *tc = tcase_create("mul");
  tcase_add_test(tc, mul_shapes);
  tcase_add_test(tc, mul_bad_inputs);
  return tc;
}

TU_MAIN("ops_matmul", tc_matmul_v2, tc_matmul, tc_mul)
