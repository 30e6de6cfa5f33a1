/* The oneDNN path of conv2d / depthwise_conv2d (conv.h), float32: one convolution
 * primitive with its post-ops (bias, residual sum, activation, affines, a fused depthwise
 * convolution), the reorders around it, the filter in the primitive's layout, all kept in
 * the instruction's kernel state (conv_state) and rebuilt when the inputs' shapes or layouts,
 * the thread count or the affines' values change; an ic_InScale scales the filter or the
 * Input each run. See conv.c for the layout and determinism rules. The same state also
 * serves the one case run without a primitive: a 1 x 1 convolution of one 1 x 1 image with
 * a large filter, icore's GEMV (pixel_gemv below). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/conv_impl.h"
#include "kernels/cpu/gemv.h"
#include "kernels/cpu/onednn.h"
#include "kernels/cpu/vmath.h"

typedef ic_conv_geom geom;

/* The same after a Winograd primitive that took no activation (conv_state.wino_act): the
 * vectorized exponentials (vmath.h) for swish, sigmoid and tanh, float loops for relu and
 * clip, whose results equal the double formula's; the rest as epilogue_f32. A Winograd
 * convolution already differs from the direct one by more than these ulps. */
static void epilogue_fast_range(const ic_conv_attrs *a, const ic_conv_affine *f, float *y,
                                int64_t len) {
  if (f->pre_on) {
    const float sc = (float)f->pre_scale, bi = (float)f->pre_bias;
    for (int64_t i = 0; i < len; i++) {
      float p = y[i] * sc;
      y[i] = p + bi;
    }
  }
  const float al = a->alpha, be = a->beta;
  switch (a->act) {
    case IC_ACT_NONE: break;
    case IC_ACT_RELU:
      for (int64_t i = 0; i < len; i++) y[i] = y[i] > 0 ? y[i] : al * y[i];
      break;
    case IC_ACT_CLIP:
      for (int64_t i = 0; i < len; i++) y[i] = y[i] > be ? be : y[i] > al ? y[i] : al;
      break;
    case IC_ACT_SWISH: ic_vswishf(y, y, len, al); break;
    case IC_ACT_SIGMOID: ic_vsigmoidf(y, y, len); break;
    case IC_ACT_TANH: ic_vtanhf(y, y, len); break;
    default:
      for (int64_t i = 0; i < len; i++) y[i] = (float)ic_conv_act_apply(a->act, al, be, y[i]);
  }
  if (f->on) {
    const float sc = (float)f->scale, bi = (float)f->bias;
    for (int64_t i = 0; i < len; i++) {
      float p = y[i] * sc;
      y[i] = p + bi;
    }
  }
}

/* Over the kernel's threads in fixed 16384-element chunks: every element's value is the same
 * whatever the split (vmath's forms give the same bits at any offset and width). */
static void epilogue_fast_f32(const ic_conv_attrs *a, const ic_conv_affine *f, float *y, size_t n,
                              int threads) {
  const int64_t len = (int64_t)n, chunk = 16384, nc = (len + chunk - 1) / chunk;
  const int nt = threads > 1 && nc > 1 ? (nc < threads ? (int)nc : threads) : 1;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int64_t k = 0; k < nc; k++) {
    const int64_t lo = k * chunk, hi = lo + chunk < len ? lo + chunk : len;
    epilogue_fast_range(a, f, y + lo, hi - lo);
  }
}

/* ---------------------------------------------------------------------------------------
 * oneDNN path (float32)
 * ------------------------------------------------------------------------------------- */

/* A weights buffer in the primitive's layout is redone only when its source changes: the
 * buffer (pointer and size) or a sample of its values. */
typedef struct wkey {
  const void *ptr;
  size_t bytes;
  uint64_t sample;
} wkey;

typedef struct conv_state {
  /* what it was built for */
  int64_t in_dims[4], f_dims[4];
  bool has_bias;
  int threads;
  int in_layout, res_layout; /* layouts of Input and ResidualData (tensor.h ic_layout) */
  bool use_ref;             /* oneDNN has no implementation: the reference path runs */
  bool act_after;           /* an activation oneDNN 2.6 cannot express: a loop applies it
                               (and the affines around it) */
  bool wino;                /* the primitive runs Winograd's algorithm */
  bool pix;                 /* a batch of 1 x 1 images run as one image (images_as_pixels) */
  bool gemv;                /* one 1 x 1 image: icore's GEMV, no primitive (pixel_gemv) */
  float *gw;                /* the Filter transposed for it (owned), keyed like w_buf */
  wkey gw_key;
  bool wino_act;            /* with act_after: a Winograd primitive that takes no such
                               post-op; the loop is epilogue_fast_f32 */
  ic_conv_affine aff;               /* the fused affines the primitive was built with (post-ops) */
  int bin_idx[2];           /* post-op indices of the affine's binary mul and add (-1: none) */
  float bin_vals[2];        /* their one-element operands */
  dnnl_memory_desc_t one_md;
  dnnl_memory_t m_bin[2];
  int out_layout;           /* the layout Output is written in */
  bool pad_room;            /* Output's storage has room for nChw16c with padded channels */
  bool per_image;           /* built for one image: an ic_InScale of N images runs the
                               primitive once per image, each with its own scaled filter */
  size_t src_img, dst_img, res_img; /* bytes of one image of Input, Output, ResidualData */
  size_t dst_md_bytes;      /* the primitive's destination, padding included */
  ic_dnnl_rt rt;
  ic_dnnl_prim conv;
  ic_dnnl_prim src_re;      /* Input -> src_md, when they differ */
  ic_dnnl_prim dst_re;      /* dst_md -> Output, when they differ */
  ic_dnnl_prim res_re;      /* ResidualData -> dst_md, when they differ and residual fuses */
  ic_dnnl_prim w_re;        /* Filter (OIHW) -> w_md, when they differ */
  dnnl_memory_t m_src_user, m_src, m_dst_user, m_dst, m_w_user, m_w, m_bias, m_res;
  size_t src_bytes, dst_bytes, pad_bytes; /* per-call scratch: blocked src, dst; scratchpad */
  void *w_buf;              /* weights in w_md (owned), when w_re exists */
  wkey w_key;               /* the Filter buffer w_buf was made from */
  /* A fused depthwise convolution (ic_dw_stride): its filter in the primitive's layout
   * (dww_buf, owned, keyed like w_buf), and zeros for an absent ic_DwBias. */
  ic_dnnl_prim dww_re;
  dnnl_memory_t m_dww_user, m_dww, m_dwb;
  void *dww_buf;
  float *dwb_zero;
  wkey dww_key;
} conv_state;

