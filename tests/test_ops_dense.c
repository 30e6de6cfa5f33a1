/* Dense-prediction ops against double-precision references written from Paddle's
 * definitions: conv2d_transpose / depthwise_conv2d_transpose (a direct scatter, not GEMM),
 * arg_max / arg_min, pixel_shuffle, group_norm, instance_norm, grid_sampler, conv3d, pool3d
 * and deformable_conv / deformable_conv_v1 (direct loops). Every case runs in every executor
 * configuration (optest.h / tu_run). The oracle cases conv2d_transpose_modes, arg_max_min,
 * pixel_shuffle_modes, group_instance_norm, grid_sampler_modes, conv3d_pool3d and
 * deformable_conv_modes in test_paddle_oracle check the same ops against Paddle 3.3.1. */
#include <float.h>
#include <math.h>

#include "cases_arg.h"
#include "cases_conv.h"
#include "cases_norm.h"
#include "optest.h"

static double *as_double(const ic_tensor *t) {
  int64_t n = ic_tensor_numel(t);
  double *d = malloc((size_t)(n ? n : 1) * sizeof *d);
  for (int64_t i = 0; i < n; i++) d[i] = ot_val(t, i);
  return d;
}

static ic_tensor *to_f64(const ic_tensor *t) {
  double *d = as_double(t);
  ic_tensor *r = tu_f64(ic_tensor_ndim(t), ic_tensor_dims(t), d);
  free(d);
  return r;
}

/* ---------------------------------------------------------------------------------------
 * conv2d_transpose
 * ------------------------------------------------------------------------------------- */

typedef cct_case tcase;

static void tc_geom(const tcase *k, int64_t *oh, int64_t *ow, int64_t p[4], int64_t d[2]) {
  int64_t sh = k->sh ? k->sh : 1, sw = k->sw ? k->sw : 1;
  d[0] = k->dh ? k->dh : 1;
  d[1] = k->dw ? k->dw : 1;
  p[0] = p[1] = p[2] = p[3] = 0;
  if (k->npads == 2) p[0] = p[1] = k->pads[0], p[2] = p[3] = k->pads[1];
  if (k->npads == 4) p[0] = k->pads[0], p[1] = k->pads[1], p[2] = k->pads[2], p[3] = k->pads[3];
  if (k->algo && !strcmp(k->algo, "VALID")) p[0] = p[1] = p[2] = p[3] = 0;
  if (k->algo && !strcmp(k->algo, "SAME")) {
    int64_t in[2] = {k->h, k->w}, s[2] = {sh, sw}, kk[2] = {k->kh, k->kw};
    for (int i = 0; i < 2; i++) {
      int64_t o = (in[i] + s[i] - 1) / s[i], tot = (o - 1) * s[i] + kk[i] - in[i];
      if (tot < 0) tot = 0;
      p[2 * i] = tot / 2;
      p[2 * i + 1] = tot - tot / 2;
    }
    d[0] = d[1] = 1;
  }
  *oh = (k->h - 1) * sh - p[0] - p[1] + d[0] * (k->kh - 1) + 1;
  *ow = (k->w - 1) * sw - p[2] - p[3] + d[1] * (k->kw - 1) + 1;
  if (k->osize[0]) {
    *oh = k->osize[0];
    *ow = k->osize[1];
  } else if (k->has_opad) {
    *oh += k->opad[0];
    *ow += k->opad[1];
  }
}

static void run_convt(const tcase *k, ic_dtype dt) {
  int64_t oh, ow, p[4], d[2];
  tc_geom(k, &oh, &ow, p, d);
  const int64_t oc = k->og * k->groups, cg = k->c / k->groups;
  int64_t xd[4] = {k->n, k->c, k->h, k->w};
  if (k->nhwc) xd[1] = k->h, xd[2] = k->w, xd[3] = k->c;
  ic_tensor *x = tu_rand_f32(4, xd, 21, -1, 1);
  ic_tensor *f = tu_rand_f32(4, TU_DIMS(k->c, k->og, k->kh, k->kw), 22, -0.5f, 0.5f);
  ic_tensor *b = tu_rand_f32(1, TU_DIMS(oc), 23, -0.5f, 0.5f);
  double *xv = as_double(x), *fv = as_double(f), *bv = as_double(b);
  if (dt == IC_FP64) {
    ic_tensor *t;
    t = to_f64(x), ic_tensor_destroy(x), x = t;
    t = to_f64(f), ic_tensor_destroy(f), f = t;
    t = to_f64(b), ic_tensor_destroy(b), b = t;
  }
  /* reference: scatter every input pixel through the kernel, in logical NCHW */
  const int64_t sh = k->sh ? k->sh : 1, sw = k->sw ? k->sw : 1;
  size_t nout = (size_t)(k->n * oc * oh * ow);
  double *ref = calloc(nout, sizeof *ref);
  for (int64_t n = 0; n < k->n; n++)
    for (int64_t ci = 0; ci < k->c; ci++) {
      const int64_t gi = ci / cg;
      for (int64_t y = 0; y < k->h; y++)
        for (int64_t xx = 0; xx < k->w; xx++) {
          double v = k->nhwc ? xv[((n * k->h + y) * k->w + xx) * k->c + ci]
                             : xv[((n * k->c + ci) * k->h + y) * k->w + xx];
          for (int64_t o = 0; o < k->og; o++)
            for (int64_t ky = 0; ky < k->kh; ky++)
              for (int64_t kx = 0; kx < k->kw; kx++) {
                int64_t oy = y * sh - p[0] + ky * d[0], ox = xx * sw - p[2] + kx * d[1];
                if (oy < 0 || oy >= oh || ox < 0 || ox >= ow) continue;
                int64_t co = gi * k->og + o;
                size_t at = k->nhwc ? (size_t)(((n * oh + oy) * ow + ox) * oc + co)
                                    : (size_t)(((n * oc + co) * oh + oy) * ow + ox);
                ref[at] += v * fv[((ci * k->og + o) * k->kh + ky) * k->kw + kx];
              }
        }
    }
  if (k->bias) {
    for (size_t e = 0; e < nout; e++) {
      int64_t co = k->nhwc ? (int64_t)(e % (size_t)oc) : (int64_t)(e / (size_t)(oh * ow)) % oc;
      ref[e] += bv[co];
    }
  }
  ic_builder *bld = cct_program(k, dt);
  ic_tensor *feeds[3] = {x, f, b}, *out;
  char err[1024];
  ic_status st = tu_run(bld, k->bias ? 3 : 2, TU_NAMES("x", "f", "b"), feeds, 1, TU_NAMES("y"),
                        &out, err, sizeof err);
  ck_assert_msg(st == IC_OK, "%s", err);
  int64_t od[4] = {k->n, oc, oh, ow};
  if (k->nhwc) od[1] = oh, od[2] = ow, od[3] = oc;
  tu_assert_shape(out, dt, 4, od);
  tu_assert_close(out, ref, nout, dt == IC_FP64 ? 1e-10 : 1e-5, dt == IC_FP64 ? 1e-10 : 1e-5);
  free(ref);
  free(xv);
  free(fv);
  free(bv);
  ic_tensor_destroy(out);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(feeds[i]);
  ic_builder_destroy(bld);
}

