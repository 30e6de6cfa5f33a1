/* Helpers shared by the shape and data-movement ops (reshape2, squeeze2, unsqueeze2,
 * flatten_contiguous_range, transpose2, concat, split, slice, shape). These ops never look at
 * element values, only at element sizes, so every helper here works on bytes. */
#ifndef IC_KERNELS_CPU_SHAPEOPS_H
#define IC_KERNELS_CPU_SHAPEOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Set the meta of the optional XShape output (slot s) the way Paddle does: dims [0] followed
 * by x's dims, x's dtype, no data. Paddle's grad ops read the input shape back from it; an
 * inference run never does, but later ops may still ask for its shape. Absent: nothing. */
ic_status ic_shapeops_xshape(ic_kctx *c, size_t s, const ic_tensor *x);

/* Make output (os, 0) share input (is, 0)'s storage while keeping the meta infer() gave it:
 * the view ops (reshape2, squeeze2, ...) only relabel the dims of the same bytes. */
void ic_shapeops_share(ic_kctx *c, size_t os, size_t is);

/* The whole kernel of the pure view ops (reshape2, squeeze2, unsqueeze2,
 * flatten_contiguous_range): output Out (slot 0) shares input X (slot 0). Their output slots,
 * Out and the optional, bufferless XShape, are ic_shapeops_view_outputs. */
ic_status ic_shapeops_view_run(ic_kctx *c);
extern const ic_slotdef ic_shapeops_view_outputs[2];

/* flatten2's attributes, parser and infer (XShape set when present), which fluid's flatten
 * (no XShape) shares. */
typedef struct flatten2_attrs {
  int64_t axis;
} flatten2_attrs;
ic_status ic_flatten2_parse(ic_attr_reader *r, void *attrs);
ic_status ic_flatten2_infer(ic_kctx *c);

/* squeeze2's and unsqueeze2's slots, attribute parsers and infer, which fluid's squeeze and
 * unsqueeze (the same ops without XShape) share. */
extern const ic_slotdef ic_squeeze2_inputs[1];
extern const ic_slotdef ic_unsqueeze2_inputs[3];
typedef struct ic_axes_attrs {
  const int64_t *axes; /* borrowed from the program */
  size_t n_axes;
} ic_axes_attrs;
ic_status ic_squeeze2_parse(ic_attr_reader *r, void *attrs);
ic_status ic_squeeze2_infer(ic_kctx *c);
ic_status ic_unsqueeze2_parse(ic_attr_reader *r, void *attrs);
ic_status ic_unsqueeze2_infer(ic_kctx *c);

/* Normalize `axis` (named `what` in messages, such as "attribute 'axis'") from
 * [-rank, rank) to [0, rank) for input (s, 0); -1 with an error naming that input when it is
 * out of range. */
int ic_shapeops_axis(ic_kctx *c, size_t s, int64_t axis, int rank, const char *what);

/* Read the integer values of a shape-like input slot s into v (at most cap values), *n
 * receiving the count. A single tensor (list == false) contributes all of its elements; a
 * list slot (Paddle's ShapeTensor, StartsTensorList, ...) contributes one value per tensor,
 * each of which must hold exactly one element. Only int32 and int64 are accepted, as in
 * Paddle. `what` names the values in messages ("target shape"). */
ic_status ic_shapeops_read_ints(ic_kctx *c, size_t s, bool list, const char *what, int64_t *v,
                                size_t cap, size_t *n);

/* The single integer of a one-element int32/int64 input (s, 0), such as an AxisTensor. */
ic_status ic_shapeops_read_scalar(ic_kctx *c, size_t s, int64_t *v);

/* Copy `rows` blocks of `row_bytes` bytes from src to dst, where block r starts at
 * src + r * src_stride and goes to dst + r * dst_stride (strides in bytes). The building
 * block of concat and split, which move one contiguous chunk per input per outer index. */
void ic_shapeops_copy_rows(void *dst, size_t dst_stride, const void *src, size_t src_stride,
                           size_t rows, size_t row_bytes);
/* The same with streaming (non-temporal) stores for the bulk of each block: the destination
 * is written to memory without being read into the cache first, for outputs too large to
 * stay in cache until their readers come (concat.c says when). Same bytes; the calling
 * thread's stores are fenced before it returns. */
