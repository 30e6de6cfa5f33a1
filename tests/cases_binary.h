/* The case table of the binary elementwise ops (elementwise_add ... _mod): every op over
 * every broadcast case below, in float32, float64, int32 and int64. Header-only so that
 * every backend's suite runs the same cases:
 *   - tests/test_ops_elementwise.c runs each on the CPU executors (tu_run: uncompiled and
 *     compiled, bitwise equal) against a double-precision reference written there, indexing
 *     X and Y through the aligned dims written out by hand in each case (Paddle's axis rule
 *     applied on paper, not by the code under test);
 *   - tests/test_cuda_elementwise.c runs each on the CUDA kernel against the CPU kernel
 *     (cuda_harness.h) with the tolerance cb_gpu_tol gives.
 * A case's inputs come from cb_inputs (deterministic per seed), its program from
 * cb_program, so both suites see the same op, attributes and values; cb_bool_inputs gives
 * the bool operands of elementwise_add and _mul (logical or and and). */
#ifndef IC_TESTS_CASES_BINARY_H
#define IC_TESTS_CASES_BINARY_H

#include "ew_testutil.h"

enum { CB_ADD, CB_SUB, CB_MUL, CB_DIV, CB_MAX, CB_MIN, CB_POW, CB_FLOORDIV, CB_MOD, CB_N_OPS };
static const char *const cb_types[CB_N_OPS] = {
    "elementwise_add", "elementwise_sub", "elementwise_mul",      "elementwise_div",
    "elementwise_max", "elementwise_min", "elementwise_pow",      "elementwise_floordiv",
    "elementwise_mod"};

/* One broadcast case: shapes and axis, and the aligned dims of X and Y and the output's
 * dims worked out by hand (R dims). */
typedef struct cb_case {
  int rx;
  int64_t xd[6];
  int ry;
  int64_t yd[6];
  int axis;
  int R;
  int64_t xa[6], ya[6], od[6];
} cb_case;

static const cb_case cb_cases[] = {
    /* same shape */
    {3, {2, 3, 5}, 3, {2, 3, 5}, -1, 3, {2, 3, 5}, {2, 3, 5}, {2, 3, 5}},
    /* scalar Y of shape [1], and of rank 0; a rank-0 X */
    {2, {4, 7}, 1, {1}, -1, 2, {4, 7}, {1, 1}, {4, 7}},
    {2, {4, 7}, 0, {0}, -1, 2, {4, 7}, {1, 1}, {4, 7}},
    {0, {0}, 2, {4, 7}, -1, 2, {1, 1}, {4, 7}, {4, 7}},
    /* bias add [N,C,H,W] + [C] with axis 1 */
    {4, {2, 3, 4, 5}, 1, {3}, 1, 4, {2, 3, 4, 5}, {1, 3, 1, 1}, {2, 3, 4, 5}},
    /* [N,C,H,W] * [N,C,1,1] (squeeze-excite), odd spatial size */
    {4, {2, 3, 7, 9}, 4, {2, 3, 1, 1}, -1, 4, {2, 3, 7, 9}, {2, 3, 1, 1}, {2, 3, 7, 9}},
    /* [2,3,4] + [3,1] with axis 1 */
    {3, {2, 3, 4}, 2, {3, 1}, 1, 3, {2, 3, 4}, {1, 3, 1}, {2, 3, 4}},
    /* trailing alignment with axis -1 */
    {3, {2, 3, 4}, 2, {3, 4}, -1, 3, {2, 3, 4}, {1, 3, 4}, {2, 3, 4}},
    /* Y of higher rank than X: X is the one placed, trailing and at axis 1 */
    {1, {4}, 3, {2, 3, 4}, -1, 3, {1, 1, 4}, {2, 3, 4}, {2, 3, 4}},
    {1, {3}, 3, {2, 3, 4}, 1, 3, {1, 3, 1}, {2, 3, 4}, {2, 3, 4}},
    /* both operands broadcast */
    {3, {2, 1, 4}, 2, {3, 1}, -1, 3, {2, 1, 4}, {1, 3, 1}, {2, 3, 4}},
    {2, {5, 1}, 2, {1, 6}, -1, 2, {5, 1}, {1, 6}, {5, 6}},
    /* Y's trailing 1s would run past X's rank: trimmed */
    {3, {2, 3, 4}, 2, {4, 1}, 2, 3, {2, 3, 4}, {1, 1, 4}, {2, 3, 4}},
    {4, {5, 2, 3, 4}, 3, {3, 4, 1}, 2, 4, {5, 2, 3, 4}, {1, 1, 3, 4}, {5, 2, 3, 4}},
    /* X broadcast against Y in the leading dims (row vector times matrix) */
    {2, {1, 13}, 2, {11, 13}, -1, 2, {1, 13}, {11, 13}, {11, 13}},
    /* equal ranks with axis 0 */
    {2, {11, 13}, 2, {11, 13}, 0, 2, {11, 13}, {11, 13}, {11, 13}},
    /* one element, and sizes not divisible by 4, 8 or 16 */
    {1, {1}, 1, {1}, -1, 1, {1}, {1}, {1}},
    {1, {17}, 1, {17}, -1, 1, {17}, {17}, {17}},
    {2, {3, 13}, 1, {13}, -1, 2, {3, 13}, {1, 13}, {3, 13}},
    {4, {3, 5, 7, 11}, 1, {5}, 1, 4, {3, 5, 7, 11}, {1, 5, 1, 1}, {3, 5, 7, 11}},
    /* rank 6, both operands broadcast in alternating dims */
    {6, {2, 3, 1, 5, 1, 7}, 6, {1, 3, 4, 1, 6, 7}, -1, 6, {2, 3, 1, 5, 1, 7},
     {1, 3, 4, 1, 6, 7}, {2, 3, 4, 5, 6, 7}},
    /* empty dims */
    {2, {0, 3}, 1, {3}, -1, 2, {0, 3}, {1, 3}, {0, 3}},
    {2, {2, 1}, 2, {2, 0}, -1, 2, {2, 1}, {2, 0}, {2, 0}},
    {3, {2, 0, 4}, 3, {1, 1, 4}, -1, 3, {2, 0, 4}, {1, 1, 4}, {2, 0, 4}},
};
#define CB_N_CASES (sizeof cb_cases / sizeof cb_cases[0])

