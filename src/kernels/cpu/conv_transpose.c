/* conv2d_transpose and depthwise_conv2d_transpose, as paddle/phi/infermeta/binary.cc
 * ConvTransposeInferMeta and paddle/phi/kernels/impl/conv_transpose_kernel_impl.h define them:
 *
 *   Output[n, g*og + o, y*sh - pt + ky*dh, x*sw - pl + kx*dw] +=
 *       Input[n, g*cg + i, y, x] * Filter[g*cg + i, o, ky, kx]
 *
 * Input [N, C, H, W] (or NHWC), Filter [C, C_out / groups, KH, KW] whatever the data_format,
 * Output [N, C_out, OH, OW] with C_out = Filter.dims[1] * groups. padding_algorithm SAME
 * pads as conv2d does for the input size (the total max((ceil(H / s) - 1) * s + KH - H, 0),
 * the extra one at the end) and resets the dilations to 1; VALID pads nothing. Then
 *   OH = (H - 1) * sh - pt - pb + dh * (KH - 1) + 1
 * plus output_padding[0] when given, or exactly output_size[0] when given, which must lie in
 * [OH, OH + sh) (likewise for W). Bias (only oneDNN's kernel reads it in Paddle) is added
 * per output channel when present.
 *
 * float32 runs one oneDNN deconvolution primitive (its direct jit kernels, which compute it
 * as a convolution's backward data pass) when the channels fill whole blocks: input and
 * output channels per group multiples of 16 or 8 (depthwise: the channels), the source and
 * destination in that channel-blocked layout (nChw16c, then nChw8c) for NCHW, nhwc for NHWC.
 * oneDNN pads the channels to its block otherwise, and its kernels then lose to the GEMM
 * below (PP-OCRv4 DB's 24 -> 1 2x2 stride-2 head: 5.4 ms against 0.6 ms), as does its own
 * GEMM-based deconvolution, which is refused anyway: as for conv.c, only implementations
 * whose sums do not depend on the thread count are taken (ic_dnnl_pd_deterministic).
 * Paddle's extra output rows (output_padding, output_size) are a smaller right padding
 * (negative where they exceed it), which oneDNN accepts when it stays above -stride.
 * The primitive, its reorders and the weights in its layout (Filter [C_in, C_out / groups,
 * KH, KW] is oneDNN's iohw / giohw) live in the instruction's kernel state, rebuilt when
 * shapes, the input layout or the thread count change, the weights redone when the Filter
 * buffer or a sample of its values changes (conv.c does the same). Input may arrive in a
 * blocked layout (tensor.h ic_layout, analysis/layout.c): a source in the primitive's own
 * layout drops its reorder, and the primitive never depends on the layout the input
 * arrives in, so the values are bitwise those of the plain plan.
 *
 * The Bias and icore's fused activation (fuse_activation / fuse_alpha / fuse_beta, which
 * fuse.c adds with a folded batch_norm) are applied by finish() in one pass after the
 * primitive or the GEMM: oneDNN 2.6's deconvolution applies its own bias and post-ops in a
 * generic loop 25-50 times slower than its kernel.
 *
 * Otherwise (float64, other channel counts, oneDNN refusing the geometry) the kernel does
 * what Paddle's does: per image and group, one GEMM col = Filter_g^T * Input_g
 * ([og * KH * KW] x [H * W]) and a col2im that adds each column entry into the output pixel
 * it lands on. NHWC goes through NCHW copies, a blocked Input through a plain copy. */
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/conv_transpose.h"
#include "kernels/cpu/gemm.h"
#include "kernels/cpu/onednn.h"
#include "kernels/cpu/shapeops.h"
#include "kernels/cpu/vmath.h"

