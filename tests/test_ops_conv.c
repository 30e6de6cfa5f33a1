/* conv2d and depthwise_conv2d against a plain-loop reference in double precision: the shared
 * case table cases_conv.h (the CUDA suite runs the same), plus kernel state, threads,
 * blocked layouts and bad inputs. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/plan.h"
#include "interp/interp.h"
#include "kernels/cpu/conv.h"
#include "kernels/cpu/gemv.h"
#include "kernels/cpu/onednn.h"
#include "kernels/kernel.h"
#include "program/program.h"
#include "scope/tensor.h"
#include "cases_conv.h"
#include "testutil.h"

typedef cc_case conv_case;

static uint64_t rng_next(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* A tensor of uniform values in [lo, hi) and the same values as doubles. */
static ic_tensor *rand_tensor(bool f64, int ndim, const int64_t *dims, uint64_t seed, double lo,
                              double hi, double **vals) {
  ic_tensor *t;
  ck_assert_int_eq(ic_tensor_create(f64 ? IC_FP64 : IC_FP32, ndim, dims, &t), IC_OK);
  int64_t n = ic_tensor_numel(t);
  *vals = malloc(sizeof(double) * (size_t)(n ? n : 1));
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 7;
  for (int64_t i = 0; i < n; i++) {
    double u = lo + (hi - lo) * (double)(rng_next(&s) >> 11) / 9007199254740992.0;
    if (f64) {
      ((double *)ic_tensor_data(t))[i] = u;
      (*vals)[i] = u;
    } else {
      ((float *)ic_tensor_data(t))[i] = (float)u;
      (*vals)[i] = (float)u;
    }
  }
  return t;
}

static double ref_act(const char *act, double al, double be, double s) {
  if (!act || !*act) return s;
  if (!strcmp(act, "relu") || !strcmp(act, "leaky_relu")) return s > 0 ? s : al * s;
  if (!strcmp(act, "relu6") || !strcmp(act, "clip")) return s <= al ? al : s > be ? be : s;
  if (!strcmp(act, "hard_swish")) {
    double t = al * s + be;
    return s * (t < 0 ? 0 : t > 1 ? 1 : t);
  }
  if (!strcmp(act, "hard_sigmoid")) {
    double t = al * s + be;
    return t < 0 ? 0 : t > 1 ? 1 : t;
  }
  if (!strcmp(act, "swish")) return s * (1.0 / (1.0 + exp(-al * s)));
  if (!strcmp(act, "sigmoid")) return 1.0 / (1.0 + exp(-s));
  if (!strcmp(act, "tanh")) return tanh(s);
  if (!strcmp(act, "abs")) return s < 0 ? -s : s;
  if (!strcmp(act, "sqrt")) return sqrt(s);
  if (!strcmp(act, "mish")) return s * tanh(log(1.0 + exp(s)));
  if (!strcmp(act, "gelu") || !strcmp(act, "gelu_erf")) return s * 0.5 * (1.0 + erf(s / sqrt(2.0)));
  if (!strcmp(act, "gelu_tanh")) {
    return 0.5 * s * (1.0 + tanh(sqrt(2.0 / acos(-1.0)) * (s + 0.044715 * pow(s, 3))));
  }
  ck_abort_msg("no reference for %s", act);
  return 0;
}

/* Paddle's geometry, written out from ConvInferMeta / UpdatePaddingAndDilation. */
static void ref_geom(const conv_case *k, int64_t pad[4], int64_t *dh, int64_t *dw, int64_t *oh,
                     int64_t *ow) {
  int64_t sh = k->sh ? k->sh : 1, sw = k->sw ? k->sw : 1;
  *dh = k->dh ? k->dh : 1;
  *dw = k->dw ? k->dw : 1;
  memset(pad, 0, 4 * sizeof pad[0]);
  if (k->npads == 2) {
    pad[0] = pad[1] = k->pads[0];
    pad[2] = pad[3] = k->pads[1];
  } else if (k->npads == 4) {
    for (int i = 0; i < 4; i++) pad[i] = k->pads[i];
  }
  if (k->algo && !strcmp(k->algo, "SAME")) {
    int64_t in[2] = {k->h, k->w}, st[2] = {sh, sw}, ks[2] = {k->kh, k->kw};
    for (int d = 0; d < 2; d++) {
      int64_t out = (in[d] + st[d] - 1) / st[d];
      int64_t total = (out - 1) * st[d] + ks[d] - in[d];
      if (total < 0) total = 0;
      pad[2 * d] = total / 2;
      pad[2 * d + 1] = total - total / 2;
    }
    *dh = *dw = 1;
  } else if (k->algo && !strcmp(k->algo, "VALID")) {
    memset(pad, 0, 4 * sizeof pad[0]);
  }
  *oh = (k->h + pad[0] + pad[1] - (*dh * (k->kh - 1) + 1)) / sh + 1;
  *ow = (k->w + pad[2] + pad[3] - (*dw * (k->kw - 1) + 1)) / sw + 1;
}

/* Index of (n, c, y, x) in an NCHW or NHWC tensor with C channels, H x W. */
static size_t at(bool nhwc, int64_t C, int64_t H, int64_t W, int64_t n, int64_t c, int64_t y,
                 int64_t x) {
  return (size_t)(nhwc ? ((n * H + y) * W + x) * C + c : ((n * C + c) * H + y) * W + x);
}

static ic_builder *conv_program(const conv_case *k, const int64_t *xd, const int64_t *wd,
                                const int64_t *bd, const int64_t *yd) {
  ic_dtype dt = k->f64 ? IC_FP64 : IC_FP32;
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", dt, 4, xd);
  tu_var(b, "w", dt, 4, wd);
  tu_var(b, "y", dt, 4, yd);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "w");
  if (k->bias) {
    tu_var(b, "b", dt, k->bias, bd);
    ic_builder_feed(b, "b");
  }
  if (k->residual) {
    tu_var(b, "r", dt, 4, yd);
    ic_builder_feed(b, "r");
  }
  ic_builder_op *op = ic_builder_add_op(b, 0, k->op ? k->op : "conv2d");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "Filter", "w");
  if (k->bias) ic_builder_in(op, "Bias", "b");
  else ic_builder_input(op, "Bias", 0, NULL);
  if (k->residual) ic_builder_in(op, "ResidualData", "r");
  ic_builder_out(op, "Output", "y");
  if (k->groups) ic_builder_attr_int(op, "groups", k->groups);
  if (k->sh) ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){k->sh, k->sw});
  if (k->dh) ic_builder_attr_ints(op, "dilations", 2, (const int32_t[]){k->dh, k->dw});
  if (k->npads) ic_builder_attr_ints(op, "paddings", (size_t)k->npads, k->pads);
  if (k->algo) ic_builder_attr_string(op, "padding_algorithm", k->algo);
  ic_builder_attr_string(op, "data_format", k->nhwc ? "NHWC" : "NCHW");
  if (k->act) {
    ic_builder_attr_string(op, "fuse_activation", k->act);
    ic_builder_attr_float(op, "fuse_alpha", k->alpha);
    ic_builder_attr_float(op, "fuse_beta", k->beta);
  }
  if (k->residual) ic_builder_attr_bool(op, "fuse_residual_connection", true);
  if (k->mark) ic_builder_attr_bool(op, "ic_blocked_out", true);
  if (k->pad) ic_builder_attr_bool(op, "ic_blocked_pad", true);
  if (k->wino) ic_builder_attr_bool(op, "ic_winograd", true);
  /* bookkeeping Paddle exports, which icore ignores */
  ic_builder_attr_bool(op, "use_cudnn", true);
  ic_builder_attr_bool(op, "use_mkldnn", false);
  ic_builder_attr_int(op, "workspace_size_MB", 512);
  ic_builder_attr_bool(op, "exhaustive_search", false);
  ic_builder_attr_string(op, "mkldnn_data_type", "float32");
  ic_builder_fetch(b, "y");
  return b;
}

static void run_case(const conv_case *k, uint64_t seed) {
  int g = k->groups ? k->groups : 1;
  int64_t pad[4], dh, dw, oh, ow;
  ref_geom(k, pad, &dh, &dw, &oh, &ow);
  int64_t sh = k->sh ? k->sh : 1, sw = k->sw ? k->sw : 1;
  int64_t xd[4] = {k->n, k->nhwc ? k->h : k->c, k->nhwc ? k->w : k->h, k->nhwc ? k->c : k->w};
  int64_t wd[4] = {k->oc, k->c / g, k->kh, k->kw};
  int64_t yd[4] = {k->n, k->nhwc ? oh : k->oc, k->nhwc ? ow : oh, k->nhwc ? k->oc : ow};
  int64_t bd[4] = {k->oc};
  if (k->bias == 4) {
    bd[0] = 1;
    bd[1] = k->oc;
    bd[2] = bd[3] = 1;
  }
  double *xv, *wv, *bv = NULL, *rv = NULL;
  ic_tensor *feeds[4];
  const char *names[4] = {"x", "w", NULL, NULL};
  size_t nf = 2;
  feeds[0] = rand_tensor(k->f64, 4, xd, seed, -1, 1, &xv);
  feeds[1] = rand_tensor(k->f64, 4, wd, seed + 1, -0.5, 0.5, &wv);
  if (k->bias) {
    names[nf] = "b";
    feeds[nf++] = rand_tensor(k->f64, k->bias, bd, seed + 2, -1, 1, &bv);
  }
  if (k->residual) {
    names[nf] = "r";
    feeds[nf++] = rand_tensor(k->f64, 4, yd, seed + 3, -1, 1, &rv);
  }
  /* the reference */
  size_t ny = (size_t)(k->n * k->oc * oh * ow);
  double *ref = calloc(ny, sizeof *ref);
  int64_t cg = k->c / g, og = k->oc / g;
  for (int64_t n = 0; n < k->n; n++) {
    for (int64_t o = 0; o < k->oc; o++) {
      int64_t grp = o / og;
      for (int64_t y = 0; y < oh; y++) {
        for (int64_t x = 0; x < ow; x++) {
          double s = 0;
          for (int64_t ci = 0; ci < cg; ci++) {
            for (int64_t ky = 0; ky < k->kh; ky++) {
              for (int64_t kx = 0; kx < k->kw; kx++) {
                int64_t iy = y * sh - pad[0] + ky * dh, ix = x * sw - pad[2] + kx * dw;
                if (iy < 0 || iy >= k->h || ix < 0 || ix >= k->w) continue;
                s += xv[at(k->nhwc, k->c, k->h, k->w, n, grp * cg + ci, iy, ix)] *
                     wv[((o * cg + ci) * k->kh + ky) * k->kw + kx];
              }
            }
          }
          if (bv) s += bv[o];
          size_t yi = at(k->nhwc, k->oc, oh, ow, n, o, y, x);
          if (rv) s += rv[yi];
          ref[yi] = ref_act(k->act, k->alpha, k->beta, s);
        }
      }
    }
  }
  ic_builder *b = conv_program(k, xd, wd, bd, yd);
  ic_tensor *out[1];
  char err[1024];
  ic_status st = tu_run(b, nf, names, feeds, 1, TU_NAMES("y"), out, err, sizeof err);
  ck_assert_msg(st == IC_OK, "%s", err);
  tu_assert_shape(out[0], k->f64 ? IC_FP64 : IC_FP32, 4, yd);
  if (k->f64) tu_assert_close(out[0], ref, ny, 1e-10, 1e-10);
  else tu_assert_close(out[0], ref, ny, 1e-4, 1e-4);
  ic_tensor_destroy(out[0]);
  for (size_t i = 0; i < nf; i++) ic_tensor_destroy(feeds[i]);
  ic_builder_destroy(b);
  free(xv);
  free(wv);
  free(bv);
  free(rv);
  free(ref);
}

/* Every case in both layouts and both float types. */
static void run_all(const conv_case *k) {
  for (int v = 0; v < 4; v++) {
    uint64_t seed;
    conv_case c = cc_variant(k, v, &seed);
    run_case(&c, seed);
  }
}

/* Every row of the shared table, in both layouts and float types. */
START_TEST(table_cases) {
  for (size_t i = 0; i < CC_N_CASES; i++) run_all(&cc_cases[i]);
}
END_TEST

/* Every fused activation, with and without bias and residual. */
START_TEST(activations) {
  for (size_t a = 0; a < CC_N_ACTS; a++) {
    for (int bias = 0; bias < 2; bias++) {
      for (int res = 0; res < 2; res++) {
        cc_case k = cc_act_case(a, bias, res != 0);
        run_all(&k);
      }
    }
  }
}
END_TEST

/* A ResidualData input with fuse_residual_connection off is ignored, as in Paddle. */
START_TEST(residual_off) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 4, TU_DIMS(1, 1, 2, 2));
  tu_var(b, "w", IC_FP32, 4, TU_DIMS(1, 1, 1, 1));
  tu_var(b, "r", IC_FP32, 4, TU_DIMS(1, 1, 2, 2));
  tu_var(b, "y", IC_FP32, 4, TU_DIMS(1, 1, 2, 2));
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "w");
  ic_builder_feed(b, "r");
  ic_builder_op *op = ic_builder_add_op(b, 0, "conv2d");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "Filter", "w");
  ic_builder_in(op, "ResidualData", "r");
  ic_builder_out(op, "Output", "y");
  ic_builder_fetch(b, "y");
  ic_tensor *feeds[3] = {tu_f32(4, TU_DIMS(1, 1, 2, 2), (const float[]){1, 2, 3, 4}),
                         tu_f32(4, TU_DIMS(1, 1, 1, 1), (const float[]){-2}),
                         tu_f32(4, TU_DIMS(1, 1, 2, 2), (const float[]){100, 100, 100, 100})};
  ic_tensor *out[1];
  char err[1024];
  ck_assert_msg(tu_run(b, 3, TU_NAMES("x", "w", "r"), feeds, 1, TU_NAMES("y"), out, err,
                       sizeof err) == IC_OK, "%s", err);
  tu_assert_close(out[0], (const double[]){-2, -4, -6, -8}, 4, 0, 0);
  ic_tensor_destroy(out[0]);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(feeds[i]);
  ic_builder_destroy(b);
}
END_TEST

/* ---- the kernel state, as a compiled executor keeps it across runs ---- */

/* conv2d's kernel run directly with a state slot that persists across calls: the same
 * input shape and weights reuse the primitive, a different Filter buffer redoes the blocked
 * weights, a different input shape rebuilds everything. */
START_TEST(state_reuse) {
  /* 1x1 conv y = w * x with one channel: easy to predict */
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 4, TU_DIMS(-1, 2, -1, -1));
  tu_var(b, "w", IC_FP32, 4, TU_DIMS(3, 2, 1, 1));
  tu_var(b, "y", IC_FP32, 4, TU_DIMS(-1, 3, -1, -1));
  ic_builder_op *bop = ic_builder_add_op(b, 0, "conv2d");
  ic_builder_in(bop, "Input", "x");
  ic_builder_in(bop, "Filter", "w");
  ic_builder_out(bop, "Output", "y");
  ic_program *p;
  char errs[1024];
  ck_assert_msg(ic_builder_build(b, &p, errs, sizeof errs) == IC_OK, "%s", errs);
  const ic_op *op = &p->blocks[0].ops[0];
  const ic_opdef *def = ic_registry_find("conv2d");
  ck_assert_ptr_nonnull(def);
  ck_assert_ptr_nonnull(def->free_state);
  ic_err err;
  ic_err_clear(&err);
  void *attrs = calloc(1, def->attrs_size);
  ck_assert_int_eq(ic_opdef_parse(def, op, attrs, &err), IC_OK);
  ic_kenv env = {.alloc = NULL, .seed = 0, .intra_threads = 2};
  void *state = NULL;

  ic_tensor x, w1, w2, y;
  ic_tensor *xp = &x, *wp = &w1, *yp = &y;
  const char *xn = "x", *wn = "w", *yn = "y";
  ic_kslot in[IC_CONV_N_INPUTS] = {{.n = 1, .t = &xp, .names = &xn},
                                   {.n = 1, .t = &wp, .names = &wn}};
  ic_kslot out[1] = {{.n = 1, .t = &yp, .names = &yn}};
  ic_kctx c = {.def = def, .op = op, .attrs = attrs, .in = in, .out = out, .err = &err,
               .env = &env, .state = &state};
  ic_tensor_init(&x);
  ic_tensor_init(&w1);
  ic_tensor_init(&w2);
  ic_tensor_init(&y);
  ic_tensor_set_meta(&w1, IC_FP32, 4, TU_DIMS(3, 2, 1, 1));
  ic_tensor_set_meta(&w2, IC_FP32, 4, TU_DIMS(3, 2, 1, 1));
  ck_assert_int_eq(ic_tensor_alloc(&w1, NULL, &err), IC_OK);
  ck_assert_int_eq(ic_tensor_alloc(&w2, NULL, &err), IC_OK);
  for (int i = 0; i < 6; i++) {
    ((float *)w1.data)[i] = (float)(i + 1);  /* w1[o][c] = 2o + c + 1 */
    ((float *)w2.data)[i] = (float)(-i);     /* w2[o][c] = -(2o + c) */
  }
  void *kept = NULL;
  for (int round = 0; round < 5; round++) {
    /* rounds 0 and 1 share input shape and weights; 2 changes the weights buffer; 3 the
     * input shape; 4 only the values in the same weights buffer */
    int64_t hw = round >= 3 ? 3 : 2;
    wp = round >= 2 ? &w2 : &w1;
    if (round == 4) {
      for (int i = 0; i < 6; i++) ((float *)w2.data)[i] = (float)(3 * i - 7);
    }
    ic_tensor_set_meta(&x, IC_FP32, 4, TU_DIMS(1, 2, hw, 1));
    ck_assert_int_eq(ic_tensor_alloc(&x, NULL, &err), IC_OK);
    for (int64_t i = 0; i < 2 * hw; i++) ((float *)x.data)[i] = (float)(i + round);
    ck_assert_msg(def->infer(&c) == IC_OK, "%s", err.msg);
    ck_assert_int_eq(ic_tensor_alloc(&y, NULL, &err), IC_OK);
    ck_assert_msg(def->cpu(&c) == IC_OK, "%s", err.msg);
    ck_assert_ptr_nonnull(state);
    /* the same shapes keep the state (a new Filter buffer only redoes the weights) */
    if (round == 0 || round == 3) kept = state;
    else ck_assert_ptr_eq(state, kept);
    double ref[9];
    for (int o = 0; o < 3; o++) {
      for (int64_t s = 0; s < hw; s++) {
        double acc = 0;
        for (int ch = 0; ch < 2; ch++) {
          acc += ((float *)wp->data)[o * 2 + ch] * ((float *)x.data)[ch * hw + s];
        }
        ref[o * hw + s] = acc;
      }
    }
    tu_assert_shape(&y, IC_FP32, 4, TU_DIMS(1, 3, hw, 1));
    tu_assert_close(&y, ref, (size_t)(3 * hw), 1e-6, 1e-6);
  }
  def->free_state(state);
  ic_tensor_reset(&x);
  ic_tensor_reset(&w1);
  ic_tensor_reset(&w2);
  ic_tensor_reset(&y);
  free(attrs);
  ic_program_destroy(p);
  ic_builder_destroy(b);
}
END_TEST

/* Run case k's op directly with intra_threads threads (a fresh kernel state); returns the
 * output's bytes (malloc'd) and their count. */
