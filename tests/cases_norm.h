/* The case tables of the normalizations with CUDA kernels. Header-only so that every
 * backend's suite runs the same cases: the CPU suites run them on the CPU executors against
 * double-precision references written there, the CUDA suites on the CUDA kernels against the
 * CPU kernels.
 *   - group_norm (cg_*): NCHW and NHWC, ranks 2 to 4, Scale and Bias present or absent, one
 *     channel per group, an empty last group, a VAE-sized shape. CPU: test_ops_dense.c;
 *     CUDA: test_cuda_dense.c (statistics summed in double in another order: float32 within
 *     1e-5 relative plus 1e-6, float64 1e-12).
 *   - batch_norm (cbn_*): NCHW and NHWC at ranks 2 to 5 with odd and single-element dims,
 *     Scale and Bias each present or absent, epsilon 0 / 1e-3 / default, float64,
 *     use_global_stats while training, training (batch statistics, MeanOut / VarianceOut /
 *     SavedMean / SavedVariance), trainable_statistics, the one-element-per-channel copy, a
 *     channel longer than a GPU block. CPU: test_ops_norm.c; CUDA: test_cuda_norm.c.
 *   - layer_norm (cln_*): begin_norm_axis 1 to rank - 1 (and absent), Scale / Bias present
 *     or absent, epsilon edge values, float64, rows longer than a GPU block and more rows
 *     than a grid, empty rows and empty normalized dims, Mean / Variance outputs present or
 *     absent. CPU: test_ops_norm.c; CUDA: test_cuda_norm.c. */
#ifndef IC_TESTS_CASES_NORM_H
#define IC_TESTS_CASES_NORM_H

#include "ew_testutil.h"

/* ---- group_norm ---- */

typedef struct cg_case {
  int nd;
  int64_t dims[4];
  int groups;
  bool nhwc, sb; /* data_layout NHWC; Scale and Bias given */
} cg_case;

static const cg_case cg_cases[] = {
    {4, {2, 6, 3, 4}, 3, false, true},
    {4, {2, 6, 3, 4}, 2, false, false},
    {4, {2, 3, 2, 6}, 3, true, true},
    {4, {2, 3, 5, 6}, 3, true, true},
    {3, {1, 8, 5}, 4, false, true},
    {2, {3, 8}, 2, false, true},
    {4, {1, 4, 2, 2}, 4, false, true},    /* one channel per group */
    {4, {1, 6, 2, 2}, 4, false, true},    /* groups of 2, 2, 2 and none */
    {4, {2, 64, 32, 32}, 32, false, true}, /* the SD VAE's shape, reduced */
};
#define CG_N_CASES (sizeof cg_cases / sizeof cg_cases[0])

static inline int64_t cg_channels(const cg_case *k) {
  return k->nhwc ? k->dims[k->nd - 1] : k->dims[1];
}

/* X in [-2, 2), Scale in [0.5, 1.5), Bias in [-0.5, 0.5) as float32 values, in dtype dt. */
static inline void cg_inputs(const cg_case *k, ic_dtype dt, ic_tensor *in[3]) {
  const int64_t C = cg_channels(k);
  in[0] = tu_rand_f32(k->nd, k->dims, 31, -2, 2);
  in[1] = tu_rand_f32(1, &C, 32, 0.5f, 1.5f);
  in[2] = tu_rand_f32(1, &C, 33, -0.5f, 0.5f);
  if (dt != IC_FP64) return;
  for (int i = 0; i < 3; i++) {
    ic_tensor *t;
    ck_assert_int_eq(ic_tensor_create(IC_FP64, ic_tensor_ndim(in[i]), ic_tensor_dims(in[i]), &t),
                     IC_OK);
    for (int64_t e = 0; e < ic_tensor_numel(t); e++) {
      ((double *)ic_tensor_data(t))[e] = ((const float *)ic_tensor_cdata(in[i]))[e];
    }
    ic_tensor_destroy(in[i]);
    in[i] = t;
  }
}

/* group_norm of "x" (with "s", "b" when k->sb), epsilon 1e-5, fetching Y, Mean, Variance as
 * "y", "m", "v". */
static inline ic_builder *cg_program(const cg_case *k, ic_dtype dt) {
  ic_builder *b = ic_builder_create();
  int64_t d[IC_MAX_RANK];
  for (int i = 0; i < IC_MAX_RANK; i++) d[i] = -1;
  ic_builder_var(b, 0, "x", dt, k->nd, d, false);
  ic_builder_feed(b, "x");
  if (k->sb) {
    ic_builder_var(b, 0, "s", dt, 1, d, false);
    ic_builder_var(b, 0, "b", dt, 1, d, false);
    ic_builder_feed(b, "s");
    ic_builder_feed(b, "b");
  }
  ic_builder_op *op = ic_builder_add_op(b, 0, "group_norm");
  ic_builder_in(op, "X", "x");
  if (k->sb) {
    ic_builder_in(op, "Scale", "s");
    ic_builder_in(op, "Bias", "b");
  }
  ic_builder_out(op, "Y", "y");
  ic_builder_out(op, "Mean", "m");
  ic_builder_out(op, "Variance", "v");
  ic_builder_attr_float(op, "epsilon", 1e-5f);
  ic_builder_attr_int(op, "groups", k->groups);
  ic_builder_attr_string(op, "data_layout", k->nhwc ? "NHWC" : "NCHW");
  ew_fetch(b, "y", dt);
  ew_fetch(b, "m", dt);
  ew_fetch(b, "v", dt);
  return b;
}