const ic_slotdef ic_convt_inputs[4] = {
    {"Input", IC_SLOT_BLOCKED},
    {"Filter", 0},
    {"Bias", IC_SLOT_OPTIONAL},
    /* Paddle 3's IntArray output_size computed at run time (one int tensor per axis, or one
     * of two values), as the PIR translation passes it; over the attribute */
    {"OutputSize", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
};
const ic_slotdef ic_convt_outputs[1] = {{"Output", 0}};

static void read_pair(ic_attr_reader *r, const char *name, int64_t out[2], int64_t dflt,
                      int64_t min, bool *present) {
  const int64_t *v;
  size_t n;
  out[0] = out[1] = dflt;
  if (present) *present = false;
  if (!ic_ar_ints(r, name, false, &v, &n) || n == 0) return;
  if (n != 2) {
    ic_ar_fail(r, name, "has %zu values, expected 2 ([h, w])", n);
    return;
  }
  for (int i = 0; i < 2; i++) {
    if (v[i] < min) {
      ic_ar_fail(r, name, "holds %lld, expected values >= %lld", (long long)v[i],
                 (long long)min);
      return;
    }
    out[i] = v[i];
  }
  if (present) *present = true;
}

ic_status ic_convt_parse(ic_attr_reader *r, void *attrs) {
  ic_convt_attrs *a = attrs;
  read_pair(r, "strides", a->strides, 1, 1, NULL);
  read_pair(r, "dilations", a->dilations, 1, 1, NULL);
  read_pair(r, "output_padding", a->output_padding, 0, 0, &a->has_output_padding);
  read_pair(r, "output_size", a->output_size, -1, 1, &a->has_output_size);
  ic_read_paddings(r, a->paddings);
  a->pad_algo = ic_read_pad_algo(r);
  a->nhwc = ic_read_nhwc(r);
  a->groups = ic_ar_int(r, "groups", 1);
  if (!r->st && a->groups < 1) {
    ic_ar_fail(r, "groups", "is %lld, expected >= 1", (long long)a->groups);
  }
  ic_conv_read_act(r, "fuse_activation", &a->act);
  a->alpha = (float)ic_ar_float(r, "fuse_alpha", 0.0);
  a->beta = (float)ic_ar_float(r, "fuse_beta", 0.0);
  return r->st;
}

typedef ic_convt_geom geom;

ic_status ic_convt_geometry(ic_kctx *c, geom *g) {
  const ic_convt_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_CONVT_INPUT, 0), *f = ic_in(c, IC_CONVT_FILTER, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IC_CONVT_INPUT, 0, IC_DT_FLOAT))) return st;
  if (f->dtype != x->dtype) {
    return ic_kfail_in(c, IC_CONVT_FILTER, 0, "expected Input's dtype %s",
                       ic_dtype_name(x->dtype));
  }
  if (x->ndim != 4) {
    return ic_kfail_in(c, IC_CONVT_INPUT, 0, "expected rank 4 (%s)", a->nhwc ? "NHWC" : "NCHW");
  }
  if (f->ndim != 4) {
    return ic_kfail_in(c, IC_CONVT_FILTER, 0, "expected rank 4 [C_in, C_out / groups, KH, KW]");
  }
  g->n = x->dims[0];
  g->c = a->nhwc ? x->dims[3] : x->dims[1];
  g->h = a->nhwc ? x->dims[1] : x->dims[2];
  g->w = a->nhwc ? x->dims[2] : x->dims[3];
  g->g = a->groups;
  if (f->dims[0] != g->c) {
    return ic_kfail_in(c, IC_CONVT_INPUT, 0,
                       "has %lld channels (data_format %s), but Filter '%s' is [%lld, %lld, "
                       "%lld, %lld]: expected Filter.dims[0] = channels",
                       (long long)g->c, a->nhwc ? "NHWC" : "NCHW", ic_in_name(c, 1, 0),
                       (long long)f->dims[0], (long long)f->dims[1], (long long)f->dims[2],
                       (long long)f->dims[3]);
  }
  if (g->c % g->g != 0) {
    return ic_kfail_in(c, IC_CONVT_INPUT, 0,
                       "has %lld channels, expected a multiple of groups %lld",
                       (long long)g->c, (long long)g->g);
  }
  g->og = f->dims[1];
  g->oc = g->og * g->g;
  g->kh = f->dims[2];
  g->kw = f->dims[3];
  if (g->kh < 1 || g->kw < 1 || g->og < 1) {
    return ic_kfail_in(c, IC_CONVT_FILTER, 0, "expected dims >= 1");
  }
  g->sh = a->strides[0];
  g->sw = a->strides[1];
  g->dh = a->dilations[0];
  g->dw = a->dilations[1];
  int64_t p[4];
  if (ic_apply_pad_algo(a->pad_algo, a->paddings, g->h, g->w, g->sh, g->sw, g->kh, g->kw, p)) {
    g->dh = g->dw = 1;
  }
  g->pt = p[0], g->pb = p[1], g->pl = p[2], g->pr = p[3];
  int64_t base[2] = {(g->h - 1) * g->sh - g->pt - g->pb + g->dh * (g->kh - 1) + 1,
                     (g->w - 1) * g->sw - g->pl - g->pr + g->dw * (g->kw - 1) + 1};
  int64_t s[2] = {g->sh, g->sw}, d[2] = {g->dh, g->dw}, o[2];
  int64_t osz[2] = {a->output_size[0], a->output_size[1]};
  bool has_osz = a->has_output_size;
  if (c->def->inputs == ic_convt_inputs && c->in[IC_CONVT_OUTPUT_SIZE].n) { /* not the grads */
    size_t n = 0;
    st = ic_shapeops_read_ints(c, IC_CONVT_OUTPUT_SIZE, c->in[IC_CONVT_OUTPUT_SIZE].n > 1,
                               "output size", osz, 2, &n);
    if (st) return st;
    if (n != 2) return ic_kfail_in(c, IC_CONVT_OUTPUT_SIZE, 0, "gives %zu values, expected 2", n);
    has_osz = true;
  }
  for (int i = 0; i < 2; i++) {
    o[i] = base[i];
    if (has_osz) {
      if (osz[i] < base[i] || osz[i] >= base[i] + s[i]) {
        return ic_kfail_in(c, IC_CONVT_INPUT, 0,
                           "gives an output %s of %lld to %lld, but 'output_size' "
                           "asks for %lld",
                           i ? "width" : "height", (long long)base[i],
                           (long long)(base[i] + s[i] - 1), (long long)osz[i]);
      }
      o[i] = osz[i];
    } else if (a->has_output_padding) {
      int64_t lim = s[i] > d[i] ? s[i] : d[i];
      if (a->output_padding[i] >= lim) {
        return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                        "attribute 'output_padding' holds %lld, expected less than max(stride, "
                        "dilation) = %lld",
                        (long long)a->output_padding[i], (long long)lim);
      }
      o[i] += a->output_padding[i];
    }
  }
  g->oh = o[0];
  g->ow = o[1];
  if (g->oh < 1 || g->ow < 1) {
    return ic_kfail_in(c, IC_CONVT_INPUT, 0,
                       "gives an output of %lld x %lld with paddings [%lld, %lld, %lld, %lld]; "
                       "expected sizes >= 1",
                       (long long)g->oh, (long long)g->ow, (long long)g->pt, (long long)g->pb,
                       (long long)g->pl, (long long)g->pr);
  }
  const ic_tensor *b = ic_in(c, IC_CONVT_BIAS, 0);
  if (b && (b->dtype != x->dtype || ic_numel(b->ndim, b->dims) != g->oc)) {
    return ic_kfail_in(c, IC_CONVT_BIAS, 0, "expected %s with %lld elements (one per output "
                       "channel)", ic_dtype_name(x->dtype), (long long)g->oc);
  }
  return IC_OK;
}

