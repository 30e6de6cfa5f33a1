/* set_value_grad, as Paddle's set_value grad maker writes it (paddle/fluid/operators/
 * set_value_op.cc; kernel paddle/phi/kernels/impl/set_value_grad_kernel_impl.h): inputs
 * Out@GRAD, ValueTensor (optional: only its dims are read), StartsTensorList,
 * EndsTensorList, StepsTensorList; set_value's attributes. Outputs (each optional):
 *   Input@GRAD       = Out@GRAD with the assigned slice set to 0;
 *   ValueTensor@GRAD = Out@GRAD's slice summed down to ValueTensor's dims: the slice
 *                      position j (the forward's order: steps > 1 and negative steps
 *                      included) adds to the value element the forward broadcast to it
 *                      (trailing alignment against the slice dims without decrease_axes
 *                      and with a 1 at each of none_axes).
 * Sums run in double, rounded once. float32 and float64. */
#include <string.h>

#include "kernels/cpu/set_value.h"

static const ic_slotdef k_inputs[5] = {
    {"Out@GRAD", 0},
    {"ValueTensor", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
    {"StartsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"EndsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"StepsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
};
enum { OUT_DX, OUT_DV };
static const ic_slotdef k_outputs[2] = {{"Input@GRAD", IC_SLOT_OPTIONAL},
                                        {"ValueTensor@GRAD", IC_SLOT_OPTIONAL}};

static ic_status infer(ic_kctx *c) {
  sv_plan p;
  ic_status st = ic_kcheck_dtype(c, IC_SV_INPUT, 0, IC_DT_FLOAT);
  if (st || (st = ic_set_value_plan(c, true, &p))) return st;
  const ic_tensor *g = ic_in(c, IC_SV_INPUT, 0), *vt = ic_in(c, IC_SV_VALUE, 0);
  ic_tensor *dx = ic_out(c, OUT_DX, 0), *dv = ic_out(c, OUT_DV, 0);
  if (dx) ic_tensor_set_meta(dx, g->dtype, g->ndim, g->dims);
  if (dv) {
    if (!vt) {
      return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                      "output ValueTensor@GRAD '%s' is written, but the op has no ValueTensor",
                      ic_out_name(c, OUT_DV, 0));
    }
    ic_tensor_set_meta(dv, g->dtype, vt->ndim, vt->dims);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  sv_plan p;
  ic_status st = ic_set_value_plan(c, true, &p);
  if (st) return st;
  const ic_tensor *g = ic_in(c, IC_SV_INPUT, 0);
  ic_tensor *dx = ic_out(c, OUT_DX, 0), *dv = ic_out(c, OUT_DV, 0);
  const bool f64 = g->dtype == IC_FP64;
  const size_t es = ic_dtype_size(g->dtype);
  const int nd = g->ndim;
  const int64_t n = ic_tensor_numel_(g), cnt = ic_numel(nd, p.len);
  if (dx && n) memcpy(dx->data, g->data, (size_t)n * es);
  double *acc = NULL;
  ic_buffer *buf = NULL;
  const int64_t nv = dv ? ic_tensor_numel_(dv) : 0;
  if (dv) {
    if (!(buf = ic_kscratch(c, (size_t)(nv + 1) * sizeof(double)))) return c->err->code;
    acc = buf->data;
    memset(acc, 0, (size_t)nv * sizeof(double));
  }
  int64_t xs[IC_MAX_RANK], vs[IC_MAX_RANK], s = 1;
  for (int i = nd - 1; i >= 0; i--) {
    xs[i] = s;
    s *= g->dims[i];
  }
  s = 1;
  for (int i = p.nv - 1; i >= 0; i--) {
    vs[i] = p.vdims[i] == 1 ? 0 : s;
    s *= p.vdims[i];
  }
  for (int64_t k = 0; k < cnt; k++) {
    int64_t rem = k, xoff = 0;
    for (int i = nd - 1; i >= 0; i--) {
      const int64_t j = rem % p.len[i];
      rem /= p.len[i];
      xoff += (p.start[i] + j * p.step[i]) * xs[i];
    }
    if (acc) {
      int64_t voff = 0;
      rem = k;
      for (int i = p.nt - 1; i >= 0; i--) {
        const int64_t j = rem % p.target[i];
        rem /= p.target[i];
        const int vi = i - (p.nt - p.nv);
        if (vi >= 0) voff += j * vs[vi];
      }
      acc[voff] += f64 ? ((const double *)g->data)[xoff] : (double)((const float *)g->data)[xoff];
    }
    if (dx) memset((char *)dx->data + (size_t)xoff * es, 0, es);
  }
  if (dv) {
    ic_store_acc(dv, acc);
    ic_buffer_release(buf);
  }
  return IC_OK;
}

const ic_opdef ic_op_set_value_grad = {
    .name = "set_value_grad", .n_inputs = 5, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .attrs_size = sizeof(set_value_attrs), .parse = ic_set_value_parse,
    .infer = infer, .cpu = run,
};
