/* The case table of arg_max / arg_min: every axis (positive and negative), keepdims,
 * flatten, the dtype attribute (absent, -1, int32, int64), input dtypes (float32 with many
 * ties, float64, int32, int64, uint8), a 0-D input, and a segmentation head's shape.
 * Header-only so that every backend's suite runs the same cases: tests/test_ops_dense.c on
 * the CPU executors against a reference of plain loops (first extreme index),
 * tests/test_cuda_dense.c on the CUDA kernels against the CPU kernels (bit for bit). */
#ifndef IC_TESTS_CASES_ARG_H
#define IC_TESTS_CASES_ARG_H

#include "ew_testutil.h"
#include "optest.h"

enum { CA_TIES, CA_IOTA, CA_RAND };

typedef struct ca_case {
  ic_dtype dt;
  int input;        /* CA_TIES: small integers as floats (float32); CA_IOTA: ot_iota;
                       CA_RAND: uniform in [-2, 2) */
  int nd;
  int64_t dims[4];
  int axis;
  bool keep, flat;
  int odt;          /* the dtype attribute; 0: absent */
  uint64_t seed;
} ca_case;

#define CA_AXES(axis)                                                   \
  {IC_FP32, CA_TIES, 3, {3, 4, 5}, axis, false, false, 0, 1},           \
      {IC_FP32, CA_TIES, 3, {3, 4, 5}, axis, true, false, 2, 2},        \
      {IC_FP32, CA_TIES, 3, {3, 4, 5}, axis, false, false, 3, 5},       \
      {IC_FP64, CA_RAND, 3, {3, 4, 5}, axis, true, false, 2, 3}

static const ca_case ca_cases[] = {
    CA_AXES(-3), CA_AXES(-2), CA_AXES(-1), CA_AXES(0), CA_AXES(1), CA_AXES(2),
    /* flatten: the axis is ignored */
    {IC_FP32, CA_TIES, 3, {3, 4, 5}, 1, false, true, 3, 3},
    {IC_FP32, CA_TIES, 3, {3, 4, 5}, 0, true, true, 2, 4},
    {IC_FP32, CA_TIES, 3, {3, 4, 5}, 0, false, true, 3, 6},
    /* other dtypes */
    {IC_INT32, CA_IOTA, 2, {4, 6}, 1, false, false, 3, 9},
    {IC_INT64, CA_IOTA, 2, {4, 6}, 0, false, false, 2, 9},
    {IC_UINT8, CA_IOTA, 2, {3, 90}, 1, false, false, 3, 9},
    {IC_FP64, CA_IOTA, 1, {7}, 0, false, false, -1, 9},
    {IC_INT64, CA_RAND, 2, {7, 9}, 1, true, false, 3, 3},
    {IC_INT32, CA_RAND, 2, {7, 9}, 0, false, false, 2, 3},
    /* 0-D */
    {IC_FP32, CA_IOTA, 0, {0}, 0, false, false, 3, 9},
    /* a segmentation head: 19 classes over 64 x 64 */
    {IC_FP32, CA_RAND, 4, {2, 19, 64, 64}, 1, false, false, 2, 3},
};
#undef CA_AXES
#define CA_N_CASES (sizeof ca_cases / sizeof ca_cases[0])

static inline ic_tensor *ca_input(const ca_case *c) {
  if (c->input == CA_IOTA) return ot_iota(c->dt, c->nd, c->dims, c->seed);
  ic_tensor *t = ew_rand(c->dt, c->nd, c->dims, c->seed, c->input == CA_TIES ? -3 : -2,
                         c->input == CA_TIES ? 3 : 2);
  if (c->input == CA_TIES) {
    float *v = ic_tensor_data(t);
    for (int64_t i = 0; i < ic_tensor_numel(t); i++) v[i] = floorf(v[i]);
  }
  return t;
}

/* arg_max or arg_min (type) of x with case c's attributes, writing "y". */
static inline ic_builder *ca_program(const char *type, const ca_case *c, const ic_tensor *x) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ic_builder_op *op = ic_builder_add_op(b, 0, type);
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  ic_builder_attr_long(op, "axis", c->axis);
  ic_builder_attr_bool(op, "keepdims", c->keep);
  ic_builder_attr_bool(op, "flatten", c->flat);
  if (c->odt) ic_builder_attr_int(op, "dtype", c->odt);
  ew_fetch(b, "y", c->odt == 2 ? IC_INT32 : IC_INT64);
  return b;
}

#endif
