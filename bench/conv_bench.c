/* Times icore's conv2d / depthwise_conv2d / pool2d kernels on MobileNetV2 layer shapes, next
 * to the alternatives their design was chosen over:
 *   nchw      one oneDNN convolution with plain NCHW source and destination
 *   blk-conv  one oneDNN convolution in its preferred blocked layouts (no reorders: the
 *             lower bound for any layout strategy)
 *   blk+reo   the same plus the two reorders NCHW -> blocked -> NCHW around it
 *   im2col    im2col + OpenBLAS sgemm per image and group (no im2col for 1x1)
 *   icore     the conv2d kernel as the executor runs it (state kept across calls)
 * All with a bias and relu6 fused (as after batch-norm folding), median of the runs.
 * Not a test: run by hand, results in docs/conv_measurements.md. Build (Release icore first):
 *   cc -O2 -fopenmp -Isrc -Iinclude -Ibuild-rel/proto bench/conv_bench.c build-rel/libicore.a \
 *      -ldnnl -lopenblas -lprotobuf-c -lxxhash -lm -lpthread -o build-rel/conv_bench
 * (built by bench/CMakeLists.txt as build/bench/conv_bench). Usage: conv_bench [reps]. */
#include <cblas.h>
#include <dnnl.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gc/alloc.h"
#include "kernels/cpu/conv.h"
#include "kernels/kernel.h"
#include "program/program.h"
#include "scope/tensor.h"

extern void openblas_set_num_threads(int);

#define CK(x)                                                                        \
  do {                                                                               \
    dnnl_status_t s_ = (x);                                                          \
    if (s_) {                                                                        \
      fprintf(stderr, "%s:%d %s -> %d\n", __FILE__, __LINE__, #x, (int)s_);          \
      exit(1);                                                                       \
    }                                                                                \
  } while (0)

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_d);
  return v[n / 2];
}

typedef struct shape {
  const char *name;
  int n, c, h, w, oc, k, s, p, g;
} shape;

static int out_size(const shape *S) { return (S->h + 2 * S->p - S->k) / S->s + 1; }

static float *filled(size_t n, unsigned seed) {
  float *v = aligned_alloc(64, (n * sizeof(float) + 63) & ~(size_t)63);
  for (size_t i = 0; i < n; i++) v[i] = (float)((i * 2654435761u + seed) % 1000) / 1000.0f - 0.5f;
  return v;
}

/* ---- raw oneDNN ---- */

static dnnl_engine_t eng;
static dnnl_stream_t strm;

static void md4(dnnl_memory_desc_t *md, int64_t a, int64_t b, int64_t c, int64_t d,
                dnnl_format_tag_t tag) {
  dnnl_dims_t dims = {a, b, c, d};
  CK(dnnl_memory_desc_init_by_tag(md, 4, dims, dnnl_f32, tag));
}

static dnnl_primitive_t reorder(const dnnl_memory_desc_t *a, const dnnl_memory_desc_t *b) {
  dnnl_primitive_desc_t pd;
  CK(dnnl_reorder_primitive_desc_create(&pd, a, eng, b, eng, NULL));
  dnnl_primitive_t p;
  CK(dnnl_primitive_create(&p, pd));
  dnnl_primitive_desc_destroy(pd);
  return p;
}

static void run_reorder(dnnl_primitive_t p, dnnl_memory_t a, dnnl_memory_t b) {
  dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, a}, {DNNL_ARG_TO, b}};
  CK(dnnl_primitive_execute(p, strm, 2, args));
  CK(dnnl_stream_wait(strm));
}

