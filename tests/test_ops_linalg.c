/* Errors of the dense linear-algebra ops (cholesky, cholesky_solve, triangular_solve, solve,
 * qr, lu, lu_unpack, svd, eigh, eigvalsh, matrix_rank, lstsq, eig, eigvals): each bad dtype,
 * rank, shape, attribute or value fails with a status and a message naming the op and what
 * was expected. Their values are checked against Paddle (tests/data/paddle_oracle: the
 * *_modes cases of these ops, lstsq_*, eigvalsh_train). */
#include "optest.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})

typedef struct in_spec {
  const char *slot, *name;
  ic_tensor *t;
} in_spec;

/* One op over inputs (slot, name, tensor), its output slots outs (NULL-terminated, each one
 * variable, all fetched); expects failure with code and a message holding the op and want. */
static void expect_fail(const char *type, size_t n, const in_spec *ins, const char *const *outs,
                        void (*attrs)(ic_builder_op *), ic_status code, const char *want) {
  optest t;
  ot_begin(&t);
  for (size_t i = 0; i < n; i++) ot_feed(&t, ins[i].name, ins[i].t);
  ic_builder_op *o = ot_op(&t, type);
  for (size_t i = 0; i < n; i++) ic_builder_in(o, ins[i].slot, ins[i].name);
  if (attrs) attrs(o);
  static const char *const names[] = {"o0", "o1", "o2", "o3"};
  for (size_t i = 0; outs[i]; i++) ot_out(&t, outs[i], names[i]);
  ic_status st = ot_run(&t);
  ck_assert_msg(st == code, "%s: status %s: %s", type, ic_status_name(st), t.err);
  tu_assert_msg(t.err, type, want, NULL);
  ot_end(&t);
}

#define OUTS(...) ((const char *const[]){__VA_ARGS__, NULL})

static ic_tensor *f32(int nd, const int64_t *dims) { return ot_iota(IC_FP32, nd, dims, 1); }
static ic_tensor *f64(int nd, const int64_t *dims) { return ot_iota(IC_FP64, nd, dims, 1); }

/* A float32 [n, n] identity times s. */
static ic_tensor *eye32(int64_t n, float s) {
  ic_tensor *t = ot_iota(IC_FP32, 2, D(n, n), 0);
  float *p = ic_tensor_data(t);
  for (int64_t i = 0; i < n * n; i++) p[i] = i % (n + 1) == 0 ? s : 0.0f;
  return t;
}