static void convt_both(const tcase *k) {
  run_convt(k, IC_FP32);
  run_convt(k, IC_FP64);
}

/* Every row of the shared table cases_conv.h (the CUDA suite runs the same). */
START_TEST(conv2d_transpose_modes) {
  for (size_t i = 0; i < CCT_N_CASES; i++) convt_both(&cct_cases[i]);
}
END_TEST

/* conv2d_transpose with these feeds must fail naming the words given. */
static void convt_bad(const int64_t *xd, const int64_t *fd, int groups, const int32_t *osize,
                      const int32_t *opad, ic_status want, const char *w1, const char *w2) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(4, xd, 1, -1, 1));
  ot_feed(&t, "f", tu_rand_f32(4, fd, 2, -1, 1));
  ot_op(&t, "conv2d_transpose");
  ic_builder_in(t.op, "Input", "x");
  ic_builder_in(t.op, "Filter", "f");
  ic_builder_attr_ints(t.op, "strides", 2, (const int32_t[]){2, 2});
  ic_builder_attr_int(t.op, "groups", groups);
  if (osize) ic_builder_attr_ints(t.op, "output_size", 2, osize);
  if (opad) ic_builder_attr_ints(t.op, "output_padding", 2, opad);
  ot_out(&t, "Output", "y");
  ck_assert_int_eq(ot_run(&t), want);
  tu_assert_msg(t.err, "conv2d_transpose", w1, w2, NULL);
  ot_end(&t);
}

START_TEST(conv2d_transpose_errors) {
  /* channels do not match Filter.dims[0] */
  convt_bad(TU_DIMS(1, 3, 4, 4), TU_DIMS(4, 2, 3, 3), 1, NULL, NULL, IC_ERR_SHAPE,
            "input Input 'x'", "Filter.dims[0]");
  /* channels not divisible by groups */
  convt_bad(TU_DIMS(1, 3, 4, 4), TU_DIMS(3, 2, 3, 3), 2, NULL, NULL, IC_ERR_SHAPE, "'x'",
            "multiple of groups");
  /* output_size outside [base, base + stride) */
  convt_bad(TU_DIMS(1, 2, 4, 4), TU_DIMS(2, 2, 3, 3), 1, (const int32_t[]){12, 9}, NULL,
            IC_ERR_SHAPE, "'output_size'", "12");
  /* output_padding not below max(stride, dilation) */
  convt_bad(TU_DIMS(1, 2, 4, 4), TU_DIMS(2, 2, 3, 3), 1, NULL, (const int32_t[]){2, 0},
            IC_ERR_INVALID_PROGRAM, "'output_padding'", "max(stride, dilation) = 2");
  /* a 3-D filter */
  {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "x", tu_rand_f32(4, TU_DIMS(1, 2, 4, 4), 1, -1, 1));
    ot_feed(&t, "f", tu_rand_f32(3, TU_DIMS(2, 2, 3), 2, -1, 1));
    ot_op(&t, "conv2d_transpose");
    ic_builder_in(t.op, "Input", "x");
    ic_builder_in(t.op, "Filter", "f");
    ot_out(&t, "Output", "y");
    ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
    tu_assert_msg(t.err, "input Filter 'f'", "expected rank 4", NULL);
    ot_end(&t);
  }
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * arg_max / arg_min
 * ------------------------------------------------------------------------------------- */

static void run_arg(const char *op, const ca_case *c) {
  ic_tensor *x = ca_input(c);
  const int axis = c->axis, dtype = c->odt;
  const bool keep = c->keep, flat = c->flat;
  const int nd = ic_tensor_ndim(x);
  const int64_t *xd = ic_tensor_dims(x);
  bool mx = !strcmp(op, "arg_max");
  /* reference: first extreme index by plain loops */
  int64_t od[IC_MAX_RANK];
  int ond = 0;
  int ax = axis < 0 ? axis + nd : axis;
  if (flat || nd == 0) {
    if (keep) for (int i = 0; i < nd; i++) od[ond++] = 1;
  } else {
    for (int i = 0; i < nd; i++) {
      if (i != ax) od[ond++] = xd[i];
      else if (keep) od[ond++] = 1;
    }
  }
  int64_t outer = 1, len = 1, inner = 1;
  if (flat || nd == 0) {
    len = ic_tensor_numel(x);
  } else {
    for (int i = 0; i < ax; i++) outer *= xd[i];
    len = xd[ax];
    for (int i = ax + 1; i < nd; i++) inner *= xd[i];
  }
  double *ref = malloc((size_t)(outer * inner) * sizeof *ref);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++) {
      int64_t best = 0;
      for (int64_t k = 1; k < len; k++) {
        double v = ot_val(x, (o * len + k) * inner + i);
        double b = ot_val(x, (o * len + best) * inner + i);
        if (mx ? v > b : v < b) best = k;
      }
      ref[o * inner + i] = (double)best;
    }
  ic_builder *b = ca_program(op, c, x);
  ic_tensor *out[1];
  char err[1024];
  ic_status st = tu_run(b, 1, TU_NAMES("x"), &x, 1, TU_NAMES("y"), out, err, sizeof err);
  ck_assert_msg(st == IC_OK, "%s: %s", op, err);
  tu_assert_shape(out[0], dtype == 2 ? IC_INT32 : IC_INT64, ond, od);
  tu_assert_close(out[0], ref, (size_t)(outer * inner), 0, 0);
  free(ref);
  ic_tensor_destroy(out[0]);
  ic_tensor_destroy(x);
  ic_builder_destroy(b);
}

/* Every case of the shared table cases_arg.h (the CUDA suite runs the same). */
START_TEST(arg_max_min_modes) {
  const char *ops[] = {"arg_max", "arg_min"};
  for (int o = 0; o < 2; o++) {
    for (size_t i = 0; i < CA_N_CASES; i++) run_arg(ops[o], &ca_cases[i]);
  }
}
END_TEST

