/* pool3d: max or average pooling over 3-D windows, as paddle/phi/infermeta/unary.cc
 * PoolInferMeta and paddle/phi/kernels/funcs/pooling.cc Pool3dFunctor define it; the rules
 * of pool2d (see pool2d.c) with a depth axis:
 *   - X is [N, C, D, H, W] (data_format NCDHW) or [N, D, H, W, C] (NDHWC);
 *   - paddings hold 3 values [d, h, w] or 6 [front, back, top, bottom, left, right];
 *     padding_algorithm SAME (output ceil(in / stride)) or VALID (none) replaces them,
 *     and global_pooling and adaptive zero them;
 *   - global_pooling makes the window the whole D x H x W;
 *   - the output size is (in - k + pad_begin + pad_end [+ stride - 1 with ceil_mode]) /
 *     stride + 1, or ksize when adaptive;
 *   - window d covers [d * s - pf, min(d * s - pf + k, D + pf)) clamped to the input (the
 *     begin padding bounds the end too, as in Paddle's functor); avg divides by the clamped
 *     element count when exclusive, else by the count before clamping; an empty window
 *     gives -FLT_MAX (max) or 0 / 0 (avg);
 *   - adaptive avg uses bins [floor(i * D / out), ceil((i + 1) * D / out)); adaptive max
 *     uses ksize windows at the strides, as Paddle's kernel (which passes adaptive = false
 *     to the max functor) does.
 * float32 and float64, computed in X's dtype. */
#include <float.h>
#include <string.h>

#include "kernels/cpu/conv.h"
#include "kernels/cpu/pool2d.h"
#include "kernels/cpu/pool3d.h"

typedef ic_pool3d_attrs p3_attrs;
typedef ic_pool3d_geom geom;

static bool read3(ic_attr_reader *r, const char *name, bool req, int64_t out[3], int64_t min,
                  bool lenient) {
  const int64_t *v;
  size_t n;
  if (!ic_ar_ints(r, name, req, &v, &n)) return false;
  if (n != 3) {
    ic_ar_fail(r, name, "has %zu values, expected 3 ([d, h, w])", n);
    return false;
  }
  for (int i = 0; i < 3; i++) {
    if (v[i] < min && !lenient) {
      ic_ar_fail(r, name, "holds %lld, expected values >= %lld", (long long)v[i], (long long)min);
      return false;
    }
    out[i] = v[i];
  }
  return true;
}

ic_status ic_pool3d_parse(ic_attr_reader *r, void *attrs) {
  p3_attrs *a = attrs;
  ic_read_pool_type(r, &a->max);
  a->global = ic_ar_bool(r, "global_pooling", false);
  read3(r, "ksize", true, a->ksize, 1, a->global);
  a->strides[0] = a->strides[1] = a->strides[2] = 1;
  read3(r, "strides", false, a->strides, 1, false);
  ic_read_paddings3(r, a->pads);
  a->ceil_mode = ic_ar_bool(r, "ceil_mode", false);
  a->exclusive = ic_ar_bool(r, "exclusive", true);
  a->adaptive = ic_ar_bool(r, "adaptive", false);
  a->pad_algo = ic_read_pad_algo(r);
  const char *f = ic_ar_str(r, "data_format", "NCDHW");
  if (r->st) return r->st;
  a->ndhwc = !strcmp(f, "NDHWC");
  if (!a->ndhwc && strcmp(f, "NCDHW") && strcmp(f, "AnyLayout")) {
    return ic_ar_fail(r, "data_format", "is \"%s\", expected NCDHW or NDHWC", f);
  }
  return IC_OK;
}

