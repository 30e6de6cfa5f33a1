/* The case table of the matrix products: matmul_v2, matmul (v1) and mul. Header-only so that
 * every backend's suite runs the same cases: tests/test_ops_matmul.c on the CPU executors
 * against plain double-precision loops (Out's dims, and for v1 and mul the product
 * geometry, written by hand in each row from Paddle's rules: fluid matmul_op.cc, phi
 * MatmulInferMeta and MatmulWithFlattenInferMeta), tests/test_cuda_matmul.c on the cuBLAS
 * kernels against the CPU kernels (cmm_gpu_tol).
 *
 * Rows: every transpose combination, 1-D operands, batches that pair one to one, that meet a
 * single matrix, that broadcast against each other, v1's flattened batches, empty dims
 * including K = 0, odd sizes, mul's num_col_dims. */
#ifndef IC_TESTS_CASES_MATMUL_H
#define IC_TESTS_CASES_MATMUL_H

#include "ew_testutil.h"
#include "mathutil.h"

enum { CMM_V2, CMM_V1, CMM_MUL };
static const char *const cmm_types[] = {"matmul_v2", "matmul", "mul"};
#define CMM_ABSENT INT32_MIN /* mul's num_col_dims left out */

typedef struct cmm_case {
  int op;
  ic_dtype dt;
  int xn;
  int64_t xd[5];
  int yn;
  int64_t yd[5];
  bool tx, ty;     /* trans_x / trans_y (v2), transpose_X / transpose_Y (v1) */
  float alpha;     /* v1 */
  int xncd, yncd;  /* mul */
  int on;
  int64_t od[5];
  /* v1 and mul: `batches` products M x K by K x N, product b reading X at b * xstep and Y at
   * b * ystep (elements) and writing Out at b * M * N */
  int64_t batches, xstep, ystep, M, K, N;
} cmm_case;

/* matmul_v2 with trans_x tx and trans_y ty, M = 3, K = 4 or 5, N = 5 or 7. */
#define CMM_V2T(dt, tx, ty)                                                                    \
  {CMM_V2, dt, 2, {tx ? 5 : 3, tx ? 3 : 5}, 2, {ty ? 7 : 5, ty ? 5 : 7}, tx, ty, .on = 2,      \
   .od = {3, 7}},                                                                              \
      /* batches paired one to one */                                                         \
      {CMM_V2, dt, 3, {2, tx ? 4 : 3, tx ? 3 : 4}, 3, {2, ty ? 5 : 4, ty ? 4 : 5}, tx, ty,     \
       .on = 3, .od = {2, 3, 5}},                                                              \
      /* X batched against one Y: stacked rows (no trans_x) or Y stride 0 */                   \
      {CMM_V2, dt, 4, {2, 3, tx ? 4 : 3, tx ? 3 : 4}, 2, {ty ? 5 : 4, ty ? 4 : 5}, tx, ty,     \
       .on = 4, .od = {2, 3, 3, 5}},                                                           \
      /* one X against batched Y: X stride 0 */                                                \
      {CMM_V2, dt, 2, {tx ? 4 : 3, tx ? 3 : 4}, 3, {3, ty ? 5 : 4, ty ? 4 : 5}, tx, ty,        \
       .on = 3, .od = {3, 3, 5}}
/* 1-D operands (transposes ignored on them) */
#define CMM_V2V(tx, ty)                                                                         \
  {CMM_V2, IC_FP32, 1, {4}, 1, {4}, tx, ty, .on = 0},                                          \
      {CMM_V2, IC_FP64, 1, {1}, 1, {1}, tx, ty, .on = 0},                                      \
      {CMM_V2, IC_FP32, 1, {4}, 3, {2, ty ? 3 : 4, ty ? 4 : 3}, tx, ty, .on = 2, .od = {2, 3}}, \
      {CMM_V2, IC_FP32, 1, {4}, 2, {ty ? 3 : 4, ty ? 4 : 3}, tx, ty, .on = 1, .od = {3}},      \
      {CMM_V2, IC_FP32, 3, {2, tx ? 4 : 3, tx ? 3 : 4}, 1, {4}, tx, ty, .on = 2, .od = {2, 3}}, \
      {CMM_V2, IC_FP64, 2, {tx ? 4 : 3, tx ? 3 : 4}, 1, {4}, tx, ty, .on = 1, .od = {3}}
