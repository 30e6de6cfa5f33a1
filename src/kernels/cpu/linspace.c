/* linspace: Out = Num values from Start to Stop (one-element inputs converted to `dtype`;
 * Num an int32 or int64 >= 0, 0 giving an empty Out), as paddle/phi/kernels/cpu/linspace_kernel.cc: the first Num / 2 values
 * are start + step * i and the others stop - step * (Num - 1 - i) (so the last is Stop
 * exactly); Num 1 gives Start. For float32 and float64 step = (stop - start) / (Num - 1)
 * and every operation is in the dtype; for the integer dtypes the difference is taken in the
 * dtype, the step and values in double, each value truncated (checked against Paddle 3.3.1:
 * 300 random float32 runs identical, and 45 / 6 = 7.5 steps for int64). */
#include "kernels/cpu/fill.h"

typedef struct linspace_attrs {
  ic_dtype dtype;
} linspace_attrs;

static const ic_slotdef k_inputs[3] = {{"Start", IC_SLOT_VALUE}, {"Stop", IC_SLOT_VALUE},
                                       {"Num", IC_SLOT_VALUE}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  linspace_attrs *a = attrs;
  ic_fill_parse_dtype(r, "dtype", IC_FP32,
                      IC_DT(IC_FP32) | IC_DT(IC_FP64) | IC_DT(IC_INT32) | IC_DT(IC_INT64),
                      &a->dtype);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const linspace_attrs *a = c->attrs;
  for (size_t i = 0; i < 3; i++) {
    ic_status st = ic_kcheck_dtype(c, i, 0, i == 2 ? IC_DT(IC_INT32) | IC_DT(IC_INT64) : IC_DT_NUM);
    if (st) return st;
    if (ic_tensor_numel_(ic_in(c, i, 0)) != 1) return ic_kfail_in(c, i, 0, "expected one element");
  }
  const int64_t n = ic_read_i64(ic_in(c, 2, 0), 0);
  if (n < 0) return ic_kfail_in(c, 2, 0, "is %lld, expected >= 0", (long long)n);
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, 1, &n);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const linspace_attrs *a = c->attrs;
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = o->dims[0];
  const ic_tensor *ts = ic_in(c, 0, 0), *te = ic_in(c, 1, 0);
  const int64_t half = n / 2;
  if (a->dtype == IC_INT32 || a->dtype == IC_INT64) {
    /* Start and Stop converted to the integer dtype (truncated), as TransDataType does */
    const int64_t s = ts->dtype == IC_FP32 || ts->dtype == IC_FP64 ? (int64_t)ic_read_f64(ts, 0)
                                                                   : ic_read_i64(ts, 0);
    const int64_t e = te->dtype == IC_FP32 || te->dtype == IC_FP64 ? (int64_t)ic_read_f64(te, 0)
                                                                   : ic_read_i64(te, 0);
    const int64_t sv = a->dtype == IC_INT32 ? (int32_t)s : s, ev = a->dtype == IC_INT32 ? (int32_t)e : e;
    const int64_t diff = a->dtype == IC_INT32 ? (int64_t)(int32_t)((uint32_t)ev - (uint32_t)sv)
                                              : (int64_t)((uint64_t)ev - (uint64_t)sv);
    const double step = n > 1 ? (double)diff / (double)(n - 1) : 0;
    for (int64_t i = 0; i < n; i++) {
      const double v = n == 1 ? (double)sv
                       : i < half ? (double)sv + step * (double)i
                                  : (double)ev - step * (double)(n - 1 - i);
      if (a->dtype == IC_INT32) ((int32_t *)o->data)[i] = (int32_t)v;
      else ((int64_t *)o->data)[i] = (int64_t)v;
    }
    return IC_OK;
  }
  if (a->dtype == IC_FP32) {
    /* every step a float operation, each computed in double and rounded to float (exact
     * for + - * /), so that no contraction into an FMA can skip a rounding */
    const float s = (float)ic_read_f64(ts, 0), e = (float)ic_read_f64(te, 0);
    const float step = n > 1 ? (float)((double)(float)((double)e - (double)s) / (double)(float)(n - 1)) : 0;
    float *out = o->data;
    for (int64_t i = 0; i < n; i++) {
      if (n == 1) {
        out[i] = s;
      } else if (i < half) {
        const float m = (float)((double)step * (double)(float)i);
        out[i] = (float)((double)s + (double)m);
      } else {
        const float m = (float)((double)step * (double)(float)(n - 1 - i));
        out[i] = (float)((double)e - (double)m);
      }
    }
    return IC_OK;
  }
  const double s = ic_read_f64(ts, 0), e = ic_read_f64(te, 0);
  const double step = n > 1 ? (e - s) / (double)(n - 1) : 0;
  double *out = o->data;
  for (int64_t i = 0; i < n; i++) {
    out[i] = n == 1 ? s : i < half ? s + step * (double)i : e - step * (double)(n - 1 - i);
  }
  return IC_OK;
}

const ic_opdef ic_op_linspace = {
    .name = "linspace", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(linspace_attrs), .parse = parse, .infer = infer, .cpu = run,
};
