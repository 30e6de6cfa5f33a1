/* cumsum: Out = running sums of X along `axis` (default -1); `flatten` (default false) sums
 * over X read as 1-D and gives a 1-D Out; `exclusive` leaves the element itself out (the
 * first sum is 0); `reverse` runs from the end. float32, float64, int32, int64, accumulated
 * in X's type in order as Paddle's Eigen scan (paddle/phi/kernels/cpu/cum_kernel.cc). */
#include "kernels/cpu/cumsum.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

ic_status ic_cumsum_parse(ic_attr_reader *r, void *attrs) {
  cumsum_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", -1);
  a->flatten = ic_ar_bool(r, "flatten", false);
  a->exclusive = ic_ar_bool(r, "exclusive", false);
  a->reverse = ic_ar_bool(r, "reverse", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const cumsum_attrs *a = c->attrs;
  /* Paddle's CPU kernel also takes int8, uint8 and int16 (sums wrap in their width) */
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM | IC_DT(IC_INT8) | IC_DT(IC_UINT8) |
                                              IC_DT(IC_INT16));
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (a->flatten) {
    int64_t n = ic_numel(x->ndim, x->dims);
    ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 1, &n);
    return IC_OK;
  }
  if (x->ndim > 0 && ic_shapeops_axis(c, 0, a->axis, x->ndim, "attribute 'axis'") < 0) {
    return IC_ERR_SHAPE;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define SCAN(T)                                                                            \
  do {                                                                                     \
    const T *xp = src;                                                                     \
    T *op = dst;                                                                           \
    for (int64_t r = 0; r < outer; r++) {                                                  \
      for (int64_t i = 0; i < inner; i++) {                                                \
        T acc = 0;                                                                         \
        for (int64_t k = 0; k < len; k++) {                                                \
          int64_t kk = reverse ? len - 1 - k : k;                                          \
          int64_t at = (r * len + kk) * inner + i;                                         \
          if (a->exclusive) {                                                              \
            op[at] = acc;                                                                  \
            acc = ADD(T, acc, xp[at]);                                                     \
          } else {                                                                         \
            acc = ADD(T, acc, xp[at]);                                                     \
            op[at] = acc;                                                                  \
          }                                                                                \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
  } while (0)

/* Integers wrap. */
#define ADD(T, A, B) ((T)((A) + (B)))
#define ADDU(T, A, B) ((T)((uint64_t)(A) + (uint64_t)(B)))

void ic_cumsum_scan(const cumsum_attrs *a, const ic_tensor *x, ic_dtype dt, const void *src,
                    void *dst, bool reverse) {
  int64_t n = ic_numel(x->ndim, x->dims), outer = 1, len = n, inner = 1;
  if (n == 0) return;
  if (!a->flatten && x->ndim > 0) {
    int axis = (int)(a->axis < 0 ? a->axis + x->ndim : a->axis);
    outer = ic_numel(axis, x->dims);
    len = x->dims[axis];
    inner = ic_numel(x->ndim - axis - 1, x->dims + axis + 1);
  }
  switch (dt) {
    case IC_FP32: SCAN(float); break;
    case IC_FP64: SCAN(double); break;
#undef ADD
#define ADD ADDU
    case IC_INT32: SCAN(int32_t); break;
    case IC_INT16: SCAN(int16_t); break;
    case IC_INT8: SCAN(int8_t); break;
    case IC_UINT8: SCAN(uint8_t); break;
    default: SCAN(int64_t); break;
  }
}

static ic_status cumsum_cpu(ic_kctx *c) {
  const cumsum_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_cumsum_scan(a, x, x->dtype, x->data, ic_out(c, 0, 0)->data, a->reverse);
  return IC_OK;
}

const ic_opdef ic_op_cumsum = {
    .name = "cumsum", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(cumsum_attrs), .parse = ic_cumsum_parse, .infer = infer, .cpu = cumsum_cpu,
};
