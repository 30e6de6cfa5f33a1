/* pad_grad: X@GRAD = Out@GRAD without the padding: the slice starting at paddings[2i] of
 * length Out@GRAD dim - paddings[2i] - paddings[2i + 1] along each dim i (phi PadGradKernel).
 * Paddle's op gives only Out@GRAD; the attributes are pad's (paddings, pad_value). Any
 * dtype. */
#include <string.h>

#include "kernels/kernel.h"

typedef struct pad_grad_attrs {
  const int64_t *pads;
  size_t n_pads;
} pad_grad_attrs;

static const ic_slotdef k_inputs[2] = {{"X", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
                                       {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  pad_grad_attrs *a = attrs;
  ic_ar_ints(r, "paddings", true, &a->pads, &a->n_pads);
  for (size_t i = 0; !r->st && i < a->n_pads; i++) {
    if (a->pads[i] < 0) {
      ic_ar_fail(r, "paddings", "holds %lld at position %zu, expected >= 0",
                 (long long)a->pads[i], i);
    }
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const pad_grad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  if (a->n_pads != 2 * (size_t)g->ndim) {
    return ic_kfail_in(c, 1, 0, "attribute 'paddings' has %zu values, expected 2 per dim (%d)",
                       a->n_pads, 2 * g->ndim);
  }
  int64_t d[IC_MAX_RANK];
  for (int i = 0; i < g->ndim; i++) {
    d[i] = g->dims[i] - a->pads[2 * i] - a->pads[2 * i + 1];
    if (d[i] < 0) {
      return ic_kfail_in(c, 1, 0, "dim %d is %lld, less than its paddings %lld + %lld", i,
                         (long long)g->dims[i], (long long)a->pads[2 * i],
                         (long long)a->pads[2 * i + 1]);
    }
  }
  if (x && !ic_dims_equal(x->ndim, x->dims, g->ndim, d)) {
    char s[128];
    return ic_kfail_in(c, 0, 0, "expected dims %s (Out@GRAD less the paddings)",
                       ic_dims_str(g->ndim, d, s, sizeof s));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, g->ndim, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const pad_grad_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int R = dx->ndim;
  const int64_t n = ic_tensor_numel_(dx);
  const size_t es = ic_dtype_size(g->dtype);
  if (n == 0) return IC_OK;
  if (R == 0) {
    memcpy(dx->data, g->data, es);
    return IC_OK;
  }
  /* rows of the last dim, copied whole */
  const int64_t row = dx->dims[R - 1], rows = n / row;
  int64_t idx[IC_MAX_RANK] = {0};
  for (int64_t r = 0; r < rows; r++) {
    int64_t off = 0;
    for (int k = 0; k < R; k++) {
      off = off * g->dims[k] + (k < R - 1 ? idx[k] : 0) + a->pads[2 * k];
    }
    memcpy((char *)dx->data + (size_t)(r * row) * es, (const char *)g->data + (size_t)off * es,
           (size_t)row * es);
    for (int k = R - 2; k >= 0; k--) {
      if (++idx[k] < dx->dims[k]) break;
      idx[k] = 0;
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_pad_grad = {
    .name = "pad_grad", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(pad_grad_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
