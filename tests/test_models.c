/* Whole models end to end. An MLP written in Paddle's exact on-disk formats (the model
 * directory layouts of save_inference_model, and .pdmodel + .pdiparams) with the builder
 * and the parameter writer, loaded back, run in every executor configuration, and checked
 * against a double-precision reference computed here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/plan.h"
#include "interp/interp.h"
#include "npy.h"
#include "testutil.h"

enum { IN = 13, HID = 24, OUT = 7, BATCH = 5 };

static float w1[IN * HID], b1[HID], w2[HID * OUT], b2[OUT], xin[BATCH * IN];

static void fill(float *v, size_t n, uint64_t seed, float scale) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 7;
  for (size_t i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    v[i] = scale * ((float)(s >> 40) / 16777216.0f * 2.0f - 1.0f);
  }
}

/* The program Paddle's save_inference_model writes for an fc-relu-fc-softmax network. */
static ic_builder *mlp(void) {
  ic_builder *b = ic_builder_create();
  ic_builder_var(b, 0, "x", IC_FP32, 2, TU_DIMS(-1, IN), false);
  ic_builder_var(b, 0, "fc_0.w_0", IC_FP32, 2, TU_DIMS(IN, HID), true);
  ic_builder_var(b, 0, "fc_0.b_0", IC_FP32, 1, TU_DIMS(HID), true);
  ic_builder_var(b, 0, "fc_1.w_0", IC_FP32, 2, TU_DIMS(HID, OUT), true);
  ic_builder_var(b, 0, "fc_1.b_0", IC_FP32, 1, TU_DIMS(OUT), true);
  const char *tmp[] = {"fc_0.tmp_0", "fc_0.tmp_1", "fc_0.tmp_2", "fc_1.tmp_0", "fc_1.tmp_1",
                       "softmax_0.tmp_0"};
  const int64_t widths[] = {HID, HID, HID, OUT, OUT, OUT};
  for (int i = 0; i < 6; i++) ic_builder_var(b, 0, tmp[i], IC_FP32, 2, TU_DIMS(-1, widths[i]), false);
  ic_builder_feed(b, "x");
  const char *w[2] = {"fc_0.w_0", "fc_1.w_0"}, *bias[2] = {"fc_0.b_0", "fc_1.b_0"};
  const char *in = "x";
  for (int l = 0; l < 2; l++) {
    ic_builder_op *op = ic_builder_add_op(b, 0, "mul");
    ic_builder_in(op, "X", in);
    ic_builder_in(op, "Y", w[l]);
    ic_builder_out(op, "Out", tmp[3 * l]);
    ic_builder_attr_int(op, "x_num_col_dims", 1);
    ic_builder_attr_int(op, "y_num_col_dims", 1);
    op = ic_builder_add_op(b, 0, "elementwise_add");
    ic_builder_in(op, "X", tmp[3 * l]);
    ic_builder_in(op, "Y", bias[l]);
    ic_builder_out(op, "Out", tmp[3 * l + 1]);
    ic_builder_attr_int(op, "axis", 1);
    if (l == 0) {
      op = ic_builder_add_op(b, 0, "relu");
      ic_builder_in(op, "X", tmp[1]);
      ic_builder_out(op, "Out", tmp[2]);
      in = tmp[2];
    }
  }
  ic_builder_op *op = ic_builder_add_op(b, 0, "softmax");
  ic_builder_in(op, "X", "fc_1.tmp_1");
  ic_builder_out(op, "Out", "softmax_0.tmp_0");
  ic_builder_attr_int(op, "axis", -1);
  ic_builder_fetch(b, "softmax_0.tmp_0");
  return b;
}

static void reference(double *out) {
  for (int n = 0; n < BATCH; n++) {
    double h[HID], z[OUT], mx = -INFINITY, sum = 0;
    for (int j = 0; j < HID; j++) {
      double a = b1[j];
      for (int i = 0; i < IN; i++) a += (double)xin[n * IN + i] * w1[i * HID + j];
      h[j] = a > 0 ? a : 0;
    }
    for (int k = 0; k < OUT; k++) {
      double a = b2[k];
      for (int j = 0; j < HID; j++) a += h[j] * w2[j * OUT + k];
      z[k] = a;
      if (a > mx) mx = a;
    }
    for (int k = 0; k < OUT; k++) sum += exp(z[k] - mx);
    for (int k = 0; k < OUT; k++) out[n * OUT + k] = exp(z[k] - mx) / sum;
  }
}

