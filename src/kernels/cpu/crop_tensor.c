/* crop_tensor: Out = X[offsets : offsets + shape] on every dim (paddle/phi/kernels/impl/
 * crop_kernel_impl.h, CropTensorInferMeta, crop_tensor's argument mapping).
 *
 * The shape comes from, by priority, input Shape (all of its int32/int64 elements), the
 * ShapeTensor list (one single-element tensor each) or attribute `shape`; offsets likewise
 * from Offsets, OffsetsTensor or `offsets`. Both must have one value per dim of X. A shape
 * value of -1 (on a non-empty dim) means "to the end of the dim from the offset"; 0 and other
 * negative values are refused there, as in Paddle. Every offset must be >= 0 and offset + size
 * must fit in the dim. Paddle limits X to ranks 1..6; any rank 1..IC_MAX_RANK is accepted. */
#include <string.h>

#include "kernels/cpu/shapeops.h"

enum { IN_X, IN_SHAPE, IN_OFFSETS, IN_SHAPE_LIST, IN_OFFSETS_LIST };

typedef struct crop_attrs {
  const int64_t *shape, *offsets; /* borrowed from the program */
  size_t n_shape, n_offsets;
} crop_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  crop_attrs *a = attrs;
  ic_ar_ints(r, "shape", false, &a->shape, &a->n_shape);
  ic_ar_ints(r, "offsets", false, &a->offsets, &a->n_offsets);
  return r->st;
}

/* Values of one of the two IntArrays (shape or offsets) from their highest-priority source. */
static ic_status values(ic_kctx *c, bool offsets, int64_t *v, size_t *n, const char **from) {
  const crop_attrs *a = c->attrs;
  const size_t tensor = offsets ? IN_OFFSETS : IN_SHAPE;
  const size_t list = offsets ? IN_OFFSETS_LIST : IN_SHAPE_LIST;
  const char *what = offsets ? "offsets" : "crop shape";
  if (c->in[tensor].n) {
    *from = offsets ? "input Offsets" : "input Shape";
    return ic_shapeops_read_ints(c, tensor, false, what, v, IC_MAX_RANK, n);
  }
  if (c->in[list].n) {
    *from = offsets ? "input OffsetsTensor" : "input ShapeTensor";
    return ic_shapeops_read_ints(c, list, true, what, v, IC_MAX_RANK, n);
  }
  *from = offsets ? "attribute 'offsets'" : "attribute 'shape'";
  *n = offsets ? a->n_offsets : a->n_shape;
  for (size_t i = 0; i < *n && i < IC_MAX_RANK; i++) v[i] = offsets ? a->offsets[i] : a->shape[i];
  return IC_OK;
}

/* The window: per dim its start (off) and size (len). */
static ic_status plan(ic_kctx *c, int64_t *off, int64_t *len) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  const int rank = x->ndim;
  size_t ns, no;
  const char *fs, *fo;
  ic_status st = values(c, false, len, &ns, &fs);
  if (st || (st = values(c, true, off, &no, &fo))) return st;
  if (rank < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  if (ns != (size_t)rank) {
    return ic_kfail_in(c, IN_X, 0, "has rank %d, but %s gives %zu values (one per dim expected)",
                       rank, fs, ns);
  }
  if (no != (size_t)rank) {
    return ic_kfail_in(c, IN_X, 0, "has rank %d, but %s gives %zu values (one per dim expected)",
                       rank, fo, no);
  }
  for (int i = 0; i < rank; i++) {
    const int64_t d = x->dims[i];
    if (off[i] < 0) {
      return ic_kfail_in(c, IN_X, 0, "%s holds %lld for dim %d, expected >= 0", fo,
                         (long long)off[i], i);
    }
    if (len[i] <= 0 && d > 0) {
      if (len[i] != -1) {
        return ic_kfail_in(c, IN_X, 0, "%s holds %lld for dim %d, expected > 0 or -1 (to the end)",
                           fs, (long long)len[i], i);
      }
      len[i] = d - off[i];
    }
    if (len[i] < 0 || off[i] > d - len[i]) {
      return ic_kfail_in(c, IN_X, 0,
                         "dim %d of size %lld cannot hold a crop of %lld at offset %lld (%s, %s)",
                         i, (long long)d, (long long)len[i], (long long)off[i], fs, fo);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  int64_t off[IC_MAX_RANK], len[IC_MAX_RANK];
  ic_status st = plan(c, off, len);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, len);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  int64_t off[IC_MAX_RANK], len[IC_MAX_RANK];
  ic_status st = plan(c, off, len);
  if (st) return st;
  const int rank = x->ndim;
  const size_t es = ic_dtype_size(x->dtype);
  if (ic_tensor_numel_(out) == 0) return IC_OK;
  /* strides of X in elements */
  int64_t xs[IC_MAX_RANK];
  xs[rank - 1] = 1;
  for (int i = rank - 2; i >= 0; i--) xs[i] = xs[i + 1] * x->dims[i + 1];
  const size_t run_bytes = (size_t)len[rank - 1] * es;
  int64_t idx[IC_MAX_RANK] = {0};
  char *dst = out->data;
  for (;;) {
    int64_t at = 0;
    for (int i = 0; i < rank; i++) at += (off[i] + idx[i]) * xs[i];
    memcpy(dst, (const char *)x->data + (size_t)at * es, run_bytes);
    dst += run_bytes;
    int i = rank - 2;
    while (i >= 0 && ++idx[i] == len[i]) idx[i--] = 0;
    if (i < 0) break;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0},
    {"Shape", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"Offsets", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"ShapeTensor", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"OffsetsTensor", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_crop_tensor = {
    .name = "crop_tensor",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(crop_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