/* mode 0: nchw; 1: blocked (conv only in *conv_ms, with reorders in the result) */
static double raw_dnnl(const shape *S, int blocked, int reps, double *conv_ms, char *impl,
                       size_t implen) {
  int oh = out_size(S), ow = oh;
  dnnl_memory_desc_t src_u, dst_u, w_u, b_md, src_c, dst_c, w_c;
  md4(&src_u, S->n, S->c, S->h, S->w, dnnl_nchw);
  md4(&dst_u, S->n, S->oc, oh, ow, dnnl_nchw);
  dnnl_dims_t wd = {S->g, S->oc / S->g, S->c / S->g, S->k, S->k};
  CK(dnnl_memory_desc_init_by_tag(&w_u, 5, wd, dnnl_f32, dnnl_goihw));
  CK(dnnl_memory_desc_init_by_tag(&w_c, 5, wd, dnnl_f32, dnnl_format_tag_any));
  dnnl_dims_t bd = {S->oc};
  CK(dnnl_memory_desc_init_by_tag(&b_md, 1, bd, dnnl_f32, dnnl_x));
  dnnl_format_tag_t t = blocked ? dnnl_format_tag_any : dnnl_nchw;
  md4(&src_c, S->n, S->c, S->h, S->w, t);
  md4(&dst_c, S->n, S->oc, oh, ow, t);
  dnnl_convolution_desc_t cd;
  dnnl_dims_t st = {S->s, S->s}, pd2 = {S->p, S->p};
  CK(dnnl_convolution_forward_desc_init(&cd, dnnl_forward_inference, dnnl_convolution_direct,
                                        &src_c, &w_c, &b_md, &dst_c, st, pd2, pd2));
  dnnl_primitive_attr_t attr;
  CK(dnnl_primitive_attr_create(&attr));
  dnnl_post_ops_t po;
  CK(dnnl_post_ops_create(&po));
  CK(dnnl_post_ops_append_eltwise(po, 1.f, dnnl_eltwise_clip, 0.f, 6.f));
  CK(dnnl_primitive_attr_set_post_ops(attr, po));
  dnnl_primitive_desc_t pd;
  CK(dnnl_primitive_desc_create(&pd, &cd, attr, eng, NULL));
  const char *info;
  CK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &info));
  snprintf(impl, implen, "%s", info);
  const dnnl_memory_desc_t *src_p = dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0);
  const dnnl_memory_desc_t *dst_p = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
  const dnnl_memory_desc_t *w_p = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
  dnnl_primitive_t conv;
  CK(dnnl_primitive_create(&conv, pd));
  dnnl_memory_t src_um, dst_um, wum, wpm, bm, srcm, dstm;
  CK(dnnl_memory_create(&src_um, &src_u, eng, DNNL_MEMORY_ALLOCATE));
  CK(dnnl_memory_create(&dst_um, &dst_u, eng, DNNL_MEMORY_ALLOCATE));
  CK(dnnl_memory_create(&wum, &w_u, eng, DNNL_MEMORY_ALLOCATE));
  CK(dnnl_memory_create(&wpm, w_p, eng, DNNL_MEMORY_ALLOCATE));
  CK(dnnl_memory_create(&bm, &b_md, eng, DNNL_MEMORY_ALLOCATE));
  CK(dnnl_memory_create(&srcm, src_p, eng, DNNL_MEMORY_ALLOCATE));
  CK(dnnl_memory_create(&dstm, dst_p, eng, DNNL_MEMORY_ALLOCATE));
  float *p;
  CK(dnnl_memory_get_data_handle(src_um, (void **)&p));
  for (size_t i = 0; i < dnnl_memory_desc_get_size(&src_u) / 4; i++) p[i] = (float)(i % 13) * 0.1f - 0.6f;
  CK(dnnl_memory_get_data_handle(wum, (void **)&p));
  for (size_t i = 0; i < dnnl_memory_desc_get_size(&w_u) / 4; i++) p[i] = (float)(i % 17) * 0.01f - 0.08f;
  dnnl_primitive_t rw = reorder(&w_u, w_p);
  run_reorder(rw, wum, wpm);
  dnnl_primitive_t rin = NULL, rout = NULL;
  if (!dnnl_memory_desc_equal(src_p, &src_u)) rin = reorder(&src_u, src_p);
  if (!dnnl_memory_desc_equal(dst_p, &dst_u)) rout = reorder(dst_p, &dst_u);
  dnnl_exec_arg_t args[4] = {{DNNL_ARG_SRC, rin ? srcm : src_um},
                             {DNNL_ARG_WEIGHTS, wpm},
                             {DNNL_ARG_BIAS, bm},
                             {DNNL_ARG_DST, rout ? dstm : dst_um}};
  double *tt = malloc(sizeof(double) * (size_t)reps), *tc = malloc(sizeof(double) * (size_t)reps);
  for (int r = -3; r < reps; r++) {
    double t0 = now();
    if (rin) run_reorder(rin, src_um, srcm);
    double t1 = now();
    CK(dnnl_primitive_execute(conv, strm, 4, args));
    CK(dnnl_stream_wait(strm));
    double t2 = now();
    if (rout) run_reorder(rout, dstm, dst_um);
    double t3 = now();
    if (r >= 0) {
      tt[r] = t3 - t0;
      tc[r] = t2 - t1;
    }
  }
  double total = median(tt, reps);
  *conv_ms = median(tc, reps) * 1e3;
  free(tt);
  free(tc);
  dnnl_primitive_destroy(conv);
  dnnl_primitive_destroy(rw);
  if (rin) dnnl_primitive_destroy(rin);
  if (rout) dnnl_primitive_destroy(rout);
  dnnl_primitive_desc_destroy(pd);
  dnnl_post_ops_destroy(po);
  dnnl_primitive_attr_destroy(attr);
  dnnl_memory_t ms[] = {src_um, dst_um, wum, wpm, bm, srcm, dstm};
  for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) dnnl_memory_destroy(ms[i]);
  return total * 1e3;
}