typedef enum layout { PDMODEL_PDIPARAMS, DIR_PARAMS_FILE, DIR_FILE_PER_VAR } layout;

/* Write the MLP into dir in one of Paddle's layouts; model_path receives what to load. */
static void write_model(const char *dir, layout lay, char *model_path, size_t len) {
  ic_builder *b = mlp();
  void *bytes;
  size_t n;
  ck_assert_int_eq(ic_builder_serialize(b, &bytes, &n), IC_OK);
  ic_program *p;
  char err[1024];
  ck_assert_int_eq(ic_program_from_bytes(bytes, n, NULL, &p, err, sizeof err), IC_OK);
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  struct {
    const char *name;
    float *v;
    int64_t d0, d1;
  } params[] = {{"fc_0.w_0", w1, IN, HID}, {"fc_0.b_0", b1, HID, 0}, {"fc_1.w_0", w2, HID, OUT},
                {"fc_1.b_0", b2, OUT, 0}};
  for (int i = 0; i < 4; i++) {
    ic_tensor *t = params[i].d1 ? tu_f32(2, TU_DIMS(params[i].d0, params[i].d1), params[i].v)
                                : tu_f32(1, TU_DIMS(params[i].d0), params[i].v);
    ck_assert_int_eq(ic_scope_set(s, params[i].name, t), IC_OK);
    ic_tensor_destroy(t);
  }
  char prog_path[1100], params_path[1100];
  ic_params_format fmt = lay == DIR_FILE_PER_VAR ? IC_PARAMS_SEPARATE : IC_PARAMS_COMBINED;
  if (lay == PDMODEL_PDIPARAMS) {
    snprintf(prog_path, sizeof prog_path, "%s/mlp.pdmodel", dir);
    snprintf(params_path, sizeof params_path, "%s/mlp.pdiparams", dir);
    snprintf(model_path, len, "%s", prog_path);
  } else {
    snprintf(prog_path, sizeof prog_path, "%s/__model__", dir);
    snprintf(params_path, sizeof params_path, lay == DIR_PARAMS_FILE ? "%s/__params__" : "%s", dir);
    snprintf(model_path, len, "%s", dir);
  }
  ck_assert(tu_write_file(prog_path, bytes, n));
  ck_assert_msg(ic_params_save(p, s, params_path, fmt, err, sizeof err) == IC_OK, "%s", err);
  free(bytes);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  ic_builder_destroy(b);
}

START_TEST(mlp_in_every_layout) {
  fill(w1, IN * HID, 1, 0.5f);
  fill(b1, HID, 2, 0.1f);
  fill(w2, HID * OUT, 3, 0.5f);
  fill(b2, OUT, 4, 0.1f);
  fill(xin, BATCH * IN, 5, 1.0f);
  double ref[BATCH * OUT];
  reference(ref);
  static const char *const names[] = {"pdmodel", "dir_params", "dir_per_var"};
  char *root = tu_tmpdir();
  for (int l = PDMODEL_PDIPARAMS; l <= DIR_FILE_PER_VAR; l++) {
    char dir[1024], model[1200], err[1024];
    snprintf(dir, sizeof dir, "%s/%s", root, names[l]);
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    write_model(dir, (layout)l, model, sizeof model);
    ic_program *p;
    ic_scope *s;
    ck_assert_msg(ic_model_load(model, NULL, 0, &p, &s, err, sizeof err) == IC_OK, "%s: %s",
                  names[l], err);
    ic_tensor *x = tu_f32(2, TU_DIMS(BATCH, IN), xin), *out;
    ck_assert_msg(tu_run_scope(p, s, 1, TU_NAMES("x"), &x, 1, TU_NAMES("softmax_0.tmp_0"), &out,
                               err, sizeof err) == IC_OK,
                  "%s", err);
    tu_assert_shape(out, IC_FP32, 2, TU_DIMS(BATCH, OUT));
    tu_assert_close(out, ref, BATCH * OUT, 1e-5, 1e-7);
    const float *o = ic_tensor_cdata(out);
    for (int n = 0; n < BATCH; n++) {
      double sum = 0;
      for (int k = 0; k < OUT; k++) sum += o[n * OUT + k];
      ck_assert_msg(fabs(sum - 1) < 1e-5, "row %d sums to %g", n, sum);
    }
    ic_tensor_destroy(out);
    /* The same through `icore run MODEL --feed x=x.npy --out DIR`. */
    char npy[1400], outdir[1300], cmd[4200];
    snprintf(npy, sizeof npy, "%s/x.npy", dir);
    snprintf(outdir, sizeof outdir, "%s/out", dir);
    ck_assert_msg(ic_npy_save(npy, x, err, sizeof err) == IC_OK, "%s", err);
    snprintf(cmd, sizeof cmd, "%s run %s --feed x=%s --out %s >/dev/null", IC_CLI_PATH, model, npy,
             outdir);
    ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
    snprintf(npy, sizeof npy, "%s/softmax_0.tmp_0.npy", outdir);
    ic_tensor *cli_out;
    ck_assert_msg(ic_npy_load(npy, &cli_out, err, sizeof err) == IC_OK, "%s", err);
    tu_assert_close(cli_out, ref, BATCH * OUT, 1e-5, 1e-7);
    ic_tensor_destroy(cli_out);
    ic_tensor_destroy(x);
    ic_scope_destroy(s);
    ic_program_destroy(p);
  }
  tu_rmtree(root);
  free(root);
}
END_TEST

