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
 * bitwise the plain result reordered. Any other mix (plain inputs, blocked ones of another
 * layout or a partial block) is gathered straight into the blocked layout a convolution
 * reading Out takes (nChw16c with AVX-512, else nChw8c) when the output channels fill whole
 * blocks: one pass, where unpacking to plain and the reader's reorder were two (PP-OCRv4
 * DB's neck concatenates four plain 24-channel maps into the 96 its head convolution reads).
 * Otherwise Out is plain, blocked inputs unpacked first. */
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

bool ic_concat_chunks(ic_kctx *c, int *layout) {
  const concat_attrs *a = c->attrs;
  const ic_tensor *x0 = ic_in(c, X, 0), *out = ic_out(c, OUT, 0);
  const int rank = x0->ndim;
  if (c->in[AXIS_TENSOR].n || rank == 0 || a->axis < -rank || a->axis >= rank) return false;
  const int axis = (int)(a->axis < 0 ? a->axis + rank : a->axis);
  if (ic_numel(axis, x0->dims) != 1) return false;
  const int lay = x0->layout, block = ic_layout_block(lay);
  if (lay == IC_LAYOUT_NCHW16C_PAD) return false;
  for (size_t i = 0; i < c->in[X].n; i++) {
    const ic_tensor *xi = ic_in(c, X, i);
    if (xi->layout != lay || (block && xi->dims[1] % block)) return false;
  }
  const bool marked = a->blocked_out && axis == 1 && rank == 4;
  if (block) {
    if (!marked) return false; /* run() unpacks them */
    *layout = lay;
    return true;
  }
  /* plain inputs: run() gathers them into the blocked layout a reader takes, when it can */
  if (marked && x0->dtype == IC_FP32 && out->dims[1] > 0 && out->dims[1] % ic_dnnl_native_block() == 0) {
    return false;
  }
  *layout = IC_LAYOUT_PLAIN;
  return true;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x0 = ic_in(c, X, 0);
  int axis = ic_concat_axis(c, x0->ndim);
  if (axis < 0) return c->err->code;
  int64_t d[IC_MAX_RANK];
  memcpy(d, x0->dims, sizeof d);
  d[axis] = 0;
  char desc[128]; /* the first input, described only for an error */
  for (size_t i = 0; i < c->in[X].n; i++) {
    const ic_tensor *xi = ic_in(c, X, i);
    if (xi->dtype != x0->dtype || xi->ndim != x0->ndim) {
      ic_tensor_describe(x0, desc, sizeof desc);
      return ic_kfail_in(c, X, i, "expected the dtype and rank of the first input '%s' (%s)",
                         ic_in_name(c, X, 0), desc);
    }
    for (int j = 0; j < x0->ndim; j++) {
      if (j != axis && xi->dims[j] != x0->dims[j]) {
        ic_tensor_describe(x0, desc, sizeof desc);
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

/* Out in nChw{B}c, gathered from inputs in any layout: per image and output channel block,
 * tiles of 64 pixels, each lane read from its input's plane (plain) or lane (blocked). */
static ic_status gather_blocked(ic_kctx *c, int B) {
  ic_tensor *out = ic_out(c, OUT, 0);
  const int64_t n = out->dims[0], ch = out->dims[1], hw = out->dims[2] * out->dims[3];
  const int64_t cb = ch / B;
  const size_t n_in = c->in[X].n;
  /* per output channel: its input and channel there */
  ic_buffer *sb = ic_kscratch(c, (size_t)ch * 2 * sizeof(int64_t));
  if (!sb) return c->err->code;
  int64_t *src_in = sb->data, *src_c = src_in + ch;
  for (size_t i = 0, oc = 0; i < n_in; i++) {
    for (int64_t k = 0; k < ic_in(c, X, i)->dims[1]; k++, oc++) {
      src_in[oc] = (int64_t)i;
      src_c[oc] = k;
    }
  }
  const int nt = ic_numel(4, out->dims) >= 65536 ? ic_omp_threads(c->env) : 1;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int64_t q = 0; q < n * cb; q++) {
    const int64_t img = q / cb, ob = q % cb;
    const float *src[16];
    int64_t step[16];
    for (int l = 0; l < B; l++) {
      const ic_tensor *xi = ic_in(c, X, (size_t)src_in[ob * B + l]);
      const int64_t k = src_c[ob * B + l], xc = xi->dims[1];
      const int bi = ic_layout_block(xi->layout);
      if (bi) {
        const int64_t xcb = (xc + bi - 1) / bi;
        src[l] = (const float *)xi->data + ((img * xcb + k / bi) * hw) * bi + k % bi;
        step[l] = bi;
      } else {
        src[l] = (const float *)xi->data + (img * xc + k) * hw;
        step[l] = 1;
      }
    }
    float *dst = (float *)out->data + (size_t)(q * hw * B);
    for (int64_t p0 = 0; p0 < hw; p0 += 64) {
      const int64_t pn = hw - p0 < 64 ? hw - p0 : 64;
      for (int l = 0; l < B; l++) {
        const float *sp = src[l] + p0 * step[l];
        float *dp = dst + p0 * B + l;
        if (step[l] == 1) {
          for (int64_t p = 0; p < pn; p++) dp[p * B] = sp[p];
        } else {
          for (int64_t p = 0; p < pn; p++) dp[p * B] = sp[p * step[l]];
        }
      }
    }
  }
  ic_buffer_release(sb);
  out->layout = (uint8_t)(B == 16 ? IC_LAYOUT_NCHW16C : IC_LAYOUT_NCHW8C);
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
  /* Marked, joining float32 NCHW channels into whole blocks, but not a plain chunk copy of
   * one blocked layout: gathered straight into the layout the readers take. */
  if (!keep && a->blocked_out && axis == 1 && x0->ndim == 4 && x0->dtype == IC_FP32) {
    const int B = ic_dnnl_native_block();
    if (out->dims[1] % B == 0 && out->dims[1] > 0) return gather_blocked(c, B);
  }
  ic_buffer *sb = NULL;
  if (any_blocked && !keep && !(sb = ic_kscratch(c, unpack * sizeof(float)))) return c->err->code;
  float *plain = sb ? (float *)sb->data : NULL;
  char *o = out->data;
  /* An output of 1 MiB or more is written with streaming stores (ic_shapeops_copy_rows_stream):
   * it is larger than a core's L2, so its lines would be evicted before the reader comes
   * anyway, and an ordinary store first reads every destination line in. PP-HGNet at batch 8
   * (six concat outputs of 1.4 to 12.3 MiB), old and new builds alternating, ms per run of
   * the six: one thread 3.53 / 3.10 / 3.74 -> 1.98 / 2.38 / 2.99, the six convolutions reading
   * them 24.0 / 22.5 / 25.0 -> 22.2 / 23.4 / 24.5 (no slower); two threads 2.46 / 2.55 / 2.20 /
   * 2.16 -> 2.07 / 1.72 / 1.84 / 1.96 (docs/BENCHMARKS.md 5b'''). */
  const size_t out_bytes = (size_t)ic_numel(out->ndim, out->dims) * es;
  void (*copy)(void *, size_t, const void *, size_t, size_t, size_t) =
      out_bytes >= ((size_t)1 << 20) ? ic_shapeops_copy_rows_stream : ic_shapeops_copy_rows;
  /* Plain inputs of a large output: the kernel's threads copy different inputs (each its
   * own destination columns). */
  const size_t n_in = c->in[X].n;
  const int nt = !sb && n_in > 1 && out_bytes >= (1u << 20)
                     ? ic_omp_threads(c->env)
                     : 1;
  if (nt > 1) {
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
    for (size_t i = 0; i < n_in; i++) {
      size_t off = 0; /* this input's first byte in an output row: the inputs before it */
      for (size_t j = 0; j < i; j++) off += (size_t)ic_in(c, X, j)->dims[axis] * inner;
      const ic_tensor *xi = ic_in(c, X, i);
      const size_t chunk = (size_t)xi->dims[axis] * inner;
      copy(o + off, out_row, xi->data, chunk, outer, chunk);
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
    copy(o, out_row, src, chunk, outer, chunk);
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