static void *run_direct_w(const conv_case *k, int threads, size_t *nbytes, bool *wino,
                          bool *pix, bool *gemv) {
  int g = k->groups ? k->groups : 1;
  int64_t pad[4], dh, dw, oh, ow;
  ref_geom(k, pad, &dh, &dw, &oh, &ow);
  int64_t xd[4] = {k->n, k->nhwc ? k->h : k->c, k->nhwc ? k->w : k->h, k->nhwc ? k->c : k->w};
  int64_t wd[4] = {k->oc, k->c / g, k->kh, k->kw};
  int64_t yd[4] = {k->n, k->nhwc ? oh : k->oc, k->nhwc ? ow : oh, k->nhwc ? k->oc : ow};
  /* the program declares Bias with the case's rank (1 or 4); the kernel gets [C_out] */
  int64_t bd[1] = {k->oc}, bd4[4] = {1, k->oc, 1, 1};
  ic_builder *b = conv_program(k, xd, wd, k->bias == 4 ? bd4 : bd, yd);
  ic_program *p;
  char errs[1024];
  ck_assert_msg(ic_builder_build(b, &p, errs, sizeof errs) == IC_OK, "%s", errs);
  const ic_op *op = NULL;
  for (size_t i = 0; i < p->blocks[0].n_ops && !op; i++) {
    if (!strcmp(p->blocks[0].ops[i].type, k->op ? k->op : "conv2d")) op = &p->blocks[0].ops[i];
  }
  ck_assert_ptr_nonnull(op);
  const ic_opdef *def = ic_registry_find(op->type);
  ic_err err;
  ic_err_clear(&err);
  void *attrs = calloc(1, def->attrs_size);
  ck_assert_int_eq(ic_opdef_parse(def, op, attrs, &err), IC_OK);
  double *xv, *wv, *bv;
  ic_tensor *x = rand_tensor(k->f64, 4, xd, 11, -1, 1, &xv);
  ic_tensor *w = rand_tensor(k->f64, 4, wd, 12, -0.5, 0.5, &wv);
  ic_tensor *bias = rand_tensor(k->f64, 1, bd, 13, -1, 1, &bv);
  ic_tensor y;
  ic_tensor_init(&y);
  ic_tensor *yp = &y;
  const char *names[3] = {"x", "w", "b"}, *yn = "y";
  ic_kslot in[IC_CONV_N_INPUTS] = {{.n = 1, .t = &x, .names = &names[0]},
                    {.n = 1, .t = &w, .names = &names[1]},
                    {.n = k->bias ? 1 : 0, .t = &bias, .names = &names[2]}};
  ic_kslot out[1] = {{.n = 1, .t = &yp, .names = &yn}};
  ic_kenv env = {.alloc = NULL, .intra_threads = threads};
  void *state = NULL;
  ic_kctx c = {.def = def, .op = op, .attrs = attrs, .in = in, .out = out, .err = &err,
               .env = &env, .state = &state};
  ck_assert_msg(def->infer(&c) == IC_OK, "%s", err.msg);
  ck_assert_int_eq(ic_tensor_alloc(&y, NULL, &err), IC_OK);
  ck_assert_msg(def->cpu(&c) == IC_OK, "%s", err.msg);
  if (wino) *wino = ic_conv_state_winograd(state);
  if (pix) *pix = ic_conv_state_images_as_pixels(state);
  if (gemv) *gemv = ic_conv_state_gemv(state);
  if (state) def->free_state(state);
  *nbytes = ic_tensor_nbytes(&y);
  void *bytes = malloc(*nbytes);
  memcpy(bytes, y.data, *nbytes);
  ic_tensor_reset(&y);
  ic_tensor_destroy(x);
  ic_tensor_destroy(w);
  ic_tensor_destroy(bias);
  free(xv);
  free(wv);
  free(bv);
  free(attrs);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  return bytes;
}

static void *run_direct(const conv_case *k, int threads, size_t *nbytes) {
  return run_direct_w(k, threads, nbytes, NULL, NULL, NULL);
}

/* The executors give a kernel 1 to all threads depending on the plan and the pool; the
 * result must not change with that, bit for bit (oneDNN's GEMM-based convolution, which it
 * picks for some small-channel shapes, would change it). */
START_TEST(thread_counts) {
  static const conv_case cases[] = {
      {.n = 1, .c = 3, .h = 4, .w = 5, .oc = 8, .kh = 1, .kw = 1, .npads = 2, .pads = {1, 2}},
      {.n = 1, .c = 3, .h = 7, .w = 6, .oc = 4, .kh = 3, .kw = 3, .npads = 4,
       .pads = {1, 2, 0, 3}, .bias = 1},
      {.n = 2, .c = 6, .h = 7, .w = 7, .oc = 4, .kh = 3, .kw = 3, .groups = 2, .npads = 2,
       .pads = {1, 1}, .bias = 1},
      {.n = 3, .c = 32, .h = 10, .w = 10, .oc = 16, .kh = 1, .kw = 1, .bias = 1},
      {.n = 2, .c = 144, .h = 9, .w = 9, .oc = 24, .kh = 1, .kw = 1, .bias = 1, .act = "relu6",
       .beta = 6},
      {.op = "depthwise_conv2d", .n = 3, .c = 96, .h = 13, .w = 13, .oc = 96, .kh = 3, .kw = 3,
       .groups = 96, .sh = 2, .sw = 2, .npads = 2, .pads = {1, 1}, .bias = 1},
      {.n = 2, .c = 3, .h = 20, .w = 20, .oc = 32, .kh = 3, .kw = 3, .sh = 2, .sw = 2,
       .npads = 2, .pads = {1, 1}, .bias = 1},
      {.n = 1, .c = 320, .h = 3, .w = 3, .oc = 1280, .kh = 1, .kw = 1, .bias = 1},
      /* SVTR's neck: wide reductions on a 1 x 12 image, where oneDNN's brgemm convolutions
       * (AVX-512) chose their blocking, and so the order of the sums, by thread count */
      {.n = 1, .c = 1024, .h = 1, .w = 12, .oc = 64, .kh = 3, .kw = 3, .npads = 2,
       .pads = {1, 1}},
      {.n = 1, .c = 120, .h = 1, .w = 12, .oc = 512, .kh = 1, .kw = 1, .bias = 1},
      {.n = 2, .c = 256, .h = 6, .w = 6, .oc = 48, .kh = 3, .kw = 3, .npads = 2,
       .pads = {1, 1}, .bias = 1},
      {.op = "depthwise_conv2d", .n = 2, .c = 64, .h = 11, .w = 24, .oc = 64, .kh = 5, .kw = 5,
       .groups = 64, .npads = 2, .pads = {2, 2}, .bias = 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    for (int layout = 0; layout < 2; layout++) {
      conv_case k = cases[i];
      k.nhwc = layout == 1;
      size_t n1, n;
      void *one = run_direct(&k, 1, &n1);
      for (int t = 2; t <= 4; t++) {
        void *more = run_direct(&k, t, &n);
        ck_assert_uint_eq(n, n1);
        ck_assert_msg(memcmp(one, more, n) == 0, "case %zu (%s): %d threads differ from 1", i,
                      k.nhwc ? "NHWC" : "NCHW", t);
        free(more);
      }
      free(one);
    }
  }
}
END_TEST

/* ---- bad inputs ---- */

static ic_status run_bad(const char *op_type, ic_dtype dt, const int64_t *xd, int xnd,
                         const int64_t *wd, int wnd, void (*attrs)(ic_builder_op *), char *err,
                         size_t errlen) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", dt, xnd, xd);
  tu_var(b, "w", IC_FP32, wnd, wd);
  tu_var(b, "y", dt, 4, TU_DIMS(-1, -1, -1, -1));
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "w");
  ic_builder_op *op = ic_builder_add_op(b, 0, op_type);
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "Filter", "w");
  ic_builder_out(op, "Output", "y");
  if (attrs) attrs(op);
  ic_builder_fetch(b, "y");
  ic_tensor *feeds[2];
  ck_assert_int_eq(ic_tensor_create(dt, xnd, xd, &feeds[0]), IC_OK);
  ck_assert_int_eq(ic_tensor_create(IC_FP32, wnd, wd, &feeds[1]), IC_OK);
  ic_tensor *out[1];
  ic_status st = tu_run(b, 2, TU_NAMES("x", "w"), feeds, 1, TU_NAMES("y"), out, err, errlen);
  if (st == IC_OK) ic_tensor_destroy(out[0]);
  ic_tensor_destroy(feeds[0]);
  ic_tensor_destroy(feeds[1]);
  ic_builder_destroy(b);
  return st;
}

static void groups2(ic_builder_op *op) { ic_builder_attr_int(op, "groups", 2); }
static void three_pads(ic_builder_op *op) {
  ic_builder_attr_ints(op, "paddings", 3, (const int32_t[]){1, 1, 1});
}
static void neg_pads(ic_builder_op *op) {
  ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){-1, 0});
}
static void zero_stride(ic_builder_op *op) {
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){1, 0});
}
static void bad_algo(ic_builder_op *op) { ic_builder_attr_string(op, "padding_algorithm", "FULL"); }
static void bad_format(ic_builder_op *op) { ic_builder_attr_string(op, "data_format", "NCWH"); }
static void bad_act(ic_builder_op *op) { ic_builder_attr_string(op, "fuse_activation", "softmax"); }
static void old_relu(ic_builder_op *op) { ic_builder_attr_bool(op, "fuse_relu", true); }
static void want_residual(ic_builder_op *op) {
  ic_builder_attr_bool(op, "fuse_residual_connection", true);
}

