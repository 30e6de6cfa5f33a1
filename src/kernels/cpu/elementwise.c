/* The binary elementwise engine: Paddle's broadcast rule, then loops that run at memory
 * speed. The broadcast is simplified (ic_bcast) so the innermost dim is one contiguous run
 * where X and Y are each either contiguous or a single value; the index arithmetic happens
 * once per run, never per element.
 *
 * Paddle's rule (paddle/phi/infermeta/binary.cc ElementwiseRawInferMeta and
 * paddle/phi/kernels/funcs/common_shape.h GetBroadcastDimsArrays): equal dims need no
 * broadcast and ignore `axis`. Otherwise the operand of lower rank (either one; the op is
 * still op(X, Y)) is placed into the higher rank starting at dim `axis`, where -1 means
 * trailing alignment; equal ranks allow only axis -1 or 0. Then dims must be equal or 1.
 * Other negative axes are refused: the infermeta would count them from the end, but
 * Paddle's kernels (paddle/phi/kernels/funcs/elementwise_base.h ElementwiseCompute) only
 * know -1 and fail on the rest. Paddle's kernels drop trailing 1s of the smaller operand
 * (TrimTrailingSingularDims); icore does that only when the operand would otherwise run
 * past the end, where Paddle's shape inference writes out of bounds (Paddle 3.3 aborts), so
 * [2, 3, 4] + [4, 1] with axis 2 is [2, 3, 4]. A dim of 0 broadcasts like numpy (0 with 1
 * is 0; 0 with n > 1 is an error) where Paddle's infermeta accepts 0 against anything.
 *
 * Semantics per op follow paddle/phi/kernels/funcs/elementwise_functor.h: integer add, sub
 * and mul wrap; integer division truncates toward zero and fails on a zero divisor (Paddle
 * raises "Integer division by zero"), INT_MIN / -1 wraps to INT_MIN; max and min return a
 * NaN operand (X's first); float pow is powf / pow; integer pow is pow() in double converted
 * back (0 to a negative power is 0, overflow gives INT_MIN as on x86). The scalar
 * operations live in elementwise.h, shared with the CUDA kernels. */
#include "kernels/cpu/elementwise.h"
#include "kernels/cpu/onednn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

const ic_slotdef ic_elementwise_inputs[2] = {{"X", 0}, {"Y", 0}};
const ic_slotdef ic_elementwise_blocked_inputs[2] = {{"X", IC_SLOT_BLOCKED}, {"Y", IC_SLOT_BLOCKED}};
const ic_slotdef ic_elementwise_outputs[1] = {{"Out", 0}};

ic_status ic_elementwise_parse(ic_attr_reader *r, void *attrs) {
  ic_elementwise_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", -1);
  a->blocked_out = ic_ar_bool(r, "ic_blocked_out", false);
  a->blocked_pad = ic_ar_bool(r, "ic_blocked_pad", false);
  return r->st;
}

static ic_status bcast_fail(ic_kctx *c, size_t s_x, size_t s_y, int64_t axis,
                            const char *why) {
  char dx[128], dy[128];
  return ic_kfail(c, IC_ERR_SHAPE,
                  "inputs %s '%s' %s and %s '%s' %s do not broadcast (axis %lld): %s",
                  c->def->inputs[s_x].name, ic_in_name(c, s_x, 0),
                  ic_tensor_describe(ic_in(c, s_x, 0), dx, sizeof dx), c->def->inputs[s_y].name,
                  ic_in_name(c, s_y, 0), ic_tensor_describe(ic_in(c, s_y, 0), dy, sizeof dy),
                  (long long)axis, why);
}

