/* The case table of softmax: shapes, axis (written or left to the default -1), dtype and the
 * spread of the random logits. Header-only so that every backend's suite runs the same
 * cases: tests/test_ops_softmax.c on the CPU executors against a double-precision reference
 * (Paddle's -64 clip), tests/test_cuda_softmax.c on the CUDA kernel against the CPU kernel.
 * The rows cover every axis of ranks 0 to 4, rows short and long for the GPU's block-per-row
 * kernel (1, 7, 31 ... 5003: fewer threads than the row, more, several sweeps), columns for
 * its strided kernel, logits spread wide enough that the -64 clip matters, and empty
 * tensors. */
#ifndef IC_TESTS_CASES_SOFTMAX_H
#define IC_TESTS_CASES_SOFTMAX_H

#include "ew_testutil.h"

#define CS_NO_AXIS INT32_MIN /* leave `axis` out (Paddle's default -1) */

typedef struct cs_case {
  ic_dtype dt;
  int nd;
  int64_t dims[4];
  int axis;
  double spread; /* logits uniform in [-spread, spread) */
} cs_case;

#define CS_BOTH(nd, dims, axis, spread) \
  {IC_FP32, nd, dims, axis, spread}, {IC_FP64, nd, dims, axis, spread}
#define CS_D(...) {__VA_ARGS__}

static const cs_case cs_cases[] = {
    /* every axis, positive and negative, and the default */
    CS_BOTH(3, CS_D(3, 4, 5), CS_NO_AXIS, 3),
    CS_BOTH(3, CS_D(3, 4, 5), -3, 3), CS_BOTH(3, CS_D(3, 4, 5), -2, 3),
    CS_BOTH(3, CS_D(3, 4, 5), -1, 3), CS_BOTH(3, CS_D(3, 4, 5), 0, 3),
    CS_BOTH(3, CS_D(3, 4, 5), 1, 3), CS_BOTH(3, CS_D(3, 4, 5), 2, 3),
    /* sizes that fill no vector register */
    CS_BOTH(3, CS_D(7, 13, 17), -3, 5), CS_BOTH(3, CS_D(7, 13, 17), -2, 5),
    CS_BOTH(3, CS_D(7, 13, 17), -1, 5), CS_BOTH(3, CS_D(7, 13, 17), 0, 5),
    CS_BOTH(3, CS_D(7, 13, 17), 1, 5), CS_BOTH(3, CS_D(7, 13, 17), 2, 5),
    /* rank 4, every axis */
    CS_BOTH(4, CS_D(2, 3, 5, 9), -4, 4), CS_BOTH(4, CS_D(2, 3, 5, 9), -3, 4),
    CS_BOTH(4, CS_D(2, 3, 5, 9), -2, 4), CS_BOTH(4, CS_D(2, 3, 5, 9), -1, 4),
    CS_BOTH(4, CS_D(2, 3, 5, 9), 0, 4), CS_BOTH(4, CS_D(2, 3, 5, 9), 1, 4),
    CS_BOTH(4, CS_D(2, 3, 5, 9), 2, 4), CS_BOTH(4, CS_D(2, 3, 5, 9), 3, 4),
    CS_BOTH(1, CS_D(33), 0, 4),
    /* row lengths around the GPU's warp and block sizes: rows, and columns */
#define CS_ROW(L)                                                                  \
  {IC_FP32, 2, {3, L}, -1, 6}, {IC_FP64, 2, {2, L}, 1, 6}, {IC_FP32, 2, {L, 3}, 0, 6}
    CS_ROW(1), CS_ROW(7), CS_ROW(31), CS_ROW(32), CS_ROW(33), CS_ROW(255), CS_ROW(256),
    CS_ROW(257), CS_ROW(1000), CS_ROW(5003),
#undef CS_ROW
    /* enough elements (>= 16384) for the CPU kernel to share rows across its threads:
     * SVTR's CTC head, and rows whose length fills no vector register */
    CS_BOTH(2, CS_D(40, 1164), -1, 6), CS_BOTH(3, CS_D(3, 70, 301), -1, 6),
    /* ... and strided axes, shared by blocks of 256 columns: PP-YOLOE+'s distribution head
     * ([1, 17, L, 4] along 1), several slices with a partial last block, one short block */
    CS_BOTH(4, CS_D(1, 17, 1600, 4), 1, 6), CS_BOTH(3, CS_D(3, 7, 2000), 1, 6),
    CS_BOTH(2, CS_D(17, 1030), 0, 6),
    /* logits spread so wide that exp of the raw values overflows: the -64 clip everywhere */
    CS_BOTH(3, CS_D(4, 9, 5), 0, 500), CS_BOTH(3, CS_D(4, 9, 5), 1, 500),
    CS_BOTH(3, CS_D(4, 9, 5), 2, 500), CS_BOTH(3, CS_D(4, 9, 5), -1, 500),
    CS_BOTH(2, CS_D(3, 700), -1, 100),
    /* an axis of one (all 1), rank 0 (axis 0 or -1), empty tensors along either axis */
    CS_BOTH(3, CS_D(3, 1, 4), 1, 10),
    CS_BOTH(0, CS_D(0), -1, 10), CS_BOTH(0, CS_D(0), 0, 10),
    {IC_FP32, 2, {2, 0}, -1, 1}, {IC_FP32, 2, {2, 0}, 0, 1}, {IC_FP32, 2, {0, 5}, 0, 1},
};
#define CS_N_CASES (sizeof cs_cases / sizeof cs_cases[0])

/* The axis case c normalizes to (0 for rank 0). */
static inline int cs_axis(const cs_case *c) {
  if (c->nd == 0) return 0;
  if (c->axis == CS_NO_AXIS) return c->nd - 1;
  return c->axis < 0 ? c->axis + c->nd : c->axis;
}

static inline ic_tensor *cs_input(const cs_case *c, uint64_t seed) {
  return ew_rand(c->dt, c->nd, c->dims, seed, -c->spread, c->spread);
}

/* softmax of x along axis, with the attributes Paddle exports beside it. */
static inline ic_builder *cs_program(const ic_tensor *x, int axis) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ic_builder_op *op = ic_builder_add_op(b, 0, "softmax");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "out");
  if (axis != CS_NO_AXIS) ic_builder_attr_int(op, "axis", axis);
  ic_builder_attr_bool(op, "use_cudnn", false);
  ic_builder_attr_string(op, "data_format", "AnyLayout");
  ic_builder_attr_bool(op, "is_test", true);
  ew_fetch(b, "out", ic_tensor_dtype(x));
  return b;
}

/* GPU against CPU: exp in X's type with different libraries (CUDA's expf within 2 ulp) and
 * sums in double in another order: float32 relative 2e-6 plus 1e-9 absolute (outputs near
 * the clip are ~1e-28), float64 1e-13. */
static inline void cs_gpu_tol(ic_dtype dt, double *rtol, double *atol) {
  *rtol = dt == IC_FP64 ? 1e-13 : 2e-6;
  *atol = dt == IC_FP64 ? 1e-300 : 1e-9;
}

#endif
