/* Grad ops of deformable_conv / deformable_conv_v1, pad2d, set_value and the fake
 * quantize-dequantize ops against Paddle's own gradients (tests/data/grad_oracle_misc,
 * tools/gen_paddle_misc_grad_oracle.py), and their errors.
 *
 * Each case is the grad op as Paddle wrote it (type, input slots, attributes), fed the
 * tensors Paddle fed it (the forward inputs and a random Out@GRAD); every output must match
 * Paddle's within 1e-5 relative (|got - want| <= 1e-5 * max(|want|, 1)), in float32 and again
 * with the inputs cast to float64, and through tu_run every executor configuration
 * (uncompiled, compiled serial, 2 and 4 threads) must give bitwise the same result. The
 * deformable convolution grads are also checked against central differences of icore's
 * forward in float64. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ew_testutil.h"
#include "npy.h"

#define MAXS 16

static ic_tensor *npy(const char *name, char kind, int j) {
  char path[1024], err[1024];
  snprintf(path, sizeof path, "%s/tests/data/grad_oracle_misc/%s.%c%d.npy", IC_SOURCE_DIR, name,
           kind, j);
  ic_tensor *t = NULL;
  ck_assert_msg(ic_npy_load(path, &t, err, sizeof err) == IC_OK, "%s", err);
  return t;
}

static void add_attr(ic_builder_op *o, char *tok) {
  char *eq = strchr(tok, '=');
  ck_assert_ptr_nonnull(eq);
  *eq = '\0';
  const char *v = eq + 1;
  ck_assert_msg(v[0] && v[1] == ':', "attribute %s: bad value %s", tok, v);
  switch (v[0]) {
    case 'f': ic_builder_attr_float(o, tok, (float)atof(v + 2)); break;
    case 'i': ic_builder_attr_int(o, tok, atoi(v + 2)); break;
    case 'b': ic_builder_attr_bool(o, tok, atoi(v + 2) != 0); break;
    case 's': ic_builder_attr_string(o, tok, v + 2); break;
    case 'L': {
      int32_t l[8];
      size_t n = 0;
      for (const char *p = v + 2; *p && n < 8;) {
        l[n++] = (int32_t)strtol(p, (char **)&p, 10);
        if (*p == ',') p++;
      }
      ic_builder_attr_ints(o, tok, n, l);
      break;
    }
    default: ck_abort_msg("attribute %s: unknown type %c", tok, v[0]);
  }
}

static size_t split(char *list, char **out) {
  size_t n = 0;
  for (char *s = strtok(list, ","); s && n < MAXS; s = strtok(NULL, ",")) out[n++] = s;
  return n;
}

/* One case: the grad op fed the case's inputs (float32 ones cast to float64 when f64). */
static void run_case(const char *name, const char *op, size_t ni, char **islot, size_t no,
                     char **oslot, size_t nt, char **tokv, bool f64) {
  ic_tensor *in[MAXS], *want[MAXS], *got[MAXS] = {0};
  char iname[MAXS][24], oname[MAXS][24];
  const char *inames[MAXS], *onames[MAXS];
  ic_builder *b = ic_builder_create();
  for (size_t j = 0; j < ni; j++) {
    in[j] = npy(name, 'i', (int)j);
    if (f64 && ic_tensor_dtype(in[j]) == IC_FP32) {
      ic_tensor *d;
      ck_assert_int_eq(ic_tensor_create(IC_FP64, ic_tensor_ndim(in[j]), ic_tensor_dims(in[j]), &d),
                       IC_OK);
      double *dd = ic_tensor_data(d);
      for (int64_t k = 0; k < ic_tensor_numel(d); k++) dd[k] = ew_at(in[j], k);
      ic_tensor_destroy(in[j]);
      in[j] = d;
    }
    snprintf(iname[j], sizeof iname[j], "i%zu", j);
    inames[j] = iname[j];
    ew_feed(b, iname[j], in[j]);
  }
  ic_builder_op *o = ic_builder_add_op(b, 0, op);
  /* a slot named k times in a row holds k variables (Paddle's duplicable slots) */
  for (size_t j = 0, k; j < ni; j = k) {
    for (k = j + 1; k < ni && strcmp(islot[k], islot[j]) == 0; k++) continue;
    ic_builder_input(o, islot[j], k - j, inames + j);
  }
  for (size_t j = 0; j < no; j++) {
    want[j] = npy(name, 'o', (int)j);
    snprintf(oname[j], sizeof oname[j], "o%zu", j);
    onames[j] = oname[j];
    ew_fetch(b, oname[j], f64 ? IC_FP64 : ic_tensor_dtype(want[j]));
  }
  for (size_t j = 0, k; j < no; j = k) {
    for (k = j + 1; k < no && strcmp(oslot[k], oslot[j]) == 0; k++) continue;
    ic_builder_output(o, oslot[j], k - j, onames + j);
  }
  for (size_t t = 0; t < nt; t++) {
    char tok[256];
    snprintf(tok, sizeof tok, "%s", tokv[t]);
    add_attr(o, tok);
  }
  char err[1024];
  ck_assert_msg(tu_run(b, ni, inames, in, no, onames, got, err, sizeof err) == IC_OK,
                "%s %s: %s", name, op, err);
  double worst = 0;
  for (size_t j = 0; j < no; j++) {
    tu_assert_shape(got[j], f64 ? IC_FP64 : ic_tensor_dtype(want[j]), ic_tensor_ndim(want[j]),
                    ic_tensor_dims(want[j]));
    int64_t exact = 0, n = ic_tensor_numel(want[j]);
    for (int64_t k = 0; k < n; k++) {
      const double g = ew_at(got[j], k), w = ew_at(want[j], k);
      /* NaN where Paddle has NaN (logit_grad outside [0, 1], slogdeterminant of a singular
       * matrix) and equal infinities match */
      const bool same = (isnan(g) && isnan(w)) || g == w;
      const double e = same ? 0.0 : fabs(g - w) / fmax(fabs(w), 1.0);
      ck_assert_msg(e <= 1e-5, "%s %s (%s): %s[%lld] is %.9g, Paddle %.9g", name, op,
                    f64 ? "float64" : "float32", oslot[j], (long long)k, g, w);
      worst = fmax(worst, e);
      exact += same;
    }
    if (!f64) {
      fprintf(stderr, "%s (%s): %s %lld of %lld equal to Paddle's\n", name, op, oslot[j],
              (long long)exact, (long long)n);
    }
    ic_tensor_destroy(got[j]);
    ic_tensor_destroy(want[j]);
  }
  fprintf(stderr, "%s (%s, %s): max error vs Paddle %.3g\n", name, op,
          f64 ? "float64" : "float32", worst);
  for (size_t j = 0; j < ni; j++) ic_tensor_destroy(in[j]);
  ic_builder_destroy(b);
}

