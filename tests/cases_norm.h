/* The case tables of the normalizations with CUDA kernels. Header-only so that every
 * backend's suite runs the same cases: the CPU suites run them on the CPU executors against
 * double-precision references written there, the CUDA suites on the CUDA kernels against the
 * CPU kernels.
 *   - group_norm (cg_*): NCHW and NHWC, ranks 2 to 4, Scale and Bias present or absent, one
 *     channel per group, an empty last group, a VAE-sized shape. CPU: test_ops_dense.c;
 *     CUDA: test_cuda_dense.c (statistics summed in double in another order: float32 within
 *     1e-5 relative plus 1e-6, float64 1e-12). */
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

#endif
