/* affine_grid: for each of N affine matrices Theta ([N, 2, 3] for a 4-D output_shape
 * [N, C, H, W], [N, 3, 4] for a 5-D one [N, C, D, H, W]) the sampling grid Output
 * [N, H, W, 2] ([N, D, H, W, 3]): Theta times the homogeneous coordinates (x, y[, z], 1) of
 * each output position, x running over W, y over H, z over D, each from -1 to 1
 * (align_corners, the default) or over the pixel centres (-1 + 1/n to 1 - 1/n otherwise).
 * The shape comes from the OutputShape tensor (int32/int64) when given, else from the
 * output_shape attribute; N must be Theta's. float32, float64
 * (paddle/phi/kernels/cpu/affine_grid_kernel.cc, funcs/affine_grid_utils.h,
 * AffineGridInferMeta). */
#include "kernels/cpu/shapeops.h"

typedef struct affine_grid_attrs {
  const int64_t *shape; /* borrowed from the program */
  size_t n_shape;
  bool align_corners;
} affine_grid_attrs;

static const ic_slotdef k_inputs[2] = {{"Theta", 0},
                                       {"OutputShape", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}};
static const ic_slotdef k_outputs[1] = {{"Output", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  affine_grid_attrs *a = attrs;
  ic_ar_ints(r, "output_shape", false, &a->shape, &a->n_shape);
  a->align_corners = ic_ar_bool(r, "align_corners", true);
  return r->st;
}

/* The output shape (4 or 5 values) into s; *n its length. */
static ic_status out_shape(ic_kctx *c, int64_t *s, size_t *n) {
  const affine_grid_attrs *a = c->attrs;
  if (ic_in(c, 1, 0)) {
    ic_status st = ic_shapeops_read_ints(c, 1, false, "output shape", s, 5, n);
    if (st) return st;
  } else {
    *n = a->n_shape;
    for (size_t i = 0; i < *n && i < 5; i++) s[i] = a->shape[i];
  }
  if (*n != 4 && *n != 5) {
    return ic_kfail(c, IC_ERR_SHAPE, "the output shape (%s) has %zu values, expected 4 "
                    "([N, C, H, W]) or 5 ([N, C, D, H, W])",
                    ic_in(c, 1, 0) ? "input OutputShape" : "attribute output_shape", *n);
  }
  for (size_t i = 0; i < *n; i++) {
    if (s[i] < 0 || (i >= 2 && s[i] == 0)) {
      return ic_kfail(c, IC_ERR_SHAPE, "the output shape holds %lld at %zu, expected sizes "
                      "of at least 1", (long long)s[i], i);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  int64_t s[5];
  size_t n;
  st = out_shape(c, s, &n);
  if (st) return st;
  const ic_tensor *t = ic_in(c, 0, 0);
  int64_t r = n == 4 ? 2 : 3;
  if (t->ndim != 3 || t->dims[1] != r || t->dims[2] != r + 1) {
    return ic_kfail_in(c, 0, 0, "expected [N, %lld, %lld] for a %zu-D output shape",
                       (long long)r, (long long)r + 1, n);
  }
  int64_t d[5] = {t->dims[0]};
  for (size_t i = 2; i < n; i++) d[i - 1] = s[i];
  d[n - 1] = r;
  ic_tensor_set_meta(ic_out(c, 0, 0), t->dtype, (int)n, d);
  return IC_OK;
}

/* Paddle's Linspace, in T: element i of count values from -1 to 1. */
#define LIN(T, count, i, align)                                                           \
  ((align) ? (T)-1 + (T)(i) * ((T)2 / (T)((count) - 1))                                  \
           : (T)-1 * ((T)((count) - 1) / (T)(count)) + (T)(i) * ((T)2 / (T)(count)))

#define GRID(T)                                                                          \
  do {                                                                                   \
    const T *tp = t->data;                                                               \
    T *op = ic_out(c, 0, 0)->data;                                                       \
    for (int64_t b = 0; b < N; b++) {                                                    \
      const T *th = tp + b * r * (r + 1);                                                \
      for (int64_t z = 0; z < D; z++) {                                                  \
        for (int64_t y = 0; y < H; y++) {                                                \
          for (int64_t x = 0; x < W; x++) {                                              \
            T g[4];                                                                      \
            g[0] = LIN(T, W, x, al);                                                     \
            g[1] = LIN(T, H, y, al);                                                     \
            if (r == 3) g[2] = LIN(T, D, z, al);                                         \
            g[r] = 1;                                                                    \
            for (int64_t j = 0; j < r; j++) {                                            \
              T acc = 0;                                                                 \
              for (int64_t k = 0; k <= r; k++) acc += g[k] * th[j * (r + 1) + k];        \
              *op++ = acc;                                                               \
            }                                                                            \
          }                                                                              \
        }                                                                                \
      }                                                                                  \
    }                                                                                    \
  } while (0)

static ic_status run(ic_kctx *c) {
  const affine_grid_attrs *a = c->attrs;
  int64_t s[5];
  size_t n;
  ic_status st = out_shape(c, s, &n);
  if (st) return st;
  const ic_tensor *t = ic_in(c, 0, 0);
  bool al = a->align_corners;
  int64_t N = t->dims[0], r = n == 4 ? 2 : 3;
  int64_t D = n == 5 ? s[2] : 1, H = s[n - 2], W = s[n - 1];
  if (t->dtype == IC_FP32) GRID(float);
  else GRID(double);
  return IC_OK;
}

const ic_opdef ic_op_affine_grid = {
    .name = "affine_grid", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(affine_grid_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