/* ---- im2col + OpenBLAS, bias and relu6 in a second pass ---- */

static double raw_gemm(const shape *S, int reps) {
  int oh = out_size(S), ow = oh;
  int cg = S->c / S->g, og = S->oc / S->g, kk = cg * S->k * S->k, sp = oh * ow;
  float *x = filled((size_t)S->n * S->c * S->h * S->w, 1), *w = filled((size_t)S->oc * kk, 2);
  float *bias = filled((size_t)S->oc, 3);
  float *y = filled((size_t)S->n * S->oc * sp, 4), *col = filled((size_t)kk * sp, 5);
  int one = S->k == 1 && S->s == 1 && S->p == 0;
  double *tt = malloc(sizeof(double) * (size_t)reps);
  for (int r = -3; r < reps; r++) {
    double t0 = now();
    for (int n = 0; n < S->n; n++) {
      for (int g = 0; g < S->g; g++) {
        const float *xs = x + ((size_t)n * S->c + (size_t)g * cg) * S->h * S->w, *b = xs;
        if (!one) {
          for (int c = 0; c < cg; c++) {
            for (int ky = 0; ky < S->k; ky++) {
              for (int kx = 0; kx < S->k; kx++) {
                float *row = col + ((size_t)(c * S->k + ky) * S->k + kx) * sp;
                for (int oy = 0; oy < oh; oy++) {
                  int iy = oy * S->s - S->p + ky;
                  for (int ox = 0; ox < ow; ox++) {
                    int ix = ox * S->s - S->p + kx;
                    row[oy * ow + ox] = (iy < 0 || iy >= S->h || ix < 0 || ix >= S->w)
                                            ? 0.f
                                            : xs[((size_t)c * S->h + iy) * S->w + ix];
                  }
                }
              }
            }
          }
          b = col;
        }
        float *ys = y + ((size_t)n * S->oc + (size_t)g * og) * sp;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, og, sp, kk, 1.f,
                    w + (size_t)g * og * kk, kk, b, sp, 0.f, ys, sp);
        for (int o = 0; o < og; o++) {
          for (int q = 0; q < sp; q++) {
            float v = ys[o * sp + q] + bias[g * og + o];
            ys[o * sp + q] = v < 0 ? 0 : v > 6 ? 6 : v;
          }
        }
      }
    }
    if (r >= 0) tt[r] = now() - t0;
  }
  double m = median(tt, reps) * 1e3;
  free(tt);
  free(x);
  free(w);
  free(bias);
  free(y);
  free(col);
  return m;
}

