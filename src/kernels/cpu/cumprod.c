/* cumprod: Out = the running product of X along `dim` (in [-rank, rank)), in X's dtype, the
 * products taken in order (paddle/phi/kernels/cpu/cumprod_kernel.cc). `exclusive` and `reverse`
 * (Paddle 3) shift the product by one and run it from the end. float32, float64, int32,
 * int64. */
#include "kernels/cpu/shapeops.h"

typedef struct cumprod_attrs {
  int64_t dim;
  bool exclusive, reverse;
} cumprod_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  cumprod_attrs *a = attrs;
  a->dim = ic_ar_int_req(r, "dim");
  a->exclusive = ic_ar_bool(r, "exclusive", false);
  a->reverse = ic_ar_bool(r, "reverse", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const cumprod_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st) return st;
  if (x->ndim > 0 && ic_shapeops_axis(c, 0, a->dim, x->ndim, "attribute 'dim'") < 0) {
    return IC_ERR_SHAPE;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

/* T the element type, A the type the product is taken in (unsigned for integers: they wrap). */
#define CUMPROD(T, A)                                                              \
  do {                                                                             \
    const T *xd = x->data;                                                         \
    T *od = o->data;                                                               \
    for (int64_t i = 0; i < outer; i++)                                            \
      for (int64_t k = 0; k < inner; k++) {                                        \
        A p = (A)1;                                                                \
        for (int64_t j0 = 0; j0 < len; j0++) {                                     \
          const int64_t j = a->reverse ? len - 1 - j0 : j0;                        \
          const int64_t at = (i * len + j) * inner + k;                            \
          if (a->exclusive) od[at] = (T)p;                                         \
          p = (A)(p * (A)xd[at]);                                                  \
          if (!a->exclusive) od[at] = (T)p;                                        \
        }                                                                          \
      }                                                                            \
  } while (0)

static ic_status run(ic_kctx *c) {
  const cumprod_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int ax = x->ndim ? (int)(a->dim < 0 ? a->dim + x->ndim : a->dim) : 0;
  const int64_t len = x->ndim ? x->dims[ax] : 1;
  const int64_t outer = x->ndim ? ic_numel(ax, x->dims) : 1;
  const int64_t inner = x->ndim ? ic_numel(x->ndim - ax - 1, x->dims + ax + 1) : 1;
  switch (x->dtype) {
    case IC_FP32: CUMPROD(float, float); break;
    case IC_FP64: CUMPROD(double, double); break;
    case IC_INT32: CUMPROD(int32_t, uint32_t); break;
    default: CUMPROD(int64_t, uint64_t); break;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_cumprod = {
    .name = "cumprod", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(cumprod_attrs), .parse = parse, .infer = infer, .cpu = run,
};
