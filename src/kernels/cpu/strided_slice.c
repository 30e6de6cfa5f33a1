/* strided_slice: Out = Input[start:end:stride] along each entry of `axes`, Python's slice
 * rules per axis, then without the `decrease_axis` dims (each must be 1).
 *
 * Starts, ends and strides come from, by priority, the tensor (all its elements), the
 * tensor list (one single-element int tensor each) or the attribute. Per axis of size n
 * (paddle/phi/kernels/funcs/strided_slice.h, as Paddle 3.3 computes):
 *   - stride > 0: start and end count from the end when negative, then clamp to [0, n];
 *     the elements are start, start + stride, ... below end;
 *   - stride < 0: the same, clamped to [-1, n - 1]; the elements go down from start while
 *     above end, so x[::-1] is start n - 1 (or larger), end -n - 1 (or smaller);
 *   - an end on the wrong side of the start gives an empty dim; a stride of 0 is an error;
 *   - in programs written by Paddle 2.x (the loader marks their strided_slice ops with
 *     ic_paddle2: ProgramDesc version below 3.0.0), a negative stride follows 2.x's rule
 *     (measured against Paddle 2.6.2 over every start and end in [-n-2, n+2] and the int32
 *     extremes, strides -2 to 2): an end of exactly -1 means "through index 0" (2.x wrote
 *     x[::-1] as start INT_MAX, end -1, stride -1), any other end below -n stops before index
 *     0, and a start below -n is index 0. Paddle 3.3 reads the same numbers as an empty
 *     slice, through index 0 and -1. Where Paddle 2.6 reads out of bounds (a start >= n with an
 *     end >= n) icore gives the empty slice that 3.3 gives;
 *   - start -1, end 0, infer_flags -1 with the axis in decrease_axis (the slice op's form of
 *     Python's x[-1]) takes the last element, as the slice op and Paddle 2.x; Paddle 3.3's
 *     strided_slice kernel returns the first one there.
 * An axis listed twice applies twice in order (the later entry slices the earlier result's
 * window). Any dtype. */
#include <stdio.h>
#include <string.h>

#include "kernels/cpu/shapeops.h"

#define MAX_AXES IC_SS_MAX_AXES

enum { INPUT, STARTS_T, STARTS_L, ENDS_T, ENDS_L, STRIDES_T, STRIDES_L };