/* A blocked Input (tensor.h ic_layout) must be what the kernel reads blocked: float32,
 * logical NCHW, whole channel blocks. */
static ic_status check_layout(ic_kctx *c) {
  const ic_convt_attrs *a = c->attrs;
  const ic_tensor *t = ic_in(c, IC_CONVT_INPUT, 0);
  if (!t->layout) return IC_OK;
  int blk = ic_layout_block(t->layout);
  if (a->nhwc || t->dtype != IC_FP32 || t->ndim != 4 || !blk || t->dims[1] % blk) {
    return ic_kfail_in(c, IC_CONVT_INPUT, 0,
                       "expected the plain layout: a blocked input must be float32 NCHW with "
                       "whole channel blocks (data_format %s)",
                       a->nhwc ? "NHWC" : "NCHW");
  }
  return IC_OK;
}

ic_status ic_convt_infer(ic_kctx *c) {
  const ic_convt_attrs *a = c->attrs;
  geom g;
  ic_status st = check_layout(c);
  if (!st) st = ic_convt_geometry(c, &g);
  if (st) return st;
  int64_t d[4] = {g.n, g.oc, g.oh, g.ow};
  if (a->nhwc) {
    d[1] = g.oh;
    d[2] = g.ow;
    d[3] = g.oc;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, 0, 0)->dtype, 4, d);
  return IC_OK;
}

#define DEFINE_CONVT(NAME, T)                                                               \
  static void NAME##_nchw(const T *x, T *y, int64_t n, int64_t ch, int64_t hw, bool back) { \
    for (int64_t b = 0; b < n; b++)                                                         \
      for (int64_t k = 0; k < ch; k++)                                                      \
        for (int64_t p = 0; p < hw; p++) {                                                  \
          size_t nchw = (size_t)((b * ch + k) * hw + p), nhwc = (size_t)((b * hw + p) * ch + k); \
          if (back) y[nhwc] = x[nchw];                                                      \
          else y[nchw] = x[nhwc];                                                           \
        }                                                                                   \
  }                                                                                         \
  static void NAME##_col2im(const T *col, T *out, const geom *g) {                          \
    const int64_t hw = g->h * g->w;                                                         \
    for (int64_t o = 0; o < g->og; o++) {                                                   \
      T *op = out + (size_t)(o * g->oh * g->ow);                                            \
      for (int64_t ky = 0; ky < g->kh; ky++)                                                \
        for (int64_t kx = 0; kx < g->kw; kx++) {                                            \
          const T *row = col + (size_t)(((o * g->kh + ky) * g->kw + kx) * hw);              \
          for (int64_t iy = 0; iy < g->h; iy++) {                                           \
            const int64_t oy = iy * g->sh - g->pt + ky * g->dh;                             \
            if (oy < 0 || oy >= g->oh) continue;                                            \
            for (int64_t ix = 0; ix < g->w; ix++) {                                         \
              const int64_t ox = ix * g->sw - g->pl + kx * g->dw;                           \
              if (ox >= 0 && ox < g->ow) op[oy * g->ow + ox] += row[iy * g->w + ix];        \
            }                                                                               \
          }                                                                                 \
        }                                                                                   \
    }                                                                                       \
  }
