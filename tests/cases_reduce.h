/* The case tables of the reductions (reduce_sum, reduce_mean, reduce_max), mean and sum
 * (add_n). Header-only so that every backend's suite runs the same cases:
 * tests/test_ops_reduce.c on the CPU executors against double-precision loops, with each
 * row's Out dtype and dims written out by hand from Paddle's rules (ReduceInferDim,
 * SumRawInferMeta, MeanAllInferMeta, AddNInferMeta); tests/test_cuda_reduce.c on the CUDA
 * kernels against the CPU kernels (cr_gpu_tol).
 *
 * The reduction rows cover every axis pattern with and without keep_dim in every dtype,
 * reduce_all, an empty or absent `dim`, rank 0, axes of size 1, out_dtype conversions, empty
 * axes, and sizes that take each GPU kernel shape (a block per output over contiguous or
 * strided elements, a thread per output, more outputs than one grid sweep). */
#ifndef IC_TESTS_CASES_REDUCE_H
#define IC_TESTS_CASES_REDUCE_H

#include "ew_testutil.h"
#include "mathutil.h"

enum { CR_SUM, CR_MEAN, CR_MAX };
static const char *const cr_types[] = {"reduce_sum", "reduce_mean", "reduce_max"};

#define CR_NO_ATTR INT32_MIN /* leave out_dtype out */

typedef struct cr_case {
  int kind;
  size_t n_dim;
  int32_t dim[4];
  bool has_dim;      /* false: leave `dim` out (Paddle's default [0]) */
  bool keep_dim, reduce_all;
  int out_dtype;     /* CR_NO_ATTR: absent */
  ic_dtype xdt;
  int nd;
  int64_t xd[4];
  bool mask[4];      /* the axes reduced */
  ic_dtype odt;      /* Out's dtype and dims */
  int on;
  int64_t od[4];
  bool gpu_only;     /* too large for the CPU executors' every configuration */
} cr_case;

#define CR_L(...) {__VA_ARGS__}
#define CR_DIM(...) sizeof((const int32_t[]){__VA_ARGS__}) / sizeof(int32_t), {__VA_ARGS__}, true
#define CR_NODIM 0, {0}, false
#define CR_EMPTYDIM 0, {0}, true
/* One row: kind, dim, keep_dim, reduce_all, out_dtype, X dtype, rank, X dims, mask, Out
 * dtype, rank, Out dims. */
#define CR(k, DIM, keep, all, odattr, xdt, nd, XD, M, odt, on, OD) \
  {k, DIM, keep, all, odattr, xdt, nd, XD, M, odt, on, OD, false}
/* The same row for sum, mean and max, float32 and float64 (Out keeps X's dtype). */
#define CR_KF(DIM, keep, all, nd, XD, M, on, OD)                                            \
  {CR_SUM, DIM, keep, all, CR_NO_ATTR, IC_FP32, nd, XD, M, IC_FP32, on, OD, false},        \
      {CR_SUM, DIM, keep, all, CR_NO_ATTR, IC_FP64, nd, XD, M, IC_FP64, on, OD, false},    \
      {CR_MEAN, DIM, keep, all, CR_NO_ATTR, IC_FP32, nd, XD, M, IC_FP32, on, OD, false},   \
      {CR_MEAN, DIM, keep, all, CR_NO_ATTR, IC_FP64, nd, XD, M, IC_FP64, on, OD, false},   \
      {CR_MAX, DIM, keep, all, CR_NO_ATTR, IC_FP32, nd, XD, M, IC_FP32, on, OD, false},    \
      {CR_MAX, DIM, keep, all, CR_NO_ATTR, IC_FP64, nd, XD, M, IC_FP64, on, OD, false}
