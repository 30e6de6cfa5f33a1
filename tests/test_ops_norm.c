/* batch_norm, layer_norm and fill_constant_batch_size_like against plain double loops. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"
#include "program/program.h"
#include "cases_norm.h"
#include "testutil.h"

/* ---------------------------------------------------------------------------------------
 * helpers
 * ------------------------------------------------------------------------------------- */

static double *to_double(const ic_tensor *t) {
  int64_t n = ic_tensor_numel(t);
  double *d = malloc((size_t)(n ? n : 1) * sizeof *d);
  for (int64_t i = 0; i < n; i++) {
    d[i] = ic_tensor_dtype(t) == IC_FP64 ? ((const double *)ic_tensor_cdata(t))[i]
                                          : ((const float *)ic_tensor_cdata(t))[i];
  }
  return d;
}

static ic_tensor *rand_pos(int64_t n, uint64_t seed) { /* variances: in [0.2, 2) */
  return tu_rand_f32(1, TU_DIMS(n), seed, 0.2f, 2.0f);
}

static ic_tensor *f32_to_f64(const ic_tensor *t) {
  double *d = to_double(t);
  ic_tensor *r = tu_f64(ic_tensor_ndim(t), ic_tensor_dims(t), d);
  free(d);
  return r;
}

static void destroy_all(ic_tensor **t, size_t n) {
  for (size_t i = 0; i < n; i++) ic_tensor_destroy(t[i]);
}

/* Declare a float variable of unknown dims of the given rank (feeds of any size fit). */
static void var_any(ic_builder *b, const char *name, ic_dtype dt, int ndim) {
  int64_t dims[IC_MAX_RANK];
  for (int i = 0; i < ndim; i++) dims[i] = -1;
  tu_var(b, name, dt, ndim, dims);
}

/* ---------------------------------------------------------------------------------------
 * batch_norm
 * ------------------------------------------------------------------------------------- */

typedef cbn_case bn_case;

static int64_t bn_channels(const bn_case *k) { return k->nhwc ? k->dims[k->ndim - 1] : k->dims[1]; }

/* The program: feeds x, scale, bias, mean, var; Mean/MeanOut and Variance/VarianceOut are the
 * same variables, as in exported programs. Fetches y, mean, var (and saved_* when training). */
static ic_builder *bn_program(const bn_case *k) {
  ic_builder *b = ic_builder_create();
  var_any(b, "x", k->dt, k->ndim);
  var_any(b, "y", k->dt, k->ndim);
  const char *vecs[] = {"scale", "bias", "mean", "var", "saved_mean", "saved_var"};
  for (size_t i = 0; i < 6; i++) var_any(b, vecs[i], k->f32_params ? IC_FP32 : k->dt, 1);
  ic_builder_feed(b, "x");
  if (k->scale) ic_builder_feed(b, "scale");
  if (k->bias) ic_builder_feed(b, "bias");
  ic_builder_feed(b, "mean");
  ic_builder_feed(b, "var");
  ic_builder_op *op = ic_builder_add_op(b, 0, "batch_norm");
  ic_builder_in(op, "X", "x");
  if (k->scale) ic_builder_in(op, "Scale", "scale");
  if (k->bias) ic_builder_in(op, "Bias", "bias");
  ic_builder_in(op, "Mean", "mean");
  ic_builder_in(op, "Variance", "var");
  ic_builder_input(op, "MomentumTensor", 0, NULL);
  ic_builder_out(op, "Y", "y");
  ic_builder_out(op, "MeanOut", "mean");
  ic_builder_out(op, "VarianceOut", "var");
  ic_builder_out(op, "SavedMean", "saved_mean");
  ic_builder_out(op, "SavedVariance", "saved_var");
  if (k->eps >= 0) ic_builder_attr_float(op, "epsilon", (float)k->eps);
  if (k->momentum >= 0) ic_builder_attr_float(op, "momentum", (float)k->momentum);
  ic_builder_attr_string(op, "data_layout", k->nhwc ? "NHWC" : "NCHW");
  ic_builder_attr_bool(op, "is_test", k->is_test);
  ic_builder_attr_bool(op, "use_global_stats", k->use_global_stats);
  ic_builder_attr_bool(op, "trainable_statistics", k->trainable_statistics);
  ic_builder_fetch(b, "y");
  ic_builder_fetch(b, "mean");
  ic_builder_fetch(b, "var");
  return b;
}

/* Index of channel of flat element i. */
static int64_t bn_chan_of(const bn_case *k, int64_t i) {
  int64_t C = bn_channels(k);
  if (k->nhwc) return i % C;
  int64_t inner = 1;
  for (int d = 2; d < k->ndim; d++) inner *= k->dims[d];
  return (i / inner) % C;
}

/* Run one case and compare Y, MeanOut, VarianceOut (and SavedMean/SavedVariance in training)
 * with the double reference. */
