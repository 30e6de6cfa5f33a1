/* pool2d: max or average pooling over 2-D windows, Paddle's semantics exactly
 * (paddle/phi/infermeta/unary.cc PoolInferMeta, paddle/phi/kernels/funcs/pooling.{h,cc},
 * paddle/phi/kernels/impl/pool_kernel_impl.h PoolRawKernel):
 *   - paddings (2 or 4 values) are first replaced by padding_algorithm (SAME: output
 *     ceil(in / stride); VALID: none) and zeroed for global_pooling and adaptive;
 *   - global_pooling makes the window the whole H x W;
 *   - the output size is (in - k + pad_begin + pad_end [+ stride - 1 with ceil_mode]) /
 *     stride + 1, or ksize when adaptive;
 *   - but the kernel uses the *begin* paddings only: window h covers [h * s - pt,
 *     min(h * s - pt + k, H + pt)) (the top padding bounds the bottom too), clamped to the
 *     input; avg divides by the clamped element count when exclusive, else by the count
 *     before clamping; an empty window gives -FLT_MAX (max) or 0 / 0 (avg);
 *   - adaptive avg uses bins [floor(i * H / out), ceil((i + 1) * H / out)); adaptive *max*
 *     is not adaptive at all in Paddle's pool2d kernel: it passes adaptive = false to the
 *     pooling functor, so windows are ksize x ksize at the given strides, output ksize.
 * float32 windows that oneDNN computes the same way (no empty window; for non-exclusive
 * avg, no window past H + pt) run one oneDNN pooling primitive on the NCHW (or NHWC) data
 * directly; everything else runs the plain loops below, which mirror Paddle's. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/conv.h"
#include "kernels/cpu/onednn.h"

typedef struct pool_attrs {
  bool max;             /* pooling_type "max", else "avg" */
  int64_t ksize[2];
  int64_t strides[2];
  int64_t paddings[4];  /* top, bottom, left, right as written */
  bool global, ceil_mode, exclusive, adaptive, nhwc;
  ic_pad_algo pad_algo;
} pool_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  pool_attrs *a = attrs;
  const char *type = ic_ar_str(r, "pooling_type", NULL);
  if (!r->st && !type) ic_ar_fail(r, "pooling_type", "is missing (required, \"max\" or \"avg\")");
  if (!r->st) {
    a->max = !strcmp(type, "max");
    if (!a->max && strcmp(type, "avg")) {
      ic_ar_fail(r, "pooling_type", "is '%s', expected \"max\" or \"avg\"", type);
    }
  }
  const int64_t *v;
  size_t n;
  if (ic_ar_ints(r, "ksize", true, &v, &n)) {
    if (n != 2) ic_ar_fail(r, "ksize", "has %zu values, expected 2 ([h, w])", n);
    for (size_t i = 0; i < n && i < 2 && !r->st; i++) {
      if (v[i] < 1) ic_ar_fail(r, "ksize", "holds %lld, expected values >= 1", (long long)v[i]);
      a->ksize[i] = v[i];
    }
  }
  a->strides[0] = a->strides[1] = 1;
  if (ic_ar_ints(r, "strides", false, &v, &n)) {
    if (n != 2) ic_ar_fail(r, "strides", "has %zu values, expected 2 ([h, w])", n);
    for (size_t i = 0; i < n && i < 2 && !r->st; i++) {
      if (v[i] < 1) ic_ar_fail(r, "strides", "holds %lld, expected values >= 1", (long long)v[i]);
      a->strides[i] = v[i];
    }
  }
  ic_read_paddings(r, a->paddings);
  a->global = ic_ar_bool(r, "global_pooling", false);
  a->ceil_mode = ic_ar_bool(r, "ceil_mode", false);
  a->exclusive = ic_ar_bool(r, "exclusive", true);
  a->adaptive = ic_ar_bool(r, "adaptive", false);
  a->pad_algo = ic_read_pad_algo(r);
  a->nhwc = ic_read_nhwc(r);
  return r->st;
}

typedef struct pgeom {
  int64_t n, c, h, w;      /* input, logical NCHW */
  int64_t kh, kw, sh, sw;  /* window after global_pooling */
  int64_t pt, pb, pl, pr;  /* paddings after padding_algorithm / global / adaptive */
  int64_t oh, ow;
} pgeom;

