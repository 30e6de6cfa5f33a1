/* lp_pool2d: power-average pooling over 2-D windows, out = (sum over the window of
 * x^p)^(1/p) with p = norm_type (Paddle 3's F.lp_pool2d / nn.LPPool2D; phi LPPool2dKernel ->
 * PoolRawKernel with funcs::LPPool, paddle/phi/kernels/impl/pool_kernel_impl.h and
 * funcs/pooling.h). Windows, output size, paddings, padding_algorithm (EXPLICIT, SAME,
 * VALID), ceil_mode, global_pooling, adaptive and data_format (NCHW, NHWC) as pool2d's
 * (pool2d.h's geometry: the window covers [h * s - pt, min(h * s - pt + k, H + pt)) clamped
 * to the input); padded positions are left out of the sum, so `exclusive` changes nothing.
 * As phi's LPPool computes: each term is C's powf(x, p) in float (also for float64 input:
 * the element is rounded to float first), accumulated in the element type, and the root is
 * powf((float)sum, (float)(1.0 / p)); an all-padding window gives 0. norm_type +inf is max
 * pooling (pool2d's max: not adaptive, -FLT_MAX for an empty window); norm_type 0 is an
 * error, as in Paddle. float32 and float64. Legacy slots x, out (the KernelSizeTensor inputs
 * are refused: icore takes kernel_size as an attribute). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "kernels/cpu/lp_pool2d.h"

ic_status ic_lp_pool2d_parse(ic_attr_reader *r, void *attrs) {
  lp_attrs *a = attrs;
  const char *type = ic_ar_str(r, "pooling_type", "lp");
  const int64_t *v;
  size_t n;
  a->p.global = ic_ar_bool(r, "global_pooling", false);
  if (ic_ar_ints(r, "kernel_size", true, &v, &n)) {
    if (n != 2) ic_ar_fail(r, "kernel_size", "has %zu values, expected 2 ([h, w])", n);
    for (size_t i = 0; i < n && i < 2 && !r->st; i++) {
      if (v[i] < 1 && !a->p.global) {
        ic_ar_fail(r, "kernel_size", "holds %lld, expected values >= 1", (long long)v[i]);
      }
      a->p.ksize[i] = v[i];
    }
  }
  a->p.strides[0] = a->p.strides[1] = 1;
  if (ic_ar_ints(r, "strides", false, &v, &n)) {
    if (n != 2) ic_ar_fail(r, "strides", "has %zu values, expected 2 ([h, w])", n);
    for (size_t i = 0; i < n && i < 2 && !r->st; i++) {
      if (v[i] < 1) ic_ar_fail(r, "strides", "holds %lld, expected values >= 1", (long long)v[i]);
      a->p.strides[i] = v[i];
    }
  }
  ic_read_paddings(r, a->p.paddings);
  a->p.ceil_mode = ic_ar_bool(r, "ceil_mode", false);
  a->p.exclusive = ic_ar_bool(r, "exclusive", true);
  a->p.adaptive = ic_ar_bool(r, "adaptive", false);
  a->p.pad_algo = ic_read_pad_algo(r);
  a->p.nhwc = ic_read_nhwc(r);
  a->norm = (float)ic_ar_float(r, "norm_type", 0.0);
  if (r->st) return r->st;
  if (type && strcmp(type, "lp")) {
    return ic_ar_fail(r, "pooling_type", "is '%s', expected \"lp\"", type);
  }
  if (a->norm == 0.0f) return ic_ar_fail(r, "norm_type", "is 0 (LP pooling needs p != 0)");
  if (isnan(a->norm)) return ic_ar_fail(r, "norm_type", "is NaN");
  a->p.max = a->norm == INFINITY;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const lp_attrs *a = c->attrs;
  if (ic_in(c, 1, 0) || ic_in(c, 2, 0)) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED,
                    "lp_pool2d: kernel_size given as a tensor (KernelSizeTensor) is not "
                    "supported; icore reads the kernel_size attribute");
  }
  ic_pool_geom g;
  ic_status st = ic_pool_geometry(c, &g);
  if (st) return st;
  int64_t d[4] = {g.n, a->p.nhwc ? g.oh : g.c, a->p.nhwc ? g.ow : g.oh, a->p.nhwc ? g.c : g.ow};
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, 0, 0)->dtype, 4, d);
  return IC_OK;
}

#define LP_LOOPS(NAME, T)                                                                  \
  static void NAME(const lp_attrs *a, const ic_pool_geom *g, const T *x, T *y, int nt) {   \
    const bool max = a->p.max, adaptive = a->p.adaptive && !max, nhwc = a->p.nhwc;         \
    const float p = a->norm, inv = (float)(1.0 / (double)a->norm);                         \
    const int64_t H = g->h, W = g->w, C = g->c;                                            \
    _Pragma("omp parallel for collapse(2) num_threads(nt) schedule(static) if (nt > 1)")   \
    for (int64_t n = 0; n < g->n; n++) {                                                   \
      for (int64_t ch = 0; ch < C; ch++) {                                                 \
        for (int64_t ph = 0; ph < g->oh; ph++) {                                           \
          for (int64_t pw = 0; pw < g->ow; pw++) {                                         \
            int64_t hs, he, ws, we;                                                        \
            if (adaptive) {                                                                \
              hs = ph * H / g->oh;                                                         \
              he = ((ph + 1) * H + g->oh - 1) / g->oh;                                     \
              ws = pw * W / g->ow;                                                         \
              we = ((pw + 1) * W + g->ow - 1) / g->ow;                                     \
            } else {                                                                       \
              hs = ph * g->sh - g->pt;                                                     \
              ws = pw * g->sw - g->pl;                                                     \
              he = hs + g->kh < H + g->pt ? hs + g->kh : H + g->pt;                        \
              we = ws + g->kw < W + g->pl ? ws + g->kw : W + g->pl;                        \
              if (hs < 0) hs = 0;                                                          \
              if (ws < 0) ws = 0;                                                          \
              if (he > H) he = H;                                                          \
              if (we > W) we = W;                                                          \
            }                                                                              \
            T v = max ? (T)-FLT_MAX : (T)0;                                                \
            for (int64_t ih = hs; ih < he; ih++) {                                         \
              for (int64_t iw = ws; iw < we; iw++) {                                       \
                T e = nhwc ? x[((n * H + ih) * W + iw) * C + ch]                           \
                           : x[((n * C + ch) * H + ih) * W + iw];                          \
                if (max) v = v > e ? v : e;                                                \
                else v += (T)powf((float)e, p);                                            \
              }                                                                            \
            }                                                                              \
            if (!max) v = (T)powf((float)v, inv);                                          \
            if (nhwc) y[((n * g->oh + ph) * g->ow + pw) * C + ch] = v;                     \
            else y[((n * C + ch) * g->oh + ph) * g->ow + pw] = v;                          \
          }                                                                                \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
  }
LP_LOOPS(lp_f32, float)
LP_LOOPS(lp_f64, double)

static ic_status run(ic_kctx *c) {
  const lp_attrs *a = c->attrs;
  ic_pool_geom g;
  ic_status st = ic_pool_geometry(c, &g);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int nt = ic_numel(o->ndim, o->dims) >= 4096 ? ic_omp_threads(c->env) : 1;
  if (x->dtype == IC_FP32) lp_f32(a, &g, x->data, o->data, nt);
  else lp_f64(a, &g, x->data, o->data, nt);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"x", 0}, {"KernelSizeTensor", IC_SLOT_OPTIONAL}, {"KernelSizeTensorList",
                                                       IC_SLOT_OPTIONAL | IC_SLOT_MULTI}};
static const ic_slotdef outputs[] = {{"out", 0}};

const ic_opdef ic_op_lp_pool2d = {
    .name = "lp_pool2d", .n_inputs = 3, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(lp_attrs), .parse = ic_lp_pool2d_parse, .infer = infer, .cpu = run,
};