/* Place the lower-rank operand's dims into rank R at Paddle's axis. */
static ic_status align(ic_kctx *c, size_t s_x, size_t s_y, int64_t axis, int64_t *xa,
                       int64_t *ya, int *rank) {
  const ic_tensor *x = ic_in(c, s_x, 0), *y = ic_in(c, s_y, 0);
  int rx = x->ndim, ry = y->ndim, R = rx > ry ? rx : ry;
  char why[160];
  *rank = R;
  if (ic_dims_equal(rx, x->dims, ry, y->dims)) {
    for (int i = 0; i < R; i++) xa[i] = ya[i] = x->dims[i];
    return IC_OK;
  }
  if (rx == ry && axis != -1 && axis != 0) {
    return bcast_fail(c, s_x, s_y, axis, "inputs of equal rank take axis -1 or 0 only");
  }
  if (axis < -1 || axis >= R) {
    snprintf(why, sizeof why, "axis must be -1 or in [0, %d)", R);
    return bcast_fail(c, s_x, s_y, axis, why);
  }
  int64_t ax = axis == -1 ? abs(rx - ry) : axis;
  bool x_small = rx < ry;
  const ic_tensor *s = x_small ? x : y, *l = x_small ? y : x;
  int64_t *sa = x_small ? xa : ya, *la = x_small ? ya : xa;
  int rs = s->ndim;
  while (ax + rs > R && rs > 0 && s->dims[rs - 1] == 1) rs--;
  if (ax + rs > R) {
    snprintf(why, sizeof why, "axis places the rank-%d input at dim %lld of rank %d",
             rs, (long long)ax, R);
    return bcast_fail(c, s_x, s_y, axis, why);
  }
  for (int i = 0; i < R; i++) {
    la[i] = l->dims[i];
    sa[i] = (i >= ax && i < ax + rs) ? s->dims[i - ax] : 1;
  }
  return IC_OK;
}

ic_status ic_bcast_plan(ic_kctx *c, size_t s_x, size_t s_y, int64_t axis, ic_bcast *b) {
  int64_t xa[IC_MAX_RANK], ya[IC_MAX_RANK];
  int R;
  ic_status st = align(c, s_x, s_y, axis, xa, ya, &R);
  if (st) return st;
  b->ndim = R;
  for (int i = 0; i < R; i++) {
    if (xa[i] == ya[i] || ya[i] == 1) {
      b->out[i] = xa[i];
    } else if (xa[i] == 1) {
      b->out[i] = ya[i];
    } else {
      char why[160];
      snprintf(why, sizeof why, "dim %d is %lld in %s and %lld in %s", i, (long long)xa[i],
               c->def->inputs[s_x].name, (long long)ya[i], c->def->inputs[s_y].name);
      return bcast_fail(c, s_x, s_y, axis, why);
    }
  }
  b->numel = ic_numel(R, b->out);
  if (b->numel < 0) return bcast_fail(c, s_x, s_y, axis, "the output is too large");
  /* Simplify: drop output dims of 1, merge neighbours that broadcast alike. */
  bool fx[IC_MAX_RANK], fy[IC_MAX_RANK];
  int n = 0;
  for (int i = 0; i < R; i++) {
    if (b->out[i] == 1) continue;
    bool bx = xa[i] == 1, by = ya[i] == 1;
    if (n > 0 && fx[n - 1] == bx && fy[n - 1] == by) {
      b->dims[n - 1] *= b->out[i];
    } else {
      b->dims[n] = b->out[i];
      fx[n] = bx;
      fy[n] = by;
      n++;
    }
  }
  if (n == 0) {
    b->dims[0] = 1;
    fx[0] = fy[0] = false;
    n = 1;
  }
  b->n = n;
  int64_t ax = 1, ay = 1;
  for (int k = n - 1; k >= 0; k--) {
    b->sx[k] = fx[k] ? 0 : ax;
    b->sy[k] = fy[k] ? 0 : ay;
    if (!fx[k]) ax *= b->dims[k];
    if (!fy[k]) ay *= b->dims[k];
  }
  return IC_OK;
}

ic_status ic_bcast_dtype_mismatch(ic_kctx *c) {
  char dx[128], dy[128];
  return ic_kfail(c, IC_ERR_SHAPE, "inputs X '%s' %s and Y '%s' %s must have the same dtype",
                  ic_in_name(c, 0, 0), ic_tensor_describe(ic_in(c, 0, 0), dx, sizeof dx),
                  ic_in_name(c, 1, 0), ic_tensor_describe(ic_in(c, 1, 0), dy, sizeof dy));
}

