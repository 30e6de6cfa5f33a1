/* pad: Out = X with paddings[2i] values before and paddings[2i + 1] after dim i (2 per dim,
 * each >= 0), filled with the float attribute `pad_value` (default 0) converted to X's dtype
 * (paddle/phi/kernels/impl/pad_kernel_impl.h, PadInferMeta). Any dtype. */
#include <string.h>

#include "kernels/cpu/fill.h"

typedef struct pad_attrs {
  const int64_t *pads;
  size_t n_pads;
  double value;
} pad_attrs;

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  pad_attrs *a = attrs;
  ic_ar_ints(r, "paddings", true, &a->pads, &a->n_pads);
  a->value = ic_ar_float(r, "pad_value", 0.0);
  for (size_t i = 0; !r->st && i < a->n_pads; i++) {
    if (a->pads[i] < 0) {
      ic_ar_fail(r, "paddings", "holds %lld at position %zu, expected >= 0",
                 (long long)a->pads[i], i);
    }
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const pad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (a->n_pads != 2 * (size_t)x->ndim) {
    return ic_kfail_in(c, 0, 0, "attribute 'paddings' has %zu values, expected 2 per dim (%d)",
                       a->n_pads, 2 * x->ndim);
  }
  int64_t d[IC_MAX_RANK];
  for (int i = 0; i < x->ndim; i++) d[i] = x->dims[i] + a->pads[2 * i] + a->pads[2 * i + 1];
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, d);
  return IC_OK;
}

/* Copy X's rows (last dim) into place, dim by dim. */
static void place(char *out, const int64_t *ost, const char *in, const int64_t *ist,
                  const ic_tensor *x, const int64_t *pads, int d, size_t es) {
  if (d == x->ndim - 1) {
    memcpy(out + (size_t)pads[2 * d] * es, in, (size_t)x->dims[d] * es);
    return;
  }
  for (int64_t j = 0; j < x->dims[d]; j++) {
    place(out + (size_t)((j + pads[2 * d]) * ost[d]) * es, ost, in + (size_t)(j * ist[d]) * es,
          ist, x, pads, d + 1, es);
  }
}

static ic_status pad_cpu(ic_kctx *c) {
  const pad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(o->ndim, o->dims);
  if (n == 0) return IC_OK;
  ic_fill_scalar v = {false, 0, a->value};
  ic_fill_store(o->data, o->dtype, n, v);
  size_t es = ic_dtype_size(x->dtype);
  if (x->ndim == 0) {
    memcpy(o->data, x->data, es);
    return IC_OK;
  }
  if (ic_numel(x->ndim, x->dims) == 0) return IC_OK;
  int64_t ost[IC_MAX_RANK], ist[IC_MAX_RANK], so = 1, si = 1;
  for (int d = x->ndim - 1; d >= 0; d--) {
    ost[d] = so;
    ist[d] = si;
    so *= o->dims[d];
    si *= x->dims[d];
  }
  place(o->data, ost, x->data, ist, x, a->pads, 0, es);
  return IC_OK;
}

const ic_opdef ic_op_pad = {
    .name = "pad", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(pad_attrs), .parse = parse, .infer = infer, .cpu = pad_cpu,
};