START_TEST(arg_max_errors) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(2, TU_DIMS(2, 3), 1, -1, 1));
  ot_op(&t, "arg_max");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_long(t.op, "axis", 2);
  ot_out(&t, "Out", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "arg_max", "'axis'", "2", NULL);
  ot_end(&t);
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(2, TU_DIMS(2, 3), 1, -1, 1));
  ot_op(&t, "arg_min");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_int(t.op, "dtype", 5);
  ot_out(&t, "Out", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "arg_min", "'dtype'", "2 (int32), 3 (int64)", NULL);
  ot_end(&t);
  /* an empty axis has no extreme */
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(2, TU_DIMS(2, 0), 1, -1, 1));
  ot_op(&t, "arg_max");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_long(t.op, "axis", 1);
  ot_out(&t, "Out", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "input X 'x'", "no elements along axis 1", NULL);
  ot_end(&t);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * pixel_shuffle
 * ------------------------------------------------------------------------------------- */

static void run_ps(ic_dtype dt, int64_t n, int64_t c, int64_t h, int64_t w, int r, bool nhwc) {
  int64_t cin = c * r * r;
  int64_t xd[4] = {n, cin, h, w}, od[4] = {n, c, h * r, w * r};
  if (nhwc) xd[1] = h, xd[2] = w, xd[3] = cin, od[1] = h * r, od[2] = w * r, od[3] = c;
  ic_tensor *x = ot_iota(dt, 4, xd, 3);
  int64_t total = n * c * h * r * w * r, *src = malloc((size_t)total * sizeof *src);
  for (int64_t e = 0; e < total; e++) {
    int64_t i[4];
    ot_unravel(e, 4, od, i);
    int64_t b = i[0], ch = nhwc ? i[3] : i[1], y = nhwc ? i[1] : i[2], xx = nhwc ? i[2] : i[3];
    int64_t sc = ch * r * r + (y % r) * r + xx % r, sy = y / r, sx = xx / r;
    int64_t si[4] = {b, sc, sy, sx};
    if (nhwc) si[1] = sy, si[2] = sx, si[3] = sc;
    src[e] = ot_ravel(4, xd, si);
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", x);
  ot_op(&t, "pixel_shuffle");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_int(t.op, "upscale_factor", r);
  ic_builder_attr_string(t.op, "data_format", nhwc ? "NHWC" : "NCHW");
  ot_out(&t, "Out", "y");
  ot_ok(&t);
  tu_assert_shape(t.out[0], dt, 4, od);
  ot_check_gather(t.out[0], x, src, (size_t)total);
  free(src);
  ot_end(&t);
}

START_TEST(pixel_shuffle_modes) {
  run_ps(IC_FP32, 2, 2, 3, 2, 2, false);
  run_ps(IC_FP32, 1, 2, 2, 3, 3, false);
  run_ps(IC_FP64, 1, 2, 3, 4, 2, true);
  run_ps(IC_INT64, 2, 3, 2, 2, 2, true);
  run_ps(IC_UINT8, 1, 1, 2, 2, 1, false);
  /* channels not a multiple of r^2 */
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(4, TU_DIMS(1, 6, 2, 2), 1, -1, 1));
  ot_op(&t, "pixel_shuffle");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_int(t.op, "upscale_factor", 2);
  ot_out(&t, "Out", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "pixel_shuffle", "input X 'x'", "6 channels", "upscale_factor^2 = 4", NULL);
  ot_end(&t);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * group_norm, instance_norm
 * ------------------------------------------------------------------------------------- */

/* Normalize groups of (image, channels [c0, c1)) over all spatial positions; channel-last
 * when nhwc. y, mean and var (one per (n, group)) in double, two-pass statistics. */
static void norm_ref(const double *x, int64_t n, int64_t c, int64_t s, bool nhwc, int64_t groups,
                     const double *scale, const double *bias, double eps, double *y,
                     double *mean, double *var) {
  const int64_t gsz = (c - 1) / groups + 1;
  for (int64_t b = 0; b < n; b++)
    for (int64_t g = 0; g < groups; g++) {
      int64_t c0 = g * gsz, c1 = c0 + gsz < c ? c0 + gsz : c;
      double sum = 0, cnt = 0, sq = 0;
#define AT(ch, p) (nhwc ? (b * s + (p)) * c + (ch) : (b * c + (ch)) * s + (p))
      for (int64_t ch = c0; ch < c1; ch++)
        for (int64_t p = 0; p < s; p++) sum += x[AT(ch, p)], cnt++;
      double m = cnt ? sum / cnt : 0;
      for (int64_t ch = c0; ch < c1; ch++)
        for (int64_t p = 0; p < s; p++) sq += (x[AT(ch, p)] - m) * (x[AT(ch, p)] - m);
      double v = cnt ? sq / cnt : 0;
      mean[b * groups + g] = m;
      var[b * groups + g] = v;
      for (int64_t ch = c0; ch < c1; ch++)
        for (int64_t p = 0; p < s; p++) {
          y[AT(ch, p)] = (x[AT(ch, p)] - m) / sqrt(v + eps) * (scale ? scale[ch] : 1) +
                         (bias ? bias[ch] : 0);
        }
#undef AT
    }
}

static void run_gn(const cg_case *k, ic_dtype dt) {
  const int nd = k->nd;
  const int64_t *xd = k->dims, groups = k->groups;
  const bool nhwc = k->nhwc, sb = k->sb;
  ic_tensor *in[3];
  cg_inputs(k, dt, in);
  const int64_t n = xd[0], c = cg_channels(k);
  const int64_t s = ot_numel(nd, xd) / n / c;
  double *xv = as_double(in[0]), *sv = as_double(in[1]), *bv = as_double(in[2]);
  size_t total = (size_t)ot_numel(nd, xd);
  double *y = malloc(total * sizeof *y), *m = malloc((size_t)(n * groups) * sizeof *m),
         *v = malloc((size_t)(n * groups) * sizeof *v);
  norm_ref(xv, n, c, s, nhwc, groups, sb ? sv : NULL, sb ? bv : NULL, 1e-5, y, m, v);
  ic_builder *b = cg_program(k, dt);
  ic_tensor *out[3];
  char err[1024];
  ic_status st = tu_run(b, sb ? 3 : 1, TU_NAMES("x", "s", "b"), in, 3, TU_NAMES("y", "m", "v"),
                        out, err, sizeof err);
  ck_assert_msg(st == IC_OK, "group_norm: %s", err);
  double tol = dt == IC_FP64 ? 1e-9 : 2e-5;
  tu_assert_shape(out[0], dt, nd, xd);
  tu_assert_close(out[0], y, total, tol, tol);
  tu_assert_shape(out[1], dt, 2, TU_DIMS(n, groups));
  tu_assert_close(out[1], m, (size_t)(n * groups), tol, tol);
  tu_assert_close(out[2], v, (size_t)(n * groups), tol, tol);
  free(y), free(m), free(v), free(xv), free(sv), free(bv);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(out[i]), ic_tensor_destroy(in[i]);
  ic_builder_destroy(b);
}

/* Every case of the shared table cases_norm.h (the CUDA suite runs the same), then bad
 * inputs. */
START_TEST(group_norm_modes) {
  for (size_t i = 0; i < CG_N_CASES; i++) {
    run_gn(&cg_cases[i], IC_FP32);
    run_gn(&cg_cases[i], IC_FP64);
  }
  /* more groups than channels, and a Scale of the wrong size */
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(4, TU_DIMS(1, 4, 2, 2), 1, -1, 1));
  ot_op(&t, "group_norm");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_int(t.op, "groups", 8);
  ot_out(&t, "Y", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "group_norm", "input X 'x'", "4 channels", "'groups' 8", NULL);
  ot_end(&t);
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(4, TU_DIMS(1, 4, 2, 2), 1, -1, 1));
  ot_feed(&t, "s", tu_rand_f32(1, TU_DIMS(3), 1, -1, 1));
  ot_op(&t, "group_norm");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "Scale", "s");
  ic_builder_attr_int(t.op, "groups", 2);
  ot_out(&t, "Y", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "input Scale 's'", "4 elements", NULL);
  ot_end(&t);
}
END_TEST