static ic_status infer_dtypes(ic_kctx *c, uint64_t mask) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, mask);
  if (st) return st;
  if (y->dtype != x->dtype) {
    return ic_bcast_dtype_mismatch(c);
  }
  const ic_elementwise_attrs *a = c->attrs;
  ic_bcast b;
  if ((st = ic_bcast_plan(c, 0, 1, a->axis, &b))) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, b.ndim, b.out);
  return IC_OK;
}

/* Paddle's CPU kernels also take int8, uint8 and int16 for add, sub and div (some of them);
 * icore runs every op on them. */
#define EW_SMALL_INTS (IC_DT(IC_INT8) | IC_DT(IC_UINT8) | IC_DT(IC_INT16))

ic_status ic_elementwise_infer(ic_kctx *c) { return infer_dtypes(c, IC_DT_NUM | EW_SMALL_INTS); }

ic_status ic_elementwise_infer_bool(ic_kctx *c) {
  return infer_dtypes(c, IC_DT_NUM | EW_SMALL_INTS | IC_DT(IC_BOOL));
}

/* ---- loops: vv both contiguous, vs Y one value, sv X one value ----
 * Each loop runs blocks of 8 elements through an inline function with restrict arguments,
 * then a scalar tail: gcc's -O2 cost model vectorizes a loop only when it needs neither a
 * remainder loop nor an aliasing check, which the fixed-size block guarantees. */

typedef ic_ew_loop ew_loop;

#define LOOPS(OP, T, SUF)                                                                  \
  static inline void OP##_##SUF##_bvv(T *restrict o, const T *restrict x,                  \
                                      const T *restrict y) {                               \
    for (int k = 0; k < 8; k++) o[k] = ic_ew_##OP##_##SUF(x[k], y[k]);                     \
  }                                                                                        \
  static inline void OP##_##SUF##_bvs(T *restrict o, const T *restrict x, T b) {           \
    for (int k = 0; k < 8; k++) o[k] = ic_ew_##OP##_##SUF(x[k], b);                        \
  }                                                                                        \
  static inline void OP##_##SUF##_bsv(T *restrict o, T a, const T *restrict y) {           \
    for (int k = 0; k < 8; k++) o[k] = ic_ew_##OP##_##SUF(a, y[k]);                        \
  }                                                                                        \
  static void OP##_##SUF##_vv(void *o_, const void *x_, const void *y_, int64_t n) {       \
    T *o = o_;                                                                             \
    const T *x = x_, *y = y_;                                                              \
    int64_t i = 0;                                                                         \
    for (; i + 8 <= n; i += 8) OP##_##SUF##_bvv(o + i, x + i, y + i);                      \
    for (; i < n; i++) o[i] = ic_ew_##OP##_##SUF(x[i], y[i]);                              \
  }                                                                                        \
  static void OP##_##SUF##_vs(void *o_, const void *x_, const void *y_, int64_t n) {       \
    T *o = o_;                                                                             \
    const T *x = x_, b = *(const T *)y_;                                                   \
    int64_t i = 0;                                                                         \
    for (; i + 8 <= n; i += 8) OP##_##SUF##_bvs(o + i, x + i, b);                          \
    for (; i < n; i++) o[i] = ic_ew_##OP##_##SUF(x[i], b);                                 \
  }                                                                                        \
  static void OP##_##SUF##_sv(void *o_, const void *x_, const void *y_, int64_t n) {       \
    T *o = o_;                                                                             \
    const T a = *(const T *)x_, *y = y_;                                                   \
    int64_t i = 0;                                                                         \
    for (; i + 8 <= n; i += 8) OP##_##SUF##_bsv(o + i, a, y + i);                          \
    for (; i < n; i++) o[i] = ic_ew_##OP##_##SUF(a, y[i]);                                 \
  }