/* matmul v1 with transposes and alpha */
#define CMM_V1T(tx, ty)                                                                        \
  {CMM_V1, IC_FP32, 2, {tx ? 5 : 3, tx ? 3 : 5}, 2, {ty ? 7 : 5, ty ? 5 : 7}, tx, ty, 0.5f,    \
   .on = 2, .od = {3, 7}, .batches = 1, .M = 3, .K = 5, .N = 7},                               \
      {CMM_V1, IC_FP64, 3, {2, tx ? 5 : 3, tx ? 3 : 5}, 3, {2, ty ? 7 : 5, ty ? 5 : 7}, tx, ty, \
       -2.0f, .on = 3, .od = {2, 3, 7}, .batches = 2, .xstep = 15, .ystep = 35, .M = 3,        \
       .K = 5, .N = 7},                                                                        \
      /* [B, M, K] x [K, N]: every X matrix against the same Y */                              \
      {CMM_V1, IC_FP32, 3, {4, tx ? 5 : 3, tx ? 3 : 5}, 2, {ty ? 7 : 5, ty ? 5 : 7}, tx, ty,    \
       1.0f, .on = 3, .od = {4, 3, 7}, .batches = 4, .xstep = 15, .M = 3, .K = 5, .N = 7},     \
      /* [M, K] x [B, K, N] */                                                                 \
      {CMM_V1, IC_FP32, 2, {tx ? 5 : 3, tx ? 3 : 5}, 3, {2, ty ? 7 : 5, ty ? 5 : 7}, tx, ty,    \
       1.0f, .on = 3, .od = {2, 3, 7}, .batches = 2, .ystep = 35, .M = 3, .K = 5, .N = 7},     \
      {CMM_V1, IC_FP32, 2, {tx ? 5 : 3, tx ? 3 : 5}, 3, {2, ty ? 7 : 5, ty ? 5 : 7}, tx, ty,    \
       1.5f, .on = 3, .od = {2, 3, 7}, .batches = 2, .ystep = 35, .M = 3, .K = 5, .N = 7}
#define CMM_MULR(dt_, xn_, XD, yn_, YD, xncd_, yncd_, on_, OD, M_, K_, N_)                \
  {CMM_MUL, dt_, xn_, XD, yn_, YD, .xncd = xncd_, .yncd = yncd_, .on = on_, .od = OD,   \
   .batches = 1, .M = M_, .K = K_, .N = N_}
#define CMM_L(...) {__VA_ARGS__}

