/* pool3d_grad: the gradient of pool3d (phi Pool3dGradKernel, Paddle's CPU loops), over the
 * same windows as pool3d.c (paddings, padding_algorithm, ceil_mode, global_pooling, adaptive
 * avg, NCDHW or NDHWC), as pool2d_grad.c does in 2-D:
 *   max: each window's Out@GRAD goes to the first element of the window (depth, then row,
 *        then column order) equal to the window's Out, as Paddle's MaxPool3dGrad does;
 *   avg: each window's Out@GRAD / size goes to every element of the window, size counted as
 *        the forward divided (exclusive or not).
 * Contributions of overlapping windows add up, in double, rounded once. */
#include <string.h>

#include "kernels/cpu/pool3d.h"

enum { IN_X, IN_OUT, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_pool3d_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_pool3d_geom q;
  ic_status st = ic_pool3d_geometry(c, &q);
  if (st) return st;
  int64_t want[5] = {q.n, q.c, q.out[0], q.out[1], q.out[2]};
  if (a->ndhwc) want[1] = q.out[0], want[2] = q.out[1], want[3] = q.out[2], want[4] = q.c;
  for (int s = IN_OUT; s <= IN_DOUT; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != x->dtype || !ic_dims_equal(t->ndim, t->dims, 5, want)) {
      char d[160];
      return ic_kfail_in(c, s, 0, "expected %s%s, the pooling's output", ic_dtype_name(x->dtype),
                         ic_dims_str(5, want, d, sizeof d));
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}

static ic_status run(ic_kctx *c) {
  const ic_pool3d_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *o = ic_in(c, IN_OUT, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_pool3d_geom q;
  ic_status st = ic_pool3d_geometry(c, &q);
  if (st) return st;
  const int64_t D = q.in[0], H = q.in[1], W = q.in[2], C = q.c;
  const int64_t OD = q.out[0], OH = q.out[1], OW = q.out[2], nx = ic_tensor_numel_(x);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *acc = s->data;
  memset(acc, 0, (size_t)nx * sizeof(double));
  const bool adaptive = a->adaptive && !a->max; /* as the forward (pool3d.c) */
#define XI(n, ch, id, ih, iw)                                   \
  (a->ndhwc ? ((((n) * D + (id)) * H + (ih)) * W + (iw)) * C + (ch) \
            : ((((n) * C + (ch)) * D + (id)) * H + (ih)) * W + (iw))
  for (int64_t n = 0; n < q.n; n++) {
    for (int64_t ch = 0; ch < C; ch++) {
      for (int64_t od = 0; od < OD; od++) {
        for (int64_t oh = 0; oh < OH; oh++) {
          for (int64_t ow = 0; ow < OW; ow++) {
            int64_t d0, d1, fd, h0, h1, fh, w0, w1, fw;
            ic_pool3d_window(&q, 0, od, adaptive, &d0, &d1, &fd);
            ic_pool3d_window(&q, 1, oh, adaptive, &h0, &h1, &fh);
            ic_pool3d_window(&q, 2, ow, adaptive, &w0, &w1, &fw);
            const int64_t size = adaptive || (!a->max && !a->exclusive)
                                     ? fd * fh * fw
                                     : (d1 - d0) * (h1 - h0) * (w1 - w0);
            const int64_t oe = a->ndhwc ? (((n * OD + od) * OH + oh) * OW + ow) * C + ch
                                        : (((n * C + ch) * OD + od) * OH + oh) * OW + ow;
            const double gv = get(g, oe);
            if (a->max) {
              const double ov = get(o, oe);
              bool done = false;
              for (int64_t id = d0; id < d1 && !done; id++) {
                for (int64_t ih = h0; ih < h1 && !done; ih++) {
                  for (int64_t iw = w0; iw < w1 && !done; iw++) {
                    const int64_t xe = XI(n, ch, id, ih, iw);
                    if (get(x, xe) == ov) {
                      acc[xe] += gv;
                      done = true;
                    }
                  }
                }
              }
            } else if (size > 0) {
              const double share = gv / (double)size;
              for (int64_t id = d0; id < d1; id++) {
                for (int64_t ih = h0; ih < h1; ih++) {
                  for (int64_t iw = w0; iw < w1; iw++) acc[XI(n, ch, id, ih, iw)] += share;
                }
              }
            }
          }
        }
      }
    }
  }
#undef XI
  if (dx->dtype == IC_FP32) {
    float *p = dx->data;
    for (int64_t i = 0; i < nx; i++) p[i] = (float)acc[i];
  } else {
    memcpy(dx->data, acc, (size_t)nx * sizeof(double));
  }
  ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Out", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_pool3d_grad = {
    .name = "pool3d_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_pool3d_attrs), .parse = ic_pool3d_parse,
    .infer = infer, .cpu = run,
};