static void run_in(ic_dtype dt, int nd, const int64_t *xd, bool sb) {
  ic_tensor *x = tu_rand_f32(nd, xd, 41, -2, 2);
  const int64_t n = xd[0], c = xd[1], s = ot_numel(nd, xd) / n / c;
  ic_tensor *sc = tu_rand_f32(1, TU_DIMS(c), 42, 0.5f, 1.5f);
  ic_tensor *bi = tu_rand_f32(1, TU_DIMS(c), 43, -0.5f, 0.5f);
  double *xv = as_double(x), *sv = as_double(sc), *bv = as_double(bi);
  if (dt == IC_FP64) {
    ic_tensor *t;
    t = to_f64(x), ic_tensor_destroy(x), x = t;
    t = to_f64(sc), ic_tensor_destroy(sc), sc = t;
    t = to_f64(bi), ic_tensor_destroy(bi), bi = t;
  }
  size_t total = (size_t)ot_numel(nd, xd);
  double *y = malloc(total * sizeof *y), *m = malloc((size_t)(n * c) * sizeof *m),
         *v = malloc((size_t)(n * c) * sizeof *v);
  /* instance norm = group norm with one channel per group */
  norm_ref(xv, n, c, s, false, c, sb ? sv : NULL, sb ? bv : NULL, 1e-5, y, m, v);
  for (int64_t i = 0; i < n * c; i++) v[i] = 1.0 / sqrt(v[i] + 1e-5);
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", x);
  if (sb) {
    ot_feed(&t, "s", sc);
    ot_feed(&t, "b", bi);
  } else {
    ic_tensor_destroy(sc);
    ic_tensor_destroy(bi);
  }
  ot_op(&t, "instance_norm");
  ic_builder_in(t.op, "X", "x");
  if (sb) {
    ic_builder_in(t.op, "Scale", "s");
    ic_builder_in(t.op, "Bias", "b");
  }
  ic_builder_attr_float(t.op, "epsilon", 1e-5f);
  ot_out(&t, "Y", "y");
  ot_out(&t, "SavedMean", "m");
  ot_out(&t, "SavedVariance", "v");
  ot_ok(&t);
  double tol = dt == IC_FP64 ? 1e-9 : 2e-5;
  tu_assert_shape(t.out[0], dt, nd, xd);
  tu_assert_close(t.out[0], y, total, tol, tol);
  tu_assert_shape(t.out[1], dt, 1, TU_DIMS(n * c));
  tu_assert_close(t.out[1], m, (size_t)(n * c), tol, tol);
  tu_assert_close(t.out[2], v, (size_t)(n * c), tol, tol);
  free(y), free(m), free(v), free(xv), free(sv), free(bv);
  ot_end(&t);
}

START_TEST(instance_norm_modes) {
  for (int f = 0; f < 2; f++) {
    ic_dtype dt = f ? IC_FP64 : IC_FP32;
    run_in(dt, 4, TU_DIMS(2, 3, 4, 5), true);
    run_in(dt, 4, TU_DIMS(2, 3, 4, 5), false);
    run_in(dt, 3, TU_DIMS(2, 4, 7), true);
    run_in(dt, 5, TU_DIMS(1, 2, 2, 3, 2), true);
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(1, TU_DIMS(4), 1, -1, 1));
  ot_op(&t, "instance_norm");
  ic_builder_in(t.op, "X", "x");
  ot_out(&t, "Y", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "instance_norm", "input X 'x'", "rank 2 to 5", NULL);
  ot_end(&t);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * grid_sampler
 * ------------------------------------------------------------------------------------- */

/* A grid coordinate g of an axis of size n to a pixel coordinate after padding, in double. */
static double gs_coord(double g, int64_t n, bool align, const char *pad) {
  const double max = (double)(n - 1);
  double v = align ? (g + 1) / 2 * max : ((g + 1) * (double)n - 1) / 2;
  if (!strcmp(pad, "border")) return fmin(fmax(v, 0), max);
  if (!strcmp(pad, "reflection")) {
    /* mirror about lo and hi until inside */
    double lo = align ? 0 : -0.5, hi = align ? max : max + 0.5;
    if (hi <= lo) return 0;
    double span = hi - lo, t = fmod(fabs(v - lo), 2 * span);
    v = lo + (t <= span ? t : 2 * span - t);
    return fmin(fmax(v, 0), max);
  }
  return v;
}

static void run_gs(ic_dtype dt, int sp, const char *mode, const char *pad, bool align) {
  int64_t xd[5] = {2, 3, 3, 4, 5}, gd[5] = {2, 3, 4, 2, sp};
  if (sp == 2) xd[2] = 4, xd[3] = 5, gd[3] = 2;
  ic_tensor *x = tu_rand_f32(sp + 2, xd, 51, -1, 1);
  ic_tensor *g = tu_rand_f32(sp + 2, gd, 52, -1.4f, 1.4f);
  double *xv = as_double(x), *gv = as_double(g);
  if (dt == IC_FP64) {
    ic_tensor *t;
    t = to_f64(x), ic_tensor_destroy(x), x = t;
    t = to_f64(g), ic_tensor_destroy(g), g = t;
  }
  const int64_t N = xd[0], C = xd[1], *sz = xd + 2;
  const int64_t S = ot_numel(sp, sz), P = ot_numel(sp, gd + 1);
  double *ref = malloc((size_t)(N * C * P) * sizeof *ref);
  for (int64_t n = 0; n < N; n++)
    for (int64_t p = 0; p < P; p++) {
      double co[3]; /* by axis: (z,) y, x */
      for (int a = 0; a < sp; a++) {
        co[sp - 1 - a] = gs_coord(gv[(n * P + p) * sp + a], sz[sp - 1 - a], align, pad);
      }
      for (int64_t ch = 0; ch < C; ch++) {
        const double *xs = xv + (n * C + ch) * S;
        double v = 0;
        if (!strcmp(mode, "nearest")) {
          int64_t idx = 0;
          bool in = true;
          for (int a = 0; a < sp; a++) {
            double r = round(co[a]);
            in = in && r >= 0 && r <= (double)(sz[a] - 1);
            idx = idx * sz[a] + (int64_t)r;
          }
          v = in ? xs[idx] : 0;
        } else {
          for (int corner = 0; corner < (1 << sp); corner++) {
            int64_t idx = 0;
            double w = 1;
            bool in = true;
            for (int a = 0; a < sp; a++) {
              double f = floor(co[a]), c = f + ((corner >> a) & 1);
              w *= 1 - fabs(co[a] - c);
              in = in && c >= 0 && c <= (double)(sz[a] - 1);
              idx = idx * sz[a] + (int64_t)c;
            }
            if (in) v += w * xs[idx];
          }
        }
        ref[(n * C + ch) * P + p] = v;
      }
    }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", x);
  ot_feed(&t, "g", g);
  ot_op(&t, "grid_sampler");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "Grid", "g");
  ic_builder_attr_string(t.op, "mode", mode);
  ic_builder_attr_string(t.op, "padding_mode", pad);
  ic_builder_attr_bool(t.op, "align_corners", align);
  ot_out(&t, "Output", "y");
  ot_ok(&t);
  int64_t od[5] = {N, C};
  for (int a = 0; a < sp; a++) od[2 + a] = gd[1 + a];
  tu_assert_shape(t.out[0], dt, sp + 2, od);
  tu_assert_close(t.out[0], ref, (size_t)(N * C * P), 1e-5, 1e-5);
  free(ref);
  free(xv);
  free(gv);
  ot_end(&t);
}

