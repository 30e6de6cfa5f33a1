/* conv3d_grad: the gradients of conv3d (phi Conv3DGradKernel), for every geometry conv3d
 * accepts (strides, 3 or 6 paddings and padding_algorithm, dilations, groups, NCDHW or
 * NDHWC), conv2d_grad.c's rule with a depth axis. With
 *   out[n, o, z, y, x] = sum over the group's channels ci and taps t = (kd, kh, kw) of
 *       in[n, ci, z sd - pf + kd dd, y sh - pt + kh dh, x sw - pl + kw dw] * filter[o, ci, t]:
 *   Input@GRAD[n, ci, iz, iy, ix] = sum of Output@GRAD[n, o, z, y, x] * filter[o, ci, t],
 *   Filter@GRAD[o, ci, t] = sum of Output@GRAD[n, o, z, y, x] * in[n, ci, iz, iy, ix],
 * over the taps that land inside the input. Each output is optional; sums run in double and
 * are rounded once. */
#include <string.h>

#include "kernels/cpu/conv3d.h"

enum { IN_INPUT, IN_FILTER, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_conv3d_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *f = ic_in(c, IN_FILTER, 0),
                  *g = ic_in(c, IN_DOUT, 0);
  ic_conv3d_geom q;
  ic_status st = ic_conv3d_geometry(c, &q);
  if (st) return st;
  int64_t want[5] = {q.n, q.oc, q.out[0], q.out[1], q.out[2]};
  if (a->ndhwc) want[1] = q.out[0], want[2] = q.out[1], want[3] = q.out[2], want[4] = q.oc;
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, 5, want)) {
    char d[160];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s%s, the convolution's output",
                       ic_dtype_name(x->dtype), ic_dims_str(5, want, d, sizeof d));
  }
  ic_tensor *dx = ic_out(c, 0, 0), *df = ic_out(c, 1, 0);
  if (dx) ic_tensor_set_meta(dx, x->dtype, x->ndim, x->dims);
  if (df) ic_tensor_set_meta(df, f->dtype, f->ndim, f->dims);
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}

static ic_status run(ic_kctx *c) {
  const ic_conv3d_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *f = ic_in(c, IN_FILTER, 0),
                  *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *df = ic_out(c, 1, 0);
  ic_conv3d_geom q;
  ic_status st = ic_conv3d_geometry(c, &q);
  if (st) return st;
  int64_t nx = ic_tensor_numel_(x), nf = ic_tensor_numel_(f);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + nf + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *ax = s->data, *af = ax + nx;
  memset(ax, 0, (size_t)(nx + nf) * sizeof(double));
  const int64_t C = q.c, D = q.in[0], H = q.in[1], W = q.in[2];
  const int64_t OD = q.out[0], OH = q.out[1], OW = q.out[2];
  const int64_t cpg = q.c / q.g, opg = q.oc / q.g;
  for (int64_t n = 0; n < q.n; n++) {
    for (int64_t o = 0; o < q.oc; o++) {
      const int64_t grp = o / opg;
      for (int64_t z = 0; z < OD; z++) {
        for (int64_t y = 0; y < OH; y++) {
          for (int64_t xo = 0; xo < OW; xo++) {
            const int64_t ge = a->ndhwc ? (((n * OD + z) * OH + y) * OW + xo) * q.oc + o
                                        : (((n * q.oc + o) * OD + z) * OH + y) * OW + xo;
            const double gv = get(g, ge);
            if (gv == 0) continue;
            for (int64_t ci = 0; ci < cpg; ci++) {
              const int64_t ch = grp * cpg + ci;
              for (int64_t kd = 0; kd < q.k[0]; kd++) {
                const int64_t iz = z * q.s[0] - q.p[0] + kd * q.d[0];
                if (iz < 0 || iz >= D) continue;
                for (int64_t kh = 0; kh < q.k[1]; kh++) {
                  const int64_t iy = y * q.s[1] - q.p[2] + kh * q.d[1];
                  if (iy < 0 || iy >= H) continue;
                  for (int64_t kw = 0; kw < q.k[2]; kw++) {
                    const int64_t ix = xo * q.s[2] - q.p[4] + kw * q.d[2];
                    if (ix < 0 || ix >= W) continue;
                    const int64_t xe = a->ndhwc ? (((n * D + iz) * H + iy) * W + ix) * C + ch
                                                : (((n * C + ch) * D + iz) * H + iy) * W + ix;
                    const int64_t fe =
                        (((o * cpg + ci) * q.k[0] + kd) * q.k[1] + kh) * q.k[2] + kw;
                    if (dx) ax[xe] += gv * get(f, fe);
                    if (df) af[fe] += gv * get(x, xe);
                  }
                }
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

static const ic_slotdef inputs[] = {{"Input", 0}, {"Filter", 0}, {"Output@GRAD", 0}};
static const ic_slotdef outputs[] = {{"Input@GRAD", IC_SLOT_OPTIONAL},
                                     {"Filter@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_conv3d_grad = {
    .name = "conv3d_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(ic_conv3d_attrs), .parse = ic_conv3d_parse,
    .infer = infer, .cpu = run,
};