void ic_shapeops_copy_rows_stream(void *dst, size_t dst_stride, const void *src,
                                  size_t src_stride, size_t rows, size_t row_bytes);

/* flip's and reverse's attributes, infer and kernel (flip.c): `axis` in [-rank, rank); an
 * axis named twice is refused unless `repeats` (reverse: reversed once). */
typedef struct ic_flip_attrs {
  const int64_t *axis;
  size_t n_axis;
  bool repeats;
} ic_flip_attrs;
ic_status ic_flip_infer(ic_kctx *c);
ic_status ic_flip_run(ic_kctx *c);

/* Copy the rank-`rank` tensor of dims `dims` and element size es from src to dst reversed
 * along the axes whose bits are set in mask (bit i: axis i): flip and reverse. */
void ic_shapeops_flip(void *dst, const void *src, size_t es, int rank, const int64_t *dims,
                      unsigned mask);

/* Runs `body` for every index of n axes given by their sizes and their element strides in an
 * input and an output, last axis fastest; body sees the element offsets as in_off and out_off.
 * The odometer behind transpose2 and slice: no division per element. */
#define IC_SHAPEOPS_FOR_EACH(n, size, sin, sout, body)                              \
  do {                                                                              \
    int64_t idx_[IC_MAX_RANK] = {0}, in_off = 0, out_off = 0, left_ = 1;            \
    for (int k_ = 0; k_ < (n); k_++) left_ *= (size)[k_];                           \
    while (left_-- > 0) {                                                           \
      body;                                                                         \
      for (int k_ = (n) - 1; k_ >= 0; k_--) {                                       \
        in_off += (sin)[k_];                                                        \
        out_off += (sout)[k_];                                                      \
        if (++idx_[k_] < (size)[k_]) break;                                         \
        in_off -= (sin)[k_] * (size)[k_];                                           \
        out_off -= (sout)[k_] * (size)[k_];                                         \
        idx_[k_] = 0;                                                               \
      }                                                                             \
    }                                                                               \
  } while (0)

/* The Python-style strided slice of a dim of size n (strided_slice, set_value): start *s and
 * end e (negative: from the end) clamped for step t (nonzero); *s becomes the first index,
 * the result is the element count. */
static inline int64_t ic_shapeops_slice_count(int64_t n, int64_t *s, int64_t e, int64_t t) {
  int64_t lo = t > 0 ? 0 : -1, hi = t > 0 ? n : n - 1, b = *s;
  if (b < 0) b += n;
  if (e < 0) e += n;
  b = b < lo ? lo : b > hi ? hi : b;
  e = e < lo ? lo : e > hi ? hi : e;
  int64_t span = t > 0 ? e - b : b - e, at = t > 0 ? t : -t;
  *s = b;
  return span > 0 ? (span + at - 1) / at : 0;
}

/* ---- the data-movement ops' attributes and plans, shared with their CUDA kernels ---- */

/* reshape2 and fluid's reshape (v1, no XShape): one implementation (reshape2.c). */
typedef struct reshape_attrs {
  const int64_t *shape; /* the `shape` attribute, borrowed from the program */
  size_t n_shape;
} reshape_attrs;
extern const ic_slotdef ic_reshape2_inputs[3];
ic_status ic_reshape2_parse(ic_attr_reader *r, void *attrs);
ic_status ic_reshape2_infer(ic_kctx *c);

typedef struct transpose_attrs {
  const int64_t *axis; /* borrowed from the program */
  size_t n_axis;
} transpose_attrs;
/* transpose2 and fluid's transpose (v1, no XShape): one implementation (transpose2.c). */
extern const ic_slotdef ic_transpose2_outputs[2];
ic_status ic_transpose2_parse(ic_attr_reader *r, void *attrs);
ic_status ic_transpose2_infer(ic_kctx *c);
ic_status ic_transpose2_run(ic_kctx *c);

/* transpose2's permutation of input X reduced to its essentials: size-1 axes dropped and
 * input axes that stay adjacent and in order merged; input dims d[0..n) and output axis i =
 * input axis p[i]. n <= 1: nothing to permute (a copy). */