START_TEST(grid_sampler_modes) {
  const char *pads[] = {"zeros", "border", "reflection"};
  for (int f = 0; f < 2; f++)
    for (int sp = 2; sp <= 3; sp++)
      for (int m = 0; m < 2; m++)
        for (int p = 0; p < 3; p++)
          for (int al = 0; al < 2; al++) {
            run_gs(f ? IC_FP64 : IC_FP32, sp, m ? "nearest" : "bilinear", pads[p], al);
          }
  /* a Grid of the wrong shape, and an unknown padding_mode */
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(4, TU_DIMS(1, 2, 3, 3), 1, -1, 1));
  ot_feed(&t, "g", tu_rand_f32(4, TU_DIMS(1, 2, 2, 3), 1, -1, 1));
  ot_op(&t, "grid_sampler");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "Grid", "g");
  ot_out(&t, "Output", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "grid_sampler", "input Grid 'g'", "float32[1, 2, 2, 3]",
                "expected float32[1, OH, OW, 2]", NULL);
  ot_end(&t);
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(4, TU_DIMS(1, 2, 3, 3), 1, -1, 1));
  ot_feed(&t, "g", tu_rand_f32(4, TU_DIMS(1, 2, 2, 2), 1, -1, 1));
  ot_op(&t, "grid_sampler");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "Grid", "g");
  ic_builder_attr_string(t.op, "padding_mode", "wrap");
  ot_out(&t, "Output", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "grid_sampler", "'padding_mode'", "wrap", NULL);
  ot_end(&t);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * conv3d, pool3d
 * ------------------------------------------------------------------------------------- */

typedef struct c3case {
  int64_t n, c, in[3], oc, k[3];
  int groups;
  int s[3], d[3];         /* 0: 1 */
  int npads;
  int pads[6];
  const char *algo;
  bool ndhwc;
} c3case;