DEFINE_CONVT(f32, float)
DEFINE_CONVT(f64, double)

/* Output = act(Output + Bias) in place over the output y (Bias and activation optional):
 * per output channel, the sum rounded in the output's precision, then the activation (relu
 * in float, float32 sigmoid and swish by vmath.h's vectorized forms, the others by conv.c's
 * formulas in double, rounded once). y is NCHW, or NHWC
 * for an NHWC op outside the GEMM path (nchw: y is the GEMM path's NCHW buffer). */
static void finish(ic_kctx *c, void *y, const void *bias, bool nchw) {
  const ic_convt_attrs *a = c->attrs;
  const ic_conv_act act = a->act;
  const float alpha = a->alpha, beta = a->beta;
  if (!bias && act == IC_ACT_NONE) return;
  const ic_tensor *out = ic_out(c, 0, 0);
  const bool f64 = out->dtype == IC_FP64, nhwc = a->nhwc && !nchw;
  const int64_t n = out->dims[0], ch = out->dims[a->nhwc ? 3 : 1];
  const int64_t hw = ic_tensor_numel_(out) / (n * ch > 0 ? n * ch : 1);
  /* NCHW: one plane of hw per (image, channel); NHWC: hw rows of ch */
  const int64_t rows = nhwc ? n * hw : n * ch, len = nhwc ? ch : hw;
  const int nt = rows * len >= 65536 ? ic_omp_threads(c->env) : 1;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int64_t r = 0; r < rows; r++) {
    if (f64) {
      double *p = (double *)y + (size_t)(r * len);
      const double *bd = bias;
      for (int64_t q = 0; q < len; q++) {
        double v = bd ? p[q] + bd[nhwc ? q : r % ch] : p[q];
        p[q] = ic_conv_act_apply(act, alpha, beta, v);
      }
      continue;
    }
    float *restrict p = (float *)y + (size_t)(r * len);
    const float *bf = bias;
    if (!nhwc && act == IC_ACT_RELU) { /* one pass: the sum, then relu */
      const float bv = bf ? bf[r % ch] : 0.0f;
      if (bf) {
        for (int64_t q = 0; q < len; q++) {
          float v = p[q] + bv;
          p[q] = v > 0 ? v : alpha * v;
        }
      } else {
        for (int64_t q = 0; q < len; q++) p[q] = p[q] > 0 ? p[q] : alpha * p[q];
      }
      continue;
    }
    if (bf && nhwc) {
      for (int64_t q = 0; q < len; q++) p[q] += bf[q];
    } else if (bf) {
      const float bv = bf[r % ch];
      for (int64_t q = 0; q < len; q++) p[q] += bv;
    }
    switch (act) {
      case IC_ACT_NONE: break;
      case IC_ACT_RELU:
        for (int64_t q = 0; q < len; q++) p[q] = p[q] > 0 ? p[q] : alpha * p[q];
        break;
      case IC_ACT_SIGMOID: ic_vsigmoidf(p, p, len); break;
      case IC_ACT_SWISH: ic_vswishf(p, p, len, alpha); break;
      default:
        for (int64_t q = 0; q < len; q++) p[q] = (float)ic_conv_act_apply(act, alpha, beta, p[q]);
    }
  }
}

