/* conv3d_transpose_grad: the gradients of conv3d_transpose (phi Conv3DTransposeGradKernel,
 * ConvTransposeGradKernel's 3-D case), for every geometry the forward accepts
 * (conv3d_transpose.c: strides, 3 or 6 paddings and padding_algorithm SAME / VALID,
 * dilations, groups, output_padding / output_size, NCDHW or NDHWC). With
 *   Output[n, g*og + o, z*sd - pf + kd*dd, y*sh - pt + kh*dh, x*sw - pl + kw*dw] +=
 *       Input[n, g*cg + i, z, y, x] * Filter[g*cg + i, o, kd, kh, kw]
 * the gradients, over the taps whose output voxel lies inside the output, are
 *   Input@GRAD[n, ch, z, y, x] = sum over (o, kd, kh, kw) of Output@GRAD[n, g*og + o, voxel]
 *                                * Filter[ch, o, kd, kh, kw]   (a forward conv3d),
 *   Filter@GRAD[ch, o, kd, kh, kw] = sum over (n, z, y, x) of Output@GRAD[n, g*og + o, voxel]
 *                                * Input[n, ch, z, y, x].
 * Each output is optional; sums run in double and are rounded once. float32, float64. */
#include <string.h>

#include "kernels/cpu/conv3d_transpose.h"

enum { IN_INPUT, IN_FILTER, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_c3t_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *f = ic_in(c, IN_FILTER, 0),
                  *g = ic_in(c, IN_DOUT, 0);
  ic_c3t_geom q;
  ic_status st = ic_c3t_geometry(c, &q);
  if (st) return st;
  int64_t want[5] = {q.n, q.oc, q.out[0], q.out[1], q.out[2]};
  if (a->ndhwc) want[1] = q.out[0], want[2] = q.out[1], want[3] = q.out[2], want[4] = q.oc;
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, 5, want)) {
    char d[160];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s%s, the transposed convolution's output",
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
  const ic_c3t_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *f = ic_in(c, IN_FILTER, 0),
                  *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *df = ic_out(c, 1, 0);
  ic_c3t_geom q;
  ic_status st = ic_c3t_geometry(c, &q);
  if (st) return st;
  const int64_t nx = ic_tensor_numel_(x), nf = ic_tensor_numel_(f);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + nf + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *ax = s->data, *af = ax + nx;
  memset(ax, 0, (size_t)(nx + nf) * sizeof(double));
  const int64_t C = q.c, D = q.in[0], H = q.in[1], W = q.in[2];
  const int64_t OD = q.out[0], OH = q.out[1], OW = q.out[2], OC = q.oc;
  const int64_t cg = q.c / q.g;
  for (int64_t n = 0; n < q.n; n++) {
    for (int64_t ch = 0; ch < C; ch++) {
      const int64_t grp = ch / cg;
      for (int64_t z = 0; z < D; z++) {
        for (int64_t y = 0; y < H; y++) {
          for (int64_t xi = 0; xi < W; xi++) {
            const int64_t xe = a->ndhwc ? (((n * D + z) * H + y) * W + xi) * C + ch
                                        : (((n * C + ch) * D + z) * H + y) * W + xi;
            const double xv = get(x, xe);
            double acc = 0;
            for (int64_t o = 0; o < q.og; o++) {
              const int64_t oc = grp * q.og + o;
              for (int64_t kd = 0; kd < q.k[0]; kd++) {
                const int64_t oz = z * q.s[0] - q.p[0] + kd * q.d[0];
                if (oz < 0 || oz >= OD) continue;
                for (int64_t kh = 0; kh < q.k[1]; kh++) {
                  const int64_t oy = y * q.s[1] - q.p[2] + kh * q.d[1];
                  if (oy < 0 || oy >= OH) continue;
                  for (int64_t kw = 0; kw < q.k[2]; kw++) {
                    const int64_t ox = xi * q.s[2] - q.p[4] + kw * q.d[2];
                    if (ox < 0 || ox >= OW) continue;
                    const int64_t ge = a->ndhwc
                                           ? (((n * OD + oz) * OH + oy) * OW + ox) * OC + oc
                                           : (((n * OC + oc) * OD + oz) * OH + oy) * OW + ox;
                    const int64_t fe =
                        (((ch * q.og + o) * q.k[0] + kd) * q.k[1] + kh) * q.k[2] + kw;
                    const double gv = get(g, ge);
                    acc += gv * get(f, fe);
                    if (df) af[fe] += gv * xv;
                  }
                }
              }
            }
            ax[xe] = acc;
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

const ic_opdef ic_op_conv3d_transpose_grad = {
    .name = "conv3d_transpose_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(ic_c3t_attrs), .parse = ic_c3t_parse,
    .infer = infer, .cpu = run,
};
