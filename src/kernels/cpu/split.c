/* split: the Out variables = X cut along `axis` (or the value of AxisTensor, which takes
 * priority; negative counts from the end) into consecutive pieces.
 *
 * As paddle/fluid/operators/split_op.cc decides: when the `sections` attribute is non-empty
 * the pieces have those sizes, read from the SectionsTensorList instead when one is given
 * (one single-element int tensor per piece); otherwise `num` equal pieces, and `num` must
 * divide the dim. One section may be -1, inferred from the rest, and must then come out
 * positive (the others must sum to less than the dim); without one, the sections must sum to
 * the dim exactly. A section of 0 gives an empty piece. When X is empty along the axis,
 * Paddle checks nothing and every piece is empty there. Stricter than Paddle: sections below
 * -1 and a piece count that differs from the number of Out variables are errors (Paddle
 * fails later or leaves outputs unwritten). */
#include <stdio.h>
#include <string.h>

#include "kernels/cpu/shapeops.h"

enum { X, AXIS_TENSOR, SECTIONS_TENSOR_LIST };
enum { OUT };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  split_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", 0);
  a->num = ic_ar_int(r, "num", 0);
  ic_ar_ints(r, "sections", false, &a->sections, &a->n_sections);
  return r->st;
}

int ic_split_axis(ic_kctx *c, int rank) {
  const split_attrs *a = c->attrs;
  int64_t axis = a->axis;
  const char *what = "attribute 'axis'";
  if (c->in[AXIS_TENSOR].n) {
    if (ic_shapeops_read_scalar(c, AXIS_TENSOR, &axis)) return -1;
    what = "the value of input AxisTensor";
  }
  return ic_shapeops_axis(c, X, axis, rank, what);
}

static bool from_list(const ic_kctx *c) { return c->in[SECTIONS_TENSOR_LIST].n > 0; }

static int64_t section(const ic_kctx *c, size_t k) {
  const split_attrs *a = c->attrs;
  return from_list(c) ? ic_read_i64(ic_in(c, SECTIONS_TENSOR_LIST, k), 0) : a->sections[k];
}

/* "[2, -1, 3] (attribute 'sections')", truncated when long. */
static const char *sections_str(const ic_kctx *c, size_t n, char *buf, size_t len) {
  size_t off = 0;
  for (size_t k = 0; k < n && off + 24 < len; k++) {
    int w = snprintf(buf + off, len - off, "%s%lld", k ? ", " : "[", (long long)section(c, k));
    off += w > 0 ? (size_t)w : 0;
  }
  snprintf(buf + off, len - off, "%s%s (%s)", n ? "" : "[", off + 24 < len ? "]" : ", ...]",
           from_list(c) ? "from input SectionsTensorList" : "attribute 'sections'");
  return buf;
}

static ic_status infer(ic_kctx *c) {
  const split_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, X, 0);
  const bool by_sections = a->n_sections > 0;
  size_t pieces;
  if (by_sections) {
    pieces = from_list(c) ? c->in[SECTIONS_TENSOR_LIST].n : a->n_sections;
    for (size_t k = 0; from_list(c) && k < pieces; k++) {
      const ic_tensor *t = ic_in(c, SECTIONS_TENSOR_LIST, k);
      if (t->dtype != IC_INT32 && t->dtype != IC_INT64) {
        return ic_kfail_in(c, SECTIONS_TENSOR_LIST, k, "expected dtype int32 or int64");
      }
      if (ic_tensor_numel_(t) != 1) {
        return ic_kfail_in(c, SECTIONS_TENSOR_LIST, k, "expected exactly one element");
      }
    }
  } else {
    if (a->num <= 0) {
      return ic_kfail_in(c, X, 0,
                         "cannot be split: attribute 'num' is %lld and 'sections' is empty, "
                         "expected num > 0 or sections",
                         (long long)a->num);
    }
    pieces = (size_t)a->num;
  }
  if (pieces != c->out[OUT].n) {
    return ic_kfail_in(c, X, 0, "is split into %zu pieces, but output Out lists %zu variables",
                       pieces, c->out[OUT].n);
  }
  if (x->ndim == 0) return ic_kfail_in(c, X, 0, "0-D tensors cannot be split, expected rank >= 1");
  int axis = ic_split_axis(c, x->ndim);
  if (axis < 0) return c->err->code;
  const int64_t dim = x->dims[axis];
  char desc[256];
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof d);
  if (dim == 0) {
    for (size_t k = 0; k < pieces; k++) ic_tensor_set_meta(ic_out(c, OUT, k), x->dtype, x->ndim, d);
    return IC_OK;
  }
  if (!by_sections) {
    if (dim % a->num != 0) {
      return ic_kfail_in(c, X, 0, "cannot be split along axis %d into %lld equal pieces", axis,
                         (long long)a->num);
    }
    d[axis] = dim / a->num;
    for (size_t k = 0; k < pieces; k++) ic_tensor_set_meta(ic_out(c, OUT, k), x->dtype, x->ndim, d);
    return IC_OK;
  }
  size_t unknown = SIZE_MAX;
  int64_t sum = 0;
  bool over = false;
  for (size_t k = 0; k < pieces; k++) {
    int64_t s = section(c, k);
    if (s == -1) {
      if (unknown != SIZE_MAX) {
        return ic_kfail_in(c, X, 0, "cannot be split along axis %d into sections %s: only one "
                           "may be -1", axis, sections_str(c, pieces, desc, sizeof desc));
      }
      unknown = k;
    } else if (s < 0) {
      return ic_kfail_in(c, X, 0, "cannot be split along axis %d into sections %s: section %zu "
                         "is %lld, expected >= 0 or -1",
                         axis, sections_str(c, pieces, desc, sizeof desc), k, (long long)s);
    } else if (s > dim - sum) {
      over = true;
    } else {
      sum += s;
    }
  }
  if (unknown != SIZE_MAX ? over || sum >= dim : over || sum != dim) {
    return ic_kfail_in(c, X, 0, "cannot be split along axis %d into sections %s: %s %lld",
                       axis, sections_str(c, pieces, desc, sizeof desc),
                       unknown != SIZE_MAX ? "the known sections must sum to less than"
                                           : "the sections must sum to",
                       (long long)dim);
  }
  for (size_t k = 0; k < pieces; k++) {
    d[axis] = k == unknown ? dim - sum : section(c, k);
    ic_tensor_set_meta(ic_out(c, OUT, k), x->dtype, x->ndim, d);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, X, 0);
  int axis = ic_split_axis(c, x->ndim);
  if (axis < 0) return c->err->code;
  const size_t es = ic_dtype_size(x->dtype);
  const size_t outer = (size_t)ic_numel(axis, x->dims);
  const size_t inner = (size_t)ic_numel(x->ndim - axis - 1, x->dims + axis + 1) * es;
  const size_t in_row = (size_t)x->dims[axis] * inner;
  const char *p = x->data;
  for (size_t k = 0; k < c->out[OUT].n; k++) {
    ic_tensor *o = ic_out(c, OUT, k);
    const size_t chunk = (size_t)o->dims[axis] * inner;
    ic_shapeops_copy_rows(o->data, chunk, p, in_row, outer, chunk);
    p += chunk;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0},
    {"AxisTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"SectionsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_MULTI}};

const ic_opdef ic_op_split = {
    .name = "split",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(split_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