static void run_c3(const c3case *k, ic_dtype dt) {
  int64_t s[3], d[3], p[6] = {0}, out[3];
  for (int i = 0; i < 3; i++) {
    s[i] = k->s[i] ? k->s[i] : 1;
    d[i] = k->d[i] ? k->d[i] : 1;
    if (k->npads == 3) p[2 * i] = p[2 * i + 1] = k->pads[i];
    if (k->npads == 6) p[2 * i] = k->pads[2 * i], p[2 * i + 1] = k->pads[2 * i + 1];
    if (k->algo && !strcmp(k->algo, "SAME")) {
      int64_t o = (k->in[i] + s[i] - 1) / s[i], tot = (o - 1) * s[i] + k->k[i] - k->in[i];
      if (tot < 0) tot = 0;
      p[2 * i] = tot / 2, p[2 * i + 1] = tot - tot / 2, d[i] = 1;
    }
    if (k->algo && !strcmp(k->algo, "VALID")) p[2 * i] = p[2 * i + 1] = 0;
    out[i] = (k->in[i] + p[2 * i] + p[2 * i + 1] - (d[i] * (k->k[i] - 1) + 1)) / s[i] + 1;
  }
  const int64_t cg = k->c / k->groups, og = k->oc / k->groups;
  int64_t xd[5] = {k->n, k->c, k->in[0], k->in[1], k->in[2]};
  if (k->ndhwc) xd[1] = k->in[0], xd[2] = k->in[1], xd[3] = k->in[2], xd[4] = k->c;
  ic_tensor *x = tu_rand_f32(5, xd, 61, -1, 1);
  ic_tensor *f = tu_rand_f32(5, TU_DIMS(k->oc, cg, k->k[0], k->k[1], k->k[2]), 62, -0.5f, 0.5f);
  double *xv = as_double(x), *fv = as_double(f);
  if (dt == IC_FP64) {
    ic_tensor *t;
    t = to_f64(x), ic_tensor_destroy(x), x = t;
    t = to_f64(f), ic_tensor_destroy(f), f = t;
  }
  int64_t od[5] = {k->n, k->oc, out[0], out[1], out[2]};
  if (k->ndhwc) od[1] = out[0], od[2] = out[1], od[3] = out[2], od[4] = k->oc;
  const int64_t total = ot_numel(5, od);
  double *ref = malloc((size_t)total * sizeof *ref);
  for (int64_t e = 0; e < total; e++) {
    int64_t i[5];
    ot_unravel(e, 5, od, i);
    int64_t n = i[0], o = k->ndhwc ? i[4] : i[1], z = k->ndhwc ? i[1] : i[2];
    int64_t y = k->ndhwc ? i[2] : i[3], xx = k->ndhwc ? i[3] : i[4], gi = o / og;
    double acc = 0;
    for (int64_t ci = 0; ci < cg; ci++)
      for (int64_t a = 0; a < k->k[0]; a++)
        for (int64_t b = 0; b < k->k[1]; b++)
          for (int64_t cc = 0; cc < k->k[2]; cc++) {
            int64_t iz = z * s[0] - p[0] + a * d[0], iy = y * s[1] - p[2] + b * d[1];
            int64_t ix = xx * s[2] - p[4] + cc * d[2];
            if (iz < 0 || iz >= k->in[0] || iy < 0 || iy >= k->in[1] || ix < 0 || ix >= k->in[2]) {
              continue;
            }
            int64_t ch = gi * cg + ci;
            int64_t xi[5] = {n, ch, iz, iy, ix};
            if (k->ndhwc) xi[1] = iz, xi[2] = iy, xi[3] = ix, xi[4] = ch;
            acc += xv[ot_ravel(5, xd, xi)] *
                   fv[(((o * cg + ci) * k->k[0] + a) * k->k[1] + b) * k->k[2] + cc];
          }
    ref[e] = acc;
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", x);
  ot_feed(&t, "f", f);
  ot_op(&t, "conv3d");
  ic_builder_in(t.op, "Input", "x");
  ic_builder_in(t.op, "Filter", "f");
  ic_builder_attr_ints(t.op, "strides", 3,
                       (const int32_t[]){(int32_t)s[0], (int32_t)s[1], (int32_t)s[2]});
  ic_builder_attr_ints(t.op, "dilations", 3,
                       (const int32_t[]){k->d[0] ? k->d[0] : 1, k->d[1] ? k->d[1] : 1,
                                         k->d[2] ? k->d[2] : 1});
  if (k->npads) ic_builder_attr_ints(t.op, "paddings", (size_t)k->npads, k->pads);
  ic_builder_attr_int(t.op, "groups", k->groups);
  if (k->algo) ic_builder_attr_string(t.op, "padding_algorithm", k->algo);
  ic_builder_attr_string(t.op, "data_format", k->ndhwc ? "NDHWC" : "NCDHW");
  ot_out(&t, "Output", "y");
  ot_ok(&t);
  tu_assert_shape(t.out[0], dt, 5, od);
  tu_assert_close(t.out[0], ref, (size_t)total, dt == IC_FP64 ? 1e-10 : 1e-5,
                  dt == IC_FP64 ? 1e-10 : 1e-5);
  free(ref), free(xv), free(fv);
  ot_end(&t);
}

START_TEST(conv3d_modes) {
  const c3case cases[] = {
      {2, 4, {5, 6, 5}, 3, {3, 2, 3}, 1, {2, 1, 2}, {1, 2, 1}, 6, {1, 0, 1, 1, 0, 2}, NULL, false},
      {1, 4, {4, 4, 3}, 4, {2, 3, 2}, 2, .npads = 3, .pads = {1, 1, 1}},
      {1, 2, {5, 4, 5}, 3, {3, 3, 3}, 1, {2, 2, 2}, {2, 2, 2}, .algo = "SAME"},
      {1, 2, {4, 4, 4}, 2, {2, 2, 2}, 1, .npads = 3, .pads = {3, 3, 3}, .algo = "VALID"},
      {1, 4, {5, 3, 4}, 3, {3, 2, 3}, 1, .npads = 3, .pads = {1, 1, 1}, .ndhwc = true},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    run_c3(&cases[i], IC_FP32);
    run_c3(&cases[i], IC_FP64);
  }
  /* channels that do not match the filter */
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(5, TU_DIMS(1, 3, 4, 4, 4), 1, -1, 1));
  ot_feed(&t, "f", tu_rand_f32(5, TU_DIMS(2, 2, 1, 1, 1), 2, -1, 1));
  ot_op(&t, "conv3d");
  ic_builder_in(t.op, "Input", "x");
  ic_builder_in(t.op, "Filter", "f");
  ot_out(&t, "Output", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "conv3d", "input Input 'x'", "3 channels", "Filter.dims[1] * groups", NULL);
  ot_end(&t);
  /* conv3d_transpose (values: the oracle case conv3d_transpose_modes): a Filter whose rows
   * are not the input channels; an output_size out of [out, out + stride) */
  for (int v = 0; v < 2; v++) {
    ot_begin(&t);
    ot_feed(&t, "x", tu_rand_f32(5, TU_DIMS(1, 3, 2, 2, 2), 1, -1, 1));
    ot_feed(&t, "f", tu_rand_f32(5, v ? TU_DIMS(3, 2, 2, 2, 2) : TU_DIMS(2, 2, 1, 1, 1), 2, -1, 1));
    ot_op(&t, "conv3d_transpose");
    ic_builder_in(t.op, "Input", "x");
    ic_builder_in(t.op, "Filter", "f");
    if (v) {
      ic_builder_attr_ints(t.op, "strides", 3, (int32_t[]){2, 2, 2});
      ic_builder_attr_ints(t.op, "output_size", 3, (int32_t[]){4, 6, 4});
    }
    ot_out(&t, "Output", "y");
    ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
    if (v) {
      tu_assert_msg(t.err, "conv3d_transpose", "output height of 4 to 5", "asks for 6", NULL);
    } else {
      tu_assert_msg(t.err, "conv3d_transpose", "input Input 'x'", "3 channels",
                    "Filter.dims[0] = channels", NULL);
    }
    ot_end(&t);
  }
}
END_TEST

typedef struct p3case {
  const char *type;
  int64_t n, c, in[3];
  int k[3], s[3];
  int npads;
  int pads[6];
  bool ceil, inclusive, global, adaptive, ndhwc;
} p3case;