/* Runs every case of cases<ver>.txt; returns how many; *seen gets the op types run. */
static int run_cases(const char *ver, char seen[][80], int *n_seen) {
  char path[1024], line[1024];
  snprintf(path, sizeof path, "%s/tests/data/grad_oracle_misc/cases%s.txt", IC_SOURCE_DIR, ver);
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  int n_cases = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    char name[64], op[80], ins[256], outs[256];
    int used = 0;
    ck_assert_int_eq(sscanf(line, "%63s %79s %255s %255s %n", name, op, ins, outs, &used), 4);
    char *attrs = line + used;
    char *islot[MAXS], *oslot[MAXS];
    size_t ni = split(ins, islot), no = split(outs, oslot);
    char *tokv[32];
    size_t nt = 0;
    for (char *tok = strtok(attrs, " \n"); tok && nt < 32; tok = strtok(NULL, " \n")) {
      tokv[nt++] = tok;
    }
    for (int pass = 0; pass < 2; pass++) /* Paddle's float32 data, then in float64 */
      run_case(name, op, ni, islot, no, oslot, nt, tokv, pass == 1);
    bool known = false;
    for (int s = 0; s < *n_seen; s++) known |= strcmp(seen[s], op) == 0;
    if (!known && *n_seen < 256) snprintf(seen[(*n_seen)++], 80, "%s", op);
    n_cases++;
  }
  fclose(f);
  return n_cases;
}

START_TEST(paddle_misc_grad_oracle) {
  static char seen[256][80];
  int n_seen = 0;
  /* One cases file per Paddle version or op family (gen_paddle_misc_grad_oracle.py KEY):
   * "33" and "26" as above; a family's own key keeps its cases apart. */
  static const struct {
    const char *key;
    int n;
  } files[] = {
      {"33", 20},
      {"26", 4},
      {"33j", 81},
      {"33k", 110},
      {"33m", 44},
      {"26m", 19},
      {"p7", 18},
  };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    ck_assert_int_eq(run_cases(files[i].key, seen, &n_seen), files[i].n);
  static const char *const ops[] = {
      "deformable_conv_grad", "deformable_conv_v1_grad", "set_value_grad", "pad2d_grad",
      "fake_channel_wise_quantize_dequantize_abs_max_grad",
      "fake_quantize_dequantize_moving_average_abs_max_grad", "stright_throuth_estimator_grad",
      /* 33k: matrix, index and scatter grads */
      "bmm_grad", "dot_grad", "mv_grad", "addmm_grad", "index_sample_grad",
      "take_along_axis_grad", "put_along_axis_grad", "masked_select_grad", "roll_grad", "flip",
      "index_add_grad", "scatter_grad", "scatter_nd_add_grad", "repeat_interleave_grad",
      "tril_triu_grad", "diagonal_grad", "diag_v2_grad", "trace_grad", "kron_grad", "cross_grad",
      "meshgrid_grad", "broadcast_tensors_grad", "unfold_grad", "fold_grad", "crop_tensor_grad",
      "multiplex_grad", "kthvalue_grad", "mode_grad", "cummax_grad", "cummin_grad",
      "reduce_amax_grad", "reduce_amin_grad", "inverse_grad", "matrix_power_grad",
      "determinant_grad", "slogdeterminant_grad", "bilinear_tensor_product_grad", "einsum_grad",
      /* 33j */
      "log_softmax_grad", "logsumexp_grad", "kldiv_loss_grad", "nll_loss_grad", "tan_grad",
      "asin_grad", "acos_grad", "atan_grad", "sinh_grad", "cosh_grad", "asinh_grad",
      "acosh_grad", "atanh_grad", "expm1_grad", "erfinv_grad", "logit_grad", "trunc_grad",
      "atan2_grad", "cumprod_grad", "logcumsumexp_grad", "lerp_grad", "dist_grad",
      "frobenius_norm_grad", "renorm_grad", "elementwise_fmax_grad", "elementwise_fmin_grad",
      "elementwise_heaviside_grad", "log_loss_grad", "maxout_grad", "cvm_grad",
      /* 33m, 26m: vision, pooling, RoI, interpolation and sequence grads */
      "conv3d_transpose_grad", "lrn_grad", "pixel_unshuffle_grad", "channel_shuffle_grad",
      "affine_grid_grad", "unpool_grad", "max_pool2d_with_index_grad",
      "max_pool3d_with_index_grad", "shuffle_channel_grad", "roi_pool_grad",
      "psroi_pool_grad", "spectral_norm_grad", "linear_interp_grad", "trilinear_interp_grad",
      "bicubic_interp_grad", "gru_unit_grad", "row_conv_grad", "im2sequence_grad",
      "data_norm_grad", "unpool3d_grad",
      /* p7: Paddle 3's gammaln, gammaincc, swiglu, reduce_as and pooling grads */
      "gammaln_grad", "gammaincc_grad", "swiglu_grad", "reduce_as_grad", "lp_pool2d_grad",
      "fractional_max_pool2d_grad", "fractional_max_pool3d_grad", "svdvals_grad",
      "lu_solve_grad"};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    bool found = false;
    for (int s = 0; s < n_seen; s++) found |= strcmp(seen[s], ops[i]) == 0;
    ck_assert_msg(found, "no case runs %s", ops[i]);
  }
}
END_TEST

/* ---- deformable_conv_grad / deformable_conv_v1_grad against central differences of icore's
 * own forward in float64 (L = sum(Output * W)), im2col_step 1: groups 2, deformable_groups 2,
 * stride 2, dilation 2, padding 1, offsets in +-3 (samples outside the image and in the
 * border band). With im2col_step larger than the batch, Paddle's grad kernel runs no block:
 * every gradient is 0. ---- */
