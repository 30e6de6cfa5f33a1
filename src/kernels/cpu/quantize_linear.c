/* quantize_linear at inference (is_test): Y = X quantized with Scale: per tensor
 * (quant_axis < 0, Scale one element) or per channel along quant_axis 0 or 1 (default 0;
 * Scale one value per channel), with bin_cnt = qmax and round_type (default 0: ties to even,
 * clipped to [-qmax - 1, qmax]; 1: clip to the scale, ties away from zero), see quant.h.
 * Without a qmax attribute (Paddle 2.x wrote none) bin_cnt = 2^(bit_length - 1) - 1, as
 * Paddle 2.x computed it (a 4-bit program: 7; oracle case a2_quant_linear_paddle2). ZeroPoint
 * is read by Paddle's kernels for nothing (symmetric quantization); qmin likewise.
 * only_observer copies X. Y keeps X's float type; OutScale, OutState and OutAccum pass Scale,
 * InState and InAccum through
 * (paddle/phi/kernels/impl/quantize_linear_impl.h QuantizeLinearInferKernel).
 *
 * In training (is_test false, as QuantizationTransformPassV2 writes it; Paddle's
 * QuantizeLinearTrainKernel) the scale comes from the data, as the fake quantizers': per
 * tensor the moving average with rate 0.9 (InAccum and InState required; OutScale,
 * OutState and OutAccum written, ic_quant_ma_update), per channel max |X| per channel into
 * OutScale (OutState and OutAccum, if any, pass their inputs through); Y = X quantized with
 * the new scale (copied with only_observer). The shared parts of quantize_linear and
 * dequantize_linear live here; dequantize_linear computes the same in both modes. */
#include "kernels/cpu/quant_linear.h"

#include <string.h>

const ic_slotdef ic_quant_linear_inputs[5] = {{"X", 0},
                                              {"Scale", 0},
                                              {"ZeroPoint", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED},
                                              {"InAccum", IC_SLOT_OPTIONAL},
                                              {"InState", IC_SLOT_OPTIONAL}};
const ic_slotdef ic_quant_linear_outputs[4] = {{"Y", 0},
                                               {"OutState", IC_SLOT_OPTIONAL},
                                               {"OutAccum", IC_SLOT_OPTIONAL},
                                               {"OutScale", IC_SLOT_OPTIONAL}};

ic_status ic_quant_linear_parse(ic_attr_reader *r, void *attrs) {
  quant_linear_attrs *a = attrs;
  /* Paddle 2.x wrote no qmin / qmax: its range came from bit_length (2^(bits-1) - 1), which
   * Paddle 3 keeps as the qmax default of an 8-bit program only. */
  int64_t bits = ic_ar_int(r, "bit_length", 8);
  if (!r->st && (bits < 2 || bits > 16)) {
    return ic_ar_fail(r, "bit_length", "must be 2 to 16, got %lld", (long long)bits);
  }
  int64_t ax = ic_ar_int(r, "quant_axis", 0),
          qmax = ic_ar_has(r, "qmax") ? ic_ar_int(r, "qmax", 127) : (1ll << (bits - 1)) - 1;
  (void)ic_ar_int(r, "qmin", -128);
  ic_quant_parse_round(r, 0, &a->round_type);
  a->only_observer = ic_ar_bool(r, "only_observer", false);
  a->is_test = ic_ar_bool(r, "is_test", true);
  if (r->st) return r->st;
  if (ax > 1) return ic_ar_fail(r, "quant_axis", "must be -1, 0 or 1, got %lld", (long long)ax);
  if (qmax < 1 || qmax > 1000000) {
    return ic_ar_fail(r, "qmax", "must be positive, got %lld", (long long)qmax);
  }
  a->quant_axis = ax < 0 ? -1 : (int)ax;
  a->qmax = (int)qmax;
  return IC_OK;
}

ic_status ic_quant_linear_channels(ic_kctx *c, int64_t *ch, int64_t *inner) {
  const quant_linear_attrs *a = c->attrs;
  ic_status st = ic_quant_channels(c, QL_X, a->quant_axis, ch, inner);
  if (st) return st;
  const ic_tensor *s = ic_in(c, QL_SCALE, 0);
  if (ic_numel(s->ndim, s->dims) != *ch) {
    return ic_kfail_in(c, QL_SCALE, 0, "expected %lld values (quant_axis %d)", (long long)*ch,
                       a->quant_axis);
  }
  return IC_OK;
}

ic_status ic_quant_linear_run(ic_kctx *c, ic_quant_linear_body body) {
  const quant_linear_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, QL_X, 0), *s = ic_in(c, QL_SCALE, 0);
  ic_tensor *o = ic_out(c, QL_Y, 0);
  int64_t ch, inner, n = ic_numel(x->ndim, x->dims);
  ic_status st = ic_quant_linear_channels(c, &ch, &inner);
  if (st) return st;
  if (a->only_observer) {
    memcpy(o->data, x->data, (size_t)n * ic_dtype_size(x->dtype));
  } else {
    body(a, x, s, o, n, ch, inner);
  }
  ic_quant_linear_pass(c);
  return IC_OK;
}

