/* pool2d_grad: the gradient of pool2d (phi Pool2dGradKernel, Paddle's CPU loops), over the
 * same windows as pool2d.c (paddings, padding_algorithm, ceil_mode, global_pooling, adaptive
 * avg, NCHW or NHWC):
 *   max: each window's Out@GRAD goes to the first element of the window (in row order)
 *        equal to the window's Out, as Paddle's MaxPool2dGrad does;
 *   avg: each window's Out@GRAD / size goes to every element of the window, size counted as
 *        the forward divided (exclusive or not).
 * Contributions of overlapping windows add up. */
#include <string.h>

#include "kernels/cpu/pool2d.h"
#include "kernels/cpu/train.h"

enum { IN_X, IN_OUT, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const pool_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *o = ic_in(c, IN_OUT, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_pool_geom q;
  ic_status st = ic_pool_geometry(c, &q);
  if (st) return st;
  int64_t want[4] = {q.n, a->nhwc ? q.oh : q.c, a->nhwc ? q.ow : q.oh, a->nhwc ? q.c : q.ow};
  for (int s = IN_OUT; s <= IN_DOUT; s++) {
    const ic_tensor *t = s == IN_OUT ? o : g;
    if (t->dtype != x->dtype || !ic_dims_equal(t->ndim, t->dims, 4, want)) {
      char d[128];
      return ic_kfail_in(c, s, 0, "expected %s%s, the pooling's output", ic_dtype_name(x->dtype),
                         ic_dims_str(4, want, d, sizeof d));
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}

/* Max pooling in float32 NCHW whose windows never overlap (stride >= window): every input
 * element takes at most one window's gradient, so X@GRAD is written directly, without the
 * double accumulator (whole-input sized) of the general loop. The value is what that loop
 * stores, (float)(0.0 + g) (a -0 gradient becomes +0), and elements no window picks are 0. */
static void max_disjoint_f32(const ic_pool_geom *q, const ic_tensor *x, const ic_tensor *o,
                             const ic_tensor *g, ic_tensor *dx) {
  const float *xp = x->data, *op = o->data, *gp = g->data;
  float *dp = dx->data;
  const int64_t H = q->h, W = q->w;
  memset(dp, 0, (size_t)ic_tensor_numel_(dx) * sizeof(float));
  for (int64_t plane = 0; plane < q->n * q->c; plane++) {
    const float *xs = xp + plane * H * W;
    float *ds = dp + plane * H * W;
    for (int64_t ph = 0; ph < q->oh; ph++) {
      int64_t hs = ph * q->sh - q->pt, he = hs + q->kh;
      if (hs < 0) hs = 0;
      if (he > H) he = H;
      for (int64_t pw = 0; pw < q->ow; pw++, op++, gp++) {
        int64_t ws = pw * q->sw - q->pl, we = ws + q->kw;
        if (ws < 0) ws = 0;
        if (we > W) we = W;
        const float ov = *op;
        for (int64_t ih = hs; ih < he; ih++) {
          int64_t iw = ws;
          while (iw < we && xs[ih * W + iw] != ov) iw++;
          if (iw < we) {
            ds[ih * W + iw] = (float)(0.0 + (double)*gp);
            break;
          }
        }
      }
    }
  }
}

static ic_status run(ic_kctx *c) {
  const pool_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *o = ic_in(c, IN_OUT, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_pool_geom q;
  ic_status st = ic_pool_geometry(c, &q);
  if (st) return st;
  if (a->max && !a->nhwc && dx->dtype == IC_FP32 && q.sh >= q.kh && q.sw >= q.kw &&
      q.pt >= 0 && q.pl >= 0) {
    max_disjoint_f32(&q, x, o, g, dx);
    return IC_OK;
  }
  const int64_t H = q.h, W = q.w, C = q.c, nx = ic_tensor_numel_(x);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *acc = s->data;
  memset(acc, 0, (size_t)nx * sizeof(double));
  const bool adaptive = a->adaptive && !a->max; /* as the forward (pool2d.c) */
#define XI(n, ch, ih, iw) \
  (a->nhwc ? (((n) * H + (ih)) * W + (iw)) * C + (ch) : (((n) * C + (ch)) * H + (ih)) * W + (iw))
  for (int64_t n = 0; n < q.n; n++) {
    for (int64_t ch = 0; ch < C; ch++) {
      for (int64_t ph = 0; ph < q.oh; ph++) {
        for (int64_t pw = 0; pw < q.ow; pw++) {
          int64_t hs, he, ws, we, size;
          if (adaptive) {
            hs = ph * H / q.oh;
            he = ((ph + 1) * H + q.oh - 1) / q.oh;
            ws = pw * W / q.ow;
            we = ((pw + 1) * W + q.ow - 1) / q.ow;
            size = (he - hs) * (we - ws);
          } else {
            hs = ph * q.sh - q.pt;
            ws = pw * q.sw - q.pl;
            he = hs + q.kh < H + q.pt ? hs + q.kh : H + q.pt;
            we = ws + q.kw < W + q.pl ? ws + q.kw : W + q.pl;
            size = (he - hs) * (we - ws);
            if (hs < 0) hs = 0;
            if (ws < 0) ws = 0;
            if (he > H) he = H;
            if (we > W) we = W;
            if (a->max || a->exclusive) size = (he - hs) * (we - ws);
          }
          const int64_t oe = a->nhwc ? ((n * q.oh + ph) * q.ow + pw) * C + ch
                                     : ((n * C + ch) * q.oh + ph) * q.ow + pw;
          const double gv = get(g, oe);
          if (a->max) {
            const double ov = get(o, oe);
            bool done = false;
            for (int64_t ih = hs; ih < he && !done; ih++) {
              for (int64_t iw = ws; iw < we && !done; iw++) {
                if (get(x, XI(n, ch, ih, iw)) == ov) {
                  acc[XI(n, ch, ih, iw)] += gv;
                  done = true;
                }
              }
            }
          } else if (size > 0) {
            const double share = gv / (double)size;
            for (int64_t ih = hs; ih < he; ih++) {
              for (int64_t iw = ws; iw < we; iw++) acc[XI(n, ch, ih, iw)] += share;
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

const ic_opdef ic_op_pool2d_grad = {
    .name = "pool2d_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(pool_attrs), .parse = ic_pool2d_parse,
    .infer = infer, .cpu = run,
};