/* The same row for int32 and int64: sum widens int32 to int64, mean and max keep it. */
#define CR_KI(DIM, keep, nd, XD, M, on, OD)                                                 \
  {CR_SUM, DIM, keep, false, CR_NO_ATTR, IC_INT32, nd, XD, M, IC_INT64, on, OD, false},    \
      {CR_SUM, DIM, keep, false, CR_NO_ATTR, IC_INT64, nd, XD, M, IC_INT64, on, OD, false}, \
      {CR_MEAN, DIM, keep, false, CR_NO_ATTR, IC_INT32, nd, XD, M, IC_INT32, on, OD, false}, \
      {CR_MEAN, DIM, keep, false, CR_NO_ATTR, IC_INT64, nd, XD, M, IC_INT64, on, OD, false}, \
      {CR_MAX, DIM, keep, false, CR_NO_ATTR, IC_INT32, nd, XD, M, IC_INT32, on, OD, false}, \
      {CR_MAX, DIM, keep, false, CR_NO_ATTR, IC_INT64, nd, XD, M, IC_INT64, on, OD, false}
/* reduce_sum of a [3, 4, 5] X over axis 2 and over axis 0 with out_dtype od. */
#define CR_CONV(xdt, od, odt)                                                               \
  {CR_SUM, CR_DIM(2), false, false, od, xdt, 3, CR_L(3, 4, 5), CR_L(0, 0, 1), odt, 2, \
     CR_L(3, 4), false},                                                                           \
      {CR_SUM, CR_DIM(0), false, false, od, xdt, 3, CR_L(3, 4, 5), CR_L(1, 0, 0),    \
         odt, 2, CR_L(4, 5), false}
/* A shape for each GPU kernel, for the three reductions (float32 unless said). */
#define CR_SHAPES(k)                                                                        \
  {k, CR_DIM(0), false, false, CR_NO_ATTR, IC_FP32, 2, CR_L(100003, 3), CR_L(1, 0), \
     IC_FP32, 1, CR_L(3), false},                                                                  \
      {k, CR_DIM(1), false, false, CR_NO_ATTR, IC_FP32, 2, CR_L(3, 100003),          \
         CR_L(0, 1), IC_FP32, 1, CR_L(3), false},                                                  \
      {k, CR_DIM(0, 2), false, false, CR_NO_ATTR, IC_FP64, 3, CR_L(17, 13, 19),      \
         CR_L(1, 0, 1), IC_FP64, 1, CR_L(13), false},                                              \
      {k, CR_DIM(0), false, false, CR_NO_ATTR, IC_FP32, 2, CR_L(64, 4099),           \
         CR_L(1, 0), IC_FP32, 1, CR_L(4099), false},                                               \
      {k, CR_DIM(1), false, false, CR_NO_ATTR, IC_FP32, 2, CR_L(70001, 33),          \
         CR_L(0, 1), IC_FP32, 1, CR_L(70001), false}