static void bn_check(const bn_case *k, uint64_t seed) {
  const double eps = k->eps >= 0 ? (double)(float)k->eps : (double)1e-5f;
  const double mom = k->momentum >= 0 ? (double)(float)k->momentum : (double)0.9f;
  const bool global = (k->is_test && !k->trainable_statistics) || k->use_global_stats;
  const int64_t C = bn_channels(k);
  ic_tensor *x = tu_rand_f32(k->ndim, k->dims, seed, -3.0f, 5.0f);
  ic_tensor *scale = tu_rand_f32(1, TU_DIMS(C), seed + 1, -2.0f, 2.0f);
  ic_tensor *bias = tu_rand_f32(1, TU_DIMS(C), seed + 2, -1.0f, 1.0f);
  ic_tensor *mean = tu_rand_f32(1, TU_DIMS(C), seed + 3, -1.0f, 1.0f);
  ic_tensor *var = rand_pos(C, seed + 4);
  if (k->dt == IC_FP64) {
    ic_tensor *all[] = {x, scale, bias, mean, var};
    ic_tensor **pp[] = {&x, &scale, &bias, &mean, &var};
    for (size_t i = 0; i < 5; i++) *pp[i] = f32_to_f64(all[i]);
    destroy_all(all, 5);
  }
  double *xd = to_double(x), *sd = to_double(scale), *bd = to_double(bias),
         *md = to_double(mean), *vd = to_double(var);
  const int64_t n = ic_tensor_numel(x);
  /* reference statistics */
  double *bm = calloc((size_t)C, sizeof *bm), *bv = calloc((size_t)C, sizeof *bv);
  int64_t *cnt = calloc((size_t)C, sizeof *cnt);
  for (int64_t i = 0; i < n; i++) {
    bm[bn_chan_of(k, i)] += xd[i];
    cnt[bn_chan_of(k, i)]++;
  }
  for (int64_t c = 0; c < C; c++) bm[c] /= (double)cnt[c];
  for (int64_t i = 0; i < n; i++) {
    double d = xd[i] - bm[bn_chan_of(k, i)];
    bv[bn_chan_of(k, i)] += d * d;
  }
  for (int64_t c = 0; c < C; c++) bv[c] /= (double)cnt[c];
  const bool single = !global && cnt[0] == 1;
  double *y = malloc((size_t)n * sizeof *y);
  for (int64_t i = 0; i < n; i++) {
    int64_t c = bn_chan_of(k, i);
    double m = global ? md[c] : bm[c], v = global ? vd[c] : bv[c];
    double s = k->scale ? sd[c] : 1.0, bb = k->bias ? bd[c] : 0.0;
    y[i] = single ? xd[i] : (xd[i] - m) / sqrt(v + eps) * s + bb;
  }
  double *mo = malloc((size_t)C * sizeof *mo), *vo = malloc((size_t)C * sizeof *vo);
  double *smo = malloc((size_t)C * sizeof *smo), *svo = malloc((size_t)C * sizeof *svo);
  for (int64_t c = 0; c < C; c++) {
    bool upd = !global && !single;
    mo[c] = upd ? md[c] * mom + bm[c] * (1 - mom) : md[c];
    vo[c] = upd ? vd[c] * mom + bv[c] * (1 - mom) : vd[c];
    smo[c] = single ? 0 : bm[c];
    svo[c] = single ? 0 : 1.0 / sqrt(bv[c] + eps);
  }

  ic_builder *b = bn_program(k);
  if (!global) {
    ic_builder_fetch(b, "saved_mean");
    ic_builder_fetch(b, "saved_var");
  }
  ic_tensor *feeds[5] = {x, mean, var, NULL, NULL};
  const char *feed_names[5] = {"x", "mean", "var", NULL, NULL};
  size_t nf = 3;
  if (k->scale) feed_names[nf] = "scale", feeds[nf++] = scale;
  if (k->bias) feed_names[nf] = "bias", feeds[nf++] = bias;
  ic_tensor *out[5] = {0};
  char err[1024];
  size_t nfetch = global ? 3 : 5;
  ck_assert_msg(tu_run(b, nf, feed_names, feeds, nfetch,
                       TU_NAMES("y", "mean", "var", "saved_mean", "saved_var"), out, err,
                       sizeof err) == IC_OK,
                "%s", err);
  tu_assert_shape(out[0], k->dt, k->ndim, k->dims);
  double tol = k->dt == IC_FP64 ? 1e-12 : 1e-5;
  tu_assert_close(out[0], y, (size_t)n, tol, tol * 0.1);
  if (global) {
    /* the running statistics are passed through untouched, bit for bit */
    tu_assert_bitwise(out[1], mean, "MeanOut");
    tu_assert_bitwise(out[2], var, "VarianceOut");
  } else {
    tu_assert_close(out[1], mo, (size_t)C, tol, tol * 0.1);
    tu_assert_close(out[2], vo, (size_t)C, tol, tol * 0.1);
    tu_assert_close(out[3], smo, (size_t)C, tol, tol * 0.1);
    tu_assert_close(out[4], svo, (size_t)C, tol, tol * 0.1);
  }
  destroy_all(out, nfetch);
  ic_tensor *ins[] = {x, scale, bias, mean, var};
  destroy_all(ins, 5);
  free(xd), free(sd), free(bd), free(md), free(vd), free(bm), free(bv), free(cnt), free(y);
  free(mo), free(vo), free(smo), free(svo);
  ic_builder_destroy(b);
}

static bn_case bn_infer(int ndim, const int64_t *dims, bool nhwc) {
  bn_case k = {.ndim = ndim, .nhwc = nhwc, .scale = true, .bias = true, .eps = 1e-5,
               .momentum = 0.9, .is_test = true, .dt = IC_FP32};
  memcpy(k.dims, dims, (size_t)ndim * sizeof *dims);
  return k;
}