static void state_free(conv_state *s) {
  if (!s) return;
  ic_dnnl_prim *prims[] = {&s->conv, &s->src_re, &s->dst_re, &s->res_re, &s->w_re, &s->dww_re};
  for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++) ic_dnnl_prim_free(prims[i]);
  dnnl_memory_t mems[] = {s->m_src_user, s->m_src, s->m_dst_user, s->m_dst,
                          s->m_w_user,   s->m_w,   s->m_bias,     s->m_res,
                          s->m_bin[0],   s->m_bin[1], s->m_dww_user, s->m_dww, s->m_dwb};
  for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++) {
    if (mems[i]) dnnl_memory_destroy(mems[i]);
  }
  free(s->w_buf);
  free(s->dww_buf);
  free(s->dwb_zero);
  free(s->gw);
  ic_dnnl_rt_free(&s->rt);
  free(s);
}

void ic_conv_free_state(void *state) { state_free(state); }

bool ic_conv_state_winograd(const void *state) {
  const conv_state *s = state;
  return s && s->wino;
}

bool ic_conv_state_images_as_pixels(const void *state) {
  const conv_state *s = state;
  return s && s->pix;
}

bool ic_conv_state_gemv(const void *state) {
  const conv_state *s = state;
  return s && s->gemv;
}

/* The layout of the ResidualData the kernel reads (plain when it reads none). */
static int res_layout(const ic_kctx *c) {
  const ic_conv_attrs *a = c->attrs;
  const ic_tensor *r = a->residual ? ic_in(c, IC_CONV_RESIDUAL, 0) : NULL;
  return r ? r->layout : IC_LAYOUT_PLAIN;
}

/* The affines' values are baked into the primitive (post-ops): new values rebuild it. */
static bool aff_equal(const ic_conv_affine *f, const ic_kctx *c) {
  ic_conv_affine now = ic_conv_affine_of(c);
  return f->on == now.on && f->scale == now.scale && f->bias == now.bias &&
         f->pre_on == now.pre_on && f->pre_scale == now.pre_scale &&
         f->pre_bias == now.pre_bias;
}

static bool state_matches(const conv_state *s, const ic_kctx *c, bool has_bias, int threads,
                          bool pad_room, bool per_image) {
  const ic_tensor *x = ic_in(c, IC_CONV_INPUT, 0), *f = ic_in(c, IC_CONV_FILTER, 0);
  return s && ic_dims_equal(4, s->in_dims, x->ndim, x->dims) &&
         ic_dims_equal(4, s->f_dims, f->ndim, f->dims) && s->has_bias == has_bias &&
         s->threads == threads && s->in_layout == x->layout && s->res_layout == res_layout(c) &&
         s->pad_room == pad_room && s->per_image == per_image && aff_equal(&s->aff, c);
}

/* Whether a convolution marked ic_winograd asks oneDNN for Winograd's algorithm first: a
 * float32 3 x 3 convolution of one image, stride 1, no dilation, one group, at most one
 * pixel of padding on each side (oneDNN's Winograd kernels take no more), at least 24
 * channels in and 32 out, and an output at least 6 x 6.
 *
 * One image: only oneDNN's 2x3 kernel is allowed (onednn.c, thread_invariant), and it offers
 * itself for a batch of B only when it has at least B threads (batch 2: not at 1 thread, at
 * 2 and more; batch 4: from 4), so a batch would run Winograd or not depending on the thread
 * count. For one image its offer was the same at 1, 2, 3, 4, 6, 8, 16, 32 and 64 threads on
 * all 840 shapes tried (24-1024 channels in, 32-512 out, 6 x 6 to 160 x 160). Where oneDNN
 * offers only its 4x3 kernel (wide layers: 256 -> 256 at 40 x 40, 288 at 20 x 20), or
 * declines (asymmetric padding), the direct kernel runs.
 *
 * The bounds, measured with oneDNN 2.6 on AVX-512 at one thread, the direct kernel icore
 * runs (jit) against Winograd's 2x3 kernel, ms: 72 -> 72 at 80 x 80 4.06 / 1.73, 36 at 160 x
 * 160 4.78 / 3.09, 24 -> 48 at 320 x 320 13.4 / 8.4, 144 at 40 x 40 2.57 / 1.97, 24 -> 32 at
 * 60 x 60 0.364 / 0.332, 64 at 8 x 8 0.022 / 0.015, 128 at 7 x 7 0.072 / 0.048, 512 at 7 x 7
 * 1.26 / 1.19; where Winograd lost: 24 -> 24 at 320 x 320 (8.9 / 9.7), 16 channels (0.31 /
 * 0.52 at 112 x 112), 8 and 12 channels (0.37x-0.46x), 3 -> 64 (0.30x), 256 at 4 x 4
 * (0.90x), images 1 or 2 rows high (0.11x-0.53x). The results differ from the direct
 * convolution's by about 1e-6 of the output's largest magnitude. */
static bool wino_eligible(const ic_conv_attrs *a, const geom *g, ic_dtype dt) {
  return a->winograd && dt == IC_FP32 && !a->nhwc && !a->dw_stride && g->n == 1 && g->g == 1 &&
         g->kh == 3 && g->kw == 3 && g->sh == 1 && g->sw == 1 && g->dh == 1 && g->dw == 1 &&
         g->pt <= 1 && g->pb <= 1 && g->pl <= 1 && g->pr <= 1 && g->c >= 24 && g->oc >= 32 &&
         g->oh >= 6 && g->ow >= 6;
}

/* A 1 x 1 convolution of a batch of 1 x 1 images (a classifier head's "last conv" after
 * global pooling, as in PP-HGNet, 1024 -> 2048, and the PP-LCNet family) is a
 * product of the images by the filter. As N separate images, oneDNN's kernel reads the whole
 * filter once per image (PP-HGNet at batch 8: 8 MiB, 8 times, 1.9 ms at 18 GFLOP/s); run
 * instead as one image of N pixels in NHWC (dims [1, C, 1, N]), it reads it once. For 1 x 1
 * images the bytes are the same in every layout icore passes: NCHW, NHWC and nChw8c / nChw16c
 * with whole channel blocks are all [N][C], so Input, ResidualData and Output are used where
 * they are. Channel counts multiples of 16 (no padded blocks on any ISA). A function of the
 * shapes alone, so plain and blocked plans run the same primitive. */
static bool images_as_pixels(const ic_kctx *c, const geom *g) {
  const ic_conv_attrs *a = c->attrs;
  return !a->nhwc && !a->dw_stride && g->n > 1 && g->g == 1 && g->kh == 1 && g->kw == 1 &&
         g->h == 1 && g->w == 1 && !g->pt && !g->pb && !g->pl && !g->pr && g->c % 16 == 0 &&
         g->oc % 16 == 0 && !ic_in(c, IC_CONV_IN_SCALE, 0);
}

