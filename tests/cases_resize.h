/* The case table of the resize ops (nearest_interp, bilinear_interp and nearest / bilinear /
 * linear / bicubic / trilinear_interp_v2): every interpolation method, both layouts, 1 to 3
 * spatial dims, align_corners and align_mode, and the output size from each source Paddle
 * knows (out_* attributes, the scale attribute, OutSize, SizeTensor, the Scale tensor, in
 * their order of precedence). Header-only so that every backend's suite runs the same
 * cases: tests/test_ops_resize.c on the CPU executors against a double-precision reference
 * written there, tests/test_cuda_dense.c on the CUDA kernels against the CPU kernels (bit
 * for bit: the same per-axis functions and sum order, no FMA contraction). */
#ifndef IC_TESTS_CASES_RESIZE_H
#define IC_TESTS_CASES_RESIZE_H

#include "ew_testutil.h"

typedef struct cz_case {
  const char *op;            /* op type */
  const char *method;        /* interp_method, NULL: omitted (the op's default) */
  int nd;                    /* spatial dims */
  int64_t n, c, in[3];       /* input */
  bool nhwc, align_corners;
  int align_mode;
  int64_t out_attr[3];       /* out_d/h/w by spatial position; 0: -1 */
  int n_scale;               /* scale attribute values (v2), or 1 with v1 */
  float scale[3];
  int n_outsize;             /* OutSize input values (0: absent) */
  int32_t outsize[3];
  int n_sizet;               /* SizeTensor inputs (0: absent) */
  int32_t sizet[3];
  int n_scalet;              /* Scale input values (0: absent) */
  float scalet[3];
  bool large;                /* more output than one grid pass of the GPU: CUDA suite only */
} cz_case;

#define CZ_AM(am)                                                                           \
  {"bilinear_interp_v2", "bilinear", 2, 2, 2, {4, 5}, .out_attr = {7, 9}, .align_mode = am}, \
      {"bilinear_interp_v2", "bilinear", 2, 1, 3, {5, 4}, .out_attr = {3, 2},               \
       .align_mode = am},                                                                   \
      {"bilinear_interp_v2", NULL, 2, 1, 3, {4, 2}, .nhwc = true, .out_attr = {6, 5},       \
       .align_mode = am},                                                                   \
      {"bilinear_interp_v2", "bilinear", 2, 1, 2, {4, 5}, .n_scale = 2,                     \
       .scale = {1.7f, 0.6f}, .align_mode = am},                                            \
      {"bilinear_interp", "bilinear", 2, 1, 2, {4, 5}, .n_scale = 1, .scale = {1.7f},       \
       .align_mode = am},                                                                   \
      {"linear_interp_v2", "linear", 1, 2, 3, {5}, .out_attr = {8}, .align_mode = am},      \
      {"linear_interp_v2", NULL, 1, 2, 3, {5}, .nhwc = true, .n_scale = 1,                  \
       .scale = {1.5f}, .align_mode = am},                                                  \
      {"trilinear_interp_v2", "trilinear", 3, 1, 2, {3, 4, 3}, .out_attr = {5, 3, 4},       \
       .align_mode = am}