/* ---- icore's kernel, driven as an executor drives it ---- */

typedef struct op_run {
  ic_builder *b;
  ic_program *prog;
  const ic_opdef *def;
  void *attrs;
  void *state;
  ic_kenv env;
  ic_err err;
  ic_tensor t[IC_CONV_N_INPUTS], y;   /* every input slot of conv2d */
  ic_tensor *tp[IC_CONV_N_INPUTS], *yp;
  const char *names[IC_CONV_N_INPUTS], *yname;
  ic_kslot in[IC_CONV_N_INPUTS], out[1];
  ic_kctx c;
} op_run;

static void tensor_of(ic_tensor *t, int ndim, const int64_t *dims, unsigned seed) {
  ic_err e;
  ic_tensor_init(t);
  ic_tensor_set_meta(t, IC_FP32, ndim, dims);
  if (ic_tensor_alloc(t, NULL, &e)) exit(1);
  float *v = t->data;
  for (int64_t i = 0; i < ic_tensor_numel_(t); i++) {
    v[i] = (float)(((uint64_t)i * 2654435761u + seed) % 1000) / 1000.0f - 0.5f;
  }
}

static void op_setup(op_run *r, const char *type, int n_in, int threads) {
  char errs[1024];
  if (ic_builder_build(r->b, &r->prog, errs, sizeof errs)) {
    fprintf(stderr, "%s\n", errs);
    exit(1);
  }
  r->def = ic_registry_find(type);
  r->attrs = calloc(1, r->def->attrs_size + 1);
  ic_err_clear(&r->err);
  if (ic_opdef_parse(r->def, &r->prog->blocks[0].ops[0], r->attrs, &r->err)) {
    fprintf(stderr, "%s\n", r->err.msg);
    exit(1);
  }
  r->env = (ic_kenv){.alloc = ic_allocator_caching((size_t)1 << 30), .intra_threads = threads};
  for (int i = 0; i < IC_CONV_N_INPUTS; i++) {
    r->tp[i] = &r->t[i];
    r->in[i] = (ic_kslot){.n = i < n_in ? 1 : 0, .t = &r->tp[i], .names = &r->names[i]};
    r->names[i] = "in";
  }
  ic_tensor_init(&r->y);
  r->yp = &r->y;
  r->yname = "out";
  r->out[0] = (ic_kslot){.n = 1, .t = &r->yp, .names = &r->yname};
  r->c = (ic_kctx){.def = r->def, .op = &r->prog->blocks[0].ops[0], .attrs = r->attrs,
                   .in = r->in, .out = r->out, .err = &r->err, .env = &r->env,
                   .state = &r->state};
}

static double op_call(op_run *r) {
  double t0 = now();
  if (r->def->infer(&r->c) || ic_tensor_alloc(&r->y, r->env.alloc, &r->err) ||
      r->def->cpu(&r->c)) {
    fprintf(stderr, "kernel failed: %s\n", r->err.msg);
    exit(1);
  }
  return now() - t0;
}

static void op_teardown(op_run *r, int n_in) {
  if (r->state) r->def->free_state(r->state);
  for (int i = 0; i < n_in; i++) ic_tensor_reset(&r->t[i]);
  ic_tensor_reset(&r->y);
  ic_allocator_destroy(r->env.alloc);
  free(r->attrs);
  ic_program_destroy(r->prog);
  ic_builder_destroy(r->b);
}