static void dcn_fd_attrs(ic_builder_op *o, int64_t step) {
  ic_builder_attr_ints(o, "strides", 2, (const int32_t[]){2, 2});
  ic_builder_attr_ints(o, "paddings", 2, (const int32_t[]){1, 1});
  ic_builder_attr_ints(o, "dilations", 2, (const int32_t[]){2, 2});
  ic_builder_attr_int(o, "groups", 2);
  ic_builder_attr_int(o, "deformable_groups", 2);
  ic_builder_attr_int(o, "im2col_step", (int32_t)step);
}

static const char *const k_dcn_slots[4] = {"Input", "Offset", "Filter", "Mask"};
static const char *const k_dcn_names[4] = {"x", "off", "w", "m"};

static ic_tensor *dcn_forward(ic_tensor *const *in, size_t n_in) {
  ic_builder *b = ic_builder_create();
  for (size_t j = 0; j < n_in; j++) ew_feed(b, k_dcn_names[j], in[j]);
  ic_builder_op *o = ic_builder_add_op(b, 0, n_in == 4 ? "deformable_conv" : "deformable_conv_v1");
  for (size_t j = 0; j < n_in; j++) ic_builder_in(o, k_dcn_slots[j], k_dcn_names[j]);
  ic_builder_out(o, "Output", "y");
  dcn_fd_attrs(o, 1);
  ew_fetch(b, "y", IC_FP64);
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_options opt;
  ic_options_default(&opt);
  opt.mode = IC_MODE_UNCOMPILED;
  opt.threads = 1;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&opt, &e), IC_OK);
  ic_tensor *y = NULL;
  ck_assert_msg(ic_executor_run(e, p, NULL, n_in, k_dcn_names, (const ic_tensor *const *)in, 1,
                                TU_NAMES("y"), &y) == IC_OK, "%s", ic_executor_errmsg(e));
  ic_executor_destroy(e);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  return y;
}

static void dcn_fd_case(bool mask, int64_t step) {
  const size_t n_in = mask ? 4 : 3;
  ic_tensor *in[4] = {ew_rand(IC_FP64, 4, TU_DIMS(2, 4, 5, 6), 1, -1, 1),
                      ew_rand(IC_FP64, 4, TU_DIMS(2, 36, 2, 2), 2, -3, 3),
                      ew_rand(IC_FP64, 4, TU_DIMS(4, 2, 3, 3), 3, -1, 1),
                      ew_rand(IC_FP64, 4, TU_DIMS(2, 18, 2, 2), 4, 0, 1)};
  ic_tensor *y = dcn_forward(in, n_in);
  ic_tensor *w = ew_rand(IC_FP64, 4, ic_tensor_dims(y), 5, -1, 1);
  /* the grad op */
  ic_builder *b = ic_builder_create();
  const char *names[5];
  ic_tensor *feeds[5];
  for (size_t j = 0; j < n_in; j++) {
    names[j] = k_dcn_names[j];
    feeds[j] = in[j];
    ew_feed(b, names[j], in[j]);
  }
  names[n_in] = "dy";
  feeds[n_in] = w;
  ew_feed(b, "dy", w);
  ic_builder_op *o =
      ic_builder_add_op(b, 0, mask ? "deformable_conv_grad" : "deformable_conv_v1_grad");
  for (size_t j = 0; j < n_in; j++) ic_builder_in(o, k_dcn_slots[j], names[j]);
  ic_builder_in(o, "Output@GRAD", "dy");
  static const char *const gslots[4] = {"Input@GRAD", "Offset@GRAD", "Filter@GRAD", "Mask@GRAD"};
  static const char *const gnames[4] = {"gx", "goff", "gw", "gm"};
  for (size_t j = 0; j < n_in; j++) {
    ic_builder_out(o, gslots[j], gnames[j]);
    ew_fetch(b, gnames[j], IC_FP64);
  }
  dcn_fd_attrs(o, step);
  ic_tensor *got[4] = {0};
  char err[1024];
  ck_assert_msg(tu_run(b, n_in + 1, names, feeds, n_in, gnames, got, err, sizeof err) == IC_OK,
                "%s", err);
  for (size_t j = 0; j < n_in; j++) {
    tu_assert_shape(got[j], IC_FP64, 4, ic_tensor_dims(in[j]));
    double *xd = ic_tensor_data(in[j]);
    int64_t nonzero = 0;
    for (int64_t k = 0; k < ic_tensor_numel(in[j]); k++) {
      const double an = ew_at(got[j], k);
      if (step > 2) { /* no block: Paddle's grad is 0 */
        ck_assert_msg(an == 0, "%s[%lld] is %g with im2col_step %lld > batch", gslots[j],
                      (long long)k, an, (long long)step);
        continue;
      }
      const double h = 1e-6, x0 = xd[k];
      double l[2];
      for (int s = 0; s < 2; s++) {
        xd[k] = x0 + (s ? -h : h);
        ic_tensor *yy = dcn_forward(in, n_in);
        l[s] = 0;
        for (int64_t q = 0; q < ic_tensor_numel(yy); q++) l[s] += ew_at(yy, q) * ew_at(w, q);
        ic_tensor_destroy(yy);
      }
      xd[k] = x0;
      const double num = (l[0] - l[1]) / (2 * h);
      ck_assert_msg(fabs(an - num) <= 1e-6 * fabs(num) + 1e-7,
                    "%s: %s[%lld] is %.12g, finite difference %.12g",
                    mask ? "deformable_conv_grad" : "deformable_conv_v1_grad", gslots[j],
                    (long long)k, an, num);
      nonzero += an != 0;
    }
    if (step <= 2) ck_assert_msg(nonzero > 0, "%s is all zero", gslots[j]);
    ic_tensor_destroy(got[j]);
  }
  for (size_t j = 0; j < 4; j++) ic_tensor_destroy(in[j]);
  ic_tensor_destroy(y);
  ic_tensor_destroy(w);
  ic_builder_destroy(b);
}

START_TEST(dcn_grad_finite_differences) {
  dcn_fd_case(true, 1);
  dcn_fd_case(false, 1);
  dcn_fd_case(true, 4);
}
END_TEST

