/* slice: Out = Input[starts:ends] along `axes`, then without the `decrease_axis` dims.
 *
 * Starts come from, by priority, StartsTensor (all its elements), the StartsTensorList (one
 * single-element int tensor each) or the `starts` attribute; ends likewise. Paddle's rules
 * (paddle/phi/kernels/funcs/slice_utils.h UpdateSliceAttrs, slice_kernel_impl.h, 3.x):
 *   - a negative start or end counts from the end of the dim; then both are clamped to
 *     [0, dim], and an end before the start gives an empty dim (Paddle 3.x; 2.x refused it);
 *   - on an empty dim every slice is empty;
 *   - an axis listed twice: the last entry wins;
 *   - Python's x[-1] arrives as start -1, end 0 with infer_flags -1 and the axis in
 *     decrease_axis; Paddle reads that as "to the end", and so does this op;
 *   - every decrease_axis dim must be 1 after slicing; removing all dims gives a 0-D tensor
 *     (Paddle 2.5+; older versions gave [1], and the VarDescs they exported still say [1]).
 * Stricter than Paddle: axes must lie in [-rank, rank) (Paddle crashes on negative ones in
 * its kernel), and tensor-given starts/ends must have one value per axis. Paddle limits the
 * input to ranks 1..6; any rank up to IC_MAX_RANK is accepted here (a 0-D input with no axes
 * is a copy).
 *
 * The copy moves, for every index of the dims before the innermost sliced one, one
 * contiguous run holding that dim's slice times all the dims after it. */
#include <string.h>

#include "kernels/cpu/shapeops.h"

/* More entries than any sane program needs (axes may repeat), bounded for stack arrays. */
#define MAX_AXES 64

enum { INPUT, STARTS_TENSOR, ENDS_TENSOR, STARTS_LIST, ENDS_LIST };
enum { OUT };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  slice_attrs *a = attrs;
  ic_ar_ints(r, "axes", true, &a->axes, &a->n_axes);
  ic_ar_ints(r, "starts", false, &a->starts, &a->n_starts);
  ic_ar_ints(r, "ends", false, &a->ends, &a->n_ends);
  ic_ar_ints(r, "infer_flags", false, &a->infer_flags, &a->n_infer_flags);
  ic_ar_ints(r, "decrease_axis", false, &a->decrease, &a->n_decrease);
  if (!r->st && a->n_axes > MAX_AXES) {
    ic_ar_fail(r, "axes", "has %zu entries, at most %d supported", a->n_axes, MAX_AXES);
  }
  return r->st;
}

/* The starts (or ends) of every entry of `axes`, from the highest-priority source. */
static ic_status bounds(ic_kctx *c, bool ends, int64_t *v) {
  const slice_attrs *a = c->attrs;
  const size_t tensor = ends ? ENDS_TENSOR : STARTS_TENSOR, list = ends ? ENDS_LIST : STARTS_LIST;
  const char *what = ends ? "ends" : "starts";
  size_t n;
  const char *from;
  ic_status st = IC_OK;
  if (c->in[tensor].n) {
    from = ends ? "input EndsTensor" : "input StartsTensor";
    st = ic_shapeops_read_ints(c, tensor, false, what, v, MAX_AXES, &n);
  } else if (c->in[list].n) {
    from = ends ? "input EndsTensorList" : "input StartsTensorList";
    st = ic_shapeops_read_ints(c, list, true, what, v, MAX_AXES, &n);
  } else {
    from = ends ? "attribute 'ends'" : "attribute 'starts'";
    n = ends ? a->n_ends : a->n_starts;
    for (size_t i = 0; i < n && i < MAX_AXES; i++) v[i] = ends ? a->ends[i] : a->starts[i];
  }
  if (st) return st;
  if (n != a->n_axes) {
    return ic_kfail_in(c, INPUT, 0, "%s gives %zu %s, expected one per entry of 'axes' (%zu)",
                       from, n, what, a->n_axes);
  }
  return IC_OK;
}