/* The GEMM + col2im path; xdata is Input's data in plain NCHW or NHWC. */
static ic_status convt_gemm(ic_kctx *c, const geom *gp, const void *xdata) {
  const ic_convt_attrs *a = c->attrs;
  const geom g = *gp;
  ic_status st;
  const ic_tensor *x = ic_in(c, IC_CONVT_INPUT, 0), *f = ic_in(c, IC_CONVT_FILTER, 0);
  const ic_tensor *bt = ic_in(c, IC_CONVT_BIAS, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const bool f64 = x->dtype == IC_FP64;
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t cg = g.c / g.g, hw = g.h * g.w, ohw = g.oh * g.ow;
  const int64_t m = g.og * g.kh * g.kw;
  const size_t n_out = (size_t)(g.n * g.oc * ohw);
  if (n_out == 0) return IC_OK;
  ic_gemm gm = {.dtype = x->dtype, .trans_a = true, .m = m, .n = hw, .k = cg,
                .lda = m, .ldb = hw, .ldc = hw, .alpha = 1.0, .beta = 0.0};
  if ((st = ic_gemm_check(c, &gm))) return st;
  const size_t n_col = (size_t)(m * hw);
  const size_t n_in = a->nhwc ? (size_t)(g.n * g.c * hw) : 0;
  const size_t n_tmp = a->nhwc ? n_out : 0;
  ic_buffer *sb = ic_kscratch(c, (n_col + n_in + n_tmp) * es + es);
  if (!sb) return c->err->code;
  char *col = sb->data, *xin = col + n_col * es, *yout = xin + n_in * es;
  if (a->nhwc) {
    if (f64) f64_nchw(xdata, (double *)xin, g.n, g.c, hw, false);
    else f32_nchw(xdata, (float *)xin, g.n, g.c, hw, false);
  } else {
    xin = (char *)xdata;
    yout = out->data;
  }
  memset(yout, 0, n_out * es);
  ic_kernel_threads(c);
  for (int64_t n = 0; n < g.n; n++) {
    for (int64_t gi = 0; gi < g.g; gi++) {
      const char *xs = xin + (size_t)((n * g.c + gi * cg) * hw) * es;
      const char *fs = (const char *)f->data + (size_t)(gi * cg * m) * es;
      char *ys = yout + (size_t)((n * g.oc + gi * g.og) * ohw) * es;
      ic_gemm_run(c, &gm, fs, xs, col);
      if (f64) f64_col2im((const double *)col, (double *)ys, &g);
      else f32_col2im((const float *)col, (float *)ys, &g);
    }
  }
  finish(c, yout, bt ? bt->data : NULL, true);
  if (a->nhwc) {
    if (f64) f64_nchw((const double *)yout, out->data, g.n, g.oc, ohw, true);
    else f32_nchw((const float *)yout, out->data, g.n, g.oc, ohw, true);
  }
  ic_buffer_release(sb);
  return IC_OK;
}

/* ---------------------------------------------------------------------------------------
 * oneDNN path (float32)
 * ------------------------------------------------------------------------------------- */

typedef struct convt_state {
  /* what it was built for */
  int64_t in_dims[4], f_dims[4], out_hw[2];
  int threads;
  int in_layout;          /* Input's layout (tensor.h ic_layout) */
  bool use_gemm;          /* no oneDNN primitive for this geometry: the GEMM path runs */
  ic_dnnl_rt rt;
  ic_dnnl_prim deconv;
  ic_dnnl_prim src_re;    /* Input -> src_md, when they differ */
  ic_dnnl_prim dst_re;    /* dst_md -> Output, when they differ */
  ic_dnnl_prim w_re;      /* Filter (iohw) -> w_md, when they differ */
  dnnl_memory_t m_src_user, m_src, m_dst_user, m_dst, m_w_user, m_w;
  size_t src_bytes, dst_bytes, pad_bytes; /* per-call scratch: blocked src, dst; scratchpad */
  void *w_buf;            /* weights in w_md (owned), when w_re exists */
  const void *w_key;      /* the Filter buffer w_buf was made from, its size and a sample */
  size_t w_key_bytes;
  uint64_t w_key_sample;
} convt_state;

static void state_free(convt_state *s) {
  if (!s) return;
  ic_dnnl_prim *prims[] = {&s->deconv, &s->src_re, &s->dst_re, &s->w_re};
  for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++) ic_dnnl_prim_free(prims[i]);
  dnnl_memory_t mems[] = {s->m_src_user, s->m_src, s->m_dst_user, s->m_dst,
                          s->m_w_user,   s->m_w};
  for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++) {
    if (mems[i]) dnnl_memory_destroy(mems[i]);
  }
  free(s->w_buf);
  ic_dnnl_rt_free(&s->rt);
  free(s);
}

void ic_convt_free_state(void *state) { state_free(state); }

/* Whether channel blocks of `blk` hold whole groups of input and output channels (for a
 * depthwise one, whole blocks of channels): the layouts oneDNN's kernels run without
 * padding channels. */
static bool blocks_fit(const geom *g, int64_t blk) {
  if (g->c < 1) return false; /* no input channels: the GEMM path writes the zeros (+ Bias) */
  if (g->g > 1 && g->g == g->c && g->og == 1) return g->c % blk == 0;
  return (g->c / g->g) % blk == 0 && g->og % blk == 0;
}

/* Create the primitive, reorders and memory objects; IC_OK with s->use_gemm set when no
 * thread-invariant oneDNN implementation fits (an error only for real failures). */
