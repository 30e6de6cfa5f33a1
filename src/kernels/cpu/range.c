/* range: Out = start, start + step, ... while short of end, from one-element inputs Start,
 * End and Step of one dtype (float32, float64, int32, int64). The count is
 * ceil(|end - start| / |step|) ((|end - start| + |step| - 1) / |step| for integers); a zero
 * step, or one pointing away from end, is an error. Values accumulate value += step in the
 * dtype as paddle/phi/kernels/cpu/arange_kernel.cc and funcs/range_function.h compute. */
#include <math.h>

#include "kernels/kernel.h"

static const ic_slotdef k_inputs[3] = {
    {"Start", IC_SLOT_VALUE}, {"End", IC_SLOT_VALUE}, {"Step", IC_SLOT_VALUE}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status count(ic_kctx *c, int64_t *n) {
  const ic_tensor *s = ic_in(c, 0, 0);
  for (size_t i = 0; i < 3; i++) {
    ic_status st = ic_kcheck_dtype(c, i, 0, IC_DT_NUM);
    if (st) return st;
    const ic_tensor *t = ic_in(c, i, 0);
    if (ic_numel(t->ndim, t->dims) != 1) return ic_kfail_in(c, i, 0, "expected one element");
    if (t->dtype != s->dtype) return ic_kfail_in(c, i, 0, "expected Start's dtype");
  }
  if (s->dtype == IC_INT32 || s->dtype == IC_INT64) {
    int64_t a = ic_read_i64(s, 0), e = ic_read_i64(ic_in(c, 1, 0), 0);
    int64_t st = ic_read_i64(ic_in(c, 2, 0), 0);
    if (st == 0 || (st > 0 && a > e) || (st < 0 && a < e)) goto bad;
    uint64_t span = e > a ? (uint64_t)e - (uint64_t)a : (uint64_t)a - (uint64_t)e;
    uint64_t as = st > 0 ? (uint64_t)st : 0u - (uint64_t)st;
    *n = (int64_t)((span + as - 1) / as);
    return IC_OK;
  }
  double a = ic_read_f64(s, 0), e = ic_read_f64(ic_in(c, 1, 0), 0);
  double st = ic_read_f64(ic_in(c, 2, 0), 0);
  if (st == 0 || (st > 0 && a > e) || (st < 0 && a < e) || !isfinite(a) || !isfinite(e)) {
    goto bad;
  }
  /* in the dtype, as Paddle: (end - start) / step rounded in float for float32 */
  double cnt = s->dtype == IC_FP32 ? (double)ceilf(fabsf(((float)e - (float)a) / (float)st))
                                   : ceil(fabs((e - a) / st));
  if (!(cnt < 9.0e15)) goto bad;
  *n = (int64_t)cnt;
  return IC_OK;
bad:
  return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                  "Start '%s' %g, End '%s' %g and Step '%s' %g do not make a finite range "
                  "(step must be nonzero and point from start toward end)",
                  ic_in_name(c, 0, 0), ic_read_f64(s, 0), ic_in_name(c, 1, 0),
                  ic_read_f64(ic_in(c, 1, 0), 0), ic_in_name(c, 2, 0),
                  ic_read_f64(ic_in(c, 2, 0), 0));
}

static ic_status infer(ic_kctx *c) {
  int64_t n;
  ic_status st = count(c, &n);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, 0, 0)->dtype, 1, &n);
  return IC_OK;
}

#define FILL(T)                                                                            \
  do {                                                                                     \
    T v = *(const T *)ic_in(c, 0, 0)->data, step = *(const T *)ic_in(c, 2, 0)->data;       \
    T *op = o->data;                                                                       \
    for (int64_t i = 0; i < n; i++) {                                                      \
      op[i] = v;                                                                           \
      v = (T)(v + step);                                                                   \
    }                                                                                      \
  } while (0)

static ic_status range_cpu(ic_kctx *c) {
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = o->dims[0];
  switch (o->dtype) {
    case IC_FP32: FILL(float); break;
    case IC_FP64: FILL(double); break;
    case IC_INT32: FILL(int32_t); break;
    default: FILL(int64_t); break;
  }
  return IC_OK;
}

const ic_opdef ic_op_range = {
    .name = "range", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .infer = infer, .cpu = range_cpu,
};