/* ---- batch_norm ---- */

typedef struct cbn_case {
  int ndim;
  int64_t dims[5];
  bool nhwc;
  bool scale, bias;       /* inputs present */
  double eps;             /* < 0: leave the attribute out (default 1e-5) */
  double momentum;        /* < 0: leave out (default 0.9) */
  bool is_test, use_global_stats, trainable_statistics;
  ic_dtype dt;
  bool f32_params;        /* CPU only: declare the [C] vectors float32 whatever dt is */
} cbn_case;

#define CBN_L(...) {__VA_ARGS__}
/* Inference with Scale and Bias, epsilon 1e-5, momentum 0.9, float32. */
#define CBN_I(nd, D, nhwc_)                                                                \
  {.ndim = nd, .dims = D, .nhwc = nhwc_, .scale = true, .bias = true, .eps = 1e-5,        \
   .momentum = 0.9, .is_test = true, .dt = IC_FP32}
/* Training with momentum 0.8. */
#define CBN_T(nd, D, nhwc_)                                                                \
  {.ndim = nd, .dims = D, .nhwc = nhwc_, .scale = true, .bias = true, .eps = 1e-5,        \
   .momentum = 0.8, .dt = IC_FP32}
#define CBN_BOTH(M, nd, D) M(nd, CBN_L D, false), M(nd, CBN_L D, true)

static const cbn_case cbn_cases[] = {
    /* inference: NCHW and NHWC, ranks 2 to 5, sizes not divisible by 4/8/16 and
     * single-element dims, and a larger layer */
    CBN_BOTH(CBN_I, 2, (7, 5)), CBN_BOTH(CBN_I, 2, (1, 1)), CBN_BOTH(CBN_I, 3, (3, 5, 7)),
    CBN_BOTH(CBN_I, 4, (2, 3, 4, 5)), CBN_BOTH(CBN_I, 4, (1, 17, 3, 1)),
    CBN_BOTH(CBN_I, 4, (2, 4, 3, 5)), CBN_BOTH(CBN_I, 5, (2, 3, 2, 3, 5)),
    CBN_BOTH(CBN_I, 4, (3, 9, 11, 13)), CBN_BOTH(CBN_I, 4, (8, 64, 33, 35)),
    /* Paddle 3: Scale and Bias optional (identity affine), each alone */
    {.ndim = 4, .dims = {2, 3, 4, 5}, .eps = 1e-5, .momentum = 0.9, .is_test = true,
     .dt = IC_FP32},
    {.ndim = 4, .dims = {2, 3, 4, 5}, .scale = true, .eps = 1e-5, .momentum = 0.9,
     .is_test = true, .dt = IC_FP32},
    {.ndim = 4, .dims = {2, 3, 4, 5}, .bias = true, .eps = 1e-5, .momentum = 0.9,
     .is_test = true, .dt = IC_FP32},
    /* epsilon edge cases: 0, Paddle's maximum, and the default */
    {.ndim = 4, .dims = {2, 3, 4, 5}, .nhwc = true, .scale = true, .bias = true, .eps = 0,
     .momentum = 0.9, .is_test = true, .dt = IC_FP32},
    {.ndim = 4, .dims = {2, 3, 4, 5}, .nhwc = true, .scale = true, .bias = true, .eps = 1e-3,
     .momentum = 0.9, .is_test = true, .dt = IC_FP32},
    {.ndim = 4, .dims = {2, 3, 4, 5}, .nhwc = true, .scale = true, .bias = true, .eps = -1,
     .momentum = 0.9, .is_test = true, .dt = IC_FP32},
    /* global statistics while training */
    {.ndim = 3, .dims = {4, 6, 5}, .scale = true, .bias = true, .eps = 1e-5, .momentum = 0.9,
     .use_global_stats = true, .dt = IC_FP32},
    /* float64 */
    {.ndim = 4, .dims = {2, 3, 5, 7}, .scale = true, .bias = true, .eps = 1e-5,
     .momentum = 0.9, .is_test = true, .dt = IC_FP64},
    {.ndim = 4, .dims = {2, 3, 5, 7}, .nhwc = true, .scale = true, .bias = true, .eps = 1e-5,
     .momentum = 0.9, .is_test = true, .dt = IC_FP64},
    /* training: batch statistics */
    CBN_BOTH(CBN_T, 4, (3, 4, 5, 2)), CBN_BOTH(CBN_T, 2, (9, 3)), CBN_BOTH(CBN_T, 3, (2, 5, 7)),
    CBN_BOTH(CBN_T, 5, (2, 3, 2, 2, 3)), CBN_BOTH(CBN_T, 2, (7, 5)),
    CBN_BOTH(CBN_T, 3, (3, 5, 7)), CBN_BOTH(CBN_T, 4, (2, 3, 4, 5)),
    CBN_BOTH(CBN_T, 4, (1, 17, 3, 1)), CBN_BOTH(CBN_T, 4, (2, 4, 3, 5)),
    CBN_BOTH(CBN_T, 5, (2, 3, 2, 3, 5)), CBN_BOTH(CBN_T, 4, (3, 9, 11, 13)),
    CBN_BOTH(CBN_T, 4, (8, 64, 33, 35)),
    /* trainable_statistics turns is_test back into batch statistics */
    {.ndim = 4, .dims = {2, 3, 4, 5}, .scale = true, .bias = true, .eps = 1e-5,
     .momentum = 0.9, .is_test = true, .trainable_statistics = true, .dt = IC_FP32},
    /* momentum and epsilon defaults; double precision; no Scale and Bias */
    {.ndim = 4, .dims = {3, 2, 3, 3}, .nhwc = true, .scale = true, .bias = true, .eps = -1,
     .momentum = -1, .dt = IC_FP64},
    {.ndim = 4, .dims = {3, 2, 3, 3}, .nhwc = true, .eps = -1, .momentum = -1, .dt = IC_FP64},
    /* a single element per channel: y = x, running statistics kept, saved statistics 0 */
    CBN_T(2, CBN_L(1, 4), false), CBN_T(4, CBN_L(1, 3, 1, 1), false),
    CBN_T(4, CBN_L(1, 3, 1, 1), true),
    /* a channel longer than a GPU block (N * S = 9000) */
    CBN_T(4, CBN_L(10, 3, 30, 30), false),
};
#undef CBN_I
#undef CBN_T
#undef CBN_BOTH
#define CBN_N_CASES (sizeof cbn_cases / sizeof cbn_cases[0])

