/* moving_average_abs_max_scale (OutScaleForTrainingPass's observer): computes a scale and
 * quantizes nothing. Out (optional) = X. In training (is_test false) the moving-average
 * update of the fake quantizers (quant.h, ic_quant_ma_update): OutState = r * InState + 1,
 * OutAccum = r * InAccum + max|X|, OutScale = OutAccum / OutState with the float
 * moving_rate r (default 0.9); InAccum, InState and the three outputs are required. At
 * inference Paddle's kernel leaves OutScale, OutState and OutAccum as they are: OutScale is
 * read back (the loader's input OutScale, program.c add_read_back) where it is persistable,
 * else empty, and OutState/OutAccum pass InState/InAccum through (Paddle's
 * MovingAverageAbsMaxScaleKernel). Its gradient is the
 * straight-through estimator (straight_through_estimator_grad). float32 and float64. */
#include <string.h>

#include "kernels/cpu/quant.h"

enum { IN_X, IN_ACCUM, IN_STATE, IN_SCALE };
enum { OUT_Y, OUT_SCALE, OUT_STATE, OUT_ACCUM };

static const ic_slotdef k_inputs[4] = {{"X", 0},
                                       {"InAccum", IC_SLOT_OPTIONAL},
                                       {"InState", IC_SLOT_OPTIONAL},
                                       {"OutScale", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[4] = {{"Out", IC_SLOT_OPTIONAL},
                                        {"OutScale", IC_SLOT_OPTIONAL},
                                        {"OutState", IC_SLOT_OPTIONAL},
                                        {"OutAccum", IC_SLOT_OPTIONAL}};

typedef struct mas_attrs {
  float rate;
  bool is_test;
} mas_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  mas_attrs *a = attrs;
  double rate = ic_ar_float(r, "moving_rate", 0.9);
  a->is_test = ic_ar_bool(r, "is_test", false);
  if (r->st) return r->st;
  if (!(rate >= 0 && rate <= 1)) {
    return ic_ar_fail(r, "moving_rate", "must be in [0, 1], got %g", rate);
  }
  a->rate = (float)rate;
  return IC_OK;
}

static const char k_train[] = "training (is_test false) updates the moving average";

static ic_status infer(ic_kctx *c) {
  const mas_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if (ic_out(c, OUT_Y, 0)) ic_tensor_set_meta(ic_out(c, OUT_Y, 0), x->dtype, x->ndim, x->dims);
  if (a->is_test) {
    /* An OutScale not read back (not persistable: a PIR value) stays as Paddle leaves an
     * output its kernel does not write, an empty tensor (ic_quant_pass_meta). */
    ic_quant_pass_meta(c, OUT_SCALE, IN_SCALE);
    ic_quant_pass_meta(c, OUT_STATE, IN_STATE);
    ic_quant_pass_meta(c, OUT_ACCUM, IN_ACCUM);
    return IC_OK;
  }
  if ((st = ic_quant_check_one(c, IN_ACCUM, false, k_train)) ||
      (st = ic_quant_check_one(c, IN_STATE, false, k_train)) ||
      (st = ic_quant_check_one(c, OUT_SCALE, true, k_train)) ||
      (st = ic_quant_check_one(c, OUT_STATE, true, k_train)) ||
      (st = ic_quant_check_one(c, OUT_ACCUM, true, k_train))) {
    return st;
  }
  int64_t one = 1;
  for (size_t k = OUT_SCALE; k <= OUT_ACCUM; k++) {
    ic_tensor_set_meta(ic_out(c, k, 0), x->dtype, 1, &one);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const mas_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor *y = ic_out(c, OUT_Y, 0);
  if (y && y->data != x->data) {
    memcpy(y->data, x->data, (size_t)ic_numel(x->ndim, x->dims) * ic_dtype_size(x->dtype));
  }
  if (a->is_test) {
    ic_quant_pass(c, OUT_SCALE, IN_SCALE);
    ic_quant_pass(c, OUT_STATE, IN_STATE);
    ic_quant_pass(c, OUT_ACCUM, IN_ACCUM);
    return IC_OK;
  }
  ic_quant_ma_update(x, a->rate, ic_in(c, IN_ACCUM, 0), ic_in(c, IN_STATE, 0),
                     ic_out(c, OUT_SCALE, 0), ic_out(c, OUT_STATE, 0), ic_out(c, OUT_ACCUM, 0));
  return IC_OK;
}

const ic_opdef ic_op_moving_average_abs_max_scale = {
    .name = "moving_average_abs_max_scale", .n_inputs = 4, .inputs = k_inputs,
    .n_outputs = 4, .outputs = k_outputs, .attrs_size = sizeof(mas_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