static const cmm_case cmm_cases[] = {
    /* ---- matmul_v2 ---- */
    CMM_V2T(IC_FP32, 0, 0), CMM_V2T(IC_FP32, 1, 0), CMM_V2T(IC_FP32, 0, 1),
    CMM_V2T(IC_FP32, 1, 1), CMM_V2T(IC_FP64, 0, 0), CMM_V2T(IC_FP64, 1, 0),
    CMM_V2T(IC_FP64, 0, 1), CMM_V2T(IC_FP64, 1, 1),
    CMM_V2V(0, 0), CMM_V2V(1, 0), CMM_V2V(0, 1), CMM_V2V(1, 1),
    /* odd sizes, a 1 x 1 product and bigger ones */
    {CMM_V2, IC_FP32, 2, {17, 33}, 2, {33, 9}, .on = 2, .od = {17, 9}},
    {CMM_V2, IC_FP32, 2, {1, 1}, 2, {1, 1}, .on = 2, .od = {1, 1}},
    {CMM_V2, IC_FP32, 3, {8, 129, 65}, 3, {8, 65, 257}, .on = 3, .od = {8, 129, 257}},
    {CMM_V2, IC_FP64, 3, {3, 65, 31}, 2, {65, 47}, true, .on = 3, .od = {3, 31, 47}},
    /* SVTR's shapes: a product of >= IC_GEMM_SPLIT_FLOPS cut into two column chunks (one and
     * two chunks' worth of columns, Y transposed), and attention's per-head batches, shared
     * across threads whole from that size */
    {CMM_V2, IC_FP32, 3, {1, 40, 120}, 2, {120, 240}, .on = 3, .od = {1, 40, 240}},
    {CMM_V2, IC_FP32, 3, {2, 50, 70}, 3, {2, 300, 70}, false, true, .on = 3, .od = {2, 50, 300}},
    {CMM_V2, IC_FP32, 4, {1, 8, 40, 15}, 4, {1, 8, 15, 40}, .on = 4, .od = {1, 8, 40, 40}},
    {CMM_V2, IC_FP32, 4, {8, 8, 40, 15}, 4, {8, 8, 15, 40}, .on = 4, .od = {8, 8, 40, 40}},
    /* one row against a weight matrix of >= IC_GEMV_MIN_KN elements (the CPU's GEMV path):
     * a classifier head, its transposed-X form, a last column chunk of one column; then two
     * rows and v1's alpha, which keep sgemm */
    {CMM_V2, IC_FP32, 2, {1, 1280}, 2, {1280, 1000}, .on = 2, .od = {1, 1000}},
    {CMM_V2, IC_FP32, 2, {1280, 1}, 2, {1280, 1000}, true, .on = 2, .od = {1, 1000}},
    {CMM_V2, IC_FP32, 1, {1024}, 2, {1024, 1025}, .on = 1, .od = {1025}},
    {CMM_V2, IC_FP32, 2, {2, 1024}, 2, {1024, 1025}, .on = 2, .od = {2, 1025}},
    /* batch dims that broadcast against each other */
    {CMM_V2, IC_FP32, 4, {2, 1, 3, 4}, 3, {5, 4, 2}, .on = 4, .od = {2, 5, 3, 2}},
    {CMM_V2, IC_FP64, 4, {2, 1, 4, 3}, 3, {5, 2, 4}, true, true, .on = 4, .od = {2, 5, 3, 2}},
    {CMM_V2, IC_FP32, 3, {1, 3, 4}, 4, {2, 3, 4, 5}, .on = 4, .od = {2, 3, 3, 5}},
    {CMM_V2, IC_FP32, 4, {3, 1, 2, 4}, 4, {1, 2, 4, 3}, .on = 4, .od = {3, 2, 2, 3}},
    {CMM_V2, IC_FP32, 5, {2, 1, 3, 5, 6}, 5, {1, 4, 3, 7, 6}, false, true, .on = 5,
     .od = {2, 4, 3, 5, 7}},
    {CMM_V2, IC_FP64, 4, {7, 1, 9, 5}, 4, {1, 11, 5, 3}, .on = 4, .od = {7, 11, 9, 3}},
    /* empty: a zero batch dim pairs with anything and empties Out; K = 0 gives zeros */
    {CMM_V2, IC_FP32, 4, {2, 0, 3, 4}, 3, {5, 4, 2}, .on = 4, .od = {2, 0, 3, 2}},
    {CMM_V2, IC_FP32, 3, {0, 3, 4}, 3, {5, 4, 2}, .on = 3, .od = {0, 3, 2}},
    {CMM_V2, IC_FP32, 2, {3, 0}, 2, {0, 2}, .on = 2, .od = {3, 2}},
    {CMM_V2, IC_FP64, 3, {2, 3, 0}, 3, {2, 0, 2}, .on = 3, .od = {2, 3, 2}},
    {CMM_V2, IC_FP32, 4, {2, 1, 3, 0}, 3, {5, 0, 2}, .on = 4, .od = {2, 5, 3, 2}},
    {CMM_V2, IC_FP64, 1, {0}, 1, {0}, .on = 0},
    {CMM_V2, IC_FP32, 2, {0, 4}, 2, {4, 2}, .on = 2, .od = {0, 2}},
    {CMM_V2, IC_FP32, 2, {3, 4}, 2, {4, 0}, .on = 2, .od = {3, 0}},
    /* ---- matmul (v1) ---- */
    CMM_V1T(0, 0), CMM_V1T(1, 0), CMM_V1T(0, 1), CMM_V1T(1, 1),
    /* [K] x [K] gives [1] in v1 (rank 0 in matmul_v2); [K] x [K, N] gives [N]; [B, M, K] x [K]
     * gives [B, M]; [K] x [B, K, N] gives [B, N] */
    {CMM_V1, IC_FP32, 1, {6}, 1, {6}, .alpha = 1, .on = 1, .od = {1}, .batches = 1, .M = 1,
     .K = 6, .N = 1},
    {CMM_V1, IC_FP32, 1, {4}, 2, {4, 3}, .alpha = 1, .on = 1, .od = {3}, .batches = 1, .M = 1,
     .K = 4, .N = 3},
    {CMM_V1, IC_FP64, 3, {2, 3, 4}, 1, {4}, .alpha = 1, .on = 2, .od = {2, 3}, .batches = 2,
     .xstep = 12, .M = 3, .K = 4, .N = 1},
    {CMM_V1, IC_FP32, 1, {4}, 3, {2, 4, 3}, .alpha = 3, .on = 2, .od = {2, 3}, .batches = 2,
     .ystep = 12, .M = 1, .K = 4, .N = 3},
    /* v1 transposes a 1-D X into a column: [4]^T x [1, 3] is the outer product [4, 3]; and a
     * 1-D Y into a row: [2, 3, 1] x [4]^T is [2, 3, 4] */
    {CMM_V1, IC_FP32, 1, {4}, 2, {1, 3}, true, false, 1, .on = 2, .od = {4, 3}, .batches = 1,
     .M = 4, .K = 1, .N = 3},
    {CMM_V1, IC_FP32, 3, {2, 3, 1}, 1, {4}, false, true, 1, .on = 3, .od = {2, 3, 4},
     .batches = 2, .xstep = 3, .M = 3, .K = 1, .N = 4},
    /* batches pair by flat index when their counts agree: [2, 3] against [6] */
    {CMM_V1, IC_FP32, 4, {2, 3, 4, 5}, 3, {6, 5, 7}, .alpha = 1, .on = 4, .od = {2, 3, 4, 7},
     .batches = 6, .xstep = 20, .ystep = 35, .M = 4, .K = 5, .N = 7},
    {CMM_V1, IC_FP64, 4, {2, 2, 3, 4}, 4, {2, 2, 4, 5}, .alpha = 1, .on = 4, .od = {2, 2, 3, 5},
     .batches = 4, .xstep = 12, .ystep = 20, .M = 3, .K = 4, .N = 5},
    {CMM_V1, IC_FP32, 4, {2, 3, 5, 4}, 3, {6, 7, 5}, true, true, 0.25f, .on = 4,
     .od = {2, 3, 4, 7}, .batches = 6, .xstep = 20, .ystep = 35, .M = 4, .K = 5, .N = 7},
    /* zero batches, K = 0, and a bigger batch */
    {CMM_V1, IC_FP32, 3, {0, 3, 4}, 2, {4, 5}, .alpha = 1, .on = 3, .od = {0, 3, 5},
     .batches = 0, .xstep = 12, .M = 3, .K = 4, .N = 5},
    {CMM_V1, IC_FP32, 3, {2, 3, 0}, 3, {2, 0, 5}, .alpha = 1, .on = 3, .od = {2, 3, 5},
     .batches = 2, .M = 3, .K = 0, .N = 5},
    {CMM_V1, IC_FP64, 3, {9, 17, 33}, 3, {9, 33, 19}, .alpha = 1, .on = 3, .od = {9, 17, 19},
     .batches = 9, .xstep = 561, .ystep = 627, .M = 17, .K = 33, .N = 19},
    {CMM_V1, IC_FP32, 2, {1, 1280}, 2, {1280, 1000}, .alpha = 0.5f, .on = 2, .od = {1, 1000},
     .batches = 1, .M = 1, .K = 1280, .N = 1000},
    {CMM_V1, IC_FP32, 2, {1, 1280}, 2, {1280, 1000}, .alpha = 1, .on = 2, .od = {1, 1000},
     .batches = 1, .M = 1, .K = 1280, .N = 1000},
    /* ---- mul: one product of X as [M, K] by Y as [K, N] ---- */
    /* defaults (1 and 1) */
    CMM_MULR(IC_FP32, 2, CMM_L(3, 5), 2, CMM_L(5, 7), CMM_ABSENT, CMM_ABSENT, 2, CMM_L(3, 7), 3,
             5, 7),
    CMM_MULR(IC_FP64, 2, CMM_L(3, 5), 2, CMM_L(5, 7), CMM_ABSENT, CMM_ABSENT, 2, CMM_L(3, 7), 3,
             5, 7),
    /* x_num_col_dims 2 on a 4-D X */
    CMM_MULR(IC_FP32, 4, CMM_L(2, 3, 4, 5), 2, CMM_L(20, 7), 2, 1, 3, CMM_L(2, 3, 7), 6, 20, 7),
    CMM_MULR(IC_FP64, 4, CMM_L(2, 3, 4, 5), 4, CMM_L(4, 5, 3, 2), 2, 2, 4, CMM_L(2, 3, 3, 2), 6,
             20, 6),
    /* Y's trailing dims survive: [3, 4] x [4, 2, 3] is [3, 2, 3] */
    CMM_MULR(IC_FP32, 2, CMM_L(3, 4), 3, CMM_L(4, 2, 3), 1, 1, 3, CMM_L(3, 2, 3), 3, 4, 6),
    /* x_num_col_dims 1 on a 3-D X folds the rest into K; 0: one row */
    CMM_MULR(IC_FP32, 3, CMM_L(3, 4, 2), 2, CMM_L(8, 3), 1, 1, 2, CMM_L(3, 3), 3, 8, 3),
    CMM_MULR(IC_FP32, 3, CMM_L(2, 3, 4), 2, CMM_L(24, 5), 0, 1, 1, CMM_L(5), 1, 24, 5),
    /* odd and empty sizes, and a batch-1 layer */
    CMM_MULR(IC_FP32, 2, CMM_L(1, 1), 2, CMM_L(1, 1), 1, 1, 2, CMM_L(1, 1), 1, 1, 1),
    CMM_MULR(IC_FP32, 2, CMM_L(0, 4), 2, CMM_L(4, 3), 1, 1, 2, CMM_L(0, 3), 0, 4, 3),
    CMM_MULR(IC_FP32, 2, CMM_L(19, 33), 2, CMM_L(33, 17), 1, 1, 2, CMM_L(19, 17), 19, 33, 17),
    CMM_MULR(IC_FP32, 2, CMM_L(1, 784), 2, CMM_L(784, 300), 1, 1, 2, CMM_L(1, 300), 1, 784, 300),
};
#undef CMM_V2T
#undef CMM_V2V
#undef CMM_V1T
#undef CMM_MULR
#define CMM_N_CASES (sizeof cmm_cases / sizeof cmm_cases[0])

