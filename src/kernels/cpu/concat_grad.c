/* concat_grad: X@GRAD[i] = the slice of Out@GRAD that X[i] filled in the forward concat, along
 * `axis` (or AxisTensor's value; negative counts from the end; phi ConcatGradKernel). X is read
 * for its dims only; each X@GRAD entry is optional. */
#include <string.h>

#include "kernels/cpu/shapeops.h"

enum { IN_X, IN_AXIS, IN_DOUT };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  concat_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", 0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, IN_DOUT, 0);
  if (g->ndim < 1) return ic_kfail_in(c, IN_DOUT, 0, "expected rank >= 1");
  int ax = ic_concat_axis(c, g->ndim);
  if (ax < 0) return c->err->code;
  int64_t total = 0;
  for (size_t i = 0; i < c->in[IN_X].n; i++) {
    const ic_tensor *x = ic_in(c, IN_X, i);
    bool ok = x->ndim == g->ndim && x->dtype == g->dtype;
    for (int d = 0; ok && d < g->ndim; d++) ok = d == ax || x->dims[d] == g->dims[d];
    if (!ok) {
      char d[128];
      return ic_kfail_in(c, IN_X, i, "does not fit Out@GRAD %s along axis %d",
                         ic_tensor_describe(g, d, sizeof d), ax);
    }
    total += x->dims[ax];
  }
  if (total != g->dims[ax]) {
    return ic_kfail_in(c, IN_DOUT, 0, "has %lld along axis %d, the inputs %lld",
                       (long long)g->dims[ax], ax, (long long)total);
  }
  if (c->out[0].n && c->out[0].n != c->in[IN_X].n) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "X@GRAD has %zu variables, X %zu", c->out[0].n,
                    c->in[IN_X].n);
  }
  for (size_t i = 0; i < c->out[0].n; i++) {
    const ic_tensor *x = ic_in(c, IN_X, i);
    ic_tensor_set_meta(ic_out(c, 0, i), x->dtype, x->ndim, x->dims);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, IN_DOUT, 0);
  int ax = ic_concat_axis(c, g->ndim);
  if (ax < 0) return c->err->code;
  const size_t es = ic_dtype_size(g->dtype);
  int64_t outer = ic_numel(ax, g->dims), inner = ic_numel(g->ndim - ax - 1, g->dims + ax + 1);
  int64_t off = 0;
  for (size_t i = 0; i < c->in[IN_X].n; i++) {
    const int64_t len = ic_in(c, IN_X, i)->dims[ax];
    ic_tensor *o = ic_out(c, 0, i);
    if (o) {
      const size_t chunk = (size_t)(len * inner) * es;
      for (int64_t k = 0; k < outer; k++) {
        memcpy((char *)o->data + (size_t)k * chunk,
               (const char *)g->data + ((size_t)(k * g->dims[ax] + off) * (size_t)inner) * es,
               chunk);
      }
    }
    off += len;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", IC_SLOT_MULTI | IC_SLOT_NO_BUFFER},
    {"AxisTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"Out@GRAD", 0},
};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL | IC_SLOT_MULTI}};

const ic_opdef ic_op_concat_grad = {
    .name = "concat_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(concat_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
