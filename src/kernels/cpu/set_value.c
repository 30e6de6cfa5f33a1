/* set_value: Out = Input with the slice Input[starts:ends:steps] along `axes` replaced by a
 * value broadcast to the slice: the input ValueTensor (Input's dtype), else the attribute
 * values (SCALARS `values` of Paddle 2.6+, else the typed list Paddle 2.x wrote for `dtype`:
 * bool_values, int32_values, int64_values, fp32_values, fp64_values, fp16_values, or the
 * first non-empty one) of dims `shape`.
 *
 * Starts, ends and steps come from the tensor lists StartsTensorList, EndsTensorList and
 * StepsTensorList (one single-element int tensor each, or one tensor of one value per axis)
 * or the attributes (steps default 1);
 * each axis is sliced with Python's rules (negative counts from the end, clamped; a negative
 * step goes down). In a program Paddle 2.x wrote (marked ic_paddle2 at load, see
 * strided_slice.c) an end of exactly -1 with a negative step means "through index 0": 2.x
 * wrote x[::-1] = v that way, and Paddle 2.6.2's kernel writes the whole axis where 3.3
 * writes nothing (measured over every start and end in [-n-2, n+2], steps -2 to 2; unlike
 * strided_slice, other ends and starts already agree between the two). The value broadcasts (numpy rules, trailing alignment) to the slice's dims
 * without the `decrease_axes` and with a 1 inserted at each of `none_axes`, which orders its
 * elements as the slice's (paddle/phi/kernels/impl/set_value_kernel_impl.h). Any dtype. */
#include <stdio.h>
#include <string.h>

#include "kernels/cpu/fill.h"
#include "kernels/cpu/set_value.h"
#include "kernels/cpu/shapeops.h"

#define MAX_AXES IC_MAX_RANK

enum { IN_INPUT, IN_VALUE, IN_STARTS, IN_ENDS, IN_STEPS };