#define LOOPS_ALL_TYPES(OP)                                                              \
  LOOPS(OP, float, f32) LOOPS(OP, double, f64) LOOPS(OP, int32_t, i32) LOOPS(OP, int64_t, i64) \
  LOOPS(OP, int8_t, i8) LOOPS(OP, uint8_t, u8) LOOPS(OP, int16_t, i16)

LOOPS_ALL_TYPES(add)
LOOPS_ALL_TYPES(sub)
LOOPS_ALL_TYPES(mul)
LOOPS_ALL_TYPES(div)
LOOPS_ALL_TYPES(max)
LOOPS_ALL_TYPES(min)
LOOPS_ALL_TYPES(pow)
LOOPS_ALL_TYPES(floordiv)
LOOPS_ALL_TYPES(mod)

/* A blocked image (nChw8c / nChw16c) against one value per channel: o and x hold hw pixels of
 * one channel block, s the block's BLK channel values; x_first: op(x, s), else op(s, x). */
typedef void (*ew_chan)(float *o, const float *x, const float *s, int64_t hw, bool x_first);

#define CHAN_LOOPS(OP)                                                                     \
  static inline void OP##_chan_p16(float *restrict o, const float *restrict x,             \
                                   const float *restrict s, bool x_first) {                \
    if (x_first) {                                                                         \
      for (int k = 0; k < 16; k++) o[k] = ic_ew_##OP##_f32(x[k], s[k]);                    \
    } else {                                                                               \
      for (int k = 0; k < 16; k++) o[k] = ic_ew_##OP##_f32(s[k], x[k]);                    \
    }                                                                                      \
  }                                                                                        \
  static inline void OP##_chan_p8(float *restrict o, const float *restrict x,              \
                                  const float *restrict s, bool x_first) {                 \
    if (x_first) {                                                                         \
      for (int k = 0; k < 8; k++) o[k] = ic_ew_##OP##_f32(x[k], s[k]);                     \
    } else {                                                                               \
      for (int k = 0; k < 8; k++) o[k] = ic_ew_##OP##_f32(s[k], x[k]);                     \
    }                                                                                      \
  }                                                                                        \
  static void OP##_chan16(float *o, const float *x, const float *s, int64_t hw,            \
                          bool x_first) {                                                  \
    for (int64_t p = 0; p < hw; p++) OP##_chan_p16(o + p * 16, x + p * 16, s, x_first);    \
  }                                                                                        \
  static void OP##_chan8(float *o, const float *x, const float *s, int64_t hw,             \
                         bool x_first) {                                                   \
    for (int64_t p = 0; p < hw; p++) OP##_chan_p8(o + p * 8, x + p * 8, s, x_first);       \
  }

CHAN_LOOPS(add)
CHAN_LOOPS(sub)
CHAN_LOOPS(mul)
CHAN_LOOPS(div)
CHAN_LOOPS(max)
CHAN_LOOPS(min)
CHAN_LOOPS(pow)
CHAN_LOOPS(floordiv)
CHAN_LOOPS(mod)

#define CHAN_ROW(OP) {OP##_chan8, OP##_chan16}
/* [op][block 8, 16] */
static const ew_chan k_chan[IC_EW_N_OPS][2] = {
    [IC_EW_ADD] = CHAN_ROW(add), [IC_EW_SUB] = CHAN_ROW(sub), [IC_EW_MUL] = CHAN_ROW(mul),
    [IC_EW_DIV] = CHAN_ROW(div), [IC_EW_MAX] = CHAN_ROW(max), [IC_EW_MIN] = CHAN_ROW(min),
    [IC_EW_POW] = CHAN_ROW(pow), [IC_EW_FLOORDIV] = CHAN_ROW(floordiv),
    [IC_EW_MOD] = CHAN_ROW(mod),
};

#define ROW(OP, SUF) {OP##_##SUF##_vv, OP##_##SUF##_vs, OP##_##SUF##_sv}
#define OP_ROWS(OP)                                                                       \
  {ROW(OP, f32), ROW(OP, f64), ROW(OP, i32), ROW(OP, i64), ROW(OP, i8), ROW(OP, u8),     \
   ROW(OP, i16)}