START_TEST(cholesky_and_solves_errors) {
  expect_fail("cholesky", 1, (in_spec[]){{"X", "x", f32(1, D(4))}}, OUTS("Out"), NULL,
              IC_ERR_SHAPE, "rank >= 2");
  expect_fail("cholesky", 1, (in_spec[]){{"X", "x", f32(2, D(2, 3))}}, OUTS("Out"), NULL,
              IC_ERR_SHAPE, "square");
  expect_fail("cholesky", 1, (in_spec[]){{"X", "x", ot_iota(IC_INT32, 2, D(2, 2), 1)}},
              OUTS("Out"), NULL, IC_ERR_SHAPE, "dtype");
  /* complex where Paddle's CPU kernel takes only float32 / float64 */
  expect_fail("cholesky", 1, (in_spec[]){{"X", "x", ot_iota(IC_COMPLEX64, 2, D(2, 2), 1)}},
              OUTS("Out"), NULL, IC_ERR_SHAPE, "dtype");
  expect_fail("solve", 2,
              (in_spec[]){{"X", "x", ot_iota(IC_COMPLEX128, 2, D(2, 2), 1)},
                          {"Y", "y", ot_iota(IC_COMPLEX128, 1, D(2), 1)}},
              OUTS("Out"), NULL, IC_ERR_SHAPE, "dtype");
  /* iota [[1, 1.25], [1.5, 1.75]]: the second leading minor is negative */
  expect_fail("cholesky", 1, (in_spec[]){{"X", "x", f32(3, D(2, 2, 2))}}, OUTS("Out"), NULL,
              IC_ERR_KERNEL, "matrix 0 of 2 is not positive definite");
  expect_fail("cholesky_solve", 2,
              (in_spec[]){{"X", "x", f32(2, D(3, 2))}, {"Y", "y", f32(2, D(3, 4))}},
              OUTS("Out"), NULL, IC_ERR_SHAPE, "square");
  expect_fail("cholesky_solve", 2,
              (in_spec[]){{"X", "x", f32(3, D(2, 3, 2))}, {"Y", "y", f32(3, D(3, 3, 3))}},
              OUTS("Out"), NULL, IC_ERR_SHAPE, "do not broadcast");
  expect_fail("cholesky_solve", 2,
              (in_spec[]){{"X", "x", f32(2, D(3, 2))}, {"Y", "y", f64(2, D(3, 3))}},
              OUTS("Out"), NULL, IC_ERR_SHAPE, "X's dtype");
  expect_fail("triangular_solve", 2,
              (in_spec[]){{"X", "x", f32(2, D(3, 3))}, {"Y", "y", f32(2, D(4, 2))}},
              OUTS("Out"), NULL, IC_ERR_SHAPE, "[..., 3, N]");
  expect_fail("triangular_solve", 2,
              (in_spec[]){{"X", "x", f32(2, D(3, 2))}, {"Y", "y", f32(2, D(3, 2))}},
              OUTS("Out"), NULL, IC_ERR_SHAPE, "square");
  /* solve: a singular X (row 1 twice row 0: an exact zero pivot), Y of the wrong height,
   * batches that do not broadcast */
  ic_tensor *sing = tu_f32(2, D(3, 3), (const float[]){1, 2, 3, 2, 4, 6, 1, 1, 1});
  expect_fail("solve", 2, (in_spec[]){{"X", "x", sing}, {"Y", "y", f32(1, D(3))}},
              OUTS("Out"), NULL, IC_ERR_KERNEL, "not invertible");
  expect_fail("solve", 2, (in_spec[]){{"X", "x", eye32(3, 2)}, {"Y", "y", f32(1, D(4))}},
              OUTS("Out"), NULL, IC_ERR_SHAPE, "a vector of 3");
  expect_fail("solve", 2,
              (in_spec[]){{"X", "x", f32(3, D(2, 3, 3))}, {"Y", "y", f32(3, D(3, 3, 1))}},
              OUTS("Out"), NULL, IC_ERR_SHAPE, "do not broadcast");
}
END_TEST

static void qr_bogus(ic_builder_op *o) { ic_builder_attr_string(o, "mode", "full"); }
static void lu_nopivot(ic_builder_op *o) { ic_builder_attr_bool(o, "pivots", false); }

START_TEST(qr_lu_errors) {
  expect_fail("qr", 1, (in_spec[]){{"X", "x", f32(2, D(3, 3))}}, OUTS("Q", "R"), qr_bogus,
              IC_ERR_INVALID_PROGRAM, "expected \"reduced\", \"complete\" or \"r\"");
  expect_fail("qr", 1, (in_spec[]){{"X", "x", f32(1, D(3))}}, OUTS("Q", "R"), NULL,
              IC_ERR_SHAPE, "rank >= 2");
  expect_fail("lu", 1, (in_spec[]){{"X", "x", f32(2, D(3, 3))}}, OUTS("Out", "Pivots", "Infos"),
              lu_nopivot, IC_ERR_INVALID_PROGRAM, "without pivoting");
  /* lu_unpack: a pivot outside [1, m], int64 pivots, pivots of the wrong length */
  expect_fail("lu_unpack", 2,
              (in_spec[]){{"X", "x", f32(2, D(3, 3))},
                          {"Pivots", "p", tu_i32(1, D(3), (const int32_t[]){2, 4, 3})}},
              OUTS("Pmat", "L", "U"), NULL, IC_ERR_SHAPE,
              "holds 4 at [0, 1], expected pivots in [1, 3]");
  expect_fail("lu_unpack", 2,
              (in_spec[]){{"X", "x", f32(2, D(3, 3))},
                          {"Pivots", "p", ot_iota(IC_INT64, 1, D(3), 1)}},
              OUTS("Pmat", "L", "U"), NULL, IC_ERR_SHAPE, "expected int32 [..., 3]");
  expect_fail("lu_unpack", 2,
              (in_spec[]){{"X", "x", f32(2, D(3, 4))},
                          {"Pivots", "p", tu_i32(1, D(4), (const int32_t[]){1, 2, 3, 3})}},
              OUTS("Pmat", "L", "U"), NULL, IC_ERR_SHAPE, "expected int32 [..., 3]");
}
END_TEST