/* ---- errors: each names the op's variable and what was expected ---- */
static ic_tensor *zeros(ic_dtype dt, int nd, const int64_t *d) {
  ic_tensor *t;
  ck_assert_int_eq(ic_tensor_create(dt, nd, d, &t), IC_OK);
  memset(ic_tensor_data(t), 0, (size_t)ic_tensor_numel(t) * ic_dtype_size(dt));
  return t;
}

/* Runs op with inputs (slot, tensor) and one output slot; expects failure with msg in it. */
static void expect_error(const char *op, size_t n, const char *const *slots, ic_tensor **ts,
                         const char *out_slot, void (*attrs)(ic_builder_op *),
                         const char *msg) {
  ic_builder *b = ic_builder_create();
  const char *names[MAXS];
  char nm[MAXS][24];
  for (size_t j = 0; j < n; j++) {
    snprintf(nm[j], sizeof nm[j], "v%zu", j);
    names[j] = nm[j];
    ew_feed(b, nm[j], ts[j]);
  }
  ic_builder_op *o = ic_builder_add_op(b, 0, op);
  for (size_t j = 0, k; j < n; j = k) { /* a slot named k times in a row: k variables */
    for (k = j + 1; k < n && strcmp(slots[k], slots[j]) == 0; k++) continue;
    ic_builder_input(o, slots[j], k - j, names + j);
  }
  ic_builder_out(o, out_slot, "out");
  ew_fetch(b, "out", IC_FP32);
  if (attrs) attrs(o);
  ic_tensor *got = NULL;
  char err[1024] = "";
  ic_status st = tu_run(b, n, names, ts, 1, TU_NAMES("out"), &got, err, sizeof err);
  ck_assert_msg(st != IC_OK, "%s: expected an error", op);
  ck_assert_msg(strstr(err, msg) != NULL, "%s: error '%s' lacks '%s'", op, err, msg);
  for (size_t j = 0; j < n; j++) ic_tensor_destroy(ts[j]);
  ic_builder_destroy(b);
}

static void dcn_attrs(ic_builder_op *o) {
  ic_builder_attr_ints(o, "strides", 2, (const int32_t[]){1, 1});
  ic_builder_attr_ints(o, "paddings", 2, (const int32_t[]){1, 1});
  ic_builder_attr_int(o, "im2col_step", 1);
}
static void dcn_step2_attrs(ic_builder_op *o) {
  ic_builder_attr_ints(o, "paddings", 2, (const int32_t[]){1, 1});
  ic_builder_attr_int(o, "im2col_step", 2);
}
static void pad2d_attrs(ic_builder_op *o) {
  ic_builder_attr_ints(o, "paddings", 4, (const int32_t[]){1, 1, 2, 2});
  ic_builder_attr_string(o, "mode", "reflect");
}
static void sv_attrs(ic_builder_op *o) {
  ic_builder_attr_ints(o, "axes", 1, (const int32_t[]){1});
  ic_builder_attr_ints(o, "starts", 1, (const int32_t[]){0});
  ic_builder_attr_ints(o, "ends", 1, (const int32_t[]){4});
  ic_builder_attr_ints(o, "steps", 1, (const int32_t[]){2});
}

static void einsum_attrs(ic_builder_op *o) { ic_builder_attr_string(o, "equation", "ij,jk->ik"); }
static void m_c3t_attrs(ic_builder_op *o) {
  ic_builder_attr_ints(o, "strides", 3, (const int32_t[]){2, 1, 1});
  ic_builder_attr_ints(o, "paddings", 3, (const int32_t[]){0, 0, 0});
}
static void m_lrn_attrs(ic_builder_op *o) { ic_builder_attr_int(o, "n", 3); }
static void m_mpi_attrs(ic_builder_op *o) {
  ic_builder_attr_ints(o, "ksize", 2, (const int32_t[]){2, 2});
  ic_builder_attr_ints(o, "strides", 2, (const int32_t[]){2, 2});
}
static void m_ag_attrs(ic_builder_op *o) {
  ic_builder_attr_ints(o, "output_shape", 4, (const int32_t[]){2, 1, 3, 4});
}
static void m_roi_attrs(ic_builder_op *o) {
  ic_builder_attr_int(o, "pooled_height", 1);
  ic_builder_attr_int(o, "pooled_width", 1);
}
static void m_sn_attrs(ic_builder_op *o) { ic_builder_attr_int(o, "dim", 0); }
static void m_i2s_attrs(ic_builder_op *o) {
  ic_builder_attr_ints(o, "kernels", 2, (const int32_t[]){2, 2});
}
static void m_dn_attrs(ic_builder_op *o) {
  ic_builder_attr_bool(o, "enable_scale_and_shift", false);
}

