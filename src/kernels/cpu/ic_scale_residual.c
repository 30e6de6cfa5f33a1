/* ic_scale_residual (internal; analysis inserts it on CPU plans, fuse.c): a squeeze-excitation
 * scale and its residual add in one pass,
 *   Out = X + X * Y
 * with Y broadcast onto X by Paddle's elementwise rule and `axis` (elementwise.c), Out of X's
 * shape. It replaces elementwise_mul(X, Y) -> M, elementwise_add(X, M) (either operand
 * order: both operations commute bitwise) where M has no other reader; each element is the
 * rounded product, then the rounded sum, exactly as the two ops compute it (ISO C11: no
 * contraction into a fused multiply-add), so the results are bitwise the unfused ones. One
 * read of X and one write instead of three reads and two writes (PP-OCRv4's RSEFPN neck).
 *
 * X may arrive channel-blocked (nChw8c, nChw16c, or nChw16c with padded channels: the
 * convolution before it, marked by the layout pass). When this op is marked too
 * (ic_blocked_out, with ic_blocked_pad where Out may be padded) and Y holds one value per
 * channel, Out keeps X's layout: each element gets the same two rounded operations, the
 * padding lanes are written 0. Otherwise Out is plain: with a per-channel Y read from the
 * blocked X in place (tiles of 64 pixels), else X unpacked first. */
#include "kernels/cpu/elementwise.h"
#include "kernels/cpu/onednn.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT(IC_FP32) | IC_DT(IC_FP64));
  if (st) return st;
  if (y->dtype != x->dtype) return ic_bcast_dtype_mismatch(c);
  const ic_elementwise_attrs *a = c->attrs;
  ic_bcast b;
  if ((st = ic_bcast_plan(c, 0, 1, a->axis, &b))) return st;
  if (!ic_dims_equal(b.ndim, b.out, x->ndim, x->dims)) {
    char want[128];
    return ic_kfail_in(c, 1, 0, "expected to broadcast onto X's dims %s",
                       ic_dims_str(x->ndim, x->dims, want, sizeof want));
  }
  if (x->layout && (x->dtype != IC_FP32 || x->ndim != 4 || !ic_layout_block(x->layout))) {
    return ic_kfail_in(c, 0, 0, "expected the plain layout: a blocked input must be float32 "
                                "NCHW");
  }
  ic_tensor *out = ic_out(c, 0, 0);
  ic_tensor_set_meta(out, x->dtype, x->ndim, x->dims);
  /* Marked ic_blocked_pad: ask for storage with the channels padded to 16 (a request to
   * ic_tensor_alloc; run sets the layout it writes). */
  if (a->blocked_out && a->blocked_pad && x->dtype == IC_FP32 && x->ndim == 4 &&
      x->dims[1] % 16) {
    out->layout = IC_LAYOUT_NCHW16C_PAD;
  }
  return IC_OK;
}

/* Out = X + X * Y over n elements: Y running along the row (vv) or one value (vs). X always
 * runs (Out has X's shape). */
#define DEFINE_LOOPS(T, SUF)                                                                \
  static void vv_##SUF(void *o_, const void *x_, const void *y_, int64_t n) {              \
    T *o = o_;                                                                              \
    const T *x = x_, *y = y_;                                                               \
    for (int64_t i = 0; i < n; i++) {                                                       \
      T p = x[i] * y[i];                                                                    \
      o[i] = x[i] + p;                                                                      \
    }                                                                                       \
  }                                                                                         \
  static void vs_##SUF(void *o_, const void *x_, const void *y_, int64_t n) {              \
    T *o = o_;                                                                              \
    const T *x = x_, s = *(const T *)y_;                                                    \
    for (int64_t i = 0; i < n; i++) {                                                       \
      T p = x[i] * s;                                                                       \
      o[i] = x[i] + p;                                                                      \
    }                                                                                       \
  }                                                                                         \
  static const ic_ew_loop loops_##SUF[3] = {vv_##SUF, vs_##SUF, vv_##SUF};
DEFINE_LOOPS(float, f32)
DEFINE_LOOPS(double, f64)

/* Out = X + X * s over hw pixels of one channel block of BLK lanes, nb of them real (the rest
 * padding, written 0), Out in the block's layout. */
#define BLOCK_PLANE(NAME, BLK)                                                                 \
  static void NAME(float *restrict o, const float *restrict x, const float *s, int64_t hw,   \
                   int nb) {                                                                 \
    float sv[BLK];                                                                           \
    for (int k = 0; k < (BLK); k++) sv[k] = k < nb ? s[k] : 0.0f;                            \
    for (int64_t p = 0; p < hw; p++, o += (BLK), x += (BLK)) {                               \
      for (int k = 0; k < (BLK); k++) {                                                      \
        float q = x[k] * sv[k];                                                              \
        o[k] = x[k] + q;                                                                     \
      }                                                                                      \
    }                                                                                        \
    if (nb < (BLK)) { /* the padding lanes: 0 whatever the storage held */                   \
      o -= hw * (BLK);                                                                       \
      for (int64_t p = 0; p < hw; p++, o += (BLK)) {                                         \
        for (int k = nb; k < (BLK); k++) o[k] = 0.0f;                                        \
      }                                                                                      \
    }                                                                                        \
  }