/* The same layer at batch 1 is a matrix-vector product, and oneDNN's jit_1x1 computes it on
 * one thread whatever it is given: PP-HGNet's 1024 -> 2048 head took 0.47 ms at one thread
 * and 0.49 at two, reading its 8 MiB filter at one core's bandwidth. For a filter of 1 MiB
 * or more it runs instead as icore's GEMV (gemv.h ic_gemv_acc_f32_ld) on the filter
 * transposed once to [C][C_out]: 16 rows of it streamed side by side (more reads in flight
 * than one stream), each output one rounded product and sum per input channel in ascending
 * order, so the same bits however the output channels are split over the kernel's threads;
 * then the bias and the epilogue of the reference path (ic_conv_epilogue_f32). Input,
 * ResidualData and Output are [C] and [C_out] in every layout (see images_as_pixels; padded
 * channel blocks only append). A function of the shapes alone. Measured on that filter
 * from memory (8 MiB, cold, best / mean of 30 calls): this form 0.28-0.36 / 0.36-0.51 ms at
 * one thread, 0.18 / 0.27 at two; the packed GEMV (one panel streamed at a time)
 * 0.47-0.53 ms at one. In the model (docs/BENCHMARKS.md 5b''') one thread is at parity with
 * oneDNN, two threads gain 0.1-0.15 ms. */
static bool pixel_gemv(const ic_kctx *c, const geom *g) {
  const ic_conv_attrs *a = c->attrs;
  return !a->nhwc && !a->dw_stride && g->n == 1 && g->g == 1 && g->kh == 1 && g->kw == 1 &&
         g->h == 1 && g->w == 1 && !g->pt && !g->pb && !g->pl && !g->pr &&
         g->c * g->oc >= (1 << 18) && !ic_in(c, IC_CONV_IN_SCALE, 0) && ic_gemv_available();
}

/* The layout a one-pixel path tags its Output with: for 1 x 1 images [N][C_out] is also
 * whole channel blocks where C_out fills them, so where the op is marked it is tagged as the
 * readers' blocked layout (the bytes are the same), else plain. */
static int one_pixel_layout(const ic_conv_attrs *a, int64_t oc) {
  const int blk = ic_dnnl_native_block();
  if (!a->blocked_out || oc % blk) return IC_LAYOUT_PLAIN;
  return blk == 16 ? IC_LAYOUT_NCHW16C : IC_LAYOUT_NCHW8C;
}

/* Create every primitive and memory object for this geometry and these input layouts.
 * Returns IC_OK with s->use_ref set when oneDNN has no implementation; an error only for
 * real failures.
 *
 * The primitive itself never depends on the layouts the tensors arrive or leave in: it is
 * always created with oneDNN's preferred ("any") source and destination (channel blocks
 * for a depthwise convolution where an implementation takes them), and reorders
 * bridge whatever differs. A blocked Input or ResidualData in the primitive's own layout
 * therefore only drops a reorder, and a blocked Output (ic_blocked_out) is the primitive's
 * destination itself: the values are bitwise those of the plain tensors. */
static ic_status state_build(ic_kctx *c, const geom *g, conv_state *s) {
  const ic_conv_attrs *a = c->attrs;
  dnnl_status_t st;
  dnnl_post_ops_t po = NULL, po_sum = NULL;
  dnnl_primitive_attr_t attr = NULL, attr_sum = NULL;
  dnnl_primitive_desc_t pd = NULL;
  const char *what = "";
  ic_status ret = IC_OK;
  ic_status rs = ic_dnnl_rt_init(c, &s->rt);
  if (rs) return rs;
  /* A debugging and test knob, read when a state is built: every float32 convolution on the
   * reference path (the one taken where oneDNN has no implementation). */
  const char *force_ref = getenv("ICORE_CONV_REFERENCE");
  if (force_ref && !strcmp(force_ref, "1")) {
    s->use_ref = true;
    return IC_OK;
  }
  if (pixel_gemv(c, g)) {
    s->gemv = true;
    const size_t bytes = (size_t)(g->c * g->oc) * sizeof(float);
    if (!(s->gw = aligned_alloc(64, ic_dnnl_align(bytes)))) {
      return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory (transposed filter, %zu bytes)",
                      bytes);
    }
    return IC_OK;
  }

  const bool pix = s->pix = images_as_pixels(c, g);
  const bool nhwc = a->nhwc || pix; /* the primitive's and the user tensors' layout */
  dnnl_format_tag_t prim_tag = nhwc ? dnnl_nhwc : dnnl_format_tag_any;
  /* dd: the convolution's destination; yd: Output (a fused depthwise convolution's). */
  int64_t sd[4] = {g->n, g->c, g->h, g->w}, dd[4] = {g->n, g->oc, g->oh, g->ow}, yd[4];
  ic_conv_out_dims(a, g, yd);
  if (pix) { /* one image of N pixels */
    sd[0] = dd[0] = 1;
    sd[3] = dd[3] = g->n;
  }
  if (nhwc) memcpy(yd, dd, sizeof yd); /* ic_dnnl_layout_md takes logical NCHW dims */
  dnnl_memory_desc_t src_user, dst_user, res_user, src_any, dst_any, w_user, w_any, b_md;
  dnnl_dims_t wd = {g->g, g->oc / g->g, g->c / g->g, g->kh, g->kw};
  int wnd = g->g > 1 ? 5 : 4;
  const int64_t *wdims = g->g > 1 ? wd : wd + 1;
  dnnl_dims_t bd = {g->oc};
  /* oneDNN wants the padded extent to match its output exactly; where Paddle's truncating
   * division gives one output from a kernel overhanging the padding, extend the padding
   * (the overhang reads zeros, as in Paddle's im2col). */
  int64_t dkh = g->dh * (g->kh - 1) + 1, dkw = g->dw * (g->kw - 1) + 1;
  int64_t pb = g->pb, pr = g->pr;
  if (g->h + g->pt + pb - dkh < 0) pb = (g->oh - 1) * g->sh + dkh - g->h - g->pt;
  if (g->w + g->pl + pr - dkw < 0) pr = (g->ow - 1) * g->sw + dkw - g->w - g->pl;
  dnnl_dims_t strides = {g->sh, g->sw}, dil = {g->dh - 1, g->dw - 1};
  if (pix) strides[0] = strides[1] = 1, dil[0] = dil[1] = 0; /* the pixels are the images */
  dnnl_dims_t pad_l = {g->pt, g->pl}, pad_r = {pb, pr};