/* [op][dtype: f32, f64, i32, i64, i8, u8, i16][vv, vs, sv] */
static const ew_loop k_loops[IC_EW_N_OPS][7][3] = {
    [IC_EW_ADD] = OP_ROWS(add), [IC_EW_SUB] = OP_ROWS(sub), [IC_EW_MUL] = OP_ROWS(mul),
    [IC_EW_DIV] = OP_ROWS(div), [IC_EW_MAX] = OP_ROWS(max), [IC_EW_MIN] = OP_ROWS(min),
    [IC_EW_POW] = OP_ROWS(pow), [IC_EW_FLOORDIV] = OP_ROWS(floordiv),
    [IC_EW_MOD] = OP_ROWS(mod),
};

static int dtype_index(ic_dtype d) {
  switch (d) {
    case IC_FP32: return 0;
    case IC_FP64: return 1;
    case IC_INT32: return 2;
    case IC_INT8: return 4;
    case IC_UINT8: return 5;
    case IC_INT16: return 6;
    default: return 3;
  }
}

static bool has_zero(const ic_tensor *t) {
  int64_t n = ic_numel(t->ndim, t->dims);
  for (int64_t i = 0; i < n; i++) {
    if (ic_read_i64(t, i) == 0) return true;
  }
  return false;
}

static void run_plain(ic_ew_op op, const ic_bcast *bc, const void *x, const void *y, void *out,
                      size_t es, ic_dtype dt, int threads);

/* bool X and Y (elementwise_add and _mul only, as Paddle registers them): a nonzero byte is
 * true, the result is 0 or 1; add is logical or, mul logical and (Paddle computes a + b and
 * a * b on bool, which C's conversion to bool makes exactly these). */
#define BOOL_LOOPS(NAME, EXPR)                                                           \
  static void NAME##_vv(void *o, const void *x, const void *y, int64_t n) {              \
    uint8_t *restrict po = o;                                                            \
    const uint8_t *restrict px = x, *restrict py = y;                                    \
    for (int64_t i = 0; i < n; i++) {                                                    \
      const bool a = px[i] != 0, b = py[i] != 0;                                         \
      po[i] = (uint8_t)(EXPR);                                                           \
    }                                                                                    \
  }                                                                                      \
  static void NAME##_vs(void *o, const void *x, const void *y, int64_t n) {              \
    uint8_t *restrict po = o;                                                            \
    const uint8_t *restrict px = x;                                                      \
    const bool b = *(const uint8_t *)y != 0;                                             \
    for (int64_t i = 0; i < n; i++) {                                                    \
      const bool a = px[i] != 0;                                                         \
      po[i] = (uint8_t)(EXPR);                                                           \
    }                                                                                    \
  }                                                                                      \
  static void NAME##_sv(void *o, const void *x, const void *y, int64_t n) {              \
    uint8_t *restrict po = o;                                                            \
    const uint8_t *restrict py = y;                                                      \
    const bool a = *(const uint8_t *)x != 0;                                             \
    for (int64_t i = 0; i < n; i++) {                                                    \
      const bool b = py[i] != 0;                                                         \
      po[i] = (uint8_t)(EXPR);                                                           \
    }                                                                                    \
  }
BOOL_LOOPS(bool_or, a || b)
BOOL_LOOPS(bool_and, a && b)
static const ew_loop k_bool_or[3] = {bool_or_vv, bool_or_vs, bool_or_sv};
static const ew_loop k_bool_and[3] = {bool_and_vv, bool_and_vs, bool_and_sv};

#define PAR_MIN 65536 /* elements below which one thread does it all */

static int kthreads(const ic_kctx *c) { return ic_omp_threads(c->env); }

static bool same_dims(const ic_tensor *a, const ic_tensor *b) {
  if (a->ndim != b->ndim) return false;
  for (int i = 0; i < a->ndim; i++) {
    if (a->dims[i] != b->dims[i]) return false;
  }
  return true;
}

