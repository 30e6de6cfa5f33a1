/* conv2d_transpose_grad: the gradients of conv2d_transpose (phi ConvTransposeGradKernel), for
 * every geometry the forward accepts (conv_transpose.c: strides, paddings and
 * padding_algorithm, dilations, groups, output_padding / output_size, NCHW or NHWC). With
 *   Output[n, g*og + o, y*sh - pt + ky*dh, x*sw - pl + kx*dw] +=
 *       Input[n, g*cg + i, y, x] * Filter[g*cg + i, o, ky, kx]
 * the gradients are the mirror of conv2d_grad's:
 *   Input@GRAD[n, ch, y, x]   = sum over (o, ky, kx) of Output@GRAD[n, g*og + o, oy, ox] *
 *                               Filter[ch, o, ky, kx]   (a forward conv2d of Output@GRAD),
 *   Filter@GRAD[ch, o, ky, kx] = sum over (n, y, x) of Output@GRAD[n, g*og + o, oy, ox] *
 *                               Input[n, ch, y, x],
 * over the taps whose output pixel (oy, ox) lies inside the output. Paddle's programs add a
 * bias with a separate elementwise_add; the Bias slot (empty there) is accepted and has no
 * gradient here. Each output is optional; sums run in double and are rounded once.
 * depthwise_conv2d_transpose_grad shares this code. */
#include <string.h>

#include "kernels/cpu/conv_transpose.h"

enum { IN_INPUT = IC_CONVT_INPUT, IN_FILTER = IC_CONVT_FILTER, IN_DOUT = 3 };

const ic_slotdef ic_convt_grad_inputs[4] = {
    {"Input", 0}, {"Filter", 0}, {"Bias", IC_SLOT_OPTIONAL}, {"Output@GRAD", 0}};
const ic_slotdef ic_convt_grad_outputs[2] = {
    {"Input@GRAD", IC_SLOT_OPTIONAL},
    {"Filter@GRAD", IC_SLOT_OPTIONAL},
};

ic_status ic_convt_grad_infer(ic_kctx *c) {
  const ic_convt_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *f = ic_in(c, IN_FILTER, 0),
                  *g = ic_in(c, IN_DOUT, 0);
  ic_convt_geom q;
  ic_status st = ic_convt_geometry(c, &q);
  if (st) return st;
  int64_t want[4] = {q.n, a->nhwc ? q.oh : q.oc, a->nhwc ? q.ow : q.oh, a->nhwc ? q.oc : q.ow};
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, 4, want)) {
    char d[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s%s, the transposed convolution's output",
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

ic_status ic_convt_grad_run(ic_kctx *c) {
  const ic_convt_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *f = ic_in(c, IN_FILTER, 0),
                  *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *df = ic_out(c, 1, 0);
  ic_convt_geom q;
  ic_status st = ic_convt_geometry(c, &q);
  if (st) return st;
  int64_t nx = ic_tensor_numel_(x), nf = ic_tensor_numel_(f);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + nf + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *ax = s->data, *af = ax + nx;
  memset(ax, 0, (size_t)(nx + nf) * sizeof(double));
  const int64_t cg = q.c / q.g;
  for (int64_t n = 0; n < q.n; n++) {
    for (int64_t ch = 0; ch < q.c; ch++) {
      const int64_t grp = ch / cg;
      for (int64_t y = 0; y < q.h; y++) {
        for (int64_t xi = 0; xi < q.w; xi++) {
          const int64_t xe = a->nhwc ? ((n * q.h + y) * q.w + xi) * q.c + ch
                                     : ((n * q.c + ch) * q.h + y) * q.w + xi;
          const double xv = get(x, xe);
          double acc = 0;
          for (int64_t o = 0; o < q.og; o++) {
            const int64_t oc = grp * q.og + o;
            for (int64_t ky = 0; ky < q.kh; ky++) {
              const int64_t oy = y * q.sh - q.pt + ky * q.dh;
              if (oy < 0 || oy >= q.oh) continue;
              for (int64_t kx = 0; kx < q.kw; kx++) {
                const int64_t ox = xi * q.sw - q.pl + kx * q.dw;
                if (ox < 0 || ox >= q.ow) continue;
                const int64_t ge = a->nhwc ? ((n * q.oh + oy) * q.ow + ox) * q.oc + oc
                                           : ((n * q.oc + oc) * q.oh + oy) * q.ow + ox;
                const int64_t fe = ((ch * q.og + o) * q.kh + ky) * q.kw + kx;
                const double gv = get(g, ge);
                acc += gv * get(f, fe);
                if (df) af[fe] += gv * xv;
              }
            }
          }
          ax[xe] = acc;
        }
      }
    }
  }
  if (dx) ic_store_acc(dx, ax);
  if (df) ic_store_acc(df, af);
  ic_buffer_release(s);
  return IC_OK;
}

const ic_opdef ic_op_conv2d_transpose_grad = IC_CONVT_GRAD_DEF("conv2d_transpose_grad");