#define TRY(call, name)                  \
  do {                                   \
    what = (name);                       \
    if ((st = (call)) != dnnl_success) goto dnnl_fail; \
  } while (0)

  TRY(ic_dnnl_layout_md(&src_user, sd, pix ? IC_LAYOUT_PLAIN : s->in_layout, nhwc),
      "memory_desc_init");
  TRY(ic_dnnl_layout_md(&dst_user, yd, IC_LAYOUT_PLAIN, nhwc), "memory_desc_init");
  TRY(ic_dnnl_layout_md(&res_user, yd, pix ? IC_LAYOUT_PLAIN : s->res_layout, nhwc),
      "memory_desc_init");
  TRY(ic_dnnl_md4(&src_any, sd, prim_tag), "memory_desc_init");
  TRY(ic_dnnl_md4(&dst_any, dd, prim_tag), "memory_desc_init");
  TRY(dnnl_memory_desc_init_by_tag(&w_user, wnd, wdims, dnnl_f32, wnd == 5 ? dnnl_goihw : dnnl_oihw),
      "memory_desc_init");
  TRY(dnnl_memory_desc_init_by_tag(&w_any, wnd, wdims, dnnl_f32, dnnl_format_tag_any),
      "memory_desc_init");
  TRY(dnnl_memory_desc_init_by_tag(&b_md, 1, bd, dnnl_f32, dnnl_x), "memory_desc_init");
  TRY(dnnl_post_ops_create(&po), "post_ops_create");
  if (a->residual) TRY(dnnl_post_ops_append_sum(po, 1.0f), "post_ops_append_sum");
  /* hard_sigmoid is itself a linear (see ic_conv_act_post_ops): after an affine before it, the
   * loop applies all three (see below on two linears). */
  s->act_after = !ic_conv_act_in_dnnl(a->act, a->alpha, a->beta) ||
                 (s->aff.pre_on && a->act == IC_ACT_HARD_SIGMOID);
  if (!s->act_after) {
    /* scale * s + bias: oneDNN's linear eltwise, before and after the activation. oneDNN
     * 2.6's jit kernels keep one injector per eltwise algorithm, so a second linear in the
     * chain would run with the first one's alpha and beta: the affine after the activation
     * is then a binary mul and add of one-element tensors instead (each rounded, as the
     * unfused ops). */
    bool pre = s->aff.pre_on;
    if (pre) {
      TRY(dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_linear, (float)s->aff.pre_scale,
                                       (float)s->aff.pre_bias),
          "post_ops_append_eltwise (affine before the activation)");
    }
    ic_conv_act_post_ops(a->act, a->alpha, a->beta, po, &st);
    what = "post_ops_append_eltwise";
    if (st != dnnl_success) goto dnnl_fail;
    if (s->aff.on && (pre || a->act == IC_ACT_HARD_SIGMOID)) {
      dnnl_dims_t one = {1, 1, 1, 1};
      TRY(dnnl_memory_desc_init_by_tag(&s->one_md, 4, one, dnnl_f32, dnnl_nchw),
          "memory_desc_init");
      s->bin_vals[0] = (float)s->aff.scale;
      s->bin_vals[1] = (float)s->aff.bias;
      if (ic_in(c, IC_CONV_AFF_SCALE, 0)) {
        s->bin_idx[0] = dnnl_post_ops_len(po);
        TRY(dnnl_post_ops_append_binary(po, dnnl_binary_mul, &s->one_md), "post_ops_append_binary");
      }
      if (ic_in(c, IC_CONV_AFF_BIAS, 0)) {
        s->bin_idx[1] = dnnl_post_ops_len(po);
        TRY(dnnl_post_ops_append_binary(po, dnnl_binary_add, &s->one_md), "post_ops_append_binary");
      }
    } else if (s->aff.on) {
      TRY(dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_linear, (float)s->aff.scale,
                                       (float)s->aff.bias),
          "post_ops_append_eltwise (affine)");
    }
  }
  if (a->dw_stride) {
    /* The depthwise convolution reads the 1 x 1 one's activated rows as they are made (in
     * the native jit_1x1 fusion: a few rows in cache, instead of the whole intermediate
     * tensor through memory), then its own activation. dw_check made both expressible. */
    TRY(dnnl_post_ops_append_dw(po, dnnl_f32, dnnl_f32, dnnl_f32, 3, a->dw_stride, 1, 0, 0, NULL),
        "post_ops_append_dw");
    ic_conv_act_post_ops(a->dw_act, a->dw_alpha, a->dw_beta, po, &st);
    what = "post_ops_append_eltwise (depthwise activation)";
    if (st != dnnl_success) goto dnnl_fail;
  }
  TRY(ic_dnnl_attr(&attr, po), "primitive_attr");
  /* oneDNN 2.6's Winograd kernels take a sum and relu as post-ops, not the other activations
   * or the affines: for those a second attribute with the sum alone, and the loop after the
   * primitive (act_after) applies the rest, as it does for activations oneDNN lacks. */
  const bool try_wino = wino_eligible(a, g, ic_in(c, IC_CONV_INPUT, 0)->dtype);
  if (try_wino && !s->act_after && dnnl_post_ops_len(po) > (a->residual ? 1 : 0)) {
    TRY(dnnl_post_ops_create(&po_sum), "post_ops_create");
    if (a->residual) TRY(dnnl_post_ops_append_sum(po_sum, 1.0f), "post_ops_append_sum");
    TRY(ic_dnnl_attr(&attr_sum, po_sum), "primitive_attr");
  }

  dnnl_convolution_desc_t cd;
  /* A depthwise convolution left the choice takes NHWC on AVX-512, which would cut a chain
   * of blocked activations into two reorders around every depthwise layer: it asks for
   * channel blocks first (16, the AVX-512 kernel's, with the channels padded where their
   * count is not a multiple of 16: jit_dw:avx512_core over 120 channels padded took 12.4 us
   * against 16.8 for AVX2's nChw8c at 4x160, and it chains with padded 1x1 layers; then 8,
   * AVX2's), "any" only when no implementation takes them. The choice depends on the shapes alone, never on the layouts
   * the tensors arrive in, so the plain and the blocked plan run the same primitive. */
  /* A 1 x 1 convolution with a depthwise one fused (ic_dw_stride) asks for channel blocks
   * too: left the choice, oneDNN's fallback for the pairs its jit_1x1 kernel declines (at 2
   * threads, MobileNetV2's 32 -> 32 at 112 x 112) runs brgconv_1x1 and brdgmm_dw, whose sums
   * depend on the thread count; with blocks it runs jit_1x1 then jit_dw. */
  static const dnnl_format_tag_t dw_tags[] = {dnnl_nChw16c, dnnl_nChw8c};
  bool dw = (!a->nhwc && g->g > 1 && g->g == g->c && g->oc == g->c) || a->dw_stride;
  st = dnnl_unimplemented;
  for (size_t i = 0; dw && i < sizeof dw_tags / sizeof dw_tags[0] && !pd; i++) {
    if (dw_tags[i] == dnnl_nChw8c && (g->c % 8 || g->oc % 8)) continue;
    dnnl_memory_desc_t src_b, dst_b;
    TRY(ic_dnnl_md4(&src_b, sd, dw_tags[i]), "memory_desc_init");
    TRY(ic_dnnl_md4(&dst_b, dd, dw_tags[i]), "memory_desc_init");
    st = dnnl_dilated_convolution_forward_desc_init(
        &cd, dnnl_forward_inference, dnnl_convolution_direct, &src_b, &w_any,
        s->has_bias ? &b_md : NULL, &dst_b, strides, dil, pad_l, pad_r);
    if (st == dnnl_success) st = ic_dnnl_pd_deterministic(&pd, &cd, attr, &s->rt);
    if (st != dnnl_success) pd = NULL;
  }
  /* Winograd where marked and eligible; where oneDNN declines (a post-op its kernels lack,
   * an ISA without them), the direct convolution below. */
  if (!pd && try_wino) {
    st = dnnl_convolution_forward_desc_init(&cd, dnnl_forward_inference,
                                            dnnl_convolution_winograd, &src_any, &w_any,
                                            s->has_bias ? &b_md : NULL, &dst_any, strides,
                                            pad_l, pad_r);
    const bool wino_desc = st == dnnl_success;
    if (wino_desc) st = ic_dnnl_pd_deterministic(&pd, &cd, attr, &s->rt);
    if (st != dnnl_success) pd = NULL;
    s->wino = pd != NULL;
    if (!pd && wino_desc && attr_sum) {
      st = ic_dnnl_pd_deterministic(&pd, &cd, attr_sum, &s->rt);
      if (st != dnnl_success) {
        pd = NULL;
      } else {
        s->act_after = s->wino_act = s->wino = true;
        s->bin_idx[0] = s->bin_idx[1] = -1;
      }
    }
  }
  if (!pd) {
    st = dnnl_dilated_convolution_forward_desc_init(
        &cd, dnnl_forward_inference, dnnl_convolution_direct, &src_any, &w_any,
        s->has_bias ? &b_md : NULL, &dst_any, strides, dil, pad_l, pad_r);
    if (st == dnnl_success) st = ic_dnnl_pd_deterministic(&pd, &cd, attr, &s->rt);
  }
  if (st == dnnl_unimplemented || st == dnnl_invalid_arguments) {
    pd = NULL;
    s->use_ref = true;
    goto done;
  }
  what = "convolution primitive_desc_create";
  if (st != dnnl_success) {
    pd = NULL;
    goto dnnl_fail;
  }
  const dnnl_memory_desc_t *src_md = dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0);
  const dnnl_memory_desc_t *dst_md = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
  const dnnl_memory_desc_t *w_md = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
  TRY(ic_dnnl_prim_create(&s->rt, pd, &s->conv), "convolution primitive_create");
  /* Marked: the Output stays in the primitive's layout when a tensor may hold that one. */
  /* Padded channels only where the storage has room and no loop runs over the Output after
   * the primitive (it would write the padding). */
  s->out_layout = a->blocked_out && !nhwc
                      ? ic_dnnl_md_layout_pad(dst_md, yd, s->pad_room && !s->act_after)
                      : IC_LAYOUT_PLAIN;
  if (pix) s->out_layout = one_pixel_layout(a, g->oc);
  s->dst_md_bytes = dnnl_memory_desc_get_size(dst_md);
  if (s->out_layout) dst_user = *dst_md;
  if (!dnnl_memory_desc_equal(src_md, &src_user)) {
    TRY(ic_dnnl_reorder(&s->rt, &src_user, src_md, &s->src_re), "reorder (Input)");
    s->src_bytes = dnnl_memory_desc_get_size(src_md);
  }
  if (!dnnl_memory_desc_equal(dst_md, &dst_user)) {
    TRY(ic_dnnl_reorder(&s->rt, dst_md, &dst_user, &s->dst_re), "reorder (Output)");
    s->dst_bytes = dnnl_memory_desc_get_size(dst_md);
  }
  /* The sum post-op accumulates into the destination, so the residual goes there first, in
   * the destination's layout. */
  if (a->residual && !dnnl_memory_desc_equal(dst_md, &res_user)) {
    TRY(ic_dnnl_reorder(&s->rt, &res_user, dst_md, &s->res_re), "reorder (ResidualData)");
  }
  if (a->dw_stride) {
    /* The fused depthwise convolution's filter and bias, as the primitive takes them. */
    dnnl_dims_t dwd = {g->oc, 1, 1, 3, 3};
    dnnl_memory_desc_t dw_user;
    const dnnl_memory_desc_t *dw_md = dnnl_primitive_desc_query_md(
        pd, dnnl_query_exec_arg_md, DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS);
    const dnnl_memory_desc_t *dwb_md = dnnl_primitive_desc_query_md(
        pd, dnnl_query_exec_arg_md, DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_BIAS);
    TRY(dnnl_memory_desc_init_by_tag(&dw_user, 5, dwd, dnnl_f32, dnnl_goihw), "memory_desc_init");
    what = "fused depthwise filter and bias";
    st = dnnl_unimplemented;
    if (!dw_md || !dwb_md || dnnl_memory_desc_get_size(dwb_md) != (size_t)g->oc * sizeof(float)) {
      goto dnnl_fail;
    }
    if (!dnnl_memory_desc_equal(dw_md, &dw_user)) {
      TRY(ic_dnnl_reorder(&s->rt, &dw_user, dw_md, &s->dww_re), "reorder (ic_DwFilter)");
      what = "fused depthwise filter buffer";
      st = dnnl_out_of_memory;
      if (!(s->dww_buf = aligned_alloc(64, ic_dnnl_align(dnnl_memory_desc_get_size(dw_md))))) {
        goto dnnl_fail;
      }
    }
    what = "memory_create";
    st = dnnl_out_of_memory;
    if (!(s->m_dww_user = ic_dnnl_mem(&s->rt, &dw_user))) goto dnnl_fail;
    if (!(s->m_dww = ic_dnnl_mem(&s->rt, dw_md))) goto dnnl_fail;
    if (!(s->m_dwb = ic_dnnl_mem(&s->rt, dwb_md))) goto dnnl_fail;
    if (!ic_in(c, IC_CONV_DW_BIAS, 0) && !(s->dwb_zero = calloc((size_t)g->oc, sizeof(float)))) {
      goto dnnl_fail;
    }
    if (s->dww_buf) TRY(dnnl_memory_set_data_handle(s->m_dww, s->dww_buf), "memory_set_data_handle");
  }
  if (!dnnl_memory_desc_equal(w_md, &w_user)) {
    TRY(ic_dnnl_reorder(&s->rt, &w_user, w_md, &s->w_re), "reorder (Filter)");
    size_t wb = ic_dnnl_align(dnnl_memory_desc_get_size(w_md));
    what = "weights buffer";
    if (!(s->w_buf = aligned_alloc(64, wb))) {
      st = dnnl_out_of_memory;
      goto dnnl_fail;
    }
  }
  s->src_img = dnnl_memory_desc_get_size(&src_user);
  s->dst_img = dnnl_memory_desc_get_size(&dst_user);
  s->res_img = dnnl_memory_desc_get_size(&res_user);
  what = "memory_create";
  st = dnnl_out_of_memory;
  if (!(s->m_src_user = ic_dnnl_mem(&s->rt, &src_user))) goto dnnl_fail;
  if (!(s->m_src = ic_dnnl_mem(&s->rt, src_md))) goto dnnl_fail;
  if (!(s->m_dst_user = ic_dnnl_mem(&s->rt, &dst_user))) goto dnnl_fail;
  if (!(s->m_dst = ic_dnnl_mem(&s->rt, dst_md))) goto dnnl_fail;
  if (!(s->m_w_user = ic_dnnl_mem(&s->rt, &w_user))) goto dnnl_fail;
  if (!(s->m_w = ic_dnnl_mem(&s->rt, w_md))) goto dnnl_fail;
  if (!(s->m_bias = ic_dnnl_mem(&s->rt, &b_md))) goto dnnl_fail;
  if (!(s->m_res = ic_dnnl_mem(&s->rt, &res_user))) goto dnnl_fail;
  for (int k = 0; k < 2; k++) {
    if (s->bin_idx[k] < 0) continue;
    if (!(s->m_bin[k] = ic_dnnl_mem(&s->rt, &s->one_md))) goto dnnl_fail;
    TRY(dnnl_memory_set_data_handle(s->m_bin[k], &s->bin_vals[k]), "memory_set_data_handle");
  }
  if (s->w_buf) TRY(dnnl_memory_set_data_handle(s->m_w, s->w_buf), "memory_set_data_handle");
  ic_dnnl_prim *prims[] = {&s->conv, &s->src_re, &s->dst_re, &s->res_re, &s->w_re, &s->dww_re};
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
  if (attr_sum) dnnl_primitive_attr_destroy(attr_sum);
  if (po) dnnl_post_ops_destroy(po);
  if (po_sum) dnnl_post_ops_destroy(po_sum);
  return ret;
}

