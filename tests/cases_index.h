/* The case tables of gather and of the repeat ops (expand_v2, expand_as_v2, expand, tile).
 * Header-only so that every backend's suite runs the same cases: tests/test_ops_index.c on
 * the CPU executors against references that compute each output element's source index,
 * tests/test_cuda_index.c on the CUDA kernels against the CPU kernels, bit for bit. Each row
 * gives its expected output dims, worked out by hand from Paddle's rules. */
#ifndef IC_TESTS_CASES_INDEX_H
#define IC_TESTS_CASES_INDEX_H

#include "ew_testutil.h"
#include "optest.h"

/* ---- gather ---- */

typedef struct cga_case {
  ic_dtype dt;           /* X's */
  int xnd;
  int64_t xd[4];
  int axis;              /* the attribute, or the Axis input's value when axis_tensor */
  bool axis_tensor;
  ic_dtype idt;          /* Index: int32 or int64 */
  int n;                 /* index count */
  int64_t idx[8];        /* the first values; the rest (n > 8) are (k * 7919) mod dim */
  bool scalar;           /* Index 0-D (n = 1): the dim is dropped */
} cga_case;

static const cga_case cga_cases[] = {
    {IC_FP64, 3, {3, 4, 5}, 0, false, IC_INT64, 4, {2, 0, 2, 1}, false},
    {IC_FP64, 3, {3, 4, 5}, 1, false, IC_INT64, 2, {3, 0}, false},
    {IC_FP64, 3, {3, 4, 5}, -1, false, IC_INT64, 3, {4, 4, 1}, false},
    {IC_FP64, 3, {3, 4, 5}, 2, true, IC_INT64, 2, {1, 3}, false},
    {IC_FP64, 3, {3, 4, 5}, 1, false, IC_INT64, 1, {2}, true},
    /* int32 indices, other element sizes, an empty index list */
    {IC_FP32, 3, {3, 4, 5}, 1, false, IC_INT32, 3, {3, 1, 3}, false},
    {IC_INT64, 2, {6, 3}, 0, false, IC_INT32, 5, {5, 0, 0, 4, 2}, false},
    {IC_UINT8, 2, {3, 7}, 1, false, IC_INT64, 4, {6, 0, 3, 3}, false},
    {IC_FP16, 2, {4, 5}, -2, false, IC_INT64, 2, {3, 3}, false},
    {IC_FP32, 2, {4, 5}, 0, false, IC_INT64, 0, {0}, false},
    /* an embedding lookup: 300 rows of 64 out of 1000 */
    {IC_FP32, 2, {1000, 64}, 0, false, IC_INT64, 300, {999, 0, 1}, false},
};
#define CGA_N_CASES (sizeof cga_cases / sizeof cga_cases[0])

static inline int cga_axis(const cga_case *c) { return c->axis < 0 ? c->axis + c->xnd : c->axis; }

/* Index value k of row c. */
static inline int64_t cga_index(const cga_case *c, int k) {
  return k < 8 ? c->idx[k] : ((int64_t)k * 7919) % c->xd[cga_axis(c)];
}

/* The program and its feeds: x (ot_iota), i, and ax (int32 [1]) when axis_tensor. */
static inline ic_builder *cga_program(const cga_case *c, size_t *n_in, const char **names,
                                      ic_tensor **in) {
  ic_builder *b = ic_builder_create();
  ic_tensor *x = ot_iota(c->dt, c->xnd, c->xd, 2), *idx;
  int64_t nd = c->n;
  ck_assert_int_eq(ic_tensor_create(c->idt, c->scalar ? 0 : 1, &nd, &idx), IC_OK);
  for (int k = 0; k < c->n; k++) {
    if (c->idt == IC_INT32) ((int32_t *)ic_tensor_data(idx))[k] = (int32_t)cga_index(c, k);
    else ((int64_t *)ic_tensor_data(idx))[k] = cga_index(c, k);
  }
  *n_in = 0;
  names[*n_in] = "x", in[(*n_in)++] = x;
  names[*n_in] = "i", in[(*n_in)++] = idx;
  if (c->axis_tensor) {
    names[*n_in] = "ax";
    in[(*n_in)++] = tu_i32(1, TU_DIMS(1), (const int32_t[]){c->axis});
  }
  for (size_t k = 0; k < *n_in; k++) ew_feed(b, names[k], in[k]);
  ic_builder_op *o = ic_builder_add_op(b, 0, "gather");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Index", "i");
  if (c->axis_tensor) ic_builder_in(o, "Axis", "ax");
  ic_builder_attr_int(o, "axis", c->axis_tensor ? 0 : c->axis);
  ic_builder_out(o, "Out", "out");
  ew_fetch(b, "out", c->dt);
  return b;
}

