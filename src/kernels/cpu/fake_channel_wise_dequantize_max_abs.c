/* fake_channel_wise_dequantize_max_abs: with one tensor in Scales, Out = X * Scales[0][c] /
 * max_range for channel c along quant_axis (0, the default, or 1), max_range =
 * 2^(quant_bits[0] - 1) - 1; with two, Out = X * Scales[0][c] * Scales[1][0] / (max_range0 *
 * max_range1) for channel c along dim x_num_col_dims (default 1) (paddle/fluid/operators/
 * fake_dequantize_op.h ChannelDequantizeFunctor). float32 and float64. */
#include "kernels/cpu/quant.h"

typedef struct fcdq_attrs {
  const int64_t *bits;
  size_t n_bits;
  int quant_axis, x_num_col_dims;
} fcdq_attrs;

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Scales", IC_SLOT_MULTI}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fcdq_attrs *a = attrs;
  ic_ar_ints(r, "quant_bits", false, &a->bits, &a->n_bits);
  int64_t ax = ic_ar_int(r, "quant_axis", 0), nc = ic_ar_int(r, "x_num_col_dims", 1);
  if (r->st) return r->st;
  if (ax != 0 && ax != 1) {
    return ic_ar_fail(r, "quant_axis", "must be 0 or 1, got %lld", (long long)ax);
  }
  if (nc < 1 || nc >= IC_MAX_RANK) {
    return ic_ar_fail(r, "x_num_col_dims", "must be at least 1, got %lld", (long long)nc);
  }
  for (size_t i = 0; i < a->n_bits; i++) {
    if (a->bits[i] < 2 || a->bits[i] > 16) {
      return ic_ar_fail(r, "quant_bits", "holds %lld, expected 2 to 16", (long long)a->bits[i]);
    }
  }
  a->quant_axis = (int)ax;
  a->x_num_col_dims = (int)nc;
  return r->st;
}

/* The scale count, channel count and channel stride of the op in c. */
static ic_status plan(ic_kctx *c, size_t *ns, int64_t *ch, int64_t *inner, double *range) {
  const fcdq_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  *ns = c->in[1].n;
  if (*ns < 1 || *ns > 2 || a->n_bits < *ns) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                    "%zu Scales tensors and %zu quant_bits: expected 1 or 2 scales, a bit count "
                    "for each", *ns, a->n_bits);
  }
  int axis = *ns == 1 ? a->quant_axis : a->x_num_col_dims;
  if (axis >= x->ndim) return ic_kfail_in(c, 0, 0, "has no dim %d to dequantize along", axis);
  *ch = x->dims[axis];
  *inner = ic_numel(x->ndim - axis - 1, x->dims + axis + 1);
  *range = 1;
  for (size_t i = 0; i < *ns; i++) *range *= (double)((1 << (a->bits[i] - 1)) - 1);
  for (size_t i = 0; i < *ns; i++) {
    const ic_tensor *s = ic_in(c, 1, i);
    int64_t want = i == 0 ? *ch : 1;
    if (s->dtype != x->dtype || ic_numel(s->ndim, s->dims) != want) {
      return ic_kfail_in(c, 1, i, "expected %lld values of X's dtype", (long long)want);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  size_t ns;
  int64_t ch, inner;
  double range;
  if (st || (st = plan(c, &ns, &ch, &inner, &range))) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define DEQ(T)                                                                             \
  do {                                                                                     \
    const T *xp = x->data, *s0 = ic_in(c, 1, 0)->data;                                     \
    T *op = o->data, mr = (T)range;                                                        \
    if (ns == 1) {                                                                         \
      for (int64_t i = 0; i < n; i++) op[i] = xp[i] * s0[(i / inner) % ch] / mr;           \
    } else {                                                                               \
      T s1 = *(const T *)ic_in(c, 1, 1)->data;                                             \
      for (int64_t i = 0; i < n; i++) op[i] = xp[i] * s0[(i / inner) % ch] * s1 / mr;      \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  size_t ns;
  int64_t ch, inner;
  double range;
  ic_status st = plan(c, &ns, &ch, &inner, &range);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  if (x->dtype == IC_FP32) {
    DEQ(float);
  } else {
    DEQ(double);
  }
  return IC_OK;
}

const ic_opdef ic_op_fake_channel_wise_dequantize_max_abs = {
    .name = "fake_channel_wise_dequantize_max_abs", .n_inputs = 2, .inputs = k_inputs,
    .n_outputs = 1, .outputs = k_outputs, .attrs_size = sizeof(fcdq_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