static const cz_case cz_cases[] = {
    /* nearest v2: out attributes, half-pixel-free index int(ratio * k), align_corners */
    {"nearest_interp_v2", "nearest", 2, 2, 3, {4, 5}, .out_attr = {7, 3}},
    /* 65536 output elements or more: the CPU kernel's threads share the planes (and the
     * NHWC layout, which it keeps single-threaded) */
    {"nearest_interp_v2", "nearest", 2, 2, 24, {40, 39}, .out_attr = {80, 78}},
    {"nearest_interp_v2", NULL, 2, 2, 24, {40, 39}, .nhwc = true, .out_attr = {80, 78}},
    {"nearest_interp_v2", "nearest", 2, 1, 2, {4, 5}, .out_attr = {7, 3}, .align_corners = true},
    {"nearest_interp_v2", NULL, 2, 1, 3, {3, 4}, .nhwc = true, .out_attr = {5, 9}},
    {"nearest_interp_v2", "nearest", 2, 2, 3, {5, 7}, .out_attr = {9, 4}},
    {"nearest_interp_v2", "nearest", 2, 1, 3, {5, 7}, .nhwc = true, .out_attr = {11, 13},
     .align_corners = true},
    /* a scale list: ratio 1 / scale */
    {"nearest_interp_v2", "nearest", 2, 1, 2, {3, 5}, .n_scale = 2, .scale = {2.0f, 1.5f}},
    {"nearest_interp_v2", "nearest", 2, 1, 3, {5, 7}, .n_scale = 2, .scale = {2.0f, 1.5f}},
    /* 3-D */
    {"nearest_interp_v2", "nearest", 3, 1, 2, {2, 3, 2}, .out_attr = {3, 5, 3}},
    {"nearest_interp_v2", "nearest", 3, 1, 2, {2, 3, 2}, .nhwc = true, .out_attr = {4, 2, 5},
     .align_corners = true},
    {"nearest_interp_v2", "nearest", 3, 1, 2, {3, 4, 5}, .out_attr = {4, 6, 3}},
    /* v1: a float scale */
    {"nearest_interp", "nearest", 2, 1, 2, {3, 5}, .n_scale = 1, .scale = {1.7f}},
    {"nearest_interp", "nearest", 2, 1, 2, {6, 5}, .n_scale = 1, .scale = {1.7f}},
    {"nearest_interp", NULL, 2, 2, 2, {4, 4}, .out_attr = {2, 6}, .align_corners = true},
    /* same size: a copy */
    {"nearest_interp_v2", "nearest", 2, 1, 2, {3, 4}, .out_attr = {3, 4}},
    {"bilinear_interp_v2", "bilinear", 2, 1, 2, {6, 5}, .out_attr = {6, 5}},
    /* bilinear, linear and trilinear in both align modes */
    CZ_AM(0), CZ_AM(1),
    {"bilinear_interp_v2", "bilinear", 2, 2, 3, {6, 5}, .out_attr = {11, 9}, .align_mode = 0},
    {"bilinear_interp_v2", "bilinear", 2, 2, 3, {6, 5}, .out_attr = {4, 3}, .align_mode = 1},
    {"bilinear_interp", "bilinear", 2, 1, 2, {6, 5}, .out_attr = {9, 7}, .align_mode = 0},
    {"bilinear_interp_v2", "bilinear", 2, 2, 2, {4, 5}, .out_attr = {7, 3},
     .align_corners = true},
    {"bilinear_interp_v2", "bilinear", 2, 1, 4, {6, 5}, .nhwc = true, .out_attr = {8, 10},
     .align_corners = true},
    {"bilinear_interp", NULL, 2, 1, 2, {4, 5}, .out_attr = {5, 4}, .align_corners = true},
    /* an output of one row: ratio 0 */
    {"bilinear_interp_v2", "bilinear", 2, 1, 1, {4, 5}, .out_attr = {1, 8}, .align_mode = 0},
    /* size inputs: OutSize overrides the size a scale gives; the scale still sets the ratio */
    {"bilinear_interp_v2", "bilinear", 2, 1, 2, {4, 5}, .out_attr = {2, 2}, .n_scale = 2,
     .scale = {3, 3}, .n_outsize = 2, .outsize = {6, 3}},
    {"bilinear_interp_v2", "bilinear", 2, 1, 2, {6, 5}, .out_attr = {2, 2}, .n_scale = 2,
     .scale = {3, 3}, .n_outsize = 2, .outsize = {7, 4}},
    /* SizeTensor over OutSize */
    {"bilinear_interp_v2", "bilinear", 2, 1, 2, {4, 5}, .n_outsize = 2, .outsize = {6, 3},
     .n_sizet = 2, .sizet = {5, 7}},
    /* the Scale tensor over the scale attribute, two values and one */
    {"bilinear_interp_v2", "bilinear", 2, 1, 2, {4, 5}, .n_scale = 2, .scale = {3, 3},
     .n_scalet = 2, .scalet = {1.5f, 2.5f}},
    {"nearest_interp_v2", "nearest", 2, 1, 2, {4, 5}, .n_scalet = 1, .scalet = {0.8f}},
    /* v1: OutSize over the scale */
    {"nearest_interp", "nearest", 2, 1, 2, {4, 5}, .n_scale = 1, .scale = {2}, .n_outsize = 2,
     .outsize = {6, 3}},
    /* v2 with one scale value on 2 spatial dims: ignored, the out attributes count */
    {"bilinear_interp_v2", "bilinear", 2, 1, 2, {4, 5}, .out_attr = {3, 3}, .n_scale = 1,
     .scale = {2}},
    /* linear, bicubic, trilinear with align_corners; NHWC / NDHWC */
    {"linear_interp_v2", "linear", 1, 1, 2, {5}, .out_attr = {4}, .align_corners = true},
    {"linear_interp_v2", "linear", 1, 2, 3, {7}, .nhwc = true, .out_attr = {4},
     .align_corners = true},
    {"linear_interp_v2", "linear", 1, 2, 3, {7}, .out_attr = {12}, .align_mode = 0},
    {"trilinear_interp_v2", NULL, 3, 1, 2, {3, 4, 3}, .nhwc = true, .out_attr = {2, 6, 5},
     .align_corners = true},
    {"trilinear_interp_v2", "trilinear", 3, 1, 2, {3, 4, 5}, .out_attr = {5, 3, 7},
     .align_mode = 0},
    {"trilinear_interp_v2", "trilinear", 3, 1, 2, {3, 4, 5}, .nhwc = true, .out_attr = {2, 6, 4},
     .align_corners = true},
    {"bicubic_interp_v2", "bicubic", 2, 1, 2, {4, 5}, .out_attr = {7, 3}, .align_corners = true},
    {"bicubic_interp_v2", NULL, 2, 2, 2, {4, 5}, .out_attr = {3, 9}},
    {"bicubic_interp_v2", "bicubic", 2, 1, 3, {4, 5}, .nhwc = true, .n_scale = 2,
     .scale = {1.5f, 2.0f}},
    {"bicubic_interp_v2", "bicubic", 2, 1, 3, {5, 6}, .out_attr = {9, 11}},
    {"bicubic_interp_v2", "bicubic", 2, 1, 3, {5, 6}, .nhwc = true, .out_attr = {3, 8},
     .align_corners = true},
    /* larger than one grid of blocks would cover in one pass */
    {"bilinear_interp_v2", "bilinear", 2, 2, 16, {64, 64}, .out_attr = {256, 256},
     .align_mode = 0, .large = true},
};
#undef CZ_AM
#define CZ_N_CASES (sizeof cz_cases / sizeof cz_cases[0])

