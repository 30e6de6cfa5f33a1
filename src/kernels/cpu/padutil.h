/* The padding engine shared by pad3d and pad2d: the index map of the modes, reading and
 * checking the paddings, and the copy loop. */
#ifndef IC_KERNELS_CPU_PADUTIL_H
#define IC_KERNELS_CPU_PADUTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/fill.h"
#include "kernels/cpu/shapeops.h"
#include "kernels/kernel.h"

enum { IC_PAD_CONSTANT, IC_PAD_REFLECT, IC_PAD_REPLICATE, IC_PAD_CIRCULAR };

/* The input position for output position j of a dim of size n padded by `before`, or -1 for
 * the constant. Reflect needs each pad < n, circular each pad <= n (checked by the ops). */
static inline int64_t ic_pad_src(int mode, int64_t j, int64_t before, int64_t n) {
  int64_t i = j - before;
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case IC_PAD_REFLECT: return i < 0 ? -i : 2 * (n - 1) - i;
    case IC_PAD_REPLICATE: return i < 0 ? 0 : n - 1;
    case IC_PAD_CIRCULAR: return ((i % n) + n) % n;
    default: return -1;
  }
}

/* Reads the `want` paddings into p: from input slot 1 (int32/int64 Paddings) when given, else
 * from the attribute (attr, n_attr values), and checks each p[i] >= 0 against the mode, pad i
 * applying to a dim of size pdim[i]. The errors name X (slot 0). */
static inline ic_status ic_pad_read(ic_kctx *c, const int64_t *attr, size_t n_attr, int want,
                                    int mode, const int64_t *pdim, int64_t *p) {
  size_t n = 0;
  const char *from = "attribute 'paddings'";
  if (ic_in(c, 1, 0)) {
    from = "input Paddings";
    ic_status st = ic_shapeops_read_ints(c, 1, false, "paddings", p, (size_t)want, &n);
    if (st) return st;
  } else {
    n = n_attr;
    for (size_t i = 0; i < n && i < (size_t)want; i++) p[i] = attr[i];
  }
  if (n != (size_t)want) {
    return ic_kfail_in(c, 0, 0, "%s has %zu values, expected %d", from, n, want);
  }
  for (int i = 0; i < want; i++) {
    int64_t dim = pdim[i];
    const char *why = NULL;
    if (p[i] < 0) {
      why = "expected >= 0";
    } else if (mode == IC_PAD_REFLECT && p[i] >= dim) {
      why = "reflect mode needs each pad smaller than its dim";
    } else if (mode == IC_PAD_CIRCULAR && p[i] > dim) {
      why = "circular mode needs each pad at most its dim";
    } else if (mode != IC_PAD_CONSTANT && dim == 0 && p[i] > 0) {
      why = "only constant mode pads an empty dim";
    }
    if (why) {
      return ic_kfail_in(c, 0, 0, "%s holds %lld at position %d (dim %lld): %s", from,
                         (long long)p[i], i, (long long)dim, why);
    }
  }
  return IC_OK;
}

/* Pads x (N, C and the spatial dims sp = [D, H, W], channels first or last) into o by
 * before[k] / after[k] elements on spatial dim k, filling with `value` in constant mode. */
static inline void ic_pad_run(const ic_tensor *x, ic_tensor *o, int mode, bool channel_last,
                              double value, int64_t N, int64_t C, const int64_t sp[3],
                              const int64_t before[3], const int64_t after[3]) {
  size_t es = ic_dtype_size(x->dtype);
  uint64_t fill = ic_fill_bits(x->dtype, (ic_fill_scalar){false, 0, value});
  int64_t D = sp[0], H = sp[1], W = sp[2];
  int64_t OD = D + before[0] + after[0], OH = H + before[1] + after[1];
  int64_t OW = W + before[2] + after[2];
  /* Element (n, c, d, h, w) at ((n * C + c) * D + d) * H * W + h * W + w (NCDHW) or
   * (((n * D + d) * H + h) * W + w) * C + c (NDHWC). */
  const char *xp = x->data;
  char *op = o->data;
  for (int64_t n = 0; n < N; n++) {
    for (int64_t od = 0; od < OD; od++) {
      int64_t id = ic_pad_src(mode, od, before[0], D);
      for (int64_t oh = 0; oh < OH; oh++) {
        int64_t ih = ic_pad_src(mode, oh, before[1], H);
        for (int64_t ow = 0; ow < OW; ow++) {
          int64_t iw = ic_pad_src(mode, ow, before[2], W);
          bool pad = id < 0 || ih < 0 || iw < 0;
          for (int64_t ch = 0; ch < C; ch++) {
            int64_t oi, ii;
            if (channel_last) {
              oi = (((n * OD + od) * OH + oh) * OW + ow) * C + ch;
              ii = (((n * D + id) * H + ih) * W + iw) * C + ch;
            } else {
              oi = (((n * C + ch) * OD + od) * OH + oh) * OW + ow;
              ii = (((n * C + ch) * D + id) * H + ih) * W + iw;
            }
            if (pad) {
              ic_fill_store_bits(op + (size_t)oi * es, es, 1, fill);
            } else {
              memcpy(op + (size_t)oi * es, xp + (size_t)ii * es, es);
            }
          }
        }
      }
    }
  }
}