START_TEST(misc_grad_errors) {
  /* deformable_conv_grad: Output@GRAD of the wrong dims */
  {
    const char *slots[] = {"Input", "Offset", "Filter", "Mask", "Output@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 4, TU_DIMS(1, 2, 4, 4)),
                      zeros(IC_FP32, 4, TU_DIMS(1, 18, 4, 4)),
                      zeros(IC_FP32, 4, TU_DIMS(3, 2, 3, 3)),
                      zeros(IC_FP32, 4, TU_DIMS(1, 9, 4, 4)),
                      zeros(IC_FP32, 4, TU_DIMS(1, 3, 4, 5))};
    expect_error("deformable_conv_grad", 5, slots, t, "Input@GRAD", dcn_attrs,
                 "Output@GRAD 'v4' is float32[1, 3, 4, 5], expected float32[1, 3, 4, 4]");
  }
  /* deformable_conv_v1_grad: a batch of 3 with im2col_step 2 */
  {
    const char *slots[] = {"Input", "Offset", "Filter", "Output@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 4, TU_DIMS(3, 2, 4, 4)),
                      zeros(IC_FP32, 4, TU_DIMS(3, 18, 4, 4)),
                      zeros(IC_FP32, 4, TU_DIMS(3, 2, 3, 3)),
                      zeros(IC_FP32, 4, TU_DIMS(3, 3, 4, 4))};
    expect_error("deformable_conv_v1_grad", 4, slots, t, "Offset@GRAD", dcn_step2_attrs,
                 "expected a multiple of attribute 'im2col_step' 2");
  }
  /* deformable_conv_grad: Mask@GRAD asked without a Mask */
  {
    const char *slots[] = {"Input", "Offset", "Filter", "Output@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 4, TU_DIMS(1, 2, 4, 4)),
                      zeros(IC_FP32, 4, TU_DIMS(1, 18, 4, 4)),
                      zeros(IC_FP32, 4, TU_DIMS(3, 2, 3, 3)),
                      zeros(IC_FP32, 4, TU_DIMS(1, 3, 4, 4))};
    expect_error("deformable_conv_grad", 4, slots, t, "Mask@GRAD", dcn_attrs,
                 "output Mask@GRAD 'out' is written, but the op has no Mask");
  }
  /* pad2d_grad: Out@GRAD not pad2d's Out */
  {
    const char *slots[] = {"X", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 4, TU_DIMS(1, 2, 3, 4)),
                      zeros(IC_FP32, 4, TU_DIMS(1, 2, 5, 7))};
    expect_error("pad2d_grad", 2, slots, t, "X@GRAD", pad2d_attrs,
                 "Out@GRAD 'v1' is float32[1, 2, 5, 7], expected dims [1, 2, 5, 8]");
  }
  /* pad2d_grad: reflect pads as large as the dim */
  {
    const char *slots[] = {"X", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 4, TU_DIMS(1, 2, 1, 4)),
                      zeros(IC_FP32, 4, TU_DIMS(1, 2, 3, 8))};
    expect_error("pad2d_grad", 2, slots, t, "X@GRAD", pad2d_attrs,
                 "reflect mode needs each pad smaller than its dim");
  }
  /* set_value_grad: ValueTensor@GRAD without ValueTensor */
  {
    const char *slots[] = {"Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(3, 4))};
    expect_error("set_value_grad", 1, slots, t, "ValueTensor@GRAD", sv_attrs,
                 "ValueTensor@GRAD 'out' is written, but the op has no ValueTensor");
  }
  /* set_value_grad: a ValueTensor that does not broadcast to the slice [3, 2] */
  {
    const char *slots[] = {"Out@GRAD", "ValueTensor"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(3, 4)), zeros(IC_FP32, 1, TU_DIMS(3))};
    expect_error("set_value_grad", 2, slots, t, "ValueTensor@GRAD", sv_attrs,
                 "does not broadcast to the slice [3, 2]");
  }
  /* 33k: bmm_grad with an Out@GRAD that is not bmm's Out */
  {
    const char *slots[] = {"X", "Y", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 3, TU_DIMS(2, 3, 4)), zeros(IC_FP32, 3, TU_DIMS(2, 4, 5)),
                      zeros(IC_FP32, 3, TU_DIMS(2, 3, 4))};
    expect_error("bmm_grad", 3, slots, t, "X@GRAD", NULL,
                 "Out@GRAD 'v2' is float32[2, 3, 4], expected float32[2, 3, 5] (bmm's Out)");
  }
  /* put_along_axis_grad: an index outside the axis */
  {
    const char *slots[] = {"Input", "Index", "Value", "Result", "Result@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(3, 2)), zeros(IC_INT64, 2, TU_DIMS(1, 2)),
                      zeros(IC_FP32, 2, TU_DIMS(1, 2)), zeros(IC_FP32, 2, TU_DIMS(3, 2)),
                      zeros(IC_FP32, 2, TU_DIMS(3, 2))};
    ((int64_t *)ic_tensor_data(t[1]))[1] = 5;
    expect_error("put_along_axis_grad", 5, slots, t, "Input@GRAD", NULL,
                 "Index 'v1' is int64[1, 2], entry 1 is 5, expected in [-3, 3) (dim 0)");
  }
  /* index_sample_grad: an integer Out@GRAD */
  {
    const char *slots[] = {"X", "Index", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(2, 3)), zeros(IC_INT64, 2, TU_DIMS(2, 2)),
                      zeros(IC_INT32, 2, TU_DIMS(2, 2))};
    expect_error("index_sample_grad", 3, slots, t, "X@GRAD", NULL,
                 "Out@GRAD 'v2' is int32[2, 2], expected dtype float32 or float64");
  }
  /* scatter_grad without its Out@GRAD */
  {
    const char *slots[] = {"Ids", "Updates"};
    ic_tensor *t[] = {zeros(IC_INT64, 1, TU_DIMS(2)), zeros(IC_FP32, 2, TU_DIMS(2, 3))};
    expect_error("scatter_grad", 2, slots, t, "X@GRAD", NULL, "Out@GRAD");
  }
  /* meshgrid_grad: one Out@GRAD for two X */
  {
    const char *slots[] = {"X", "X", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 1, TU_DIMS(2)), zeros(IC_FP32, 1, TU_DIMS(3)),
                      zeros(IC_FP32, 2, TU_DIMS(2, 3))};
    expect_error("meshgrid_grad", 3, slots, t, "X@GRAD", NULL,
                 "input Out@GRAD holds 1 variables, expected one per X (2)");
  }
  /* repeat_interleave_grad: Out@GRAD's axis not the repeats' total */
  {
    const char *slots[] = {"X", "RepeatsTensor", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(2, 3)), zeros(IC_INT64, 1, TU_DIMS(2)),
                      zeros(IC_FP32, 2, TU_DIMS(4, 3))};
    ((int64_t *)ic_tensor_data(t[1]))[0] = 1;
    ((int64_t *)ic_tensor_data(t[1]))[1] = 2;
    expect_error("repeat_interleave_grad", 3, slots, t, "X@GRAD", NULL,
                 "has 4 slices along dim 0, expected 3 (the repeats' total)");
  }
  /* einsum_grad of two operands without the InnerCache einsum writes */
  {
    const char *slots[] = {"Out@GRAD", "x_shape", "x_shape"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(2, 4)), zeros(IC_FP32, 2, TU_DIMS(2, 3)),
                      zeros(IC_FP32, 2, TU_DIMS(3, 4))};
    expect_error("einsum_grad", 3, slots, t, "Operands@GRAD", einsum_attrs,
                 "input InnerCache lists 0 variables, expected the 2 einsum wrote");
  }
  /* the straight-through grads take floats only */
  {
    const char *slots[] = {"Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_INT32, 1, TU_DIMS(3))};
    expect_error("stright_throuth_estimator_grad", 1, slots, t, "X@GRAD", NULL, "Out@GRAD 'v0'");
  }
  /* 33m: conv3d_transpose_grad with Output@GRAD of the wrong dims */
  {
    const char *slots[] = {"Input", "Filter", "Output@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 5, TU_DIMS(1, 2, 2, 2, 2)),
                      zeros(IC_FP32, 5, TU_DIMS(2, 3, 2, 2, 2)),
                      zeros(IC_FP32, 5, TU_DIMS(1, 3, 3, 3, 3))};
    expect_error("conv3d_transpose_grad", 3, slots, t, "Input@GRAD", m_c3t_attrs,
                 "Output@GRAD 'v2' is float32[1, 3, 3, 3, 3], expected float32[1, 3, 4, 3, 3]");
  }
  /* lrn_grad without Out@GRAD */
  {
    const char *slots[] = {"X", "Out", "MidOut"};
    ic_tensor *t[] = {zeros(IC_FP32, 4, TU_DIMS(1, 3, 2, 2)), zeros(IC_FP32, 4, TU_DIMS(1, 3, 2, 2)),
                      zeros(IC_FP32, 4, TU_DIMS(1, 3, 2, 2))};
    expect_error("lrn_grad", 3, slots, t, "X@GRAD", m_lrn_attrs, "Out@GRAD");
  }
  /* lrn_grad: MidOut not of X's dims */
  {
    const char *slots[] = {"X", "Out", "MidOut", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 4, TU_DIMS(1, 3, 2, 2)), zeros(IC_FP32, 4, TU_DIMS(1, 3, 2, 2)),
                      zeros(IC_FP32, 4, TU_DIMS(1, 3, 2, 1)), zeros(IC_FP32, 4, TU_DIMS(1, 3, 2, 2))};
    expect_error("lrn_grad", 4, slots, t, "X@GRAD", m_lrn_attrs,
                 "MidOut 'v2' is float32[1, 3, 2, 1], expected float32[1, 3, 2, 2], as X");
  }
  /* max_pool2d_with_index_grad: a Mask entry outside the plane */
  {
    const char *slots[] = {"X", "Mask", "Out@GRAD"};
    ic_tensor *m = zeros(IC_INT32, 4, TU_DIMS(1, 1, 2, 2));
    ((int32_t *)ic_tensor_data(m))[3] = 16;
    ic_tensor *t[] = {zeros(IC_FP32, 4, TU_DIMS(1, 1, 4, 4)), m,
                      zeros(IC_FP32, 4, TU_DIMS(1, 1, 2, 2))};
    expect_error("max_pool2d_with_index_grad", 3, slots, t, "X@GRAD", m_mpi_attrs,
                 "entry 3 is 16, expected -1 or in [0, 16)");
  }
  /* unpool_grad: float Indices */
  {
    const char *slots[] = {"X", "Indices", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 4, TU_DIMS(1, 1, 2, 2)), zeros(IC_FP32, 4, TU_DIMS(1, 1, 2, 2)),
                      zeros(IC_FP32, 4, TU_DIMS(1, 1, 4, 4))};
    expect_error("unpool_grad", 3, slots, t, "X@GRAD", NULL, "Indices 'v1'");
  }
  /* affine_grid_grad: Output@GRAD not the grid of output_shape */
  {
    const char *slots[] = {"Output@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 4, TU_DIMS(2, 4, 3, 2))};
    expect_error("affine_grid_grad", 1, slots, t, "Theta@GRAD", m_ag_attrs,
                 "expected dims [2, 3, 4, 2], the grid of output shape (attribute output_shape)");
  }
  /* roi_pool_grad: an Argmax entry outside the plane */
  {
    const char *slots[] = {"X", "ROIs", "Argmax", "Out@GRAD"};
    ic_tensor *arg = zeros(IC_INT64, 4, TU_DIMS(1, 2, 1, 1));
    ((int64_t *)ic_tensor_data(arg))[1] = 9;
    ic_tensor *t[] = {zeros(IC_FP32, 4, TU_DIMS(1, 2, 3, 3)), zeros(IC_FP32, 2, TU_DIMS(1, 4)),
                      arg, zeros(IC_FP32, 4, TU_DIMS(1, 2, 1, 1))};
    expect_error("roi_pool_grad", 4, slots, t, "X@GRAD", m_roi_attrs,
                 "entry 1 is 9, expected -1 or in [0, 9)");
  }
  /* spectral_norm_grad: Out@GRAD not of Weight's dims */
  {
    const char *slots[] = {"Weight", "U", "V", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(3, 4)), zeros(IC_FP32, 1, TU_DIMS(3)),
                      zeros(IC_FP32, 1, TU_DIMS(4)), zeros(IC_FP32, 2, TU_DIMS(4, 3))};
    expect_error("spectral_norm_grad", 4, slots, t, "Weight@GRAD", m_sn_attrs,
                 "Out@GRAD 'v3' is float32[4, 3], expected float32[3, 4], as Weight");
  }
  /* gru_unit_grad: Gate not [batch, 3 * hidden] */
  {
    const char *slots[] = {"Input", "HiddenPrev", "Weight", "Gate", "ResetHiddenPrev",
                           "Hidden@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(2, 6)), zeros(IC_FP32, 2, TU_DIMS(2, 2)),
                      zeros(IC_FP32, 2, TU_DIMS(2, 6)), zeros(IC_FP32, 2, TU_DIMS(2, 4)),
                      zeros(IC_FP32, 2, TU_DIMS(2, 2)), zeros(IC_FP32, 2, TU_DIMS(2, 2))};
    expect_error("gru_unit_grad", 6, slots, t, "Input@GRAD", NULL,
                 "Gate 'v3' is float32[2, 4], expected float32[2, 6] (gru_unit's Gate)");
  }
  /* im2sequence_grad: Out@GRAD with the wrong number of patch rows */
  {
    const char *slots[] = {"X", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 4, TU_DIMS(2, 1, 3, 3)), zeros(IC_FP32, 2, TU_DIMS(4, 4))};
    expect_error("im2sequence_grad", 2, slots, t, "X@GRAD", m_i2s_attrs,
                 "expected float32[8, 4], im2sequence's Out");
  }
  /* data_norm_grad: scale_w@GRAD without enable_scale_and_shift */
  {
    const char *slots[] = {"X", "Y@GRAD", "Means", "Scales"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(2, 3)), zeros(IC_FP32, 2, TU_DIMS(2, 3)),
                      zeros(IC_FP32, 1, TU_DIMS(3)), zeros(IC_FP32, 1, TU_DIMS(3))};
    expect_error("data_norm_grad", 4, slots, t, "scale_w@GRAD", m_dn_attrs,
                 "enable_scale_and_shift is not set");
  }
  /* row_conv_grad: a Filter of another width */
  {
    const char *slots[] = {"X", "Filter", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 3, TU_DIMS(2, 4, 3)), zeros(IC_FP32, 2, TU_DIMS(2, 2)),
                      zeros(IC_FP32, 3, TU_DIMS(2, 4, 3))};
    expect_error("row_conv_grad", 3, slots, t, "X@GRAD", NULL,
                 "Filter 'v1' is float32[2, 2], expected float32[context >= 1, 3]");
  }
}
END_TEST