BLOCK_PLANE(block_plane16, 16)
BLOCK_PLANE(block_plane8, 8)

/* The same into a plain Out: the block's nb channels, each hw long at o + b * hw, in tiles of
 * 64 pixels so that the block's tile stays in L1 while each channel's run is written. */
static void block_to_plain(float *o, const float *x, const float *s, int64_t hw, int blk,
                           int nb) {
  for (int64_t p0 = 0; p0 < hw; p0 += 64) {
    const int64_t pn = hw - p0 < 64 ? hw - p0 : 64;
    for (int b = 0; b < nb; b++) {
      float *ob = o + b * hw + p0;
      const float *xb = x + p0 * blk + b;
      const float sb = s[b];
      for (int64_t p = 0; p < pn; p++) {
        float xv = xb[p * blk], q = xv * sb;
        ob[p] = xv + q;
      }
    }
  }
}

#define PAR_MIN 65536 /* elements below which one thread does it all */

/* A blocked X (infer checked: float32 4-D). */
static ic_status run_blocked(ic_kctx *c, const ic_bcast *b) {
  const ic_elementwise_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  /* infer asked for padded storage (ic_blocked_pad); what is written is decided here */
  const bool pad_room = out->layout == IC_LAYOUT_NCHW16C_PAD && out->buf &&
                        out->buf->bytes >= (size_t)ic_tensor_storage_elems(out) * sizeof(float);
  out->layout = IC_LAYOUT_PLAIN;
  const int lay = x->layout, blk = ic_layout_block(lay);
  const int nt = b->numel >= PAR_MIN ? ic_omp_threads(c->env) : 1;
  if (y->layout == IC_LAYOUT_PLAIN && y->dtype == IC_FP32 && ic_ew_per_channel(y, out, a->axis)) {
    /* Out in X's layout when marked (and, padded, with room), else plain; one pass either way */
    const bool keep = a->blocked_out && (lay != IC_LAYOUT_NCHW16C_PAD || pad_room);
    const int64_t n = x->dims[0], ch = x->dims[1], hw = x->dims[2] * x->dims[3];
    const int64_t cb = (ch + blk - 1) / blk;
    const bool per_image = y->ndim == 4 && y->dims[0] == n && n > 1;
    const float *xs = x->data, *s0 = y->data;
    float *o = out->data;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t q = 0; q < n * cb; q++) {
      const int64_t i = q / cb, k = q % cb;
      const int nb = ch - k * blk < blk ? (int)(ch - k * blk) : blk;
      const size_t off = (size_t)(q * hw * blk);
      const float *s = s0 + (per_image ? i * ch : 0) + k * blk;
      if (!keep) block_to_plain(o + (i * ch + k * blk) * hw, xs + off, s, hw, blk, nb);
      else if (blk == 16) block_plane16(o + off, xs + off, s, hw, nb);
      else block_plane8(o + off, xs + off, s, hw, nb);
    }
    if (keep) out->layout = (uint8_t)lay;
    return IC_OK;
  }
  /* Unpack X, then the plain loops. */
  ic_buffer *sb = ic_kscratch(c, (size_t)b->numel * sizeof(float));
  if (!sb) return c->err->code;
  ic_blocked_to_plain(x->data, sb->data, x->dims, blk);
  ic_bcast_run(b, loops_f32, out->data, sb->data, y->data, 4, nt);
  ic_buffer_release(sb);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_elementwise_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  ic_bcast b;
  ic_status st = ic_bcast_plan(c, 0, 1, a->axis, &b);
  if (st || b.numel == 0) return st;
  if (x->layout != IC_LAYOUT_PLAIN) return run_blocked(c, &b);
  out->layout = IC_LAYOUT_PLAIN;
  const int nt = ic_omp_threads(c->env);
  if (x->dtype == IC_FP64) ic_bcast_run(&b, loops_f64, out->data, x->data, y->data, 8, nt);
  else ic_bcast_run(&b, loops_f32, out->data, x->data, y->data, 4, nt);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_BLOCKED | IC_SLOT_PAD16}, {"Y", 0}};

const ic_opdef ic_op_ic_scale_residual = {
    .name = "ic_scale_residual",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = ic_elementwise_outputs,
    .attrs_size = sizeof(ic_elementwise_attrs), .parse = ic_elementwise_parse,
    .infer = infer, .cpu = run,
};
