/* lp_pool2d_grad: the gradient of lp_pool2d (phi LPPool2dGradKernel -> PoolGradRawKernel:
 * Pool2dGradFunctor with funcs::LPPoolGrad), over lp_pool2d's windows: x@GRAD = 0, then for
 * each window (in out's order) and each input element e of it, x@GRAD[e] += (T)(double(g) *
 * powf((float)(double(x) / double(out)), p - 1)), accumulated in the element type as Paddle
 * does. norm_type +inf is max pooling's gradient (MaxPool2dGradFunctor): g goes to the first
 * element of the window (in row order) equal to out. float32 and float64. Slots out,
 * out@GRAD, x -> x@GRAD as Paddle 3.3.1 writes them. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/lp_pool2d.h"

enum { IN_X, IN_OUT, IN_DOUT }; /* x first: ic_pool_geometry reads input 0 */

static ic_status infer(ic_kctx *c) {
  const lp_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_pool_geom q;
  ic_status st = ic_pool_geometry(c, &q);
  if (st) return st;
  int64_t want[4] = {q.n, a->p.nhwc ? q.oh : q.c, a->p.nhwc ? q.ow : q.oh,
                     a->p.nhwc ? q.c : q.ow};
  for (int s = IN_OUT; s <= IN_DOUT; s++) {
    const ic_tensor *t = ic_in(c, (size_t)s, 0);
    if (t->dtype != x->dtype || !ic_dims_equal(t->ndim, t->dims, 4, want)) {
      char d[128];
      return ic_kfail_in(c, (size_t)s, 0, "expected %s%s, the pooling's output",
                         ic_dtype_name(x->dtype), ic_dims_str(4, want, d, sizeof d));
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define LPG_LOOPS(NAME, T)                                                                 \
  static void NAME(const lp_attrs *a, const ic_pool_geom *q, const T *x, const T *y,       \
                   const T *g, T *dx) {                                                    \
    const bool max = a->p.max, adaptive = a->p.adaptive && !max, nhwc = a->p.nhwc;         \
    const float pm1 = a->norm - 1.0f;                                                      \
    const int64_t H = q->h, W = q->w, C = q->c;                                            \
    for (int64_t n = 0; n < q->n; n++) {                                                   \
      for (int64_t ch = 0; ch < C; ch++) {                                                 \
        for (int64_t ph = 0; ph < q->oh; ph++) {                                           \
          for (int64_t pw = 0; pw < q->ow; pw++) {                                         \
            int64_t hs, he, ws, we;                                                        \
            if (adaptive) {                                                                \
              hs = ph * H / q->oh;                                                         \
              he = ((ph + 1) * H + q->oh - 1) / q->oh;                                     \
              ws = pw * W / q->ow;                                                         \
              we = ((pw + 1) * W + q->ow - 1) / q->ow;                                     \
            } else {                                                                       \
              hs = ph * q->sh - q->pt;                                                     \
              ws = pw * q->sw - q->pl;                                                     \
              he = hs + q->kh < H + q->pt ? hs + q->kh : H + q->pt;                        \
              we = ws + q->kw < W + q->pl ? ws + q->kw : W + q->pl;                        \
              if (hs < 0) hs = 0;                                                          \
              if (ws < 0) ws = 0;                                                          \
              if (he > H) he = H;                                                          \
              if (we > W) we = W;                                                          \
            }                                                                              \
            const int64_t oe = nhwc ? ((n * q->oh + ph) * q->ow + pw) * C + ch             \
                                    : ((n * C + ch) * q->oh + ph) * q->ow + pw;            \
            const T yv = y[oe], gv = g[oe];                                                \
            bool done = false;                                                             \
            for (int64_t ih = hs; ih < he && !done; ih++) {                                \
              for (int64_t iw = ws; iw < we && !done; iw++) {                              \
                const int64_t xe = nhwc ? ((n * H + ih) * W + iw) * C + ch                 \
                                        : ((n * C + ch) * H + ih) * W + iw;                \
                if (max) {                                                                 \
                  if (x[xe] == yv) {                                                       \
                    dx[xe] += gv;                                                          \
                    done = true;                                                           \
                  }                                                                        \
                } else {                                                                   \
                  dx[xe] += (T)((double)gv *                                               \
                                powf((float)((double)x[xe] / (double)yv), pm1));           \
                }                                                                          \
              }                                                                            \
            }                                                                              \
          }                                                                                \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
  }
LPG_LOOPS(lpg_f32, float)
LPG_LOOPS(lpg_f64, double)

static ic_status run(ic_kctx *c) {
  const lp_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_OUT, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_pool_geom q;
  ic_status st = ic_pool_geometry(c, &q);
  if (st) return st;
  memset(dx->data, 0, ic_dtype_size(x->dtype) * (size_t)ic_numel(x->ndim, x->dims));
  if (x->dtype == IC_FP32) lpg_f32(a, &q, x->data, y->data, g->data, dx->data);
  else lpg_f64(a, &q, x->data, y->data, g->data, dx->data);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"x", 0}, {"out", 0}, {"out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"x@GRAD", 0}};

const ic_opdef ic_op_lp_pool2d_grad = {
    .name = "lp_pool2d_grad", .n_inputs = 3, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(lp_attrs), .parse = ic_lp_pool2d_parse,
    .infer = infer, .cpu = run,
};