/* ---- 33j grad ops: malformed ops fail naming the op's variable ---- */
static void j_axis1(ic_builder_op *o) { ic_builder_attr_int(o, "axis", 1); }
static void j_nll_attrs(ic_builder_op *o) { ic_builder_attr_string(o, "reduction", "sum"); }
static void j_cumprod_attrs(ic_builder_op *o) { ic_builder_attr_int(o, "dim", 2); }
static void j_maxout_attrs(ic_builder_op *o) { ic_builder_attr_int(o, "groups", 3); }
static void j_kldiv_attrs(ic_builder_op *o) { ic_builder_attr_string(o, "reduction", "avg"); }

START_TEST(j_grad_errors) {
  /* log_softmax_grad: no Out@GRAD */
  {
    const char *slots[] = {"Out"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(2, 3))};
    expect_error("log_softmax_grad", 1, slots, t, "X@GRAD", j_axis1, "Out@GRAD");
  }
  /* log_softmax_grad: Out@GRAD of other dims than Out */
  {
    const char *slots[] = {"Out", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(2, 3)), zeros(IC_FP32, 2, TU_DIMS(3, 2))};
    expect_error("log_softmax_grad", 2, slots, t, "X@GRAD", j_axis1,
                 "Out@GRAD 'v1' is float32[3, 2], expected float32[2, 3] like Out");
  }
  /* kldiv_loss_grad: Target float64 against an X float32 */
  {
    const char *slots[] = {"X", "Target", "Loss@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(2, 3)), zeros(IC_FP64, 2, TU_DIMS(2, 3)),
                      zeros(IC_FP32, 0, NULL)};
    expect_error("kldiv_loss_grad", 3, slots, t, "X@GRAD", NULL, "Target 'v1' is float64[2, 3]");
  }
  /* kldiv_loss_grad: an unknown reduction */
  {
    const char *slots[] = {"X", "Target", "Loss@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(2, 3)), zeros(IC_FP32, 2, TU_DIMS(2, 3)),
                      zeros(IC_FP32, 0, NULL)};
    expect_error("kldiv_loss_grad", 3, slots, t, "X@GRAD", j_kldiv_attrs,
                 "expected none, sum, mean or batchmean");
  }
  /* nll_loss_grad: a label out of [0, C) */
  {
    const char *slots[] = {"X", "Label", "Total_weight", "Out@GRAD"};
    ic_tensor *lab = zeros(IC_INT64, 1, TU_DIMS(2));
    ((int64_t *)ic_tensor_data(lab))[1] = 5;
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(2, 3)), lab, zeros(IC_FP32, 0, NULL),
                      zeros(IC_FP32, 0, NULL)};
    expect_error("nll_loss_grad", 4, slots, t, "X@GRAD", j_nll_attrs,
                 "Label 'v1' is int64[2], holds 5 at element 1, expected in [0, 3)");
  }
  /* nll_loss_grad: Out@GRAD of Label's dims under reduction sum */
  {
    const char *slots[] = {"X", "Label", "Total_weight", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(2, 3)), zeros(IC_INT64, 1, TU_DIMS(2)),
                      zeros(IC_FP32, 0, NULL), zeros(IC_FP32, 1, TU_DIMS(2))};
    expect_error("nll_loss_grad", 4, slots, t, "X@GRAD", j_nll_attrs,
                 "Out@GRAD 'v3' is float32[2], expected one element");
  }
  /* cumprod_grad: dim beyond X's rank */
  {
    const char *slots[] = {"X", "Out", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(2, 3)), zeros(IC_FP32, 2, TU_DIMS(2, 3)),
                      zeros(IC_FP32, 2, TU_DIMS(2, 3))};
    expect_error("cumprod_grad", 3, slots, t, "X@GRAD", j_cumprod_attrs, "attribute 'dim'");
  }
  /* lerp_grad: a Weight that does not broadcast to Out@GRAD */
  {
    const char *slots[] = {"X", "Y", "Weight", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(2, 3)), zeros(IC_FP32, 2, TU_DIMS(2, 3)),
                      zeros(IC_FP32, 1, TU_DIMS(2)), zeros(IC_FP32, 2, TU_DIMS(2, 3))};
    expect_error("lerp_grad", 4, slots, t, "X@GRAD", NULL,
                 "Weight 'v2' is float32[2], expected float32 broadcasting to Out@GRAD's");
  }
  /* elementwise_fmax_grad: integer operands */
  {
    const char *slots[] = {"X", "Y", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_INT32, 1, TU_DIMS(3)), zeros(IC_INT32, 1, TU_DIMS(3)),
                      zeros(IC_INT32, 1, TU_DIMS(3))};
    expect_error("elementwise_fmax_grad", 3, slots, t, "X@GRAD", NULL, "X 'v0' is int32[3]");
  }
  /* maxout_grad: channels not a multiple of groups */
  {
    const char *slots[] = {"X", "Out", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 4, TU_DIMS(1, 4, 2, 2)), zeros(IC_FP32, 4, TU_DIMS(1, 1, 2, 2)),
                      zeros(IC_FP32, 4, TU_DIMS(1, 1, 2, 2))};
    expect_error("maxout_grad", 3, slots, t, "X@GRAD", j_maxout_attrs,
                 "has 4 channels, expected a multiple of groups 3");
  }
  /* atan2_grad: X2 of other dims (atan2 does not broadcast) */
  {
    const char *slots[] = {"X1", "X2", "Out@GRAD"};
    ic_tensor *t[] = {zeros(IC_FP32, 2, TU_DIMS(2, 3)), zeros(IC_FP32, 1, TU_DIMS(3)),
                      zeros(IC_FP32, 2, TU_DIMS(2, 3))};
    expect_error("atan2_grad", 3, slots, t, "X1@GRAD", NULL, "X2 'v1' is float32[3]");
  }
}
END_TEST