/* ---- the four real programs in ../shared/models/paddle ---- */

typedef struct real_model {
  const char *rel, *feed;
  int64_t dims[4];
} real_model;

static const real_model k_real[] = {
    {"paddle/mobilenet_v2/inference.pdmodel", "inputs", {1, 3, 224, 224}},
    {"paddle/pphgnet_plate/inference.pdmodel", "x", {2, 3, 224, 224}},
    {"paddle/ppocr_rec_svtr/inference.pdmodel", "x", {1, 3, 48, 96}},
    {"paddle/crnn_rec/inference.pdmodel", "x", {2, 3, 32, 64}},
};

static ic_program *load_real(const real_model *m, ic_scope **params) {
  char path[4096], err[1024];
  ck_assert_msg(tu_shared(m->rel, path, sizeof path), "missing %s", m->rel);
  ic_program *p;
  ck_assert_msg(ic_model_load(path, NULL, IC_LOAD_NO_PARAMS, &p, params, err, sizeof err) == IC_OK,
                "%s", err);
  ck_assert_msg(ic_params_random(p, 7, *params, err, sizeof err) == IC_OK, "%s", err);
  return p;
}

/* Every element finite, and each row along the last axis summing to 1 (the programs end in
 * a softmax, possibly scaled by 1). */
static void assert_probabilities(const ic_tensor *t, const char *what) {
  int64_t n = ic_tensor_numel(t), w = ic_tensor_dims(t)[ic_tensor_ndim(t) - 1];
  const float *v = ic_tensor_cdata(t);
  for (int64_t r = 0; r < n / w; r++) {
    double sum = 0;
    for (int64_t k = 0; k < w; k++) {
      ck_assert_msg(isfinite(v[r * w + k]), "%s: element %lld is not finite", what,
                    (long long)(r * w + k));
      sum += v[r * w + k];
    }
    ck_assert_msg(fabs(sum - 1) < 1e-4, "%s: row %lld sums to %.7f", what, (long long)r, sum);
  }
}

/* Uncompiled, compiled serial, 2 and 4 threads (tu_run_scope): bitwise equal, finite,
 * softmax rows summing to 1. */
START_TEST(real_programs_agree) {
  const real_model *m = &k_real[_i];
  ic_scope *params;
  ic_program *p = load_real(m, &params);
  ic_tensor *x = tu_rand_f32(4, m->dims, 11, -1, 1), *out;
  const char *fetch = ic_program_fetch_target(p, 0);
  char err[1024];
  ck_assert_msg(tu_run_scope(p, params, 1, &m->feed, &x, 1, &fetch, &out, err, sizeof err) == IC_OK,
                "%s: %s", m->rel, err);
  ck_assert_int_eq(ic_tensor_dims(out)[0], m->dims[0]);
  assert_probabilities(out, m->rel);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  ic_scope_destroy(params);
  ic_program_destroy(p);
}
END_TEST

/* The inference rewrites (conv + batch_norm folding, fused activations and residual adds)
 * stay within float32 tolerance of the plain program, and really fire on these programs.
 * Keeping activations blocked between convolutions (the layout pass, part of the rewrites
 * on the CPU) changes no bit: the run with it switched off is bitwise the same. */