static ic_status state_build(ic_kctx *c, const geom *g, convt_state *s) {
  const ic_convt_attrs *a = c->attrs;
  dnnl_status_t st = dnnl_unimplemented;
  dnnl_primitive_attr_t attr = NULL;
  dnnl_primitive_desc_t pd = NULL;
  const char *what = "";
  ic_status ret = IC_OK;
  /* Extra output rows shrink the right padding; oneDNN requires it above -stride. */
  const int64_t eh = g->oh - ((g->h - 1) * g->sh - g->pt - g->pb + g->dh * (g->kh - 1) + 1);
  const int64_t ew = g->ow - ((g->w - 1) * g->sw - g->pl - g->pr + g->dw * (g->kw - 1) + 1);
  dnnl_dims_t strides = {g->sh, g->sw}, dil = {g->dh - 1, g->dw - 1};
  dnnl_dims_t pad_l = {g->pt, g->pl}, pad_r = {g->pb - eh, g->pr - ew};
  static const dnnl_format_tag_t nchw_tags[] = {dnnl_nChw16c, dnnl_nChw8c};
  dnnl_format_tag_t tags[2];
  size_t n_tags = 0;
  if (a->nhwc) {
    if (blocks_fit(g, 8)) tags[n_tags++] = dnnl_nhwc;
  } else {
    for (size_t i = 0; i < 2; i++) {
      if (blocks_fit(g, nchw_tags[i] == dnnl_nChw16c ? 16 : 8)) tags[n_tags++] = nchw_tags[i];
    }
  }
  if (!n_tags || pad_r[0] + g->sh <= 0 || pad_r[1] + g->sw <= 0) {
    s->use_gemm = true;
    return IC_OK;
  }
  ic_status rs = ic_dnnl_rt_init(c, &s->rt);
  if (rs) return rs;
  int64_t sd[4] = {g->n, g->c, g->h, g->w}, dd[4] = {g->n, g->oc, g->oh, g->ow};
  dnnl_memory_desc_t src_user, dst_user, w_user, w_any;
  dnnl_dims_t wd = {g->g, g->og, g->c / g->g, g->kh, g->kw};
  const int wnd = g->g > 1 ? 5 : 4;
  const int64_t *wdims = g->g > 1 ? wd : wd + 1;

#define TRY(call, name)                                \
  do {                                                 \
    what = (name);                                     \
    if ((st = (call)) != dnnl_success) goto dnnl_fail; \
  } while (0)

  TRY(ic_dnnl_layout_md(&src_user, sd, s->in_layout, a->nhwc), "memory_desc_init");
  TRY(ic_dnnl_layout_md(&dst_user, dd, IC_LAYOUT_PLAIN, a->nhwc), "memory_desc_init");
  /* Paddle's Filter [C_in, C_out / groups, KH, KW] is oneDNN's (g)oihw stored i-major. */
  TRY(dnnl_memory_desc_init_by_tag(&w_user, wnd, wdims, dnnl_f32,
                                   wnd == 5 ? dnnl_giohw : dnnl_iohw),
      "memory_desc_init");
  TRY(dnnl_memory_desc_init_by_tag(&w_any, wnd, wdims, dnnl_f32, dnnl_format_tag_any),
      "memory_desc_init");
  /* Neither the Bias nor a fused activation goes to oneDNN 2.6's deconvolution: it applies
   * both in a generic loop after its kernel (PP-OCRv4 DB's 24 -> 24 2 x 2 stride-2 head with
   * bias and relu: 52-60 ms against 1.1 ms without), so finish() adds them after. */
  TRY(ic_dnnl_attr(&attr, NULL), "primitive_attr");
  /* The layout is chosen from the shapes alone (never from the Input's arrival layout), so
   * the plain and the blocked plan run the same primitive. */
  st = dnnl_unimplemented;
  for (size_t i = 0; i < n_tags && !pd; i++) {
    dnnl_memory_desc_t src_md, dst_md;
    dnnl_deconvolution_desc_t dd_desc;
    TRY(ic_dnnl_md4(&src_md, sd, tags[i]), "memory_desc_init");
    TRY(ic_dnnl_md4(&dst_md, dd, tags[i]), "memory_desc_init");
    st = dnnl_dilated_deconvolution_forward_desc_init(
        &dd_desc, dnnl_forward_inference, dnnl_deconvolution_direct, &src_md, &w_any, NULL,
        &dst_md, strides, dil, pad_l, pad_r);
    if (st == dnnl_success) st = ic_dnnl_pd_deterministic(&pd, &dd_desc, attr, &s->rt);
    if (st != dnnl_success) pd = NULL;
  }
  if (st == dnnl_unimplemented || st == dnnl_invalid_arguments) {
    pd = NULL;
    s->use_gemm = true;
    goto done;
  }
  what = "deconvolution primitive_desc_create";
  if (st != dnnl_success) {
    pd = NULL;
    goto dnnl_fail;
  }
  const dnnl_memory_desc_t *src_md = dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0);
  const dnnl_memory_desc_t *dst_md = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
  const dnnl_memory_desc_t *w_md = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
  TRY(ic_dnnl_prim_create(&s->rt, pd, &s->deconv), "deconvolution primitive_create");
  if (!dnnl_memory_desc_equal(src_md, &src_user)) {
    TRY(ic_dnnl_reorder(&s->rt, &src_user, src_md, &s->src_re), "reorder (Input)");
    s->src_bytes = dnnl_memory_desc_get_size(src_md);
  }
  if (!dnnl_memory_desc_equal(dst_md, &dst_user)) {
    TRY(ic_dnnl_reorder(&s->rt, dst_md, &dst_user, &s->dst_re), "reorder (Output)");
    s->dst_bytes = dnnl_memory_desc_get_size(dst_md);
  }
  if (!dnnl_memory_desc_equal(w_md, &w_user)) {
    TRY(ic_dnnl_reorder(&s->rt, &w_user, w_md, &s->w_re), "reorder (Filter)");
    what = "weights buffer";
    if (!(s->w_buf = aligned_alloc(64, ic_dnnl_align(dnnl_memory_desc_get_size(w_md))))) {
      st = dnnl_out_of_memory;
      goto dnnl_fail;
    }
  }
  what = "memory_create";
  st = dnnl_out_of_memory;
  if (!(s->m_src_user = ic_dnnl_mem(&s->rt, &src_user))) goto dnnl_fail;
  if (!(s->m_src = ic_dnnl_mem(&s->rt, src_md))) goto dnnl_fail;
  if (!(s->m_dst_user = ic_dnnl_mem(&s->rt, &dst_user))) goto dnnl_fail;
  if (!(s->m_dst = ic_dnnl_mem(&s->rt, dst_md))) goto dnnl_fail;
  if (!(s->m_w_user = ic_dnnl_mem(&s->rt, &w_user))) goto dnnl_fail;
  if (!(s->m_w = ic_dnnl_mem(&s->rt, w_md))) goto dnnl_fail;
  if (s->w_buf) TRY(dnnl_memory_set_data_handle(s->m_w, s->w_buf), "memory_set_data_handle");
  ic_dnnl_prim *prims[] = {&s->deconv, &s->src_re, &s->dst_re, &s->w_re};
  for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++) {
    if (prims[i]->pad_bytes > s->pad_bytes) s->pad_bytes = prims[i]->pad_bytes;
  }
  goto done;
