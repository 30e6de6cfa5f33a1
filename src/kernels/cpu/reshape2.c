/* reshape2: Out = X with new dims (the same bytes, shared), XShape = meta only.
 *
 * The target shape comes from, by priority, the ShapeTensor list (one single-element int
 * tensor per dim), the Shape tensor (all its elements), or the `shape` attribute. Paddle's
 * rules (phi ValidateShape in paddle/phi/infermeta/unary.cc, 3.x):
 *   -1     at most once; inferred from the element count;
 *   0      copies X's dim at that index; when X has no elements it means a literal 0 instead,
 *          and only then may it stand beyond X's rank;
 *   a 0 in the result is only allowed when X has no elements, and then no -1 may be used
 *   (its value would be ambiguous).
 * The 0-copy rule applies to tensor-given shapes too: exported programs build ShapeTensor
 * lists holding a 0 for "keep the batch dim". */
#include <stdarg.h>
#include <stdio.h>

#include "kernels/cpu/shapeops.h"

enum { X, SHAPE, SHAPE_TENSOR };
enum { OUT, XSHAPE };

ic_status ic_reshape2_parse(ic_attr_reader *r, void *attrs) {
  reshape_attrs *a = attrs;
  ic_ar_ints(r, "shape", false, &a->shape, &a->n_shape);
  return r->st;
}

/* The requested shape and its length. */
static ic_status requested(ic_kctx *c, int64_t *req, size_t *n) {
  const reshape_attrs *a = c->attrs;
  if (c->in[SHAPE_TENSOR].n) {
    return ic_shapeops_read_ints(c, SHAPE_TENSOR, true, "target shape", req, IC_MAX_RANK, n);
  }
  if (c->in[SHAPE].n) {
    return ic_shapeops_read_ints(c, SHAPE, false, "target shape", req, IC_MAX_RANK, n);
  }
  if (a->n_shape > IC_MAX_RANK) {
    return ic_kfail(c, IC_ERR_SHAPE, "attribute 'shape' has %zu entries, at most %d supported",
                    a->n_shape, IC_MAX_RANK);
  }
  for (size_t i = 0; i < a->n_shape; i++) req[i] = a->shape[i];
  *n = a->n_shape;
  return IC_OK;
}

/* The failure "X ... cannot be reshaped to [dims] (from where): why". The shape and its
 * source are formatted here, on failure only: infer runs before every run. */
static ic_status reshape_fail(ic_kctx *c, const int64_t *req, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static ic_status reshape_fail(ic_kctx *c, const int64_t *req, size_t n, const char *fmt, ...) {
  char from[160], rs[160], why[256];
  if (c->in[SHAPE_TENSOR].n) snprintf(from, sizeof from, "from input ShapeTensor");
  else if (c->in[SHAPE].n)
    snprintf(from, sizeof from, "from input Shape '%s'", ic_in_name(c, SHAPE, 0));
  else snprintf(from, sizeof from, "from attribute 'shape'");
  ic_dims_str((int)n, req, rs, sizeof rs);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  return ic_kfail_in(c, X, 0, "cannot be reshaped to %s (%s): %s", rs, from, why);
}

ic_status ic_reshape2_infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, X, 0);
  int64_t req[IC_MAX_RANK], out[IC_MAX_RANK];
  size_t n = 0;
  ic_status st = requested(c, req, &n);
  if (st) return st;

  const int64_t in_size = ic_tensor_numel_(x);
  int64_t capacity = 1;
  int unknown = -1;
  bool overflow = false;
  for (size_t i = 0; i < n; i++) {
    if (req[i] == -1) {
      if (unknown >= 0) {
        return reshape_fail(c, req, n, "only one dim may be -1, found at indices %d and %zu",
                            unknown, i);
      }
      unknown = (int)i;
      out[i] = -1;
      continue;
    }
    if (req[i] == 0) {
      if ((int)i < x->ndim) {
        out[i] = in_size == 0 ? 0 : x->dims[i];
      } else if (in_size != 0) {
        return reshape_fail(c, req, n, "the 0 at index %zu copies a dim of X, which has only %d",
                            i, x->ndim);
      } else {
        out[i] = 0;
      }
    } else if (req[i] < 0) {
      return reshape_fail(c, req, n, "dim %zu is %lld, expected -1, 0 or a positive size", i,
                          (long long)req[i]);
    } else {
      out[i] = req[i];
    }
    if (out[i] && capacity > INT64_MAX / out[i]) overflow = true;
    else capacity *= out[i];
  }
  if (overflow) return reshape_fail(c, req, n, "too many elements");
  if (capacity == 0) {
    if (in_size != 0) {
      return reshape_fail(c, req, n, "a 0 size needs an input without elements, X has %lld",
                          (long long)in_size);
    }
    if (unknown >= 0) {
      return reshape_fail(c, req, n, "with no elements, the -1 at index %d could be any size",
                          unknown);
    }
  }
  if (unknown >= 0) {
    if (in_size % capacity != 0) {
      return reshape_fail(c, req, n,
                          "its %lld elements are not divisible by the known dims' product %lld",
                          (long long)in_size, (long long)capacity);
    }
    out[unknown] = in_size / capacity;
  } else if (capacity != in_size) {
    return reshape_fail(c, req, n, "%lld elements, the shape holds %lld", (long long)in_size,
                        (long long)capacity);
  }
  ic_tensor_set_meta(ic_out(c, OUT, 0), x->dtype, (int)n, out);
  return ic_shapeops_xshape(c, XSHAPE, x);
}

const ic_slotdef ic_reshape2_inputs[3] = {
    {"X", 0},
    {"Shape", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"ShapeTensor", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
};

const ic_opdef ic_op_reshape2 = {
    .name = "reshape2",
    .n_inputs = 3, .inputs = ic_reshape2_inputs,
    .n_outputs = 2, .outputs = ic_shapeops_view_outputs,
    .attrs_size = sizeof(reshape_attrs), .parse = ic_reshape2_parse,
    .infer = ic_reshape2_infer, .cpu = ic_shapeops_view_run,
    .flags = IC_OP_VIEW,
};