/* Every batch_norm row of the shared table cases_norm.h (the CUDA suite runs the same). */
START_TEST(bn_table) {
  for (size_t i = 0; i < CBN_N_CASES; i++) bn_check(&cbn_cases[i], 10 + i);
}
END_TEST

/* Parameters in a scope as persistables, the way real models run: inference leaves them
 * unchanged, training updates the scope's running statistics. */
START_TEST(bn_persistable_statistics) {
  for (int train = 0; train < 2; train++) {
    ic_builder *b = ic_builder_create();
    tu_var(b, "x", IC_FP32, 4, TU_DIMS(-1, 3, -1, -1));
    tu_var(b, "y", IC_FP32, 4, TU_DIMS(-1, 3, -1, -1));
    const char *params[] = {"bn.w_0", "bn.b_0", "bn.w_1", "bn.w_2"};
    for (size_t i = 0; i < 4; i++) ic_builder_var(b, 0, params[i], IC_FP32, 1, TU_DIMS(3), true);
    tu_var(b, "bn.tmp_0", IC_FP32, 1, TU_DIMS(3));
    tu_var(b, "bn.tmp_1", IC_FP32, 1, TU_DIMS(3));
    ic_builder_feed(b, "x");
    ic_builder_op *op = ic_builder_add_op(b, 0, "batch_norm");
    ic_builder_in(op, "X", "x");
    ic_builder_in(op, "Scale", "bn.w_0");
    ic_builder_in(op, "Bias", "bn.b_0");
    ic_builder_in(op, "Mean", "bn.w_1");
    ic_builder_in(op, "Variance", "bn.w_2");
    ic_builder_out(op, "Y", "y");
    ic_builder_out(op, "MeanOut", "bn.w_1");
    ic_builder_out(op, "VarianceOut", "bn.w_2");
    ic_builder_out(op, "SavedMean", "bn.tmp_0");
    ic_builder_out(op, "SavedVariance", "bn.tmp_1");
    ic_builder_attr_bool(op, "is_test", !train);
    ic_builder_fetch(b, "y");
    ic_program *p;
    char err[1024];
    ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
    ic_scope *scope;
    ck_assert_int_eq(ic_scope_create(NULL, &scope), IC_OK);
    const float w[3] = {1.5f, -0.5f, 2.0f}, bb[3] = {0.1f, 0.2f, -0.3f},
                m[3] = {0.5f, -1.0f, 0.25f}, v[3] = {1.0f, 4.0f, 0.5f};
    const float *vals[] = {w, bb, m, v};
    for (size_t i = 0; i < 4; i++) {
      ic_tensor *t = tu_f32(1, TU_DIMS(3), vals[i]);
      ck_assert_int_eq(ic_scope_set(scope, params[i], t), IC_OK);
      ic_tensor_destroy(t);
    }
    ic_tensor *x = tu_rand_f32(4, TU_DIMS(2, 3, 2, 3), 77, -2, 2);
    const float *xf = ic_tensor_cdata(x);
    ic_tensor *out[1];
    if (train) {
      /* one run exactly: every run moves the running statistics once more */
      ic_executor *e;
      ck_assert_int_eq(ic_executor_create(NULL, &e), IC_OK);
      ck_assert_msg(ic_executor_run(e, p, scope, 1, TU_NAMES("x"),
                                    (const ic_tensor *const *)&x, 1, TU_NAMES("y"), out) == IC_OK,
                    "%s", ic_executor_errmsg(e));
      ic_executor_destroy(e); /* before the scope: its statistics must not need the executor */
    } else {
      ck_assert_msg(tu_run_scope(p, scope, 1, TU_NAMES("x"), &x, 1, TU_NAMES("y"), out, err,
                                 sizeof err) == IC_OK,
                    "%s", err);
    }
    double ref[36], bm[3] = {0}, bv[3] = {0};
    for (int i = 0; i < 36; i++) bm[(i / 6) % 3] += xf[i] / 12.0;
    for (int i = 0; i < 36; i++) {
      double dev = xf[i] - bm[(i / 6) % 3];
      bv[(i / 6) % 3] += dev * dev / 12.0;
    }
    for (int i = 0; i < 36; i++) {
      int c = (i / 6) % 3;
      double mm = train ? bm[c] : m[c], vv = train ? bv[c] : v[c];
      ref[i] = (xf[i] - mm) / sqrt(vv + (double)1e-5f) * w[c] + bb[c];
    }
    tu_assert_close(out[0], ref, 36, 1e-5, 1e-6);
    const ic_tensor *mean_after = ic_scope_get(scope, "bn.w_1");
    const ic_tensor *var_after = ic_scope_get(scope, "bn.w_2");
    double mref[3], vref[3];
    for (int c = 0; c < 3; c++) {
      mref[c] = train ? m[c] * (double)0.9f + bm[c] * (1 - (double)0.9f) : m[c];
      vref[c] = train ? v[c] * (double)0.9f + bv[c] * (1 - (double)0.9f) : v[c];
    }
    tu_assert_close(mean_after, mref, 3, train ? 1e-6 : 0, 0);
    tu_assert_close(var_after, vref, 3, train ? 1e-6 : 0, 0);
    ic_tensor_destroy(out[0]);
    ic_tensor_destroy(x);
    ic_scope_destroy(scope);
    ic_program_destroy(p);
    ic_builder_destroy(b);
  }
}
END_TEST