static ic_status pool_geom(ic_kctx *c, pgeom *g) {
  const pool_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT))) return st;
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4 (%s)", a->nhwc ? "NHWC" : "NCHW");
  g->n = x->dims[0];
  g->c = a->nhwc ? x->dims[3] : x->dims[1];
  g->h = a->nhwc ? x->dims[1] : x->dims[2];
  g->w = a->nhwc ? x->dims[2] : x->dims[3];
  g->kh = a->ksize[0];
  g->kw = a->ksize[1];
  g->sh = a->strides[0];
  g->sw = a->strides[1];
  g->pt = a->paddings[0];
  g->pb = a->paddings[1];
  g->pl = a->paddings[2];
  g->pr = a->paddings[3];
  if (a->pad_algo == IC_PAD_SAME) {
    ic_same_pads(g->h, g->sh, g->kh, &g->pt, &g->pb);
    ic_same_pads(g->w, g->sw, g->kw, &g->pl, &g->pr);
  } else if (a->pad_algo == IC_PAD_VALID) {
    g->pt = g->pb = g->pl = g->pr = 0;
  }
  if (a->global || a->adaptive) g->pt = g->pb = g->pl = g->pr = 0;
  if (a->global) {
    g->kh = g->h;
    g->kw = g->w;
  }
  if (a->adaptive) {
    g->oh = g->kh;
    g->ow = g->kw;
  } else {
    int64_t ch = a->ceil_mode ? g->sh - 1 : 0, cw = a->ceil_mode ? g->sw - 1 : 0;
    g->oh = (g->h - g->kh + g->pt + g->pb + ch) / g->sh + 1;
    g->ow = (g->w - g->kw + g->pl + g->pr + cw) / g->sw + 1;
    if (g->oh < 0 || g->ow < 0) {
      return ic_kfail_in(c, 0, 0,
                         "which with window %lld x %lld, strides [%lld, %lld] and paddings "
                         "[%lld, %lld, %lld, %lld] gives an output of %lld x %lld; expected "
                         "sizes >= 0",
                         (long long)g->kh, (long long)g->kw, (long long)g->sh, (long long)g->sw,
                         (long long)g->pt, (long long)g->pb, (long long)g->pl, (long long)g->pr,
                         (long long)g->oh, (long long)g->ow);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const pool_attrs *a = c->attrs;
  pgeom g;
  ic_status st = pool_geom(c, &g);
  if (st) return st;
  int64_t d[4] = {g.n, a->nhwc ? g.oh : g.c, a->nhwc ? g.ow : g.oh, a->nhwc ? g.c : g.ow};
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, 0, 0)->dtype, 4, d);
  return IC_OK;
}

/* ---------------------------------------------------------------------------------------
 * Plain loops, statement for statement Paddle's Pool2dFunctor.
 * ------------------------------------------------------------------------------------- */

