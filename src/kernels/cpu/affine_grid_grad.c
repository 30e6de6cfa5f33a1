/* affine_grid_grad: the gradient of affine_grid (paddle/phi/kernels/cpu/
 * affine_grid_grad_kernel.cc). The forward is Output[b, p, j] = sum over k of base[p, k] *
 * Theta[b, j, k], base[p] the homogeneous coordinates (x, y[, z], 1) of output position p
 * (affine_grid.c: from -1 to 1 under align_corners, over the pixel centres otherwise), so
 *   Theta@GRAD[b, j, k] = sum over positions p of Output@GRAD[b, p, j] * base[p, k].
 * The output shape comes from the OutputShape tensor (int32 / int64) when given, else from
 * the output_shape attribute (4 values [N, C, H, W]: Theta [N, 2, 3]; 5 values [N, C, D, H,
 * W]: Theta [N, 3, 4]); Output@GRAD must be the forward's Output [N, H, W, 2] / [N, D, H, W,
 * 3]. Theta, when given, is read for its dims only. Sums run in double. float32, float64. */
#include "kernels/cpu/shapeops.h"

typedef struct agg_attrs {
  const int64_t *shape; /* borrowed from the program */
  size_t n_shape;
  bool align_corners;
} agg_attrs;

enum { IN_THETA, IN_SHAPE, IN_DOUT };

static const ic_slotdef k_inputs[3] = {{"Theta", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
                                       {"OutputShape", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
                                       {"Output@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"Theta@GRAD", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  agg_attrs *a = attrs;
  ic_ar_ints(r, "output_shape", false, &a->shape, &a->n_shape);
  a->align_corners = ic_ar_bool(r, "align_corners", true);
  return r->st;
}

/* The output shape (4 or 5 values) into s; *n its length. */
static ic_status out_shape(ic_kctx *c, int64_t *s, size_t *n) {
  const agg_attrs *a = c->attrs;
  if (ic_in(c, IN_SHAPE, 0)) {
    ic_status st = ic_shapeops_read_ints(c, IN_SHAPE, false, "output shape", s, 5, n);
    if (st) return st;
  } else {
    *n = a->n_shape;
    for (size_t i = 0; i < *n && i < 5; i++) s[i] = a->shape[i];
  }
  if (*n != 4 && *n != 5) {
    return ic_kfail(c, IC_ERR_SHAPE, "the output shape (%s) has %zu values, expected 4 "
                    "([N, C, H, W]) or 5 ([N, C, D, H, W])",
                    ic_in(c, IN_SHAPE, 0) ? "input OutputShape" : "attribute output_shape", *n);
  }
  for (size_t i = 2; i < *n; i++) {
    if (s[i] < 1) {
      return ic_kfail(c, IC_ERR_SHAPE, "the output shape holds %lld at %zu, expected sizes "
                      "of at least 1", (long long)s[i], i);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT);
  if (st) return st;
  int64_t s[5];
  size_t n;
  if ((st = out_shape(c, s, &n))) return st;
  const ic_tensor *g = ic_in(c, IN_DOUT, 0), *t = ic_in(c, IN_THETA, 0);
  const int64_t r = n == 4 ? 2 : 3;
  int64_t want[5] = {g->ndim ? g->dims[0] : 0};
  for (size_t i = 2; i < n; i++) want[i - 1] = s[i];
  want[n - 1] = r;
  if (t) want[0] = t->ndim == 3 ? t->dims[0] : -1;
  if (want[0] < 0 || !ic_dims_equal(g->ndim, g->dims, (int)n, want)) {
    char d[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected dims %s, the grid of output shape (%s)",
                       ic_dims_str((int)n, want, d, sizeof d),
                       ic_in(c, IN_SHAPE, 0) ? "input OutputShape" : "attribute output_shape");
  }
  const int64_t d[3] = {want[0], r, r + 1};
  if (t && (t->dtype != g->dtype || !ic_dims_equal(t->ndim, t->dims, 3, d))) {
    char e[96];
    return ic_kfail_in(c, IN_THETA, 0, "expected %s%s", ic_dtype_name(g->dtype),
                       ic_dims_str(3, d, e, sizeof e));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, 3, d);
  return IC_OK;
}

/* Paddle's Linspace in T, as affine_grid.c: element i of count values from -1 to 1. */
#define LIN(T, count, i, align)                                                           \
  ((align) ? (T)-1 + (T)(i) * ((T)2 / (T)((count) - 1))                                  \
           : (T)-1 * ((T)((count) - 1) / (T)(count)) + (T)(i) * ((T)2 / (T)(count)))

#define GRID_GRAD(T)                                                                     \
  do {                                                                                   \
    const T *gp = g->data;                                                               \
    T *op = ic_out(c, 0, 0)->data;                                                       \
    for (int64_t b = 0; b < N; b++) {                                                    \
      double acc[12] = {0};                                                              \
      for (int64_t z = 0; z < D; z++) {                                                  \
        for (int64_t y = 0; y < H; y++) {                                                \
          for (int64_t x = 0; x < W; x++) {                                              \
            T base[4];                                                                   \
            base[0] = LIN(T, W, x, al);                                                  \
            base[1] = LIN(T, H, y, al);                                                  \
            if (r == 3) base[2] = LIN(T, D, z, al);                                      \
            base[r] = 1;                                                                 \
            for (int64_t j = 0; j < r; j++, gp++) {                                      \
              for (int64_t k = 0; k <= r; k++) acc[j * (r + 1) + k] += (double)*gp * base[k]; \
            }                                                                            \
          }                                                                              \
        }                                                                                \
      }                                                                                  \
      for (int64_t k = 0; k < r * (r + 1); k++) *op++ = (T)acc[k];                       \
    }                                                                                    \
  } while (0)

static ic_status run(ic_kctx *c) {
  const agg_attrs *a = c->attrs;
  int64_t s[5];
  size_t n;
  ic_status st = out_shape(c, s, &n);
  if (st) return st;
  const ic_tensor *g = ic_in(c, IN_DOUT, 0);
  const bool al = a->align_corners;
  const int64_t N = g->dims[0], r = n == 4 ? 2 : 3;
  const int64_t D = n == 5 ? s[2] : 1, H = s[n - 2], W = s[n - 1];
  if (g->dtype == IC_FP32) GRID_GRAD(float);
  else GRID_GRAD(double);
  return IC_OK;
}

const ic_opdef ic_op_affine_grid_grad = {
    .name = "affine_grid_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(agg_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