START_TEST(bad_inputs) {
  char err[1024];
  /* Input of rank 3 */
  ck_assert_int_eq(run_bad("conv2d", IC_FP32, TU_DIMS(1, 3, 8), 3, TU_DIMS(4, 3, 3, 3), 4, NULL,
                           err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "conv2d", "Input", "'x'", "float32[1, 3, 8]", "rank 4", NULL);
  /* Filter of rank 2 */
  ck_assert_int_eq(run_bad("conv2d", IC_FP32, TU_DIMS(1, 3, 8, 8), 4, TU_DIMS(4, 27), 2, NULL,
                           err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Filter", "'w'", "rank 4", NULL);
  /* channel mismatch: 4 input channels, Filter made for 3 */
  ck_assert_int_eq(run_bad("conv2d", IC_FP32, TU_DIMS(1, 4, 8, 8), 4, TU_DIMS(2, 3, 3, 3), 4,
                           NULL, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Input", "'x'", "float32[1, 4, 8, 8]", "Filter", "'w'", "[2, 3, 3, 3]",
                "groups 1", NULL);
  /* the same with groups: 4 channels, Filter [2, 1, 3, 3] x 2 groups = 2 */
  ck_assert_int_eq(run_bad("depthwise_conv2d", IC_FP32, TU_DIMS(1, 4, 8, 8), 4,
                           TU_DIMS(2, 1, 3, 3), 4, groups2, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "depthwise_conv2d", "Input", "'x'", "Filter", "'w'", "groups 2", NULL);
  /* C_out not divisible by groups */
  ck_assert_int_eq(run_bad("conv2d", IC_FP32, TU_DIMS(1, 4, 8, 8), 4, TU_DIMS(3, 2, 3, 3), 4,
                           groups2, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Filter", "'w'", "divisible by groups 2", NULL);
  /* output smaller than 1x1 */
  ck_assert_int_eq(run_bad("conv2d", IC_FP32, TU_DIMS(1, 3, 2, 8), 4, TU_DIMS(4, 3, 5, 5), 4,
                           NULL, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Input", "'x'", "[1, 3, 2, 8]", "Filter", "'w'", "[4, 3, 5, 5]", NULL);
  /* integer input */
  ck_assert_int_eq(run_bad("conv2d", IC_INT32, TU_DIMS(1, 3, 8, 8), 4, TU_DIMS(4, 3, 3, 3), 4,
                           NULL, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Input", "'x'", "int32", "float32 or float64", NULL);
  /* Filter dtype differing from Input's */
  ck_assert_int_eq(run_bad("conv2d", IC_FP64, TU_DIMS(1, 3, 8, 8), 4, TU_DIMS(4, 3, 3, 3), 4,
                           NULL, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Filter", "'w'", "float32", "expected dtype float64", NULL);
  /* empty dims */
  ck_assert_int_eq(run_bad("conv2d", IC_FP32, TU_DIMS(0, 3, 8, 8), 4, TU_DIMS(4, 3, 3, 3), 4,
                           NULL, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Input", "'x'", ">= 1", NULL);
  /* attributes */
  ck_assert_int_eq(run_bad("conv2d", IC_FP32, TU_DIMS(1, 3, 8, 8), 4, TU_DIMS(4, 3, 3, 3), 4,
                           three_pads, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "conv2d", "'paddings'", "3 values", NULL);
  ck_assert_int_eq(run_bad("conv2d", IC_FP32, TU_DIMS(1, 3, 8, 8), 4, TU_DIMS(4, 3, 3, 3), 4,
                           neg_pads, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'paddings'", "-1", NULL);
  ck_assert_int_eq(run_bad("conv2d", IC_FP32, TU_DIMS(1, 3, 8, 8), 4, TU_DIMS(4, 3, 3, 3), 4,
                           zero_stride, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'strides'", ">= 1", NULL);
  ck_assert_int_eq(run_bad("conv2d", IC_FP32, TU_DIMS(1, 3, 8, 8), 4, TU_DIMS(4, 3, 3, 3), 4,
                           bad_algo, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'padding_algorithm'", "FULL", NULL);
  ck_assert_int_eq(run_bad("conv2d", IC_FP32, TU_DIMS(1, 3, 8, 8), 4, TU_DIMS(4, 3, 3, 3), 4,
                           bad_format, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'data_format'", "NCWH", NULL);
  ck_assert_int_eq(run_bad("conv2d", IC_FP32, TU_DIMS(1, 3, 8, 8), 4, TU_DIMS(4, 3, 3, 3), 4,
                           bad_act, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'fuse_activation'", "softmax", NULL);
  ck_assert_int_eq(run_bad("conv2d", IC_FP32, TU_DIMS(1, 3, 8, 8), 4, TU_DIMS(4, 3, 3, 3), 4,
                           old_relu, err, sizeof err), IC_ERR_UNSUPPORTED);
  tu_assert_msg(err, "'fuse_relu'", NULL);
  ck_assert_int_eq(run_bad("conv2d", IC_FP32, TU_DIMS(1, 3, 8, 8), 4, TU_DIMS(4, 3, 3, 3), 4,
                           want_residual, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "fuse_residual_connection", "ResidualData", NULL);
}
END_TEST

START_TEST(bad_bias_residual) {
  conv_case k = {.n = 1, .c = 3, .h = 5, .w = 5, .oc = 4, .kh = 3, .kw = 3, .bias = 1,
                 .residual = true};
  ic_builder *b = conv_program(&k, TU_DIMS(1, 3, 5, 5), TU_DIMS(4, 3, 3, 3), TU_DIMS(5),
                               TU_DIMS(1, 4, 3, 3));
  ic_tensor *feeds[4] = {tu_f32(4, TU_DIMS(1, 3, 5, 5), NULL), tu_f32(4, TU_DIMS(4, 3, 3, 3), NULL),
                         tu_f32(1, TU_DIMS(5), NULL), tu_f32(4, TU_DIMS(1, 4, 3, 3), NULL)};
  ic_tensor *out[1];
  char err[1024];
  ck_assert_int_eq(tu_run(b, 4, TU_NAMES("x", "w", "b", "r"), feeds, 1, TU_NAMES("y"), out, err,
                          sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "Bias", "'b'", "float32[5]", "C_out = 4", NULL);
  ic_builder_destroy(b);
  ic_tensor_destroy(feeds[2]);
  ic_tensor_destroy(feeds[3]);
  /* residual of the wrong shape */
  b = conv_program(&k, TU_DIMS(1, 3, 5, 5), TU_DIMS(4, 3, 3, 3), TU_DIMS(4), TU_DIMS(1, 4, 3, 2));
  feeds[2] = tu_f32(1, TU_DIMS(4), NULL);
  feeds[3] = tu_f32(4, TU_DIMS(1, 4, 3, 2), NULL);
  ck_assert_int_eq(tu_run(b, 4, TU_NAMES("x", "w", "b", "r"), feeds, 1, TU_NAMES("y"), out, err,
                          sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "ResidualData", "'r'", "[1, 4, 3, 2]", "[1, 4, 3, 3]", NULL);
  ic_builder_destroy(b);
  for (int i = 0; i < 4; i++) ic_tensor_destroy(feeds[i]);
}
END_TEST

/* The conv layers of the real models parse: their exported attribute sets are accepted. */
START_TEST(real_model_attrs) {
  static const char *models[] = {"paddle/mobilenet_v2/inference.pdmodel",
                                 "paddle/pphgnet_plate/inference.pdmodel",
                                 "paddle/ppocr_rec_svtr/inference.pdmodel",
                                 "paddle/crnn_rec/inference.pdmodel"};
  for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
    char path[4096], errs[1024];
    ck_assert_msg(tu_shared(models[m], path, sizeof path), "missing %s", models[m]);
    ic_program *p;
    ck_assert_msg(ic_program_from_file(path, &p, errs, sizeof errs) == IC_OK, "%s", errs);
    size_t n = 0;
    for (size_t i = 0; i < p->blocks[0].n_ops; i++) {
      const ic_op *op = &p->blocks[0].ops[i];
      if (strcmp(op->type, "conv2d") && strcmp(op->type, "depthwise_conv2d")) continue;
      const ic_opdef *def = ic_registry_find(op->type);
      ck_assert_ptr_nonnull(def);
      const ic_slot *ins[16], *outs[16];
      ck_assert_uint_le(def->n_inputs, 16);
      ic_err e;
      void *a = calloc(1, def->attrs_size);
      ck_assert_msg(ic_opdef_parse(def, op, a, &e) == IC_OK, "%s", e.msg);
      ck_assert_msg(ic_opdef_match(def, op, ins, outs, &e) == IC_OK, "%s", e.msg);
      free(a);
      n++;
    }
    ck_assert_uint_gt(n, 0);
    ic_program_destroy(p);
  }
}
END_TEST

/* ---- blocked activations: ic_blocked_out and the layout pass ---- */

/* Plain NCHW <-> oneDNN's nChw<blk>c ([N][C / blk][H][W][blk]), written out here
 * independently of the kernels. */
/* Between plain NCHW and blocks of blk channels; a last partial block (nChw16c with padded
 * channels) is padded with zeros. */
static void to_blocked(const float *src, float *dst, const int64_t *d, int blk) {
  const int64_t cb = (d[1] + blk - 1) / blk, hw = d[2] * d[3];
  memset(dst, 0, sizeof *dst * (size_t)(d[0] * cb * blk * hw));
  for (int64_t n = 0; n < d[0]; n++) {
    for (int64_t c = 0; c < d[1]; c++) {
      for (int64_t p = 0; p < hw; p++) {
        dst[((n * cb + c / blk) * hw + p) * blk + c % blk] = src[(n * d[1] + c) * hw + p];
      }
    }
  }
}
static void from_blocked(const float *src, float *dst, const int64_t *d, int blk) {
  const int64_t cb = (d[1] + blk - 1) / blk, hw = d[2] * d[3];
  for (int64_t n = 0; n < d[0]; n++) {
    for (int64_t c = 0; c < d[1]; c++) {
      for (int64_t p = 0; p < hw; p++) {
        dst[(n * d[1] + c) * hw + p] = src[((n * cb + c / blk) * hw + p) * blk + c % blk];
      }
    }
  }
}

/* Rewrite a float32 NCHW tensor's buffer in `layout` and tag it so (new storage, the size
 * the layout needs). */
static void make_blocked(ic_tensor *t, int layout) {
  int blk = ic_layout_block(layout);
  if (!blk) return;
  size_t n = (size_t)ic_tensor_numel(t);
  float *tmp = malloc(n * sizeof *tmp);
  memcpy(tmp, t->data, n * sizeof *tmp);
  t->layout = (uint8_t)layout;
  ic_err err;
  ck_assert_int_eq(ic_tensor_alloc(t, NULL, &err), IC_OK);
  to_blocked(tmp, t->data, t->dims, blk);
  free(tmp);
}

/* Run case k's op directly with Input and ResidualData in the given layouts (fresh kernel
 * state, `threads` threads). Returns the Output's values in plain NCHW order (malloc'd) and
 * the layout the kernel wrote them in. */
static float *run_layouts(const conv_case *k, int in_layout, int res_layout, int threads,
                          int *out_layout, size_t *n_out) {
  int g = k->groups ? k->groups : 1;
  int64_t pad[4], dh, dw, oh, ow;
  ref_geom(k, pad, &dh, &dw, &oh, &ow);
  int64_t xd[4] = {k->n, k->nhwc ? k->h : k->c, k->nhwc ? k->w : k->h, k->nhwc ? k->c : k->w};
  int64_t wd[4] = {k->oc, k->c / g, k->kh, k->kw};
  int64_t yd[4] = {k->n, k->nhwc ? oh : k->oc, k->nhwc ? ow : oh, k->nhwc ? k->oc : ow};
  /* the program declares Bias with the case's rank (1 or 4); the kernel gets [C_out] */
  int64_t bd[1] = {k->oc}, bd4[4] = {1, k->oc, 1, 1};
  ic_builder *b = conv_program(k, xd, wd, k->bias == 4 ? bd4 : bd, yd);
  ic_program *p;
  char errs[1024];
  ck_assert_msg(ic_builder_build(b, &p, errs, sizeof errs) == IC_OK, "%s", errs);
  const ic_op *op = NULL;
  for (size_t i = 0; i < p->blocks[0].n_ops && !op; i++) {
    if (!strcmp(p->blocks[0].ops[i].type, k->op ? k->op : "conv2d")) op = &p->blocks[0].ops[i];
  }
  const ic_opdef *def = ic_registry_find(op->type);
  ic_err err;
  ic_err_clear(&err);
  void *attrs = calloc(1, def->attrs_size);
  ck_assert_int_eq(ic_opdef_parse(def, op, attrs, &err), IC_OK);
  double *xv, *wv, *bv, *rv;
  ic_tensor *x = rand_tensor(false, 4, xd, 21, -1, 1, &xv);
  ic_tensor *w = rand_tensor(false, 4, wd, 22, -0.5, 0.5, &wv);
  ic_tensor *bias = rand_tensor(false, 1, bd, 23, -1, 1, &bv);
  ic_tensor *r = rand_tensor(false, 4, yd, 24, -1, 1, &rv);
  make_blocked(x, in_layout);
  make_blocked(r, res_layout);
  ic_tensor y;
  ic_tensor_init(&y);
  ic_tensor *yp = &y;
  const char *names[4] = {"x", "w", "b", "r"}, *yn = "y";
  ic_kslot in[IC_CONV_N_INPUTS] = {{.n = 1, .t = &x, .names = &names[0]},
                    {.n = 1, .t = &w, .names = &names[1]},
                    {.n = k->bias ? 1 : 0, .t = &bias, .names = &names[2]},
                    {.n = k->residual ? 1 : 0, .t = &r, .names = &names[3]}};
  ic_kslot out[1] = {{.n = 1, .t = &yp, .names = &yn}};
  ic_kenv env = {.alloc = NULL, .intra_threads = threads};
  void *state = NULL;
  ic_kctx c = {.def = def, .op = op, .attrs = attrs, .in = in, .out = out, .err = &err,
               .env = &env, .state = &state};
  ck_assert_msg(def->infer(&c) == IC_OK, "%s", err.msg);
  /* infer asks for padded storage exactly when the op is marked so and it matters */
  bool want_pad = k->mark && k->pad && !k->nhwc && k->oc % 16;
  ck_assert_int_eq(y.layout, want_pad ? IC_LAYOUT_NCHW16C_PAD : IC_LAYOUT_PLAIN);
  ck_assert_int_eq(ic_tensor_alloc(&y, NULL, &err), IC_OK);
  /* NaN everywhere first: a padded Output must come back with zeros in its padding, since the
   * next convolution multiplies them by its padded (zero) weights */
  for (int64_t i = 0; i < ic_tensor_storage_elems(&y); i++) ((float *)y.data)[i] = NAN;
  ck_assert_msg(def->cpu(&c) == IC_OK, "%s", err.msg);
  if (state) def->free_state(state);
  *out_layout = y.layout;
  *n_out = (size_t)ic_tensor_numel(&y);
  float *vals = malloc(*n_out * sizeof *vals);
  if (y.layout == IC_LAYOUT_NCHW16C_PAD) {
    const int64_t cb = (y.dims[1] + 15) / 16, hw = y.dims[2] * y.dims[3];
    for (int64_t n = 0; n < y.dims[0]; n++) {
      for (int64_t ch = y.dims[1]; ch < cb * 16; ch++) {
        for (int64_t q = 0; q < hw; q++) {
          float v = ((const float *)y.data)[((n * cb + ch / 16) * hw + q) * 16 + ch % 16];
          ck_assert_msg(v == 0.0f && !signbit(v), "padding channel %lld holds %g",
                        (long long)ch, (double)v);
        }
      }
    }
  }
  if (y.layout) from_blocked(y.data, vals, y.dims, ic_layout_block(y.layout));
  else memcpy(vals, y.data, *n_out * sizeof *vals);
  ic_tensor_reset(&y);
  ic_tensor *all[] = {x, w, bias, r};
  for (int i = 0; i < 4; i++) ic_tensor_destroy(all[i]);
  free(xv);
  free(wv);
  free(bv);
  free(rv);
  free(attrs);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  return vals;
}

/* Whether a marked Output is expected blocked. oneDNN blocks channels by 8 on AVX2 and by
 * 16 on AVX-512, and a tensor is tagged only for whole blocks, so a count divisible by 8 but
 * not by 16 stays blocked only where the blocks are 8 wide. */
enum { PLAIN, BLOCKED, BLOCKED_IF_8 };

/* The kernel with blocked inputs (nChw8c and nChw16c, which oneDNN reorders to its own
 * choice where that differs) and a blocked Output gives bitwise the values of the plain
 * kernel: the same primitive runs, only reorders are dropped. A marked op writes a blocked
 * Output exactly when expected: oneDNN's destination blocked, whole channel blocks, NCHW,
 * oneDNN path. */
START_TEST(blocked_kernel) {
  static const struct {
    conv_case k;
    int blocked; /* expect a blocked Output when marked */
  } cases[] = {
      /* 1x1 with bias, residual and relu (first: gives the width of this CPU's blocks) */
      {{.n = 2, .c = 16, .h = 5, .w = 7, .oc = 32, .kh = 1, .kw = 1, .bias = 1,
        .residual = true, .act = "relu"}, BLOCKED},
      /* the same with 24 output channels: 3 blocks of 8, or 1.5 of 16 */
      {{.n = 2, .c = 16, .h = 5, .w = 7, .oc = 24, .kh = 1, .kw = 1, .bias = 1,
        .residual = true, .act = "relu"}, BLOCKED_IF_8},
      /* depthwise 3x3 stride 2 with relu6, odd image */
      {{.op = "depthwise_conv2d", .n = 1, .c = 16, .h = 9, .w = 7, .oc = 16, .kh = 3, .kw = 3,
        .groups = 16, .sh = 2, .sw = 2, .npads = 2, .pads = {1, 1}, .bias = 1, .act = "relu6",
        .beta = 6}, BLOCKED},
      /* the stem: 3 plain input channels, blocked output */
      {{.n = 1, .c = 3, .h = 11, .w = 10, .oc = 32, .kh = 3, .kw = 3, .sh = 2, .sw = 2,
        .npads = 2, .pads = {1, 1}, .bias = 1}, BLOCKED},
      /* 12 output channels: not whole blocks, Output stays plain */
      {{.n = 1, .c = 16, .h = 4, .w = 5, .oc = 12, .kh = 3, .kw = 3, .npads = 2, .pads = {1, 1},
        .residual = true}, PLAIN},
      /* an activation applied after the primitive, on the blocked Output */
      {{.n = 1, .c = 8, .h = 6, .w = 5, .oc = 16, .kh = 3, .kw = 3, .npads = 2, .pads = {1, 1},
        .bias = 1, .residual = true, .act = "hard_swish", .alpha = 0.4f, .beta = 0.3f}, BLOCKED},
      /* oneDNN has only GEMM code for this one: the reference path unpacks blocked inputs */
      {{.n = 1, .c = 8, .h = 6, .w = 6, .oc = 8, .kh = 5, .kw = 5, .npads = 4,
        .pads = {4, 0, 4, 0}, .residual = true}, PLAIN},
      /* 1x1 32 -> 16, 1-pixel images (run as one image of 3 pixels) */
      {{.n = 3, .c = 32, .h = 1, .w = 1, .oc = 16, .kh = 1, .kw = 1, .bias = 1}, BLOCKED},
      /* 1x1 512 -> 512, one 1-pixel image (a GEMV where the CPU has AVX2) */
      {{.n = 1, .c = 512, .h = 1, .w = 1, .oc = 512, .kh = 1, .kw = 1, .bias = 1,
        .residual = true, .act = "relu"}, BLOCKED},
      /* NHWC: never blocked, marked or not */
      {{.n = 1, .c = 16, .h = 4, .w = 3, .oc = 16, .kh = 1, .kw = 1, .nhwc = true}, PLAIN},
  };
  static const int layouts[] = {IC_LAYOUT_PLAIN, IC_LAYOUT_NCHW8C, IC_LAYOUT_NCHW16C};
  int block = 0; /* the channel block oneDNN chose for case 0 */
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const conv_case *k = &cases[i].k;
    int lay;
    size_t n0, n;
    float *plain = run_layouts(k, IC_LAYOUT_PLAIN, IC_LAYOUT_PLAIN, 1, &lay, &n0);
    ck_assert_int_eq(lay, IC_LAYOUT_PLAIN);
    int variant = 0;
    for (int li = 0; li < 3; li++) {
      int blk_in = ic_layout_block(layouts[li]);
      if (blk_in && (k->nhwc || k->c % blk_in)) continue;
      for (int ri = 0; ri < 3; ri++) {
        int blk_res = ic_layout_block(layouts[ri]);
        if (blk_res && (k->nhwc || !k->residual || k->oc % blk_res)) continue;
        for (int mark = 0; mark < 2; mark++) {
          conv_case m = *k;
          m.mark = mark;
          int threads = 1 + variant++ % 2;
          float *got = run_layouts(&m, layouts[li], layouts[ri], threads, &lay, &n);
          ck_assert_uint_eq(n, n0);
          bool blocked = cases[i].blocked == BLOCKED ||
                         (cases[i].blocked == BLOCKED_IF_8 && block == 8);
          if (mark && blocked) {
            ck_assert_msg(lay == IC_LAYOUT_NCHW8C || lay == IC_LAYOUT_NCHW16C,
                          "case %zu: marked Output not blocked", i);
            if (!block) block = ic_layout_block(lay);
          } else {
            ck_assert_msg(lay == IC_LAYOUT_PLAIN, "case %zu: Output in layout %d", i, lay);
          }
          ck_assert_msg(memcmp(got, plain, n * sizeof *got) == 0,
                        "case %zu: Input %s, ResidualData %s, mark %d differs from plain", i,
                        ic_layout_name(layouts[li]), ic_layout_name(layouts[ri]), mark);
          free(got);
        }
      }
    }
    free(plain);
  }
}
END_TEST

/* ic_blocked_to_plain unpacks blocks of 8 and 16, and nChw16c with padded channels (what the
 * reference paths of the blocked readers do first). */
START_TEST(blocked_to_plain) {
  static const int64_t dims[][4] = {{2, 16, 3, 5}, {1, 24, 2, 3}, {2, 12, 4, 1}, {1, 40, 1, 7}};
  for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
    const int64_t *d = dims[i];
    const size_t n = (size_t)(d[0] * d[1] * d[2] * d[3]);
    for (int blk = 8; blk <= 16; blk += 8) {
      const size_t nb = (size_t)(d[0] * ((d[1] + blk - 1) / blk) * blk * d[2] * d[3]);
      float *plain = malloc(n * sizeof *plain), *blocked = malloc(nb * sizeof *blocked);
      float *back = malloc(n * sizeof *back);
      for (size_t k = 0; k < n; k++) plain[k] = (float)k * 0.5f - 3.0f;
      to_blocked(plain, blocked, d, blk);
      for (size_t k = 0; k < n; k++) back[k] = NAN;
      ic_blocked_to_plain(blocked, back, d, blk);
      ck_assert_msg(memcmp(back, plain, n * sizeof *back) == 0, "dims %zu, block %d", i, blk);
      free(plain);
      free(blocked);
      free(back);
    }
  }
}
END_TEST

/* Whether oneDNN runs AVX-512 kernels here (blocking channels by 16), as it decides: the CPU,
 * limited by ONEDNN_MAX_CPU_ISA / DNNL_MAX_CPU_ISA. */
static bool onednn_avx512(void) {
  const dnnl_cpu_isa_t isa = dnnl_get_effective_cpu_isa();
  return (isa & dnnl_cpu_isa_avx512_core) == dnnl_cpu_isa_avx512_core;
}

/* nChw16c with padded channels (ic_blocked_pad): a marked and padded convolution writes its
 * Output so where oneDNN's destination is nChw16c over a channel count that is not a multiple
 * of 16 (AVX-512), with zeros in the padding; Input and ResidualData arrive so; the values
 * are bitwise the plain kernel's. Not where a loop runs after the primitive (it would write
 * the padding), nor on the reference path, which reads the padded inputs unpacked. */
START_TEST(padded_kernel) {
  static const struct {
    conv_case k;
    bool pad_out; /* a padded Output expected where oneDNN blocks channels by 16 */
  } cases[] = {
      /* 1x1 16 -> 24 with bias, residual and relu */
      {{.n = 2, .c = 16, .h = 5, .w = 7, .oc = 24, .kh = 1, .kw = 1, .bias = 1,
        .residual = true, .act = "relu"}, true},
      /* 1x1 40 -> 24 (a padded Input too), no bias */
      {{.n = 1, .c = 40, .h = 4, .w = 9, .oc = 24, .kh = 1, .kw = 1, .residual = true}, true},
      /* 3x3 24 -> 12 with relu6 */
      {{.n = 1, .c = 24, .h = 6, .w = 5, .oc = 12, .kh = 3, .kw = 3, .npads = 2, .pads = {1, 1},
        .bias = 1, .residual = true, .act = "relu6", .beta = 6}, true},
      /* an activation applied after the primitive: never padded */
      {{.n = 1, .c = 24, .h = 6, .w = 5, .oc = 40, .kh = 1, .kw = 1, .bias = 1,
        .residual = true, .act = "hard_swish", .alpha = 0.4f, .beta = 0.3f}, false},
      /* 5x5 with large one-sided paddings over 12 channels */
      {{.n = 1, .c = 12, .h = 6, .w = 6, .oc = 12, .kh = 5, .kw = 5, .npads = 4,
        .pads = {4, 0, 4, 0}, .residual = true}, true},
      /* the same over 8 channels */
      {{.n = 1, .c = 8, .h = 6, .w = 6, .oc = 8, .kh = 5, .kw = 5, .npads = 4,
        .pads = {4, 0, 4, 0}, .residual = true}, true},
      /* depthwise over 24 channels (nChw16c with padded channels first, as for any count) */
      {{.op = "depthwise_conv2d", .n = 1, .c = 24, .h = 7, .w = 6, .oc = 24, .kh = 3, .kw = 3,
        .groups = 24, .npads = 2, .pads = {1, 1}, .bias = 1, .residual = true}, true},
  };
  int padded_seen = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const conv_case *k = &cases[i].k;
    int lay;
    size_t n0, n;
    float *plain = run_layouts(k, IC_LAYOUT_PLAIN, IC_LAYOUT_PLAIN, 1, &lay, &n0);
    for (int in_pad = 0; in_pad < 2; in_pad++) {
      for (int res_pad = 0; res_pad < 2; res_pad++) {
        if ((in_pad && k->c % 16 == 0) || (res_pad && k->oc % 16 == 0)) continue;
        conv_case m = *k;
        m.mark = m.pad = true;
        int il = in_pad ? IC_LAYOUT_NCHW16C_PAD : IC_LAYOUT_PLAIN;
        int rl = res_pad ? IC_LAYOUT_NCHW16C_PAD : IC_LAYOUT_PLAIN;
        float *got = run_layouts(&m, il, rl, 1 + (in_pad + res_pad) % 2, &lay, &n);
        ck_assert_uint_eq(n, n0);
        if (lay == IC_LAYOUT_NCHW16C_PAD) {
          ck_assert_msg(cases[i].pad_out, "case %zu: Output padded where it must not be", i);
          padded_seen++;
        }
        ck_assert_msg(memcmp(got, plain, n * sizeof *got) == 0,
                      "case %zu: Input %s, ResidualData %s differs from plain", i,
                      ic_layout_name(il), ic_layout_name(rl));
        free(got);
      }
    }
    free(plain);
  }
  /* where oneDNN blocks by 16 (AVX-512) the padded Output must have been written */
  if (onednn_avx512()) ck_assert_int_gt(padded_seen, 0);
  else fprintf(stderr, "padded_kernel: no AVX-512 here: padded Outputs not expected\n");
}
END_TEST

/* One convolution of a chain: value v[i + 1] = layer i (v[i]). */
typedef struct layer {
  const char *op;     /* NULL: conv2d */
  int oc, k, stride, groups;
  int pads[4];        /* top, bottom, left, right */
  const char *act;
  float alpha, beta;
  int res;            /* ResidualData = v[res - 1]; 0: none */
  bool mark;          /* ic_blocked_out set in the program */
  bool pass;          /* the layout pass should mark it */
  bool pad;           /* ... with ic_blocked_pad too */
} layer;

typedef struct chain {
  int n, c, h, w;     /* v[0], fed */
  int n_layers;
  layer l[4];
} chain;

static void value_dims(const chain *ch, int64_t d[5][4]) {
  d[0][0] = ch->n;
  d[0][1] = ch->c;
  d[0][2] = ch->h;
  d[0][3] = ch->w;
  for (int i = 0; i < ch->n_layers; i++) {
    const layer *l = &ch->l[i];
    d[i + 1][0] = ch->n;
    d[i + 1][1] = l->oc;
    d[i + 1][2] = (d[i][2] + l->pads[0] + l->pads[1] - l->k) / l->stride + 1;
    d[i + 1][3] = (d[i][3] + l->pads[2] + l->pads[3] - l->k) / l->stride + 1;
  }
}

static const char *vname(int i) {
  static const char *const names[] = {"v0", "v1", "v2", "v3", "v4"};
  return names[i];
}

static ic_builder *chain_program(const chain *ch, bool marks) {
  int64_t d[5][4];
  value_dims(ch, d);
  ic_builder *b = ic_builder_create();
  char wn[16], bn[16];
  for (int i = 0; i <= ch->n_layers; i++) tu_var(b, vname(i), IC_FP32, 4, d[i]);
  ic_builder_feed(b, "v0");
  for (int i = 0; i < ch->n_layers; i++) {
    const layer *l = &ch->l[i];
    int g = l->groups ? l->groups : 1;
    snprintf(wn, sizeof wn, "w%d", i);
    snprintf(bn, sizeof bn, "b%d", i);
    tu_var(b, wn, IC_FP32, 4, TU_DIMS(l->oc, d[i][1] / g, l->k, l->k));
    tu_var(b, bn, IC_FP32, 1, TU_DIMS(l->oc));
    ic_builder_feed(b, wn);
    ic_builder_feed(b, bn);
    ic_builder_op *op = ic_builder_add_op(b, 0, l->op ? l->op : "conv2d");
    ic_builder_in(op, "Input", vname(i));
    ic_builder_in(op, "Filter", wn);
    ic_builder_in(op, "Bias", bn);
    if (l->res) ic_builder_in(op, "ResidualData", vname(l->res - 1));
    ic_builder_out(op, "Output", vname(i + 1));
    ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){l->stride, l->stride});
    ic_builder_attr_ints(op, "paddings", 4, l->pads);
    ic_builder_attr_int(op, "groups", g);
    ic_builder_attr_string(op, "data_format", "NCHW");
    if (l->act) {
      ic_builder_attr_string(op, "fuse_activation", l->act);
      ic_builder_attr_float(op, "fuse_alpha", l->alpha);
      ic_builder_attr_float(op, "fuse_beta", l->beta);
    }
    if (l->res) ic_builder_attr_bool(op, "fuse_residual_connection", true);
    if (marks && l->mark) ic_builder_attr_bool(op, "ic_blocked_out", true);
  }
  ic_builder_fetch(b, vname(ch->n_layers));
  return b;
}

/* A chain of convolutions: with its intermediate values blocked (marked in the program, and
 * through the layout pass with fuse on) it gives bitwise the plain program's output, in every
 * executor configuration, and that output matches a double-precision reference. */
static void run_chain(const chain *ch) {
  int64_t d[5][4];
  value_dims(ch, d);
  size_t nf = 0;
  const char *names[9];
  ic_tensor *feeds[9];
  double *vals[9], *v[5];
  char nm[9][16];
  names[nf] = "v0";
  feeds[nf] = rand_tensor(false, 4, d[0], 31, -1, 1, &vals[nf]);
  v[0] = vals[nf++];
  for (int i = 0; i < ch->n_layers; i++) {
    const layer *l = &ch->l[i];
    int g = l->groups ? l->groups : 1;
    int64_t cg = d[i][1] / g, og = l->oc / g;
    double ws = 1.0 / sqrt((double)(cg * l->k * l->k));
    snprintf(nm[nf], sizeof nm[nf], "w%d", i);
    names[nf] = nm[nf];
    feeds[nf] = rand_tensor(false, 4, TU_DIMS(l->oc, cg, l->k, l->k), 40 + (uint64_t)i, -ws, ws,
                            &vals[nf]);
    const double *wv = vals[nf++];
    snprintf(nm[nf], sizeof nm[nf], "b%d", i);
    names[nf] = nm[nf];
    feeds[nf] = rand_tensor(false, 1, TU_DIMS(l->oc), 50 + (uint64_t)i, -0.5, 0.5, &vals[nf]);
    const double *bv = vals[nf++];
    /* v[i + 1] in double */
    int64_t H = d[i][2], W = d[i][3], OH = d[i + 1][2], OW = d[i + 1][3];
    v[i + 1] = malloc(sizeof(double) * (size_t)(ch->n * l->oc * OH * OW));
    for (int64_t n = 0; n < ch->n; n++) {
      for (int64_t o = 0; o < l->oc; o++) {
        for (int64_t y = 0; y < OH; y++) {
          for (int64_t x = 0; x < OW; x++) {
            double s = bv[o];
            for (int64_t ci = 0; ci < cg; ci++) {
              for (int64_t ky = 0; ky < l->k; ky++) {
                for (int64_t kx = 0; kx < l->k; kx++) {
                  int64_t iy = y * l->stride - l->pads[0] + ky, ix = x * l->stride - l->pads[2] + kx;
                  if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                  s += v[i][((n * d[i][1] + o / og * cg + ci) * H + iy) * W + ix] *
                       wv[((o * cg + ci) * l->k + ky) * l->k + kx];
                }
              }
            }
            size_t yi = (size_t)(((n * l->oc + o) * OH + y) * OW + x);
            if (l->res) s += v[l->res - 1][yi];
            v[i + 1][yi] = ref_act(l->act, l->alpha, l->beta, s);
          }
        }
      }
    }
  }
  ic_builder *bm = chain_program(ch, true), *bp = chain_program(ch, false);
  ic_tensor *om, *op;
  char err[1024];
  const char *fetch = vname(ch->n_layers);
  ck_assert_msg(tu_run(bp, nf, names, feeds, 1, &fetch, &op, err, sizeof err) == IC_OK, "%s", err);
  ck_assert_msg(tu_run(bm, nf, names, feeds, 1, &fetch, &om, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_bitwise(om, op, "marked program");
  const int64_t *od = d[ch->n_layers];
  tu_assert_close(op, v[ch->n_layers], (size_t)(od[0] * od[1] * od[2] * od[3]), 1e-4, 1e-4);
  /* The layout pass on the unmarked program (the rewrites find nothing else to do here). */
  ic_program *p;
  ck_assert_int_eq(ic_builder_build(bp, &p, err, sizeof err), IC_OK);
  for (int threads = 1; threads <= 2; threads++) {
    ic_options o;
    ic_options_default(&o);
    o.threads = threads;
    o.fuse = true;
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ic_tensor *got;
    ck_assert_msg(ic_executor_run(e, p, NULL, nf, names, (const ic_tensor *const *)feeds, 1,
                                  &fetch, &got) == IC_OK, "%s", ic_executor_errmsg(e));
    tu_assert_bitwise(got, op, "layout pass");
    ic_tensor_destroy(got);
    const ic_plan *pl = ic_executor_last_plan(e);
    int seen = 0;
    for (size_t i = 0; i < pl->n_instrs; i++) {
      const ic_op *iop = pl->instrs[i].op;
      const ic_slot *out = ic_op_output(iop, "Output");
      if (!out) continue;
      int li = out->args[0][1] - '1';
      ck_assert_int_eq(ic_op_attr(iop, "ic_blocked_out") != NULL, ch->l[li].pass);
      ck_assert_int_eq(ic_op_attr(iop, "ic_blocked_pad") != NULL, ch->l[li].pad);
      seen++;
    }
    ck_assert_int_eq(seen, ch->n_layers);
    ic_executor_destroy(e);
  }
  ic_program_destroy(p);
  ic_tensor_destroy(om);
  ic_tensor_destroy(op);
  ic_builder_destroy(bm);
  ic_builder_destroy(bp);
  for (size_t i = 0; i < nf; i++) {
    ic_tensor_destroy(feeds[i]);
    free(vals[i]);
  }
  for (int i = 1; i <= ch->n_layers; i++) free(v[i]);
}

START_TEST(blocked_chain) {
  /* MobileNetV2-like: stem, depthwise, a projection adding the stem's output as residual
   * (read blocked twice), then a last 1x1 whose output is fetched (plain) */
  run_chain(&(chain){.n = 2, .c = 3, .h = 9, .w = 11, .n_layers = 4, .l = {
      {.oc = 16, .k = 3, .stride = 2, .pads = {1, 1, 1, 1}, .act = "relu6", .beta = 6,
       .mark = true, .pass = true},
      {.op = "depthwise_conv2d", .oc = 16, .k = 3, .stride = 1, .groups = 16,
       .pads = {1, 1, 1, 1}, .act = "relu6", .beta = 6, .mark = true, .pass = true},
      {.oc = 16, .k = 1, .stride = 1, .res = 2, .mark = true, .pass = true},
      {.oc = 24, .k = 1, .stride = 1, .act = "relu"}}});
  /* a plain residual (the feed) into a blocked Output; a blocked residual into a plain one;
   * an activation applied after the primitive on a blocked Output */
  run_chain(&(chain){.n = 1, .c = 16, .h = 6, .w = 5, .n_layers = 3, .l = {
      {.oc = 16, .k = 1, .stride = 1, .res = 1, .mark = true, .pass = true},
      {.oc = 16, .k = 3, .stride = 1, .pads = {1, 1, 1, 1}, .res = 2, .act = "hard_swish",
       .alpha = 0.4f, .beta = 0.3f, .mark = true, .pass = true},
      {.op = "depthwise_conv2d", .oc = 16, .k = 3, .stride = 2, .groups = 16,
       .pads = {0, 1, 1, 0}, .res = 0}}});
  /* the reference path (oneDNN has only GEMM code for a 5x5 kernel with these paddings)
   * reading blocked Input and ResidualData */
  run_chain(&(chain){.n = 1, .c = 8, .h = 6, .w = 6, .n_layers = 2, .l = {
      {.oc = 8, .k = 1, .stride = 1, .mark = true, .pass = true, .pad = true},
      {.oc = 8, .k = 5, .stride = 1, .pads = {4, 0, 4, 0}, .res = 2}}});
  /* 12 channels: marked ic_blocked_out alone in the program the kernel keeps it plain; the
   * pass marks it ic_blocked_pad too, since its reader is a convolution */
  run_chain(&(chain){.n = 1, .c = 4, .h = 5, .w = 7, .n_layers = 2, .l = {
      {.oc = 12, .k = 3, .stride = 1, .pads = {1, 1, 1, 1}, .mark = true, .pass = true,
       .pad = true},
      {.oc = 8, .k = 1, .stride = 1}}});
  /* MobileNetV3-like over channel counts that are not multiples of 16: padded projections
   * read as Input and as ResidualData, a depthwise layer reading one, and the fetched end */
  run_chain(&(chain){.n = 1, .c = 3, .h = 8, .w = 12, .n_layers = 4, .l = {
      {.oc = 24, .k = 3, .stride = 2, .pads = {1, 1, 1, 1}, .act = "hard_swish", .alpha = 1.0f / 6,
       .beta = 0.5f, .pass = true, .pad = true},
      {.oc = 24, .k = 1, .stride = 1, .res = 2, .pass = true, .pad = true},
      {.op = "depthwise_conv2d", .oc = 24, .k = 3, .stride = 1, .groups = 24,
       .pads = {1, 1, 1, 1}, .act = "relu", .pass = true, .pad = true},
      {.oc = 40, .k = 1, .stride = 1}}});
}
END_TEST

/* A program that marks an op whose reader cannot take a blocked tensor fails loudly, naming
 * the reader and the variable, instead of computing garbage. 16 channels: whole blocks both
 * where oneDNN blocks them by 8 (AVX2) and where it blocks them by 16 (AVX-512). */
static ic_status run_misuse(const char *reader, char *err, size_t len) {
  /* "concat": a 16 -> 24 convolution marked ic_blocked_pad too, read by a channel concat
   * (which takes blocked tensors, but not padded channels) */
  const bool pool = !strcmp(reader, "concat");
  const int64_t oc = pool ? 24 : 16;
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 4, TU_DIMS(1, 16, 4, 4));
  tu_var(b, "w", IC_FP32, 4, TU_DIMS(oc, 16, 1, 1));
  tu_var(b, "t", IC_FP32, 4, TU_DIMS(1, oc, 4, 4));
  tu_var(b, "y", IC_FP32, 4, pool ? TU_DIMS(1, 2 * oc, 4, 4) : TU_DIMS(1, 16, 4, 4));
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "w");
  ic_builder_op *op = ic_builder_add_op(b, 0, "conv2d");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "Filter", "w");
  ic_builder_out(op, "Output", "t");
  ic_builder_attr_bool(op, "ic_blocked_out", true);
  if (pool) ic_builder_attr_bool(op, "ic_blocked_pad", true);
  const char *fetch = "t";
  if (!strcmp(reader, "relu")) {
    op = ic_builder_add_op(b, 0, "relu");
    ic_builder_in(op, "X", "t");
    ic_builder_out(op, "Out", "y");
    fetch = "y";
  } else if (!strcmp(reader, "nhwc")) {
    op = ic_builder_add_op(b, 0, "conv2d");
    ic_builder_in(op, "Input", "t");
    ic_builder_in(op, "Filter", "w");
    ic_builder_out(op, "Output", "y");
    ic_builder_attr_string(op, "data_format", "NHWC");
    fetch = "y";
  } else if (pool) {
    op = ic_builder_add_op(b, 0, "concat");
    ic_builder_in(op, "X", "t");
    ic_builder_in(op, "X", "t");
    ic_builder_out(op, "Out", "y");
    ic_builder_attr_int(op, "axis", 1);
    fetch = "y";
  }
  ic_builder_fetch(b, fetch);
  ic_tensor *feeds[2] = {tu_rand_f32(4, TU_DIMS(1, 16, 4, 4), 1, -1, 1),
                         tu_rand_f32(4, TU_DIMS(oc, 16, 1, 1), 2, -1, 1)};
  ic_tensor *out;
  ic_status st = tu_run(b, 2, TU_NAMES("x", "w"), feeds, 1, &fetch, &out, err, len);
  if (st == IC_OK) ic_tensor_destroy(out);
  ic_tensor_destroy(feeds[0]);
  ic_tensor_destroy(feeds[1]);
  ic_builder_destroy(b);
  return st;
}

/* A program that marks a convolution ic_blocked_pad whose reader takes blocked tensors but not
 * padded channels (concat) fails loudly where the Output is padded (AVX-512: nChw16c over 24
 * channels), naming the reader, the variable and the layout; elsewhere it runs. */
START_TEST(bad_padded) {
  char err[1024];
  ic_status st = run_misuse("concat", err, sizeof err);
  if (onednn_avx512()) {
    ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
    tu_assert_msg(err, "concat", "input X 't'", "channels padded", "ic_blocked_pad", NULL);
  } else {
    ck_assert_msg(st == IC_OK, "%s", err);
    fprintf(stderr, "bad_padded: no AVX-512 here: the Output is not padded, the run succeeds\n");
  }
}
END_TEST

/* The blocked layout a misuse message names: the one oneDNN chose on this CPU. */
static const char *named_layout(const char *err) {
  /* the variable's own layout ("layout X"), not the layouts a message may list after it */
  const char *name = strstr(err, "layout nChw16c")  ? "nChw16c"
                     : strstr(err, "layout nChw8c") ? "nChw8c"
                                                       : NULL;
  ck_assert_msg(name, "no blocked layout named in: %s", err);
  return name;
}

START_TEST(bad_blocked) {
  char err[1024], what[128];
  ck_assert_int_eq(run_misuse("relu", err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "relu", "input X 't'", named_layout(err), "plain layout", NULL);
  ck_assert_int_eq(run_misuse("fetch", err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "fetch", "input X 't'", named_layout(err), NULL);
  /* an NHWC convolution accepts blocked tensors in its slots, but not in its format */
  ck_assert_int_eq(run_misuse("nhwc", err, sizeof err), IC_ERR_SHAPE);
  snprintf(what, sizeof what, "float32[1, 16, 4, 4] in layout %s", named_layout(err));
  tu_assert_msg(err, "conv2d", "Input 't'", what, "expected the plain layout", "NHWC", NULL);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * A bias added by an elementwise_add of a [C_out] parameter along axis 1 joins the convolution
 * (its Bias), and so does the scalar affine after it (fuse.c, CPU plans): conv [+ activation] then
 * elementwise_mul by a one-element parameter (either operand) and/or elementwise_add of one,
 * as PP-HGNetV2's LearnableAffineBlock; and one between the convolution and the activation too
 * (PP-LCNetV3: conv, affine, hard_swish, affine; ic_PreAffineScale / ic_PreAffineBias). The
 * rewrite fires (no elementwise op is left, the
 * convolution takes ic_AffineScale / ic_AffineBias), matches the unfused program within
 * float32 tolerance at 1 and 2 threads, is bitwise equal across thread counts, and follows
 * new parameter values between runs (the primitive is rebuilt).
 * ------------------------------------------------------------------------------------- */

typedef struct aff_case {
  const char *act;       /* an activation op after the conv, NULL for none */
  float threshold, scale, offset; /* hard_swish's attributes */
  bool mul, add;         /* which elementwise ops follow */
  bool scale_first;      /* the scalar is X of elementwise_mul */
  bool blocked_reader;   /* a second convolution reads the result */
  bool bias_op;          /* the conv has no Bias: an elementwise_add of [16] along axis 1 */
  bool bias_reshape;     /* with bias_op: of [16] reshaped to [1, 16, 1, 1], axis -1 */
  bool pre_mul, pre_add; /* an affine between the conv and the activation */
} aff_case;

/* The program b describes (b is destroyed); fails the test if it does not build. */
static ic_program *built(ic_builder *b) {
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  return p;
}

/* A float32 tensor's values as doubles (malloc'd), for tu_assert_close. */
static double *as_doubles(const ic_tensor *t) {
  int64_t n = ic_tensor_numel(t);
  double *r = malloc((size_t)(n ? n : 1) * sizeof *r);
  for (int64_t i = 0; i < n; i++) r[i] = ((const float *)ic_tensor_cdata(t))[i];
  return r;
}

static ic_program *aff_program(const aff_case *k) {
  ic_builder *b = ic_builder_create();
  const int64_t xd[4] = {2, 8, 9, 10};
  tu_var(b, "x", IC_FP32, 4, xd);
  ic_builder_var(b, 0, "w", IC_FP32, 4, TU_DIMS(16, 8, 3, 3), true);
  ic_builder_var(b, 0, "bias", IC_FP32, 1, TU_DIMS(16), true);
  ic_builder_var(b, 0, "w2", IC_FP32, 4, TU_DIMS(8, 16, 1, 1), true);
  ic_builder_var(b, 0, "s", IC_FP32, 1, TU_DIMS(1), true);
  ic_builder_var(b, 0, "t", IC_FP32, 1, TU_DIMS(1), true);
  ic_builder_var(b, 0, "s0", IC_FP32, 1, TU_DIMS(1), true);
  ic_builder_var(b, 0, "t0", IC_FP32, 1, TU_DIMS(1), true);
  const int64_t yd[4] = {2, 16, 9, 10}, zd[4] = {2, 8, 9, 10};
  tu_var(b, "yp1", IC_FP32, 4, yd);
  tu_var(b, "yp2", IC_FP32, 4, yd);
  tu_var(b, "y", IC_FP32, 4, yd);
  tu_var(b, "ym", IC_FP32, 4, yd);
  tu_var(b, "ya", IC_FP32, 4, yd);
  tu_var(b, "yr", IC_FP32, 4, yd);
  tu_var(b, "yb", IC_FP32, 4, yd);
  tu_var(b, "z", IC_FP32, 4, zd);
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "conv2d");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "Filter", "w");
  if (!k->bias_op) ic_builder_in(op, "Bias", "bias");
  ic_builder_out(op, "Output", k->bias_op ? "yb" : "y");
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){1, 1});
  ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){1, 1});
  ic_builder_attr_int(op, "groups", 1);
  ic_builder_attr_string(op, "data_format", "NCHW");
  if (k->bias_op && k->bias_reshape) { /* Paddle 2.5+'s dygraph-to-static form */
    tu_var(b, "bias4", IC_FP32, 4, TU_DIMS(1, 16, 1, 1));
    tu_var(b, "bias4_xshape", IC_FP32, 2, TU_DIMS(0, 16));
    op = ic_builder_add_op(b, 0, "reshape2");
    ic_builder_in(op, "X", "bias");
    ic_builder_out(op, "Out", "bias4");
    ic_builder_out(op, "XShape", "bias4_xshape");
    ic_builder_attr_ints(op, "shape", 4, (const int32_t[]){1, -1, 1, 1});
  }
  if (k->bias_op) {
    op = ic_builder_add_op(b, 0, "elementwise_add");
    ic_builder_in(op, "X", "yb");
    ic_builder_in(op, "Y", k->bias_reshape ? "bias4" : "bias");
    ic_builder_out(op, "Out", "y");
    ic_builder_attr_int(op, "axis", k->bias_reshape ? -1 : 1);
  }
  const char *cur = "y";
  if (k->pre_mul) {
    op = ic_builder_add_op(b, 0, "elementwise_mul");
    ic_builder_in(op, "X", "s0");
    ic_builder_in(op, "Y", cur);
    ic_builder_out(op, "Out", "yp1");
    ic_builder_attr_int(op, "axis", -1);
    cur = "yp1";
  }
  if (k->pre_add) {
    op = ic_builder_add_op(b, 0, "elementwise_add");
    ic_builder_in(op, "X", cur);
    ic_builder_in(op, "Y", "t0");
    ic_builder_out(op, "Out", "yp2");
    ic_builder_attr_int(op, "axis", -1);
    cur = "yp2";
  }
  if (k->act) {
    op = ic_builder_add_op(b, 0, k->act);
    ic_builder_in(op, "X", cur);
    ic_builder_out(op, "Out", "yr");
    if (!strcmp(k->act, "relu6")) ic_builder_attr_float(op, "threshold", 6.0f);
    if (!strcmp(k->act, "hard_swish")) {
      ic_builder_attr_float(op, "threshold", k->threshold);
      ic_builder_attr_float(op, "scale", k->scale);
      ic_builder_attr_float(op, "offset", k->offset);
    }
    cur = "yr";
  }
  if (k->mul) {
    op = ic_builder_add_op(b, 0, "elementwise_mul");
    ic_builder_in(op, "X", k->scale_first ? "s" : cur);
    ic_builder_in(op, "Y", k->scale_first ? cur : "s");
    ic_builder_out(op, "Out", "ym");
    ic_builder_attr_int(op, "axis", -1);
    cur = "ym";
  }
  if (k->add) {
    op = ic_builder_add_op(b, 0, "elementwise_add");
    ic_builder_in(op, "X", cur);
    ic_builder_in(op, "Y", "t");
    ic_builder_out(op, "Out", "ya");
    ic_builder_attr_int(op, "axis", -1);
    cur = "ya";
  }
  if (k->blocked_reader) {
    op = ic_builder_add_op(b, 0, "conv2d");
    ic_builder_in(op, "Input", cur);
    ic_builder_in(op, "Filter", "w2");
    ic_builder_out(op, "Output", "z");
    ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){1, 1});
    ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){0, 0});
    ic_builder_attr_int(op, "groups", 1);
    ic_builder_attr_string(op, "data_format", "NCHW");
    cur = "z";
  }
  ic_builder_fetch(b, cur);
  return built(b);
}

/* Run p on feed x (fuse on or off, `threads`), calling visit on each instruction's op of the
 * plan it ran; returns the first fetch target. */
static ic_tensor *plan_run(ic_program *p, ic_scope *params, const ic_tensor *x, bool fuse,
                           int threads, void (*visit)(const ic_op *op, size_t *counts),
                           size_t *counts) {
  ic_options o;
  ic_options_default(&o);
  o.fuse = fuse;
  o.threads = threads;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  const char *feed = "x", *fetch = ic_program_fetch_target(p, 0);
  ic_tensor *out;
  ck_assert_msg(ic_executor_run(e, p, params, 1, &feed, &x, 1, &fetch, &out) == IC_OK, "%s",
                ic_executor_errmsg(e));
  const ic_plan *pl = ic_executor_last_plan(e);
  for (size_t i = 0; i < pl->n_instrs; i++) visit(pl->instrs[i].op, counts);
  ic_executor_destroy(e);
  return out;
}

/* counts[0]: convolutions with a fused affine; counts[1]: elementwise and reshape2 ops left. */
static void count_aff(const ic_op *op, size_t *counts) {
  counts[0] += ic_op_input(op, "ic_AffineScale") != NULL ||
               ic_op_input(op, "ic_AffineBias") != NULL ||
               ic_op_input(op, "ic_PreAffineScale") != NULL ||
               ic_op_input(op, "ic_PreAffineBias") != NULL;
  counts[1] += !strncmp(op->type, "elementwise_", 12) || !strcmp(op->type, "reshape2");
}

static ic_tensor *aff_run(ic_program *p, ic_scope *params, const ic_tensor *x, bool fuse,
                          int threads, size_t *n_aff, size_t *n_ew) {
  size_t counts[2] = {0, 0};
  ic_tensor *out = plan_run(p, params, x, fuse, threads, count_aff, counts);
  *n_aff = counts[0];
  *n_ew = counts[1];
  return out;
}

/* Convolutions in the program that carry an activation already (none here: the rewrite
 * fuses the separate op). */
static size_t n_conv_act(const ic_program *p) {
  size_t n = 0;
  for (size_t i = 0; i < p->blocks[0].n_ops; i++) {
    const ic_attr *a = ic_op_attr(&p->blocks[0].ops[i], "fuse_activation");
    n += a && a->type == IC_ATTR_STRING && a->s[0];
  }
  return n;
}

/* The fused runs f1 (one thread) and f2 (two) against the unfused ref: bitwise equal to each
 * other, within float32 tolerance of ref; all three destroyed. */
static void check_fused(ic_tensor *ref, ic_tensor *f1, ic_tensor *f2) {
  tu_assert_bitwise(f2, f1, "fused, 2 threads against 1");
  int64_t n = ic_tensor_numel(ref);
  double *r = as_doubles(ref);
  tu_assert_close(f1, r, (size_t)n, 1e-5, 1e-5);
  free(r);
  ic_tensor_destroy(ref);
  ic_tensor_destroy(f1);
  ic_tensor_destroy(f2);
}

static void aff_check(const aff_case *k) {
  ic_program *p = aff_program(k);
  ic_scope *params;
  ck_assert_int_eq(ic_scope_create(NULL, &params), IC_OK);
  char err[1024];
  ck_assert_msg(ic_params_random(p, 5, params, err, sizeof err) == IC_OK, "%s", err);
  ic_tensor *x = tu_rand_f32(4, TU_DIMS(2, 8, 9, 10), 3, -1, 1);
  for (int round = 0; round < 2; round++) {
    if (round == 1) {
      /* new values: the fused primitive must follow them */
      ic_tensor *s = tu_f32(1, TU_DIMS(1), (const float[]){-1.75f});
      ic_tensor *t = tu_f32(1, TU_DIMS(1), (const float[]){0.625f});
      ck_assert_int_eq(ic_scope_set(params, "s", s), IC_OK);
      ck_assert_int_eq(ic_scope_set(params, "t", t), IC_OK);
      ck_assert_int_eq(ic_scope_set(params, "s0", t), IC_OK);
      ck_assert_int_eq(ic_scope_set(params, "t0", s), IC_OK);
      ic_tensor_destroy(s);
      ic_tensor_destroy(t);
    }
    size_t n_aff, n_ew;
    ic_tensor *ref = aff_run(p, params, x, false, 1, &n_aff, &n_ew);
    ck_assert_int_eq(n_aff, 0);
    ck_assert_int_eq(n_ew, (size_t)k->mul + (size_t)k->add + (size_t)k->bias_op +
                               (size_t)k->bias_reshape + (size_t)k->pre_mul + (size_t)k->pre_add);
    ck_assert_int_eq(n_conv_act(p), 0);
    ic_tensor *f1 = aff_run(p, params, x, true, 1, &n_aff, &n_ew);
    ck_assert_msg(n_aff == (size_t)(k->mul || k->add || k->pre_mul || k->pre_add) && n_ew == 0,
                  "rewrite did not fire: %zu fused, %zu elementwise left", n_aff, n_ew);
    check_fused(ref, f1, aff_run(p, params, x, true, 2, &n_aff, &n_ew));
  }
  ic_tensor_destroy(x);
  ic_scope_destroy(params);
  ic_program_destroy(p);
}

START_TEST(affine_fusion) {
  /* HGNet's form: relu, scale * y (the scalar first), + bias, read by a convolution */
  aff_check(&(aff_case){.act = "relu", .mul = true, .add = true, .scale_first = true,
                        .blocked_reader = true});
  /* no activation, y * scale, fetched directly */
  aff_check(&(aff_case){.mul = true, .add = true});
  /* only a multiply, only an add */
  aff_check(&(aff_case){.act = "relu6", .mul = true, .blocked_reader = true});
  aff_check(&(aff_case){.act = "sigmoid", .add = true});
  /* an activation oneDNN 2.6 cannot express: the loop after the primitive applies both */
  aff_check(&(aff_case){.act = "hard_swish", .threshold = 4, .scale = 4, .offset = 1.5f,
                        .mul = true, .add = true});
  /* the bias as an elementwise_add (CRNN's squeeze-excitation convolutions), then an
   * activation, with and without an affine after it */
  aff_check(&(aff_case){.act = "hard_sigmoid", .bias_op = true});
  aff_check(&(aff_case){.act = "relu", .bias_op = true, .mul = true, .add = true,
                        .blocked_reader = true});
  aff_check(&(aff_case){.bias_op = true});
  /* the bias reshaped to [1, C, 1, 1] and added along axis -1 (Paddle 2.5+: SVTR's
   * squeeze-and-excitation convolutions, then relu or hard_sigmoid); the reshape goes too */
  aff_check(&(aff_case){.act = "relu", .bias_op = true, .bias_reshape = true});
  aff_check(&(aff_case){.act = "hard_sigmoid", .bias_op = true, .bias_reshape = true,
                        .mul = true, .blocked_reader = true});
  aff_check(&(aff_case){.bias_op = true, .bias_reshape = true});
  aff_check(&(aff_case){.act = "relu", .pre_mul = true, .add = true});
  /* hard_sigmoid is a linear and a clip in oneDNN 2.6: the affine after it must not be a
   * second linear (oneDNN 2.6 would run it with the first one's values) */
  aff_check(&(aff_case){.act = "hard_sigmoid", .mul = true, .add = true, .blocked_reader = true});
  aff_check(&(aff_case){.act = "hard_sigmoid", .pre_mul = true, .pre_add = true, .mul = true,
                        .add = true});
  /* PP-LCNetV3's form: bias as an op, affine, hard_swish (Paddle's defaults: oneDNN's
   * hardswish), affine, read by a convolution; with either op of each affine alone */
  aff_check(&(aff_case){.act = "hard_swish", .threshold = 6, .scale = 6, .offset = 3,
                        .bias_op = true, .pre_mul = true, .pre_add = true, .mul = true,
                        .add = true, .scale_first = true, .blocked_reader = true});

  aff_check(&(aff_case){.act = "sigmoid", .pre_add = true, .mul = true, .blocked_reader = true});
  aff_check(&(aff_case){.act = "hard_swish", .threshold = 6, .scale = 6, .offset = 3,
                        .pre_mul = true, .pre_add = true});
  /* ... and with an activation oneDNN 2.6 cannot express: the loop applies all three */
  aff_check(&(aff_case){.act = "hard_swish", .threshold = 4, .scale = 4, .offset = 1.5f,
                        .pre_mul = true, .pre_add = true, .mul = true, .add = true});
}
END_TEST

/* A residual add whose other operand is computed after the convolution (fuse.c's fallback):
 * conv A (+ its bias add, as a reshape2 of the parameter when `reshaped`) comes first, conv B
 * after it, then add(A, B) and relu. A cannot take the add (B's output is written between),
 * so it keeps its bias alone, and B takes the add as ResidualData with the relu: no
 * elementwise, reshape2 or relu op is left, within float32 tolerance of the unfused program,
 * bitwise equal at 1 and 2 threads. */
static void count_rfb(const ic_op *op, size_t *counts) {
  counts[0] += !strncmp(op->type, "elementwise_", 12) || !strcmp(op->type, "reshape2") ||
               !strcmp(op->type, "relu");
  counts[1] += !strcmp(op->type, "conv2d") && ic_op_input(op, "Bias") != NULL;
  counts[2] += !strcmp(op->type, "conv2d") && ic_op_input(op, "ResidualData") != NULL;
}

START_TEST(residual_after_conv) {
  for (int reshaped = 0; reshaped < 2; reshaped++) {
    ic_builder *b = ic_builder_create();
    tu_var(b, "x", IC_FP32, 4, TU_DIMS(2, 8, 9, 10));
    ic_builder_var(b, 0, "wa", IC_FP32, 4, TU_DIMS(16, 8, 3, 3), true);
    ic_builder_var(b, 0, "wb", IC_FP32, 4, TU_DIMS(16, 8, 1, 1), true);
    ic_builder_var(b, 0, "ba", IC_FP32, 1, TU_DIMS(16), true);
    static const char *const vars[] = {"ya", "yab", "yb", "s", "r"};
    for (int k = 0; k < 5; k++) tu_var(b, vars[k], IC_FP32, 4, TU_DIMS(2, 16, 9, 10));
    tu_var(b, "ba4", IC_FP32, 4, TU_DIMS(1, 16, 1, 1));
    ic_builder_feed(b, "x");
    ic_builder_op *op = ic_builder_add_op(b, 0, "conv2d");
    ic_builder_in(op, "Input", "x");
    ic_builder_in(op, "Filter", "wa");
    ic_builder_out(op, "Output", "ya");
    ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){1, 1});
    if (reshaped) {
      op = ic_builder_add_op(b, 0, "reshape2");
      ic_builder_in(op, "X", "ba");
      ic_builder_out(op, "Out", "ba4");
      ic_builder_attr_ints(op, "shape", 4, (const int32_t[]){1, -1, 1, 1});
    }
    op = ic_builder_add_op(b, 0, "elementwise_add");
    ic_builder_in(op, "X", "ya");
    ic_builder_in(op, "Y", reshaped ? "ba4" : "ba");
    ic_builder_out(op, "Out", "yab");
    ic_builder_attr_int(op, "axis", reshaped ? -1 : 1);
    op = ic_builder_add_op(b, 0, "conv2d");
    ic_builder_in(op, "Input", "x");
    ic_builder_in(op, "Filter", "wb");
    ic_builder_out(op, "Output", "yb");
    op = ic_builder_add_op(b, 0, "elementwise_add");
    ic_builder_in(op, "X", "yab");
    ic_builder_in(op, "Y", "yb");
    ic_builder_out(op, "Out", "s");
    ic_builder_attr_int(op, "axis", -1);
    op = ic_builder_add_op(b, 0, "relu");
    ic_builder_in(op, "X", "s");
    ic_builder_out(op, "Out", "r");
    ic_builder_fetch(b, "r");
    ic_program *p = built(b);
    ic_scope *params;
    ck_assert_int_eq(ic_scope_create(NULL, &params), IC_OK);
    char err[1024];
    ck_assert_msg(ic_params_random(p, 5, params, err, sizeof err) == IC_OK, "%s", err);
    ic_tensor *x = tu_rand_f32(4, TU_DIMS(2, 8, 9, 10), 3, -1, 1);
    size_t counts[3] = {0, 0, 0};
    ic_tensor *ref = plan_run(p, params, x, false, 1, count_rfb, counts);
    ck_assert_uint_eq(counts[0], 3u + (size_t)reshaped);
    memset(counts, 0, sizeof counts);
    ic_tensor *f1 = plan_run(p, params, x, true, 1, count_rfb, counts);
    ck_assert_msg(counts[0] == 0 && counts[1] == 1 && counts[2] == 1,
                  "reshaped %d: %zu ops left, %zu convolutions with Bias, %zu with "
                  "ResidualData", reshaped, counts[0], counts[1], counts[2]);
    check_fused(ref, f1, plan_run(p, params, x, true, 2, count_rfb, counts));
    ic_tensor_destroy(x);
    ic_scope_destroy(params);
    ic_program_destroy(p);
  }
}
END_TEST

/* ---- 1 x 1 convolutions of 1 x 1 images (conv_dnnl.c images_as_pixels, pixel_gemv) ---- */

/* A batch runs as one image of N pixels, one image with a filter of 1 MiB or more as a GEMV,
 * where the shapes allow (any layout, any ISA with AVX2): against the double reference
 * (residual and activations included), bitwise the same at 1 to 4 threads. Smaller filters,
 * channel counts off multiples of 16 (batches), a spatial kernel or image, NHWC and float64
 * keep oneDNN's ordinary path. */
START_TEST(one_pixel_convs) {
  enum { PIX = 1, GEMV = 2 };
  static const struct {
    conv_case k;
    int path;
  } cases[] = {
      {{.n = 8, .c = 64, .h = 1, .w = 1, .oc = 96, .kh = 1, .kw = 1, .bias = 1, .act = "relu"},
       PIX},
      {{.n = 3, .c = 32, .h = 1, .w = 1, .oc = 16, .kh = 1, .kw = 1, .sh = 2, .sw = 2, .bias = 4,
        .residual = true, .act = "hard_swish", .alpha = 1.0f / 6.0f, .beta = 0.5f}, PIX},
      {{.n = 2, .c = 1024, .h = 1, .w = 1, .oc = 48, .kh = 1, .kw = 1, .residual = true}, PIX},
      {{.n = 1, .c = 512, .h = 1, .w = 1, .oc = 512, .kh = 1, .kw = 1, .bias = 1,
        .residual = true, .act = "relu"}, GEMV},
      {{.n = 1, .c = 1024, .h = 1, .w = 1, .oc = 264, .kh = 1, .kw = 1, .sh = 2, .sw = 2,
        .bias = 4, .act = "hard_swish", .alpha = 1.0f / 6.0f, .beta = 0.5f}, GEMV},
      {{.n = 1, .c = 300, .h = 1, .w = 1, .oc = 1000, .kh = 1, .kw = 1, .act = "relu6",
        .beta = 6}, GEMV},
      {{.n = 1, .c = 64, .h = 1, .w = 1, .oc = 96, .kh = 1, .kw = 1, .bias = 1}, 0},
      {{.n = 4, .c = 24, .h = 1, .w = 1, .oc = 32, .kh = 1, .kw = 1, .bias = 1}, 0},
      {{.n = 4, .c = 32, .h = 1, .w = 1, .oc = 40, .kh = 1, .kw = 1}, 0},
      {{.n = 4, .c = 32, .h = 1, .w = 1, .oc = 32, .kh = 3, .kw = 3, .npads = 2,
        .pads = {1, 1}}, 0},
      {{.n = 1, .c = 512, .h = 1, .w = 1, .oc = 512, .kh = 3, .kw = 3, .npads = 2,
        .pads = {1, 1}}, 0},
      {{.n = 4, .c = 32, .h = 2, .w = 1, .oc = 32, .kh = 1, .kw = 1}, 0},
      {{.n = 1, .c = 512, .h = 2, .w = 1, .oc = 512, .kh = 1, .kw = 1}, 0},
      {{.n = 4, .c = 32, .h = 1, .w = 1, .oc = 32, .kh = 1, .kw = 1, .nhwc = true}, 0},
      {{.n = 1, .c = 512, .h = 1, .w = 1, .oc = 512, .kh = 1, .kw = 1, .nhwc = true}, 0},
      {{.n = 4, .c = 32, .h = 1, .w = 1, .oc = 32, .kh = 1, .kw = 1, .f64 = true}, 0},
      {{.n = 1, .c = 512, .h = 1, .w = 1, .oc = 512, .kh = 1, .kw = 1, .f64 = true}, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    conv_case k = cases[i].k;
    const int want = cases[i].path;
    const bool gemv_here = ic_gemv_available();
    run_case(&k, 300 + i);
    k.residual = false; /* run_direct_w feeds no ResidualData */
    size_t n1, n;
    bool pix = false, gemv = false;
    void *one = run_direct_w(&k, 1, &n1, NULL, &pix, &gemv);
    ck_assert_msg(pix == (want == PIX), "case %zu: as pixels %d, expected %d", i, pix,
                  want == PIX);
    ck_assert_msg(gemv == (want == GEMV && gemv_here), "case %zu: GEMV %d", i, gemv);
    for (int t = 2; t <= 4 && want; t++) {
      void *more = run_direct_w(&k, t, &n, NULL, &pix, &gemv);
      ck_assert_uint_eq(n, n1);
      ck_assert_msg(memcmp(one, more, n) == 0, "case %zu: %d threads differ from 1", i, t);
      free(more);
    }
    free(one);
  }
}
END_TEST

/* ---- Winograd (ic_winograd; options.winograd marks every conv2d) ---- */

/* oneDNN 2.6 has Winograd kernels on AVX-512 CPUs only (avx512_core and above; also
 * limited by ONEDNN_MAX_CPU_ISA); elsewhere a marked convolution runs the direct kernel, and
 * the test checks that instead (and says so). */
static bool wino_cpu(void) { return onednn_avx512(); }

/* The largest |a - b| over the largest |a| of two float32 outputs of n bytes. */
static double rel_diff(const void *a, const void *b, size_t nbytes) {
  const float *x = a, *y = b;
  double mx = 0, md = 0;
  for (size_t i = 0; i < nbytes / sizeof(float); i++) {
    mx = fmax(mx, fabs((double)x[i]));
    md = fmax(md, fabs((double)x[i] - (double)y[i]));
  }
  return mx > 0 ? md / mx : md;
}

/* Eligible shapes run Winograd's algorithm (on AVX-512): within float32 tolerance of the
 * double reference, with every activation and the residual, bitwise equal at 1 to 4
 * threads, and not bitwise equal to the direct kernel (so it did run); ineligible ones
 * (and every shape without AVX-512) run the direct kernel, bit for bit. */
START_TEST(winograd) {
  const bool avx512 = wino_cpu();
  if (!avx512) {
    printf("winograd: oneDNN runs below AVX-512 here, without Winograd kernels: checking "
           "that marked convolutions run the direct one\n");
  }
  static const conv_case eligible[] = {
      {.n = 1, .c = 32, .h = 12, .w = 10, .oc = 32, .kh = 3, .kw = 3, .npads = 2,
       .pads = {1, 1}, .bias = 1},
      {.n = 1, .c = 24, .h = 9, .w = 11, .oc = 48, .kh = 3, .kw = 3, .npads = 2,
       .pads = {1, 1}, .bias = 1, .act = "swish", .alpha = 1},
      {.n = 1, .c = 48, .h = 8, .w = 8, .oc = 32, .kh = 3, .kw = 3, .npads = 2, .pads = {1, 1},
       .residual = true, .act = "relu"},
      {.n = 1, .c = 64, .h = 14, .w = 14, .oc = 64, .kh = 3, .kw = 3, .npads = 2,
       .pads = {1, 1}, .bias = 1, .act = "hard_swish", .alpha = 1.0f / 6.0f, .beta = 0.5f},
      {.n = 1, .c = 32, .h = 10, .w = 10, .oc = 32, .kh = 3, .kw = 3, .bias = 1,
       .act = "sigmoid"},
      {.n = 1, .c = 32, .h = 9, .w = 9, .oc = 48, .kh = 3, .kw = 3, .npads = 2,
       .pads = {1, 1}, .act = "relu6", .beta = 6},
      {.n = 1, .c = 40, .h = 7, .w = 13, .oc = 32, .kh = 3, .kw = 3, .npads = 2,
       .pads = {1, 1}, .bias = 1, .residual = true, .act = "tanh"},
      {.n = 1, .c = 144, .h = 40, .w = 40, .oc = 144, .kh = 3, .kw = 3, .npads = 2,
       .pads = {1, 1}, .bias = 1, .act = "swish", .alpha = 1},
      {.n = 1, .c = 32, .h = 8, .w = 8, .oc = 32, .kh = 3, .kw = 3, .npads = 2, .pads = {1, 1},
       .bias = 1, .act = "gelu"},
  };
  static const conv_case ineligible[] = {
      /* a batch of 2 and of 4 (oneDNN offers its 2x3 kernel for a batch only with as many
       * threads); a layer where it offers only the 4x3 kernel (thread-dependent sums);
       * stride 2; 16 channels in; 24 out; dilation; two groups; a 2-row image; 5 x 5;
       * padding 2; NHWC; float64; and asymmetric padding, which oneDNN's Winograd declines */
      {.n = 2, .c = 24, .h = 9, .w = 11, .oc = 48, .kh = 3, .kw = 3, .npads = 2,
       .pads = {1, 1}, .bias = 1, .act = "swish", .alpha = 1},
      {.n = 4, .c = 64, .h = 14, .w = 14, .oc = 64, .kh = 3, .kw = 3, .npads = 2,
       .pads = {1, 1}, .bias = 1},
      {.n = 1, .c = 288, .h = 20, .w = 20, .oc = 288, .kh = 3, .kw = 3, .npads = 2,
       .pads = {1, 1}, .bias = 1},
      {.n = 1, .c = 32, .h = 12, .w = 12, .oc = 32, .kh = 3, .kw = 3, .sh = 2, .sw = 2,
       .npads = 2, .pads = {1, 1}, .bias = 1},
      {.n = 1, .c = 16, .h = 12, .w = 12, .oc = 32, .kh = 3, .kw = 3, .npads = 2, .pads = {1, 1}},
      {.n = 1, .c = 32, .h = 12, .w = 12, .oc = 24, .kh = 3, .kw = 3, .npads = 2, .pads = {1, 1}},
      {.n = 1, .c = 32, .h = 12, .w = 12, .oc = 32, .kh = 3, .kw = 3, .dh = 2, .dw = 2,
       .npads = 2, .pads = {2, 2}},
      {.n = 1, .c = 64, .h = 12, .w = 12, .oc = 64, .kh = 3, .kw = 3, .groups = 2, .npads = 2,
       .pads = {1, 1}},
      {.n = 1, .c = 64, .h = 2, .w = 40, .oc = 64, .kh = 3, .kw = 3, .npads = 2, .pads = {1, 1}},
      {.n = 1, .c = 32, .h = 12, .w = 12, .oc = 32, .kh = 5, .kw = 5, .npads = 2, .pads = {2, 2}},
      {.n = 1, .c = 32, .h = 12, .w = 12, .oc = 32, .kh = 3, .kw = 3, .npads = 2, .pads = {2, 2}},
      {.n = 1, .c = 32, .h = 12, .w = 12, .oc = 32, .kh = 3, .kw = 3, .npads = 2, .pads = {1, 1},
       .nhwc = true},
      {.n = 1, .c = 32, .h = 12, .w = 12, .oc = 32, .kh = 3, .kw = 3, .npads = 2, .pads = {1, 1},
       .f64 = true},
      {.n = 1, .c = 32, .h = 9, .w = 9, .oc = 48, .kh = 3, .kw = 3, .npads = 4,
       .pads = {1, 0, 0, 1}, .act = "relu6", .beta = 6},
  };
  for (size_t i = 0; i < sizeof eligible / sizeof eligible[0]; i++) {
    conv_case k = eligible[i], kw = k;
    kw.wino = true;
    run_case(&kw, 100 + i); /* against the double reference, residual included */
    k.residual = kw.residual = false; /* run_direct_w feeds no ResidualData */
    size_t nd, n1, n;
    bool used = false;
    void *direct = run_direct_w(&k, 1, &nd, &used, NULL, NULL);
    ck_assert(!used);
    void *one = run_direct_w(&kw, 1, &n1, &used, NULL, NULL);
    ck_assert_uint_eq(n1, nd);
    ck_assert_msg(used == avx512, "eligible case %zu: Winograd %s", i,
                  used ? "ran" : "did not run");
    if (avx512) {
      ck_assert_msg(memcmp(one, direct, n1) != 0, "case %zu: bitwise the direct result", i);
    } else {
      ck_assert_msg(memcmp(one, direct, n1) == 0, "case %zu: not the direct result", i);
    }
    double rd = rel_diff(direct, one, n1);
    ck_assert_msg(rd < 2e-5, "case %zu: Winograd differs from direct by %.3g of the largest "
                  "output", i, rd);
    for (int t = 2; t <= 4; t++) {
      void *more = run_direct_w(&kw, t, &n, &used, NULL, NULL);
      ck_assert_uint_eq(n, n1);
      ck_assert_msg(memcmp(one, more, n) == 0, "eligible case %zu: %d threads differ from 1", i, t);
      free(more);
    }
    free(direct);
    free(one);
  }
  for (size_t i = 0; i < sizeof ineligible / sizeof ineligible[0]; i++) {
    conv_case k = ineligible[i], kw = k;
    kw.wino = true;
    size_t nd, n1;
    bool used = true;
    void *direct = run_direct_w(&k, 1, &nd, NULL, NULL, NULL);
    void *marked = run_direct_w(&kw, 1, &n1, &used, NULL, NULL);
    ck_assert_msg(!used, "ineligible case %zu ran Winograd", i);
    ck_assert_uint_eq(n1, nd);
    ck_assert_msg(memcmp(marked, direct, n1) == 0, "ineligible case %zu: not the direct result", i);
    free(direct);
    free(marked);
  }
}
END_TEST

/* options.winograd through the executor: the plan marks its conv2d ops (and only with the
 * option), the fused convolution + swish + scalar affine stays within float32 tolerance of
 * the unfused direct program, bitwise equal at 1 and 2 threads. */
static ic_tensor *wino_plan_run(ic_program *p, ic_scope *params, const ic_tensor *x, bool fuse,
                                bool wino, int threads, size_t *n_marked) {
  ic_options o;
  ic_options_default(&o);
  o.fuse = fuse;
  o.winograd = wino;
  o.threads = threads;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  const char *feed = "x", *fetch = "ya";
  ic_tensor *out;
  ck_assert_msg(ic_executor_run(e, p, params, 1, &feed, &x, 1, &fetch, &out) == IC_OK, "%s",
                ic_executor_errmsg(e));
  const ic_plan *pl = ic_executor_last_plan(e);
  *n_marked = 0;
  for (size_t i = 0; i < pl->n_instrs; i++) {
    const ic_attr *m = ic_op_attr(pl->instrs[i].op, "ic_winograd");
    *n_marked += m && m->i;
  }
  ic_executor_destroy(e);
  return out;
}

START_TEST(winograd_option) {
  ic_builder *b = ic_builder_create();
  const int64_t xd[4] = {1, 32, 11, 12}, yd[4] = {1, 48, 11, 12};
  tu_var(b, "x", IC_FP32, 4, xd);
  ic_builder_var(b, 0, "w", IC_FP32, 4, TU_DIMS(48, 32, 3, 3), true);
  ic_builder_var(b, 0, "bias", IC_FP32, 1, TU_DIMS(48), true);
  ic_builder_var(b, 0, "s", IC_FP32, 1, TU_DIMS(1), true);
  ic_builder_var(b, 0, "t", IC_FP32, 1, TU_DIMS(1), true);
  const char *vars[] = {"y", "yr", "ym", "ya"};
  for (size_t i = 0; i < 4; i++) tu_var(b, vars[i], IC_FP32, 4, yd);
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "conv2d");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "Filter", "w");
  ic_builder_in(op, "Bias", "bias");
  ic_builder_out(op, "Output", "y");
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){1, 1});
  ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){1, 1});
  ic_builder_attr_string(op, "data_format", "NCHW");
  op = ic_builder_add_op(b, 0, "swish");
  ic_builder_in(op, "X", "y");
  ic_builder_out(op, "Out", "yr");
  op = ic_builder_add_op(b, 0, "elementwise_mul");
  ic_builder_in(op, "X", "yr");
  ic_builder_in(op, "Y", "s");
  ic_builder_out(op, "Out", "ym");
  op = ic_builder_add_op(b, 0, "elementwise_add");
  ic_builder_in(op, "X", "ym");
  ic_builder_in(op, "Y", "t");
  ic_builder_out(op, "Out", "ya");
  ic_builder_fetch(b, "ya");
  ic_program *p = built(b);
  ic_scope *params;
  ck_assert_int_eq(ic_scope_create(NULL, &params), IC_OK);
  char err[1024];
  ck_assert_msg(ic_params_random(p, 9, params, err, sizeof err) == IC_OK, "%s", err);
  ic_tensor *x = tu_rand_f32(4, xd, 4, -1, 1);
  size_t m_ref, m_direct, m1, m2;
  ic_tensor *ref = wino_plan_run(p, params, x, false, false, 1, &m_ref);
  ic_tensor *direct = wino_plan_run(p, params, x, true, false, 1, &m_direct);
  ic_tensor *w1 = wino_plan_run(p, params, x, true, true, 1, &m1);
  ic_tensor *w2 = wino_plan_run(p, params, x, true, true, 2, &m2);
  ck_assert_uint_eq(m_ref, 0);
  ck_assert_uint_eq(m_direct, 0);
  ck_assert_uint_eq(m1, 1);
  ck_assert_uint_eq(m2, 1);
  tu_assert_bitwise(w2, w1, "Winograd, 2 threads against 1");
  int64_t n = ic_tensor_numel(ref);
  double *r = as_doubles(ref);
  tu_assert_close(w1, r, (size_t)n, 1e-5, 1e-5);
  tu_assert_close(direct, r, (size_t)n, 1e-5, 1e-5);
  const size_t nb = ic_tensor_nbytes(w1);
  const bool same = memcmp(ic_tensor_cdata(w1), ic_tensor_cdata(direct), nb) == 0;
  ck_assert_msg(same != wino_cpu(), "options.winograd: %s the fused direct program's bits",
                same ? "still" : "not");
  /* the option through the environment */
  ic_options o;
  ic_options_default(&o);
  setenv("ICORE_WINOGRAD", "1", 1);
  ck_assert_int_eq(ic_options_from_env(&o, err, sizeof err), IC_OK);
  ck_assert(o.winograd);
  setenv("ICORE_WINOGRAD", "maybe", 1);
  ck_assert_int_ne(ic_options_from_env(&o, err, sizeof err), IC_OK);
  ck_assert_msg(strstr(err, "ICORE_WINOGRAD") != NULL, "%s", err);
  unsetenv("ICORE_WINOGRAD");
  free(r);
  ic_tensor_destroy(ref);
  ic_tensor_destroy(direct);
  ic_tensor_destroy(w1);
  ic_tensor_destroy(w2);
  ic_tensor_destroy(x);
  ic_scope_destroy(params);
  ic_program_destroy(p);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * A 1 x 1 convolution and the 3 x 3 depthwise convolution reading it (each with its
 * batch_norm and activation) become one convolution with the depthwise part fused
 * (fuse.c try_dw, conv.h ic_dw_stride) where the intermediate tensor is large (1.5 MiB per
 * image or more): the rewrite fires exactly then, matches the unfused program within
 * float32 tolerance, is bitwise equal across thread counts, follows new parameter values
 * (both filters are folded again and reordered again), and the reference path
 * (ICORE_CONV_REFERENCE=1) gives the same values within tolerance.
 * ------------------------------------------------------------------------------------- */

typedef struct dwf_case {
  int64_t n, cin, c, h, w;
  int stride_h, stride_w;
  const char *act1, *act2;   /* activation ops after each batch_norm (NULL: none) */
  bool dw_bn;                /* the depthwise convolution has a batch_norm (else no bias) */
  bool reader;               /* a 1 x 1 convolution reads the result */
  bool fetch_mid;            /* the intermediate is fetched too */
  bool want_fused;
} dwf_case;

static void dwf_act(ic_builder *b, const char *act, const char *in, const char *out) {
  ic_builder_op *op = ic_builder_add_op(b, 0, act);
  ic_builder_in(op, "X", in);
  ic_builder_out(op, "Out", out);
  if (!strcmp(act, "relu6")) ic_builder_attr_float(op, "threshold", 6.0f);
  if (!strcmp(act, "hard_swish")) {
    ic_builder_attr_float(op, "threshold", 6.0f);
    ic_builder_attr_float(op, "scale", 6.0f);
    ic_builder_attr_float(op, "offset", 3.0f);
  }
}

static void dwf_bn(ic_builder *b, const char *pfx, int64_t c, const char *in, const char *out) {
  char nm[4][32];
  static const char *const slot[4] = {"Scale", "Bias", "Mean", "Variance"};
  ic_builder_op *op = ic_builder_add_op(b, 0, "batch_norm");
  for (int k = 0; k < 4; k++) {
    snprintf(nm[k], sizeof nm[k], "%s_%s", pfx, slot[k]);
    ic_builder_var(b, 0, nm[k], IC_FP32, 1, TU_DIMS(c), true);
    ic_builder_in(op, slot[k], nm[k]);
  }
  ic_builder_in(op, "X", in);
  ic_builder_out(op, "Y", out);
  ic_builder_out(op, "MeanOut", nm[2]);
  ic_builder_out(op, "VarianceOut", nm[3]);
  ic_builder_attr_bool(op, "is_test", true);
  ic_builder_attr_float(op, "epsilon", 1e-5f);
}

static void dwf_conv(ic_builder *b, const char *in, const char *f, const char *out, int sh,
                     int sw, int pad, int64_t groups) {
  ic_builder_op *op = ic_builder_add_op(b, 0, groups > 1 ? "depthwise_conv2d" : "conv2d");
  ic_builder_in(op, "Input", in);
  ic_builder_in(op, "Filter", f);
  ic_builder_out(op, "Output", out);
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){sh, sw});
  ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){pad, pad});
  ic_builder_attr_ints(op, "dilations", 2, (const int32_t[]){1, 1});
  ic_builder_attr_int(op, "groups", (int32_t)groups);
  ic_builder_attr_string(op, "data_format", "NCHW");
}

static ic_program *dwf_program(const dwf_case *k) {
  ic_builder *b = ic_builder_create();
  const int64_t oh = (k->h - 1) / k->stride_h + 1, ow = (k->w - 1) / k->stride_w + 1;
  tu_var(b, "x", IC_FP32, 4, TU_DIMS(k->n, k->cin, k->h, k->w));
  ic_builder_var(b, 0, "w1", IC_FP32, 4, TU_DIMS(k->c, k->cin, 1, 1), true);
  ic_builder_var(b, 0, "w2", IC_FP32, 4, TU_DIMS(k->c, 1, 3, 3), true);
  ic_builder_var(b, 0, "w3", IC_FP32, 4, TU_DIMS(8, k->c, 1, 1), true);
  const char *names[] = {"c1", "b1", "a1", "c2", "b2", "a2"};
  for (int i = 0; i < 6; i++) {
    bool mid = i < 3;
    tu_var(b, names[i], IC_FP32, 4,
           mid ? TU_DIMS(k->n, k->c, k->h, k->w) : TU_DIMS(k->n, k->c, oh, ow));
  }
  tu_var(b, "z", IC_FP32, 4, TU_DIMS(k->n, 8, oh, ow));
  ic_builder_feed(b, "x");
  dwf_conv(b, "x", "w1", "c1", 1, 1, 0, 1);
  dwf_bn(b, "bn1", k->c, "c1", "b1");
  const char *mid = "b1";
  if (k->act1) {
    dwf_act(b, k->act1, "b1", "a1");
    mid = "a1";
  }
  dwf_conv(b, mid, "w2", "c2", k->stride_h, k->stride_w, 1, k->c);
  const char *cur = "c2";
  if (k->dw_bn) {
    dwf_bn(b, "bn2", k->c, "c2", "b2");
    cur = "b2";
  }
  if (k->act2) {
    dwf_act(b, k->act2, cur, "a2");
    cur = "a2";
  }
  if (k->reader) {
    dwf_conv(b, cur, "w3", "z", 1, 1, 0, 1);
    cur = "z";
  }
  ic_builder_fetch(b, cur);
  if (k->fetch_mid) ic_builder_fetch(b, mid);
  return built(b);
}

/* counts[0]: convolutions with a depthwise one fused. */
static void count_dw(const ic_op *op, size_t *counts) {
  const ic_slot *sl = ic_op_input(op, "ic_DwFilter");
  counts[0] += sl && sl->n == 1;
}

static ic_tensor *dwf_run(ic_program *p, ic_scope *params, const ic_tensor *x, bool fuse,
                          int threads, size_t *n_fused) {
  *n_fused = 0;
  return plan_run(p, params, x, fuse, threads, count_dw, n_fused);
}

static void dwf_check(const dwf_case *k) {
  ic_program *p = dwf_program(k);
  ic_scope *params;
  ck_assert_int_eq(ic_scope_create(NULL, &params), IC_OK);
  char err[1024];
  ck_assert_msg(ic_params_random(p, 11, params, err, sizeof err) == IC_OK, "%s", err);
  ic_tensor *x = tu_rand_f32(4, TU_DIMS(k->n, k->cin, k->h, k->w), 4, -1, 1);
  for (int round = 0; round < 2; round++) {
    if (round == 1) {
      /* new values for both convolutions: each folded filter and its reorder follow */
      ic_tensor *w1 = tu_rand_f32(4, TU_DIMS(k->c, k->cin, 1, 1), 21, -0.5f, 0.5f);
      ic_tensor *w2 = tu_rand_f32(4, TU_DIMS(k->c, 1, 3, 3), 22, -0.5f, 0.5f);
      ck_assert_int_eq(ic_scope_set(params, "w1", w1), IC_OK);
      ck_assert_int_eq(ic_scope_set(params, "w2", w2), IC_OK);
      ic_tensor_destroy(w1);
      ic_tensor_destroy(w2);
    }
    size_t nf;
    ic_tensor *ref = dwf_run(p, params, x, false, 1, &nf);
    ck_assert_int_eq(nf, 0);
    ic_tensor *f1 = dwf_run(p, params, x, true, 1, &nf);
    ck_assert_msg(nf == (k->want_fused ? 1u : 0u), "%zu fused pairs, expected %d", nf,
                  (int)k->want_fused);
    for (int t = 2; t <= 3; t++) {
      ic_tensor *ft = dwf_run(p, params, x, true, t, &nf);
      tu_assert_bitwise(ft, f1, "fused, more threads against 1");
      ic_tensor_destroy(ft);
    }
    int64_t n = ic_tensor_numel(ref);
    double *r = as_doubles(ref);
    tu_assert_close(f1, r, (size_t)n, 1e-4, 1e-4);
    /* the reference path of the fused convolution */
    setenv("ICORE_CONV_REFERENCE", "1", 1);
    ic_tensor *fr = dwf_run(p, params, x, true, 1, &nf);
    unsetenv("ICORE_CONV_REFERENCE");
    tu_assert_close(fr, r, (size_t)n, 1e-4, 1e-4);
    free(r);
    ic_tensor_destroy(fr);
    ic_tensor_destroy(ref);
    ic_tensor_destroy(f1);
  }
  ic_tensor_destroy(x);
  ic_scope_destroy(params);
  ic_program_destroy(p);
}

START_TEST(dw_fusion) {
  /* MobileNetV2's expansion then stride-2 depthwise (96 x 64 x 64: 1.5 MiB per image) */
  dwf_check(&(dwf_case){.n = 1, .cin = 16, .c = 96, .h = 64, .w = 64, .stride_h = 2,
                        .stride_w = 2, .act1 = "relu6", .act2 = "relu6", .dw_bn = true,
                        .reader = true, .want_fused = true});
  /* stride 1, hard_swish both, two images, fetched directly; channels not a multiple of 16 */
  dwf_check(&(dwf_case){.n = 2, .cin = 24, .c = 40, .h = 100, .w = 99, .stride_h = 1,
                        .stride_w = 1, .act1 = "hard_swish", .act2 = "hard_swish",
                        .dw_bn = true, .want_fused = true});
  /* no activation on the 1 x 1 part, and a depthwise convolution without bias */
  dwf_check(&(dwf_case){.n = 1, .cin = 8, .c = 64, .h = 80, .w = 80, .stride_h = 2,
                        .stride_w = 2, .act2 = "relu", .reader = true, .want_fused = true});
  /* left alone: a small intermediate, a stride (2, 1), an intermediate that is fetched */
  dwf_check(&(dwf_case){.n = 2, .cin = 16, .c = 32, .h = 16, .w = 16, .stride_h = 1,
                        .stride_w = 1, .act1 = "relu6", .act2 = "relu6", .dw_bn = true});
  dwf_check(&(dwf_case){.n = 1, .cin = 16, .c = 96, .h = 64, .w = 64, .stride_h = 2,
                        .stride_w = 1, .act1 = "relu6", .act2 = "relu6", .dw_bn = true});
  dwf_check(&(dwf_case){.n = 1, .cin = 16, .c = 96, .h = 64, .w = 64, .stride_h = 1,
                        .stride_w = 1, .act1 = "relu6", .act2 = "relu6", .dw_bn = true,
                        .fetch_mid = true});
}
END_TEST

/* A crafted ic_dw_stride or ic_DwFilter gets a clear error, never a wrong result. */
START_TEST(dw_fusion_bad) {
  static const struct {
    int64_t ks, stride, groups;
    bool give_dw, give_stride;
    int64_t dw_c;
    const char *want;
  } rows[] = {
      {1, 1, 1, true, false, 16, "ic_dw_stride is 0"},
      {1, 1, 1, false, true, 16, "ic_DwFilter is absent"},
      {3, 1, 1, true, true, 16, "1 x 1 convolution"},
      {1, 2, 1, true, true, 16, "1 x 1 convolution"},
      {1, 1, 1, true, true, 8, "expected [16, 1, 3, 3]"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    ic_builder *b = ic_builder_create();
    tu_var(b, "x", IC_FP32, 4, TU_DIMS(1, 4, 8, 8));
    tu_var(b, "y", IC_FP32, 4, TU_DIMS(1, 16, 8, 8));
    ic_builder_var(b, 0, "w", IC_FP32, 4, TU_DIMS(16, 4, rows[i].ks, rows[i].ks), true);
    ic_builder_var(b, 0, "wd", IC_FP32, 4, TU_DIMS(rows[i].dw_c, 1, 3, 3), true);
    ic_builder_feed(b, "x");
    ic_builder_op *op = ic_builder_add_op(b, 0, "conv2d");
    ic_builder_in(op, "Input", "x");
    ic_builder_in(op, "Filter", "w");
    if (rows[i].give_dw) ic_builder_in(op, "ic_DwFilter", "wd");
    ic_builder_out(op, "Output", "y");
    ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){(int32_t)rows[i].stride,
                                                             (int32_t)rows[i].stride});
    ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){0, 0});
    ic_builder_attr_int(op, "groups", (int32_t)rows[i].groups);
    if (rows[i].give_stride) ic_builder_attr_int(op, "ic_dw_stride", 1);
    ic_builder_fetch(b, "y");
    ic_program *p;
    char err[1024];
    ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
    ic_scope *params;
    ck_assert_int_eq(ic_scope_create(NULL, &params), IC_OK);
    ck_assert_msg(ic_params_random(p, 3, params, err, sizeof err) == IC_OK, "%s", err);
    ic_tensor *x = tu_rand_f32(4, TU_DIMS(1, 4, 8, 8), 1, -1, 1), *out = NULL;
    ic_options o;
    ic_options_default(&o);
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    const char *feed = "x", *fetch = "y";
    ck_assert_int_ne(ic_executor_run(e, p, params, 1, &feed, (const ic_tensor *const *)&x, 1,
                                     &fetch, &out),
                     IC_OK);
    tu_assert_msg(ic_executor_errmsg(e), "conv2d", rows[i].want, NULL);
    ic_executor_destroy(e);
    ic_tensor_destroy(x);
    ic_scope_destroy(params);
    ic_program_destroy(p);
    ic_builder_destroy(b);
  }
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * A squeeze-and-excitation scale into the convolution after it (fuse.c try_in_scale,
 * conv.h ic_InScale): x = relu(bn(conv(x0))), s = hard_sigmoid(conv(relu(conv(pool(x)))))
 * [N, C, 1, 1], then conv(x * s) with its batch_norm and hard_swish. The elementwise_mul
 * goes where it may, the result matches the unfused program within float32 tolerance, is
 * bitwise equal across thread counts, follows new filter values, and the reference path
 * (ICORE_CONV_REFERENCE=1) agrees; one image or several (a filter scaled per image), x
 * blocked with whole or padded channel blocks, 1 x 1 and 3 x 3 convolutions.
 * ------------------------------------------------------------------------------------- */

typedef struct ins_case {
  int64_t n, c, h, w, oc, k; /* x [n, c, h, w]; the convolution c -> oc, k x k, padding k/2 */
  bool shared;               /* s is a [1, C, 1, 1] parameter instead of the SE branch */
  bool fetch_mid;            /* the product is fetched too: left alone */
  bool depthwise;            /* a depthwise convolution reads the product: left alone */
  bool plain_x;              /* x is the feed itself (plain NCHW), not a convolution's output */
  bool want_fused;
} ins_case;

static ic_program *ins_program(const ins_case *k) {
  ic_builder *b = ic_builder_create();
  const int64_t r = k->c / 4 > 0 ? k->c / 4 : 1, oc = k->depthwise ? k->c : k->oc;
  const int64_t cx = k->plain_x ? k->c : 3;
  tu_var(b, "x", IC_FP32, 4, TU_DIMS(k->n, cx, k->h, k->w));
  ic_builder_var(b, 0, "w0", IC_FP32, 4, TU_DIMS(k->c, 3, 3, 3), true);
  ic_builder_var(b, 0, "wr", IC_FP32, 4, TU_DIMS(r, k->c, 1, 1), true);
  ic_builder_var(b, 0, "we", IC_FP32, 4, TU_DIMS(k->c, r, 1, 1), true);
  ic_builder_var(b, 0, "w3", IC_FP32, 4,
                 TU_DIMS(oc, k->depthwise ? 1 : k->c, k->k, k->k), true);
  static const char *const mids[] = {"c0", "b0", "a0", "m"};
  for (int i = 0; i < 4; i++) tu_var(b, mids[i], IC_FP32, 4, TU_DIMS(k->n, k->c, k->h, k->w));
  if (k->shared) {
    ic_builder_var(b, 0, "s", IC_FP32, 4, TU_DIMS(1, k->c, 1, 1), true);
  } else {
    tu_var(b, "p", IC_FP32, 4, TU_DIMS(k->n, k->c, 1, 1));
    tu_var(b, "q", IC_FP32, 4, TU_DIMS(k->n, r, 1, 1));
    tu_var(b, "qa", IC_FP32, 4, TU_DIMS(k->n, r, 1, 1));
    tu_var(b, "e", IC_FP32, 4, TU_DIMS(k->n, k->c, 1, 1));
    tu_var(b, "s", IC_FP32, 4, TU_DIMS(k->n, k->c, 1, 1));
  }
  static const char *const outs[] = {"c3", "b3", "a3"};
  for (int i = 0; i < 3; i++) tu_var(b, outs[i], IC_FP32, 4, TU_DIMS(k->n, oc, k->h, k->w));
  ic_builder_feed(b, "x");
  const char *a0 = k->plain_x ? "x" : "a0";
  if (!k->plain_x) {
    dwf_conv(b, "x", "w0", "c0", 1, 1, 1, 1);
    dwf_bn(b, "bn0", k->c, "c0", "b0");
    dwf_act(b, "relu", "b0", "a0");
  }
  if (!k->shared) {
    ic_builder_op *op = ic_builder_add_op(b, 0, "pool2d");
    ic_builder_in(op, "X", a0);
    ic_builder_out(op, "Out", "p");
    ic_builder_attr_string(op, "pooling_type", "avg");
    ic_builder_attr_bool(op, "global_pooling", true);
    ic_builder_attr_ints(op, "ksize", 2, (const int32_t[]){1, 1});
    ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){1, 1});
    ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){0, 0});
    dwf_conv(b, "p", "wr", "q", 1, 1, 0, 1);
    dwf_act(b, "relu", "q", "qa");
    dwf_conv(b, "qa", "we", "e", 1, 1, 0, 1);
    op = ic_builder_add_op(b, 0, "hard_sigmoid");
    ic_builder_in(op, "X", "e");
    ic_builder_out(op, "Out", "s");
    ic_builder_attr_float(op, "slope", 0.2f);
    ic_builder_attr_float(op, "offset", 0.5f);
  }
  ic_builder_op *op = ic_builder_add_op(b, 0, "elementwise_mul");
  ic_builder_in(op, "X", a0);
  ic_builder_in(op, "Y", "s");
  ic_builder_out(op, "Out", "m");
  ic_builder_attr_int(op, "axis", -1);
  dwf_conv(b, "m", "w3", "c3", 1, 1, (int)(k->k / 2), k->depthwise ? k->c : 1);
  dwf_bn(b, "bn3", oc, "c3", "b3");
  dwf_act(b, "hard_swish", "b3", "a3");
  ic_builder_fetch(b, "a3");
  if (k->fetch_mid) ic_builder_fetch(b, "m");
  return built(b);
}