/* pad3d's attributes, parser and plan (pad3d.c), shared with pad3d_grad: plan reads the 6
 * paddings into p (as [left, right, top, bottom, front, back]) and X's (input slot 0) spatial
 * dims [D, H, W] into sp, the Paddings tensor being input slot 1. */
typedef struct pad3d_attrs {
  const int64_t *pads;
  size_t n_pads;
  int mode;
  double value;
  bool channel_last;
} pad3d_attrs;
ic_status ic_pad3d_parse(ic_attr_reader *r, void *attrs);
ic_status ic_pad3d_plan(ic_kctx *c, int64_t *p, int64_t *sp);

/* pad2d's attributes, parser and plan (pad2d.c), shared with pad2d_grad: plan reads the 4
 * paddings [top, bottom, left, right] into p and X's (input slot 0, rank 4) spatial dims
 * [H, W] into sp, the Paddings tensor being input slot 1. */
typedef struct pad2d_attrs {
  const int64_t *pads;
  size_t n_pads;
  int mode;
  double value;
  bool channel_last;
} pad2d_attrs;
ic_status ic_pad2d_parse(ic_attr_reader *r, void *attrs);
ic_status ic_pad2d_plan(ic_kctx *c, int64_t *p, int64_t *sp);

/* The gradient of ic_pad_run: dx (zeroed here; x's dims) gets each element of g (o's dims)
 * added at the input position the forward copied it from; the constant's positions give
 * nothing. Float32 or float64, added in the data's type in g's memory order (as phi's
 * Pad3dGradKernel accumulates). */
static inline void ic_pad_grad_run(const ic_tensor *g, ic_tensor *dx, int mode,
                                   bool channel_last, int64_t N, int64_t C, const int64_t sp[3],
                                   const int64_t before[3], const int64_t after[3]) {
  memset(dx->data, 0, (size_t)ic_tensor_numel_(dx) * ic_dtype_size(dx->dtype));
  int64_t D = sp[0], H = sp[1], W = sp[2];
  int64_t OD = D + before[0] + after[0], OH = H + before[1] + after[1];
  int64_t OW = W + before[2] + after[2];
  for (int64_t n = 0; n < N; n++) {
    for (int64_t ch = 0; ch < (channel_last ? 1 : C); ch++) {
      for (int64_t od = 0; od < OD; od++) {
        int64_t id = ic_pad_src(mode, od, before[0], D);
        for (int64_t oh = 0; oh < OH; oh++) {
          int64_t ih = ic_pad_src(mode, oh, before[1], H);
          for (int64_t ow = 0; ow < OW; ow++) {
            int64_t iw = ic_pad_src(mode, ow, before[2], W);
            if (id < 0 || ih < 0 || iw < 0) continue;
            for (int64_t cc = 0; cc < (channel_last ? C : 1); cc++) {
              int64_t oi, ii;
              if (channel_last) {
                oi = (((n * OD + od) * OH + oh) * OW + ow) * C + cc;
                ii = (((n * D + id) * H + ih) * W + iw) * C + cc;
              } else {
                oi = (((n * C + ch) * OD + od) * OH + oh) * OW + ow;
                ii = (((n * C + ch) * D + id) * H + ih) * W + iw;
              }
              if (g->dtype == IC_FP32) {
                ((float *)dx->data)[ii] += ((const float *)g->data)[oi];
              } else {
                ((double *)dx->data)[ii] += ((const double *)g->data)[oi];
              }
            }
          }
        }
      }
    }
  }
}

#endif