#undef TRY
dnnl_fail:
  ret = ic_dnnl_fail(c, st, what);
done:
  if (pd) dnnl_primitive_desc_destroy(pd);
  if (attr) dnnl_primitive_attr_destroy(attr);
  return ret;
}

static bool state_matches(const convt_state *s, const ic_kctx *c, const geom *g, int threads) {
  const ic_tensor *x = ic_in(c, IC_CONVT_INPUT, 0), *f = ic_in(c, IC_CONVT_FILTER, 0);
  return s && ic_dims_equal(4, s->in_dims, x->ndim, x->dims) && s->out_hw[0] == g->oh &&
         s->out_hw[1] == g->ow &&
         ic_dims_equal(4, s->f_dims, f->ndim, f->dims) && s->threads == threads && s->in_layout == x->layout;
}

/* Bring *ctx->state up to date for these inputs. */
static ic_status state_get(ic_kctx *c, const geom *g, int threads, convt_state **out) {
  const ic_tensor *x = ic_in(c, IC_CONVT_INPUT, 0), *f = ic_in(c, IC_CONVT_FILTER, 0);
  convt_state *s = *c->state;
  *out = NULL;
  if (state_matches(s, c, g, threads)) {
    *out = s;
    return IC_OK;
  }
  state_free(s);
  *c->state = NULL;
  if (!(s = calloc(1, sizeof *s))) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  memcpy(s->in_dims, x->dims, sizeof s->in_dims);
  memcpy(s->f_dims, f->dims, sizeof s->f_dims);
  s->out_hw[0] = g->oh;
  s->out_hw[1] = g->ow;
  s->threads = threads;
  s->in_layout = x->layout;
  ic_status st = state_build(c, g, s);
  if (st) {
    state_free(s);
    return st;
  }
  *c->state = *out = s;
  return IC_OK;
}