/* X's dims (rank nd + 2). */
static inline void cz_xdims(const cz_case *k, int64_t *xd) {
  xd[0] = k->n;
  xd[k->nhwc ? k->nd + 1 : 1] = k->c;
  for (int i = 0; i < k->nd; i++) xd[(k->nhwc ? 1 : 2) + i] = k->in[i];
}

/* X of case k in dtype dt: values in [-1, 1) (float64 holds the float32 values; integer
 * dtypes, for nearest, whole numbers in [-50, 50)). */
static inline ic_tensor *cz_x(const cz_case *k, ic_dtype dt) {
  int64_t xd[5];
  cz_xdims(k, xd);
  if (dt == IC_INT32 || dt == IC_INT64) return ew_rand(dt, k->nd + 2, xd, 3, -50, 50);
  ic_tensor *x = tu_rand_f32(k->nd + 2, xd, 3, -1, 1);
  if (dt == IC_FP32) return x;
  ic_tensor *x64 = ew_rand(IC_FP64, k->nd + 2, xd, 0, 0, 1);
  for (int64_t i = 0; i < ic_tensor_numel(x); i++) {
    ((double *)ic_tensor_data(x64))[i] = ((const float *)ic_tensor_cdata(x))[i];
  }
  ic_tensor_destroy(x);
  return x64;
}