/* counts[0]: convolutions with an input channel scale; counts[1]: elementwise_mul ops left. */
static void count_ins(const ic_op *op, size_t *counts) {
  const ic_slot *sl = ic_op_input(op, "ic_InScale");
  counts[0] += sl && sl->n == 1;
  counts[1] += !strcmp(op->type, "elementwise_mul");
}

static void ins_check(const ins_case *k) {
  ic_program *p = ins_program(k);
  ic_scope *params;
  ck_assert_int_eq(ic_scope_create(NULL, &params), IC_OK);
  char err[1024];
  ck_assert_msg(ic_params_random(p, 5, params, err, sizeof err) == IC_OK, "%s", err);
  /* scales spread over [0, 1] (the synthetic weights alone leave them all near 0.5) */
  const int64_t r4 = k->c / 4 > 0 ? k->c / 4 : 1;
  ic_tensor *sw = k->shared ? tu_rand_f32(4, TU_DIMS(1, k->c, 1, 1), 31, 0.0f, 1.0f)
                            : tu_rand_f32(4, TU_DIMS(k->c, r4, 1, 1), 31, -40.0f, 40.0f);
  ck_assert_int_eq(ic_scope_set(params, k->shared ? "s" : "we", sw), IC_OK);
  ic_tensor_destroy(sw);
  ic_tensor *x = tu_rand_f32(4, TU_DIMS(k->n, k->plain_x ? k->c : 3, k->h, k->w), 9, -1, 1);
  const int64_t oc = k->depthwise ? k->c : k->oc;
  for (int round = 0; round < 2; round++) {
    if (round == 1) {
      /* new values for the scaled convolution's filter: folded and scaled again */
      ic_tensor *w3 = tu_rand_f32(4, TU_DIMS(oc, k->depthwise ? 1 : k->c, k->k, k->k), 23,
                                  -0.5f, 0.5f);
      ck_assert_int_eq(ic_scope_set(params, "w3", w3), IC_OK);
      ic_tensor_destroy(w3);
    }
    size_t counts[2] = {0, 0};
    ic_tensor *ref = plan_run(p, params, x, false, 1, count_ins, counts);
    ck_assert_int_eq(counts[0], 0);
    ck_assert_int_eq(counts[1], 1);
    counts[0] = counts[1] = 0;
    ic_tensor *f1 = plan_run(p, params, x, true, 1, count_ins, counts);
    ck_assert_msg(counts[0] == (k->want_fused ? 1u : 0u) && counts[1] == (k->want_fused ? 0u : 1u),
                  "%zu scaled convolutions and %zu elementwise_mul, expected %d and %d",
                  counts[0], counts[1], (int)k->want_fused, (int)!k->want_fused);
    for (int t = 2; t <= 3; t++) {
      ic_tensor *ft = plan_run(p, params, x, true, t, count_ins, counts);
      tu_assert_bitwise(ft, f1, "fused, more threads against 1");
      ic_tensor_destroy(ft);
    }
    int64_t n = ic_tensor_numel(ref);
    double *r = as_doubles(ref);
    tu_assert_close(f1, r, (size_t)n, 1e-4, 1e-4);
    setenv("ICORE_CONV_REFERENCE", "1", 1);
    ic_tensor *fr = plan_run(p, params, x, true, 1, count_ins, counts);
    unsetenv("ICORE_CONV_REFERENCE");
    tu_assert_close(fr, r, (size_t)n, 1e-4, 1e-4);
    free(r);
    ic_tensor_destroy(fr);
    ic_tensor_destroy(ref);
    ic_tensor_destroy(f1);
  }
  ic_tensor_destroy(x);
  ic_scope_destroy(params);
  ic_program_destroy(p);
}

