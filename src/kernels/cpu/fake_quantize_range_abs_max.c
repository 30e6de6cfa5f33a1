/* fake_quantize_range_abs_max at inference (is_test): Out = X quantized (not dequantized) to
 * bit_length bits (default 8) with the scale InScale[0]: whole numbers in [-bin_cnt - 1,
 * bin_cnt] stored in X's float type (quant.h), round_type default 1 (ties away from zero).
 * OutScale passes InScale through; window_size, Iter and OutScales only matter in training,
 * which icore does not run (is_test false is refused)
 * (paddle/fluid/operators/fake_quantize_op.h). */
#include "kernels/cpu/quant.h"

typedef struct fqr_attrs {
  int bin_cnt, round_type;
} fqr_attrs;

enum { IN_X, IN_SCALE, IN_ITER };
enum { OUT_Y, OUT_SCALE, OUT_SCALES };

static const ic_slotdef k_inputs[3] = {
    {"X", 0}, {"InScale", 0}, {"Iter", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED}};
static const ic_slotdef k_outputs[3] = {
    {"Out", 0}, {"OutScale", IC_SLOT_OPTIONAL}, {"OutScales", IC_SLOT_OPTIONAL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fqr_attrs *a = attrs;
  ic_quant_parse_bits(r, "bit_length", 8, &a->bin_cnt);
  ic_quant_parse_round(r, 1, &a->round_type);
  (void)ic_ar_int(r, "window_size", 10000);
  if (!r->st && !ic_ar_bool(r, "is_test", false)) {
    return ic_ar_fail(r, "is_test", "is false: training-mode quantization is not supported");
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *s = ic_in(c, IN_SCALE, 0);
  if (s->dtype != x->dtype || ic_numel(s->ndim, s->dims) != 1) {
    return ic_kfail_in(c, IN_SCALE, 0, "expected one element of X's dtype");
  }
  ic_tensor_set_meta(ic_out(c, OUT_Y, 0), x->dtype, x->ndim, x->dims);
  ic_quant_pass_meta(c, OUT_SCALE, IN_SCALE);
  ic_quant_pass_meta(c, OUT_SCALES, IN_SCALE);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const fqr_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *s = ic_in(c, IN_SCALE, 0);
  ic_tensor *o = ic_out(c, OUT_Y, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  if (x->dtype == IC_FP32) {
    const float *xp = x->data, sc = *(const float *)s->data, bin = (float)a->bin_cnt;
    float *op = o->data;
    for (int64_t i = 0; i < n; i++) op[i] = ic_quant_f32(xp[i], sc, bin, a->round_type);
  } else {
    const double *xp = x->data, sc = *(const double *)s->data, bin = a->bin_cnt;
    double *op = o->data;
    for (int64_t i = 0; i < n; i++) op[i] = ic_quant_f64(xp[i], sc, bin, a->round_type);
  }
  ic_quant_pass(c, OUT_SCALE, IN_SCALE);
  ic_quant_pass(c, OUT_SCALES, IN_SCALE);
  return IC_OK;
}

const ic_opdef ic_op_fake_quantize_range_abs_max = {
    .name = "fake_quantize_range_abs_max", .n_inputs = 3, .inputs = k_inputs,
    .n_outputs = 3, .outputs = k_outputs, .attrs_size = sizeof(fqr_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