typedef struct ic_tplan {
  int n;
  int64_t d[IC_MAX_RANK];
  int p[IC_MAX_RANK];
} ic_tplan;

/* The plan of the op in c (validating `axis` against X as infer does). */
ic_status ic_transpose_plan(ic_kctx *c, ic_tplan *t);

typedef struct concat_attrs {
  int64_t axis;
  bool blocked_out; /* ic_blocked_out (icore's layout pass): Out may keep its inputs' blocked
                       layout */
} concat_attrs;

/* concat's axis for inputs of rank `rank` (AxisTensor's value or the attribute), normalized;
 * -1 with an error. */
int ic_concat_axis(ic_kctx *c, int rank);
/* Whether concat's kernel, on these inputs and Out's meta (after infer), copies every input as
 * one contiguous chunk of Out, back to back, in the layout *layout that Out then has: the axes
 * before the concat axis all of extent 1, every input in one layout that Out keeps. The
 * executor joins such a concat in place (interp/join.c). No AxisTensor (the plan checks). */
bool ic_concat_chunks(ic_kctx *c, int *layout);

typedef struct split_attrs {
  int64_t axis, num;
  const int64_t *sections; /* borrowed from the program */
  size_t n_sections;
} split_attrs;

/* split's axis for X of rank `rank`, normalized; -1 with an error. */
int ic_split_axis(ic_kctx *c, int rank);

typedef struct slice_attrs {
  const int64_t *axes, *starts, *ends, *infer_flags, *decrease; /* borrowed from the program */
  size_t n_axes, n_starts, n_ends, n_infer_flags, n_decrease;
} slice_attrs;

/* Per input dim: where slice's window starts and how long it is; which dims go (decrease). */
typedef struct ic_slice_plan {
  int64_t start[IC_MAX_RANK], len[IC_MAX_RANK];
  bool drop[IC_MAX_RANK];
} ic_slice_plan;

/* The window of the slice op in c (starts and ends from their tensors or attributes). */
ic_status ic_slice_plan_of(ic_kctx *c, ic_slice_plan *s);

/* strided_slice's attributes, parser and plan (cpu/strided_slice.c), shared with
 * strided_slice_grad: the plan reads Input (slot 0, dims only) and the starts / ends /
 * strides inputs (slots 1 to 6, as strided_slice lists them) and gives, per dim of Input, the
 * first index, the step, the count and whether decrease_axis drops it. */
#define IC_SS_MAX_AXES 64
typedef struct strided_slice_attrs {
  const int64_t *axes, *starts, *ends, *strides, *infer_flags, *decrease;
  size_t n_axes, n_starts, n_ends, n_strides, n_infer_flags, n_decrease;
  bool paddle2; /* ic_paddle2: the program was written by Paddle 2.x (see strided_slice.c) */
} strided_slice_attrs;
typedef struct ss_plan {
  int64_t start[IC_MAX_RANK], step[IC_MAX_RANK], len[IC_MAX_RANK];
  bool drop[IC_MAX_RANK];
} ss_plan;
ic_status ic_strided_slice_parse(ic_attr_reader *r, void *attrs);
ic_status ic_strided_slice_plan(ic_kctx *c, ss_plan *p);
/* strided_slice's Out dims under plan p for an Input of rank ndim, into d; returns the rank. */
int ic_strided_slice_out_dims(const ss_plan *p, int ndim, int64_t d[IC_MAX_RANK]);
/* Moves the window of plan p between xdata (Input's layout, x's dims) and odata (Out's
 * layout), es bytes an element: odata <- xdata when to_out (strided_slice), xdata <- odata
 * otherwise (strided_slice_grad). Nothing when the window is empty. */
void ic_strided_slice_move(const ss_plan *p, const ic_tensor *x, size_t es, char *xdata,
                           char *odata, bool to_out);

/* gather's axis (cpu/gather.c, shared with its CUDA kernel): the attribute, or the
 * one-element input Axis (slot 2, on the host) when given, normalized against X's rank; fails
 * the context naming the source for an axis out of range or a 0-D X. */
ic_status ic_gather_axis(ic_kctx *c, int *axis);

#ifdef __cplusplus
}
#endif

#endif