void ic_quant_linear_pass_meta(ic_kctx *c) {
  ic_quant_pass_meta(c, QL_OUT_SCALE, QL_SCALE);
  ic_quant_pass_meta(c, QL_OUT_STATE, QL_STATE);
  ic_quant_pass_meta(c, QL_OUT_ACCUM, QL_ACCUM);
}

void ic_quant_linear_pass(ic_kctx *c) {
  ic_quant_pass(c, QL_OUT_SCALE, QL_SCALE);
  ic_quant_pass(c, QL_OUT_STATE, QL_STATE);
  ic_quant_pass(c, QL_OUT_ACCUM, QL_ACCUM);
}

static const char k_train[] =
    "training (is_test false) per tensor updates the moving average";

static ic_status train_infer(ic_kctx *c) {
  const quant_linear_attrs *a = c->attrs;
  ic_status st;
  int64_t ch, inner, one = 1;
  if ((st = ic_quant_channels(c, QL_X, a->quant_axis, &ch, &inner)) ||
      (st = ic_quant_check_one(c, QL_OUT_SCALE, true, "training writes the scale"))) {
    return st;
  }
  const ic_tensor *x = ic_in(c, QL_X, 0);
  if (a->quant_axis < 0) {
    if ((st = ic_quant_check_one(c, QL_ACCUM, false, k_train)) ||
        (st = ic_quant_check_one(c, QL_STATE, false, k_train)) ||
        (st = ic_quant_check_one(c, QL_OUT_STATE, true, k_train)) ||
        (st = ic_quant_check_one(c, QL_OUT_ACCUM, true, k_train))) {
      return st;
    }
    ic_tensor_set_meta(ic_out(c, QL_OUT_STATE, 0), x->dtype, 1, &one);
    ic_tensor_set_meta(ic_out(c, QL_OUT_ACCUM, 0), x->dtype, 1, &one);
  } else {
    ic_quant_pass_meta(c, QL_OUT_STATE, QL_STATE);
    ic_quant_pass_meta(c, QL_OUT_ACCUM, QL_ACCUM);
  }
  ic_tensor_set_meta(ic_out(c, QL_OUT_SCALE, 0), x->dtype, 1, &ch);
  ic_tensor_set_meta(ic_out(c, QL_Y, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const quant_linear_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, QL_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (!a->is_test) return train_infer(c);
  int64_t ch, inner;
  if ((st = ic_quant_linear_channels(c, &ch, &inner))) return st;
  const ic_tensor *x = ic_in(c, QL_X, 0), *s = ic_in(c, QL_SCALE, 0);
  if (s->dtype != x->dtype) return ic_kfail_in(c, QL_SCALE, 0, "expected X's dtype");
  ic_tensor_set_meta(ic_out(c, QL_Y, 0), x->dtype, x->ndim, x->dims);
  ic_quant_linear_pass_meta(c);
  return IC_OK;
}

#define QUANT(T, SUF)                                                                      \
  do {                                                                                     \
    const T *xp = x->data, *sp = s->data, bin = (T)a->qmax;                                \
    T *op = o->data;                                                                       \
    for (int64_t i = 0; i < n; i++) {                                                      \
      op[i] = ic_quant_##SUF(xp[i], sp[(i / inner) % ch], bin, a->round_type);             \
    }                                                                                      \
  } while (0)

static void quantize(const quant_linear_attrs *a, const ic_tensor *x, const ic_tensor *s,
                     ic_tensor *o, int64_t n, int64_t ch, int64_t inner) {
  if (x->dtype == IC_FP32) {
    QUANT(float, f32);
  } else {
    QUANT(double, f64);
  }
}

static ic_status train_run(ic_kctx *c) {
  const quant_linear_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, QL_X, 0);
  ic_tensor *o = ic_out(c, QL_Y, 0), *os = ic_out(c, QL_OUT_SCALE, 0);
  int64_t ch, inner, n = ic_numel(x->ndim, x->dims);
  ic_status st = ic_quant_channels(c, QL_X, a->quant_axis, &ch, &inner);
  if (st) return st;
  if (a->quant_axis < 0) {
    ic_quant_ma_update(x, 0.9f, ic_in(c, QL_ACCUM, 0), ic_in(c, QL_STATE, 0), os,
                       ic_out(c, QL_OUT_STATE, 0), ic_out(c, QL_OUT_ACCUM, 0));
  } else {
    ic_quant_channel_abs_max(x, a->quant_axis, ch, inner, os->data);
    ic_quant_pass(c, QL_OUT_STATE, QL_STATE);
    ic_quant_pass(c, QL_OUT_ACCUM, QL_ACCUM);
  }
  if (a->only_observer) {
    memcpy(o->data, x->data, (size_t)n * ic_dtype_size(x->dtype));
  } else {
    quantize(a, x, os, o, n, ch, inner);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const quant_linear_attrs *a = c->attrs;
  return a->is_test ? ic_quant_linear_run(c, quantize) : train_run(c);
}

const ic_opdef ic_op_quantize_linear = {
    .name = "quantize_linear", .n_inputs = 5, .inputs = ic_quant_linear_inputs,
    .n_outputs = 4, .outputs = ic_quant_linear_outputs,
    .attrs_size = sizeof(quant_linear_attrs), .parse = ic_quant_linear_parse, .infer = infer,
    .cpu = run,
};
