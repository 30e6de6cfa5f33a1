/* sequence_mask: Out[..., j] = (j < X[...]) for j in [0, maxlen) (Paddle's
 * sequence_mask kernel). X holds integer lengths of any shape; Out has X's dims plus maxlen
 * and dtype out_dtype (a Paddle VarType number, default int64). maxlen comes from input
 * MaxLenTensor (one integer) when given, else from the attribute; a negative maxlen means the
 * largest length in X. */
#include "kernels/cpu/fill.h"
#include "kernels/kernel.h"

enum { IN_X, IN_MAXLEN };

typedef struct mask_attrs {
  int64_t maxlen;
  ic_dtype dtype;
} mask_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  mask_attrs *a = attrs;
  a->maxlen = ic_ar_int(r, "maxlen", -1);
  ic_fill_parse_dtype(r, "out_dtype", 3, IC_DT_NUM | IC_DT(IC_BOOL) | IC_DT(IC_UINT8) | IC_DT(IC_INT8),
                      &a->dtype);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const mask_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *ml = ic_in(c, IN_MAXLEN, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_INT)) return c->err->code;
  if (x->ndim >= IC_MAX_RANK) return ic_kfail_in(c, IN_X, 0, "expected rank below %d", IC_MAX_RANK);
  int64_t maxlen = a->maxlen;
  if (ml) {
    if (ic_kcheck_dtype(c, IN_MAXLEN, 0, IC_DT_INT)) return c->err->code;
    if (ic_tensor_numel_(ml) != 1) return ic_kfail_in(c, IN_MAXLEN, 0, "expected one integer");
    maxlen = ic_read_i64(ml, 0);
  }
  if (maxlen < 0) {
    maxlen = 0;
    for (int64_t k = 0; k < ic_tensor_numel_(x); k++) {
      int64_t v = ic_read_i64(x, k);
      maxlen = v > maxlen ? v : maxlen;
    }
  }
  int64_t d[IC_MAX_RANK];
  for (int i = 0; i < x->ndim; i++) d[i] = x->dims[i];
  d[x->ndim] = maxlen;
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, x->ndim + 1, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x), m = out->dims[out->ndim - 1];
  for (int64_t k = 0; k < n; k++) {
    int64_t len = ic_read_i64(x, k);
    for (int64_t j = 0; j < m; j++) {
      int64_t at = k * m + j;
      int v = j < len;
      switch (out->dtype) {
        case IC_FP32: ((float *)out->data)[at] = (float)v; break;
        case IC_FP64: ((double *)out->data)[at] = v; break;
        case IC_INT32: ((int32_t *)out->data)[at] = v; break;
        case IC_INT64: ((int64_t *)out->data)[at] = v; break;
        default: ((uint8_t *)out->data)[at] = (uint8_t)v; break; /* bool, uint8, int8 */
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_VALUE}, {"MaxLenTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Y", 0}};

const ic_opdef ic_op_sequence_mask = {
    .name = "sequence_mask",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(mask_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
