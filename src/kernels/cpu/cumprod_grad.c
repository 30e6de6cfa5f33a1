/* cumprod_grad: X@GRAD[j] = sum over the outputs n that X[j] enters of Out@GRAD[n] times the
 * product of the other factors of Out[n], written (as phi CumprodGradKernel does, so zeros in
 * X need no division) as Out@GRAD[n] * Out[j - 1] * X[j + 1] * ... * X[n] (inclusive scan) or
 * Out@GRAD[n] * Out[j] * X[j + 1] * ... * X[n - 1] (exclusive), mirrored for `reverse`;
 * the terms summed in order of n, in the data's type. A 0-D X takes Out@GRAD. Inputs X, Out,
 * Out@GRAD; attributes dim (required), exclusive, reverse; float32 and float64. */
#include "kernels/cpu/shapeops.h"

typedef struct cpg_attrs {
  int64_t dim;
  bool exclusive, reverse;
} cpg_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  cpg_attrs *a = attrs;
  a->dim = ic_ar_int_req(r, "dim");
  a->exclusive = ic_ar_bool(r, "exclusive", false);
  a->reverse = ic_ar_bool(r, "reverse", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const cpg_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  for (size_t s = 1; s < 3; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != x->dtype || !ic_dims_equal(t->ndim, t->dims, x->ndim, x->dims)) {
      char d[128];
      return ic_kfail_in(c, s, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
    }
  }
  if (x->ndim > 0 && ic_shapeops_axis(c, 0, a->dim, x->ndim, "attribute 'dim'") < 0) {
    return IC_ERR_SHAPE;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

/* Element k of the scan line (position along dim) is at base + k * inner. */
#define CPG(T)                                                                             \
  do {                                                                                     \
    const T *xp = x->data, *op = out->data, *gp = g->data;                                 \
    T *dp = dx->data;                                                                      \
    for (int64_t r = 0; r < outer; r++) {                                                  \
      for (int64_t i = 0; i < inner; i++) {                                                \
        const int64_t base = r * len * inner + i;                                          \
        for (int64_t j = 0; j < len; j++) {                                                \
          T acc = 0;                                                                       \
          for (int64_t t = 0; t < len; t++) {                                              \
            /* n: the output, visited last to first under reverse */                       \
            const int64_t n = a->reverse ? len - 1 - t : t;                                \
            T e;                                                                           \
            if (!a->reverse) {                                                             \
              if (a->exclusive) {                                                          \
                if (n <= j) {                                                              \
                  e = 0;                                                                   \
                } else {                                                                   \
                  e = gp[base + n * inner] * op[base + j * inner];                         \
                  for (int64_t m = j + 1; m <= n - 1; m++) e *= xp[base + m * inner];      \
                }                                                                          \
              } else {                                                                     \
                e = j == 0 ? gp[base + n * inner]                                          \
                           : gp[base + n * inner] * op[base + (j - 1) * inner];            \
                if (n > j) {                                                               \
                  for (int64_t m = j + 1; m <= n; m++) e *= xp[base + m * inner];          \
                } else if (n < j) {                                                        \
                  e = 0;                                                                   \
                }                                                                          \
              }                                                                            \
            } else {                                                                       \
              if (a->exclusive) {                                                          \
                if (n >= j) {                                                              \
                  e = 0;                                                                   \
                } else {                                                                   \
                  e = gp[base + n * inner] * op[base + j * inner];                         \
                  for (int64_t m = j - 1; m >= n + 1; m--) e *= xp[base + m * inner];      \
                }                                                                          \
              } else {                                                                     \
                e = j == len - 1 ? gp[base + n * inner]                                    \
                                 : gp[base + n * inner] * op[base + (j + 1) * inner];      \
                if (n < j) {                                                               \
                  for (int64_t m = j - 1; m >= n; m--) e *= xp[base + m * inner];          \
                } else if (n > j) {                                                        \
                  e = 0;                                                                   \
                }                                                                          \
              }                                                                            \
            }                                                                              \
            acc += e;                                                                      \
          }                                                                                \
          dp[base + j * inner] = acc;                                                      \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const cpg_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *out = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  if (x->ndim == 0) {
    if (x->dtype == IC_FP32) *(float *)dx->data = *(const float *)g->data;
    else *(double *)dx->data = *(const double *)g->data;
    return IC_OK;
  }
  const int axis = ic_shapeops_axis(c, 0, a->dim, x->ndim, "attribute 'dim'");
  if (axis < 0) return IC_ERR_SHAPE;
  const int64_t outer = ic_numel(axis, x->dims), len = x->dims[axis];
  const int64_t inner = ic_numel(x->ndim - axis - 1, x->dims + axis + 1);
  if (x->dtype == IC_FP32) CPG(float);
  else CPG(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Out", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_cumprod_grad = {
    .name = "cumprod_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(cpg_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