static void run_p3(const p3case *k, ic_dtype dt) {
  const bool mx = !strcmp(k->type, "max");
  int64_t kk[3], s[3], p[6] = {0}, out[3];
  for (int i = 0; i < 3; i++) {
    kk[i] = k->global ? k->in[i] : k->k[i];
    s[i] = k->s[i] ? k->s[i] : 1;
    if (k->npads == 3) p[2 * i] = p[2 * i + 1] = k->pads[i];
    if (k->npads == 6) p[2 * i] = k->pads[2 * i], p[2 * i + 1] = k->pads[2 * i + 1];
    if (k->global || k->adaptive) p[2 * i] = p[2 * i + 1] = 0;
    out[i] = k->adaptive ? kk[i]
                         : (k->in[i] - kk[i] + p[2 * i] + p[2 * i + 1] + (k->ceil ? s[i] - 1 : 0)) /
                                   s[i] + 1;
  }
  int64_t xd[5] = {k->n, k->c, k->in[0], k->in[1], k->in[2]};
  if (k->ndhwc) xd[1] = k->in[0], xd[2] = k->in[1], xd[3] = k->in[2], xd[4] = k->c;
  ic_tensor *x = tu_rand_f32(5, xd, 71, -1, 1);
  double *xv = as_double(x);
  if (dt == IC_FP64) {
    ic_tensor *t = to_f64(x);
    ic_tensor_destroy(x);
    x = t;
  }
  int64_t od[5] = {k->n, k->c, out[0], out[1], out[2]};
  if (k->ndhwc) od[1] = out[0], od[2] = out[1], od[3] = out[2], od[4] = k->c;
  const int64_t total = ot_numel(5, od);
  double *ref = malloc((size_t)total * sizeof *ref);
  const bool adaptive = k->adaptive && !mx;
  for (int64_t e = 0; e < total; e++) {
    int64_t i[5], o[3];
    ot_unravel(e, 5, od, i);
    int64_t n = i[0], ch = k->ndhwc ? i[4] : i[1];
    for (int a = 0; a < 3; a++) o[a] = k->ndhwc ? i[1 + a] : i[2 + a];
    int64_t lo[3], hi[3], full = 1, clamped = 1;
    for (int a = 0; a < 3; a++) {
      if (adaptive) {
        lo[a] = o[a] * k->in[a] / out[a];
        hi[a] = ((o[a] + 1) * k->in[a] + out[a] - 1) / out[a];
        full *= hi[a] - lo[a];
      } else {
        int64_t st = o[a] * s[a] - p[2 * a], en = st + kk[a];
        if (en > k->in[a] + p[2 * a]) en = k->in[a] + p[2 * a];
        full *= en - st;
        lo[a] = st < 0 ? 0 : st;
        hi[a] = en > k->in[a] ? k->in[a] : en;
      }
      clamped *= hi[a] - lo[a];
    }
    double v = mx ? -FLT_MAX : 0;
    for (int64_t a = lo[0]; a < hi[0]; a++)
      for (int64_t b = lo[1]; b < hi[1]; b++)
        for (int64_t c = lo[2]; c < hi[2]; c++) {
          int64_t xi[5] = {n, ch, a, b, c};
          if (k->ndhwc) xi[1] = a, xi[2] = b, xi[3] = c, xi[4] = ch;
          double e2 = xv[ot_ravel(5, xd, xi)];
          v = mx ? fmax(v, e2) : v + e2;
        }
    if (!mx) v /= (double)(adaptive || k->inclusive ? full : clamped);
    ref[e] = v;
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", x);
  ot_op(&t, "pool3d");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_string(t.op, "pooling_type", k->type);
  ic_builder_attr_ints(t.op, "ksize", 3, k->k);
  ic_builder_attr_ints(t.op, "strides", 3,
                       (const int32_t[]){(int32_t)s[0], (int32_t)s[1], (int32_t)s[2]});
  if (k->npads) ic_builder_attr_ints(t.op, "paddings", (size_t)k->npads, k->pads);
  ic_builder_attr_bool(t.op, "ceil_mode", k->ceil);
  ic_builder_attr_bool(t.op, "exclusive", !k->inclusive);
  ic_builder_attr_bool(t.op, "global_pooling", k->global);
  ic_builder_attr_bool(t.op, "adaptive", k->adaptive);
  ic_builder_attr_string(t.op, "data_format", k->ndhwc ? "NDHWC" : "NCDHW");
  ot_out(&t, "Out", "y");
  ot_ok(&t);
  tu_assert_shape(t.out[0], dt, 5, od);
  tu_assert_close(t.out[0], ref, (size_t)total, 1e-6, 1e-6);
  free(ref), free(xv);
  ot_end(&t);
}

START_TEST(pool3d_modes) {
  const p3case cases[] = {
      {"max", 2, 3, {5, 6, 5}, {2, 3, 2}, {2, 2, 2}, 3, {1, 1, 0}, .ceil = true},
      {"avg", 2, 3, {5, 6, 5}, {3, 3, 3}, {2, 2, 2}, 3, {1, 1, 1}, .ceil = false},
      {"avg", 2, 3, {5, 6, 5}, {3, 3, 3}, {2, 2, 2}, 3, {1, 1, 1}, .inclusive = true},
      {"avg", 1, 2, {4, 5, 4}, {2, 2, 3}, {1, 2, 1}, 6, {0, 1, 1, 0, 2, 1}, .ceil = true},
      {"max", 1, 3, {3, 4, 2}, {1, 1, 1}, .global = true},
      {"avg", 1, 3, {3, 4, 2}, {-1, -1, -1}, .global = true},
      {"avg", 2, 2, {5, 6, 5}, {2, 4, 3}, .adaptive = true},
      {"max", 2, 2, {5, 6, 5}, {2, 3, 2}, .adaptive = true},
      {"avg", 1, 4, {5, 3, 4}, {2, 2, 2}, {1, 2, 1}, .ndhwc = true},
      {"max", 1, 4, {5, 3, 4}, {3, 2, 2}, {1, 1, 1}, 3, {1, 1, 1}, .ndhwc = true},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    run_p3(&cases[i], IC_FP32);
    run_p3(&cases[i], IC_FP64);
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(4, TU_DIMS(1, 3, 4, 4), 1, -1, 1));
  ot_op(&t, "pool3d");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_string(t.op, "pooling_type", "max");
  ic_builder_attr_ints(t.op, "ksize", 3, (const int32_t[]){2, 2, 2});
  ot_out(&t, "Out", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "pool3d", "input X 'x'", "expected rank 5", NULL);
  ot_end(&t);
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(5, TU_DIMS(1, 3, 4, 4, 4), 1, -1, 1));
  ot_op(&t, "pool3d");
  ic_builder_in(t.op, "X", "x");
  ic_builder_attr_string(t.op, "pooling_type", "max");
  ic_builder_attr_ints(t.op, "ksize", 2, (const int32_t[]){2, 2});
  ot_out(&t, "Out", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "pool3d", "'ksize'", "2 values", NULL);
  ot_end(&t);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * deformable_conv, deformable_conv_v1
 * ------------------------------------------------------------------------------------- */

static double dcn_sample(const double *x, int64_t H, int64_t W, double h, double w) {
  if (h <= -1 || w <= -1 || h >= (double)H || w >= (double)W) return 0;
  double fh = floor(h), fw = floor(w), v = 0;
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 2; b++) {
      int64_t y = (int64_t)fh + a, xx = (int64_t)fw + b;
      if (y < 0 || y >= H || xx < 0 || xx >= W) continue;
      v += (1 - fabs(h - (double)y)) * (1 - fabs(w - (double)xx)) * x[y * W + xx];
    }
  return v;
}