ic_status ic_slice_plan_of(ic_kctx *c, ic_slice_plan *s) {
  const slice_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, INPUT, 0);
  const int rank = x->ndim;
  int64_t starts[MAX_AXES], ends[MAX_AXES];
  ic_status st = bounds(c, false, starts);
  if (st || (st = bounds(c, true, ends))) return st;
  for (int i = 0; i < rank; i++) {
    s->start[i] = 0;
    s->len[i] = x->dims[i];
    s->drop[i] = false;
  }
  for (size_t k = 0; k < a->n_decrease; k++) {
    int ax = ic_shapeops_axis(c, INPUT, a->decrease[k], rank, "attribute 'decrease_axis' entry");
    if (ax < 0) return c->err->code;
    s->drop[ax] = true;
  }
  for (size_t i = 0; i < a->n_axes; i++) {
    int ax = ic_shapeops_axis(c, INPUT, a->axes[i], rank, "attribute 'axes' entry");
    if (ax < 0) return c->err->code;
    const int64_t dim = x->dims[ax];
    const int64_t flag = i < a->n_infer_flags ? a->infer_flags[i] : 1;
    int64_t b = starts[i], e = ends[i];
    if (b == -1 && e == 0 && flag == -1 && s->drop[ax]) e = dim;
    if (dim > 0) {
      b = b < 0 ? b + dim : b;
      b = b < 0 ? 0 : b > dim ? dim : b;
      e = e < 0 ? e + dim : e;
      e = e < 0 ? 0 : e > dim ? dim : e;
    } else {
      b = e = 0;
    }
    s->start[ax] = b;
    s->len[ax] = e > b ? e - b : 0;
  }
  for (int ax = 0; ax < rank; ax++) {
    if (s->drop[ax] && s->len[ax] != 1) {
      return ic_kfail_in(c, INPUT, 0,
                         "attribute 'decrease_axis' removes dim %d, which is %lld after "
                         "slicing, expected 1",
                         ax, (long long)s->len[ax]);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, INPUT, 0);
  ic_slice_plan s;
  ic_status st = ic_slice_plan_of(c, &s);
  if (st) return st;
  int64_t d[IC_MAX_RANK];
  int nd = 0;
  for (int i = 0; i < x->ndim; i++) {
    if (!s.drop[i]) d[nd++] = s.len[i];
  }
  ic_tensor_set_meta(ic_out(c, OUT, 0), x->dtype, nd, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, INPUT, 0);
  ic_tensor *out = ic_out(c, OUT, 0);
  ic_slice_plan s;
  ic_status st = ic_slice_plan_of(c, &s);
  if (st) return st;
  const size_t es = ic_dtype_size(x->dtype);
  const int rank = x->ndim;
  const int64_t n_out = ic_numel(rank, s.len);
  if (n_out == 0) return IC_OK;
  int k = rank - 1;
  while (k >= 0 && s.len[k] == x->dims[k]) k--;
  if (k < 0) {
    memcpy(out->data, x->data, (size_t)n_out * es);
    return IC_OK;
  }
  /* Element strides of the input; the output is dense in the sliced dims. */
  int64_t is[IC_MAX_RANK], os[IC_MAX_RANK];
  is[rank - 1] = os[rank - 1] = 1;
  for (int i = rank - 2; i >= 0; i--) {
    is[i] = is[i + 1] * x->dims[i + 1];
    os[i] = os[i + 1] * s.len[i + 1];
  }
  int64_t base = 0;
  for (int i = 0; i <= k; i++) base += s.start[i] * is[i];
  const size_t row = (size_t)(s.len[k] * is[k]) * es;
  const char *in = (const char *)x->data + (size_t)base * es;
  char *o = out->data;
  IC_SHAPEOPS_FOR_EACH(k, s.len, is, os,
                       memcpy(o + (size_t)out_off * es, in + (size_t)in_off * es, row));
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Input", 0},
    {"StartsTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"EndsTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"StartsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"EndsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_slice = {
    .name = "slice",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(slice_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
