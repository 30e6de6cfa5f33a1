/* overlap_add (paddle.signal.overlap_add, the last step of istft; phi OverlapAddKernel): the
 * inverse of frame, summing where frames overlap. axis -1: X [..., frame_length, n] ->
 * [..., L]; axis 0: X [n, frame_length, ...] -> [L, ...]; L = (n - 1) * hop_length +
 * frame_length, Out[f * hop + i] += X[i, f] in frame order. float32, float64, int32, int64. */
#include <string.h>

#include "kernels/kernel.h"

typedef struct oa_attrs {
  int64_t hop;
  bool first;
} oa_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  oa_attrs *a = attrs;
  a->hop = ic_ar_int_req(r, "hop_length");
  const int64_t axis = ic_ar_int(r, "axis", -1);
  if (r->st) return r->st;
  if (axis != 0 && axis != -1) return ic_ar_fail(r, "axis", "is %lld, expected 0 or -1", (long long)axis);
  if (a->hop < 1) return ic_ar_fail(r, "hop_length", "is %lld, expected > 0", (long long)a->hop);
  a->first = axis == 0;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const oa_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (ic_kcheck_dtype(c, 0, 0, IC_DT_NUM)) return c->err->code;
  if (x->ndim < 2) return ic_kfail_in(c, 0, 0, "expected rank >= 2 (frames and their length)");
  const int64_t len = a->first ? x->dims[1] : x->dims[x->ndim - 2];
  const int64_t nf = a->first ? x->dims[0] : x->dims[x->ndim - 1];
  const int64_t L = nf ? (nf - 1) * a->hop + len : 0;
  int64_t d[IC_MAX_RANK];
  if (a->first) {
    d[0] = L;
    for (int i = 2; i < x->ndim; i++) d[i - 1] = x->dims[i];
  } else {
    for (int i = 0; i < x->ndim - 2; i++) d[i] = x->dims[i];
    d[x->ndim - 2] = L;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim - 1, d);
  return IC_OK;
}

#define OA(T)                                                                                  \
  do {                                                                                         \
    const T *xs = x->data;                                                                     \
    T *os = o->data;                                                                           \
    memset(os, 0, (size_t)ic_tensor_numel_(o) * sizeof(T));                                    \
    if (a->first) {                                                                            \
      for (int64_t f = 0; f < nf; f++)                                                         \
        for (int64_t i = 0; i < len; i++)                                                      \
          for (int64_t q = 0; q < rest; q++)                                                   \
            os[(f * a->hop + i) * rest + q] += xs[(f * len + i) * rest + q];                   \
    } else {                                                                                   \
      for (int64_t p = 0; p < rest; p++)                                                       \
        for (int64_t f = 0; f < nf; f++)                                                       \
          for (int64_t i = 0; i < len; i++)                                                    \
            os[p * L + f * a->hop + i] += xs[(p * len + i) * nf + f];                          \
    }                                                                                          \
  } while (0)

static ic_status run(ic_kctx *c) {
  const oa_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t len = a->first ? x->dims[1] : x->dims[x->ndim - 2];
  const int64_t nf = a->first ? x->dims[0] : x->dims[x->ndim - 1];
  const int64_t L = nf ? (nf - 1) * a->hop + len : 0;
  const int64_t rest = nf && len ? ic_tensor_numel_(x) / (nf * len) : 0;
  switch (x->dtype) {
    case IC_FP32: OA(float); break;
    case IC_FP64: OA(double); break;
    case IC_INT32: OA(int32_t); break;
    default: OA(int64_t); break;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_overlap_add = {
    .name = "overlap_add", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(oa_attrs), .parse = parse, .infer = infer, .cpu = run,
};