/* Returns the median per call; *first gets the first call (state build + weight reorder). */
static double icore_conv(const shape *S, int threads, int reps, double *first,
                         double *rebuild) {
  op_run r;
  memset(&r, 0, sizeof r);
  r.b = ic_builder_create();
  const char *vars[] = {"x", "w", "b", "y"};
  for (int i = 0; i < 4; i++) {
    ic_builder_var(r.b, 0, vars[i], IC_FP32, 1, (const int64_t[]){-1}, false);
  }
  ic_builder_op *op = ic_builder_add_op(r.b, 0, S->g > 1 ? "depthwise_conv2d" : "conv2d");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "Filter", "w");
  ic_builder_in(op, "Bias", "b");
  ic_builder_out(op, "Output", "y");
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){S->s, S->s});
  ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){S->p, S->p});
  ic_builder_attr_int(op, "groups", S->g);
  ic_builder_attr_string(op, "fuse_activation", "relu6");
  ic_builder_attr_float(op, "fuse_alpha", 0.0f);
  ic_builder_attr_float(op, "fuse_beta", 6.0f);
  op_setup(&r, S->g > 1 ? "depthwise_conv2d" : "conv2d", 3, threads);
  tensor_of(&r.t[0], 4, (const int64_t[]){S->n, S->c, S->h, S->w}, 1);
  tensor_of(&r.t[1], 4, (const int64_t[]){S->oc, S->c / S->g, S->k, S->k}, 2);
  tensor_of(&r.t[2], 1, (const int64_t[]){S->oc}, 3);
  *first = op_call(&r) * 1e3;
  double *tt = malloc(sizeof(double) * (size_t)(reps > 5 ? reps : 5));
  for (int i = -2; i < reps; i++) {
    double t = op_call(&r);
    if (i >= 0) tt[i] = t;
  }
  double m = median(tt, reps) * 1e3;
  /* what the uncompiled executor pays every run: a fresh state, oneDNN's primitive cache hot */
  for (int i = 0; i < 5; i++) {
    r.def->free_state(r.state);
    r.state = NULL;
    tt[i] = op_call(&r);
  }
  *rebuild = median(tt, 5) * 1e3;
  free(tt);
  op_teardown(&r, 3);
  return m;
}

typedef struct pshape {
  const char *name;
  int n, c, h, w, k, s;
  bool max, adaptive;
} pshape;

static double icore_pool(const pshape *P, int threads, int reps) {
  op_run r;
  memset(&r, 0, sizeof r);
  r.b = ic_builder_create();
  ic_builder_var(r.b, 0, "x", IC_FP32, 1, (const int64_t[]){-1}, false);
  ic_builder_var(r.b, 0, "y", IC_FP32, 1, (const int64_t[]){-1}, false);
  ic_builder_op *op = ic_builder_add_op(r.b, 0, "pool2d");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  ic_builder_attr_string(op, "pooling_type", P->max ? "max" : "avg");
  ic_builder_attr_ints(op, "ksize", 2, (const int32_t[]){P->k, P->k});
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){P->s, P->s});
  ic_builder_attr_bool(op, "adaptive", P->adaptive);
  op_setup(&r, "pool2d", 1, threads);
  tensor_of(&r.t[0], 4, (const int64_t[]){P->n, P->c, P->h, P->w}, 1);
  double *tt = malloc(sizeof(double) * (size_t)reps);
  for (int i = -3; i < reps; i++) {
    double t = op_call(&r);
    if (i >= 0) tt[i] = t;
  }
  double m = median(tt, reps) * 1e3;
  free(tt);
  op_teardown(&r, 1);
  return m;
}

/* oneDNN pooling on plain NCHW (blocked = 0) or blocked with reorders around it (1), and a
 * plain C loop, for comparison with what icore chose. */