/* Bring *ctx->state up to date for these inputs. */
static ic_status state_get(ic_kctx *c, const geom *g, int threads, bool pad_room,
                           bool per_image, conv_state **out) {
  const ic_tensor *x = ic_in(c, IC_CONV_INPUT, 0), *f = ic_in(c, IC_CONV_FILTER, 0);
  bool has_bias = ic_in(c, IC_CONV_BIAS, 0) != NULL;
  conv_state *s = *c->state;
  *out = NULL;
  if (state_matches(s, c, has_bias, threads, pad_room, per_image)) {
    *out = s;
    return IC_OK;
  }
  state_free(s);
  *c->state = NULL;
  if (!(s = calloc(1, sizeof *s))) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  memcpy(s->in_dims, x->dims, sizeof s->in_dims);
  memcpy(s->f_dims, f->dims, sizeof s->f_dims);
  s->has_bias = has_bias;
  s->threads = threads;
  s->in_layout = x->layout;
  s->res_layout = res_layout(c);
  s->pad_room = pad_room;
  s->per_image = per_image;
  s->aff = ic_conv_affine_of(c);
  s->bin_idx[0] = s->bin_idx[1] = -1;
  ic_status st = state_build(c, g, s);
  if (st) {
    state_free(s);
    return st;
  }
  *c->state = *out = s;
  return IC_OK;
}