/* cvm_grad with a LoD on X (not reachable through the oracle): Paddle's CPU kernel gives
 * every row of sequence k the k-th CVM pair (phi CVMGradOpKernel); X@GRAD keeps X's LoD. */
START_TEST(j_cvm_grad_lod) {
  ic_tensor *x = zeros(IC_FP32, 2, TU_DIMS(5, 3)), *cvm, *dy;
  ck_assert_int_eq(ic_tensor_create(IC_FP32, 2, TU_DIMS(2, 2), &cvm), IC_OK);
  ck_assert_int_eq(ic_tensor_create(IC_FP32, 2, TU_DIMS(5, 1), &dy), IC_OK);
  const uint64_t off[3] = {0, 3, 5};
  ck_assert_int_eq(ic_tensor_set_lod(x, 1, (const size_t[]){3}, (const uint64_t *const[]){off}),
                   IC_OK);
  float *cp = ic_tensor_data(cvm), *gp = ic_tensor_data(dy);
  for (int k = 0; k < 4; k++) cp[k] = (float)(10 + k);
  for (int k = 0; k < 5; k++) gp[k] = (float)k + 0.5f;
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ew_feed(b, "cvm", cvm);
  ew_feed(b, "dy", dy);
  ic_builder_op *o = ic_builder_add_op(b, 0, "cvm_grad");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "CVM", "cvm");
  ic_builder_in(o, "Y@GRAD", "dy");
  ic_builder_out(o, "X@GRAD", "dx");
  ic_builder_attr_bool(o, "use_cvm", false);
  ew_fetch(b, "dx", IC_FP32);
  ic_tensor *in[3] = {x, cvm, dy}, *got = NULL;
  char err[1024];
  ck_assert_msg(tu_run(b, 3, TU_NAMES("x", "cvm", "dy"), in, 1, TU_NAMES("dx"), &got, err,
                       sizeof err) == IC_OK,
                "%s", err);
  const float want[15] = {10, 11, 0.5f, 10, 11, 1.5f, 10, 11, 2.5f,
                          12, 13, 3.5f, 12, 13, 4.5f};
  const float *g = ic_tensor_data(got);
  for (int k = 0; k < 15; k++) ck_assert_msg(g[k] == want[k], "dx[%d] %g, want %g", k, g[k], want[k]);
  size_t len = 0;
  const uint64_t *lod = ic_tensor_lod(got, 0, &len);
  ck_assert_msg(len == 3 && lod && lod[1] == 3 && lod[2] == 5, "X@GRAD lost X's LoD");
  ic_tensor_destroy(got);
  for (int k = 0; k < 3; k++) ic_tensor_destroy(in[k]);
  ic_builder_destroy(b);
}
END_TEST

