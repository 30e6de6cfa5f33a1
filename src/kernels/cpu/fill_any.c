/* fill_any: Out = X's dims and dtype, every element set to one value (paddle.Tensor.fill_,
 * usually in place: Out names X). The value is the float attribute `value` (Paddle 2.4 and
 * later, phi FillKernel); programs of older Paddle carry value_float and value_int instead,
 * of which integer tensors take value_int and the others value_float, as that kernel did.
 * The value converts like Paddle's static_cast (fill.h); a NaN value for a floating tensor
 * is refused, as Paddle refuses it. X's data is not read. */
#include <math.h>

#include "kernels/cpu/fill.h"

typedef struct fill_any_attrs {
  bool has_value;
  double value, value_float;
  int64_t value_int;
} fill_any_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fill_any_attrs *a = attrs;
  a->has_value = ic_ar_has(r, "value") || !(ic_ar_has(r, "value_float") || ic_ar_has(r, "value_int"));
  a->value = ic_ar_float(r, "value", 0.0);
  a->value_float = ic_ar_float(r, "value_float", 0.0);
  a->value_int = ic_ar_int(r, "value_int", 0);
  return r->st;
}

static bool is_int(ic_dtype d) {
  return d == IC_INT8 || d == IC_UINT8 || d == IC_INT16 || d == IC_INT32 || d == IC_INT64;
}

static ic_fill_scalar value_for(const fill_any_attrs *a, ic_dtype d) {
  if (a->has_value) return (ic_fill_scalar){false, 0, a->value};
  if (is_int(d)) return (ic_fill_scalar){true, a->value_int, (double)a->value_int};
  return (ic_fill_scalar){false, 0, a->value_float};
}

static ic_status infer(ic_kctx *c) {
  const fill_any_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_ANY);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  const ic_fill_scalar v = value_for(a, x->dtype);
  if (!v.is_int && isnan(v.f) && !is_int(x->dtype) && x->dtype != IC_BOOL) {
    return ic_kfail_in(c, 0, 0, "cannot be filled with NaN (attribute 'value')");
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  ic_tensor *o = ic_out(c, 0, 0);
  ic_fill_store(o->data, o->dtype, ic_tensor_numel_(o), value_for(c->attrs, o->dtype));
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_fill_any = {
    .name = "fill_any", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(fill_any_attrs), .parse = parse, .infer = infer, .cpu = run,
};