/* Point the primitive's weights at tensor w: through reorder re into its own buffer (m),
 * redone only when w's buffer or a sample of its values changed (*k), or at w itself when
 * no reorder is needed. */
static dnnl_status_t refresh_weights(conv_state *s, ic_dnnl_prim *re, dnnl_memory_t m_user,
                                     dnnl_memory_t m, wkey *k, const ic_tensor *w, void *pad) {
  if (!re->p) return dnnl_memory_set_data_handle(m, w->data);
  const size_t bytes = (size_t)ic_tensor_numel_(w) * sizeof(float);
  const uint64_t sample = ic_dnnl_filter_sample(w->data, bytes / sizeof(float));
  if (k->ptr == w->data && k->bytes == bytes && k->sample == sample) return dnnl_success;
  k->ptr = NULL;
  dnnl_status_t st = dnnl_memory_set_data_handle(m_user, w->data);
  if (st == dnnl_success) st = ic_dnnl_exec_reorder(&s->rt, re, pad, m_user, m);
  if (st == dnnl_success) *k = (wkey){w->data, bytes, sample};
  return st;
}

/* The Filter [OC, C, KH, KW] with input channel i scaled by sc[i] (ic_InScale), into w. */
static void scale_filter(const float *restrict f, const float *restrict sc, float *restrict w,
                         int64_t oc, int64_t ch, int64_t kk) {
  if (kk == 1) { /* 1 x 1: one row of C per output channel, a vector loop */
    for (int64_t o = 0; o < oc; o++) {
      const float *fp = f + o * ch;
      float *wp = w + o * ch;
      int64_t i = 0;
      for (; i + 4 <= ch; i += 4) ic_v4_store(wp + i, ic_v4_load(fp + i) * ic_v4_load(sc + i));
      for (; i < ch; i++) wp[i] = fp[i] * sc[i];
    }
    return;
  }
  for (int64_t o = 0; o < oc; o++) {
    for (int64_t i = 0; i < ch; i++) {
      const float *fp = f + (o * ch + i) * kk;
      float *wp = w + (o * ch + i) * kk;
      for (int64_t k = 0; k < kk; k++) wp[k] = fp[k] * sc[i];
    }
  }
}