static const ic_slotdef k_inputs[7] = {
    {"Input", 0},
    {"StartsTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"StartsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"EndsTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"EndsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"StridesTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"StridesTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

ic_status ic_strided_slice_parse(ic_attr_reader *r, void *attrs) {
  strided_slice_attrs *a = attrs;
  ic_ar_ints(r, "axes", true, &a->axes, &a->n_axes);
  ic_ar_ints(r, "starts", false, &a->starts, &a->n_starts);
  ic_ar_ints(r, "ends", false, &a->ends, &a->n_ends);
  ic_ar_ints(r, "strides", false, &a->strides, &a->n_strides);
  ic_ar_ints(r, "infer_flags", false, &a->infer_flags, &a->n_infer_flags);
  ic_ar_ints(r, "decrease_axis", false, &a->decrease, &a->n_decrease);
  a->paddle2 = ic_ar_bool(r, "ic_paddle2", false);
  if (!r->st && a->n_axes > MAX_AXES) {
    ic_ar_fail(r, "axes", "has %zu entries, at most %d supported", a->n_axes, MAX_AXES);
  }
  return r->st;
}

/* Values for every entry of `axes` (k: 0 starts, 1 ends, 2 strides). */
static ic_status values(ic_kctx *c, int k, int64_t *v) {
  static const char *const what[3] = {"starts", "ends", "strides"};
  const strided_slice_attrs *a = c->attrs;
  size_t t = (size_t)(STARTS_T + 2 * k), l = t + 1, n = 0;
  char from[64];
  ic_status st = IC_OK;
  if (c->in[t].n) {
    snprintf(from, sizeof from, "input %s", c->def->inputs[t].name);
    st = ic_shapeops_read_ints(c, t, false, what[k], v, MAX_AXES, &n);
  } else if (c->in[l].n) {
    snprintf(from, sizeof from, "input %s", c->def->inputs[l].name);
    st = ic_shapeops_read_ints(c, l, true, what[k], v, MAX_AXES, &n);
  } else {
    snprintf(from, sizeof from, "attribute '%s'", what[k]);
    const int64_t *src = k == 0 ? a->starts : k == 1 ? a->ends : a->strides;
    n = k == 0 ? a->n_starts : k == 1 ? a->n_ends : a->n_strides;
    for (size_t i = 0; i < n && i < MAX_AXES; i++) v[i] = src[i];
  }
  if (st) return st;
  if (n != a->n_axes) {
    return ic_kfail_in(c, INPUT, 0, "%s gives %zu %s, expected one per entry of 'axes' (%zu)",
                       from, n, what[k], a->n_axes);
  }
  return IC_OK;
}

ic_status ic_strided_slice_plan(ic_kctx *c, ss_plan *p) {
  const strided_slice_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, INPUT, 0);
  int64_t sv[MAX_AXES], ev[MAX_AXES], tv[MAX_AXES];
  ic_status st = values(c, 0, sv);
  if (st || (st = values(c, 1, ev)) || (st = values(c, 2, tv))) return st;
  for (int i = 0; i < x->ndim; i++) {
    p->start[i] = 0;
    p->step[i] = 1;
    p->len[i] = x->dims[i];
    p->drop[i] = false;
  }
  for (size_t k = 0; k < a->n_decrease; k++) {
    int ax = ic_shapeops_axis(c, INPUT, a->decrease[k], x->ndim, "an entry of 'decrease_axis'");
    if (ax < 0) return IC_ERR_SHAPE;
    p->drop[ax] = true;
  }
  for (size_t k = 0; k < a->n_axes; k++) {
    int ax = ic_shapeops_axis(c, INPUT, a->axes[k], x->ndim, "an entry of 'axes'");
    if (ax < 0) return IC_ERR_SHAPE;
    int64_t n = p->len[ax], s = sv[k], e = ev[k], t = tv[k], cnt;
    if (t == 0) {
      return ic_kfail_in(c, INPUT, 0, "stride of axis %d is 0", ax);
    }
    if (a->paddle2 && t < 0) {
      if (e == -1) {
        e = -n - 1; /* through index 0 */
      } else if (e < -n) {
        e = 0; /* stops before index 0 */
      }
      if (s < -n) s = 0;
    }
    bool flag = k < a->n_infer_flags && a->infer_flags[k] == -1;
    if (s == -1 && e == 0 && flag && p->drop[ax]) {
      s = n - 1;
      t = 1;
      cnt = n > 0 ? 1 : 0;
    } else {
      cnt = ic_shapeops_slice_count(n, &s, e, t);
    }
    /* Compose with the window so far (an axis may repeat). */
    p->start[ax] += s * p->step[ax];
    p->step[ax] *= t;
    p->len[ax] = cnt;
  }
  for (int i = 0; i < x->ndim; i++) {
    if (p->drop[i] && p->len[i] != 1) {
      return ic_kfail_in(c, INPUT, 0, "decrease_axis names dim %d, which slices to %lld, not 1",
                         i, (long long)p->len[i]);
    }
  }
  return IC_OK;
}

int ic_strided_slice_out_dims(const ss_plan *p, int ndim, int64_t d[IC_MAX_RANK]) {
  int n = 0;
  for (int i = 0; i < ndim; i++) {
    if (!p->drop[i]) d[n++] = p->len[i];
  }
  return n;
}

static ic_status infer(ic_kctx *c) {
  ss_plan p;
  ic_status st = ic_strided_slice_plan(c, &p);
  if (st) return st;
  const ic_tensor *x = ic_in(c, INPUT, 0);
  int64_t d[IC_MAX_RANK];
  int n = ic_strided_slice_out_dims(&p, x->ndim, d);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, n, d);
  return IC_OK;
}

void ic_strided_slice_move(const ss_plan *p, const ic_tensor *x, size_t es, char *xdata,
                           char *odata, bool to_out) {
  if (ic_numel(x->ndim, p->len) == 0) return;
  if (x->ndim == 0) {
    if (to_out) {
      memcpy(odata, xdata, es);
    } else {
      memcpy(xdata, odata, es);
    }
    return;
  }
  int64_t xs[IC_MAX_RANK], sin[IC_MAX_RANK], sout[IC_MAX_RANK], base = 0, so = 1, si = 1;
  for (int i = x->ndim - 1; i >= 0; i--) {
    xs[i] = si;
    si *= x->dims[i];
  }
  for (int i = x->ndim - 1; i >= 0; i--) {
    sin[i] = xs[i] * p->step[i];
    sout[i] = so;
    so *= p->len[i];
    base += p->start[i] * xs[i];
  }
  char *xp = xdata + (size_t)base * es;
  if (to_out) {
    IC_SHAPEOPS_FOR_EACH(x->ndim, p->len, sin, sout,
                         memcpy(odata + (size_t)out_off * es,
                                xp + (ptrdiff_t)in_off * (ptrdiff_t)es, es));
  } else {
    IC_SHAPEOPS_FOR_EACH(x->ndim, p->len, sin, sout,
                         memcpy(xp + (ptrdiff_t)in_off * (ptrdiff_t)es,
                                odata + (size_t)out_off * es, es));
  }
}

static ic_status strided_slice_cpu(ic_kctx *c) {
  ss_plan p;
  ic_status st = ic_strided_slice_plan(c, &p);
  if (st) return st;
  const ic_tensor *x = ic_in(c, INPUT, 0);
  ic_strided_slice_move(&p, x, ic_dtype_size(x->dtype), x->data, ic_out(c, 0, 0)->data, true);
  return IC_OK;
}

const ic_opdef ic_op_strided_slice = {
    .name = "strided_slice", .n_inputs = 7, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(strided_slice_attrs),
    .parse = ic_strided_slice_parse,
    .infer = infer, .cpu = strided_slice_cpu,
};
