/* frame (paddle.signal.frame, the first step of stft; phi FrameKernel): slices of
 * frame_length samples every hop_length samples. axis -1: X [..., L] -> [..., frame_length,
 * n], Out[..., i, f] = X[..., f * hop + i]; axis 0: X [L, ...] -> [n, frame_length, ...],
 * Out[f, i, ...] = X[f * hop + i, ...]; n = 1 + (L - frame_length) / hop_length. Any dtype
 * (values are only moved). */
#include <string.h>

#include "kernels/kernel.h"

typedef struct frame_attrs {
  int64_t len, hop;
  bool first;
} frame_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  frame_attrs *a = attrs;
  a->len = ic_ar_int_req(r, "frame_length");
  a->hop = ic_ar_int_req(r, "hop_length");
  const int64_t axis = ic_ar_int(r, "axis", -1);
  if (r->st) return r->st;
  if (axis != 0 && axis != -1) return ic_ar_fail(r, "axis", "is %lld, expected 0 or -1", (long long)axis);
  if (a->len < 1) return ic_ar_fail(r, "frame_length", "is %lld, expected > 0", (long long)a->len);
  if (a->hop < 1) return ic_ar_fail(r, "hop_length", "is %lld, expected > 0", (long long)a->hop);
  a->first = axis == 0;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const frame_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim < 1 || x->ndim >= IC_MAX_RANK) {
    return ic_kfail_in(c, 0, 0, "expected rank 1 to %d", IC_MAX_RANK - 1);
  }
  const int ax = a->first ? 0 : x->ndim - 1;
  const int64_t L = x->dims[ax];
  if (L < a->len) {
    return ic_kfail_in(c, 0, 0, "has %lld samples along axis %d, fewer than frame_length %lld",
                       (long long)L, ax, (long long)a->len);
  }
  const int64_t nf = 1 + (L - a->len) / a->hop;
  int64_t d[IC_MAX_RANK];
  if (a->first) {
    d[0] = nf, d[1] = a->len;
    for (int i = 1; i < x->ndim; i++) d[i + 1] = x->dims[i];
  } else {
    for (int i = 0; i < x->ndim - 1; i++) d[i] = x->dims[i];
    d[x->ndim - 1] = a->len, d[x->ndim] = nf;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim + 1, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const frame_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const size_t es = ic_dtype_size(x->dtype);
  const int ax = a->first ? 0 : x->ndim - 1;
  const int64_t L = x->dims[ax], nf = 1 + (L - a->len) / a->hop, n = ic_tensor_numel_(x);
  const char *src = x->data;
  char *dst = o->data;
  if (a->first) { /* [L, rest] -> [nf, len, rest]: whole rows */
    const size_t row = (size_t)(L ? n / L : 0) * es;
    for (int64_t f = 0; f < nf; f++) {
      for (int64_t i = 0; i < a->len; i++) {
        memcpy(dst + (size_t)(f * a->len + i) * row, src + (size_t)(f * a->hop + i) * row, row);
      }
    }
  } else { /* [rest, L] -> [rest, len, nf] */
    const int64_t outer = L ? n / L : 0;
    for (int64_t p = 0; p < outer; p++) {
      for (int64_t i = 0; i < a->len; i++) {
        for (int64_t f = 0; f < nf; f++) {
          memcpy(dst + (size_t)((p * a->len + i) * nf + f) * es,
                 src + (size_t)(p * L + f * a->hop + i) * es, es);
        }
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_frame = {
    .name = "frame", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(frame_attrs), .parse = parse, .infer = infer, .cpu = run,
};
