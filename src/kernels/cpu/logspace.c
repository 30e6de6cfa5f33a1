/* logspace: Out = Num values Base^e for e from Start to Stop (one-element inputs converted to
 * `dtype`, truncated for the integer dtypes; Num an int32 > 0), as
 * paddle/phi/kernels/cpu/logspace_kernel.cc computes them: step = (Stop - Start) / (Num - 1)
 * in double, the difference taken in the dtype; the first Num / 2 exponents are Start +
 * step * i and the others Stop - step * (Num - 1 - i), in double, each value pow() in double
 * converted to the dtype; Num 1 gives Base^Start (powf for float32). dtype float32, float64,
 * int32 or int64 (LogspaceInferMeta). */
#include <math.h>

#include "kernels/cpu/fill.h"

typedef struct logspace_attrs {
  ic_dtype dtype;
} logspace_attrs;

enum { IN_START, IN_STOP, IN_NUM, IN_BASE };
static const ic_slotdef k_inputs[4] = {{"Start", IC_SLOT_VALUE}, {"Stop", IC_SLOT_VALUE},
                                       {"Num", IC_SLOT_VALUE}, {"Base", IC_SLOT_VALUE}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  logspace_attrs *a = attrs;
  ic_fill_parse_dtype(r, "dtype", IC_FP32,
                      IC_DT(IC_FP32) | IC_DT(IC_FP64) | IC_DT(IC_INT32) | IC_DT(IC_INT64),
                      &a->dtype);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const logspace_attrs *a = c->attrs;
  for (size_t i = 0; i < 4; i++) {
    ic_status st = ic_kcheck_dtype(c, i, 0, i == IN_NUM ? IC_DT(IC_INT32) : IC_DT_NUM);
    if (st) return st;
    if (ic_tensor_numel_(ic_in(c, i, 0)) != 1) return ic_kfail_in(c, i, 0, "expected one element");
  }
  const int64_t n = ic_read_i64(ic_in(c, IN_NUM, 0), 0);
  if (n <= 0) return ic_kfail_in(c, IN_NUM, 0, "is %lld, expected > 0", (long long)n);
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, 1, &n);
  return IC_OK;
}

/* Input (s, 0) converted to the integer dtype dt as TransDataType does (truncation). */
static int64_t as_int(const ic_kctx *c, size_t s, ic_dtype dt) {
  const ic_tensor *t = ic_in(c, s, 0);
  const int64_t v = t->dtype == IC_FP32 || t->dtype == IC_FP64 ? (int64_t)ic_read_f64(t, 0)
                                                               : ic_read_i64(t, 0);
  return dt == IC_INT32 ? (int32_t)v : v;
}

static ic_status run(ic_kctx *c) {
  const logspace_attrs *a = c->attrs;
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = o->dims[0], half = n / 2;
  if (a->dtype == IC_FP32) {
    const float s = (float)ic_read_f64(ic_in(c, IN_START, 0), 0),
                e = (float)ic_read_f64(ic_in(c, IN_STOP, 0), 0),
                b = (float)ic_read_f64(ic_in(c, IN_BASE, 0), 0);
    float *op = o->data;
    if (n == 1) {
      op[0] = powf(b, s);
      return IC_OK;
    }
    const double step = (double)(e - s) / (double)(n - 1);
    for (int64_t i = 0; i < n; i++) {
      const double x =
          i < half ? (double)s + step * (double)i : (double)e - step * (double)(n - i - 1);
      op[i] = (float)pow((double)b, x);
    }
  } else if (a->dtype == IC_FP64) {
    const double s = ic_read_f64(ic_in(c, IN_START, 0), 0),
                 e = ic_read_f64(ic_in(c, IN_STOP, 0), 0),
                 b = ic_read_f64(ic_in(c, IN_BASE, 0), 0);
    double *op = o->data;
    if (n == 1) {
      op[0] = pow(b, s);
      return IC_OK;
    }
    const double step = (e - s) / (double)(n - 1);
    for (int64_t i = 0; i < n; i++) {
      op[i] = pow(b, i < half ? s + step * (double)i : e - step * (double)(n - i - 1));
    }
  } else {
    const bool i32 = a->dtype == IC_INT32;
    const int64_t s = as_int(c, IN_START, a->dtype), e = as_int(c, IN_STOP, a->dtype),
                  b = as_int(c, IN_BASE, a->dtype);
    const int64_t diff = i32 ? (int64_t)(int32_t)((uint32_t)e - (uint32_t)s)
                             : (int64_t)((uint64_t)e - (uint64_t)s);
    const double step = n > 1 ? (double)diff / (double)(n - 1) : 0;
    for (int64_t i = 0; i < n; i++) {
      const double x = n == 1 ? (double)s
                       : i < half ? (double)s + step * (double)i
                                  : (double)e - step * (double)(n - i - 1);
      const double v = pow((double)b, x);
      if (i32) ((int32_t *)o->data)[i] = (int32_t)v;
      else ((int64_t *)o->data)[i] = (int64_t)v;
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_logspace = {
    .name = "logspace", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(logspace_attrs), .parse = parse, .infer = infer, .cpu = run,
};