START_TEST(rewrites_within_tolerance) {
  const real_model *m = &k_real[_i];
  ic_scope *params;
  ic_program *p = load_real(m, &params);
  ic_tensor *x = tu_rand_f32(4, m->dims, 13, -1, 1), *out[3];
  const char *fetch = ic_program_fetch_target(p, 0);
  size_t n_instrs[3], n_blocked[3] = {0, 0, 0};
  for (int fuse = 0; fuse < 3; fuse++) {
    ic_options o;
    ic_options_default(&o);
    o.fuse = fuse > 0;
    o.threads = 2;
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ic_executor_plain_layout(e, fuse == 2);
    ck_assert_msg(ic_executor_run(e, p, params, 1, &m->feed, (const ic_tensor *const *)&x, 1,
                                  &fetch, &out[fuse]) == IC_OK,
                  "%s: %s", m->rel, ic_executor_errmsg(e));
    const ic_plan *pl = ic_executor_last_plan(e);
    n_instrs[fuse] = pl->n_instrs;
    for (size_t i = 0; i < pl->n_instrs; i++) {
      n_blocked[fuse] += ic_op_attr(pl->instrs[i].op, "ic_blocked_out") != NULL;
    }
    /* a second run reuses the folded weights */
    ic_tensor *again;
    ck_assert_int_eq(ic_executor_run(e, p, params, 1, &m->feed, (const ic_tensor *const *)&x, 1,
                                     &fetch, &again), IC_OK);
    tu_assert_bitwise(again, out[fuse], "second run");
    ic_tensor_destroy(again);
    ic_executor_destroy(e);
  }
  ck_assert_msg(n_instrs[1] < n_instrs[0], "%s: no rewrite fired (%zu instructions both ways)",
                m->rel, n_instrs[0]);
  ck_assert_msg(n_blocked[1] > 0 && n_blocked[0] == 0 && n_blocked[2] == 0,
                "%s: %zu ops marked ic_blocked_out", m->rel, n_blocked[1]);
  tu_assert_bitwise(out[1], out[2], "blocked versus plain activations");
  int64_t n = ic_tensor_numel(out[0]);
  double *ref = malloc((size_t)n * sizeof *ref);
  for (int64_t k = 0; k < n; k++) ref[k] = ((const float *)ic_tensor_cdata(out[0]))[k];
  tu_assert_close(out[1], ref, (size_t)n, 1e-4, 1e-6);
  assert_probabilities(out[1], m->rel);
  free(ref);
  for (int k = 0; k < 3; k++) ic_tensor_destroy(out[k]);
  ic_tensor_destroy(x);
  ic_scope_destroy(params);
  ic_program_destroy(p);
}
END_TEST

/* PP-OCRv4's DB detector (PP-LCNetV3 backbone: conv, scalar affine, hard_swish, scalar affine,
 * 24 times): the affine before the activation joins the convolution too (ic_PreAffineScale),
 * no hard_swish is left, and the fused program stays within float32 tolerance of the plain
 * one, bitwise equal at 1 and 2 threads and with activations kept plain. */
START_TEST(ppocrv4_det_rewrites) {
  const real_model m = {"paddle-zoo/ppocrv4_det/inference.pdmodel", "x", {1, 3, 64, 96}};
  ic_scope *params;
  ic_program *p = load_real(&m, &params);
  ic_tensor *x = tu_rand_f32(4, m.dims, 13, -1, 1), *out[4];
  const char *fetch = ic_program_fetch_target(p, 0);
  size_t n_pre[4] = {0}, n_hswish[4] = {0};
  for (int run = 0; run < 4; run++) {
    ic_options o;
    ic_options_default(&o);
    o.fuse = run > 0;
    o.threads = run == 3 ? 1 : 2;
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ic_executor_plain_layout(e, run == 2);
    ck_assert_msg(ic_executor_run(e, p, params, 1, &m.feed, (const ic_tensor *const *)&x, 1,
                                  &fetch, &out[run]) == IC_OK,
                  "%s: %s", m.rel, ic_executor_errmsg(e));
    const ic_plan *pl = ic_executor_last_plan(e);
    for (size_t i = 0; i < pl->n_instrs; i++) {
      n_pre[run] += ic_op_input(pl->instrs[i].op, "ic_PreAffineScale") != NULL;
      n_hswish[run] += !strcmp(pl->instrs[i].op->type, "hard_swish");
    }
    ic_executor_destroy(e);
  }
  ck_assert_uint_eq(n_pre[0], 0);
  ck_assert_uint_eq(n_hswish[0], 24);
  ck_assert_msg(n_pre[1] == 24 && n_hswish[1] == 0, "%zu convolutions with an affine before "
                "the activation, %zu hard_swish left", n_pre[1], n_hswish[1]);
  tu_assert_bitwise(out[1], out[2], "blocked versus plain activations");
  tu_assert_bitwise(out[1], out[3], "2 threads versus 1");
  int64_t n = ic_tensor_numel(out[0]);
  double *ref = malloc((size_t)n * sizeof *ref);
  for (int64_t k = 0; k < n; k++) ref[k] = ((const float *)ic_tensor_cdata(out[0]))[k];
  tu_assert_close(out[1], ref, (size_t)n, 1e-4, 1e-6);
  free(ref);
  for (int k = 0; k < 4; k++) ic_tensor_destroy(out[k]);
  ic_tensor_destroy(x);
  ic_scope_destroy(params);
  ic_program_destroy(p);
}
END_TEST