/* sv26_program: a whole Paddle 2.6.2 training program (version 2006002) with x[::-1] = v and
 * x[4::-2] = v2 and their set_value_grad ops: the loader marks them ic_paddle2, so end -1 with
 * a negative step reaches index 0 and icore's gradients equal Paddle 2.6.2's, bit for bit, in
 * every executor configuration (v's gradient is all zeros under 3.x's reading). */
START_TEST(set_value_grad_paddle2_program) {
  char path[1024], err[1024];
  snprintf(path, sizeof path, "%s/tests/data/grad_oracle_misc/sv26_program.pdmodel",
           IC_SOURCE_DIR);
  ic_program *p;
  ck_assert_msg(ic_program_from_file(path, &p, err, sizeof err) == IC_OK, "%s", err);
  const char *names[3] = {"x", "v", "v2"};
  ic_tensor *feeds[3], *want[3], *got[3];
  for (int k = 0; k < 3; k++) {
    snprintf(path, sizeof path, "%s/tests/data/grad_oracle_misc/sv26_program.%s.npy",
             IC_SOURCE_DIR, names[k]);
    ck_assert_msg(ic_npy_load(path, &feeds[k], err, sizeof err) == IC_OK, "%s", err);
    snprintf(path, sizeof path, "%s/tests/data/grad_oracle_misc/sv26_program.%s_grad.npy",
             IC_SOURCE_DIR, names[k]);
    ck_assert_msg(ic_npy_load(path, &want[k], err, sizeof err) == IC_OK, "%s", err);
  }
  ck_assert_msg(tu_run_scope(p, NULL, 3, names, feeds, 3,
                             TU_NAMES("x@GRAD", "v@GRAD", "v2@GRAD"), got, err,
                             sizeof err) == IC_OK,
                "%s", err);
  for (int k = 0; k < 3; k++) {
    tu_assert_bitwise(got[k], want[k], names[k]);
    ic_tensor_destroy(got[k]);
    ic_tensor_destroy(want[k]);
    ic_tensor_destroy(feeds[k]);
  }
  ic_program_destroy(p);
}
END_TEST

static TCase *tc_misc(void) {
  TCase *tc = tcase_create("misc_grad");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, paddle_misc_grad_oracle);
  tcase_add_test(tc, misc_grad_errors);
  tcase_add_test(tc, j_grad_errors);
  tcase_add_test(tc, j_cvm_grad_lod);
  tcase_add_test(tc, set_value_grad_paddle2_program);
  tcase_add_test(tc, dcn_grad_finite_differences);
  return tc;
}

TU_MAIN("ops_grad_misc", tc_misc)