bool ic_ew_per_channel(const ic_tensor *v, const ic_tensor *out, int64_t axis) {
  const int64_t n = out->dims[0], ch = out->dims[1];
  if (v->ndim == 4) {
    return (v->dims[0] == 1 || v->dims[0] == n) && v->dims[1] == ch && v->dims[2] == 1 &&
           v->dims[3] == 1;
  }
  return v->ndim == 1 && v->dims[0] == ch && axis == 1;
}

/* A blocked X or Y (float32 4-D, tensor.h). Marked by the layout pass (blocked_out), two
 * cases keep the layout: both operands blocked alike with Out's dims (one pass over the
 * buffers: element i of each is the same logical element), or one blocked with Out's dims
 * and the other one value per channel. Otherwise the blocked operands are unpacked into
 * scratch and Out is plain. Each element gets the plain kernel's operation on the same
 * values, so the bits do not depend on the layout. */
static ic_status run_blocked(ic_kctx *c, ic_ew_op op, const ic_bcast *b) {
  const ic_elementwise_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  /* bt: the blocked operand with Out's dims if there is one (a per-channel operand may be
   * blocked too: [N, C, 1, 1] has the plain layout's bytes) */
  const ic_tensor *bt = x->layout != IC_LAYOUT_PLAIN && same_dims(x, out) ? x
                        : y->layout != IC_LAYOUT_PLAIN                    ? y
                                                                          : x;
  const ic_tensor *other = bt == x ? y : x;
  const int lay = bt->layout, blk = ic_layout_block(lay);
  if (a->blocked_out && bt->dtype == IC_FP32 && blk && out->ndim == 4 && same_dims(bt, out)) {
    const int64_t numel = ic_numel(4, out->dims);
    if (other->layout == lay && same_dims(other, out)) {
      /* one flat run over the buffers */
      ic_bcast flat = {.ndim = 1, .out = {numel}, .numel = numel, .n = 1, .dims = {numel},
                       .sx = {1}, .sy = {1}};
      ic_bcast_run(&flat, k_loops[op][0], out->data, x->data, y->data, sizeof(float), kthreads(c));
      out->layout = (uint8_t)lay;
      return IC_OK;
    }
    if (other->layout == IC_LAYOUT_PLAIN || (other->ndim == 4 && other->dims[2] == 1 &&
                                             other->dims[3] == 1)) {
      if (ic_ew_per_channel(other, out, a->axis)) {
        const int64_t n = out->dims[0], ch = out->dims[1], hw = out->dims[2] * out->dims[3];
        const bool per_image = other->ndim == 4 && other->dims[0] == n && n > 1;
        ew_chan fn = k_chan[op][blk == 16];
        const float *src = bt->data, *s0 = other->data;
        float *o = out->data;
        const int64_t planes = n * (ch / blk);
        const int nt = numel >= PAR_MIN ? kthreads(c) : 1;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
        for (int64_t q = 0; q < planes; q++) {
          const int64_t i = q / (ch / blk), cb = q % (ch / blk);
          const size_t off = (size_t)(q * hw * blk);
          fn(o + off, src + off, s0 + (per_image ? i * ch : 0) + cb * blk, hw, bt == x);
        }
        out->layout = (uint8_t)lay;
        return IC_OK;
      }
    }
  }
  /* Unpack: a plain copy of each blocked operand, then the plain loops. */
  size_t nx = x->layout ? (size_t)ic_numel(4, x->dims) : 0;
  size_t ny = y->layout ? (size_t)ic_numel(4, y->dims) : 0;
  ic_buffer *sb = ic_kscratch(c, (nx + ny) * sizeof(float));
  if (!sb) return c->err->code;
  float *px = sb->data, *py = px + nx;
  if (nx) ic_blocked_to_plain(x->data, px, x->dims, ic_layout_block(x->layout));
  if (ny) ic_blocked_to_plain(y->data, py, y->dims, ic_layout_block(y->layout));
  run_plain(op, b, nx ? px : x->data, ny ? py : y->data, out->data, ic_dtype_size(x->dtype),
            x->dtype, kthreads(c));
  out->layout = IC_LAYOUT_PLAIN;
  ic_buffer_release(sb);
  return IC_OK;
}