/* ic_InScale: scale the filter (OC x C x KH x KW products, then the filter's reorder into
 * the primitive's layout, each run) or the Input (C x H x W per image, one pass like the
 * unfused elementwise_mul, then the cached filter)? The filter where it is the smaller
 * work, taking its two passes (scale, reorder) per element as 2.5 of the Input's one. The
 * ratio is a rough one from oneDNN's verbose timings at batch 1: CRNN's 80 x 480 filter
 * reorders took 29 us per run in all, its eight products 178 us; with the filter path
 * everywhere, SVTR's 512 x 512, 512 x 256 and 256 x 256 filter reorders took 210 us per run
 * against 58 us for its two products. CRNN's SE convolutions (56-80 outputs over 320-640
 * pixels) scale the filter; SVTR's (256-512 outputs over 240-480 pixels) the Input. A
 * function of the shapes alone, so every thread count takes the same path. */
bool ic_conv_in_scale_filter(const geom *g) {
  return 5 * g->oc * g->kh * g->kw <= 2 * g->h * g->w;
}

/* y = x * s per channel over one image or a batch in x's layout (plain, or channel blocks of
 * blk with the padding lanes written 0): the unfused elementwise_mul's rounded products. The
 * rows (a channel, or a channel block, of one image) are shared across the kernel's threads
 * from SCALE_PAR_MIN elements: the same products whatever the split. */
#define SCALE_PAR_MIN 32768
static void scale_input(const float *restrict x, const float *restrict sc, int64_t sn,
                        float *restrict y, int64_t n, int64_t ch, int64_t hw, int blk,
                        int threads) {
  const int64_t cb = blk ? (ch + blk - 1) / blk : ch, rows = n * cb, len = blk ? hw * blk : hw;
  const int nt = threads > 1 && rows > 1 && rows * len >= SCALE_PAR_MIN
                     ? (rows < threads ? (int)rows : threads)
                     : 1;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int64_t r = 0; r < rows; r++) {
    const int64_t b = r / cb, q = r % cb;
    const float *sv = sc + (sn == 1 ? 0 : b) * ch;
    const float *xr = x + (size_t)(r * len);
    float *yr = y + (size_t)(r * len);
    if (!blk) {
      const ic_v4f v = ic_v4_splat(sv[q]);
      int64_t p = 0;
      for (; p + 4 <= hw; p += 4) ic_v4_store(yr + p, ic_v4_load(xr + p) * v);
      for (; p < hw; p++) yr[p] = xr[p] * sv[q];
      continue;
    }
    float lane[16];
    for (int l = 0; l < blk; l++) lane[l] = q * blk + l < ch ? sv[q * blk + l] : 0.0f;
    for (int64_t p = 0; p < hw; p++) {
      for (int l = 0; l < blk; l += 4) {
        const size_t e = (size_t)(p * blk + l);
        ic_v4_store(yr + e, ic_v4_load(xr + e) * ic_v4_load(lane + l));
      }
    }
  }
}

static ic_status conv_dnnl(ic_kctx *c, const geom *g, conv_state *s) {
  const ic_conv_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_CONV_INPUT, 0), *f = ic_in(c, IC_CONV_FILTER, 0);
  const ic_tensor *b = ic_in(c, IC_CONV_BIAS, 0);
  const ic_tensor *r = a->residual ? ic_in(c, IC_CONV_RESIDUAL, 0) : NULL;
  const ic_tensor *sc = ic_in(c, IC_CONV_IN_SCALE, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  size_t ybytes = (size_t)ic_tensor_numel_(y) * sizeof(float);
  const bool scale_w = sc && ic_conv_in_scale_filter(g), scale_x = sc && !scale_w;
  const size_t wfl = scale_w ? (size_t)ic_tensor_numel_(f) : 0;
  size_t o_src = 0, o_dst = ic_dnnl_align(s->src_bytes), o_pad = o_dst + ic_dnnl_align(s->dst_bytes);
  size_t o_w = o_pad + ic_dnnl_align(s->pad_bytes), o_x = o_w + ic_dnnl_align(wfl * sizeof(float));
  size_t total = o_x + (scale_x ? ic_dnnl_align(s->src_img) : 0);
  ic_buffer *sb = NULL;
  if (total && !(sb = ic_kscratch(c, total))) return c->err->code;
  char *scratch = sb ? sb->data : NULL;
  void *pad = scratch ? scratch + o_pad : NULL;
  float *wscaled = scale_w ? (float *)(scratch + o_w) : NULL;
  dnnl_status_t st;
  const char *what;
  ic_status ret = IC_OK;
#define TRY(call, name)                  \
  do {                                   \
    what = (name);                       \
    if ((st = (call)) != dnnl_success) goto fail; \
  } while (0)

  if (!scale_w) {
    TRY(refresh_weights(s, &s->w_re, s->m_w_user, s->m_w, &s->w_key, f, pad),
        "reorder (Filter)");
  }
  if (scale_x) {
    /* the Input scaled in its own layout; the state covers the whole batch */
    scale_input(x->data, sc->data, sc->dims[0], (float *)(scratch + o_x), g->n, g->c,
                g->h * g->w, ic_layout_block(x->layout), s->threads);
  }
  const ic_tensor *dwf = ic_in(c, IC_CONV_DW_FILTER, 0), *dwb = ic_in(c, IC_CONV_DW_BIAS, 0);
  if (a->dw_stride) {
    TRY(refresh_weights(s, &s->dww_re, s->m_dww_user, s->m_dww, &s->dww_key, dwf, pad),
        "reorder (ic_DwFilter)");
  }
  if (a->dw_stride) {
    TRY(dnnl_memory_set_data_handle(s->m_dwb, dwb ? dwb->data : (void *)s->dwb_zero),
        "memory_set_data_handle");
  }
  /* One pass over the whole batch, or with per-image scales one per image: every layout
   * icore passes (NCHW, nChw8c, nChw16c with or without padded channels) keeps the images
   * outermost, so image k starts k image sizes in. */
  const int64_t nimg = s->per_image ? g->n : 1;
  for (int64_t img = 0; img < nimg; img++) {
    if (scale_w) {
      /* the Filter scaled by this image's channel scales, then into the primitive's layout */
      const int64_t si = sc->dims[0] == 1 ? 0 : img;
      scale_filter(f->data, (const float *)sc->data + si * g->c, wscaled, g->oc, g->c,
                   g->kh * g->kw);
      s->w_key = (wkey){0};
      if (s->w_re.p) {
        TRY(dnnl_memory_set_data_handle(s->m_w_user, wscaled), "memory_set_data_handle");
        TRY(ic_dnnl_exec_reorder(&s->rt, &s->w_re, pad, s->m_w_user, s->m_w), "reorder (Filter)");
      } else {
        TRY(dnnl_memory_set_data_handle(s->m_w, wscaled), "memory_set_data_handle");
      }
    }
    char *xi = (scale_x ? scratch + o_x : (char *)x->data) + img * s->src_img;
    char *yi = (char *)y->data + img * s->dst_img;
    /* The primitive's destination: Output itself unless a reorder follows. */
    void *dst = s->dst_re.p ? scratch + o_dst : yi;
    TRY(dnnl_memory_set_data_handle(s->m_src_user, xi), "memory_set_data_handle");
    TRY(dnnl_memory_set_data_handle(s->m_dst_user, yi), "memory_set_data_handle");
    TRY(dnnl_memory_set_data_handle(s->m_dst, dst), "memory_set_data_handle");
    if (s->src_re.p) {
      TRY(dnnl_memory_set_data_handle(s->m_src, scratch + o_src), "memory_set_data_handle");
      TRY(ic_dnnl_exec_reorder(&s->rt, &s->src_re, pad, s->m_src_user, s->m_src),
          "reorder (Input)");
    }
    char *ri = r ? (char *)r->data + img * s->res_img : NULL;
    if (r && s->res_re.p) {
      TRY(dnnl_memory_set_data_handle(s->m_res, ri), "memory_set_data_handle");
      TRY(ic_dnnl_exec_reorder(&s->rt, &s->res_re, pad, s->m_res, s->m_dst),
          "reorder (ResidualData)");
    } else if (r) {
      /* already in the destination's layout (nChw16c with padded channels included) */
      memcpy(dst, ri, s->dst_md_bytes);
    }
    dnnl_exec_arg_t args[10];
    int n = 0;
    if (a->dw_stride) {
      args[n++] = (dnnl_exec_arg_t){DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS, s->m_dww};
      args[n++] = (dnnl_exec_arg_t){DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_BIAS, s->m_dwb};
    }
    for (int k = 0; k < 2; k++) {
      if (s->bin_idx[k] < 0) continue;
      args[n++] = (dnnl_exec_arg_t){
          DNNL_ARG_ATTR_MULTIPLE_POST_OP(s->bin_idx[k]) | DNNL_ARG_SRC_1, s->m_bin[k]};
    }
    args[n++] = (dnnl_exec_arg_t){DNNL_ARG_SRC, s->src_re.p ? s->m_src : s->m_src_user};
    args[n++] = (dnnl_exec_arg_t){DNNL_ARG_WEIGHTS, s->m_w};
    if (b) {
      TRY(dnnl_memory_set_data_handle(s->m_bias, b->data), "memory_set_data_handle");
      args[n++] = (dnnl_exec_arg_t){DNNL_ARG_BIAS, s->m_bias};
    }
    args[n++] = (dnnl_exec_arg_t){DNNL_ARG_DST, s->m_dst};
    TRY(ic_dnnl_exec(&s->rt, &s->conv, pad, n, args), "convolution execute");
    if (s->dst_re.p) {
      TRY(ic_dnnl_exec_reorder(&s->rt, &s->dst_re, pad, s->m_dst, s->m_dst_user),
          "reorder (Output)");
    }
  }
  /* Elementwise, so the same in any layout. */
  if (s->wino_act) epilogue_fast_f32(a, &s->aff, y->data, ybytes / sizeof(float), s->threads);
  else if (s->act_after) ic_conv_epilogue_f32(a, &s->aff, y->data, NULL, ybytes / sizeof(float));
  y->layout = (uint8_t)s->out_layout;
  goto done;
#undef TRY
fail:
  ret = ic_dnnl_fail(c, st, what);
done:
  ic_buffer_release(sb);
  return ret;
}