START_TEST(bn_bad_inputs) {
  char err[1024];
  ic_tensor *out[3];
  ic_tensor *x1 = tu_f32(1, TU_DIMS(3), NULL), *x = tu_f32(2, TU_DIMS(4, 3), NULL);
  ic_tensor *s3 = tu_f32(1, TU_DIMS(3), NULL), *s4 = tu_f32(1, TU_DIMS(4), NULL);
  ic_tensor *v3 = rand_pos(3, 1);
  ic_tensor *x64 = tu_f64(2, TU_DIMS(4, 3), NULL);
  /* X of rank 1 */
  bn_case k = bn_infer(1, TU_DIMS(3), false);
  ic_builder *b = bn_program(&k);
  ck_assert_int_eq(tu_run(b, 5, TU_NAMES("x", "scale", "bias", "mean", "var"),
                          (ic_tensor *[]){x1, s3, s3, s3, v3}, 3, TU_NAMES("y", "mean", "var"),
                          out, err, sizeof err),
                   IC_ERR_SHAPE);
  tu_assert_msg(err, "batch_norm", "input X 'x'", "float32[3]", "rank 2 to 5", NULL);
  ic_builder_destroy(b);
  /* Scale of the wrong size, Variance of the wrong dtype */
  k.ndim = 2;
  b = bn_program(&k);
  ck_assert_int_eq(tu_run(b, 5, TU_NAMES("x", "scale", "bias", "mean", "var"),
                          (ic_tensor *[]){x, s4, s3, s3, v3}, 3, TU_NAMES("y", "mean", "var"),
                          out, err, sizeof err),
                   IC_ERR_SHAPE);
  tu_assert_msg(err, "input Scale 'scale'", "float32[4]", "expected [3]", NULL);
  ic_builder_destroy(b);
  /* float64 X with float32 statistics */
  k.dt = IC_FP64, k.f32_params = true;
  b = bn_program(&k);
  ck_assert_int_eq(tu_run(b, 5, TU_NAMES("x", "scale", "bias", "mean", "var"),
                          (ic_tensor *[]){x64, s3, s3, s3, v3}, 3,
                          TU_NAMES("y", "mean", "var"), out, err, sizeof err),
                   IC_ERR_SHAPE);
  tu_assert_msg(err, "input Scale 'scale'", "float32[3]", "expected dtype float64 like X", NULL);
  ic_builder_destroy(b);
  /* NHWC: channels are the last dim, so a [3] Scale does not fit [4, 3, 2] */
  k = bn_infer(3, TU_DIMS(4, 3, 2), true);
  b = bn_program(&k);
  ic_tensor *x3 = tu_f32(3, TU_DIMS(4, 3, 2), NULL);
  ck_assert_int_eq(tu_run(b, 5, TU_NAMES("x", "scale", "bias", "mean", "var"),
                          (ic_tensor *[]){x3, s3, s3, s3, v3}, 3, TU_NAMES("y", "mean", "var"),
                          out, err, sizeof err),
                   IC_ERR_SHAPE);
  tu_assert_msg(err, "input Scale 'scale'", "expected [2]", "NHWC", NULL);
  ic_builder_destroy(b);
  /* an empty batch (Paddle 3 rejects dims of 0) */
  k = bn_infer(2, TU_DIMS(0, 3), false);
  b = bn_program(&k);
  ic_tensor *x0 = tu_f32(2, TU_DIMS(0, 3), NULL);
  ck_assert_int_eq(tu_run(b, 5, TU_NAMES("x", "scale", "bias", "mean", "var"),
                          (ic_tensor *[]){x0, s3, s3, s3, v3}, 3, TU_NAMES("y", "mean", "var"),
                          out, err, sizeof err),
                   IC_ERR_SHAPE);
  tu_assert_msg(err, "input X 'x'", "float32[0, 3]", "dim 0 is empty", NULL);
  ic_builder_destroy(b);
  /* attribute errors: epsilon beyond Paddle's 0.001, unknown and AnyLayout layouts */
  k = bn_infer(2, TU_DIMS(4, 3), false);
  k.eps = 0.01;
  b = bn_program(&k);
  ic_tensor *feeds[] = {x, s3, s3, s3, v3};
  const char *const *names = TU_NAMES("x", "scale", "bias", "mean", "var");
  ck_assert_int_eq(tu_run(b, 5, names, feeds, 3, TU_NAMES("y", "mean", "var"), out, err,
                          sizeof err),
                   IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "batch_norm", "'epsilon'", "0.01", "[0, 0.001]", NULL);
  ic_builder_destroy(b);
  const char *layouts[] = {"NCWH", "AnyLayout"};
  const ic_status codes[] = {IC_ERR_INVALID_PROGRAM, IC_ERR_UNSUPPORTED};
  for (int i = 0; i < 2; i++) {
    ic_builder *bb = ic_builder_create();
    var_any(bb, "x", IC_FP32, 2);
    var_any(bb, "y", IC_FP32, 2);
    for (int j = 1; j < 5; j++) var_any(bb, names[j], IC_FP32, 1);
    for (int j = 0; j < 5; j++) ic_builder_feed(bb, names[j]);
    ic_builder_op *op = ic_builder_add_op(bb, 0, "batch_norm");
    ic_builder_in(op, "X", "x");
    ic_builder_in(op, "Scale", "scale");
    ic_builder_in(op, "Bias", "bias");
    ic_builder_in(op, "Mean", "mean");
    ic_builder_in(op, "Variance", "var");
    ic_builder_out(op, "Y", "y");
    ic_builder_attr_string(op, "data_layout", layouts[i]);
    ic_builder_attr_bool(op, "is_test", true);
    ic_builder_fetch(bb, "y");
    ck_assert_int_eq(tu_run(bb, 5, names, feeds, 1, TU_NAMES("y"), out, err, sizeof err),
                     codes[i]);
    tu_assert_msg(err, "batch_norm", "'data_layout'", layouts[i], NULL);
    ic_builder_destroy(bb);
  }
  ic_tensor *all[] = {x1, x, s3, s4, v3, x64, x3, x0};
  destroy_all(all, 8);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * layer_norm
 * ------------------------------------------------------------------------------------- */

typedef cln_case ln_case;

static void ln_check(const ln_case *k, uint64_t seed) {
  const int axis = k->axis < 0 ? 1 : k->axis;
  const double eps = k->eps >= 0 ? (double)(float)k->eps : (double)1e-5f;
  int64_t left = 1, right = 1;
  for (int d = 0; d < k->ndim; d++) *(d < axis ? &left : &right) *= k->dims[d];
  ic_tensor *x = tu_rand_f32(k->ndim, k->dims, seed, -4.0f, 6.0f);
  ic_tensor *s = tu_rand_f32(1, TU_DIMS(right), seed + 1, -2.0f, 2.0f);
  ic_tensor *bi = tu_rand_f32(1, TU_DIMS(right), seed + 2, -1.0f, 1.0f);
  if (k->dt == IC_FP64) {
    ic_tensor *a = f32_to_f64(x), *b2 = f32_to_f64(s), *c2 = f32_to_f64(bi);
    ic_tensor_destroy(x), ic_tensor_destroy(s), ic_tensor_destroy(bi);
    x = a, s = b2, bi = c2;
  }
  double *xd = to_double(x), *sd = to_double(s), *bd = to_double(bi);
  double *y = malloc((size_t)(left * right + 1) * sizeof *y);
  double *m = malloc((size_t)(left + 1) * sizeof *m), *v = malloc((size_t)(left + 1) * sizeof *v);
  for (int64_t r = 0; r < left; r++) {
    double sum = 0, sq = 0;
    for (int64_t i = 0; i < right; i++) sum += xd[r * right + i];
    m[r] = right ? sum / (double)right : 0;
    for (int64_t i = 0; i < right; i++) sq += pow(xd[r * right + i] - m[r], 2);
    v[r] = right ? sq / (double)right : 0;
    for (int64_t i = 0; i < right; i++) {
      double t = (xd[r * right + i] - m[r]) / sqrt(v[r] + eps);
      y[r * right + i] = t * (k->scale ? sd[i] : 1) + (k->bias ? bd[i] : 0);
    }
  }
  ic_builder *b = ic_builder_create();
  var_any(b, "x", k->dt, k->ndim);
  var_any(b, "y", k->dt, k->ndim);
  var_any(b, "scale", k->dt, 1);
  var_any(b, "bias", k->dt, 1);
  var_any(b, "mean", k->dt, axis);
  var_any(b, "var", k->dt, axis);
  ic_builder_feed(b, "x");
  if (k->scale) ic_builder_feed(b, "scale");
  if (k->bias) ic_builder_feed(b, "bias");
  ic_builder_op *op = ic_builder_add_op(b, 0, "layer_norm");
  ic_builder_in(op, "X", "x");
  if (k->scale) ic_builder_in(op, "Scale", "scale");
  if (k->bias) ic_builder_in(op, "Bias", "bias");
  ic_builder_out(op, "Y", "y");
  if (!k->no_stats) {
    ic_builder_out(op, "Mean", "mean");
    ic_builder_out(op, "Variance", "var");
  }
  if (k->axis >= 0) ic_builder_attr_int(op, "begin_norm_axis", k->axis);
  if (k->eps >= 0) ic_builder_attr_float(op, "epsilon", (float)k->eps);
  ic_builder_fetch(b, "y");
  if (!k->no_stats) {
    ic_builder_fetch(b, "mean");
    ic_builder_fetch(b, "var");
  }
  ic_tensor *feeds[3] = {x};
  const char *names[3] = {"x"};
  size_t nf = 1;
  if (k->scale) names[nf] = "scale", feeds[nf++] = s;
  if (k->bias) names[nf] = "bias", feeds[nf++] = bi;
  ic_tensor *out[3];
  const size_t nout = k->no_stats ? 1 : 3;
  char err[1024];
  ck_assert_msg(tu_run(b, nf, names, feeds, nout, TU_NAMES("y", "mean", "var"), out, err,
                       sizeof err) == IC_OK,
                "%s", err);
  tu_assert_shape(out[0], k->dt, k->ndim, k->dims);
  double tol = k->dt == IC_FP64 ? 1e-12 : 2e-6;
  tu_assert_close(out[0], y, (size_t)(left * right), tol, tol);
  if (!k->no_stats) {
    tu_assert_shape(out[1], k->dt, axis, k->dims); /* Paddle 3: dims[0, begin_norm_axis) */
    tu_assert_shape(out[2], k->dt, axis, k->dims);
    tu_assert_close(out[1], m, (size_t)left, tol, tol);
    tu_assert_close(out[2], v, (size_t)left, tol, tol);
  }
  destroy_all(out, nout);
  ic_tensor_destroy(x), ic_tensor_destroy(s), ic_tensor_destroy(bi);
  free(xd), free(sd), free(bd), free(y), free(m), free(v);
  ic_builder_destroy(b);
}

/* Every layer_norm row of the shared table cases_norm.h (the CUDA suite runs the same). */
START_TEST(ln_table) {
  for (size_t i = 0; i < CLN_N_CASES; i++) ln_check(&cln_cases[i], 100 + i);
}
END_TEST

START_TEST(ln_bad_inputs) {
  char err[1024];
  ic_tensor *out[1];
  ic_tensor *x = tu_f32(3, TU_DIMS(2, 3, 4), NULL), *s5 = tu_f32(1, TU_DIMS(5), NULL);
  for (int variant = 0; variant < 4; variant++) {
    ic_builder *b = ic_builder_create();
    var_any(b, "x", IC_FP32, 3);
    var_any(b, "y", IC_FP32, 3);
    var_any(b, "ln.w", IC_FP32, 1);
    ic_builder_feed(b, "x");
    ic_builder_feed(b, "ln.w");
    ic_builder_op *op = ic_builder_add_op(b, 0, "layer_norm");
    ic_builder_in(op, "X", "x");
    ic_builder_in(op, "Scale", "ln.w");
    ic_builder_out(op, "Y", "y");
    int axis[] = {0, 3, 2, 1};
    ic_builder_attr_int(op, "begin_norm_axis", axis[variant]);
    if (variant == 3) ic_builder_attr_float(op, "epsilon", 0.01f);
    ic_builder_fetch(b, "y");
    ic_status st = tu_run(b, 2, TU_NAMES("x", "ln.w"), (ic_tensor *[]){x, s5}, 1,
                          TU_NAMES("y"), out, err, sizeof err);
    if (variant < 2) {
      ck_assert_int_eq(st, IC_ERR_SHAPE);
      tu_assert_msg(err, "layer_norm", "input X 'x'", "float32[2, 3, 4]", "'begin_norm_axis'",
                    "[1, 3)", NULL);
    } else if (variant == 2) {
      ck_assert_int_eq(st, IC_ERR_SHAPE);
      tu_assert_msg(err, "input Scale 'ln.w'", "float32[5]", "expected [4]", NULL);
    } else {
      ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
      tu_assert_msg(err, "layer_norm", "'epsilon'", "[0, 0.001]", NULL);
    }
    ic_builder_destroy(b);
  }
  ic_tensor_destroy(x);
  ic_tensor_destroy(s5);
}
END_TEST

/* spectral_norm: dim 2 (Paddle allows 0 and 1), a U of the wrong length, a 1-D Weight. */
START_TEST(sn_bad_inputs) {
  char err[1024];
  ic_tensor *out[1];
  for (int variant = 0; variant < 3; variant++) {
    const int64_t wdims[2][4] = {{4, 3, 2, 2}, {6}};
    const int wnd = variant == 2 ? 1 : 4;
    ic_tensor *w = tu_f32(wnd, wdims[variant == 2], NULL);
    ic_tensor *u = tu_f32(1, TU_DIMS(variant == 1 ? 5 : 4), NULL);
    ic_tensor *v = tu_f32(1, TU_DIMS(12), NULL);
    ic_builder *b = ic_builder_create();
    var_any(b, "w", IC_FP32, wnd);
    var_any(b, "u", IC_FP32, 1);
    var_any(b, "v", IC_FP32, 1);
    var_any(b, "y", IC_FP32, wnd);
    ic_builder_feed(b, "w");
    ic_builder_feed(b, "u");
    ic_builder_feed(b, "v");
    ic_builder_op *op = ic_builder_add_op(b, 0, "spectral_norm");
    ic_builder_in(op, "Weight", "w");
    ic_builder_in(op, "U", "u");
    ic_builder_in(op, "V", "v");
    ic_builder_out(op, "Out", "y");
    ic_builder_attr_int(op, "dim", variant == 0 ? 2 : 0);
    ic_builder_fetch(b, "y");
    ic_status st = tu_run(b, 3, TU_NAMES("w", "u", "v"), (ic_tensor *[]){w, u, v}, 1,
                          TU_NAMES("y"), out, err, sizeof err);
    if (variant == 0) {
      ck_assert_int_eq(st, IC_ERR_INVALID_PROGRAM);
      tu_assert_msg(err, "spectral_norm", "'dim'", "is 2", "expected 0 or 1", NULL);
    } else if (variant == 1) {
      ck_assert_int_eq(st, IC_ERR_SHAPE);
      tu_assert_msg(err, "spectral_norm", "input U 'u'", "expected float32[4]", NULL);
    } else {
      ck_assert_int_eq(st, IC_ERR_SHAPE);
      tu_assert_msg(err, "spectral_norm", "input Weight 'w'", "rank 2 to 5", NULL);
    }
    ic_builder_destroy(b);
    ic_tensor_destroy(w);
    ic_tensor_destroy(u);
    ic_tensor_destroy(v);
  }
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * fill_constant_batch_size_like
 * ------------------------------------------------------------------------------------- */

typedef struct fc_case {
  int n_shape;
  int32_t shape[4];
  int in_idx, out_idx;   /* < 0: attribute left out (default 0) */
  ic_dtype dtype;
  double value;
  const char *str_value; /* NULL: left out */
} fc_case;

static ic_status fc_run(const fc_case *k, ic_tensor *in, ic_tensor **out, char *err,
                        size_t errlen) {
  ic_builder *b = ic_builder_create();
  int64_t any[IC_MAX_RANK];
  for (int i = 0; i < IC_MAX_RANK; i++) any[i] = -1;
  tu_var(b, "in", ic_tensor_dtype(in), ic_tensor_ndim(in), any);
  tu_var(b, "out", k->dtype, k->n_shape, any);
  ic_builder_feed(b, "in");
  ic_builder_op *op = ic_builder_add_op(b, 0, "fill_constant_batch_size_like");
  ic_builder_in(op, "Input", "in");
  ic_builder_out(op, "Out", "out");
  ic_builder_attr_ints(op, "shape", (size_t)k->n_shape, k->shape);
  ic_builder_attr_int(op, "dtype", k->dtype);
  ic_builder_attr_float(op, "value", (float)k->value);
  if (k->str_value) ic_builder_attr_string(op, "str_value", k->str_value);
  if (k->in_idx >= 0) ic_builder_attr_int(op, "input_dim_idx", k->in_idx);
  if (k->out_idx >= 0) ic_builder_attr_int(op, "output_dim_idx", k->out_idx);
  ic_builder_attr_bool(op, "force_cpu", false);
  ic_builder_fetch(b, "out");
  ic_status st = tu_run(b, 1, TU_NAMES("in"), &in, 1, TU_NAMES("out"), out, err, errlen);
  ic_builder_destroy(b);
  return st;
}

/* Expect Out to be `shape` with the batch dim substituted, every element `expect`. */
static void fc_check(const fc_case *k, ic_tensor *in, double expect) {
  ic_tensor *out;
  char err[1024];
  ck_assert_msg(fc_run(k, in, &out, err, sizeof err) == IC_OK, "%s", err);
  int64_t dims[4];
  for (int i = 0; i < k->n_shape; i++) dims[i] = k->shape[i];
  dims[k->out_idx < 0 ? 0 : k->out_idx] = ic_tensor_dims(in)[k->in_idx < 0 ? 0 : k->in_idx];
  tu_assert_shape(out, k->dtype, k->n_shape, dims);
  int64_t n = ic_tensor_numel(out);
  double *ref = malloc((size_t)(n ? n : 1) * sizeof *ref);
  for (int64_t i = 0; i < n; i++) ref[i] = expect;
  tu_assert_close(out, ref, (size_t)n, 0, 0);
  free(ref);
  ic_tensor_destroy(out);
}

START_TEST(fc_batch_dims) {
  ic_tensor *in = tu_f32(3, TU_DIMS(3, 7, 2), NULL);
  ic_tensor *in64 = tu_i64(2, TU_DIMS(5, 1), (const int64_t[]){1, 2, 3, 4, 5});
  /* crnn_rec's PreState: shape [4, -1, 96], batch from dim 0 into dim 1, str_value "0.0" */
  fc_case k = {3, {4, -1, 6}, 0, 1, IC_FP32, 0.0, "0.0"};
  fc_check(&k, in, 0.0);
  /* every combination of input and output index */
  for (int ii = 0; ii < 3; ii++) {
    for (int oi = 0; oi < 3; oi++) {
      fc_case c = {3, {2, 3, 5}, ii, oi, IC_FP32, 1.5, NULL};
      c.shape[oi] = -1;
      fc_check(&c, in, 1.5);
    }
  }
  /* defaults (both indices 0), one-dim shape, an int64 input read for its dims only */
  fc_case d = {1, {-1}, -1, -1, IC_FP32, -2.25, NULL};
  fc_check(&d, in, -2.25);
  fc_case e = {2, {9, -1}, 0, 1, IC_FP32, 3.0, ""}; /* empty str_value: use value */
  fc_check(&e, in64, 3.0);
  /* a batch of 0 gives an empty tensor */
  ic_tensor *in0 = tu_f32(2, TU_DIMS(0, 4), NULL);
  fc_case z = {2, {-1, 3}, 0, 0, IC_FP32, 1.0, NULL};
  fc_check(&z, in0, 1.0);
  ic_tensor_destroy(in0);
  ic_tensor_destroy(in);
  ic_tensor_destroy(in64);
}
END_TEST

START_TEST(fc_dtypes_and_values) {
  ic_tensor *in = tu_f32(2, TU_DIMS(3, 2), NULL);
  fc_case k = {2, {-1, 5}, 0, 0, IC_INT32, 7.0, NULL};
  fc_check(&k, in, 7.0);
  k.dtype = IC_INT32, k.value = -2.75; /* truncated toward zero, as static_cast does */
  fc_check(&k, in, -2.0);
  k.dtype = IC_FP64, k.value = 0.1, k.str_value = "0.1"; /* str_value keeps double digits */
  fc_check(&k, in, 0.1);
  /* str_value wins over value: 123456789012 is not a float, so value alone would differ */
  k.dtype = IC_INT64, k.value = 123456789012.0, k.str_value = "123456789012";
  fc_check(&k, in, 123456789012.0);
  k.dtype = IC_FP32, k.value = 0, k.str_value = "inf";
  fc_check(&k, in, INFINITY);
  k.str_value = "-inf";
  fc_check(&k, in, -INFINITY);
  k.dtype = IC_BOOL, k.value = 2, k.str_value = NULL;
  fc_check(&k, in, 1.0);
  k.dtype = IC_UINT8, k.value = 255;
  fc_check(&k, in, 255.0);
  k.dtype = IC_INT8, k.value = -128;
  fc_check(&k, in, -128.0);
  k.dtype = IC_INT16, k.value = 1000;
  fc_check(&k, in, 1000.0);
  ic_tensor_destroy(in);
}
END_TEST

START_TEST(fc_bad_inputs) {
  ic_tensor *in = tu_f32(2, TU_DIMS(3, 2), NULL), *out;
  char err[1024];
  fc_case k = {2, {-1, 5}, 0, 2, IC_FP32, 1.0, NULL}; /* output_dim_idx beyond shape */
  ck_assert_int_eq(fc_run(&k, in, &out, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "fill_constant_batch_size_like", "'output_dim_idx'", "[0, 2)", NULL);
  k.out_idx = 0, k.in_idx = 2; /* input_dim_idx beyond Input's rank */
  ck_assert_int_eq(fc_run(&k, in, &out, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "input Input 'in'", "float32[3, 2]", "'input_dim_idx' is 2", NULL);
  fc_case m = {3, {-1, -1, 5}, 0, 0, IC_FP32, 1.0, NULL}; /* a second -1 */
  ck_assert_int_eq(fc_run(&m, in, &out, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "'shape'", "[-1, -1, 5]", "'in'", "dim 1 is -1", NULL);
  fc_case r = {1, {-1}, 0, 0, IC_INT8, 300.0, NULL}; /* out of range for the dtype */
  ck_assert_int_eq(fc_run(&r, in, &out, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'value'", "300", "int8", NULL);
  r.dtype = IC_INT32, r.value = 0, r.str_value = "nan";
  ck_assert_int_eq(fc_run(&r, in, &out, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'str_value'", "int32", NULL);
  r.dtype = IC_FP32, r.str_value = "1.5x";
  ck_assert_int_eq(fc_run(&r, in, &out, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'str_value'", "\"1.5x\"", NULL);
  r.str_value = NULL, r.dtype = IC_FP16;
  ck_assert_int_eq(fc_run(&r, in, &out, err, sizeof err), IC_ERR_UNSUPPORTED);
  tu_assert_msg(err, "'dtype'", "float16", NULL);
  ic_tensor_destroy(in);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * The real programs: every op of these types matches icore's slots and parses.
 * ------------------------------------------------------------------------------------- */

START_TEST(real_models_norm_ops_parse) {
  const char *models[] = {"paddle/mobilenet_v2/inference.pdmodel",
                          "paddle/pphgnet_plate/inference.pdmodel",
                          "paddle/ppocr_rec_svtr/inference.pdmodel",
                          "paddle/crnn_rec/inference.pdmodel"};
  const char *types[] = {"batch_norm", "layer_norm", "fill_constant_batch_size_like"};
  size_t seen[3] = {0};
  for (size_t m = 0; m < 4; m++) {
    char path[4096], err[1024];
    ck_assert_msg(tu_shared(models[m], path, sizeof path), "missing %s", models[m]);
    ic_program *p;
    ck_assert_msg(ic_program_from_file(path, &p, err, sizeof err) == IC_OK, "%s", err);
    for (size_t i = 0; i < p->blocks[0].n_ops; i++) {
      const ic_op *op = &p->blocks[0].ops[i];
      for (size_t t = 0; t < 3; t++) {
        if (strcmp(op->type, types[t]) != 0) continue;
        const ic_opdef *def;
        ic_err e;
        ic_err_clear(&e);
        ck_assert_int_eq(ic_opdef_lookup(op, &def, &e), IC_OK);
        const ic_slot *ins[8], *outs[8];
        ck_assert_msg(ic_opdef_match(def, op, ins, outs, &e) == IC_OK, "%s", e.msg);
        void *attrs = calloc(1, def->attrs_size);
        ck_assert_msg(ic_opdef_parse(def, op, attrs, &e) == IC_OK, "%s", e.msg);
        free(attrs);
        seen[t]++;
      }
    }
    ic_program_destroy(p);
  }
  ck_assert_uint_gt(seen[0], 100);
  ck_assert_uint_gt(seen[1], 0);
  ck_assert_uint_eq(seen[2], 2);
}
END_TEST

static TCase *tc_batch_norm(void) {
  TCase *tc = tcase_create("batch_norm");
  tcase_add_test(tc, bn_table);
  tcase_add_test(tc, bn_persistable_statistics);
  tcase_add_test(tc, bn_bad_inputs);
  return tc;
}

static TCase *tc_layer_norm(void) {
  TCase *tc = tcase_create("layer_norm");
  tcase_add_test(tc, ln_table);
  tcase_add_test(tc, ln_bad_inputs);
  tcase_add_test(tc, sn_bad_inputs);
  return tc;
}

static TCase *tc_fill(void) {
  TCase *tc = tcase_create("fill_constant_batch_size_like");
  tcase_add_test(tc, fc_batch_dims);
  tcase_add_test(tc, fc_dtypes_and_values);
  tcase_add_test(tc, fc_bad_inputs);
  return tc;
}

static TCase *tc_models(void) {
  TCase *tc = tcase_create("models");
  tcase_add_test(tc, real_models_norm_ops_parse);
  return tc;
}

TU_MAIN("ops_norm", tc_batch_norm, tc_layer_norm, tc_fill, tc_models)
