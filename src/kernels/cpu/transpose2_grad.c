/* transpose2_grad: X@GRAD = Out@GRAD transposed back: X@GRAD.dims[axis[i]] = Out@GRAD.dims[i]
 * (phi TransposeGradKernel, the inverse permutation). XShape (meta only) gives X's dims. */
#include <string.h>

#include "kernels/kernel.h"

typedef struct tg_attrs {
  const int64_t *axis;
  size_t n;
} tg_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  tg_attrs *a = attrs;
  ic_ar_ints(r, "axis", true, &a->axis, &a->n);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const tg_attrs *a = c->attrs;
  const ic_tensor *xs = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  if (g->ndim != (int)a->n) {
    return ic_kfail_in(c, 1, 0, "expected rank %zu, the length of attribute 'axis'", a->n);
  }
  int64_t dims[IC_MAX_RANK];
  bool seen[IC_MAX_RANK] = {false};
  for (size_t i = 0; i < a->n; i++) {
    int64_t ax = a->axis[i] < 0 ? a->axis[i] + (int64_t)a->n : a->axis[i];
    if (ax < 0 || ax >= (int64_t)a->n || seen[ax]) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "attribute 'axis' is not a permutation of "
                      "[0, %zu)", a->n);
    }
    seen[ax] = true;
    dims[ax] = g->dims[i];
  }
  if (xs->ndim != (int)a->n + 1 || memcmp(xs->dims + 1, dims, a->n * sizeof *dims) != 0) {
    return ic_kfail_in(c, 0, 0, "does not match Out@GRAD transposed back");
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, (int)a->n, dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const tg_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int r = (int)a->n;
  const size_t es = ic_dtype_size(g->dtype);
  /* out stride of each of g's axes: g axis i is out axis axis[i] */
  int64_t ostr[IC_MAX_RANK], s = 1;
  for (int k = r - 1; k >= 0; k--) {
    for (int i = 0; i < r; i++) {
      int64_t ax = a->axis[i] < 0 ? a->axis[i] + r : a->axis[i];
      if (ax == k) ostr[i] = s;
    }
    s *= o->dims[k];
  }
  int64_t n = ic_tensor_numel_(g), idx[IC_MAX_RANK] = {0}, off = 0;
  const char *src = g->data;
  char *dst = o->data;
  for (int64_t e = 0; e < n; e++) {
    memcpy(dst + (size_t)off * es, src + (size_t)e * es, es);
    for (int i = r - 1; i >= 0; i--) {
      off += ostr[i];
      if (++idx[i] < g->dims[i]) break;
      off -= ostr[i] * g->dims[i];
      idx[i] = 0;
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"XShape", IC_SLOT_NO_BUFFER}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_transpose2_grad = {
    .name = "transpose2_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(tg_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
