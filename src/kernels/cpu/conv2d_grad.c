/* conv2d_grad: the gradients of conv2d (phi ConvGradKernel), for every geometry conv2d
 * accepts (strides, paddings and padding_algorithm, dilations, groups, NCHW or NHWC). With
 * out[n, o, y, x] = sum over the group's channels ci and taps (ky, kx) of
 * in[n, ci, y sh - pt + ky dh, x sw - pl + kx dw] * filter[o, ci, ky, kx]:
 *   Input@GRAD[n, ci, iy, ix]  = sum of Output@GRAD[n, o, y, x] * filter[o, ci, ky, kx],
 *   Filter@GRAD[o, ci, ky, kx] = sum of Output@GRAD[n, o, y, x] * in[n, ci, iy, ix],
 * over the (y, x, ky, kx) that meet at (iy, ix) inside the input. Each output is optional.
 *
 * NCHW (float32 and float64) is computed as Paddle's CPU kernel computes it, per image and
 * group with the im2col matrix col [cpg * KH * KW, OH * OW] of the input (the input itself
 * for a 1 x 1, stride 1, unpadded convolution):
 *   Filter@GRAD_g += Output@GRAD_g [opg, OH * OW] col^T   (one GEMM per image, in order),
 *   col' = Filter_g^T Output@GRAD_g, added back into Input@GRAD by col2im;
 * the GEMMs (gemm.h) split their work by shape alone, so the sums do not depend on the
 * thread count. NHWC takes the direct loops, summing in double and rounding once.
 * depthwise_conv2d_grad shares this code. */
#include <string.h>

#include "kernels/cpu/conv.h"
#include "kernels/cpu/gemm.h"
#include "kernels/cpu/train.h"

enum { IN_INPUT, IN_FILTER, IN_DOUT };

const ic_slotdef ic_conv_grad_inputs[3] = {{"Input", 0}, {"Filter", 0}, {"Output@GRAD", 0}};
const ic_slotdef ic_conv_grad_outputs[2] = {
    {"Input@GRAD", IC_SLOT_OPTIONAL},
    {"Filter@GRAD", IC_SLOT_OPTIONAL},
};

ic_status ic_conv_grad_infer(ic_kctx *c) {
  const ic_conv_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *f = ic_in(c, IN_FILTER, 0),
                  *g = ic_in(c, IN_DOUT, 0);
  if (a->act != IC_ACT_NONE || a->residual) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "fused activations and residuals have no gradient");
  }
  ic_conv_geom geo;
  ic_status st = ic_conv_geometry(c, &geo);
  if (st) return st;
  int64_t want[4] = {geo.n, a->nhwc ? geo.oh : geo.oc, a->nhwc ? geo.ow : geo.oh,
                     a->nhwc ? geo.oc : geo.ow};
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, 4, want)) {
    char d[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s%s, the convolution's output",
                       ic_dtype_name(x->dtype), ic_dims_str(4, want, d, sizeof d));
  }
  ic_tensor *dx = ic_out(c, 0, 0), *df = ic_out(c, 1, 0);
  if (dx) ic_tensor_set_meta(dx, x->dtype, x->ndim, x->dims);
  if (df) ic_tensor_set_meta(df, f->dtype, f->ndim, f->dims);
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}

#define DEFINE_COL(T)                                                                         \
  /* col[(ci * KH + ky) * KW + kx][y * OW + x] of the cpg channels at xs (0 outside) */         \
  static void im2col_##T(const T *xs, T *col, const ic_conv_geom *q, int64_t cpg) {             \
    for (int64_t ci = 0; ci < cpg; ci++)                                                        \
      for (int64_t ky = 0; ky < q->kh; ky++)                                                    \
        for (int64_t kx = 0; kx < q->kw; kx++)                                                  \
          for (int64_t y = 0; y < q->oh; y++) {                                                 \
            const int64_t iy = y * q->sh - q->pt + ky * q->dh;                                  \
            for (int64_t x = 0; x < q->ow; x++) {                                               \
              const int64_t ix = x * q->sw - q->pl + kx * q->dw;                                \
              *col++ = iy >= 0 && iy < q->h && ix >= 0 && ix < q->w                             \
                           ? xs[(ci * q->h + iy) * q->w + ix] : (T)0;                           \
            }                                                                                   \
          }                                                                                     \
  }                                                                                             \
  /* the inverse: each col entry added into the input element it was read from */             \
  static void col2im_##T(const T *col, T *xs, const ic_conv_geom *q, int64_t cpg) {             \
    for (int64_t ci = 0; ci < cpg; ci++)                                                        \
      for (int64_t ky = 0; ky < q->kh; ky++)                                                    \
        for (int64_t kx = 0; kx < q->kw; kx++)                                                  \
          for (int64_t y = 0; y < q->oh; y++) {                                                 \
            const int64_t iy = y * q->sh - q->pt + ky * q->dh;                                  \
            for (int64_t x = 0; x < q->ow; x++, col++) {                                        \
              const int64_t ix = x * q->sw - q->pl + kx * q->dw;                                \
              if (iy >= 0 && iy < q->h && ix >= 0 && ix < q->w) {                               \
                xs[(ci * q->h + iy) * q->w + ix] += *col;                                       \
              }                                                                                 \
            }                                                                                   \
          }                                                                                     \
  }
DEFINE_COL(float)
DEFINE_COL(double)