#define DEFINE_LOOPS(NAME, T)                                                             \
  static void NAME(const pool_attrs *a, const pgeom *g, const T *x, T *y) {               \
    bool adaptive = a->adaptive && !a->max; /* see the file comment */                    \
    int64_t H = g->h, W = g->w, C = g->c;                                                 \
    for (int64_t n = 0; n < g->n; n++) {                                                  \
      for (int64_t ch = 0; ch < C; ch++) {                                                \
        for (int64_t ph = 0; ph < g->oh; ph++) {                                          \
          for (int64_t pw = 0; pw < g->ow; pw++) {                                        \
            int64_t hs, he, ws, we, size;                                                 \
            if (adaptive) {                                                               \
              hs = ph * H / g->oh;                                                        \
              he = ((ph + 1) * H + g->oh - 1) / g->oh;                                    \
              ws = pw * W / g->ow;                                                        \
              we = ((pw + 1) * W + g->ow - 1) / g->ow;                                    \
              size = (he - hs) * (we - ws);                                               \
            } else {                                                                      \
              hs = ph * g->sh - g->pt;                                                    \
              ws = pw * g->sw - g->pl;                                                    \
              he = hs + g->kh < H + g->pt ? hs + g->kh : H + g->pt;                       \
              we = ws + g->kw < W + g->pl ? ws + g->kw : W + g->pl;                       \
              size = (he - hs) * (we - ws);                                               \
              if (hs < 0) hs = 0;                                                         \
              if (ws < 0) ws = 0;                                                         \
              if (he > H) he = H;                                                         \
              if (we > W) we = W;                                                         \
              if (a->max || a->exclusive) size = (he - hs) * (we - ws);                   \
            }                                                                             \
            T v = a->max ? (T)-FLT_MAX : (T)0;                                            \
            for (int64_t ih = hs; ih < he; ih++) {                                        \
              for (int64_t iw = ws; iw < we; iw++) {                                      \
                T e = a->nhwc ? x[((n * H + ih) * W + iw) * C + ch]                       \
                              : x[((n * C + ch) * H + ih) * W + iw];                      \
                if (a->max) v = v > e ? v : e;                                            \
                else v += e;                                                              \
              }                                                                           \
            }                                                                             \
            if (!a->max) v = v / (T)size;                                                 \
            if (a->nhwc) y[((n * g->oh + ph) * g->ow + pw) * C + ch] = v;                 \
            else y[((n * C + ch) * g->oh + ph) * g->ow + pw] = v;                         \
          }                                                                               \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
  }
DEFINE_LOOPS(loops_f32, float)
DEFINE_LOOPS(loops_f64, double)

/* ---------------------------------------------------------------------------------------
 * oneDNN (float32)
 * ------------------------------------------------------------------------------------- */

/* Whether oneDNN's windows equal Paddle's here, and the end paddings that make oneDNN's
 * output size Paddle's (ceil_mode extends them; oneDNN's own formula truncates). */
static bool dnnl_fits(const pool_attrs *a, const pgeom *g, int64_t *pb, int64_t *pr) {
  if (a->adaptive || g->oh < 1 || g->ow < 1) return false;
  int64_t in[2] = {g->h, g->w}, k[2] = {g->kh, g->kw}, s[2] = {g->sh, g->sw};
  int64_t p0[2] = {g->pt, g->pl}, p1[2] = {g->pb, g->pr}, out[2] = {g->oh, g->ow}, use[2];
  for (int d = 0; d < 2; d++) {
    int64_t last = (out[d] - 1) * s[d] - p0[d];
    if (k[d] - p0[d] <= 0 || last >= in[d]) return false;                /* an empty window */
    if (!a->max && !a->exclusive && last + k[d] > in[d] + p0[d]) return false; /* divisor */
    int64_t num = in[d] - k[d] + p0[d] + p1[d];
    use[d] = num >= 0 && num / s[d] + 1 == out[d] ? p1[d] : last + k[d] - in[d];
    if (use[d] < 0) return false;
  }
  *pb = use[0];
  *pr = use[1];
  return true;
}

typedef struct pool_state {
  int64_t in_dims[4];
  int threads;
  bool use_loops;
  ic_dnnl_rt rt;
  ic_dnnl_prim pool;
  dnnl_memory_t m_src, m_dst;
} pool_state;

static void free_state(void *state) {
  pool_state *s = state;
  if (!s) return;
  ic_dnnl_prim_free(&s->pool);
  if (s->m_src) dnnl_memory_destroy(s->m_src);
  if (s->m_dst) dnnl_memory_destroy(s->m_dst);
  ic_dnnl_rt_free(&s->rt);
  free(s);
}

static ic_status build(ic_kctx *c, const pgeom *g, pool_state *s) {
  const pool_attrs *a = c->attrs;
  int64_t pb, pr;
  if (!dnnl_fits(a, g, &pb, &pr)) {
    s->use_loops = true;
    return IC_OK;
  }
  ic_status ret = ic_dnnl_rt_init(c, &s->rt);
  if (ret) return ret;
  dnnl_format_tag_t tag = a->nhwc ? dnnl_nhwc : dnnl_nchw;
  int64_t sd[4] = {g->n, g->c, g->h, g->w}, dd[4] = {g->n, g->c, g->oh, g->ow};
  dnnl_memory_desc_t src, dst;
  dnnl_primitive_attr_t attr = NULL;
  dnnl_primitive_desc_t pd = NULL;
  dnnl_dims_t strides = {g->sh, g->sw}, kernel = {g->kh, g->kw}, dil = {0, 0};
  dnnl_dims_t pad_l = {g->pt, g->pl}, pad_r = {pb, pr};
  dnnl_alg_kind_t alg = a->max ? dnnl_pooling_max
                        : a->exclusive ? dnnl_pooling_avg_exclude_padding
                                       : dnnl_pooling_avg_include_padding;
  dnnl_pooling_v2_desc_t desc;
  const char *what = "memory_desc_init";
  dnnl_status_t st = ic_dnnl_md4(&src, sd, tag);
  if (st == dnnl_success) st = ic_dnnl_md4(&dst, dd, tag);
  if (st != dnnl_success) goto fail;
  what = "primitive_attr";
  if ((st = ic_dnnl_attr(&attr, NULL)) != dnnl_success) goto fail;
  st = dnnl_pooling_v2_forward_desc_init(&desc, dnnl_forward_inference, alg, &src, &dst, strides,
                                         kernel, dil, pad_l, pad_r);
  if (st == dnnl_success) st = dnnl_primitive_desc_create(&pd, &desc, attr, s->rt.eng, NULL);
  if (st == dnnl_unimplemented || st == dnnl_invalid_arguments) {
    pd = NULL;
    s->use_loops = true;
    goto done;
  }
  what = "pooling primitive_desc_create";
  if (st != dnnl_success) {
    pd = NULL;
    goto fail;
  }
  what = "pooling primitive_create";
  if ((st = ic_dnnl_prim_create(&s->rt, pd, &s->pool)) != dnnl_success) goto fail;
  what = "memory_create";
  st = dnnl_out_of_memory;
  if (!(s->m_src = ic_dnnl_mem(&s->rt, &src)) || !(s->m_dst = ic_dnnl_mem(&s->rt, &dst))) goto fail;
  goto done;
fail:
  ret = ic_dnnl_fail(c, st, what);
done:
  if (pd) dnnl_primitive_desc_destroy(pd);
  if (attr) dnnl_primitive_attr_destroy(attr);
  return ret;
}

static ic_status run_dnnl(ic_kctx *c, const pgeom *g, int threads) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  pool_state *s = *c->state;
  if (!s || !ic_dims_equal(4, s->in_dims, x->ndim, x->dims) || s->threads != threads) {
    free_state(s);
    *c->state = NULL;
    if (!(s = calloc(1, sizeof *s))) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
    memcpy(s->in_dims, x->dims, sizeof s->in_dims);
    s->threads = threads;
    ic_status st = build(c, g, s);
    if (st) {
      free_state(s);
      return st;
    }
    *c->state = s;
  }
  if (s->use_loops) {
    loops_f32(c->attrs, g, x->data, y->data);
    return IC_OK;
  }
  ic_buffer *sb = NULL;
  if (s->pool.pad_bytes && !(sb = ic_kscratch(c, s->pool.pad_bytes))) return c->err->code;
  dnnl_status_t st = dnnl_memory_set_data_handle(s->m_src, x->data);
  if (st == dnnl_success) st = dnnl_memory_set_data_handle(s->m_dst, y->data);
  dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC, s->m_src}, {DNNL_ARG_DST, s->m_dst}};
  if (st == dnnl_success) st = ic_dnnl_exec(&s->rt, &s->pool, sb ? sb->data : NULL, 2, args);
  ic_buffer_release(sb);
  return st == dnnl_success ? IC_OK : ic_dnnl_fail(c, st, "pooling execute");
}

static ic_status run(ic_kctx *c) {
  pgeom g;
  ic_status st = pool_geom(c, &g);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  int64_t ny = ic_tensor_numel_(y);
  if (ny == 0) return IC_OK;
  if (ic_tensor_numel_(x) == 0) {
    /* Paddle fills the output of an empty input with NaN. */
    for (int64_t i = 0; i < ny; i++) {
      if (y->dtype == IC_FP32) ((float *)y->data)[i] = NAN;
      else ((double *)y->data)[i] = NAN;
    }
    return IC_OK;
  }
  if (x->dtype == IC_FP64) {
    loops_f64(c->attrs, &g, x->data, y->data);
    return IC_OK;
  }
  int threads = ic_dnnl_threads(c);
  int prev = ic_dnnl_threads_set(threads);
  st = run_dnnl(c, &g, threads);
  ic_dnnl_threads_restore(prev);
  return st;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_pool2d = {
    .name = "pool2d",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(pool_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .free_state = free_state,
};