/* ---- expand_v2, expand_as_v2, expand, tile ---- */

enum { CRP_ATTR, CRP_TENSOR, CRP_LIST, CRP_Y };

typedef struct crp_case {
  const char *op;
  ic_dtype dt;
  int xnd;
  int64_t xd[6];
  int src;         /* the target from the attribute, a tensor, a list of one-element tensors,
                      or (expand_as_v2) input Y's dims */
  int nt;
  int64_t t[6];    /* the target shape (expand_v2, expand_as_v2) or times (expand, tile) */
  int ond;         /* expected Out */
  int64_t od[6];
} crp_case;

#define CRP_SRC3(op, dt, xnd, XD, nt, T, ond, OD)                                           \
  {op, dt, xnd, XD, CRP_ATTR, nt, T, ond, OD}, {op, dt, xnd, XD, CRP_TENSOR, nt, T, ond, OD}, \
      {op, dt, xnd, XD, CRP_LIST, nt, T, ond, OD}
#define CRP_L(...) {__VA_ARGS__}

static const crp_case crp_cases[] = {
    /* expand_v2: -1 keeps a dim; from the attribute, the Shape tensor, the list */
    CRP_SRC3("expand_v2", IC_FP32, 2, CRP_L(3, 1), 3, CRP_L(2, -1, 5), 3, CRP_L(2, 3, 5)),
    /* NCHW broadcast of a per-channel vector; a 0-D X; other element sizes */
    {"expand_v2", IC_FP32, 4, {1, 64, 1, 1}, CRP_ATTR, 4, {8, 64, 32, 32}, 4, {8, 64, 32, 32}},
    {"expand_v2", IC_INT64, 0, {0}, CRP_ATTR, 2, {3, 4}, 2, {3, 4}},
    {"expand_v2", IC_UINT8, 3, {2, 1, 3}, CRP_ATTR, 3, {2, 5, 3}, 3, {2, 5, 3}},
    {"expand_v2", IC_FP16, 2, {1, 7}, CRP_ATTR, 3, {2, 3, 7}, 3, {2, 3, 7}},
    {"expand_v2", IC_FP64, 2, {4, 1}, CRP_ATTR, 2, {4, 0}, 2, {4, 0}},
    /* expand_as_v2: Y's dims, or target_shape */
    {"expand_as_v2", IC_INT32, 2, {1, 4}, CRP_Y, 3, {2, 3, 4}, 3, {2, 3, 4}},
    {"expand_as_v2", IC_INT32, 2, {1, 4}, CRP_ATTR, 2, {3, 4}, 2, {3, 4}},
    {"expand_as_v2", IC_FP32, 3, {2, 1, 5}, CRP_Y, 4, {3, 2, 6, 5}, 4, {3, 2, 6, 5}},
    /* expand (v1): X's dims times expand_times, from the attribute or ExpandTimes */
    {"expand", IC_FP64, 2, {2, 3}, CRP_ATTR, 2, {3, 2}, 2, {6, 6}},
    {"expand", IC_FP64, 2, {2, 3}, CRP_TENSOR, 2, {3, 2}, 2, {6, 6}},
    {"expand", IC_INT16, 3, {2, 1, 3}, CRP_ATTR, 3, {1, 4, 2}, 3, {2, 4, 6}},
    /* tile: repeat_times longer than X's rank, shorter, with a 0 count; every source */
    CRP_SRC3("tile", IC_FP32, 2, CRP_L(2, 3), 3, CRP_L(2, 1, 3), 3, CRP_L(2, 2, 9)),
    CRP_SRC3("tile", IC_FP32, 2, CRP_L(2, 3), 1, CRP_L(2), 2, CRP_L(2, 6)),
    CRP_SRC3("tile", IC_FP32, 2, CRP_L(2, 3), 2, CRP_L(1, 0), 2, CRP_L(2, 0)),
    {"tile", IC_INT64, 3, {3, 5, 7}, CRP_ATTR, 4, {2, 3, 1, 2}, 4, {2, 9, 5, 14}},
    {"tile", IC_UINT8, 1, {5}, CRP_ATTR, 2, {300, 2}, 2, {300, 10}},
};
#undef CRP_SRC3
#define CRP_N_CASES (sizeof crp_cases / sizeof crp_cases[0])