/* NCHW by im2col and GEMM (see the top of the file). */
static ic_status grad_gemm(ic_kctx *c, const ic_conv_geom *q) {
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *f = ic_in(c, IN_FILTER, 0),
                  *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *df = ic_out(c, 1, 0);
  const bool f64 = x->dtype == IC_FP64;
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t cpg = q->c / q->g, opg = q->oc / q->g, K = cpg * q->kh * q->kw;
  const int64_t HW = q->h * q->w, OHW = q->oh * q->ow;
  const bool direct = q->kh == 1 && q->kw == 1 && q->sh == 1 && q->sw == 1 && q->pt == 0 &&
                      q->pb == 0 && q->pl == 0 && q->pr == 0; /* col is the input itself */
  ic_gemm gw = {.dtype = x->dtype, .trans_b = true, .m = opg, .n = K, .k = OHW, .lda = OHW,
                .ldb = OHW, .ldc = K, .alpha = 1.0};
  ic_gemm gx = {.dtype = x->dtype, .trans_a = true, .m = K, .n = OHW, .k = opg, .lda = K,
                .ldb = OHW, .ldc = OHW, .alpha = 1.0, .beta = 0.0};
  ic_status st;
  if ((st = ic_gemm_check(c, &gw)) || (st = ic_gemm_check(c, &gx))) return st;
  const size_t n_col = direct ? 0 : (size_t)(K * OHW);
  ic_buffer *b = ic_kscratch(c, (2 * n_col + 1) * es);
  if (!b) return c->err->code;
  char *col = b->data, *colg = col + n_col * es;
  if (dx) memset(dx->data, 0, (size_t)ic_tensor_numel_(dx) * es);
  ic_kernel_threads(c);
  for (int64_t n = 0; n < q->n; n++) {
    for (int64_t gi = 0; gi < q->g; gi++) {
      const char *xs = (const char *)x->data + (size_t)((n * q->c + gi * cpg) * HW) * es;
      const char *gs = (const char *)g->data + (size_t)((n * q->oc + gi * opg) * OHW) * es;
      if (df) {
        const char *cm = xs;
        if (!direct) {
          if (f64) im2col_double((const double *)xs, (double *)col, q, cpg);
          else im2col_float((const float *)xs, (float *)col, q, cpg);
          cm = col;
        }
        gw.beta = n == 0 ? 0.0 : 1.0;
        ic_gemm_run(c, &gw, gs, cm, (char *)df->data + (size_t)(gi * opg * K) * es);
      }
      if (dx) {
        char *xg = (char *)dx->data + (size_t)((n * q->c + gi * cpg) * HW) * es;
        const char *fg = (const char *)f->data + (size_t)(gi * opg * K) * es;
        if (direct) {
          ic_gemm_run(c, &gx, fg, gs, xg); /* col2im of the identity: straight in */
        } else {
          ic_gemm_run(c, &gx, fg, gs, colg);
          if (f64) col2im_double((const double *)colg, (double *)xg, q, cpg);
          else col2im_float((const float *)colg, (float *)xg, q, cpg);
        }
      }
    }
  }
  if (df && q->n == 0) memset(df->data, 0, (size_t)ic_tensor_numel_(df) * es);
  ic_buffer_release(b);
  return IC_OK;
}

ic_status ic_conv_grad_run(ic_kctx *c) {
  const ic_conv_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *f = ic_in(c, IN_FILTER, 0),
                  *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *df = ic_out(c, 1, 0);
  ic_conv_geom q;
  ic_status st = ic_conv_geometry(c, &q);
  if (st) return st;
  if (!a->nhwc) return grad_gemm(c, &q);
  int64_t nx = ic_tensor_numel_(x), nf = ic_tensor_numel_(f);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + nf + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *ax = s->data, *af = ax + nx;
  memset(ax, 0, (size_t)(nx + nf) * sizeof(double));
  const int64_t cpg = q.c / q.g, opg = q.oc / q.g;
  for (int64_t n = 0; n < q.n; n++) {
    for (int64_t o = 0; o < q.oc; o++) {
      const int64_t grp = o / opg;
      for (int64_t y = 0; y < q.oh; y++) {
        for (int64_t xo = 0; xo < q.ow; xo++) {
          const int64_t ge = a->nhwc ? ((n * q.oh + y) * q.ow + xo) * q.oc + o
                                     : ((n * q.oc + o) * q.oh + y) * q.ow + xo;
          const double gv = get(g, ge);
          if (gv == 0) continue;
          for (int64_t ci = 0; ci < cpg; ci++) {
            const int64_t ch = grp * cpg + ci;
            for (int64_t ky = 0; ky < q.kh; ky++) {
              const int64_t iy = y * q.sh - q.pt + ky * q.dh;
              if (iy < 0 || iy >= q.h) continue;
              for (int64_t kx = 0; kx < q.kw; kx++) {
                const int64_t ix = xo * q.sw - q.pl + kx * q.dw;
                if (ix < 0 || ix >= q.w) continue;
                const int64_t xe = a->nhwc ? ((n * q.h + iy) * q.w + ix) * q.c + ch
                                           : ((n * q.c + ch) * q.h + iy) * q.w + ix;
                const int64_t fe = ((o * cpg + ci) * q.kh + ky) * q.kw + kx;
                if (dx) ax[xe] += gv * get(f, fe);
                if (df) af[fe] += gv * get(x, xe);
              }
            }
          }
        }
      }
    }
  }
  if (dx) ic_store_acc(dx, ax);
  if (df) ic_store_acc(df, af);
  ic_buffer_release(s);
  return IC_OK;
}

const ic_opdef ic_op_conv2d_grad = {
    .name = "conv2d_grad",
    .n_inputs = 3, .inputs = ic_conv_grad_inputs,
    .n_outputs = 2, .outputs = ic_conv_grad_outputs,
    .attrs_size = sizeof(ic_conv_attrs), .parse = ic_conv_parse,
    .infer = ic_conv_grad_infer, .cpu = ic_conv_grad_run,
};