static void run_dcn(ic_dtype dt, bool mask, int64_t n, int64_t c, int64_t h, int64_t w,
                    int64_t oc, int64_t kh, int64_t kw, int groups, int dg, int s, int p, int dil) {
  const int64_t oh = (h + 2 * p - (dil * (kh - 1) + 1)) / s + 1;
  const int64_t ow = (w + 2 * p - (dil * (kw - 1) + 1)) / s + 1, kk = kh * kw;
  const int64_t cg = c / groups, og = oc / groups, cpd = c / dg;
  ic_tensor *x = tu_rand_f32(4, TU_DIMS(n, c, h, w), 81, -1, 1);
  ic_tensor *f = tu_rand_f32(4, TU_DIMS(oc, cg, kh, kw), 82, -0.5f, 0.5f);
  ic_tensor *o = tu_rand_f32(4, TU_DIMS(n, 2 * dg * kk, oh, ow), 83, -2.5f, 2.5f);
  ic_tensor *m = tu_rand_f32(4, TU_DIMS(n, dg * kk, oh, ow), 84, 0, 1);
  double *xv = as_double(x), *fv = as_double(f), *ov = as_double(o), *mv = as_double(m);
  if (dt == IC_FP64) {
    ic_tensor *t;
    t = to_f64(x), ic_tensor_destroy(x), x = t;
    t = to_f64(f), ic_tensor_destroy(f), f = t;
    t = to_f64(o), ic_tensor_destroy(o), o = t;
    t = to_f64(m), ic_tensor_destroy(m), m = t;
  }
  const int64_t total = n * oc * oh * ow;
  double *ref = malloc((size_t)total * sizeof *ref);
  for (int64_t e = 0; e < total; e++) {
    int64_t i[4];
    ot_unravel(e, 4, TU_DIMS(n, oc, oh, ow), i);
    const int64_t b = i[0], co = i[1], y = i[2], xx = i[3], gi = co / og;
    double acc = 0;
    for (int64_t ci = 0; ci < cg; ci++) {
      const int64_t ch = gi * cg + ci, d = ch / cpd;
      for (int64_t ky = 0; ky < kh; ky++)
        for (int64_t kx = 0; kx < kw; kx++) {
          const int64_t k = ky * kw + kx, at = y * ow + xx;
          const double dy = ov[((b * 2 * dg + d * 2) * kk + 2 * k) * oh * ow + at];
          const double dx = ov[((b * 2 * dg + d * 2) * kk + 2 * k + 1) * oh * ow + at];
          const double mk = mask ? mv[((b * dg + d) * kk + k) * oh * ow + at] : 1;
          const double v = dcn_sample(xv + (b * c + ch) * h * w, h, w,
                                      (double)(y * s - p + ky * dil) + dy,
                                      (double)(xx * s - p + kx * dil) + dx);
          acc += fv[((co * cg + ci) * kh + ky) * kw + kx] * mk * v;
        }
    }
    ref[e] = acc;
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", x);
  ot_feed(&t, "f", f);
  ot_feed(&t, "o", o);
  if (mask) ot_feed(&t, "m", m);
  else ic_tensor_destroy(m);
  ot_op(&t, mask ? "deformable_conv" : "deformable_conv_v1");
  ic_builder_in(t.op, "Input", "x");
  ic_builder_in(t.op, "Filter", "f");
  ic_builder_in(t.op, "Offset", "o");
  if (mask) ic_builder_in(t.op, "Mask", "m");
  ic_builder_attr_ints(t.op, "strides", 2, (const int32_t[]){s, s});
  ic_builder_attr_ints(t.op, "paddings", 2, (const int32_t[]){p, p});
  ic_builder_attr_ints(t.op, "dilations", 2, (const int32_t[]){dil, dil});
  ic_builder_attr_int(t.op, "groups", groups);
  ic_builder_attr_int(t.op, "deformable_groups", dg);
  ic_builder_attr_int(t.op, "im2col_step", 1);
  ot_out(&t, "Output", "y");
  ot_ok(&t);
  tu_assert_shape(t.out[0], dt, 4, TU_DIMS(n, oc, oh, ow));
  tu_assert_close(t.out[0], ref, (size_t)total, dt == IC_FP64 ? 1e-10 : 1e-4,
                  dt == IC_FP64 ? 1e-10 : 1e-5);
  free(ref), free(xv), free(fv), free(ov), free(mv);
  ot_end(&t);
}

START_TEST(deformable_conv_modes) {
  for (int f = 0; f < 2; f++) {
    ic_dtype dt = f ? IC_FP64 : IC_FP32;
    run_dcn(dt, true, 2, 4, 6, 5, 6, 3, 3, 2, 2, 1, 1, 1);
    run_dcn(dt, true, 1, 3, 7, 6, 4, 3, 2, 1, 3, 2, 0, 2);
    run_dcn(dt, false, 2, 4, 6, 5, 3, 2, 3, 1, 1, 2, 1, 1);
    run_dcn(dt, false, 1, 4, 5, 5, 4, 3, 3, 4, 2, 1, 1, 1); /* depthwise */
  }
  /* an Offset of the wrong size */
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(4, TU_DIMS(1, 2, 4, 4), 1, -1, 1));
  ot_feed(&t, "f", tu_rand_f32(4, TU_DIMS(2, 2, 3, 3), 2, -1, 1));
  ot_feed(&t, "o", tu_rand_f32(4, TU_DIMS(1, 9, 2, 2), 3, -1, 1));
  ot_op(&t, "deformable_conv_v1");
  ic_builder_in(t.op, "Input", "x");
  ic_builder_in(t.op, "Filter", "f");
  ic_builder_in(t.op, "Offset", "o");
  ot_out(&t, "Output", "y");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "deformable_conv_v1", "input Offset 'o'", "expected float32[1, 18, 2, 2]",
                NULL);
  ot_end(&t);
}
END_TEST

static TCase *tc_dense(void) {
  TCase *tc = tcase_create("dense");
  tcase_add_test(tc, conv2d_transpose_modes);
  tcase_add_test(tc, conv2d_transpose_errors);
  tcase_add_test(tc, arg_max_min_modes);
  tcase_add_test(tc, arg_max_errors);
  tcase_add_test(tc, pixel_shuffle_modes);
  tcase_add_test(tc, group_norm_modes);
  tcase_add_test(tc, instance_norm_modes);
  tcase_add_test(tc, grid_sampler_modes);
  tcase_add_test(tc, conv3d_modes);
  tcase_add_test(tc, pool3d_modes);
  tcase_add_test(tc, deformable_conv_modes);
  return tc;
}

TU_MAIN("ops_dense", tc_dense)
