/* cross: the cross product of X and Y (same dims) along `dim`, which must have size 3; dim 9
 * (Paddle's default, kMaxRank) takes the first dim of size 3. Out[j] = X[j+1] Y[j+2] -
 * X[j+2] Y[j+1] (indices mod 3), float32, float64, int32 and int64 (integers wrap)
 * (paddle/phi/kernels/cpu/cross_kernel.cc, CrossInferMeta). */
#include "kernels/kernel.h"

enum { IN_X, IN_Y };
static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

#define DEFAULT_DIM 9

typedef struct cross_attrs {
  int64_t dim;
} cross_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  cross_attrs *a = attrs;
  a->dim = ic_ar_int(r, "dim", DEFAULT_DIM);
  return r->st;
}

/* The dim the product runs along, or -1 after failing c. */
static int resolve_dim(ic_kctx *c) {
  const cross_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if (a->dim == DEFAULT_DIM) {
    for (int d = 0; d < x->ndim; d++) {
      if (x->dims[d] == 3) return d;
    }
    ic_kfail_in(c, IN_X, 0, "has no dim of size 3 (attribute dim not given)");
    return -1;
  }
  if (a->dim < -x->ndim || a->dim >= x->ndim) {
    ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "attribute dim is %lld, expected in [%d, %d]",
             (long long)a->dim, -x->ndim, x->ndim - 1);
    return -1;
  }
  int d = (int)(a->dim < 0 ? a->dim + x->ndim : a->dim);
  if (x->dims[d] != 3) {
    ic_kfail_in(c, IN_X, 0, "has size %lld along dim %d, expected 3", (long long)x->dims[d], d);
    return -1;
  }
  return d;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_NUM);
  if (st) return st;
  if (y->dtype != x->dtype || !ic_dims_equal(x->ndim, x->dims, y->ndim, y->dims)) {
    char want[96];
    return ic_kfail_in(c, IN_Y, 0, "expected X's dtype and dims (%s%s)", ic_dtype_name(x->dtype),
                       ic_dims_str(x->ndim, x->dims, want, sizeof want));
  }
  if (resolve_dim(c) < 0) return c->err->code;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define CROSS(T, SUB, MUL)                                                                 \
  do {                                                                                     \
    const T *xp = x->data, *yp = y->data;                                                  \
    T *op = o->data;                                                                       \
    for (int64_t i = 0; i < outer; i++) {                                                  \
      for (int j = 0; j < 3; j++) {                                                        \
        const int64_t d = (3 * i + j) * inner, p1 = (3 * i + (j + 1) % 3) * inner,         \
                      p2 = (3 * i + (j + 2) % 3) * inner;                                  \
        for (int64_t k = 0; k < inner; k++) {                                              \
          op[d + k] = SUB(MUL(xp[p1 + k], yp[p2 + k]), MUL(xp[p2 + k], yp[p1 + k]));       \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
  } while (0)

#define FSUB(a, b) ((a) - (b))
#define FMUL(a, b) ((a) * (b))
#define I32SUB(a, b) ((int32_t)((uint32_t)(a) - (uint32_t)(b)))
#define I32MUL(a, b) ((int32_t)((uint32_t)(a) * (uint32_t)(b)))
#define I64SUB(a, b) ((int64_t)((uint64_t)(a) - (uint64_t)(b)))
#define I64MUL(a, b) ((int64_t)((uint64_t)(a) * (uint64_t)(b)))

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int dim = resolve_dim(c);
  if (dim < 0) return c->err->code;
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < dim; d++) outer *= x->dims[d];
  for (int d = dim + 1; d < x->ndim; d++) inner *= x->dims[d];
  switch (x->dtype) {
    case IC_FP32: CROSS(float, FSUB, FMUL); break;
    case IC_FP64: CROSS(double, FSUB, FMUL); break;
    case IC_INT32: CROSS(int32_t, I32SUB, I32MUL); break;
    default: CROSS(int64_t, I64SUB, I64MUL); break;
  }
  return IC_OK;
}

const ic_opdef ic_op_cross = {
    .name = "cross", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(cross_attrs), .parse = parse, .infer = infer, .cpu = run,
};