static inline bool cb_is_int(ic_dtype dt) { return dt == IC_INT32 || dt == IC_INT64; }

/* Operand ranges: divisors and integer pow exponents away from zero and overflow. */
static inline void cb_ranges(int op, ic_dtype dt, double *xlo, double *xhi, double *ylo,
                             double *yhi) {
  *xlo = -2, *xhi = 2, *ylo = 0.5, *yhi = 2;
  if (op == CB_POW) *xlo = 0.5, *ylo = -2;
  if (cb_is_int(dt)) *xlo = -50, *xhi = 50, *ylo = 1, *yhi = 9;
  if (cb_is_int(dt) && op == CB_POW) *xlo = -4, *xhi = 5, *ylo = 0, *yhi = 5;
}

/* X and Y of case c for op in dtype dt. For sub, div, floordiv and mod every other element
 * of Y is negated (both signs of the divisor, still away from 0). */
static inline void cb_inputs(const cb_case *c, int op, ic_dtype dt, uint64_t seed,
                             ic_tensor **x, ic_tensor **y) {
  double xlo, xhi, ylo, yhi;
  cb_ranges(op, dt, &xlo, &xhi, &ylo, &yhi);
  *x = ew_rand(dt, c->rx, c->xd, seed, xlo, xhi);
  *y = ew_rand(dt, c->ry, c->yd, seed + 1, ylo, yhi);
  if (op == CB_SUB || op == CB_DIV || op == CB_FLOORDIV || op == CB_MOD) {
    void *d = ic_tensor_data(*y);
    for (int64_t i = 0; i < ic_tensor_numel(*y); i += 2) {
      switch (dt) {
        case IC_FP32: ((float *)d)[i] = -((float *)d)[i]; break;
        case IC_FP64: ((double *)d)[i] = -((double *)d)[i]; break;
        case IC_INT32: ((int32_t *)d)[i] = -((int32_t *)d)[i]; break;
        default: ((int64_t *)d)[i] = -((int64_t *)d)[i]; break;
      }
    }
  }
}

/* bool X and Y of case c (elementwise_add and _mul): bytes 0, 1, 2 and 255, a nonzero byte
 * being true. */
static inline void cb_bool_inputs(const cb_case *c, uint64_t seed, ic_tensor **x,
                                  ic_tensor **y) {
  static const uint8_t vals[4] = {0, 1, 2, 255};
  for (int k = 0; k < 2; k++) {
    ic_tensor **t = k ? y : x;
    ck_assert_int_eq(ic_tensor_create(IC_BOOL, k ? c->ry : c->rx, k ? c->yd : c->xd, t), IC_OK);
    uint8_t *d = ic_tensor_data(*t);
    uint64_t s = seed * 2654435761u + (uint64_t)k * 40503u + 1;
    for (int64_t i = 0; i < ic_tensor_numel(*t); i++) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      d[i] = vals[(s >> 33) % 4];
    }
  }
}

/* The one-op program: feeds x, y, fetches out; axis written when set_axis. */
static inline ic_builder *cb_program(int op, const ic_tensor *x, const ic_tensor *y, int axis,
                                     bool set_axis) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ew_feed(b, "y", y);
  ic_builder_op *o = ic_builder_add_op(b, 0, cb_types[op]);
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Y", "y");
  ic_builder_out(o, "Out", "out");
  if (set_axis) ic_builder_attr_int(o, "axis", axis);
  ew_fetch(b, "out", ic_tensor_dtype(x));
  return b;
}

/* GPU against CPU: add, sub, mul, div, max, min, floordiv and mod are IEEE operations (no
 * FMA contraction, fmod exact) and integer pow goes through ic_ew_ipow, so they agree bit
 * for bit; float pow goes through CUDA's powf / pow. */
static inline void cb_gpu_tol(int op, ic_dtype dt, double *rtol, double *atol) {
  *rtol = *atol = 0;
  if (op == CB_POW && dt == IC_FP32) *rtol = 1e-5;
  if (op == CB_POW && dt == IC_FP64) *rtol = 1e-13;
}

#endif
