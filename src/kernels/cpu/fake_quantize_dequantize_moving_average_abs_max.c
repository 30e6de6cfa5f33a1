/* fake_quantize_dequantize_moving_average_abs_max at inference (is_test): Out = X quantized
 * to bit_length bits (default 8) with the scale InScale[0] and dequantized (quant.h), with
 * round_type (default 1: ties away from zero). OutScale, OutState and OutAccum pass
 * InScale, InState and InAccum through; moving_rate only matters in training, which icore
 * does not run (is_test false is refused). float32 and float64
 * (paddle/fluid/operators/fake_quantize_op.h). */
#include "kernels/cpu/quant.h"

typedef struct fqd_attrs {
  int bin_cnt, round_type;
} fqd_attrs;

enum { IN_X, IN_SCALE, IN_ACCUM, IN_STATE };
enum { OUT_Y, OUT_SCALE, OUT_STATE, OUT_ACCUM };

static const ic_slotdef k_inputs[4] = {
    {"X", 0}, {"InScale", 0}, {"InAccum", IC_SLOT_OPTIONAL}, {"InState", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[4] = {{"Out", 0},
                                        {"OutScale", IC_SLOT_OPTIONAL},
                                        {"OutState", IC_SLOT_OPTIONAL},
                                        {"OutAccum", IC_SLOT_OPTIONAL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fqd_attrs *a = attrs;
  ic_quant_parse_bits(r, "bit_length", 8, &a->bin_cnt);
  ic_quant_parse_round(r, 1, &a->round_type);
  (void)ic_ar_float(r, "moving_rate", 0.9);
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
  ic_quant_pass_meta(c, OUT_STATE, IN_STATE);
  ic_quant_pass_meta(c, OUT_ACCUM, IN_ACCUM);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const fqd_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *s = ic_in(c, IN_SCALE, 0);
  ic_tensor *o = ic_out(c, OUT_Y, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  if (x->dtype == IC_FP32) {
    const float *xp = x->data, sc = *(const float *)s->data, bin = (float)a->bin_cnt;
    float *op = o->data;
    for (int64_t i = 0; i < n; i++) op[i] = ic_quant_dequant_f32(xp[i], sc, bin, a->round_type);
  } else {
    const double *xp = x->data, sc = *(const double *)s->data, bin = a->bin_cnt;
    double *op = o->data;
    for (int64_t i = 0; i < n; i++) op[i] = ic_quant_dequant_f64(xp[i], sc, bin, a->round_type);
  }
  ic_quant_pass(c, OUT_SCALE, IN_SCALE);
  ic_quant_pass(c, OUT_STATE, IN_STATE);
  ic_quant_pass(c, OUT_ACCUM, IN_ACCUM);
  return IC_OK;
}

const ic_opdef ic_op_fake_quantize_dequantize_moving_average_abs_max = {
    .name = "fake_quantize_dequantize_moving_average_abs_max", .n_inputs = 4,
    .inputs = k_inputs, .n_outputs = 4, .outputs = k_outputs,
    .attrs_size = sizeof(fqd_attrs), .parse = parse, .infer = infer, .cpu = run,
};