static ic_status convt_dnnl(ic_kctx *c, convt_state *s) {
  const ic_tensor *x = ic_in(c, IC_CONVT_INPUT, 0), *f = ic_in(c, IC_CONVT_FILTER, 0);
  const ic_tensor *b = ic_in(c, IC_CONVT_BIAS, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  size_t o_dst = ic_dnnl_align(s->src_bytes), o_pad = o_dst + ic_dnnl_align(s->dst_bytes);
  size_t total = o_pad + ic_dnnl_align(s->pad_bytes);
  ic_buffer *sb = NULL;
  if (total && !(sb = ic_kscratch(c, total))) return c->err->code;
  char *scratch = sb ? sb->data : NULL;
  void *pad = scratch ? scratch + o_pad : NULL;
  dnnl_status_t st;
  const char *what;
  ic_status ret = IC_OK;
#define TRY(call, name)                           \
  do {                                            \
    what = (name);                                \
    if ((st = (call)) != dnnl_success) goto fail; \
  } while (0)

  size_t fbytes = (size_t)ic_tensor_numel_(f) * sizeof(float);
  if (s->w_re.p) {
    uint64_t sample = ic_dnnl_filter_sample(f->data, fbytes / sizeof(float));
    if (s->w_key != f->data || s->w_key_bytes != fbytes || s->w_key_sample != sample) {
      s->w_key = NULL;
      TRY(dnnl_memory_set_data_handle(s->m_w_user, f->data), "memory_set_data_handle");
      TRY(ic_dnnl_exec_reorder(&s->rt, &s->w_re, pad, s->m_w_user, s->m_w), "reorder (Filter)");
      s->w_key = f->data;
      s->w_key_bytes = fbytes;
      s->w_key_sample = sample;
    }
  } else {
    TRY(dnnl_memory_set_data_handle(s->m_w, f->data), "memory_set_data_handle");
  }
  TRY(dnnl_memory_set_data_handle(s->m_src_user, x->data), "memory_set_data_handle");
  TRY(dnnl_memory_set_data_handle(s->m_dst_user, y->data), "memory_set_data_handle");
  TRY(dnnl_memory_set_data_handle(s->m_dst, s->dst_re.p ? scratch + o_dst : y->data),
      "memory_set_data_handle");
  if (s->src_re.p) {
    TRY(dnnl_memory_set_data_handle(s->m_src, scratch), "memory_set_data_handle");
    TRY(ic_dnnl_exec_reorder(&s->rt, &s->src_re, pad, s->m_src_user, s->m_src),
        "reorder (Input)");
  }
  dnnl_exec_arg_t args[5];
  int n = 0;
  args[n++] = (dnnl_exec_arg_t){DNNL_ARG_SRC, s->src_re.p ? s->m_src : s->m_src_user};
  args[n++] = (dnnl_exec_arg_t){DNNL_ARG_WEIGHTS, s->m_w};
  args[n++] = (dnnl_exec_arg_t){DNNL_ARG_DST, s->m_dst};
  TRY(ic_dnnl_exec(&s->rt, &s->deconv, pad, n, args), "deconvolution execute");
  if (s->dst_re.p) {
    TRY(ic_dnnl_exec_reorder(&s->rt, &s->dst_re, pad, s->m_dst, s->m_dst_user),
        "reorder (Output)");
  }
  finish(c, y->data, b ? b->data : NULL, false);
  goto done;
#undef TRY
fail:
  ret = ic_dnnl_fail(c, st, what);
done:
  ic_buffer_release(sb);
  return ret;
}

/* The GEMM path reads plain tensors: a blocked Input is unpacked into scratch first. */
static ic_status convt_gemm_plain(ic_kctx *c, const geom *g) {
  const ic_tensor *x = ic_in(c, IC_CONVT_INPUT, 0);
  if (!x->layout) return convt_gemm(c, g, x->data);
  ic_buffer *sb = ic_kscratch(c, (size_t)ic_tensor_numel_(x) * sizeof(float));
  if (!sb) return c->err->code;
  ic_blocked_to_plain(x->data, (float *)sb->data, x->dims, ic_layout_block(x->layout));
  ic_status st = convt_gemm(c, g, sb->data);
  ic_buffer_release(sb);
  return st;
}

ic_status ic_convt_cpu(ic_kctx *c) {
  geom g;
  ic_status st = check_layout(c);
  if (!st) st = ic_convt_geometry(c, &g);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IC_CONVT_INPUT, 0);
  if (x->dtype != IC_FP32) return convt_gemm(c, &g, x->data);
  if (g.n * g.oc * g.oh * g.ow == 0) return IC_OK;
  int threads = ic_dnnl_threads(c);
  int prev = ic_dnnl_threads_set(threads);
  convt_state *s;
  st = state_get(c, &g, threads, &s);
  if (!st) st = s->use_gemm ? convt_gemm_plain(c, &g) : convt_dnnl(c, s);
  ic_dnnl_threads_restore(prev);
  return st;
}
