/* reduce_as: out = x summed down to target's dims (Paddle 3's paddle.reduce_as; phi
 * ReduceAsKernel with funcs::GetReduceDims): x's leading axes beyond target's rank are summed
 * away, and so is every other axis where target has 1 and x does not; the remaining axes
 * must match target's. Out has target's dims; its dtype is int64 for bool and int32 x, x's
 * dtype otherwise (as phi's sum gives), except that with no axis summed at all Paddle copies
 * x, keeping its dtype (int32 and bool too, although Paddle's infer declares int64). Only
 * target's dims are read. Supported x dtypes:
 * bool, int8, uint8, int16, int32, int64, float32, float64, complex64, complex128 (Paddle
 * also registers float16 and bfloat16, which icore only stores). Integers wrap as Paddle's
 * sums in the integer type do; floats (and complex parts) accumulate in double in x's memory
 * order and round once (Paddle's Eigen sum runs in the element type: the same within
 * rounding). A target of higher rank than x is refused (Paddle reads past x's dims there).
 * Legacy slots x, target, out. */
#include <string.h>

#include "kernels/kernel.h"

#define RA_DTYPES                                                                          \
  (IC_DT(IC_BOOL) | IC_DT(IC_INT8) | IC_DT(IC_UINT8) | IC_DT(IC_INT16) | IC_DT(IC_INT32) |   \
   IC_DT(IC_INT64) | IC_DT(IC_FP32) | IC_DT(IC_FP64) | IC_DT(IC_COMPLEX64) |                 \
   IC_DT(IC_COMPLEX128))

/* With no axis summed, Paddle copies x (its dtype, even bool and int32). */
static ic_dtype out_dtype(ic_dtype x, bool reduces) {
  return reduces && (x == IC_BOOL || x == IC_INT32) ? IC_INT64 : x;
}

/* Whether some axis of x is summed away (a 0 step in the plan on an axis longer than 1, or
 * leading axes). */
static bool reduces(const ic_tensor *x, const ic_tensor *t, const int64_t *os) {
  if (x->ndim > t->ndim) return true;
  for (int k = 0; k < x->ndim; k++) {
    if (os[k] == 0 && x->dims[k] != 1) return true;
  }
  return false;
}

/* For each axis of x, the step in out of one step along it (0: summed away). */
static ic_status plan(ic_kctx *c, int64_t ostride[IC_MAX_RANK]) {
  const ic_tensor *x = ic_in(c, 0, 0), *t = ic_in(c, 1, 0);
  if (t->ndim > x->ndim) {
    return ic_kfail_in(c, 1, 0, "has rank %d, expected at most x's rank %d", t->ndim, x->ndim);
  }
  const int diff = x->ndim - t->ndim;
  int64_t s = 1;
  for (int k = x->ndim - 1; k >= 0; k--) {
    if (k < diff) {
      ostride[k] = 0;
      continue;
    }
    const int64_t td = t->dims[k - diff];
    if (td == 1 && x->dims[k] != 1) {
      ostride[k] = 0;
    } else if (td != x->dims[k]) {
      return ic_kfail_in(c, 1, 0,
                         "cannot be summed to: its dim %d is %lld, x's dim %d is %lld "
                         "(expected equal, or 1 in target)",
                         k - diff, (long long)td, k, (long long)x->dims[k]);
    } else {
      ostride[k] = s;
    }
    s *= td;
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *t = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, RA_DTYPES);
  if (st) return st;
  int64_t os[IC_MAX_RANK];
  if ((st = plan(c, os))) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), out_dtype(x->dtype, reduces(x, t, os)), t->ndim, t->dims);
  return IC_OK;
}

static double rd_f(const void *p, ic_dtype d, int64_t i) {
  return d == IC_FP32 || d == IC_COMPLEX64 ? (double)((const float *)p)[i]
                                           : ((const double *)p)[i];
}

static int64_t rd_i(const void *p, ic_dtype d, int64_t i) {
  switch (d) {
    case IC_BOOL: return ((const uint8_t *)p)[i] != 0;
    case IC_INT8: return ((const int8_t *)p)[i];
    case IC_UINT8: return ((const uint8_t *)p)[i];
    case IC_INT16: return ((const int16_t *)p)[i];
    case IC_INT32: return ((const int32_t *)p)[i];
    default: return ((const int64_t *)p)[i];
  }
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t os[IC_MAX_RANK];
  ic_status st = plan(c, os);
  if (st) return st;
  const ic_dtype xd = x->dtype, od = o->dtype;
  const int64_t n = ic_numel(x->ndim, x->dims), on = ic_numel(o->ndim, o->dims);
  if (on == 0) return IC_OK;
  if (!reduces(x, ic_in(c, 1, 0), os)) { /* Paddle's copy */
    memcpy(o->data, x->data, ic_dtype_size(xd) * (size_t)n);
    return IC_OK;
  }
  const bool cplx = xd == IC_COMPLEX64 || xd == IC_COMPLEX128;
  const bool flt = cplx || xd == IC_FP32 || xd == IC_FP64;
  const int parts = cplx ? 2 : 1;
  ic_buffer *acc = ic_kscratch(c, (size_t)(on * parts) * 8);
  if (!acc) return c->err->code;
  memset(acc->data, 0, (size_t)(on * parts) * 8);
  double *af = acc->data;
  int64_t *ai = acc->data;
  int64_t idx[IC_MAX_RANK] = {0}, off = 0;
  for (int64_t i = 0; i < n; i++) {
    if (flt) {
      for (int p = 0; p < parts; p++) af[off * parts + p] += rd_f(x->data, xd, i * parts + p);
    } else {
      ai[off] = (int64_t)((uint64_t)ai[off] + (uint64_t)rd_i(x->data, xd, i));
    }
    for (int k = x->ndim - 1; k >= 0; k--) { /* odometer: the next element's out offset */
      off += os[k];
      if (++idx[k] < x->dims[k]) break;
      off -= os[k] * x->dims[k];
      idx[k] = 0;
    }
  }
  for (int64_t j = 0; j < on * parts; j++) {
    switch (od) {
      case IC_FP32:
      case IC_COMPLEX64: ((float *)o->data)[j] = (float)af[j]; break;
      case IC_FP64:
      case IC_COMPLEX128: ((double *)o->data)[j] = af[j]; break;
      case IC_INT8: ((int8_t *)o->data)[j] = (int8_t)(uint8_t)ai[j]; break;
      case IC_UINT8: ((uint8_t *)o->data)[j] = (uint8_t)ai[j]; break;
      case IC_INT16: ((int16_t *)o->data)[j] = (int16_t)(uint16_t)ai[j]; break;
      default: ((int64_t *)o->data)[j] = ai[j]; break;
    }
  }
  ic_buffer_release(acc);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"x", 0}, {"target", IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"out", 0}};

const ic_opdef ic_op_reduce_as = {
    .name = "reduce_as", .n_inputs = 2, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