START_TEST(in_scale_fusion) {
  /* The kernel scales the filter where 5 * OC * KH * KW <= 2 * H * W (conv_dnnl.c
   * ic_conv_in_scale_filter), else the Input. CRNN's SE blocks, filter: 1 x 1 convolutions after a
   * scale per image, one image and three (a primitive per image), x blocked then plain. */
  ins_check(&(ins_case){.n = 1, .c = 32, .h = 6, .w = 40, .oc = 48, .k = 1, .want_fused = true});
  ins_check(&(ins_case){.n = 3, .c = 32, .h = 6, .w = 40, .oc = 48, .k = 1, .want_fused = true});
  ins_check(&(ins_case){.n = 3, .c = 24, .h = 6, .w = 40, .oc = 48, .k = 1, .plain_x = true,
                        .want_fused = true});
  /* one scale shared by the batch (a parameter [1, C, 1, 1]) */
  ins_check(&(ins_case){.n = 2, .c = 16, .h = 8, .w = 8, .oc = 16, .k = 1, .shared = true,
                        .want_fused = true});
  /* Input scaled: channels padded to 16 (40) with a 3 x 3 convolution, whole blocks (32),
   * plain, one image and two */
  ins_check(&(ins_case){.n = 2, .c = 40, .h = 9, .w = 11, .oc = 24, .k = 3, .want_fused = true});
  ins_check(&(ins_case){.n = 2, .c = 32, .h = 4, .w = 5, .oc = 64, .k = 1, .want_fused = true});
  ins_check(&(ins_case){.n = 1, .c = 32, .h = 4, .w = 5, .oc = 64, .k = 1, .want_fused = true});
  ins_check(&(ins_case){.n = 2, .c = 12, .h = 4, .w = 5, .oc = 64, .k = 1, .plain_x = true,
                        .want_fused = true});
  /* Input scaled by the kernel's threads (32768 elements or more; SVTR's SE blocks), blocked
   * and plain */
  ins_check(&(ins_case){.n = 1, .c = 64, .h = 16, .w = 40, .oc = 512, .k = 1, .want_fused = true});
  ins_check(&(ins_case){.n = 2, .c = 24, .h = 16, .w = 48, .oc = 512, .k = 1, .plain_x = true,
                        .want_fused = true});
  /* left alone: the product fetched, a depthwise convolution reading it */
  ins_check(&(ins_case){.n = 2, .c = 32, .h = 6, .w = 20, .oc = 32, .k = 1, .fetch_mid = true});
  ins_check(&(ins_case){.n = 2, .c = 32, .h = 6, .w = 20, .k = 3, .depthwise = true});
}
END_TEST