/* ---- layer_norm ---- */

typedef struct cln_case {
  int ndim;
  int64_t dims[6];
  int axis;              /* begin_norm_axis; < 0: attribute left out (default 1) */
  bool scale, bias;
  double eps;            /* < 0: attribute left out (default 1e-5) */
  ic_dtype dt;
  bool no_stats;         /* leave the Mean and Variance outputs out */
} cln_case;

#define CLN_AFF(nd, D, ax)                                                                 \
  {nd, D, ax, false, false, 1e-5, IC_FP32, false},                                         \
      {nd, D, ax, true, false, 1e-5, IC_FP32, false},                                      \
      {nd, D, ax, false, true, 1e-5, IC_FP32, false},                                      \
      {nd, D, ax, true, true, 1e-5, IC_FP32, false}

static const cln_case cln_cases[] = {
    /* every begin_norm_axis, Scale and Bias each present or absent */
    CLN_AFF(3, CBN_L(2, 3, 4), 1), CLN_AFF(3, CBN_L(2, 3, 4), 2), CLN_AFF(3, CBN_L(2, 3, 4), -1),
    CLN_AFF(4, CBN_L(2, 3, 5, 7), 3), CLN_AFF(4, CBN_L(3, 1, 5, 17), 2),
    CLN_AFF(2, CBN_L(5, 33), 1), CLN_AFF(2, CBN_L(4, 1), 1), CLN_AFF(5, CBN_L(1, 2, 3, 2, 9), 4),
    CLN_AFF(3, CBN_L(1, 1, 120), 2),
    /* rows longer than a GPU block, more rows than a grid, a long middle dim */
    CLN_AFF(2, CBN_L(4, 5000), 1), CLN_AFF(2, CBN_L(70001, 8), 1),
    CLN_AFF(3, CBN_L(3, 257, 3), 1),
    /* epsilon 0, 1e-3 and the default; float64; Mean and Variance left out */
    {3, {2, 3, 4}, 2, true, true, 0, IC_FP32, false},
    {3, {2, 3, 4}, 2, true, true, 1e-3, IC_FP32, false},
    {3, {2, 3, 4}, 2, true, true, -1, IC_FP32, false},
    {3, {2, 3, 4}, 2, true, true, -1, IC_FP64, false},
    {3, {2, 3, 4}, 2, true, true, -1, IC_FP64, true},
    {3, {2, 3, 4}, 2, true, true, -1, IC_FP32, true},
    /* empty rows (left 0) and empty normalized dims (right 0: mean and variance 0) */
    {2, {0, 3}, 1, true, true, 1e-5, IC_FP32, false},
    {3, {2, 3, 0}, 2, false, false, 1e-5, IC_FP32, false},
};
#undef CLN_AFF
#define CLN_N_CASES (sizeof cln_cases / sizeof cln_cases[0])

#endif