/* Output elements [begin, end) of the broadcast: from the row holding begin (its X and Y
 * offsets computed from the row's index), each row or part of one through its loop. */
static void bcast_range(const ic_bcast *b, const ic_ew_loop loops[3], char *o, const char *x,
                        const char *y, size_t es, int64_t begin, int64_t end) {
  const int n = b->n;
  const int64_t inner = b->dims[n - 1];
  const bool x_run = b->sx[n - 1] != 0, y_run = b->sy[n - 1] != 0;
  ic_ew_loop fn = loops[!y_run ? 1 : !x_run ? 2 : 0];
  int64_t r = begin / inner, col = begin % inner;
  int64_t idx[IC_MAX_RANK] = {0}, ox = 0, oy = 0;
  for (int d = n - 2; d >= 0; d--) {
    idx[d] = r % b->dims[d];
    r /= b->dims[d];
    ox += idx[d] * b->sx[d];
    oy += idx[d] * b->sy[d];
  }
  while (begin < end) {
    int64_t len = inner - col < end - begin ? inner - col : end - begin;
    fn(o + (size_t)begin * es, x + (size_t)(ox + (x_run ? col : 0)) * es,
       y + (size_t)(oy + (y_run ? col : 0)) * es, len);
    begin += len;
    col = 0;
    ic_bcast_next_row(b, idx, &ox, &oy);
  }
}

void ic_bcast_run(const ic_bcast *b, const ic_ew_loop loops[3], void *out, const void *x,
                  const void *y, size_t es, int threads) {
  int nt = threads > 1 && b->numel >= PAR_MIN ? threads : 1;
  if (nt > 8) nt = 8;
  /* Fixed ranges of whole 64-element blocks: the same split for a given thread count, and
   * each element's value independent of the split anyway. */
  const int64_t chunk = ((b->numel + nt - 1) / nt + 63) / 64 * 64;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int t = 0; t < nt; t++) {
    int64_t lo = (int64_t)t * chunk, hi = lo + chunk < b->numel ? lo + chunk : b->numel;
    if (lo < hi) bcast_range(b, loops, out, x, y, es, lo, hi);
  }
}

static void run_plain(ic_ew_op op, const ic_bcast *bc, const void *x, const void *y, void *out,
                      size_t es, ic_dtype dt, int threads) {
  ic_bcast_run(bc, k_loops[op][dtype_index(dt)], out, x, y, es, threads);
}

ic_status ic_elementwise_run(ic_kctx *c, ic_ew_op op) {
  const ic_elementwise_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  ic_bcast b;
  ic_status st = ic_bcast_plan(c, 0, 1, a->axis, &b);
  if (st || b.numel == 0) return st;
  if (x->dtype == IC_BOOL) {
    if (op != IC_EW_ADD && op != IC_EW_MUL) {
      return ic_kfail(c, IC_ERR_INTERNAL, "%s: bool reached an op without a bool kernel",
                      c->def->name);
    }
    ic_bcast_run(&b, op == IC_EW_ADD ? k_bool_or : k_bool_and, out->data, x->data, y->data, 1,
                 kthreads(c));
    out->layout = IC_LAYOUT_PLAIN;
    return IC_OK;
  }
  if (x->layout != IC_LAYOUT_PLAIN || y->layout != IC_LAYOUT_PLAIN) return run_blocked(c, op, &b);
  bool int_div = (op == IC_EW_DIV || op == IC_EW_FLOORDIV || op == IC_EW_MOD) &&
                 x->dtype != IC_FP32 && x->dtype != IC_FP64;
  if (int_div && has_zero(y)) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                    "input Y '%s' holds a 0: integer division by zero", ic_in_name(c, 1, 0));
  }
  run_plain(op, &b, x->data, y->data, out->data, ic_dtype_size(x->dtype), x->dtype, kthreads(c));
  out->layout = IC_LAYOUT_PLAIN;
  return IC_OK;
}