/* The inputs of a case's program: x first, then the size inputs it uses. */
typedef struct cz_inputs {
  size_t n;
  const char *names[6];
  ic_tensor *t[6];
} cz_inputs;

static inline void cz_inputs_free(cz_inputs *in) {
  for (size_t i = 0; i < in->n; i++) ic_tensor_destroy(in->t[i]);
  in->n = 0;
}

/* The one-op program of case k fed with x (taken by `in`, with the size inputs), writing
 * "y". */
static inline ic_builder *cz_program(const cz_case *k, ic_tensor *x, cz_inputs *in) {
  static const char *const st[3] = {"st0", "st1", "st2"};
  ic_builder *b = ic_builder_create();
  in->n = 0;
  ew_feed(b, "x", x);
  in->names[in->n] = "x";
  in->t[in->n++] = x;
  if (k->n_outsize) {
    int64_t d = k->n_outsize;
    ic_tensor *o;
    ck_assert_int_eq(ic_tensor_create(IC_INT32, 1, &d, &o), IC_OK);
    memcpy(ic_tensor_data(o), k->outsize, (size_t)d * sizeof(int32_t));
    ew_feed(b, "osz", o);
    in->names[in->n] = "osz";
    in->t[in->n++] = o;
  }
  if (k->n_scalet) {
    ic_tensor *s = tu_f32(1, TU_DIMS(k->n_scalet), k->scalet);
    ew_feed(b, "sct", s);
    in->names[in->n] = "sct";
    in->t[in->n++] = s;
  }
  for (int i = 0; i < k->n_sizet; i++) {
    ic_tensor *s;
    ck_assert_int_eq(ic_tensor_create(IC_INT32, 1, TU_DIMS(1), &s), IC_OK);
    ((int32_t *)ic_tensor_data(s))[0] = k->sizet[i];
    ew_feed(b, st[i], s);
    in->names[in->n] = st[i];
    in->t[in->n++] = s;
  }
  ic_builder_op *op = ic_builder_add_op(b, 0, k->op);
  ic_builder_in(op, "X", "x");
  if (k->method) ic_builder_attr_string(op, "interp_method", k->method);
  ic_builder_attr_string(op, "data_layout", k->nhwc ? (k->nd == 3 ? "NDHWC" : "NHWC") : "NCHW");
  ic_builder_attr_bool(op, "align_corners", k->align_corners);
  ic_builder_attr_int(op, "align_mode", k->align_mode);
  static const char *const names[3] = {"out_d", "out_h", "out_w"};
  for (int i = 0; i < k->nd; i++) {
    ic_builder_attr_int(op, names[3 - k->nd + i], k->out_attr[i] ? (int32_t)k->out_attr[i] : -1);
  }
  if (strstr(k->op, "_v2")) ic_builder_attr_floats(op, "scale", (size_t)k->n_scale, k->scale);
  else if (k->n_scale) ic_builder_attr_float(op, "scale", k->scale[0]);
  if (k->n_outsize) ic_builder_in(op, "OutSize", "osz");
  if (k->n_scalet) ic_builder_in(op, "Scale", "sct");
  if (k->n_sizet) ic_builder_input(op, "SizeTensor", (size_t)k->n_sizet, st);
  ic_builder_out(op, "Out", "y");
  ew_fetch(b, "y", ic_tensor_dtype(x));
  return b;
}

#endif