static const cr_case cr_cases[] = {
    /* one axis, with and without keep_dim; the last axis, negative */
    CR_KF(CR_DIM(1), false, false, 4, CR_L(2, 3, 4, 5), CR_L(0, 1, 0, 0), 3, CR_L(2, 4, 5)),
    CR_KF(CR_DIM(1), true, false, 4, CR_L(2, 3, 4, 5), CR_L(0, 1, 0, 0), 4, CR_L(2, 1, 4, 5)),
    CR_KF(CR_DIM(-1), false, false, 4, CR_L(2, 3, 4, 5), CR_L(0, 0, 0, 1), 3, CR_L(2, 3, 4)),
    /* two axes that are not adjacent, in either order */
    CR_KF(CR_DIM(0, 2), false, false, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 1, 0), 2, CR_L(3, 5)),
    CR_KF(CR_DIM(-2, 0), true, false, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 1, 0), 4,
          CR_L(1, 3, 1, 5)),
    /* adjacent middle axes; first and last; three of four */
    CR_KF(CR_DIM(2, 1), false, false, 4, CR_L(2, 3, 4, 5), CR_L(0, 1, 1, 0), 2, CR_L(2, 5)),
    CR_KF(CR_DIM(-4, 3), false, false, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 0, 1), 2, CR_L(3, 4)),
    CR_KF(CR_DIM(0, 1, 3), false, false, 4, CR_L(2, 3, 4, 5), CR_L(1, 1, 0, 1), 1, CR_L(4)),
    CR_KF(CR_DIM(-4, 1, 3), true, false, 4, CR_L(2, 3, 4, 5), CR_L(1, 1, 0, 1), 4,
          CR_L(1, 1, 4, 1)),
    /* the same patterns in the integer dtypes */
    CR_KI(CR_DIM(1), false, 4, CR_L(2, 3, 4, 5), CR_L(0, 1, 0, 0), 3, CR_L(2, 4, 5)),
    CR_KI(CR_DIM(-1), true, 4, CR_L(2, 3, 4, 5), CR_L(0, 0, 0, 1), 4, CR_L(2, 3, 4, 1)),
    CR_KI(CR_DIM(0, 2), false, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 1, 0), 2, CR_L(3, 5)),
    CR_KI(CR_DIM(1, 2), true, 4, CR_L(2, 3, 4, 5), CR_L(0, 1, 1, 0), 4, CR_L(2, 1, 1, 5)),
    CR_KI(CR_DIM(0, -1), false, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 0, 1), 2, CR_L(3, 4)),
    CR_KI(CR_DIM(3, 0), true, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 0, 1), 4, CR_L(1, 3, 4, 1)),
    CR_KI(CR_DIM(1), false, 3, CR_L(3, 4, 5), CR_L(0, 1, 0), 2, CR_L(3, 5)),
    CR_KI(CR_DIM(0, 2), true, 3, CR_L(3, 4, 5), CR_L(1, 0, 1), 3, CR_L(1, 4, 1)),
    /* the axis patterns of the GPU's kernels, with and without keep_dim, in every dtype */
    CR_KF(CR_DIM(1), false, false, 4, CR_L(2, 3, 4, 5), CR_L(0, 1, 0, 0), 3, CR_L(2, 4, 5)),
    CR_KI(CR_DIM(1), false, 4, CR_L(2, 3, 4, 5), CR_L(0, 1, 0, 0), 3, CR_L(2, 4, 5)),
    CR_KF(CR_DIM(1), true, false, 4, CR_L(2, 3, 4, 5), CR_L(0, 1, 0, 0), 4, CR_L(2, 1, 4, 5)),
    CR_KI(CR_DIM(1), true, 4, CR_L(2, 3, 4, 5), CR_L(0, 1, 0, 0), 4, CR_L(2, 1, 4, 5)),
    CR_KF(CR_DIM(-1), false, false, 4, CR_L(2, 3, 4, 5), CR_L(0, 0, 0, 1), 3, CR_L(2, 3, 4)),
    CR_KI(CR_DIM(-1), false, 4, CR_L(2, 3, 4, 5), CR_L(0, 0, 0, 1), 3, CR_L(2, 3, 4)),
    CR_KF(CR_DIM(-1), true, false, 4, CR_L(2, 3, 4, 5), CR_L(0, 0, 0, 1), 4, CR_L(2, 3, 4, 1)),
    CR_KI(CR_DIM(-1), true, 4, CR_L(2, 3, 4, 5), CR_L(0, 0, 0, 1), 4, CR_L(2, 3, 4, 1)),
    CR_KF(CR_DIM(0, 2), false, false, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 1, 0), 2, CR_L(3, 5)),
    CR_KI(CR_DIM(0, 2), false, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 1, 0), 2, CR_L(3, 5)),
    CR_KF(CR_DIM(0, 2), true, false, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 1, 0), 4, CR_L(1, 3, 1, 5)),
    CR_KI(CR_DIM(0, 2), true, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 1, 0), 4, CR_L(1, 3, 1, 5)),
    CR_KF(CR_DIM(1, 2), false, false, 4, CR_L(2, 3, 4, 5), CR_L(0, 1, 1, 0), 2, CR_L(2, 5)),
    CR_KI(CR_DIM(1, 2), false, 4, CR_L(2, 3, 4, 5), CR_L(0, 1, 1, 0), 2, CR_L(2, 5)),
    CR_KF(CR_DIM(1, 2), true, false, 4, CR_L(2, 3, 4, 5), CR_L(0, 1, 1, 0), 4, CR_L(2, 1, 1, 5)),
    CR_KI(CR_DIM(1, 2), true, 4, CR_L(2, 3, 4, 5), CR_L(0, 1, 1, 0), 4, CR_L(2, 1, 1, 5)),
    CR_KF(CR_DIM(0, -1), false, false, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 0, 1), 2, CR_L(3, 4)),
    CR_KI(CR_DIM(0, -1), false, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 0, 1), 2, CR_L(3, 4)),
    CR_KF(CR_DIM(0, -1), true, false, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 0, 1), 4, CR_L(1, 3, 4, 1)),
    CR_KI(CR_DIM(0, -1), true, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 0, 1), 4, CR_L(1, 3, 4, 1)),
    CR_KF(CR_DIM(-4, 1, 3), false, false, 4, CR_L(2, 3, 4, 5), CR_L(1, 1, 0, 1), 1, CR_L(4)),
    CR_KI(CR_DIM(-4, 1, 3), false, 4, CR_L(2, 3, 4, 5), CR_L(1, 1, 0, 1), 1, CR_L(4)),
    CR_KF(CR_DIM(-4, 1, 3), true, false, 4, CR_L(2, 3, 4, 5), CR_L(1, 1, 0, 1), 4,
          CR_L(1, 1, 4, 1)),
    CR_KI(CR_DIM(-4, 1, 3), true, 4, CR_L(2, 3, 4, 5), CR_L(1, 1, 0, 1), 4, CR_L(1, 1, 4, 1)),
    CR_KF(CR_DIM(3, 0), false, false, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 0, 1), 2, CR_L(3, 4)),
    CR_KI(CR_DIM(3, 0), false, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 0, 1), 2, CR_L(3, 4)),
    CR_KF(CR_DIM(3, 0), true, false, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 0, 1), 4, CR_L(1, 3, 4, 1)),
    CR_KI(CR_DIM(3, 0), true, 4, CR_L(2, 3, 4, 5), CR_L(1, 0, 0, 1), 4, CR_L(1, 3, 4, 1)),
    /* every axis named: rank 0 (Paddle >= 2.5), or all 1s with keep_dim */
    CR_KF(CR_DIM(0, 1, 2), false, false, 3, CR_L(3, 5, 7), CR_L(1, 1, 1), 0, CR_L(0)),
    CR_KF(CR_DIM(0, 1, 2), true, false, 3, CR_L(3, 5, 7), CR_L(1, 1, 1), 3, CR_L(1, 1, 1)),
    CR_KF(CR_DIM(2, -2, 0), true, false, 3, CR_L(3, 5, 7), CR_L(1, 1, 1), 3, CR_L(1, 1, 1)),
    /* reduce_all overrides dim */
    CR_KF(CR_DIM(1), false, true, 3, CR_L(3, 5, 7), CR_L(1, 1, 1), 0, CR_L(0)),
    CR_KF(CR_DIM(1), true, true, 3, CR_L(3, 5, 7), CR_L(1, 1, 1), 3, CR_L(1, 1, 1)),
    /* an empty dim list reduces everything; no dim attribute at all is Paddle's [0] */
    CR_KF(CR_EMPTYDIM, false, false, 3, CR_L(3, 5, 7), CR_L(1, 1, 1), 0, CR_L(0)),
    CR_KF(CR_NODIM, false, false, 3, CR_L(3, 5, 7), CR_L(1, 0, 0), 2, CR_L(5, 7)),
    /* a rank-0 X takes 0 and -1 and stays rank 0, keep_dim or not */
    CR_KF(CR_DIM(-1), true, false, 0, CR_L(0), CR_L(0), 0, CR_L(0)),
    CR_KF(CR_DIM(0), false, false, 0, CR_L(0), CR_L(0), 0, CR_L(0)),
    CR_KI(CR_DIM(0), false, 0, CR_L(0), CR_L(0), 0, CR_L(0)),
    /* one element; axes of size 1 */
    CR_KF(CR_DIM(1), false, false, 2, CR_L(1, 1), CR_L(0, 1), 1, CR_L(1)),
    CR_KF(CR_DIM(1), false, false, 3, CR_L(4, 1, 3), CR_L(0, 1, 0), 2, CR_L(4, 3)),
    CR_KF(CR_DIM(0, 2), false, false, 4, CR_L(1, 6, 1, 5), CR_L(1, 0, 1, 0), 2, CR_L(6, 5)),
    CR_KI(CR_DIM(0, 2), false, 4, CR_L(1, 6, 1, 5), CR_L(1, 0, 1, 0), 2, CR_L(6, 5)),
    /* reduce_sum widens bool to int64; an explicit out_dtype (-1: the default) */
    CR(CR_SUM, CR_DIM(1), false, false, -1, IC_INT32, 3, CR_L(3, 4, 5), CR_L(0, 1, 0),
       IC_INT64, 2, CR_L(3, 5)),
    CR(CR_SUM, CR_DIM(1), false, false, -1, IC_BOOL, 3, CR_L(3, 4, 5), CR_L(0, 1, 0),
       IC_INT64, 2, CR_L(3, 5)),
    CR(CR_SUM, CR_DIM(0, 2), true, false, CR_NO_ATTR, IC_BOOL, 3, CR_L(3, 4, 5),
       CR_L(1, 0, 1), IC_INT64, 3, CR_L(1, 4, 1)),
    CR_CONV(IC_INT32, IC_INT32, IC_INT32), CR_CONV(IC_INT64, IC_INT32, IC_INT32),
    CR_CONV(IC_INT64, IC_FP64, IC_FP64), CR_CONV(IC_INT32, IC_FP32, IC_FP32),
    CR_CONV(IC_FP32, IC_FP64, IC_FP64), CR_CONV(IC_FP64, IC_FP32, IC_FP32),
    CR_CONV(IC_FP32, IC_INT64, IC_INT64), CR_CONV(IC_FP64, IC_INT32, IC_INT32),
    CR_CONV(IC_BOOL, IC_FP32, IC_FP32), CR_CONV(IC_BOOL, IC_INT32, IC_INT32),
    CR_CONV(IC_FP32, -1, IC_FP32), CR_CONV(IC_INT32, -1, IC_INT64),
    /* empty: sums over an empty axis are 0, means NaN (floats) or 0 (integers); an empty
     * kept axis gives an empty Out, for max too */
    CR(CR_SUM, CR_DIM(1), false, false, CR_NO_ATTR, IC_FP32, 3, CR_L(2, 0, 3),
       CR_L(0, 1, 0), IC_FP32, 2, CR_L(2, 3)),
    CR(CR_SUM, CR_DIM(1), false, false, CR_NO_ATTR, IC_INT64, 3, CR_L(2, 0, 3),
       CR_L(0, 1, 0), IC_INT64, 2, CR_L(2, 3)),
    CR(CR_MEAN, CR_DIM(1), false, false, CR_NO_ATTR, IC_FP64, 3, CR_L(2, 0, 3),
       CR_L(0, 1, 0), IC_FP64, 2, CR_L(2, 3)),
    CR(CR_MEAN, CR_DIM(1), false, false, CR_NO_ATTR, IC_INT32, 3, CR_L(2, 0, 3),
       CR_L(0, 1, 0), IC_INT32, 2, CR_L(2, 3)),
    CR_KF(CR_DIM(2), false, false, 3, CR_L(2, 0, 3), CR_L(0, 0, 1), 2, CR_L(2, 0)),
    /* long rows and columns, two reduced groups, many outputs, more blocks than one grid */
    CR_SHAPES(CR_SUM), CR_SHAPES(CR_MEAN), CR_SHAPES(CR_MAX),
    CR(CR_SUM, CR_DIM(1), false, false, CR_NO_ATTR, IC_INT32, 3, CR_L(4099, 3, 8),
       CR_L(0, 1, 0), IC_INT64, 2, CR_L(4099, 8)),
    CR(CR_MEAN, CR_DIM(1), false, false, CR_NO_ATTR, IC_INT32, 3, CR_L(4099, 3, 8),
       CR_L(0, 1, 0), IC_INT32, 2, CR_L(4099, 8)),
    CR(CR_MAX, CR_DIM(1), false, false, CR_NO_ATTR, IC_INT32, 3, CR_L(4099, 3, 8),
       CR_L(0, 1, 0), IC_INT32, 2, CR_L(4099, 8)),
    CR(CR_SUM, CR_DIM(0, 2), false, false, CR_NO_ATTR, IC_INT64, 3, CR_L(3, 5000, 7),
       CR_L(1, 0, 1), IC_INT64, 1, CR_L(5000)),
    CR(CR_MEAN, CR_DIM(0, 2), false, false, CR_NO_ATTR, IC_INT64, 3, CR_L(3, 5000, 7),
       CR_L(1, 0, 1), IC_INT64, 1, CR_L(5000)),
    CR(CR_MAX, CR_DIM(0, 2), false, false, CR_NO_ATTR, IC_INT64, 3, CR_L(3, 5000, 7),
       CR_L(1, 0, 1), IC_INT64, 1, CR_L(5000)),
    /* more outputs than one grid sweep of threads (65536 blocks of 256) */
    {CR_SUM, CR_DIM(0), false, false, CR_NO_ATTR, IC_FP32, 2, {2, (1 << 24) + 3}, {1, 0},
     IC_FP32, 1, {(1 << 24) + 3}, true},
};
#undef CR_KF
#undef CR_KI
#undef CR_CONV
#undef CR_SHAPES
#undef CR
#define CR_N_CASES (sizeof cr_cases / sizeof cr_cases[0])

