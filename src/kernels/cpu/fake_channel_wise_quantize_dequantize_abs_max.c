/* fake_channel_wise_quantize_dequantize_abs_max: per channel along quant_axis (0, the
 * default, or 1) the scale is max |X| over the channel, and Out = X quantized to bit_length
 * bits (default 8) with it and dequantized (quant.h), round_type default 1 (ties away from
 * zero); OutScale = the scales (paddle/fluid/operators/fake_quantize_op.h). The op computes
 * its scales from the data at inference too. float32 and float64. */
#include "kernels/cpu/quant.h"

typedef struct fcqd_attrs {
  int bin_cnt, round_type, quant_axis;
} fcqd_attrs;

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[2] = {{"Out", 0}, {"OutScale", IC_SLOT_OPTIONAL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fcqd_attrs *a = attrs;
  ic_quant_parse_bits(r, "bit_length", 8, &a->bin_cnt);
  ic_quant_parse_round(r, 1, &a->round_type);
  int64_t ax = ic_ar_int(r, "quant_axis", 0);
  if (!r->st && ax != 0 && ax != 1) {
    return ic_ar_fail(r, "quant_axis", "must be 0 or 1, got %lld", (long long)ax);
  }
  a->quant_axis = (int)ax;
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const fcqd_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  int64_t ch, inner;
  if (st || (st = ic_quant_channels(c, 0, a->quant_axis, &ch, &inner))) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  if (ic_out(c, 1, 0)) ic_tensor_set_meta(ic_out(c, 1, 0), x->dtype, 1, &ch);
  return IC_OK;
}

#define FCQD(T, SUF)                                                                       \
  do {                                                                                     \
    const T *xp = x->data;                                                                 \
    T *op = o->data, *sp = sdata, bin = (T)a->bin_cnt;                              \
    for (int64_t k = 0; k < ch; k++) sp[k] = 0;                                            \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T v = (T)fabs((double)xp[i]);                                                        \
      int64_t k = (i / inner) % ch;                                                        \
      if (v > sp[k]) sp[k] = v;                                                            \
    }                                                                                      \
    for (int64_t i = 0; i < n; i++) {                                                      \
      op[i] = ic_quant_dequant_##SUF(xp[i], sp[(i / inner) % ch], bin, a->round_type);     \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const fcqd_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t ch, inner, n = ic_numel(x->ndim, x->dims);
  ic_status st = ic_quant_channels(c, 0, a->quant_axis, &ch, &inner);
  if (st) return st;
  ic_buffer *buf = NULL;
  void *sdata;
  if (ic_out(c, 1, 0)) {
    sdata = ic_out(c, 1, 0)->data;
  } else {
    if (!(buf = ic_kscratch(c, (size_t)(ch ? ch : 1) * sizeof(double)))) return c->err->code;
    sdata = buf->data;
  }
  if (x->dtype == IC_FP32) {
    FCQD(float, f32);
  } else {
    FCQD(double, f64);
  }
  if (buf) ic_buffer_release(buf);
  return IC_OK;
}

const ic_opdef ic_op_fake_channel_wise_quantize_dequantize_abs_max = {
    .name = "fake_channel_wise_quantize_dequantize_abs_max", .n_inputs = 1,
    .inputs = k_inputs, .n_outputs = 2, .outputs = k_outputs,
    .attrs_size = sizeof(fcqd_attrs), .parse = parse, .infer = infer, .cpu = run,
};