/* pixel_gemv's run: Output [C_out] = W [C_out, C] Input [C], then bias and epilogue. */
static ic_status conv_gemv(ic_kctx *c, const geom *g, conv_state *s, int threads) {
  const ic_conv_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_CONV_INPUT, 0), *f = ic_in(c, IC_CONV_FILTER, 0);
  const ic_tensor *b = ic_in(c, IC_CONV_BIAS, 0);
  const ic_tensor *r = a->residual ? ic_in(c, IC_CONV_RESIDUAL, 0) : NULL;
  ic_tensor *y = ic_out(c, 0, 0);
  const int64_t k = g->c, oc = g->oc;
  const size_t nf = (size_t)ic_tensor_numel_(f), fbytes = nf * sizeof(float);
  const uint64_t sample = ic_dnnl_filter_sample(f->data, nf);
  if (s->gw_key.ptr != f->data || s->gw_key.bytes != fbytes || s->gw_key.sample != sample) {
    const float *fv = f->data;
    for (int64_t j = 0; j < oc; j++) {
      for (int64_t i = 0; i < k; i++) s->gw[i * oc + j] = fv[j * k + i];
    }
    s->gw_key = (wkey){f->data, fbytes, sample};
  }
  const float *xv = x->data, *bv = b ? b->data : NULL, *gw = s->gw;
  float *yv = y->data;
  /* one contiguous range of output channels per thread (multiples of 64) */
  const int64_t step = ((oc + threads - 1) / threads + 63) / 64 * 64;
  const int64_t nc = (oc + step - 1) / step;
  const int nt = (int)nc;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int64_t q = 0; q < nc; q++) {
    const int64_t j0 = q * step, nj = oc - j0 < step ? oc - j0 : step;
    memset(yv + j0, 0, (size_t)nj * sizeof(float));
    ic_gemv_acc_f32_ld(gw + j0, oc, xv, yv + j0, k, nj);
    if (bv) {
      for (int64_t j = j0; j < j0 + nj; j++) yv[j] += bv[j];
    }
  }
  const ic_conv_affine aff = ic_conv_affine_of(c);
  ic_conv_epilogue_f32(a, &aff, yv, r ? r->data : NULL, (size_t)oc);
  y->layout = (uint8_t)one_pixel_layout(a, oc);
  return IC_OK;
}

ic_status ic_conv_dnnl_run(ic_kctx *c, const geom *g, int threads, bool pad_room, bool *ran) {
  *ran = false;
  /* ic_InScale with a scale per image, on the filter: a primitive for one image, run once
   * per image */
  const ic_tensor *sc = ic_in(c, IC_CONV_IN_SCALE, 0);
  const bool per_image = sc && ic_conv_in_scale_filter(g) && sc->dims[0] > 1 && g->n > 1;
  geom g1 = *g;
  if (per_image) g1.n = 1;
  conv_state *s;
  ic_status st = state_get(c, &g1, threads, pad_room, per_image, &s);
  if (st || s->use_ref) return st;
  *ran = true;
  if (s->gemv) return conv_gemv(c, g, s, threads);
  return conv_dnnl(c, g, s);
}
