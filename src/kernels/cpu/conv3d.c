/* conv3d, as paddle/phi/infermeta/binary.cc ConvInferMeta and
 * paddle/phi/kernels/impl/conv_kernel_impl.h define it for 3-D:
 *   Output[n, g*og + o, z, y, x] = sum over i < C / groups, (kd, kh, kw) of
 *       Input[n, g*cg + i, z*sd - pf + kd*dd, y*sh - pt + kh*dh, x*sw - pl + kw*dw]
 *       * Filter[g*og + o, i, kd, kh, kw]
 * with out-of-range input positions 0. Input [N, C, D, H, W] (data_format NCDHW) or
 * [N, D, H, W, C] (NDHWC), Filter [C_out, C / groups, KD, KH, KW] either way. paddings are 3
 * values [d, h, w] or 6 [front, back, top, bottom, left, right]; padding_algorithm SAME pads
 * to an output of ceil(in / stride) (the extra element at the end) and resets the dilations
 * to 1, VALID pads nothing. Output size (in + p0 + p1 - (d * (k - 1) + 1)) / s + 1.
 *
 * Computed as Paddle's kernel does: per image and group an im2col of the input and one GEMM
 * with the filter; NDHWC goes through NCDHW copies. float32 and float64. */
#include <string.h>

#include "kernels/cpu/conv.h"
#include "kernels/cpu/conv3d.h"
#include "kernels/cpu/gemm.h"

typedef ic_conv3d_attrs c3_attrs;
typedef ic_conv3d_geom geom;

enum { IN_INPUT, IN_FILTER };

static void read3(ic_attr_reader *r, const char *name, int64_t out[3]) {
  const int64_t *v;
  size_t n;
  out[0] = out[1] = out[2] = 1;
  if (!ic_ar_ints(r, name, false, &v, &n)) return;
  if (n != 3) {
    ic_ar_fail(r, name, "has %zu values, expected 3 ([d, h, w])", n);
    return;
  }
  for (int i = 0; i < 3; i++) {
    if (v[i] < 1) {
      ic_ar_fail(r, name, "holds %lld, expected values >= 1", (long long)v[i]);
      return;
    }
    out[i] = v[i];
  }
}

void ic_conv3d_channels(const void *x, void *y, size_t es, int64_t n, int64_t ch, int64_t sp,
                        bool to_last) {
  for (int64_t b = 0; b < n; b++) {
    for (int64_t k = 0; k < ch; k++) {
      for (int64_t p = 0; p < sp; p++) {
        const size_t first = (size_t)((b * ch + k) * sp + p) * es;
        const size_t last = (size_t)((b * sp + p) * ch + k) * es;
        if (to_last) memcpy((char *)y + last, (const char *)x + first, es);
        else memcpy((char *)y + first, (const char *)x + last, es);
      }
    }
  }
}

ic_status ic_conv3d_parse(ic_attr_reader *r, void *attrs) {
  c3_attrs *a = attrs;
  read3(r, "strides", a->strides);
  read3(r, "dilations", a->dilations);
  ic_read_paddings3(r, a->pads);
  a->groups = ic_ar_int(r, "groups", 1);
  a->pad_algo = ic_read_pad_algo(r);
  const char *f = ic_ar_str(r, "data_format", "NCDHW");
  if (r->st) return r->st;
  if (a->groups < 1) return ic_ar_fail(r, "groups", "is %lld, expected >= 1", (long long)a->groups);
  a->ndhwc = !strcmp(f, "NDHWC");
  if (!a->ndhwc && strcmp(f, "NCDHW") && strcmp(f, "AnyLayout")) {
    return ic_ar_fail(r, "data_format", "is \"%s\", expected NCDHW or NDHWC", f);
  }
  return IC_OK;
}

ic_status ic_conv3d_geometry(ic_kctx *c, geom *g) {
  const c3_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *f = ic_in(c, IN_FILTER, 0);
  ic_status st = ic_kcheck_dtype(c, IN_INPUT, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 5) {
    return ic_kfail_in(c, IN_INPUT, 0, "expected rank 5 (%s)", a->ndhwc ? "NDHWC" : "NCDHW");
  }
  if (f->ndim != 5 || f->dtype != x->dtype) {
    return ic_kfail_in(c, IN_FILTER, 0, "expected %s of rank 5 [C_out, C / groups, KD, KH, KW]",
                       ic_dtype_name(x->dtype));
  }
  g->n = x->dims[0];
  g->c = a->ndhwc ? x->dims[4] : x->dims[1];
  g->g = a->groups;
  g->oc = f->dims[0];
  if (f->dims[1] * g->g != g->c) {
    return ic_kfail_in(c, IN_INPUT, 0,
                       "has %lld channels (data_format %s), but Filter '%s' takes %lld x groups "
                       "%lld: expected Filter.dims[1] * groups = channels",
                       (long long)g->c, a->ndhwc ? "NDHWC" : "NCDHW", ic_in_name(c, 1, 0),
                       (long long)f->dims[1], (long long)g->g);
  }
  if (g->oc % g->g != 0) {
    return ic_kfail_in(c, IN_FILTER, 0,
                       "has %lld output channels, expected a multiple of groups %lld",
                       (long long)g->oc, (long long)g->g);
  }
  for (int i = 0; i < 3; i++) {
    g->in[i] = x->dims[a->ndhwc ? 1 + i : 2 + i];
    g->k[i] = f->dims[2 + i];
    g->s[i] = a->strides[i];
    g->d[i] = a->dilations[i];
    g->p[2 * i] = a->pads[2 * i];
    g->p[2 * i + 1] = a->pads[2 * i + 1];
    if (a->pad_algo == IC_PAD_SAME) {
      ic_same_pads(g->in[i], g->s[i], g->k[i], &g->p[2 * i], &g->p[2 * i + 1]);
      g->d[i] = 1;
    } else if (a->pad_algo == IC_PAD_VALID) {
      g->p[2 * i] = g->p[2 * i + 1] = 0;
    }
    const int64_t ext = g->d[i] * (g->k[i] - 1) + 1;
    g->out[i] = (g->in[i] + g->p[2 * i] + g->p[2 * i + 1] - ext) / g->s[i] + 1;
    if (g->in[i] + g->p[2 * i] + g->p[2 * i + 1] < ext) {
      return ic_kfail_in(c, IN_INPUT, 0,
                         "is smaller along spatial axis %d (%lld, padded %lld) than the dilated "
                         "filter (%lld); expected at least the filter's extent",
                         i, (long long)g->in[i],
                         (long long)(g->in[i] + g->p[2 * i] + g->p[2 * i + 1]), (long long)ext);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const c3_attrs *a = c->attrs;
  geom g;
  ic_status st = ic_conv3d_geometry(c, &g);
  if (st) return st;
  int64_t d[5] = {g.n, g.oc, g.out[0], g.out[1], g.out[2]};
  if (a->ndhwc) d[1] = g.out[0], d[2] = g.out[1], d[3] = g.out[2], d[4] = g.oc;
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, 0, 0)->dtype, 5, d);
  return IC_OK;
}