/* Concats joined in place (analysis/join.c) at batch 1: from the second run on, PP-HGNet's six
 * concats, one of the PP-OCRv4 DB detector's (the others gather plain maps into the blocked
 * layout their reader takes) and CloudSeg's fifteen (a U-Net's skip connections beside
 * bilinear upsampling) adopt their inputs' buffer instead of copying, and
 * every run is bitwise the run of a plan without joins, at 1 and 2 threads. */
START_TEST(joins_on_real_programs) {
  static const struct {
    real_model m;
    size_t joined;
  } k[] = {
      {{"paddle/pphgnet_plate/inference.pdmodel", "x", {1, 3, 224, 224}}, 6},
      {{"paddle-zoo/ppocrv4_det/inference.pdmodel", "x", {1, 3, 64, 96}}, 1},
      {{"paddle-zoo/cloudseg/model.pdmodel", "x", {1, 3, 128, 128}}, 15},
  };
  for (size_t c = 0; c < sizeof k / sizeof k[0]; c++) {
    ic_scope *params;
    ic_program *p = load_real(&k[c].m, &params);
    ic_tensor *x = tu_rand_f32(4, k[c].m.dims, 17, -1, 1);
    const char *fetch = ic_program_fetch_target(p, 0);
    for (int threads = 1; threads <= 2; threads++) {
      ic_executor *e[2];
      for (int j = 0; j < 2; j++) {
        ic_options o;
        ic_options_default(&o);
        o.threads = threads;
        ck_assert_int_eq(ic_executor_create(&o, &e[j]), IC_OK);
        ic_executor_no_joins(e[j], j == 1);
      }
      for (int run = 0; run < 3; run++) {
        ic_tensor *out[2];
        for (int j = 0; j < 2; j++) {
          ck_assert_msg(ic_executor_run(e[j], p, params, 1, &k[c].m.feed,
                                        (const ic_tensor *const *)&x, 1, &fetch, &out[j]) == IC_OK,
                        "%s: %s", k[c].m.rel, ic_executor_errmsg(e[j]));
        }
        size_t joined = ic_executor_last_joined(e[0]);
        ck_assert_msg(joined == (run ? k[c].joined : 0), "%s, %d threads, run %d: %zu joined",
                      k[c].m.rel, threads, run, joined);
        ck_assert_uint_eq(ic_executor_last_joined(e[1]), 0);
        tu_assert_bitwise(out[0], out[1], "joined versus copied concats");
        for (int j = 0; j < 2; j++) ic_tensor_destroy(out[j]);
      }
      for (int j = 0; j < 2; j++) ic_executor_destroy(e[j]);
    }
    ic_tensor_destroy(x);
    ic_scope_destroy(params);
    ic_program_destroy(p);
  }
}
END_TEST

static TCase *tc_mlp(void) {
  TCase *tc = tcase_create("mlp");
  tcase_add_test(tc, mlp_in_every_layout);
  return tc;
}

static TCase *tc_real(void) {
  TCase *tc = tcase_create("real programs");
  tcase_set_timeout(tc, 900);
  tcase_add_loop_test(tc, real_programs_agree, 0, (int)(sizeof k_real / sizeof k_real[0]));
  tcase_add_loop_test(tc, rewrites_within_tolerance, 0, (int)(sizeof k_real / sizeof k_real[0]));
  tcase_add_test(tc, ppocrv4_det_rewrites);
  tcase_add_test(tc, joins_on_real_programs);
  return tc;
}

TU_MAIN("models", tc_mlp, tc_real)