static double raw_pool(const pshape *P, int mode, int reps, char *impl, size_t implen) {
  int oh = P->adaptive ? 1 : (P->h - P->k) / P->s + 1;
  int k = P->adaptive ? P->h : P->k, s = P->adaptive ? P->h : P->s;
  float *x = filled((size_t)P->n * P->c * P->h * P->w, 1);
  float *y = filled((size_t)P->n * P->c * oh * oh, 2);
  double *tt = malloc(sizeof(double) * (size_t)reps);
  snprintf(impl, implen, "loop");
  if (mode == 2) {
    for (int r = -3; r < reps; r++) {
      double t0 = now();
      for (int nc = 0; nc < P->n * P->c; nc++) {
        const float *xs = x + (size_t)nc * P->h * P->w;
        for (int i = 0; i < oh; i++) {
          for (int j = 0; j < oh; j++) {
            float v = P->max ? -3.4e38f : 0.f;
            for (int a = i * s; a < i * s + k; a++) {
              for (int b = j * s; b < j * s + k; b++) {
                float e = xs[a * P->w + b];
                v = P->max ? (v > e ? v : e) : v + e;
              }
            }
            y[((size_t)nc * oh + i) * oh + j] = P->max ? v : v / (float)(k * k);
          }
        }
      }
      if (r >= 0) tt[r] = now() - t0;
    }
  } else {
    dnnl_memory_desc_t su, du, sc, dc;
    md4(&su, P->n, P->c, P->h, P->w, dnnl_nchw);
    md4(&du, P->n, P->c, oh, oh, dnnl_nchw);
    md4(&sc, P->n, P->c, P->h, P->w, mode ? dnnl_nChw8c : dnnl_nchw);
    md4(&dc, P->n, P->c, oh, oh, mode ? dnnl_nChw8c : dnnl_nchw);
    dnnl_dims_t st = {s, s}, ker = {k, k}, dil = {0, 0}, pad = {0, 0};
    dnnl_pooling_v2_desc_t pdsc;
    CK(dnnl_pooling_v2_forward_desc_init(&pdsc, dnnl_forward_inference,
                                         P->max ? dnnl_pooling_max : dnnl_pooling_avg_exclude_padding,
                                         &sc, &dc, st, ker, dil, pad, pad));
    dnnl_primitive_desc_t pd;
    CK(dnnl_primitive_desc_create(&pd, &pdsc, NULL, eng, NULL));
    const char *info;
    CK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &info));
    snprintf(impl, implen, "%s", info);
    dnnl_primitive_t pool;
    CK(dnnl_primitive_create(&pool, pd));
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_t mu, mdu, ms, mds;
    CK(dnnl_memory_create(&mu, &su, eng, x));
    CK(dnnl_memory_create(&mdu, &du, eng, y));
    CK(dnnl_memory_create(&ms, &sc, eng, DNNL_MEMORY_ALLOCATE));
    CK(dnnl_memory_create(&mds, &dc, eng, DNNL_MEMORY_ALLOCATE));
    dnnl_primitive_t rin = mode ? reorder(&su, &sc) : NULL, rout = mode ? reorder(&dc, &du) : NULL;
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, mode ? ms : mu}, {DNNL_ARG_DST, mode ? mds : mdu}};
    for (int r = -3; r < reps; r++) {
      double t0 = now();
      if (rin) run_reorder(rin, mu, ms);
      CK(dnnl_primitive_execute(pool, strm, 2, args));
      CK(dnnl_stream_wait(strm));
      if (rout) run_reorder(rout, mds, mdu);
      if (r >= 0) tt[r] = now() - t0;
    }
    dnnl_primitive_destroy(pool);
    if (rin) dnnl_primitive_destroy(rin);
    if (rout) dnnl_primitive_destroy(rout);
    dnnl_memory_t mm[] = {mu, mdu, ms, mds};
    for (int i = 0; i < 4; i++) dnnl_memory_destroy(mm[i]);
  }
  double m = median(tt, reps) * 1e3;
  free(tt);
  free(x);
  free(y);
  return m;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 30;
  CK(dnnl_engine_create(&eng, dnnl_cpu, 0));
  CK(dnnl_stream_create(&strm, eng, dnnl_stream_in_order));
  /* what a kernel state pays once for its own engine and stream */
  double t0 = now();
  for (int i = 0; i < 1000; i++) {
    dnnl_engine_t e;
    dnnl_stream_t s;
    CK(dnnl_engine_create(&e, dnnl_cpu, 0));
    CK(dnnl_stream_create(&s, e, dnnl_stream_in_order));
    dnnl_stream_destroy(s);
    dnnl_engine_destroy(e);
  }
  printf("engine+stream create+destroy: %.2f us\n\n", (now() - t0) * 1e3);
  static const shape shapes[] = {
      {"conv 3x3 s2 3->32 @224", 1, 3, 224, 224, 32, 3, 2, 1, 1},
      {"pw 1x1 32->16 @112", 1, 32, 112, 112, 16, 1, 1, 0, 1},
      {"pw 1x1 16->96 @112", 1, 16, 112, 112, 96, 1, 1, 0, 1},
      {"dw 3x3 s2 96 @112", 1, 96, 112, 112, 96, 3, 2, 1, 96},
      {"dw 3x3 s1 144 @56", 1, 144, 56, 56, 144, 3, 1, 1, 144},
      {"pw 1x1 144->24 @56", 1, 144, 56, 56, 24, 1, 1, 0, 1},
      {"pw 1x1 320->1280 @7", 1, 320, 7, 7, 1280, 1, 1, 0, 1},
  };
  printf("| layer | N | thr | nchw | blk-conv | blk+reo | im2col | icore | icore 1st call | "
         "icore fresh state | nchw impl | blocked impl |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    for (int n = 1; n <= 8; n += 7) {
      for (int thr = 1; thr <= 2; thr++) {
        shape S = shapes[i];
        S.n = n;
        omp_set_num_threads(thr);
        openblas_set_num_threads(thr);
        char i0[64], i1[64];
        double c0, c1, first, rebuild;
        double plain = raw_dnnl(&S, 0, reps, &c0, i0, sizeof i0);
        double blk = raw_dnnl(&S, 1, reps, &c1, i1, sizeof i1);
        double gemm = raw_gemm(&S, reps);
        double ic = icore_conv(&S, thr, reps, &first, &rebuild);
        printf("| %s | %d | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | %s | %s |\n",
               S.name, n, thr, plain, c1, blk, gemm, ic, first, rebuild, i0, i1);
        fflush(stdout);
      }
    }
  }
  static const pshape pools[] = {
      {"avg adaptive 1x1 1280 @7 (MobileNetV2 head)", 1, 1280, 7, 7, 1, 1, false, true},
      {"max 2x2 s2 64 @56", 1, 64, 56, 56, 2, 2, true, false},
      {"avg 2x2 s2 64 @56", 1, 64, 56, 56, 2, 2, false, false},
      {"max 3x3 s2 64 @112", 1, 64, 112, 112, 3, 2, true, false},
  };
  printf("\n| pool | N | thr | oneDNN nchw | oneDNN blocked+reo | C loop | icore | nchw impl |\n");
  printf("|---|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < sizeof pools / sizeof pools[0]; i++) {
    for (int n = 1; n <= 8; n += 7) {
      for (int thr = 1; thr <= 2; thr++) {
        pshape P = pools[i];
        P.n = n;
        omp_set_num_threads(thr);
        char im[64], ib[64], il[64];
        double a = raw_pool(&P, 0, reps, im, sizeof im), b = raw_pool(&P, 1, reps, ib, sizeof ib);
        double l = raw_pool(&P, 2, reps, il, sizeof il);
        printf("| %s | %d | %d | %.3f | %.3f | %.3f | %.3f | %s |\n", P.name, n, thr, a, b, l,
               icore_pool(&P, thr, reps), im);
        fflush(stdout);
      }
    }
  }
  dnnl_stream_destroy(strm);
  dnnl_engine_destroy(eng);
  return 0;
}