static const ic_slotdef k_inputs[5] = {
    {"Input", 0},
    {"ValueTensor", IC_SLOT_OPTIONAL},
    {"StartsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"EndsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"StepsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

ic_status ic_set_value_parse(ic_attr_reader *r, void *attrs) {
  set_value_attrs *a = attrs;
  ic_ar_ints(r, "axes", true, &a->axes, &a->n_axes);
  ic_ar_ints(r, "starts", false, &a->starts, &a->n_starts);
  ic_ar_ints(r, "ends", false, &a->ends, &a->n_ends);
  ic_ar_ints(r, "steps", false, &a->steps, &a->n_steps);
  ic_ar_ints(r, "decrease_axes", false, &a->decrease, &a->n_decrease);
  ic_ar_ints(r, "none_axes", false, &a->none, &a->n_none);
  ic_ar_ints(r, "shape", false, &a->shape, &a->n_shape);
  a->paddle2 = ic_ar_bool(r, "ic_paddle2", false);
  int64_t dt = ic_ar_int(r, "dtype", IC_FP32);
  if (r->st) return r->st;
  if (a->n_axes > MAX_AXES) return ic_ar_fail(r, "axes", "has %zu entries", a->n_axes);
  if (a->n_shape > IC_MAX_RANK) return ic_ar_fail(r, "shape", "has %zu dims", a->n_shape);
  if (ic_ar_floats(r, "values", false, &a->fvals, &a->n_vals) && a->n_vals > 0) return r->st;
  a->fvals = NULL;
  a->n_vals = 0;
  switch (dt) {
    case IC_FP32: ic_ar_floats(r, "fp32_values", false, &a->fvals, &a->n_vals); break;
    case IC_FP64: ic_ar_floats(r, "fp64_values", false, &a->fvals, &a->n_vals); break;
    case IC_FP16: ic_ar_floats(r, "fp16_values", false, &a->fvals, &a->n_vals); break;
    case IC_INT64: ic_ar_ints(r, "int64_values", false, &a->ivals, &a->n_vals); break;
    case IC_BOOL: ic_ar_ints(r, "bool_values", false, &a->ivals, &a->n_vals); break;
    default: ic_ar_ints(r, "int32_values", false, &a->ivals, &a->n_vals); break;
  }
  /* Paddle 3's legacy program format files the values by the type of their Scalars, not by
   * dtype (a float32 op's 2.5 in fp64_values, an int in int64_values), and Paddle reads
   * whichever list is not empty: so does icore (oracle case a2_set_value_legacy). */
  static const char *const flists[] = {"fp32_values", "fp64_values", "fp16_values"};
  static const char *const ilists[] = {"int64_values", "int32_values", "bool_values"};
  for (size_t i = 0; i < 3 && !r->st && !a->n_vals; i++) {
    a->fvals = NULL, a->ivals = NULL;
    if (!ic_ar_floats(r, flists[i], false, &a->fvals, &a->n_vals) || !a->n_vals) {
      a->fvals = NULL, a->n_vals = 0;
    }
  }
  for (size_t i = 0; i < 3 && !r->st && !a->n_vals; i++) {
    a->ivals = NULL;
    if (!ic_ar_ints(r, ilists[i], false, &a->ivals, &a->n_vals) || !a->n_vals) {
      a->ivals = NULL, a->n_vals = 0;
    }
  }
  return r->st;
}


/* One list of per-axis values (k: 0 starts, 1 ends, 2 steps). */
static ic_status values_of(ic_kctx *c, int k, int64_t *v) {
  static const char *const what[3] = {"starts", "ends", "steps"};
  const set_value_attrs *a = c->attrs;
  size_t slot = (size_t)(IN_STARTS + k), n;
  if (c->in[slot].n) {
    /* One int tensor per axis; a lone tensor with one value per axis (>1) is read whole
     * (Paddle 3's IntArray tensor, as the PIR translation passes it). */
    const ic_tensor *t0 = ic_in(c, slot, 0);
    bool whole = c->in[slot].n == 1 && a->n_axes > 1 && t0 &&
                 ic_tensor_numel_(t0) == (int64_t)a->n_axes;
    ic_status st = ic_shapeops_read_ints(c, slot, !whole, what[k], v, MAX_AXES, &n);
    if (st) return st;
  } else {
    const int64_t *src = k == 0 ? a->starts : k == 1 ? a->ends : a->steps;
    n = k == 0 ? a->n_starts : k == 1 ? a->n_ends : a->n_steps;
    if (k == 2 && n == 0) {
      for (size_t i = 0; i < a->n_axes; i++) v[i] = 1;
      return IC_OK;
    }
    for (size_t i = 0; i < n && i < MAX_AXES; i++) v[i] = src[i];
  }
  if (n != a->n_axes) {
    char from[64]; /* formatted on failure only: this runs before every run */
    if (c->in[slot].n) snprintf(from, sizeof from, "input %s", c->def->inputs[slot].name);
    else snprintf(from, sizeof from, "attribute '%s'", what[k]);
    return ic_kfail_in(c, IN_INPUT, 0, "%s gives %zu %s, expected one per entry of 'axes' (%zu)",
                       from, n, what[k], a->n_axes);
  }
  return IC_OK;
}

ic_status ic_set_value_plan(ic_kctx *c, bool grad, sv_plan *p) {
  const set_value_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *vt = ic_in(c, IN_VALUE, 0);
  int64_t sv[MAX_AXES], ev[MAX_AXES], tv[MAX_AXES];
  ic_status st = values_of(c, 0, sv);
  if (st || (st = values_of(c, 1, ev)) || (st = values_of(c, 2, tv))) return st;
  bool drop[IC_MAX_RANK] = {false};
  for (int i = 0; i < x->ndim; i++) {
    p->start[i] = 0;
    p->step[i] = 1;
    p->len[i] = x->dims[i];
  }
  for (size_t k = 0; k < a->n_axes; k++) {
    int ax = ic_shapeops_axis(c, IN_INPUT, a->axes[k], x->ndim, "an entry of 'axes'");
    if (ax < 0) return IC_ERR_SHAPE;
    int64_t n = x->dims[ax], s = sv[k], e = ev[k], t = tv[k];
    if (t == 0) return ic_kfail_in(c, IN_INPUT, 0, "step of axis %d is 0", ax);
    if (a->paddle2 && t < 0 && e == -1) e = -n - 1; /* through index 0 */
    p->len[ax] = ic_shapeops_slice_count(n, &s, e, t);
    p->start[ax] = s;
    p->step[ax] = t;
  }
  for (size_t k = 0; k < a->n_decrease; k++) {
    int ax = ic_shapeops_axis(c, IN_INPUT, a->decrease[k], x->ndim, "an entry of 'decrease_axes'");
    if (ax < 0) return IC_ERR_SHAPE;
    drop[ax] = true;
  }
  /* The value's target: the slice dims without the decreased ones, 1s at none_axes. */
  int64_t kept[IC_MAX_RANK];
  int nk = 0;
  for (int i = 0; i < x->ndim; i++) {
    if (!drop[i]) kept[nk++] = p->len[i];
  }
  int total = nk + (int)a->n_none, j = 0;
  if (total > IC_MAX_RANK) return ic_kfail_in(c, IN_INPUT, 0, "too many none_axes");
  for (int i = 0; i < total; i++) {
    bool none = false;
    for (size_t k = 0; k < a->n_none; k++) none |= a->none[k] == i;
    if (!none && j == nk) {
      return ic_kfail_in(c, IN_INPUT, 0, "none_axes lie outside the %d slice dims", nk);
    }
    p->target[i] = none ? 1 : kept[j++];
  }
  p->nt = total;
  if (vt) {
    if (vt->dtype != x->dtype) {
      return ic_kfail_in(c, IN_VALUE, 0, "expected %s's dtype %s", c->def->inputs[IN_INPUT].name,
                         ic_dtype_name(x->dtype));
    }
    p->nv = vt->ndim;
    memcpy(p->vdims, vt->dims, sizeof(int64_t) * (size_t)vt->ndim);
  } else if (grad) {
    p->nv = 0; /* set_value_grad without ValueTensor: no value gradient */
  } else {
    p->nv = (int)a->n_shape;
    memcpy(p->vdims, a->shape, sizeof(int64_t) * a->n_shape);
    if (ic_numel(p->nv, p->vdims) != (int64_t)a->n_vals) {
      return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "%zu values written for shape of %lld elements",
                      a->n_vals, (long long)ic_numel(p->nv, p->vdims));
    }
  }
  /* numpy broadcast of the value to the target. */
  bool ok = p->nv <= p->nt;
  for (int i = 0; ok && i < p->nv; i++) {
    int64_t vd = p->vdims[p->nv - 1 - i], td = p->target[p->nt - 1 - i];
    ok = vd == td || vd == 1;
  }
  if (!ok) {
    char want[128];
    size_t off = 0;
    for (int i = 0; i < p->nt && off < sizeof want; i++) {
      int m = snprintf(want + off, sizeof want - off, "%s%lld", i ? ", " : "",
                       (long long)p->target[i]);
      if (m > 0) off += (size_t)m;
    }
    if (vt) return ic_kfail_in(c, IN_VALUE, 0, "does not broadcast to the slice [%s]", want);
    return ic_kfail(c, IC_ERR_SHAPE, "the value of attribute 'shape' does not broadcast to the "
                    "slice [%s]", want);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  sv_plan p;
  ic_status st = ic_set_value_plan(c, false, &p);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status set_value_cpu(ic_kctx *c) {
  const set_value_attrs *a = c->attrs;
  sv_plan p;
  ic_status st = ic_set_value_plan(c, false, &p);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *vt = ic_in(c, IN_VALUE, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  size_t es = ic_dtype_size(x->dtype);
  int64_t n = ic_numel(x->ndim, x->dims);
  if (o->data != x->data) memcpy(o->data, x->data, (size_t)n * es);
  int64_t cnt = ic_numel(x->ndim, p.len);
  if (cnt == 0) return IC_OK;
  /* The value's elements in x's dtype. */
  ic_buffer *buf = NULL;
  const char *vp;
  if (vt) {
    vp = vt->data;
  } else {
    if (!(buf = ic_kscratch(c, (a->n_vals ? a->n_vals : 1) * es))) return c->err->code;
    for (size_t i = 0; i < a->n_vals; i++) {
      ic_fill_scalar v = a->fvals ? (ic_fill_scalar){false, 0, a->fvals[i]}
                                  : (ic_fill_scalar){true, a->ivals[i], (double)a->ivals[i]};
      ic_fill_store((char *)buf->data + i * es, x->dtype, 1, v);
    }
    vp = buf->data;
  }
  int64_t xs[IC_MAX_RANK], vs[IC_MAX_RANK], s = 1;
  for (int i = x->ndim - 1; i >= 0; i--) {
    xs[i] = s;
    s *= x->dims[i];
  }
  s = 1;
  for (int i = p.nv - 1; i >= 0; i--) {
    vs[i] = p.vdims[i] == 1 ? 0 : s;
    s *= p.vdims[i];
  }
  char *op = o->data;
  for (int64_t k = 0; k < cnt; k++) {
    /* slice position k: its index in x, and in the value via the target dims */
    int64_t rem = k, xoff = 0, voff = 0;
    for (int i = x->ndim - 1; i >= 0; i--) {
      int64_t j = rem % p.len[i];
      rem /= p.len[i];
      xoff += (p.start[i] + j * p.step[i]) * xs[i];
    }
    rem = k;
    for (int i = p.nt - 1; i >= 0; i--) {
      int64_t j = rem % p.target[i];
      rem /= p.target[i];
      int vi = i - (p.nt - p.nv);
      if (vi >= 0) voff += j * vs[vi];
    }
    memcpy(op + (size_t)xoff * es, vp + (size_t)voff * es, es);
  }
  if (buf) ic_buffer_release(buf);
  return IC_OK;
}

const ic_opdef ic_op_set_value = {
    .name = "set_value", .n_inputs = 5, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(set_value_attrs), .parse = ic_set_value_parse,
    .infer = infer, .cpu = set_value_cpu,
};