ic_status ic_pool3d_geometry(ic_kctx *c, geom *g) {
  const p3_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 5) {
    return ic_kfail_in(c, 0, 0, "expected rank 5 (%s)", a->ndhwc ? "NDHWC" : "NCDHW");
  }
  g->n = x->dims[0];
  g->c = a->ndhwc ? x->dims[4] : x->dims[1];
  for (int i = 0; i < 3; i++) {
    g->in[i] = x->dims[a->ndhwc ? 1 + i : 2 + i];
    g->k[i] = a->global ? g->in[i] : a->ksize[i];
    g->s[i] = a->strides[i];
    g->p[2 * i] = a->pads[2 * i];
    g->p[2 * i + 1] = a->pads[2 * i + 1];
    if (a->pad_algo == IC_PAD_SAME) {
      ic_same_pads(g->in[i], g->s[i], g->k[i], &g->p[2 * i], &g->p[2 * i + 1]);
    }
    if (a->pad_algo == IC_PAD_VALID || a->global || a->adaptive) {
      g->p[2 * i] = g->p[2 * i + 1] = 0;
    }
    if (a->adaptive) {
      g->out[i] = g->k[i];
    } else {
      int64_t cm = a->ceil_mode ? g->s[i] - 1 : 0;
      g->out[i] = (g->in[i] - g->k[i] + g->p[2 * i] + g->p[2 * i + 1] + cm) / g->s[i] + 1;
    }
    if (g->out[i] < 0 || (a->adaptive && g->out[i] < 1)) {
      return ic_kfail_in(c, 0, 0,
                         "which with window %lld x %lld x %lld and paddings gives an output "
                         "size %lld along axis %d; expected sizes >= %d",
                         (long long)g->k[0], (long long)g->k[1], (long long)g->k[2],
                         (long long)g->out[i], i, a->adaptive ? 1 : 0);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const p3_attrs *a = c->attrs;
  geom g;
  ic_status st = ic_pool3d_geometry(c, &g);
  if (st) return st;
  int64_t d[5] = {g.n, g.c, g.out[0], g.out[1], g.out[2]};
  if (a->ndhwc) d[1] = g.out[0], d[2] = g.out[1], d[3] = g.out[2], d[4] = g.c;
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, 0, 0)->dtype, 5, d);
  return IC_OK;
}

void ic_pool3d_window(const geom *g, int ax, int64_t o, bool adaptive, int64_t *lo,
                      int64_t *hi, int64_t *full) {
  const int64_t in = g->in[ax];
  if (adaptive) {
    *lo = o * in / g->out[ax];
    *hi = ((o + 1) * in + g->out[ax] - 1) / g->out[ax];
    *full = *hi - *lo;
    return;
  }
  const int64_t pb = g->p[2 * ax];
  int64_t s = o * g->s[ax] - pb, e = s + g->k[ax] < in + pb ? s + g->k[ax] : in + pb;
  *full = e - s;
  if (s < 0) s = 0;
  if (e > in) e = in;
  *lo = s;
  *hi = e;
}

#define DEFINE_LOOPS(NAME, T)                                                                \
  static void NAME(const p3_attrs *a, const geom *g, const T *x, T *y) {                     \
    const bool adaptive = a->adaptive && !a->max;                                            \
    const int64_t D = g->in[0], H = g->in[1], W = g->in[2], C = g->c;                        \
    const int64_t OD = g->out[0], OH = g->out[1], OW = g->out[2];                            \
    for (int64_t n = 0; n < g->n; n++)                                                       \
      for (int64_t ch = 0; ch < C; ch++)                                                     \
        for (int64_t od = 0; od < OD; od++)                                                  \
          for (int64_t oh = 0; oh < OH; oh++)                                                \
            for (int64_t ow = 0; ow < OW; ow++) {                                            \
              int64_t d0, d1, fd, h0, h1, fh, w0, w1, fw;                                    \
              ic_pool3d_window(g, 0, od, adaptive, &d0, &d1, &fd);                           \
              ic_pool3d_window(g, 1, oh, adaptive, &h0, &h1, &fh);                           \
              ic_pool3d_window(g, 2, ow, adaptive, &w0, &w1, &fw);                           \
              int64_t size = adaptive || (!a->max && !a->exclusive)                          \
                                 ? fd * fh * fw                                              \
                                 : (d1 - d0) * (h1 - h0) * (w1 - w0);                        \
              T v = a->max ? (T)-FLT_MAX : (T)0;                                             \
              for (int64_t id = d0; id < d1; id++)                                           \
                for (int64_t ih = h0; ih < h1; ih++)                                         \
                  for (int64_t iw = w0; iw < w1; iw++) {                                     \
                    T e = a->ndhwc ? x[(((n * D + id) * H + ih) * W + iw) * C + ch]          \
                                   : x[(((n * C + ch) * D + id) * H + ih) * W + iw];         \
                    if (a->max) v = v > e ? v : e;                                           \
                    else v += e;                                                             \
                  }                                                                          \
              if (!a->max) v = v / (T)size;                                                  \
              if (a->ndhwc) y[(((n * OD + od) * OH + oh) * OW + ow) * C + ch] = v;           \
              else y[(((n * C + ch) * OD + od) * OH + oh) * OW + ow] = v;                    \
            }                                                                                \
  }
DEFINE_LOOPS(loops_f32, float)
DEFINE_LOOPS(loops_f64, double)

static ic_status run(ic_kctx *c) {
  const p3_attrs *a = c->attrs;
  geom g;
  ic_status st = ic_pool3d_geometry(c, &g);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  if (x->dtype == IC_FP64) loops_f64(a, &g, x->data, y->data);
  else loops_f32(a, &g, x->data, y->data);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_pool3d = {
    .name = "pool3d",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(p3_attrs), .parse = ic_pool3d_parse,
    .infer = infer, .cpu = run,
};