/* A crafted ic_InScale gets a clear error naming it, never a wrong result: a scale for
 * three images over an Input of one (the unfused product would have three), wrong channels,
 * a grouped convolution. */
START_TEST(in_scale_bad) {
  static const struct {
    int64_t sn, sc, groups;
    const char *want;
  } rows[] = {
      {3, 8, 1, "expected [1 or 1, 8, 1, 1]"},
      {1, 4, 1, "expected [1 or 1, 8, 1, 1]"},
      {1, 8, 2, "groups 1"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    ic_builder *b = ic_builder_create();
    tu_var(b, "x", IC_FP32, 4, TU_DIMS(1, 8, 5, 5));
    tu_var(b, "y", IC_FP32, 4, TU_DIMS(1, 8, 5, 5));
    ic_builder_var(b, 0, "w", IC_FP32, 4, TU_DIMS(8, 8 / rows[i].groups, 1, 1), true);
    ic_builder_var(b, 0, "s", IC_FP32, 4, TU_DIMS(rows[i].sn, rows[i].sc, 1, 1), true);
    ic_builder_feed(b, "x");
    ic_builder_op *op = ic_builder_add_op(b, 0, "conv2d");
    ic_builder_in(op, "Input", "x");
    ic_builder_in(op, "Filter", "w");
    ic_builder_in(op, "ic_InScale", "s");
    ic_builder_out(op, "Output", "y");
    ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){1, 1});
    ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){0, 0});
    ic_builder_attr_int(op, "groups", (int32_t)rows[i].groups);
    ic_builder_fetch(b, "y");
    ic_program *p;
    char err[1024];
    ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
    ic_scope *params;
    ck_assert_int_eq(ic_scope_create(NULL, &params), IC_OK);
    ck_assert_msg(ic_params_random(p, 3, params, err, sizeof err) == IC_OK, "%s", err);
    ic_tensor *x = tu_rand_f32(4, TU_DIMS(1, 8, 5, 5), 1, -1, 1), *out = NULL;
    ic_options o;
    ic_options_default(&o);
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    const char *feed = "x", *fetch = "y";
    ck_assert_int_ne(ic_executor_run(e, p, params, 1, &feed, (const ic_tensor *const *)&x, 1,
                                     &fetch, &out),
                     IC_OK);
    tu_assert_msg(ic_executor_errmsg(e), "ic_InScale", rows[i].want, NULL);
    ic_executor_destroy(e);
    ic_tensor_destroy(x);
    ic_scope_destroy(params);
    ic_program_destroy(p);
    ic_builder_destroy(b);
  }
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * A transposed convolution followed by the elementwise_add of its bias, an inference
 * batch_norm and an activation (PP-OCRv4 DB's head: conv2d_transpose, bias, batch_norm,
 * relu; then conv2d_transpose, bias, sigmoid) becomes one transposed convolution on CPU
 * plans (fuse.c; ic_fold_bn folds along the Filter's dims[1] within each group): one op
 * left, within float32 tolerance of the unfused program, bitwise equal across thread counts,
 * on oneDNN's path (whole channel blocks) and the GEMM path, grouped and not.
 * ------------------------------------------------------------------------------------- */

typedef struct ctf_case {
  int64_t cin, cout, groups;
  bool bias, bn;
  const char *act; /* NULL: none */
} ctf_case;

static ic_program *ctf_program(const ctf_case *k) {
  enum { N = 2, H = 9, W = 7 };
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 4, TU_DIMS(N, k->cin, H, W));
  ic_builder_var(b, 0, "wt", IC_FP32, 4, TU_DIMS(k->cin, k->cout / k->groups, 2, 2), true);
  ic_builder_var(b, 0, "bt", IC_FP32, 1, TU_DIMS(k->cout), true);
  const char *names[] = {"d", "e", "f", "g"};
  for (int i = 0; i < 4; i++) tu_var(b, names[i], IC_FP32, 4, TU_DIMS(N, k->cout, 2 * H, 2 * W));
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, k->groups == k->cin && k->groups > 1
                                                  ? "depthwise_conv2d_transpose"
                                                  : "conv2d_transpose");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "Filter", "wt");
  ic_builder_out(op, "Output", "d");
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){2, 2});
  ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){0, 0});
  ic_builder_attr_int(op, "groups", (int32_t)k->groups);
  ic_builder_attr_string(op, "data_format", "NCHW");
  const char *cur = "d";
  if (k->bias) {
    op = ic_builder_add_op(b, 0, "elementwise_add");
    ic_builder_in(op, "X", cur);
    ic_builder_in(op, "Y", "bt");
    ic_builder_out(op, "Out", "e");
    ic_builder_attr_int(op, "axis", 1);
    cur = "e";
  }
  if (k->bn) {
    dwf_bn(b, "bnt", k->cout, cur, "f");
    cur = "f";
  }
  if (k->act) {
    dwf_act(b, k->act, cur, "g");
    cur = "g";
  }
  ic_builder_fetch(b, cur);
  return built(b);
}