/* The program of row c with X = x (taken), and its feeds (x first; up to 7 more). */
static inline ic_builder *crp_program(const crp_case *c, size_t *n_in, const char **names,
                                      ic_tensor **in) {
  static const char *const ln[6] = {"t0", "t1", "t2", "t3", "t4", "t5"};
  const bool v2 = !strcmp(c->op, "expand_v2"), as = !strcmp(c->op, "expand_as_v2");
  const bool tile = !strcmp(c->op, "tile");
  ic_builder *b = ic_builder_create();
  *n_in = 0;
  names[*n_in] = "x", in[(*n_in)++] = ot_iota(c->dt, c->xnd, c->xd, 1);
  if (c->src == CRP_Y) {
    names[*n_in] = "y", in[(*n_in)++] = ot_iota(IC_FP32, c->nt, c->t, 1);
  } else if (c->src == CRP_TENSOR) {
    int32_t v[6];
    for (int k = 0; k < c->nt; k++) v[k] = (int32_t)c->t[k];
    names[*n_in] = "t", in[(*n_in)++] = tu_i32(1, TU_DIMS(c->nt), v);
  } else if (c->src == CRP_LIST) {
    for (int k = 0; k < c->nt; k++) {
      names[*n_in] = ln[k], in[(*n_in)++] = tu_i64(1, TU_DIMS(1), &c->t[k]);
    }
  }
  for (size_t k = 0; k < *n_in; k++) ew_feed(b, names[k], in[k]);
  ic_builder_op *o = ic_builder_add_op(b, 0, c->op);
  ic_builder_in(o, "X", "x");
  int32_t attr[6];
  for (int k = 0; k < c->nt; k++) attr[k] = (int32_t)c->t[k];
  const char *attr_name = v2 ? "shape" : as ? "target_shape" : tile ? "repeat_times"
                                                                    : "expand_times";
  /* the attribute: the source, or (expand_v2, expand) written beside the input that beats
   * it; tile with an input has none */
  if (c->src == CRP_ATTR || (c->src != CRP_Y && !tile)) {
    ic_builder_attr_ints(o, attr_name, (size_t)c->nt, attr);
  }
  if (c->src == CRP_Y) ic_builder_in(o, "Y", "y");
  if (c->src == CRP_TENSOR) {
    ic_builder_in(o, v2 ? "Shape" : tile ? "RepeatTimes" : "ExpandTimes", "t");
  }
  if (c->src == CRP_LIST) {
    ic_builder_input(o, v2 ? "expand_shapes_tensor" : tile ? "repeat_times_tensor"
                                                           : "expand_times_tensor",
                     (size_t)c->nt, ln);
  }
  ic_builder_out(o, "Out", "out");
  ew_fetch(b, "out", c->dt);
  return b;
}

#endif