/* X of a row: mu_rand (floats in [-1, 1), integers in [-50, 50], bools). */
static inline ic_tensor *cr_input(const cr_case *c, uint64_t seed) {
  return mu_rand(c->xdt, c->nd, c->xd, seed);
}

static inline ic_builder *cr_program(const cr_case *c, const ic_tensor *x) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ic_builder_op *op = ic_builder_add_op(b, 0, cr_types[c->kind]);
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "out");
  if (c->has_dim) ic_builder_attr_ints(op, "dim", c->n_dim, c->dim);
  ic_builder_attr_bool(op, "keep_dim", c->keep_dim);
  ic_builder_attr_bool(op, "reduce_all", c->reduce_all);
  if (c->out_dtype != CR_NO_ATTR) {
    ic_builder_attr_int(op, "in_dtype", -1);
    ic_builder_attr_int(op, "out_dtype", c->out_dtype);
  }
  ew_fetch(b, "out", c->odt);
  return b;
}

/* GPU against CPU: float sums accumulate in double on both sides in different orders, so a
 * float32 Out may differ by one rounding (relative 1e-6, absolute 1e-9 near 0) and a float64
 * Out in its last bits (1e-12). Integer sums and means, and max, agree bit for bit. */
static inline void cr_gpu_tol(const cr_case *c, double *rtol, double *atol) {
  *rtol = *atol = 0;
  if (c->kind == CR_MAX) return;
  if (c->odt == IC_FP32) *rtol = 1e-6, *atol = 1e-9;
  if (c->odt == IC_FP64) *rtol = 1e-12, *atol = 1e-12;
}

/* mean (of every element): X's dims, float32 and float64 each. */
typedef struct cm_case {
  int nd;
  int64_t dims[4];
} cm_case;

static const cm_case cm_cases[] = {
    {2, {2, 3}}, {4, {7, 1, 5, 3}}, {1, {1}}, {2, {0, 4}}, {0, {0}}, {3, {3, 333, 7}},
    {1, {1 << 20}},
};
#define CM_N_CASES (sizeof cm_cases / sizeof cm_cases[0])

/* sum (add_n): how many inputs of shape [3, 1, 7], in float32, float64, int32, int64. */
static const size_t csum_counts[] = {1, 2, 3, 5, 16, 17, 33};
#define CSUM_N_COUNTS (sizeof csum_counts / sizeof csum_counts[0])
#define CSUM_MAX 40

#endif