/* counts[0]: ops other than feed / fetch / ic_fold_bn; counts[1]: transposed convolutions
 * with a fused activation. */
static void count_ctf(const ic_op *op, size_t *counts) {
  counts[0] += strcmp(op->type, "feed") && strcmp(op->type, "fetch") &&
               strcmp(op->type, "ic_fold_bn");
  const ic_attr *a = ic_op_attr(op, "fuse_activation");
  counts[1] += strstr(op->type, "_transpose") && a && a->type == IC_ATTR_STRING && a->s[0];
}

static void ctf_check(const ctf_case *k) {
  ic_program *p = ctf_program(k);
  ic_scope *params;
  ck_assert_int_eq(ic_scope_create(NULL, &params), IC_OK);
  char err[1024];
  ck_assert_msg(ic_params_random(p, 5, params, err, sizeof err) == IC_OK, "%s", err);
  ic_tensor *x = tu_rand_f32(4, TU_DIMS(2, k->cin, 9, 7), 6, -1, 1);
  size_t c_ref[2] = {0, 0}, c1[2] = {0, 0};
  ic_tensor *ref = plan_run(p, params, x, false, 1, count_ctf, c_ref);
  ic_tensor *f1 = plan_run(p, params, x, true, 1, count_ctf, c1);
  ck_assert_msg(c1[0] == 1, "%zu ops left after the rewrite, expected 1", c1[0]);
  ck_assert_int_eq(c1[1], k->act ? 1 : 0);
  for (int t = 2; t <= 3; t++) {
    size_t ct[2] = {0, 0};
    ic_tensor *ft = plan_run(p, params, x, true, t, count_ctf, ct);
    tu_assert_bitwise(ft, f1, "fused transposed convolution, more threads against 1");
    ic_tensor_destroy(ft);
  }
  int64_t n = ic_tensor_numel(ref);
  double *r = as_doubles(ref);
  tu_assert_close(f1, r, (size_t)n, 1e-4, 1e-5);
  free(r);
  ic_tensor_destroy(ref);
  ic_tensor_destroy(f1);
  ic_tensor_destroy(x);
  ic_scope_destroy(params);
  ic_program_destroy(p);
}

