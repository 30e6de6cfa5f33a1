/* mul, matmul (v1) and matmul_v2 against plain double-precision loops, over the shared case
 * table cases_matmul.h (the CUDA suite runs the same), plus bad inputs. Expected output
 * shapes are written out by hand in the table from Paddle's rules (fluid matmul_op.cc, phi
 * MatmulInferMeta and MatmulWithFlattenInferMeta) and were checked against Paddle 3.3.1 where
 * it agrees. */
#include <string.h>

#include "cases_matmul.h"
#include "kernels/kernel.h"
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

/* bmm: rank 3 operands with equal batches and inner dims; no broadcasting as matmul_v2. */
START_TEST(bmm_bad_inputs) {
  static const struct {
    int64_t xd[3], yd[3];
    int xr, yr;
    const char *want;
  } cases[] = {
      {{2, 3, 4}, {3, 4, 5}, 3, 3, "has batch 3, expected X's 2"},
      {{2, 3, 4}, {2, 5, 6}, 3, 3, "has 5 rows, expected X's 4 columns"},
      {{3, 4, 0}, {4, 5, 0}, 2, 2, "expected rank 3 [batch, M, K]"},
      {{1, 3, 4}, {1, 4, 0}, 3, 2, "expected rank 3 [batch, K, N]"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char err[1024];
    ic_tensor *out = NULL;
    mu_prog p;
    mu_init(&p);
    ic_tensor *x = mu_rand(IC_FP32, cases[k].xr, cases[k].xd, 1),
              *y = mu_rand(IC_FP32, cases[k].yr, cases[k].yd, 2);
    mu_feed(&p, "x", x);
    mu_feed(&p, "y", y);
    ic_builder_op *op = mu_op(&p, "bmm", "Out");
    ic_builder_in(op, "X", "x");
    ic_builder_in(op, "Y", "y");
    ck_assert_int_eq(mu_run(&p, &out, err, sizeof err), IC_ERR_SHAPE);
    tu_assert_msg(err, "bmm", cases[k].want, NULL);
    ck_assert_ptr_null(out);
    ic_tensor_destroy(x);
    ic_tensor_destroy(y);
  }
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
  /* bool (integers run: oracle case au_int_dtypes), mixed dtypes and rank 0 */
  ic_tensor *xi = mu_rand(IC_BOOL, 2, TU_DIMS(2, 3), 1);
  ic_tensor *yi = mu_rand(IC_BOOL, 2, TU_DIMS(3, 2), 2);
  ck_assert_int_eq(run_v2(xi, yi, false, false, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "bool", "int32 or int64 or float32 or float64", NULL);
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

/* fc's refusals (its values are checked against Paddle: oracle case fc_modes). */
static ic_status run_fc(ic_tensor *x, ic_tensor *w, ic_tensor *b, int ncd, const char *act,
                        bool pad, ic_tensor **out, char *err) {
  mu_prog p;
  mu_init(&p);
  mu_feed(&p, "x", x);
  mu_feed(&p, "w", w);
  if (b) mu_feed(&p, "b", b);
  ic_builder_op *op = mu_op(&p, "fc", "Out");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "W", "w");
  if (b) ic_builder_in(op, "Bias", "b");
  ic_builder_attr_int(op, "in_num_col_dims", ncd);
  ic_builder_attr_string(op, "activation_type", act);
  ic_builder_attr_bool(op, "padding_weights", pad);
  return mu_run(&p, out, err, 1024);
}

START_TEST(fc_bad_inputs) {
  char err[1024];
  ic_tensor *out;
  ic_tensor *x = mu_rand(IC_FP32, 3, TU_DIMS(2, 3, 4), 1);
  ic_tensor *w = mu_rand(IC_FP32, 2, TU_DIMS(5, 6), 2);
  ic_tensor *b = mu_rand(IC_FP32, 1, TU_DIMS(6), 3);
  ic_tensor *b7 = mu_rand(IC_FP32, 1, TU_DIMS(7), 3);
  ck_assert_int_eq(run_fc(x, w, b, 2, "", false, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Input 'x'", "[2, 3, 4]", "4 columns", "W 'w'", "5 rows", NULL);
  ck_assert_int_eq(run_fc(x, w, b, 3, "", false, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Input 'x'", "in_num_col_dims (3)", NULL);
  ck_assert_int_eq(run_fc(x, w, b, 0, "", false, &out, err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "in_num_col_dims", ">= 1", NULL);
  ck_assert_int_eq(run_fc(x, w, b, 1, "gelu", false, &out, err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "activation_type", "'gelu'", "'relu'", NULL);
  ic_tensor *w12 = mu_rand(IC_FP32, 2, TU_DIMS(12, 6), 2);
  ck_assert_int_eq(run_fc(x, w12, b7, 1, "", false, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Bias 'b'", "[6] or [1, 6]", NULL);
  ck_assert_int_eq(run_fc(x, w12, NULL, 1, "relu", false, &out, err), IC_ERR_INVALID_ARGUMENT);
  tu_assert_msg(err, "relu", "Bias", NULL);
  /* padding_weights: W [K + 4, N + 4] */
  ck_assert_int_eq(run_fc(x, w12, NULL, 1, "", true, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "W 'w'", "8 rows", "padding_weights", NULL);
  ic_tensor *w2 = mu_rand(IC_FP32, 2, TU_DIMS(2, 3), 2);
  ck_assert_int_eq(run_fc(x, w2, NULL, 2, "", true, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "W 'w'", "[4, 4]", NULL);
  ic_tensor *all[] = {x, w, b, b7, w12, w2};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) ic_tensor_destroy(all[i]);
}
END_TEST

/* Every row of the shared table: Out's dtype and dims as written in the row; matmul_v2's
 * values against ref_matmul_v2, matmul's and mul's against the row's `batches` products. */
START_TEST(table_cases) {
  for (size_t i = 0; i < CMM_N_CASES; i++) {
    const cmm_case *c = &cmm_cases[i];
    ic_tensor *x, *y, *out;
    cmm_inputs(c, 1 + 2 * i, &x, &y);
    ic_builder *b = cmm_program(c, x, y);
    char err[1024];
    ic_status st = tu_run(b, 2, TU_NAMES("x", "y"), (ic_tensor *const[]){x, y}, 1,
                          TU_NAMES("out"), &out, err, sizeof err);
    ck_assert_msg(st == IC_OK, "row %zu (%s): %s", i, cmm_types[c->op], err);
    tu_assert_shape(out, c->dt, c->on, c->od);
    int64_t n;
    double *ref;
    if (c->op == CMM_V2) {
      ref = ref_matmul_v2(x, y, c->tx, c->ty, &n);
    } else {
      double *xv = mu_f64(x), *yv = mu_f64(y);
      n = c->batches * c->M * c->N;
      ref = malloc(sizeof(double) * (size_t)(n + 1));
      for (int64_t k = 0; k < c->batches; k++) {
        ref_gemm(xv + k * c->xstep, yv + k * c->ystep, ref + k * c->M * c->N, c->M, c->K, c->N,
                 c->tx, c->ty, c->op == CMM_V1 ? c->alpha : 1.0);
      }
      free(xv);
      free(yv);
    }
    ck_assert_int_eq(n, ic_tensor_numel(out));
    tu_assert_close(out, ref, (size_t)n, tol(c->dt), tol(c->dt));
    free(ref);
    ic_tensor_destroy(out);
    ic_tensor_destroy(x);
    ic_tensor_destroy(y);
    ic_builder_destroy(b);
  }
}
END_TEST

/* A kernel's team size inside an OpenMP region, even an inactive one, is 1 (a team opened
 * there would be nested: a second set of libgomp threads). Outside, the env's threads
 * (1 under TSan, where the kernels' own loops stay single-threaded). */
START_TEST(omp_threads_never_nested) {
  ic_kenv env = {.intra_threads = 2};
  int outside = ic_omp_threads(&env), inside = -1, in_team = -1;
#ifdef IC_OMP_UNDER_TSAN
  ck_assert_int_eq(outside, 1);
#else
  ck_assert_int_eq(outside, 2);
#endif
  int off = 0;
#pragma omp parallel num_threads(2) if (off)
  inside = ic_omp_threads(&env);
  ck_assert_int_eq(inside, 1);
#pragma omp parallel num_threads(2)
  {
#pragma omp master
    in_team = ic_omp_threads(&env);
  }
  ck_assert_int_eq(in_team, 1);
  ck_assert_int_eq(ic_omp_threads(&env), outside);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * The linear-layer rewrite (fuse_linear.c, CPU plans): matmul_v2(X, W) or mul(X, W) then
 * elementwise_add(that, b) along the last axis becomes one fc, bitwise the unfused result at
 * 1 and 2 threads (a product large enough for the fc's bias pass to split over the threads
 * included). Not rewritten with trans_y, with the bias along another axis (different values),
 * with the product fetched too, or with a [1, N] bias.
 * ------------------------------------------------------------------------------------- */

typedef struct lin_case {
  const char *name;
  int mul_ncd;       /* mul with this x_num_col_dims, else (0) matmul_v2 */
  int xr;            /* X's rank: [B..., M, K], or mul's X */
  int64_t xd[3];
  int64_t k, n;
  bool trans_y;      /* W stored [N, K] with trans_y */
  int axis;          /* the add's axis */
  bool fetch_m;      /* the product is fetched too */
  bool b2d;          /* b declared [1, N] */
  bool fused;        /* expected: one fc, no matmul_v2 */
  bool relu;         /* a relu after the add, fetched: fc's activation_type unless */
  bool fetch_y;      /* the add's output is fetched too (then the relu stays) */
  float v1_alpha;    /* nonzero: the product is matmul (v1) with this alpha */
} lin_case;

static const lin_case k_lin[] = {
    /* name, mul_ncd, xr, xd, k, n, trans_y, axis, fetch_m, b2d, fused, relu, fetch_y, v1 */
    {"rank 2", 0, 2, {5, 12}, 12, 7, false, -1, false, false, true, false, false, 0},
    {"rank 3, axis 2", 0, 3, {2, 4, 12}, 12, 9, false, 2, false, false, true, false, false, 0},
    {"rank 3, large", 0, 3, {4, 128, 32}, 32, 160, false, -1, false, false, true, false, false,
     0},
    {"trans_y", 0, 2, {5, 12}, 12, 7, true, -1, false, false, false, false, false, 0},
    {"bias along axis 1", 0, 3, {2, 7, 12}, 12, 7, false, 1, false, false, false, false, false,
     0},
    {"product fetched", 0, 2, {5, 12}, 12, 7, false, -1, true, false, false, false, false, 0},
    {"bias [1, N]", 0, 2, {5, 12}, 12, 7, false, -1, false, true, false, false, false, 0},
    {"mul, x_num_col_dims 1, rank 3", 1, 3, {5, 3, 4}, 12, 7, false, 1, false, false, true, false,
     false, 0},
    {"mul, x_num_col_dims 2", 2, 3, {2, 4, 12}, 12, 9, false, -1, false, false, true, false, false,
     0},
    {"mul, bias along axis 0", 1, 2, {7, 12}, 12, 7, false, 0, false, false, false, false, false,
     0},
    {"relu", 0, 3, {2, 4, 12}, 12, 9, false, -1, false, false, true, true, false, 0},
    {"mul, relu, large", 1, 2, {512, 32}, 32, 160, false, 1, false, false, true, true, false, 0},
    {"relu, sum fetched", 0, 2, {5, 12}, 12, 7, false, -1, false, false, true, true, true, 0},
    {"relu, unfused", 0, 2, {5, 12}, 12, 7, true, -1, false, false, false, true, false, 0},
    {"matmul v1, rank 3", 0, 3, {2, 4, 12}, 12, 9, false, -1, false, false, true, false, false,
     1.0f},
    {"matmul v1, rank 2, relu", 0, 2, {5, 12}, 12, 7, false, 1, false, false, true, true, false,
     1.0f},
    {"matmul v1, alpha 2", 0, 2, {5, 12}, 12, 7, false, -1, false, false, false, false, false,
     2.0f},
    {"matmul v1, transpose_Y", 0, 2, {5, 12}, 12, 7, true, -1, false, false, false, false, false,
     1.0f},
};

START_TEST(linear_fusion) {
  for (size_t c = 0; c < sizeof k_lin / sizeof k_lin[0]; c++) {
    const lin_case *k = &k_lin[c];
    /* the product: X's leading dims (all but the last, or mul's x_num_col_dims) and N */
    const int mr = k->mul_ncd ? k->mul_ncd + 1 : k->xr;
    int64_t md[3];
    memcpy(md, k->xd, sizeof md);
    md[mr - 1] = k->n;
    const int64_t wd[2] = {k->trans_y ? k->n : k->k, k->trans_y ? k->k : k->n};
    const int64_t bd[2] = {1, k->n};
    ic_builder *b = ic_builder_create();
    tu_var(b, "x", IC_FP32, k->xr, k->xd);
    tu_var(b, "w", IC_FP32, 2, wd);
    if (k->b2d) tu_var(b, "b", IC_FP32, 2, bd);
    else tu_var(b, "b", IC_FP32, 1, bd + 1);
    tu_var(b, "m", IC_FP32, mr, md);
    tu_var(b, "y", IC_FP32, mr, md);
    tu_var(b, "r", IC_FP32, mr, md);
    ic_builder_feed(b, "x");
    ic_builder_feed(b, "w");
    ic_builder_feed(b, "b");
    ic_builder_op *op =
        ic_builder_add_op(b, 0, k->mul_ncd ? "mul" : k->v1_alpha != 0 ? "matmul" : "matmul_v2");
    ic_builder_in(op, "X", "x");
    ic_builder_in(op, "Y", "w");
    ic_builder_out(op, "Out", "m");
    if (k->mul_ncd) {
      ic_builder_attr_int(op, "x_num_col_dims", k->mul_ncd);
      ic_builder_attr_int(op, "y_num_col_dims", 1);
    } else if (k->v1_alpha != 0) {
      ic_builder_attr_bool(op, "transpose_X", false);
      ic_builder_attr_bool(op, "transpose_Y", k->trans_y);
      ic_builder_attr_float(op, "alpha", k->v1_alpha);
    } else {
      ic_builder_attr_bool(op, "trans_x", false);
      ic_builder_attr_bool(op, "trans_y", k->trans_y);
    }
    op = ic_builder_add_op(b, 0, "elementwise_add");
    ic_builder_in(op, "X", "m");
    ic_builder_in(op, "Y", "b");
    ic_builder_out(op, "Out", "y");
    ic_builder_attr_int(op, "axis", k->axis);
    if (k->relu) {
      op = ic_builder_add_op(b, 0, "relu");
      ic_builder_in(op, "X", "y");
      ic_builder_out(op, "Out", "r");
    }
    /* fetched: the last op's output, then the sum (fetch_y) or the product (fetch_m) */
    const char *fetch[3];
    size_t n_fetch = 0;
    fetch[n_fetch++] = k->relu ? "r" : "y";
    if (k->fetch_y) fetch[n_fetch++] = "y";
    if (k->fetch_m) fetch[n_fetch++] = "m";
    for (size_t i = 0; i < n_fetch; i++) ic_builder_fetch(b, fetch[i]);
    ic_program *p;
    char err[1024];
    ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s: %s", k->name, err);
    ic_builder_destroy(b);
    ic_tensor *fv[3] = {tu_rand_f32(k->xr, k->xd, 3, -1, 1), tu_rand_f32(2, wd, 4, -1, 1),
                        k->b2d ? tu_rand_f32(2, bd, 5, -1, 1) : tu_rand_f32(1, bd + 1, 5, -1, 1)};
    const char *feeds[3] = {"x", "w", "b"};
    ic_tensor *ref[3], *f1[3], *f2[3];
    ck_assert_msg(tu_run_scope(p, NULL, 3, feeds, fv, n_fetch, fetch, ref, err, sizeof err) ==
                      IC_OK,
                  "%s: %s", k->name, err);
    /* instructions of fc, of the three products, and of relu; at 1 and at 2 threads */
    static const char *const types[] = {"fc", "matmul_v2", "mul", "matmul", "relu"};
    size_t c1[5], c2[5];
    tu_run_rewritten(p, NULL, 3, feeds, fv, n_fetch, fetch, 1, f1, 5, types, c1);
    tu_run_rewritten(p, NULL, 3, feeds, fv, n_fetch, fetch, 2, f2, 5, types, c2);
    const size_t fc1 = c1[0], mm1 = c1[1] + c1[2] + c1[3], r1 = c1[4];
    const size_t want_relu = k->relu && (!k->fused || k->fetch_y);
    ck_assert_msg(fc1 == (size_t)k->fused && mm1 == (size_t)!k->fused && r1 == want_relu &&
                      !memcmp(c1, c2, sizeof c1),
                  "%s: %zu fc, %zu product and %zu relu instructions, expected %d, %d and %zu",
                  k->name, fc1, mm1, r1, k->fused, !k->fused, want_relu);
    tu_assert_shape(f1[0], IC_FP32, mr, md);
    for (size_t i = 0; i < n_fetch; i++) {
      tu_assert_bitwise(f1[i], ref[i], k->name);
      tu_assert_bitwise(f2[i], ref[i], k->name);
      ic_tensor_destroy(ref[i]);
      ic_tensor_destroy(f1[i]);
      ic_tensor_destroy(f2[i]);
    }
    for (int i = 0; i < 3; i++) ic_tensor_destroy(fv[i]);
    ic_program_destroy(p);
  }
}
END_TEST

/* A fused linear layer whose X has another rank at run time than its VarDesc declares (a
 * reshape2 whose Out claims rank 3 but makes rank 2): with the bias added along the last axis
 * the fc takes the product's rows at run time as matmul_v2 does, so the result is the unfused
 * one, dims included; along a fixed axis (2) both fail, the fc saying what it assumed. */
START_TEST(linear_fusion_runtime_rank) {
  for (int axis_k = 0; axis_k < 2; axis_k++) {
    const int64_t xd[3] = {2, 3, 16}, x2d[3] = {-1, -1, 16}, wd[2] = {16, 8}, bd[1] = {8};
    const int64_t md[3] = {-1, -1, 8};
    ic_builder *b = ic_builder_create();
    tu_var(b, "x", IC_FP32, 3, xd);
    tu_var(b, "x2", IC_FP32, 3, x2d);
    tu_var(b, "w", IC_FP32, 2, wd);
    tu_var(b, "b", IC_FP32, 1, bd);
    tu_var(b, "m", IC_FP32, 3, md);
    tu_var(b, "y", IC_FP32, 3, md);
    ic_builder_feed(b, "x");
    ic_builder_feed(b, "w");
    ic_builder_feed(b, "b");
    ic_builder_op *op = ic_builder_add_op(b, 0, "reshape2");
    ic_builder_in(op, "X", "x");
    ic_builder_out(op, "Out", "x2");
    const int32_t shape[2] = {6, 16};
    ic_builder_attr_ints(op, "shape", 2, shape);
    op = ic_builder_add_op(b, 0, "matmul_v2");
    ic_builder_in(op, "X", "x2");
    ic_builder_in(op, "Y", "w");
    ic_builder_out(op, "Out", "m");
    op = ic_builder_add_op(b, 0, "elementwise_add");
    ic_builder_in(op, "X", "m");
    ic_builder_in(op, "Y", "b");
    ic_builder_out(op, "Out", "y");
    ic_builder_attr_int(op, "axis", axis_k ? 2 : -1);
    ic_builder_fetch(b, "y");
    ic_program *p;
    char err[1024];
    ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
    ic_builder_destroy(b);
    ic_tensor *fv[3] = {tu_rand_f32(3, xd, 3, -1, 1), tu_rand_f32(2, wd, 4, -1, 1),
                        tu_rand_f32(1, bd, 5, -1, 1)};
    const char *feeds[3] = {"x", "w", "b"}, *fetch[1] = {"y"};
    ic_tensor *ref[1], *f1[1];
    ic_status st = tu_run_scope(p, NULL, 3, feeds, fv, 1, fetch, ref, err, sizeof err);
    if (!axis_k) {
      ck_assert_msg(st == IC_OK, "unfused: %s", err);
      static const char *const types[] = {"fc"};
      size_t n_fc;
      tu_run_rewritten(p, NULL, 3, feeds, fv, 1, fetch, 1, f1, 1, types, &n_fc);
      ck_assert_uint_eq(n_fc, 1);
      tu_assert_shape(f1[0], IC_FP32, 2, (const int64_t[]){6, 8});
      tu_assert_bitwise(f1[0], ref[0], "runtime rank");
      ic_tensor_destroy(ref[0]);
      ic_tensor_destroy(f1[0]);
    } else {
      /* the add along axis 2 of a rank-2 product: an error unfused, and one fused that says
       * what the rewrite assumed */
      ck_assert_msg(st == IC_ERR_SHAPE || st == IC_ERR_INVALID_ARGUMENT, "unfused: %d %s", st, err);
      ic_options o;
      ic_options_default(&o);
      o.fuse = true;
      ic_executor *e;
      ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
      st = ic_executor_run(e, p, NULL, 3, feeds, (const ic_tensor *const *)fv, 1, fetch, f1);
      ck_assert_int_ne(st, IC_OK);
      const char *msg = ic_executor_errmsg(e);
      ck_assert_msg(strstr(msg, "(fc)") && strstr(msg, "'x2'") && strstr(msg, "expected rank 3") &&
                        strstr(msg, "--no-fuse"),
                    "%s", msg);
      ic_executor_destroy(e);
    }
    for (int i = 0; i < 3; i++) ic_tensor_destroy(fv[i]);
    ic_program_destroy(p);
  }
}
END_TEST

static TCase *tc_table(void) {
  TCase *tc = tcase_create("table");
  tcase_add_test(tc, table_cases);
  tcase_add_test(tc, omp_threads_never_nested);
  return tc;
}

static TCase *tc_matmul_v2(void) {
  TCase *tc = tcase_create("matmul_v2");
  tcase_add_test(tc, v2_bad_inputs);
  tcase_add_test(tc, bmm_bad_inputs);
  tcase_add_test(tc, linear_fusion);
  tcase_add_test(tc, linear_fusion_runtime_rank);
  return tc;
}

static TCase *tc_matmul(void) {
  TCase *tc = tcase_create("matmul");
  tcase_add_test(tc, v1_bad_inputs);
  return tc;
}

static TCase *tc_mul(void) {
  TCase *tc = tcase_create("mul");
  tcase_add_test(tc, mul_bad_inputs);
  tcase_add_test(tc, fc_bad_inputs);
  return tc;
}

TU_MAIN("ops_matmul", tc_table, tc_matmul_v2, tc_matmul, tc_mul)