#define DEFINE_C3(T)                                                                         \
  /* col[((i * KD + kd) * KH + kh) * KW + kw][z, y, x] for the cg channels at xs */          \
  static void im2col_##T(const T *xs, T *col, const geom *g, int64_t cg) {                   \
    const int64_t D = g->in[0], H = g->in[1], W = g->in[2];                                  \
    const int64_t OD = g->out[0], OH = g->out[1], OW = g->out[2];                            \
    T *p = col;                                                                              \
    for (int64_t i = 0; i < cg; i++)                                                         \
      for (int64_t kd = 0; kd < g->k[0]; kd++)                                               \
        for (int64_t kh = 0; kh < g->k[1]; kh++)                                             \
          for (int64_t kw = 0; kw < g->k[2]; kw++)                                           \
            for (int64_t z = 0; z < OD; z++) {                                               \
              const int64_t iz = z * g->s[0] - g->p[0] + kd * g->d[0];                       \
              for (int64_t yy = 0; yy < OH; yy++) {                                          \
                const int64_t iy = yy * g->s[1] - g->p[2] + kh * g->d[1];                    \
                for (int64_t xx = 0; xx < OW; xx++) {                                        \
                  const int64_t ix = xx * g->s[2] - g->p[4] + kw * g->d[2];                  \
                  const bool in = iz >= 0 && iz < D && iy >= 0 && iy < H && ix >= 0 && ix < W; \
                  *p++ = in ? xs[((i * D + iz) * H + iy) * W + ix] : (T)0;                   \
                }                                                                            \
              }                                                                              \
            }                                                                                \
  }
DEFINE_C3(float)
DEFINE_C3(double)

static ic_status run(ic_kctx *c) {
  const c3_attrs *a = c->attrs;
  geom g;
  ic_status st = ic_conv3d_geometry(c, &g);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *f = ic_in(c, IN_FILTER, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const bool f64 = x->dtype == IC_FP64;
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t sp = ic_numel(3, g.in), osp = ic_numel(3, g.out);
  const int64_t cg = g.c / g.g, og = g.oc / g.g, kk = cg * ic_numel(3, g.k);
  const size_t n_out = (size_t)(g.n * g.oc * osp);
  if (n_out == 0) return IC_OK;
  ic_gemm gm = {.dtype = x->dtype, .m = og, .n = osp, .k = kk, .lda = kk, .ldb = osp,
                .ldc = osp, .alpha = 1.0, .beta = 0.0};
  if ((st = ic_gemm_check(c, &gm))) return st;
  const size_t n_col = (size_t)(kk * osp), n_in = a->ndhwc ? (size_t)(g.n * g.c * sp) : 0;
  const size_t n_tmp = a->ndhwc ? n_out : 0;
  ic_buffer *sb = ic_kscratch(c, (n_col + n_in + n_tmp) * es + es);
  if (!sb) return c->err->code;
  char *col = sb->data, *xin = col + n_col * es, *yout = xin + n_in * es;
  if (a->ndhwc) {
    ic_conv3d_channels(x->data, xin, es, g.n, g.c, sp, false);
  } else {
    xin = x->data;
    yout = out->data;
  }
  ic_kernel_threads(c);
  for (int64_t n = 0; n < g.n; n++) {
    for (int64_t gi = 0; gi < g.g; gi++) {
      const char *xs = xin + (size_t)((n * g.c + gi * cg) * sp) * es;
      if (f64) im2col_double((const double *)xs, (double *)col, &g, cg);
      else im2col_float((const float *)xs, (float *)col, &g, cg);
      ic_gemm_run(c, &gm, (const char *)f->data + (size_t)(gi * og * kk) * es, col,
                  yout + (size_t)((n * g.oc + gi * og) * osp) * es);
    }
  }
  if (a->ndhwc) {
    ic_conv3d_channels(yout, out->data, es, g.n, g.oc, osp, true);
  }
  ic_buffer_release(sb);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", 0}, {"Filter", 0}};
static const ic_slotdef outputs[] = {{"Output", 0}};

const ic_opdef ic_op_conv3d = {
    .name = "conv3d",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(c3_attrs), .parse = ic_conv3d_parse,
    .infer = infer, .cpu = run,
};