START_TEST(transposed_fusion) {
  /* oneDNN's path (16 channels in and out), DB's first head layer */
  ctf_check(&(ctf_case){.cin = 16, .cout = 16, .groups = 1, .bias = true, .bn = true, .act = "relu"});
  /* the GEMM path (24 -> 1, DB's last layer), bias and sigmoid */
  ctf_check(&(ctf_case){.cin = 24, .cout = 1, .groups = 1, .bias = true, .act = "sigmoid"});
  /* groups: the fold follows each group's output channels; batch_norm alone; swish */
  ctf_check(&(ctf_case){.cin = 8, .cout = 12, .groups = 2, .bn = true, .act = "swish"});
  ctf_check(&(ctf_case){.cin = 6, .cout = 4, .groups = 2, .bias = true, .bn = true});
  /* depthwise, with hard_sigmoid (conv.c's formula after the primitive) */
  ctf_check(&(ctf_case){.cin = 16, .cout = 16, .groups = 16, .bn = true, .act = "hard_sigmoid"});
}
END_TEST

/* Not fused: a scalar that is not a parameter, or a mul by a full tensor. */
START_TEST(affine_not_fused) {
  ic_builder *b = ic_builder_create();
  const int64_t xd[4] = {1, 8, 5, 5}, yd[4] = {1, 8, 5, 5};
  tu_var(b, "x", IC_FP32, 4, xd);
  tu_var(b, "s", IC_FP32, 1, TU_DIMS(1)); /* fed, not persistable */
  ic_builder_var(b, 0, "w", IC_FP32, 4, TU_DIMS(8, 8, 1, 1), true);
  tu_var(b, "y", IC_FP32, 4, yd);
  tu_var(b, "ym", IC_FP32, 4, yd);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "s");
  ic_builder_op *op = ic_builder_add_op(b, 0, "conv2d");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "Filter", "w");
  ic_builder_out(op, "Output", "y");
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){1, 1});
  ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){0, 0});
  op = ic_builder_add_op(b, 0, "elementwise_mul");
  ic_builder_in(op, "X", "y");
  ic_builder_in(op, "Y", "s");
  ic_builder_out(op, "Out", "ym");
  ic_builder_attr_int(op, "axis", -1);
  ic_builder_fetch(b, "ym");
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  ic_scope *params;
  ck_assert_int_eq(ic_scope_create(NULL, &params), IC_OK);
  ck_assert_msg(ic_params_random(p, 5, params, err, sizeof err) == IC_OK, "%s", err);
  ic_options o;
  ic_options_default(&o);
  o.fuse = true;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  ic_tensor *x = tu_rand_f32(4, xd, 3, -1, 1), *s = tu_f32(1, TU_DIMS(1), (const float[]){2});
  const char *feeds[2] = {"x", "s"}, *fetch = "ym";
  const ic_tensor *fv[2] = {x, s};
  ic_tensor *out;
  ck_assert_msg(ic_executor_run(e, p, params, 2, feeds, fv, 1, &fetch, &out) == IC_OK, "%s",
                ic_executor_errmsg(e));
  const ic_plan *pl = ic_executor_last_plan(e);
  size_t n_ew = 0;
  for (size_t i = 0; i < pl->n_instrs; i++) {
    ck_assert(!ic_op_input(pl->instrs[i].op, "ic_AffineScale"));
    n_ew += !strcmp(pl->instrs[i].op->type, "elementwise_mul");
  }
  ck_assert_int_eq(n_ew, 1);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  ic_tensor_destroy(s);
  ic_executor_destroy(e);
  ic_scope_destroy(params);
  ic_program_destroy(p);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * conv2d_transpose on blocked input and through its kernel state (the op's values against a
 * double reference are test_ops_dense's, on the shared table cct_cases).
 * ------------------------------------------------------------------------------------- */

/* Run table row k's op directly with Input in `in_layout` (fresh kernel state, `threads`
 * threads): the Output (plain NCHW, malloc'd) and its element count. */
static float *run_convt_layout(const cct_case *k, int in_layout, int threads, size_t *n_out) {
  ic_builder *b = cct_program(k, IC_FP32);
  ic_program *p;
  char errs[1024];
  ck_assert_msg(ic_builder_build(b, &p, errs, sizeof errs) == IC_OK, "%s", errs);
  const ic_op *op = NULL;
  const char *type = k->op ? k->op : "conv2d_transpose";
  for (size_t i = 0; i < p->blocks[0].n_ops && !op; i++) {
    if (!strcmp(p->blocks[0].ops[i].type, type)) op = &p->blocks[0].ops[i];
  }
  ck_assert_ptr_nonnull(op);
  const ic_opdef *def = ic_registry_find(op->type);
  ic_err err;
  ic_err_clear(&err);
  void *attrs = calloc(1, def->attrs_size);
  ck_assert_int_eq(ic_opdef_parse(def, op, attrs, &err), IC_OK);
  double *xv, *wv, *bv;
  ic_tensor *x = rand_tensor(false, 4, TU_DIMS(k->n, k->c, k->h, k->w), 61, -1, 1, &xv);
  ic_tensor *w = rand_tensor(false, 4, TU_DIMS(k->c, k->og, k->kh, k->kw), 62, -0.5, 0.5, &wv);
  ic_tensor *bias = rand_tensor(false, 1, TU_DIMS(k->og * k->groups), 63, -1, 1, &bv);
  make_blocked(x, in_layout);
  ic_tensor y;
  ic_tensor_init(&y);
  ic_tensor *yp = &y;
  const char *names[3] = {"x", "f", "b"}, *yn = "y";
  ic_kslot in[4] = {{.n = 1, .t = &x, .names = &names[0]},
                    {.n = 1, .t = &w, .names = &names[1]},
                    {.n = k->bias ? 1 : 0, .t = &bias, .names = &names[2]},
                    {.n = 0}}; /* no OutputSize */
  ic_kslot out[1] = {{.n = 1, .t = &yp, .names = &yn}};
  ic_kenv env = {.alloc = NULL, .intra_threads = threads};
  void *state = NULL;
  ic_kctx c = {.def = def, .op = op, .attrs = attrs, .in = in, .out = out, .err = &err,
               .env = &env, .state = &state};
  ck_assert_msg(def->infer(&c) == IC_OK, "%s", err.msg);
  ck_assert_int_eq(ic_tensor_alloc(&y, NULL, &err), IC_OK);
  ck_assert_msg(def->cpu(&c) == IC_OK, "%s", err.msg);
  ck_assert_int_eq(y.layout, IC_LAYOUT_PLAIN);
  if (state) def->free_state(state);
  *n_out = (size_t)ic_tensor_numel(&y);
  float *vals = malloc(*n_out * sizeof *vals);
  memcpy(vals, y.data, *n_out * sizeof *vals);
  ic_tensor_reset(&y);
  ic_tensor *all[] = {x, w, bias};
  for (int i = 0; i < 3; i++) ic_tensor_destroy(all[i]);
  free(xv);
  free(wv);
  free(bv);
  free(attrs);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  return vals;
}

/* conv2d_transpose reads Input in nChw8c and nChw16c (whole blocks) and gives bitwise the
 * values of plain Input at 1, 2 and 4 threads, on its oneDNN path (whose source layout may
 * or may not be the one the input arrives in) and on its GEMM path (an unpacked copy). */
START_TEST(convt_blocked_input) {
  static const cct_case cases[] = {
      /* oneDNN, 16 channels: nChw16c where the CPU has AVX-512 kernels, else nChw8c */
      {NULL, 2, 16, 5, 4, 16, 3, 3, 1, 2, 2, .npads = 2, .pads = {1, 1}, .bias = true},
      /* oneDNN nChw8c (24 channels), PP-OCRv4 DB's 2x2 stride-2 upsampling */
      {NULL, 1, 24, 6, 7, 24, 2, 2, 1, 2, 2, .npads = 0},
      /* depthwise on oneDNN */
      {"depthwise_conv2d_transpose", 1, 16, 4, 5, 1, 3, 3, 16, 2, 2, .npads = 2,
       .pads = {1, 1}, .bias = true},
      /* two output channels: the GEMM path */
      {NULL, 1, 16, 5, 3, 2, 2, 2, 1, 2, 2, .bias = true},
  };
  static const int layouts[] = {IC_LAYOUT_NCHW8C, IC_LAYOUT_NCHW16C};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const cct_case *k = &cases[i];
    size_t n0, n;
    float *plain = run_convt_layout(k, IC_LAYOUT_PLAIN, 1, &n0);
    int tried = 0;
    for (size_t li = 0; li < 2; li++) {
      if (k->c % ic_layout_block(layouts[li])) continue;
      for (int threads = 1; threads <= 4; threads *= 2) {
        float *got = run_convt_layout(k, layouts[li], threads, &n);
        ck_assert_uint_eq(n, n0);
        ck_assert_msg(!memcmp(got, plain, n * sizeof *got),
                      "case %zu: Input %s at %d threads differs from plain Input", i,
                      ic_layout_name(layouts[li]), threads);
        free(got);
        tried++;
      }
    }
    ck_assert_int_ge(tried, 3);
    free(plain);
  }
}
END_TEST

/* The layout pass keeps a convolution's output blocked when a conv2d_transpose reads it (its
 * Input slot takes blocked tensors), and the program's output stays bitwise that of the
 * plain program, at 1 and 2 threads. An NHWC transposed convolution is not such a reader
 * (it reads t [1, 16, 6, 7] as 16 x 6 pixels of 7 channels). */
static void run_convt_pass(bool nhwc) {
  ic_builder *b = ic_builder_create();
  int64_t xd[4] = {1, 8, 6, 7}, td[4] = {1, 16, 6, 7};
  tu_var(b, "x", IC_FP32, 4, xd);
  tu_var(b, "w", IC_FP32, 4, TU_DIMS(16, 8, 1, 1));
  tu_var(b, "cb", IC_FP32, 1, TU_DIMS(16));
  tu_var(b, "t", IC_FP32, 4, td);
  tu_var(b, "f", IC_FP32, 4, TU_DIMS(nhwc ? 7 : 16, 16, 2, 2));
  tu_var(b, "y", IC_FP32, 4, TU_DIMS(-1, -1, -1, -1));
  const char *feeds_n[] = {"x", "w", "cb", "f"};
  for (int i = 0; i < 4; i++) ic_builder_feed(b, feeds_n[i]);
  ic_builder_op *op = ic_builder_add_op(b, 0, "conv2d");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "Filter", "w");
  ic_builder_in(op, "Bias", "cb");
  ic_builder_out(op, "Output", "t");
  ic_builder_attr_string(op, "fuse_activation", "relu");
  op = ic_builder_add_op(b, 0, "conv2d_transpose");
  ic_builder_in(op, "Input", "t");
  ic_builder_in(op, "Filter", "f");
  ic_builder_out(op, "Output", "y");
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){2, 2});
  ic_builder_attr_string(op, "data_format", nhwc ? "NHWC" : "NCHW");
  ic_builder_fetch(b, "y");
  double *v[4];
  ic_tensor *feeds[4] = {rand_tensor(false, 4, xd, 71, -1, 1, &v[0]),
                         rand_tensor(false, 4, TU_DIMS(16, 8, 1, 1), 72, -0.4, 0.4, &v[1]),
                         rand_tensor(false, 1, TU_DIMS(16), 73, -0.5, 0.5, &v[2]),
                         rand_tensor(false, 4, TU_DIMS(nhwc ? 7 : 16, 16, 2, 2), 74, -0.3, 0.3,
                                     &v[3])};
  const char *fetch = "y";
  ic_tensor *plain;
  char err[1024];
  ck_assert_msg(tu_run(b, 4, feeds_n, feeds, 1, &fetch, &plain, err, sizeof err) == IC_OK, "%s",
                err);
  ic_program *p;
  ck_assert_int_eq(ic_builder_build(b, &p, err, sizeof err), IC_OK);
  for (int threads = 1; threads <= 2; threads++) {
    ic_options o;
    ic_options_default(&o);
    o.threads = threads;
    o.fuse = true;
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ic_tensor *got;
    ck_assert_msg(ic_executor_run(e, p, NULL, 4, feeds_n, (const ic_tensor *const *)feeds, 1,
                                  &fetch, &got) == IC_OK, "%s", ic_executor_errmsg(e));
    tu_assert_bitwise(got, plain, "layout pass");
    ic_tensor_destroy(got);
    const ic_plan *pl = ic_executor_last_plan(e);
    int convs = 0;
    for (size_t i = 0; i < pl->n_instrs; i++) {
      const ic_op *iop = pl->instrs[i].op;
      if (strcmp(iop->type, "conv2d")) continue;
      ck_assert_int_eq(ic_op_attr(iop, "ic_blocked_out") != NULL, !nhwc);
      convs++;
    }
    ck_assert_int_eq(convs, 1);
    ic_executor_destroy(e);
  }
  ic_program_destroy(p);
  ic_tensor_destroy(plain);
  ic_builder_destroy(b);
  for (int i = 0; i < 4; i++) {
    ic_tensor_destroy(feeds[i]);
    free(v[i]);
  }
}

START_TEST(convt_layout_pass) {
  run_convt_pass(false);
  run_convt_pass(true);
}
END_TEST

/* One executor keeps the transposed convolution's primitive and its weights in oneDNN's
 * layout across runs: new Filter values in the same buffer and new Filter and Input shapes
 * each give what a fresh executor gives. */
START_TEST(convt_state_reuse) {
  const cct_case base = {NULL, 1, 16, 5, 4, 16, 3, 3, 1, 2, 2, .npads = 2, .pads = {1, 1},
                         .bias = true};
  const cct_case bigger = {NULL, 2, 32, 4, 6, 16, 2, 2, 1, 2, 2, .bias = true};
  ic_builder *bl = cct_program(&base, IC_FP32);
  ic_program *p;
  char err[1024];
  ck_assert_int_eq(ic_builder_build(bl, &p, err, sizeof err), IC_OK);
  ic_options o;
  ic_options_default(&o);
  o.threads = 2;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  const char *names[3] = {"x", "f", "b"}, *fetch = "y";
  for (int step = 0; step < 4; step++) {
    const cct_case *k = step == 2 ? &bigger : &base;
    double *v[3];
    ic_tensor *feeds[3] = {
        rand_tensor(false, 4, TU_DIMS(k->n, k->c, k->h, k->w), 81, -1, 1, &v[0]),
        rand_tensor(false, 4, TU_DIMS(k->c, k->og, k->kh, k->kw), 82 + (uint64_t)step, -0.5,
                    0.5, &v[1]),
        rand_tensor(false, 1, TU_DIMS(k->og), 83, -1, 1, &v[2])};
    ic_tensor *got, *want;
    ck_assert_msg(ic_executor_run(e, p, NULL, 3, names, (const ic_tensor *const *)feeds, 1,
                                  &fetch, &got) == IC_OK, "%s", ic_executor_errmsg(e));
    if (step == 1) {
      /* new values in the same Filter buffer */
      ic_tensor_destroy(got);
      float *fv = ic_tensor_data(feeds[1]);
      for (int64_t i = 0; i < ic_tensor_numel(feeds[1]); i++) fv[i] = 0.25f - fv[i];
      ck_assert_msg(ic_executor_run(e, p, NULL, 3, names, (const ic_tensor *const *)feeds, 1,
                                    &fetch, &got) == IC_OK, "%s", ic_executor_errmsg(e));
    }
    ic_executor *fresh;
    ck_assert_int_eq(ic_executor_create(&o, &fresh), IC_OK);
    ck_assert_msg(ic_executor_run(fresh, p, NULL, 3, names, (const ic_tensor *const *)feeds, 1,
                                  &fetch, &want) == IC_OK, "%s", ic_executor_errmsg(fresh));
    tu_assert_bitwise(got, want, "reused kernel state");
    ic_tensor_destroy(got);
    ic_tensor_destroy(want);
    ic_executor_destroy(fresh);
    for (int i = 0; i < 3; i++) {
      ic_tensor_destroy(feeds[i]);
      free(v[i]);
    }
  }
  ic_executor_destroy(e);
  ic_program_destroy(p);
  ic_builder_destroy(bl);
}
END_TEST

static TCase *tc_math(void) {
  TCase *tc = tcase_create("math");
  tcase_add_test(tc, table_cases);
  tcase_add_test(tc, activations);
  tcase_add_test(tc, residual_off);
  tcase_add_test(tc, state_reuse);
  tcase_add_test(tc, thread_counts);
  tcase_add_test(tc, winograd);
  tcase_add_test(tc, one_pixel_convs);
  tcase_add_test(tc, winograd_option);
  tcase_add_test(tc, blocked_kernel);
  tcase_add_test(tc, padded_kernel);
  tcase_add_test(tc, blocked_to_plain);
  tcase_add_test(tc, blocked_chain);
  tcase_add_test(tc, affine_fusion);
  tcase_add_test(tc, residual_after_conv);
  tcase_add_test(tc, dw_fusion);
  tcase_add_test(tc, dw_fusion_bad);
  tcase_add_test(tc, in_scale_fusion);
  tcase_add_test(tc, in_scale_bad);
  tcase_add_test(tc, transposed_fusion);
  tcase_add_test(tc, affine_not_fused);
  tcase_add_test(tc, convt_blocked_input);
  tcase_add_test(tc, convt_layout_pass);
  tcase_add_test(tc, convt_state_reuse);
  return tc;
}

static TCase *tc_errors(void) {
  TCase *tc = tcase_create("errors");
  tcase_add_test(tc, bad_inputs);
  tcase_add_test(tc, bad_bias_residual);
  tcase_add_test(tc, real_model_attrs);
  tcase_add_test(tc, bad_blocked);
  tcase_add_test(tc, bad_padded);
  return tc;
}

TU_MAIN("ops_conv", tc_math, tc_errors)
