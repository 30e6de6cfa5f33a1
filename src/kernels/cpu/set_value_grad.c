/* set_value_grad, as Paddle's set_value grad maker writes it (paddle/fluid/operators/
 * set_value_op.cc; kernel paddle/phi/kernels/impl/set_value_grad_kernel_impl.h): inputs
 * Out@GRAD, ValueTensor (optional: only its dims are read), StartsTensorList,
 * EndsTensorList, StepsTensorList; set_value's attributes. Outputs (each optional):
 *   Input@GRAD       = Out@GRAD with the assigned slice set to 0;
 *   ValueTensor@GRAD = Out@GRAD's slice summed down to ValueTensor's dims, by Paddle's
 *                      rule: ValueTensor's dims align from the right with the slice's dims
 *                      (one per dim of Out@GRAD) skipping decrease_axes, each either the
 *                      slice's dim or 1 (summed over); none_axes are not looked at. The
 *                      result, laid out in these aligned dims, fills ValueTensor@GRAD from
 *                      its start, the rest 0. This is the forward's broadcast (each slice
 *                      position, in the forward's order with steps > 1 and negative steps,
 *                      adds to the value element that was written there) unless none_axes
 *                      put a 1 after a sliced dim: Paddle (2.6 and 3.3) then gives a sum
 *                      over that dim in the leading elements and zeros after, and so does
 *                      icore (case sv_none_mid in tests/data/grad_oracle_misc).
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

/* Paddle's alignment of ValueTensor@GRAD's dims against the slice's: fs[i] receives the
 * stride of slice dim i in the aligned layout (0 where the value has a 1 there, or nothing:
 * summed over). */
static ic_status fake_dims(ic_kctx *c, const sv_plan *p, const ic_tensor *dv, int64_t *fs) {
  const set_value_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, IC_SV_INPUT, 0);
  const int nd = g->ndim, vr = dv->ndim, ndec = (int)a->n_decrease;
  int64_t fake[IC_MAX_RANK];
  int num = 0;
  for (int i = 0; i < nd; i++) {
    bool dec = false;
    for (size_t k = 0; k < a->n_decrease; k++) {
      dec |= (a->decrease[k] < 0 ? a->decrease[k] + nd : a->decrease[k]) == i;
    }
    const int lead = nd - (vr + ndec - num);
    if (dec) {
      fake[i] = 1;
      num++;
    } else if (i < lead) {
      fake[i] = 1;
    } else {
      const int vi = i - lead;
      if (vi >= vr || (dv->dims[vi] != p->len[i] && dv->dims[vi] != 1)) {
        char sd[128], vd[128];
        return ic_kfail_in(c, IC_SV_VALUE, 0,
                           "cannot take the gradient of the slice %s (dims of Out@GRAD, "
                           "decrease_axes kept as 1): its dims do not align with ValueTensor's %s",
                           ic_dims_str(nd, p->len, sd, sizeof sd),
                           ic_dims_str(vr, dv->dims, vd, sizeof vd));
      }
      fake[i] = dv->dims[vi];
    }
  }
  int64_t s = 1;
  for (int i = nd - 1; i >= 0; i--) {
    fs[i] = fake[i] == 1 ? 0 : s;
    s *= fake[i];
  }
  if (s > ic_tensor_numel_(dv)) {
    return ic_kfail_in(c, IC_SV_VALUE, 0, "has fewer elements than its aligned gradient (%lld)",
                       (long long)s);
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
  int64_t xs[IC_MAX_RANK], fs[IC_MAX_RANK], s = 1;
  for (int i = nd - 1; i >= 0; i--) {
    xs[i] = s;
    s *= g->dims[i];
  }
  if (dv && (st = fake_dims(c, &p, dv, fs))) {
    ic_buffer_release(buf);
    return st;
  }
  for (int64_t k = 0; k < cnt; k++) {
    int64_t rem = k, xoff = 0, voff = 0;
    for (int i = nd - 1; i >= 0; i--) {
      const int64_t j = rem % p.len[i];
      rem /= p.len[i];
      xoff += (p.start[i] + j * p.step[i]) * xs[i];
      voff += j * (dv ? fs[i] : 0);
    }
    if (acc) {
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
