/* concat: Out = the X inputs joined along `axis` (or the value of AxisTensor, which takes
 * priority). Negative axes count from the end. All inputs must have one dtype and rank and
 * equal dims except along the axis, where any of them may be 0 (paddle/phi/kernels/funcs/
 * concat_funcs.h ComputeAndCheckShape). 0-D inputs have no axis to join along. Each input
 * moves as one contiguous chunk per index of the axes before `axis`.
 *
 * On CPU plans an input may arrive in oneDNN's blocked layout (nChw8c / nChw16c, from a
 * convolution or pool2d; layout.c). Joining 4-D tensors along the channels when every input
 * holds the same blocked layout with a whole number of blocks is the same chunk copy (each
 * image's channel blocks are contiguous), so with ic_blocked_out the output keeps that layout,
 * bitwise the plain result reordered. Any other mix is unpacked to plain first, and Out is
 * plain. */
#include <string.h>

#include "kernels/cpu/onednn.h"
#include "kernels/cpu/shapeops.h"

enum { X, AXIS_TENSOR };
enum { OUT };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  concat_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", 0);
  a->blocked_out = ic_ar_bool(r, "ic_blocked_out", false);
  return r->st;
}

int ic_concat_axis(ic_kctx *c, int rank) {
  const concat_attrs *a = c->attrs;
  int64_t axis = a->axis;
  const char *what = "attribute 'axis'";
  if (c->in[AXIS_TENSOR].n) {
    if (ic_shapeops_read_scalar(c, AXIS_TENSOR, &axis)) return -1;
    what = "the value of input AxisTensor";
  }
  if (rank == 0) {
    ic_kfail_in(c, X, 0, "0-D tensors cannot be concatenated, expected rank >= 1");
    return -1;
  }
  return ic_shapeops_axis(c, X, axis, rank, what);
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x0 = ic_in(c, X, 0);
  int axis = ic_concat_axis(c, x0->ndim);
  if (axis < 0) return c->err->code;
  int64_t d[IC_MAX_RANK];
  memcpy(d, x0->dims, sizeof d);
  d[axis] = 0;
  char desc[128];
  ic_tensor_describe(x0, desc, sizeof desc);
  for (size_t i = 0; i < c->in[X].n; i++) {
    const ic_tensor *xi = ic_in(c, X, i);
    if (xi->dtype != x0->dtype || xi->ndim != x0->ndim) {
      return ic_kfail_in(c, X, i, "expected the dtype and rank of the first input '%s' (%s)",
                         ic_in_name(c, X, 0), desc);
    }
    for (int j = 0; j < x0->ndim; j++) {
      if (j != axis && xi->dims[j] != x0->dims[j]) {
        return ic_kfail_in(c, X, i,
                           "expected dim %d to be %lld as in the first input '%s' (%s): inputs "
                           "may differ only along axis %d",
                           j, (long long)x0->dims[j], ic_in_name(c, X, 0), desc, axis);
      }
    }
    if (xi->dims[axis] > INT64_MAX - d[axis]) {
      return ic_kfail_in(c, X, i, "makes the output too large along axis %d", axis);
    }
    d[axis] += xi->dims[axis];
  }
  ic_tensor_set_meta(ic_out(c, OUT, 0), x0->dtype, x0->ndim, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const concat_attrs *a = c->attrs;
  const ic_tensor *x0 = ic_in(c, X, 0);
  ic_tensor *out = ic_out(c, OUT, 0);
  int axis = ic_concat_axis(c, x0->ndim);
  if (axis < 0) return c->err->code;
  const size_t es = ic_dtype_size(x0->dtype);
  const size_t outer = (size_t)ic_numel(axis, x0->dims);
  const size_t inner = (size_t)ic_numel(x0->ndim - axis - 1, x0->dims + axis + 1) * es;
  const size_t out_row = (size_t)out->dims[axis] * inner;
  /* Blocked inputs: kept when they all agree (see above), else unpacked into scratch. */
  const int lay = x0->layout, block = ic_layout_block(lay);
  bool any_blocked = false, keep = a->blocked_out && axis == 1 && x0->ndim == 4 && block > 0;
  size_t unpack = 0;
  for (size_t i = 0; i < c->in[X].n; i++) {
    const ic_tensor *xi = ic_in(c, X, i);
    any_blocked |= xi->layout != IC_LAYOUT_PLAIN;
    keep = keep && xi->layout == lay && xi->dims[1] % block == 0;
    if (xi->layout != IC_LAYOUT_PLAIN) unpack += (size_t)ic_numel(xi->ndim, xi->dims);
  }
  ic_buffer *sb = NULL;
  if (any_blocked && !keep && !(sb = ic_kscratch(c, unpack * sizeof(float)))) return c->err->code;
  float *plain = sb ? (float *)sb->data : NULL;
  char *o = out->data;
  /* Plain inputs of a large output: the kernel's threads copy different inputs (each its
   * own destination columns). */
  const size_t n_in = c->in[X].n;
  const int nt = !sb && n_in > 1 && (size_t)ic_numel(out->ndim, out->dims) * es >= (1u << 20)
                     ? ic_omp_threads(c->env)
                     : 1;
  if (nt > 1) {
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
    for (size_t i = 0; i < n_in; i++) {
      size_t off = 0; /* this input's first byte in an output row: the inputs before it */
      for (size_t j = 0; j < i; j++) off += (size_t)ic_in(c, X, j)->dims[axis] * inner;
      const ic_tensor *xi = ic_in(c, X, i);
      const size_t chunk = (size_t)xi->dims[axis] * inner;
      ic_shapeops_copy_rows(o + off, out_row, xi->data, chunk, outer, chunk);
    }
    out->layout = (uint8_t)(keep ? lay : IC_LAYOUT_PLAIN);
    return IC_OK;
  }
  for (size_t i = 0; i < c->in[X].n; i++) {
    const ic_tensor *xi = ic_in(c, X, i);
    const size_t chunk = (size_t)xi->dims[axis] * inner;
    const void *src = xi->data;
    if (sb && xi->layout != IC_LAYOUT_PLAIN) {
      ic_blocked_to_plain(xi->data, plain, xi->dims, ic_layout_block(xi->layout));
      src = plain;
      plain += ic_numel(xi->ndim, xi->dims);
    }
    ic_shapeops_copy_rows(o, out_row, src, chunk, outer, chunk);
    o += chunk;
  }
  out->layout = (uint8_t)(keep ? lay : IC_LAYOUT_PLAIN);
  ic_buffer_release(sb);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", IC_SLOT_MULTI | IC_SLOT_BLOCKED},
    {"AxisTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_concat = {
    .name = "concat",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(concat_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
