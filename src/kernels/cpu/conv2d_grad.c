/* conv2d_grad: the gradients of conv2d (phi ConvGradKernel), for every geometry conv2d
 * accepts (strides, paddings and padding_algorithm, dilations, groups, NCHW or NHWC). With
 * out[n, o, y, x] = sum over the group's channels ci and taps (ky, kx) of
 * in[n, ci, y sh - pt + ky dh, x sw - pl + kx dw] * filter[o, ci, ky, kx]:
 *   Input@GRAD[n, ci, iy, ix]  = sum of Output@GRAD[n, o, y, x] * filter[o, ci, ky, kx],
 *   Filter@GRAD[o, ci, ky, kx] = sum of Output@GRAD[n, o, y, x] * in[n, ci, iy, ix],
 * over the (y, x, ky, kx) that meet at (iy, ix) inside the input. Each output is optional;
 * sums run in double and are rounded once. depthwise_conv2d_grad shares this code. */
#include <string.h>

#include "kernels/cpu/conv.h"
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

ic_status ic_conv_grad_run(ic_kctx *c) {
  const ic_conv_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *f = ic_in(c, IN_FILTER, 0),
                  *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *df = ic_out(c, 1, 0);
  ic_conv_geom q;
  ic_status st = ic_conv_geometry(c, &q);
  if (st) return st;
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