static void uplo_bogus(ic_builder_op *o) { ic_builder_attr_string(o, "UPLO", "X"); }
static void lstsq_bogus(ic_builder_op *o) { ic_builder_attr_string(o, "driver", "gesv"); }
static void lstsq_gels(ic_builder_op *o) {
  ic_builder_attr_string(o, "driver", "gels");
  ic_builder_attr_float(o, "rcond", 0.0f);
}

START_TEST(decomposition_errors) {
  expect_fail("svd", 1, (in_spec[]){{"X", "x", f32(2, D(0, 3))}}, OUTS("U", "S", "VH"), NULL,
              IC_ERR_SHAPE, "m > 0 and n > 0");
  expect_fail("eigh", 1, (in_spec[]){{"X", "x", f32(2, D(3, 3))}},
              OUTS("Eigenvalues", "Eigenvectors"), uplo_bogus, IC_ERR_INVALID_PROGRAM,
              "expected \"L\" or \"U\"");
  expect_fail("eigvalsh", 1, (in_spec[]){{"X", "x", f32(2, D(3, 4))}},
              OUTS("Eigenvalues", "Eigenvectors"), NULL, IC_ERR_SHAPE, "square");
  expect_fail("eig", 1, (in_spec[]){{"X", "x", f64(3, D(2, 3, 4))}},
              OUTS("Eigenvalues", "Eigenvectors"), NULL, IC_ERR_SHAPE, "square");
  expect_fail("eigvals", 1, (in_spec[]){{"X", "x", ot_iota(IC_INT64, 2, D(2, 2), 1)}},
              OUTS("Out"), NULL, IC_ERR_SHAPE, "dtype");
  expect_fail("matrix_rank", 2,
              (in_spec[]){{"X", "x", f32(3, D(2, 3, 3))}, {"TolTensor", "t", f32(1, D(3))}},
              OUTS("Out"), NULL, IC_ERR_SHAPE, "do not broadcast");
  expect_fail("matrix_rank", 2,
              (in_spec[]){{"X", "x", ot_iota(IC_COMPLEX64, 2, D(3, 3), 1)},
                          {"TolTensor", "t", ot_iota(IC_COMPLEX64, 1, D(1), 1)}},
              OUTS("Out"), NULL, IC_ERR_SHAPE, "expected float32 (X's real dtype)");
  expect_fail("lstsq", 2,
              (in_spec[]){{"X", "x", ot_iota(IC_COMPLEX64, 2, D(3, 2), 1)},
                          {"Y", "y", ot_iota(IC_COMPLEX64, 2, D(3, 1), 1)}},
              OUTS("Solution", "Residuals", "Rank", "SingularValues"), NULL, IC_ERR_SHAPE,
              "dtype");
  expect_fail("lstsq", 2, (in_spec[]){{"X", "x", f32(2, D(3, 2))}, {"Y", "y", f32(2, D(3, 1))}},
              OUTS("Solution", "Residuals", "Rank", "SingularValues"), lstsq_bogus,
              IC_ERR_INVALID_PROGRAM, "expected gels, gelsy, gelsd or gelss");
  expect_fail("lstsq", 2,
              (in_spec[]){{"X", "x", f32(3, D(2, 3, 2))}, {"Y", "y", f32(3, D(1, 3, 1))}},
              OUTS("Solution", "Residuals", "Rank", "SingularValues"), NULL, IC_ERR_SHAPE,
              "X's batch dims");
  /* gels on an X of rank 1 (zero columns): LAPACK reports it */
  expect_fail("lstsq", 2,
              (in_spec[]){{"X", "x", tu_f32(2, D(3, 2), (const float[]){1, 0, 2, 0, 3, 0})},
                          {"Y", "y", f32(2, D(3, 1))}},
              OUTS("Solution", "Residuals", "Rank", "SingularValues"), lstsq_gels,
              IC_ERR_KERNEL, "not of full rank");
}
END_TEST

static TCase *tc_errors(void) {
  TCase *tc = tcase_create("errors");
  tcase_add_test(tc, cholesky_and_solves_errors);
  tcase_add_test(tc, qr_lu_errors);
  tcase_add_test(tc, decomposition_errors);
  return tc;
}

TU_MAIN("ops_linalg", tc_errors)