/* X and Y of row c: values in [-1, 1). */
static inline void cmm_inputs(const cmm_case *c, uint64_t seed, ic_tensor **x, ic_tensor **y) {
  *x = mu_rand(c->dt, c->xn, c->xd, seed);
  *y = mu_rand(c->dt, c->yn, c->yd, seed + 1);
}

static inline ic_builder *cmm_program(const cmm_case *c, const ic_tensor *x,
                                      const ic_tensor *y) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ew_feed(b, "y", y);
  ic_builder_op *op = ic_builder_add_op(b, 0, cmm_types[c->op]);
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Y", "y");
  ic_builder_out(op, "Out", "out");
  if (c->op == CMM_V2) {
    ic_builder_attr_bool(op, "trans_x", c->tx);
    ic_builder_attr_bool(op, "trans_y", c->ty);
  } else if (c->op == CMM_V1) {
    ic_builder_attr_bool(op, "transpose_X", c->tx);
    ic_builder_attr_bool(op, "transpose_Y", c->ty);
    ic_builder_attr_float(op, "alpha", c->alpha);
    /* what Paddle 2.x exports beside them */
    ic_builder_attr_int(op, "head_number", 1);
    ic_builder_attr_ints(op, "fused_reshape_X", 0, NULL);
    ic_builder_attr_float(op, "Scale_x", 1.0f);
    ic_builder_attr_bool(op, "use_mkldnn", false);
  } else {
    if (c->xncd != CMM_ABSENT) ic_builder_attr_int(op, "x_num_col_dims", c->xncd);
    if (c->yncd != CMM_ABSENT) ic_builder_attr_int(op, "y_num_col_dims", c->yncd);
  }
  ew_fetch(b, "out", c->dt);
  return b;
}

/* GPU against CPU: cuBLAS sums in another order than oneDNN / OpenBLAS. With inputs in
 * [-1, 1) and K up to 784 the rounding errors of both sides are a few 1e-6 absolute, so
 * float32 within 2e-5 relative plus 1e-4 absolute (outputs near 0 have no relative accuracy),
 * float64 within 1e-12 both. */
static inline void cmm_gpu_tol(ic_dtype dt, double *rtol, double *atol) {
  *rtol = dt == IC_FP64 ? 1e-12 : 2e-5;
  *atol = dt == IC_FP64 ? 1e-12 : 1e-4;
}

#endif
