/* crop_tensor_grad: for Out = X[offsets : offsets + Out's dims] (crop_tensor), X@GRAD = zeros
 * of X's dims with Out@GRAD placed at the offsets (phi CropTensorGradKernel: a pad). The
 * offsets come, by priority, from input Offsets (all of its int32/int64 elements), the
 * OffsetsTensor list (one single-element tensor each) or attribute `offsets`; one per dim,
 * each >= 0, the window inside X. Inputs X (meta only), Offsets, OffsetsTensor (optional),
 * Out@GRAD (X's rank). Float32 and float64. */
#include "kernels/cpu/kgrad.h"
#include "kernels/cpu/shapeops.h"

enum { IN_X, IN_OFFSETS, IN_OFFSETS_LIST, IN_DOUT };
static const ic_slotdef k_inputs[4] = {
    {"X", IC_SLOT_NO_BUFFER},
    {"Offsets", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"OffsetsTensor", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

typedef struct crop_grad_attrs {
  const int64_t *offsets;
  size_t n_offsets;
} crop_grad_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  crop_grad_attrs *a = attrs;
  ic_ar_ints(r, "offsets", false, &a->offsets, &a->n_offsets);
  return r->st;
}

static ic_status offsets(ic_kctx *c, int64_t *off) {
  const crop_grad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  size_t n;
  const char *from;
  ic_status st = IC_OK;
  if (c->in[IN_OFFSETS].n) {
    from = "input Offsets";
    st = ic_shapeops_read_ints(c, IN_OFFSETS, false, "offsets", off, IC_MAX_RANK, &n);
  } else if (c->in[IN_OFFSETS_LIST].n) {
    from = "input OffsetsTensor";
    st = ic_shapeops_read_ints(c, IN_OFFSETS_LIST, true, "offsets", off, IC_MAX_RANK, &n);
  } else {
    from = "attribute 'offsets'";
    n = a->n_offsets;
    for (size_t i = 0; i < n && i < IC_MAX_RANK; i++) off[i] = a->offsets[i];
  }
  if (st) return st;
  if (n != (size_t)x->ndim) {
    return ic_kfail_in(c, IN_X, 0, "has rank %d, but %s gives %zu offsets (one per dim "
                       "expected)", x->ndim, from, n);
  }
  for (int i = 0; i < x->ndim; i++) {
    if (off[i] < 0 || off[i] + g->dims[i] > x->dims[i]) {
      return ic_kfail_in(c, IN_DOUT, 0, "does not fit in X at offset %lld of dim %d (%s)",
                         (long long)off[i], i, from);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  if (g->ndim != x->ndim) return ic_kfail_in(c, IN_DOUT, 0, "expected X's rank %d", x->ndim);
  int64_t off[IC_MAX_RANK];
  if ((st = offsets(c, off))) return st;
  kg_out(c, 0, g->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int64_t off[IC_MAX_RANK], xs[IC_MAX_RANK], pos[IC_MAX_RANK] = {0};
  ic_status st = offsets(c, off);
  if (st) return st;
  kg_zero(dx);
  const int r = x->ndim;
  xs[r - 1] = 1;
  for (int i = r - 2; i >= 0; i--) xs[i] = xs[i + 1] * x->dims[i + 1];
  const int64_t n = ic_tensor_numel_(g);
  for (int64_t i = 0; i < n; i++) {
    int64_t at = 0;
    for (int j = 0; j < r; j++) at += (pos[j] + off[j]) * xs[j];
    kg_put(dx, at, kg_get(g, i));
    for (int j = r - 1; j >= 0 && ++pos[j] == g->dims[j]; j--) pos[j] = 0;
  }
  return IC_OK;
}

const ic_opdef ic_op_crop_tensor_grad = {
    .name = "crop_tensor_grad", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(crop_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
