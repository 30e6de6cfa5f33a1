/* fake_quantize_range_abs_max: Out = X quantized (not dequantized) to bit_length bits
 * (default 8): whole numbers in [-bin_cnt - 1, bin_cnt] stored in X's float type (quant.h),
 * round_type default 1 (ties away from zero). At inference (is_test) the scale is
 * InScale[0] and OutScale passes InScale through.
 *
 * In training (Paddle's FakeQuantizeRangeAbsMaxKernel and FindRangeAbsMaxFunctor) the scale
 * is the largest max |X| of the last window_size steps, kept in the window OutScales
 * (window_size values, a persistable that Paddle updates in place) indexed by Iter (int64,
 * the global step): with cur = max |X| and it = Iter[0],
 *   OutScales = the previous window with [it % window_size] = cur (`removed` the old value);
 *   scale = InScale[0], raised to cur when cur is larger; otherwise, when |removed - scale|
 *   < 1e-6 (the largest value left the window), the largest |value| among the first
 *   min(it, window_size) entries of the new window (entry 0 when that count is 0);
 *   OutScale = [scale], and Out uses it.
 * The op reads OutScales before writing it; the program loader makes that read explicit by
 * giving a training-mode op an input OutScales naming the same variable (program.c,
 * add_read_back), so the executors bind, order and commit it like Param/ParamOut. float32
 * and float64. */
#include <string.h>

#include "kernels/cpu/quant.h"

typedef struct fqr_attrs {
  int bin_cnt, round_type;
  bool is_test;
  int64_t window;
} fqr_attrs;

enum { IN_X, IN_SCALE, IN_ITER, IN_SCALES };
enum { OUT_Y, OUT_SCALE, OUT_SCALES };

static const ic_slotdef k_inputs[4] = {
    {"X", 0}, {"InScale", 0}, {"Iter", IC_SLOT_OPTIONAL}, {"OutScales", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[3] = {
    {"Out", 0}, {"OutScale", IC_SLOT_OPTIONAL}, {"OutScales", IC_SLOT_OPTIONAL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fqr_attrs *a = attrs;
  ic_quant_parse_bits(r, "bit_length", 8, &a->bin_cnt);
  ic_quant_parse_round(r, 1, &a->round_type);
  a->window = ic_ar_int(r, "window_size", 10000);
  a->is_test = ic_ar_bool(r, "is_test", false);
  if (!r->st && (a->window < 1 || a->window > INT32_MAX)) {
    return ic_ar_fail(r, "window_size", "must be positive, got %lld", (long long)a->window);
  }
  return r->st;
}

static const char k_train[] = "training (is_test false) keeps a window of scales";

static ic_status infer(ic_kctx *c) {
  const fqr_attrs *a = c->attrs;
  ic_status st;
  if (a->is_test) {
    if ((st = ic_quant_scalar_infer(c))) return st;
    ic_quant_pass_meta(c, OUT_SCALE, IN_SCALE);
    ic_quant_pass_meta(c, OUT_SCALES, IN_SCALE);
    return IC_OK;
  }
  if ((st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) ||
      (st = ic_quant_check_one(c, IN_SCALE, false, k_train)) ||
      (st = ic_quant_check_one(c, OUT_SCALE, true, k_train)) ||
      (st = ic_quant_check_one(c, OUT_SCALES, true, k_train))) {
    return st;
  }
  const ic_tensor *x = ic_in(c, IN_X, 0), *it = ic_in(c, IN_ITER, 0), *w = ic_in(c, IN_SCALES, 0);
  if (!it) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "input Iter (the global step) is absent: %s",
                    k_train);
  }
  if (it->dtype != IC_INT64 || ic_numel(it->ndim, it->dims) != 1) {
    return ic_kfail_in(c, IN_ITER, 0, "expected one int64 (the global step)");
  }
  if (!w || w->dtype != x->dtype || ic_numel(w->ndim, w->dims) != a->window) {
    return ic_kfail(c, IC_ERR_SHAPE,
                    "output OutScales '%s' (the window of scales, read before it is written) "
                    "must hold window_size = %lld values of X's dtype from the previous step "
                    "(Paddle's quantization pass initialises it to zeros)",
                    ic_out_name(c, OUT_SCALES, 0), (long long)a->window);
  }
  int64_t one = 1;
  ic_tensor_set_meta(ic_out(c, OUT_Y, 0), x->dtype, x->ndim, x->dims);
  ic_tensor_set_meta(ic_out(c, OUT_SCALE, 0), x->dtype, 1, &one);
  ic_tensor_set_meta(ic_out(c, OUT_SCALES, 0), x->dtype, 1, &a->window);
  return IC_OK;
}

#define RANGE(T, ABS)                                                                      \
  do {                                                                                     \
    T *win = ic_out(c, OUT_SCALES, 0)->data;                                               \
    memcpy(win, ic_in(c, IN_SCALES, 0)->data, (size_t)a->window * sizeof(T));              \
    const T cur = (T)ic_quant_abs_max(x), removed = win[idx];                              \
    win[idx] = cur;                                                                        \
    T m = *(const T *)ic_in(c, IN_SCALE, 0)->data;                                         \
    if (m < cur) {                                                                         \
      m = cur;                                                                             \
    } else if (ABS(removed - m) < 1e-6) {                                                  \
      int64_t size = it > a->window ? a->window : it;                                      \
      m = ABS(win[0]);                                                                     \
      for (int64_t k = 1; k < size; k++) m = ABS(win[k]) > m ? ABS(win[k]) : m;            \
    }                                                                                      \
    *(T *)ic_out(c, OUT_SCALE, 0)->data = m;                                               \
  } while (0)

static ic_status run(ic_kctx *c) {
  const fqr_attrs *a = c->attrs;
  if (a->is_test) {
    ic_quant_scalar_run(c, a->bin_cnt, a->round_type, false);
    ic_quant_pass(c, OUT_SCALE, IN_SCALE);
    ic_quant_pass(c, OUT_SCALES, IN_SCALE);
    return IC_OK;
  }
  const ic_tensor *x = ic_in(c, IN_X, 0);
  const int64_t it = *(const int64_t *)ic_in(c, IN_ITER, 0)->data;
  if (it < 0) return ic_kfail_in(c, IN_ITER, 0, "is %lld, expected >= 0", (long long)it);
  const int64_t idx = it % a->window;
  if (x->dtype == IC_FP32) {
    RANGE(float, fabsf);
  } else {
    RANGE(double, fabs);
  }
  ic_quant_apply(x, ic_out(c, OUT_SCALE, 0), ic_out(c, OUT_Y, 0), a->bin_cnt, a->round_type,
                 false);
  return IC_OK;
}

const ic_opdef ic_op_fake_quantize_range_abs_max = {
    .name = "fake_quantize_range_abs_max", .n_inputs = 4, .inputs = k_inputs,
    .n_outputs = 3, .outputs = k_outputs, .attrs_size = sizeof(fqr_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
