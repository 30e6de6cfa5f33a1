/* Paddle 3's PIR JSON programs (src/program/pir_json.c).
 *
 * pairs:      tests/data/pir/<case>/ holds one program exported by Paddle 3.3.1 in both
 *             formats (tools/gen_pir_pairs.py): model.json and model.pdmodel with one
 *             model.pdiparams. icore must compute bitwise-identical fetches from either file,
 *             in every executor configuration, and match Paddle's own outputs.
 * json:       tests/data/pir/<case>/ for the PIR-only cases (index, math, detect, seq: the
 *             ops the translation maps beyond the pairs): icore on model.json computes
 *             Paddle's outputs (dtype, dims, floats within 1e-4, integers exactly).
 * params:     the parameter file beside a .json is read in the order Paddle's PIR saver
 *             writes it (sorted by name, not the order of the builtin.parameter ops).
 * ocr:        PaddleOCR's PP-OCRv5 detector (inference.json, ../shared) loads and translates
 *             into the expected ops, every op has a kernel, and it runs with random
 *             parameters on 1 x 3 x 64 x 64 in every executor configuration (rewrites off:
 *             compiled bitwise equal to uncompiled), its probabilities finite and in [0, 1].
 * malformed:  located errors for broken documents. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/plan.h"
#include "common/err.h"
#include "interp/interp.h"
#include "kernels/kernel.h"
#include "npy.h"
#include "program/pir_json.h"
#include "program/program.h"
#include "scope/params.h"
#include "testutil.h"

#define PIR_DIR IC_SOURCE_DIR "/tests/data/pir"
#define MAX_IO 80

static const char *const k_cases[] = {"mlp", "cnn", "shape", "eltwise", "dynamic", "nn", "misc",
                                      "ops_index", "ops_math"};
/* PIR-only cases (tests/data/pir/json_cases.txt): model.json with Paddle's outputs. */
static const char *const k_json_cases[] = {"index", "math", "detect", "seq", "more",
                                            "ops3", "more2", "ops6", "fft", "special", "graph", "linalg",
                                            "ops7", "ops8", "jit", "ctrl", "sweep4", "nonfinite",
                                            "v1_mean", "v1_attrs", "v2_attrs", "v3_attrs"};

typedef struct loaded {
  ic_program *prog;
  ic_scope *scope;
} loaded;

static loaded load(const char *path) {
  loaded l = {0};
  char err[1024];
  ic_status st = ic_model_load(path, NULL, 0, &l.prog, &l.scope, err, sizeof err);
  ck_assert_msg(st == IC_OK, "%s: %s", path, err);
  return l;
}

static void unload(loaded *l) {
  ic_scope_destroy(l->scope);
  ic_program_destroy(l->prog);
}

/* Run p on the case's feeds (named by the protobuf program's feed targets, in<k>.npy). */
static size_t run_case(const char *dir, const loaded *l, const ic_program *names_from,
                       ic_tensor **out) {
  size_t nf = ic_program_n_feed_targets(names_from);
  ck_assert_uint_le(nf, MAX_IO);
  const char *feed_names[MAX_IO];
  ic_tensor *feeds[MAX_IO];
  char path[512], err[1024];
  for (size_t i = 0; i < nf; i++) {
    feed_names[i] = ic_program_feed_target(names_from, i);
    snprintf(path, sizeof path, "%s/in%zu.npy", dir, i);
    ck_assert_msg(ic_npy_load(path, &feeds[i], err, sizeof err) == IC_OK, "%s", err);
  }
  size_t nt = ic_program_n_fetch_targets(l->prog);
  ck_assert_uint_le(nt, MAX_IO);
  const char *fetch_names[MAX_IO];
  for (size_t i = 0; i < nt; i++) fetch_names[i] = ic_program_fetch_target(l->prog, i);
  ic_status st = tu_run_scope(l->prog, l->scope, nf, feed_names, feeds, nt, fetch_names, out,
                              err, sizeof err);
  ck_assert_msg(st == IC_OK, "%s: %s", dir, err);
  for (size_t i = 0; i < nf; i++) ic_tensor_destroy(feeds[i]);
  return nt;
}

/* got equals Paddle's value in npy file `path`: same dtype and dims, floats within 1e-4
 * relative + 1e-5 absolute, integers and bools exactly. */
static void assert_matches_npy(const ic_tensor *got, const char *path, const char *what) {
  char err[1024];
  ic_tensor *want;
  ck_assert_msg(ic_npy_load(path, &want, err, sizeof err) == IC_OK, "%s", err);
  ic_dtype dt = ic_tensor_dtype(want);
  ck_assert_msg(ic_tensor_dtype(got) == dt, "%s: dtype %s, Paddle's is %s", what,
                ic_dtype_name(ic_tensor_dtype(got)), ic_dtype_name(dt));
  int nd = ic_tensor_ndim(want);
  ck_assert_msg(ic_tensor_ndim(got) == nd, "%s: rank %d, Paddle's is %d", what,
                ic_tensor_ndim(got), nd);
  for (int d = 0; d < nd; d++) {
    ck_assert_msg(ic_tensor_dims(got)[d] == ic_tensor_dims(want)[d], "%s: dim %d is %lld, "
                  "Paddle's is %lld", what, d, (long long)ic_tensor_dims(got)[d],
                  (long long)ic_tensor_dims(want)[d]);
  }
  int64_t n = ic_tensor_numel(want);
  double *ref = malloc((size_t)(n ? n : 1) * sizeof *ref);
  ck_assert_ptr_nonnull(ref);
  const void *w = ic_tensor_cdata(want);
  bool fp = dt == IC_FP32 || dt == IC_FP64;
  for (int64_t k = 0; k < n; k++) {
    switch (dt) {
      case IC_FP32: ref[k] = ((const float *)w)[k]; break;
      case IC_FP64: ref[k] = ((const double *)w)[k]; break;
      case IC_INT32: ref[k] = ((const int32_t *)w)[k]; break;
      case IC_INT64: ref[k] = (double)((const int64_t *)w)[k]; break;
      case IC_BOOL: case IC_UINT8: ref[k] = ((const uint8_t *)w)[k]; break;
      case IC_INT8: ref[k] = ((const int8_t *)w)[k]; break;
      case IC_INT16: ref[k] = ((const int16_t *)w)[k]; break;
      default: ck_abort_msg("%s: Paddle's dtype %s", what, ic_dtype_name(dt));
    }
  }
  tu_assert_close(got, ref, (size_t)n, fp ? 1e-4 : 0, fp ? 1e-5 : 0);
  free(ref);
  ic_tensor_destroy(want);
}

/* ---- PIR-only cases ------------------------------------------------------------------- */

START_TEST(test_json_case) {
  const char *c = k_json_cases[_i];
  char dir[256], js[320], path[512], what[128];
  snprintf(dir, sizeof dir, "%s/%s", PIR_DIR, c);
  snprintf(js, sizeof js, "%s/model.json", dir);
  loaded l = load(js);
  ic_tensor *out[MAX_IO];
  size_t n = run_case(dir, &l, l.prog, out);
  size_t n_files = 0;
  for (;; n_files++) {
    snprintf(path, sizeof path, "%s/out%zu.npy", dir, n_files);
    FILE *f = fopen(path, "rb");
    if (!f) break;
    fclose(f);
  }
  ck_assert_uint_eq(n, n_files);
  ck_assert_uint_ge(n, 3); /* every case fetches several values (ops6: 3, jit: 5, others 8+) */
  for (size_t i = 0; i < n; i++) {
    snprintf(path, sizeof path, "%s/out%zu.npy", dir, i);
    snprintf(what, sizeof what, "%s fetch %zu (%s)", c, i, ic_program_fetch_target(l.prog, i));
    assert_matches_npy(out[i], path, what);
    ic_tensor_destroy(out[i]);
  }
  unload(&l);
}
END_TEST

/* ---- pairs ---------------------------------------------------------------------------- */

START_TEST(test_pair) {
  const char *c = k_cases[_i];
  char dir[256], pb[320], js[320], path[512];
  snprintf(dir, sizeof dir, "%s/%s", PIR_DIR, c);
  snprintf(pb, sizeof pb, "%s/model.pdmodel", dir);
  snprintf(js, sizeof js, "%s/model.json", dir);
  loaded a = load(pb), b = load(js);
  ck_assert_uint_eq(ic_program_n_feed_targets(a.prog), ic_program_n_feed_targets(b.prog));
  ck_assert_uint_eq(ic_program_n_fetch_targets(a.prog), ic_program_n_fetch_targets(b.prog));
  ck_assert_uint_eq(ic_scope_size(a.scope), ic_scope_size(b.scope));
  ic_tensor *oa[MAX_IO], *ob[MAX_IO];
  size_t na = run_case(dir, &a, a.prog, oa);
  size_t nb = run_case(dir, &b, a.prog, ob);
  ck_assert_uint_eq(na, nb);
  for (size_t i = 0; i < na; i++) {
    char what[128];
    snprintf(what, sizeof what, "%s fetch %zu (.pdmodel vs .json)", c, i);
    tu_assert_bitwise(oa[i], ob[i], what);
    /* And Paddle's own value. */
    snprintf(path, sizeof path, "%s/out%zu.npy", dir, i);
    snprintf(what, sizeof what, "%s fetch %zu", c, i);
    assert_matches_npy(ob[i], path, what);
    ic_tensor_destroy(oa[i]);
    ic_tensor_destroy(ob[i]);
  }
  unload(&a);
  unload(&b);
}
END_TEST

/* The .json and .pdmodel translations hold the same persistables, and the same values are
 * read for each name from the one parameter file. */
START_TEST(test_params_order) {
  for (size_t c = 0; c < sizeof k_cases / sizeof k_cases[0]; c++) {
    char pb[320], js[320];
    snprintf(pb, sizeof pb, "%s/%s/model.pdmodel", PIR_DIR, k_cases[c]);
    snprintf(js, sizeof js, "%s/%s/model.json", PIR_DIR, k_cases[c]);
    loaded a = load(pb), b = load(js);
    const ic_vardesc **va, **vb;
    size_t na, nb;
    ic_err err;
    ck_assert_int_eq(ic_params_list(a.prog, &va, &na, &err), IC_OK);
    ck_assert_int_eq(ic_params_list(b.prog, &vb, &nb, &err), IC_OK);
    ck_assert_uint_eq(na, nb);
    for (size_t i = 0; i < na; i++) {
      ck_assert_str_eq(va[i]->name, vb[i]->name);
      ck_assert_int_eq(va[i]->ndim, vb[i]->ndim);
      for (int d = 0; d < va[i]->ndim; d++) ck_assert_int_eq(va[i]->dims[d], vb[i]->dims[d]);
      tu_assert_bitwise(ic_scope_get(a.scope, va[i]->name), ic_scope_get(b.scope, vb[i]->name),
                        va[i]->name);
    }
    free(va);
    free(vb);
    unload(&a);
    unload(&b);
  }
}
END_TEST

/* The JSON lists builtin.parameter ops in another order than the file (Paddle emits them in
 * reverse creation order): the order check above would catch a loader that followed them. */
START_TEST(test_params_json_order_differs) {
  size_t n;
  char *doc = tu_read_file(PIR_DIR "/cnn/model.json", &n);
  ck_assert_ptr_nonnull(doc);
  const char *names[64];
  size_t k = 0;
  for (char *p = doc; (p = strstr(p, "{\"#\":\"p\",\"A\":[")) && k < 64; p++) {
    char *q = strchr(p + 14, '"');
    ck_assert_ptr_nonnull(q);
    char *e = strchr(q + 1, '"');
    *e = '\0';
    names[k++] = q + 1;
    p = e;
  }
  ck_assert_uint_eq(k, 13);
  bool sorted = true;
  for (size_t i = 1; i < k; i++) sorted = sorted && strcmp(names[i - 1], names[i]) < 0;
  ck_assert_msg(!sorted, "the parameter ops are already sorted: the test proves nothing");
  free(doc);
}
END_TEST

/* ---- PP-OCRv5 detector -------------------------------------------------------------- */

START_TEST(test_ocr_det) {
  char path[512], err[1024];
  ck_assert_msg(tu_shared("paddle-pir/pp_ocrv5_det/inference.json", path, sizeof path),
                "missing ../shared/models/paddle-pir/pp_ocrv5_det/inference.json");
  ic_program *p;
  ic_scope *s;
  ck_assert_msg(ic_model_load(path, NULL, IC_LOAD_NO_PARAMS, &p, &s, err, sizeof err) == IC_OK,
                "%s", err);
  ck_assert_uint_eq(p->n_blocks, 1);
  ck_assert_uint_eq(ic_program_n_feed_targets(p), 1);
  ck_assert_str_eq(ic_program_feed_target(p, 0), "x");
  ck_assert_uint_eq(ic_program_n_fetch_targets(p), 1);
  /* Op types and counts as Paddle's file has them (PIR names -> ProgramDesc names). */
  static const struct {
    const char *type;
    size_t n;
  } want[] = {{"conv2d", 115},   {"batch_norm", 87},      {"elementwise_add", 84},
              {"relu", 60},      {"reshape2", 47},        {"depthwise_conv2d", 27},
              {"concat", 9},     {"nearest_interp_v2", 7}, {"conv2d_transpose", 2},
              {"sigmoid", 2},    {"pool2d", 1},           {"scale", 1},
              {"feed", 1},       {"fetch", 1}};
  size_t total = 0;
  for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
    size_t n = 0;
    for (size_t i = 0; i < p->blocks[0].n_ops; i++) n += strcmp(p->blocks[0].ops[i].type, want[w].type) == 0;
    ck_assert_msg(n == want[w].n, "%s: %zu ops, expected %zu", want[w].type, n, want[w].n);
    total += n;
  }
  ck_assert_uint_eq(total, p->blocks[0].n_ops); /* nothing else (no stray constants) */
  /* Attributes under the names and types the kernels read. */
  const ic_op *conv = NULL, *bn = NULL, *scale = NULL, *pool = NULL;
  for (size_t i = 0; i < p->blocks[0].n_ops; i++) {
    const ic_op *op = &p->blocks[0].ops[i];
    if (!conv && strcmp(op->type, "conv2d") == 0) conv = op;
    if (!bn && strcmp(op->type, "batch_norm") == 0) bn = op;
    if (!scale && strcmp(op->type, "scale") == 0) scale = op;
    if (!pool && strcmp(op->type, "pool2d") == 0) pool = op;
  }
  ck_assert_ptr_nonnull(conv);
  const ic_attr *a = ic_op_attr(conv, "strides");
  ck_assert(a && a->type == IC_ATTR_INTS && a->n == 2 && a->ints[0] == 2 && a->ints[1] == 2);
  a = ic_op_attr(conv, "padding_algorithm");
  ck_assert(a && a->type == IC_ATTR_STRING && strcmp(a->s, "EXPLICIT") == 0);
  ck_assert_ptr_null(ic_op_attr(conv, "struct_name"));
  ck_assert_str_eq(ic_op_input(conv, "Input")->args[0], "x");
  a = ic_op_attr(bn, "data_layout");
  ck_assert(a && strcmp(a->s, "NCHW") == 0);
  a = ic_op_attr(bn, "is_test");
  ck_assert(a && a->type == IC_ATTR_BOOLEAN && a->i == 1);
  a = ic_op_attr(bn, "epsilon");
  ck_assert(a && a->type == IC_ATTR_FLOAT && a->f == (double)1e-5f);
  ck_assert_uint_eq(ic_op_output(bn, "VarianceOut")->n, 1);
  a = ic_op_attr(scale, "scale"); /* folded from pd_op.full */
  ck_assert(a && a->type == IC_ATTR_FLOAT && a->f == 0.5);
  a = ic_op_attr(pool, "ksize"); /* folded from pd_op.full_int_array */
  ck_assert(a && a->type == IC_ATTR_LONGS && a->n == 2 && a->ints[0] == 2);
  /* nearest_interp: PIR's data_format becomes ProgramDesc's data_layout (what the interp
   * kernels read); the scale list and the mode keep their names. */
  const ic_op *interp = NULL, *convt = NULL;
  for (size_t i = 0; i < p->blocks[0].n_ops; i++) {
    const ic_op *op = &p->blocks[0].ops[i];
    if (!interp && strcmp(op->type, "nearest_interp_v2") == 0) interp = op;
    if (!convt && strcmp(op->type, "conv2d_transpose") == 0) convt = op;
  }
  ck_assert_ptr_nonnull(interp);
  a = ic_op_attr(interp, "data_layout");
  ck_assert(a && a->type == IC_ATTR_STRING && strcmp(a->s, "NCHW") == 0);
  ck_assert_ptr_null(ic_op_attr(interp, "data_format"));
  a = ic_op_attr(interp, "scale");
  ck_assert(a && a->type == IC_ATTR_FLOATS && a->n == 2 && a->floats[0] == 2.0);
  a = ic_op_attr(interp, "interp_method");
  ck_assert(a && strcmp(a->s, "nearest") == 0);
  a = ic_op_attr(interp, "align_corners");
  ck_assert(a && a->type == IC_ATTR_BOOLEAN && a->i == 0);
  a = ic_op_attr(interp, "out_h");
  ck_assert(a && a->type == IC_ATTR_INT && a->i == -1);
  ck_assert_uint_eq(ic_op_input(interp, "X")->n, 1);
  ck_assert(!ic_op_input(interp, "OutSize") || ic_op_input(interp, "OutSize")->n == 0);
  /* conv2d_transpose: the kernel reads data_format, strides, paddings, output_padding,
   * dilations, groups, padding_algorithm under the names PIR uses. */
  ck_assert_ptr_nonnull(convt);
  a = ic_op_attr(convt, "data_format");
  ck_assert(a && a->type == IC_ATTR_STRING && strcmp(a->s, "NCHW") == 0);
  a = ic_op_attr(convt, "strides");
  ck_assert(a && a->type == IC_ATTR_INTS && a->n == 2 && a->ints[0] == 2);
  ck_assert_ptr_nonnull(ic_op_attr(convt, "paddings"));
  ck_assert_ptr_nonnull(ic_op_attr(convt, "dilations"));
  ck_assert_ptr_nonnull(ic_op_attr(convt, "groups"));
  ck_assert_ptr_nonnull(ic_op_attr(convt, "padding_algorithm"));
  ck_assert_uint_eq(ic_op_input(convt, "Filter")->n, 1);
  /* 553 parameters, persistable, with their real names and dims. */
  const ic_vardesc **vs;
  size_t nv;
  ic_err e;
  ck_assert_int_eq(ic_params_list(p, &vs, &nv, &e), IC_OK);
  ck_assert_uint_eq(nv, 553);
  free(vs);
  const ic_vardesc *w = ic_program_find_var(p, 0, "conv2d_142.w_0");
  ck_assert_ptr_nonnull(w);
  ck_assert(w->persistable);
  ck_assert_int_eq(w->ndim, 4);
  ck_assert_int_eq(w->dims[1], 65);
  /* Every op has a kernel: it runs with random parameters on a small image, in every
   * executor configuration with the rewrites off (compiled bitwise equal to uncompiled). */
  char missing[512] = "";
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    if (!ic_registry_find(want[i].type)) {
      strncat(missing, " ", sizeof missing - strlen(missing) - 1);
      strncat(missing, want[i].type, sizeof missing - strlen(missing) - 1);
    }
  }
  ck_assert_msg(missing[0] == '\0', "PP-OCRv5 det: no kernel for:%s", missing);
  ck_assert_int_eq(ic_params_random(p, 7, s, err, sizeof err), IC_OK);
  ic_tensor *x = tu_rand_f32(4, TU_DIMS(1, 3, 64, 64), 11, 0.0f, 1.0f);
  const char *fetch = ic_program_fetch_target(p, 0);
  ic_tensor *out = NULL;
  ck_assert_msg(tu_run_scope(p, s, 1, TU_NAMES("x"), &x, 1, &fetch, &out, err, sizeof err) ==
                    IC_OK,
                "PP-OCRv5 det: %s", err);
  tu_assert_shape(out, IC_FP32, 4, TU_DIMS(1, 1, 64, 64));
  const float *v = ic_tensor_data(out);
  for (int64_t i = 0; i < 64 * 64; i++) {
    ck_assert_msg(isfinite(v[i]) && v[i] >= 0.0f && v[i] <= 1.0f, "element %lld is %g",
                  (long long)i, v[i]); /* a sigmoid's probabilities */
  }
  /* With the inference rewrites: the 24 convolution biases Paddle 3 writes as reshape +
   * add join their convolutions (fuse.c bias_reshape), including those whose sum with a
   * later branch becomes that branch's residual (the fallback without the residual add):
   * no reshape2 is left and 22 elementwise_add of 84 (the rest are residuals and the
   * neck's sums); within float32 tolerance of the plain run. */
  {
    ic_options o;
    ic_options_default(&o);
    o.threads = 2;
    ic_executor *ex;
    ck_assert_int_eq(ic_executor_create(&o, &ex), IC_OK);
    ic_tensor *fused = NULL;
    ck_assert_msg(ic_executor_run(ex, p, s, 1, TU_NAMES("x"), (const ic_tensor *const *)&x, 1,
                                  &fetch, &fused) == IC_OK, "%s", ic_executor_errmsg(ex));
    const ic_plan *pl = ic_executor_last_plan(ex);
    size_t n_reshape = 0, n_add = 0;
    for (size_t i = 0; i < pl->n_instrs; i++) {
      n_reshape += strcmp(pl->instrs[i].op->type, "reshape2") == 0;
      n_add += strcmp(pl->instrs[i].op->type, "elementwise_add") == 0;
    }
    ck_assert_msg(n_reshape == 0 && n_add == 22, "fused plan: %zu reshape2, %zu elementwise_add",
                  n_reshape, n_add);
    double *ref = malloc(64 * 64 * sizeof *ref);
    for (int64_t i = 0; i < 64 * 64; i++) ref[i] = v[i];
    tu_assert_close(fused, ref, 64 * 64, 1e-4, 1e-5);
    free(ref);
    ic_tensor_destroy(fused);
    ic_executor_destroy(ex);
  }
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  ic_scope_destroy(s);
  ic_program_destroy(p);
}
END_TEST

/* ---- control flow: pd_op.if as legacy cond ----------------------------------------- */

/* cond/model.json: y = x.sum() > 0 ? relu(x) * 2 : x - 1 (paddle.static.nn.cond). The if
 * becomes what the protobuf program of cond holds: logical_not and cast of the condition,
 * two conditional_blocks (the regions, as blocks 1 and 2), whose yields assign the branch
 * copies "%R.t" / "%R.f" declared in block 0, and select_input joining them. Both branches
 * run right. (The JSON case ctrl checks pd_op.while, nesting and more against Paddle.) */
START_TEST(test_cond_blocks) {
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_program_from_file(PIR_DIR "/cond/model.json", &p, err, sizeof err) == IC_OK,
                "%s", err);
  ck_assert_uint_eq(p->n_blocks, 3);
  ck_assert_int_eq(p->blocks[1].parent, 0);
  ck_assert_int_eq(p->blocks[2].parent, 0);
  const ic_op *cb[2] = {NULL, NULL}, *sel = NULL;
  bool has_not = false;
  for (size_t i = 0; i < p->blocks[0].n_ops; i++) {
    const ic_op *o = &p->blocks[0].ops[i];
    if (strcmp(o->type, "conditional_block") == 0) cb[cb[0] ? 1 : 0] = o;
    if (strcmp(o->type, "select_input") == 0) sel = o;
    if (strcmp(o->type, "logical_not") == 0) has_not = true;
    ck_assert_msg(strncmp(o->type, "pd_op.", 6) != 0, "op %s kept its PIR name", o->type);
  }
  ck_assert(has_not);
  ck_assert_ptr_nonnull(cb[0]);
  ck_assert_ptr_nonnull(cb[1]);
  ck_assert_ptr_nonnull(sel);
  ck_assert_int_eq(ic_op_attr(cb[0], "sub_block")->i, 1);
  ck_assert_int_eq(ic_op_attr(cb[1], "sub_block")->i, 2);
  /* true branch: relu(x) * 2 (the constant folded into scale), then the yield's assign to
   * the true copy of the result, declared in block 0; x is read from block 0 */
  const ic_block *b1 = &p->blocks[1];
  ck_assert_uint_eq(b1->n_ops, 3);
  ck_assert_str_eq(b1->ops[0].type, "relu");
  ck_assert_str_eq(ic_op_input(&b1->ops[0], "X")->args[0], "x");
  ck_assert_str_eq(b1->ops[1].type, "scale");
  ck_assert_str_eq(b1->ops[2].type, "assign");
  const char *tcopy = ic_op_output(&b1->ops[2], "Out")->args[0];
  ck_assert_ptr_nonnull(ic_program_find_var(p, 0, tcopy));
  ck_assert_str_eq(ic_op_input(sel, "X")->args[1], tcopy);
  ck_assert_ptr_nonnull(ic_program_find_var(p, 1, ic_op_output(&b1->ops[0], "Out")->args[0]));
  ck_assert_ptr_null(ic_program_find_var(p, 2, ic_op_output(&b1->ops[0], "Out")->args[0]));
  for (int branch = 0; branch < 2; branch++) {
    ic_scope *s;
    ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
    const float sign = branch ? -1.0f : 1.0f;
    float xv[6];
    for (int i = 0; i < 6; i++) xv[i] = sign * (float)(i + 1) + (i == 0 ? 3.0f * sign : 0.0f);
    xv[1] = -xv[1]; /* mixed signs, so relu matters; the sum keeps the sign */
    ic_tensor *x = tu_f32(2, TU_DIMS(2, 3), xv);
    ic_tensor *out = NULL;
    ic_status st = tu_run_scope(p, s, 1, TU_NAMES("x"), &x, 1,
                                TU_NAMES(ic_program_fetch_target(p, 0)), &out, err, sizeof err);
    ck_assert_msg(st == IC_OK, "%s", err);
    const float *o = ic_tensor_data(out);
    for (int i = 0; i < 6; i++) {
      const float want = branch ? xv[i] - 1.0f : (xv[i] > 0 ? xv[i] : 0.0f) * 2.0f;
      ck_assert_msg(o[i] == want, "branch %d element %d: %g, expected %g", branch, i, o[i], want);
    }
    ic_tensor_destroy(out);
    ic_tensor_destroy(x);
    ic_scope_destroy(s);
  }
  ic_program_destroy(p);
}
END_TEST

/* lod/model.json: ops the JSON cases cannot run through Paddle (LoD inputs, outputs Paddle
 * leaves unwritten at inference) translate to their ProgramDesc ops, slots and attributes. */
static const ic_op *find_op(const ic_program *p, const char *type) {
  for (size_t i = 0; i < p->blocks[0].n_ops; i++) {
    if (strcmp(p->blocks[0].ops[i].type, type) == 0) return &p->blocks[0].ops[i];
  }
  ck_abort_msg("no op %s", type);
  return NULL;
}

static void assert_slot(const ic_op *op, bool input, const char *slot, const char *arg) {
  const ic_slot *s = input ? ic_op_input(op, slot) : ic_op_output(op, slot);
  ck_assert_msg(s && s->n == 1, "%s: %s %s", op->type, input ? "input" : "output", slot);
  if (arg) ck_assert_str_eq(s->args[0], arg);
}

START_TEST(test_lod_ops) {
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_program_from_file(PIR_DIR "/lod/model.json", &p, err, sizeof err) == IC_OK,
                "%s", err);
  const ic_op *gru = find_op(p, "gru");
  assert_slot(gru, true, "Input", "x");
  assert_slot(gru, true, "H0", "h0");
  assert_slot(gru, true, "Weight", "w");
  assert_slot(gru, true, "Bias", "b");
  const char *outs_gru[] = {"BatchGate", "BatchResetHiddenPrev", "BatchHidden", "Hidden"};
  for (size_t k = 0; k < 4; k++) assert_slot(gru, false, outs_gru[k], NULL);
  ck_assert_str_eq(ic_op_attr(gru, "activation")->s, "relu");
  ck_assert_str_eq(ic_op_attr(gru, "gate_activation")->s, "sigmoid");
  ck_assert_int_eq(ic_op_attr(gru, "is_reverse")->i, 1);
  ck_assert_int_eq(ic_op_attr(gru, "origin_mode")->i, 1);
  const ic_op *lstm = find_op(p, "lstm");
  assert_slot(lstm, true, "Input", "x4");
  assert_slot(lstm, true, "H0", "h0");
  assert_slot(lstm, true, "C0", "c0");
  assert_slot(lstm, true, "Weight", "w4");
  assert_slot(lstm, true, "Bias", "b4");
  const char *outs_lstm[] = {"Hidden", "Cell", "BatchGate", "BatchCellPreAct"};
  for (size_t k = 0; k < 4; k++) assert_slot(lstm, false, outs_lstm[k], NULL);
  ck_assert_int_eq(ic_op_attr(lstm, "use_peepholes")->i, 1);
  ck_assert_int_eq(ic_op_attr(lstm, "is_reverse")->i, 1);
  ck_assert_str_eq(ic_op_attr(lstm, "candidate_activation")->s, "identity");
  const ic_op *bc = find_op(p, "box_clip");
  assert_slot(bc, true, "Input", "boxes");
  assert_slot(bc, true, "ImInfo", "im");
  assert_slot(bc, false, "Output", NULL);
  const ic_op *dq = find_op(p, "dequantize_linear");
  const char *ins_dq[] = {"X", "Scale", "ZeroPoint", "InAccum", "InState"};
  const char *args_dq[] = {"x", "s", "z", "s", "s"};
  for (size_t k = 0; k < 5; k++) assert_slot(dq, true, ins_dq[k], args_dq[k]);
  const char *outs_dq[] = {"Y", "OutState", "OutAccum", "OutScale"};
  for (size_t k = 0; k < 4; k++) assert_slot(dq, false, outs_dq[k], NULL);
  ck_assert_int_eq(ic_op_attr(dq, "quant_axis")->i, -1);
  ck_assert_int_eq(ic_op_attr(dq, "qmax")->i, 127);
  const ic_op *ma = find_op(p, "moving_average_abs_max_scale");
  assert_slot(ma, true, "X", "x");
  assert_slot(ma, true, "InAccum", "s");
  assert_slot(ma, true, "InState", "s");
  const char *outs_ma[] = {"Out", "OutScale", "OutState", "OutAccum"};
  for (size_t k = 0; k < 4; k++) assert_slot(ma, false, outs_ma[k], NULL);
  const ic_op *cw = find_op(p, "fake_channel_wise_quantize_abs_max");
  assert_slot(cw, true, "X", "x");
  assert_slot(cw, false, "Out", NULL);
  assert_slot(cw, false, "OutScale", NULL);
  ck_assert_int_eq(ic_op_attr(cw, "quant_axis")->i, 1);
  ck_assert_int_eq(ic_op_attr(cw, "bit_length")->i, 8);
  const ic_op *bs = find_op(p, "beam_search");
  const char *ins_bs[] = {"pre_ids", "pre_scores", "ids", "scores"};
  const char *args_bs[] = {"pi", "ps", "ids", "sc"};
  for (size_t k = 0; k < 4; k++) assert_slot(bs, true, ins_bs[k], args_bs[k]);
  const char *outs_bs[] = {"selected_ids", "selected_scores", "parent_idx"};
  for (size_t k = 0; k < 3; k++) assert_slot(bs, false, outs_bs[k], NULL);
  ck_assert_int_eq(ic_op_attr(bs, "beam_size")->i, 2);
  ck_assert_int_eq(ic_op_attr(bs, "end_id")->i, 1);
  ck_assert_int_eq(ic_op_attr(bs, "is_accumulated")->i, 0);
  ic_program_destroy(p);
}
END_TEST

/* random/model.json: pd_op.uniform's shape, min and max operands (constants) become
 * uniform_random's attributes, pd_op.gaussian becomes gaussian_random and pd_op.multinomial
 * multinomial with num_samples from its operand, pd_op.randint, pd_op.randperm and
 * pd_op.bernoulli their legacy ops; the program runs (the same values in every
 * executor configuration: tu_run_scope) with its outputs in range. Paddle's own values are
 * its random draws, so only the translation and the ranges are compared. */
START_TEST(test_random_ops) {
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_program_from_file(PIR_DIR "/random/model.json", &p, err, sizeof err) == IC_OK,
                "%s", err);
  const ic_op *uni = NULL, *mult = NULL, *gau = NULL, *ri = NULL, *rp = NULL, *be = NULL;
  for (size_t i = 0; i < p->blocks[0].n_ops; i++) {
    const ic_op *op = &p->blocks[0].ops[i];
    if (!strcmp(op->type, "uniform_random")) uni = op;
    if (!strcmp(op->type, "multinomial")) mult = op;
    if (!strcmp(op->type, "gaussian_random")) gau = op;
    if (!strcmp(op->type, "randint")) ri = op;
    if (!strcmp(op->type, "randperm")) rp = op;
    if (!strcmp(op->type, "bernoulli")) be = op;
  }
  ck_assert(uni && mult && gau && ri && rp && be);
  ck_assert(ic_op_attr(ri, "low")->i == -3 && ic_op_attr(ri, "high")->i == 9);
  ck_assert_int_eq(ic_op_attr(rp, "n")->i, 7);
  ck_assert(ic_op_attr(uni, "min")->f == -2.0 && ic_op_attr(uni, "max")->f == 3.0);
  ck_assert_int_eq(ic_op_attr(uni, "seed")->i, 7);
  ck_assert_int_eq(ic_op_attr(mult, "num_samples")->i, 3);
  ck_assert_int_eq(ic_op_attr(mult, "replacement")->i, 0);
  ic_tensor *x = tu_f32(2, TU_DIMS(2, 5), (const float[]){1, 2, 3, 4, 5, -1, 0, 1, 0, -1});
  ic_tensor *out[6];
  const char *fetch[6];
  for (int k = 0; k < 6; k++) fetch[k] = ic_program_fetch_target(p, (size_t)k);
  ck_assert_msg(tu_run_scope(p, NULL, 1, TU_NAMES("x"), &x, 6, fetch, out, err, sizeof err) ==
                    IC_OK,
                "%s", err);
  tu_assert_shape(out[0], IC_FP32, 2, TU_DIMS(2, 5));
  tu_assert_shape(out[1], IC_FP32, 2, TU_DIMS(3, 4));
  tu_assert_shape(out[2], IC_INT64, 2, TU_DIMS(2, 3));
  const float *u = ic_tensor_cdata(out[0]), *g = ic_tensor_cdata(out[1]);
  const int64_t *m = ic_tensor_cdata(out[2]);
  for (int i = 0; i < 10; i++) ck_assert_msg(u[i] >= -2 && u[i] < 3, "uniform %g", u[i]);
  for (int i = 0; i < 12; i++) ck_assert(isfinite(g[i]));
  for (int r = 0; r < 2; r++) {
    for (int s = 0; s < 3; s++) {
      ck_assert(m[r * 3 + s] >= 0 && m[r * 3 + s] < 5);
      for (int t = 0; t < s; t++) ck_assert(m[r * 3 + s] != m[r * 3 + t]); /* no replacement */
    }
  }
  tu_assert_shape(out[3], IC_INT64, 2, TU_DIMS(4, 5));
  tu_assert_shape(out[4], IC_INT32, 1, TU_DIMS(7));
  tu_assert_shape(out[5], IC_FP32, 2, TU_DIMS(2, 5));
  const int64_t *ri_v = ic_tensor_cdata(out[3]);
  for (int i = 0; i < 20; i++) ck_assert(ri_v[i] >= -3 && ri_v[i] < 9);
  const int32_t *rp_v = ic_tensor_cdata(out[4]);
  int seen = 0;
  for (int i = 0; i < 7; i++) {
    ck_assert(rp_v[i] >= 0 && rp_v[i] < 7);
    seen |= 1 << rp_v[i];
  }
  ck_assert_int_eq(seen, 127);
  const float *be_v = ic_tensor_cdata(out[5]);
  for (int i = 0; i < 10; i++) ck_assert(be_v[i] == 0 || be_v[i] == 1);
  for (int k = 0; k < 6; k++) ic_tensor_destroy(out[k]);
  ic_tensor_destroy(x);
  ic_program_destroy(p);
}
END_TEST

/* pd_op.assign_value_ constants become assign_value with the per-dtype value lists; the
 * buffer operand of the inplace form (a pd_op.full) is not emitted. */
START_TEST(test_assign_value) {
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_program_from_file(PIR_DIR "/const/model.json", &p, err, sizeof err) == IC_OK,
                "%s", err);
  const ic_op *av[2];
  size_t n = 0;
  for (size_t i = 0; i < p->blocks[0].n_ops; i++) {
    const ic_op *op = &p->blocks[0].ops[i];
    ck_assert_str_ne(op->type, "fill_constant");
    if (strcmp(op->type, "assign_value") == 0 && n < 2) av[n++] = op;
  }
  ck_assert_uint_eq(n, 2);
  const ic_attr *a = ic_op_attr(av[0], "fp32_values");
  ck_assert(a && a->type == IC_ATTR_FLOATS && a->n == 3);
  ck_assert(a->floats[0] == 1.5 && a->floats[1] == 2.0 && a->floats[2] == 3.0);
  a = ic_op_attr(av[0], "shape");
  ck_assert(a && a->type == IC_ATTR_INTS && a->n == 2 && a->ints[0] == 1 && a->ints[1] == 3);
  a = ic_op_attr(av[0], "dtype");
  ck_assert(a && a->i == IC_FP32);
  a = ic_op_attr(av[1], "int64_values");
  ck_assert(a && a->type == IC_ATTR_LONGS && a->n == 2 && a->ints[0] == 1 && a->ints[1] == 2);
  ck_assert_ptr_null(ic_op_attr(av[1], "fp32_values"));
  ck_assert_int_eq(ic_program_find_var(p, 0, ic_op_output(av[1], "Out")->args[0])->dtype,
                   IC_INT64);
  /* The assign_value kernel reads what the translator wrote: y = x * [1.5, 2, 3] + (1 + 2)
   * (tools/gen_pir_pairs.py's export_const), in every executor configuration. */
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  ic_tensor *x = tu_f32(2, TU_DIMS(2, 3), (const float[]){1, 2, 3, -4, 0.5f, 0});
  ic_tensor *out = NULL;
  ck_assert_msg(tu_run_scope(p, s, 1, TU_NAMES("x"), &x, 1,
                             TU_NAMES(ic_program_fetch_target(p, 0)), &out, err,
                             sizeof err) == IC_OK,
                "%s", err);
  const double want[] = {1 * 1.5 + 3, 2 * 2 + 3, 3 * 3 + 3, -4 * 1.5 + 3, 0.5 * 2 + 3, 0 + 3};
  tu_assert_close(out, want, 6, 0, 0);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  ic_scope_destroy(s);
  ic_program_destroy(p);
}
END_TEST

/* ---- malformed documents -------------------------------------------------------------- */

/* A minimal valid program: x -> scale(x, 2) -> relu -> fetch. %N names values. */
static const char k_doc[] =
    "{\"base_code\":{\"magic\":\"pir\",\"trainable\":true,\"version\":VER},\"program\":{\"regions\":"
    "[{\"#\":\"region_0\",\"blocks\":[{\"#\":\"block_0\",\"args\":[],\"ops\":["
    "{\"#\":\"1.data\",\"A\":[{\"AT\":{\"#\":\"0.a_str\",\"D\":\"x\"},\"N\":\"name\"},"
    "{\"AT\":{\"#\":\"1.a_intarray\",\"D\":[2,3]},\"N\":\"shape\"},"
    "{\"AT\":{\"#\":\"1.a_dtype\",\"D\":\"float32\"},\"N\":\"dtype\"}],\"I\":[],"
    "\"O\":[{\"%\":1,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_f32\"},[2,3],\"NCHW\",[],0]}}]},"
    "{\"#\":\"1.full\",\"A\":[{\"AT\":{\"#\":\"1.a_intarray\",\"D\":[1]},\"N\":\"shape\"},"
    "{\"AT\":{\"#\":\"0.a_f64\",\"D\":2.0},\"N\":\"value\"},"
    "{\"AT\":{\"#\":\"1.a_dtype\",\"D\":\"float32\"},\"N\":\"dtype\"}],\"I\":[],"
    "\"O\":[{\"%\":2,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_f32\"},[1],\"NCHW\",[],0]}}]},"
    "{\"#\":\"1.scale\",\"A\":[{\"AT\":{\"#\":\"0.a_f32\",\"D\":0.5},\"N\":\"bias\"},"
    "{\"AT\":{\"#\":\"0.a_bool\",\"D\":true},\"N\":\"bias_after_scale\"}],\"I\":[{\"%\":1},{\"%\":2}],"
    "\"O\":[{\"%\":3,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_f32\"},[2,3],\"NCHW\",[],0]}}]},"
    "{\"#\":\"1.RELU\",\"A\":[],\"I\":[{\"%\":IN}],"
    "\"O\":[{\"%\":4,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_f32\"},DIMS,\"NCHW\",[],0]}}]},"
    "{\"#\":\"1.fetch\",\"A\":[{\"AT\":{\"#\":\"0.a_str\",\"D\":\"out\"},\"N\":\"name\"},"
    "{\"AT\":{\"#\":\"0.a_i32\",\"D\":0},\"N\":\"col\"}],\"I\":[{\"%\":4}],"
    "\"O\":[{\"%\":5,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_f32\"},[2,3],\"NCHW\",[],0]}}]}"
    "]}]}]}}";

/* k_doc with each "KEY" replaced by its value (pairs, NULL-terminated). */
static char *doc_with(const char *key, ...) {
  static const char *const defaults[][2] = {
      {"VER", "4"}, {"RELU", "relu"}, {"IN", "3"}, {"DIMS", "[2,3]"}};
  const char *vals[4];
  for (int i = 0; i < 4; i++) vals[i] = defaults[i][1];
  va_list ap;
  va_start(ap, key);
  for (const char *k = key; k; k = va_arg(ap, const char *)) {
    const char *v = va_arg(ap, const char *);
    for (int i = 0; i < 4; i++) if (strcmp(k, defaults[i][0]) == 0) vals[i] = v;
  }
  va_end(ap);
  char *out = malloc(sizeof k_doc + 256);
  size_t o = 0;
  for (const char *p = k_doc; *p;) {
    bool hit = false;
    for (int i = 0; i < 4; i++) {
      size_t l = strlen(defaults[i][0]);
      if (strncmp(p, defaults[i][0], l) == 0) {
        o += (size_t)sprintf(out + o, "%s", vals[i]);
        p += l;
        hit = true;
        break;
      }
    }
    if (!hit) out[o++] = *p++;
  }
  out[o] = '\0';
  return out;
}

static ic_status load_doc(const char *doc, size_t n, char *err, size_t errlen) {
  ic_program *p = NULL;
  ic_status st = ic_program_from_bytes(doc, n, "t.json", &p, err, errlen);
  ic_program_destroy(p);
  return st;
}

/* A ProgramDesc whose first block is 123 bytes long starts with 0x0A 0x7B ("\n{"): it must
 * not be taken for JSON. */
START_TEST(test_sniff) {
  ck_assert(ic_pir_json_sniff("{}", 2));
  ck_assert(ic_pir_json_sniff(" \t\r{", 4));
  ck_assert(!ic_pir_json_sniff("\n{", 2));
  ck_assert(!ic_pir_json_sniff("", 0));
  ck_assert(!ic_pir_json_sniff("  ", 2));
  char name[128];
  /* One variable whose name fills block 0 to exactly 123 bytes. */
  for (size_t len = 1; len < 100; len++) {
    memset(name, 'v', len);
    name[len] = '\0';
    ic_builder *t = ic_builder_create();
    tu_var(t, name, IC_FP32, 1, TU_DIMS(2));
    void *bytes;
    size_t n;
    ck_assert_int_eq(ic_builder_serialize(t, &bytes, &n), IC_OK);
    bool hit = n > 2 && ((unsigned char *)bytes)[0] == 0x0a && ((unsigned char *)bytes)[1] == 0x7b;
    if (hit) {
      ck_assert(!ic_pir_json_sniff(bytes, n));
      ic_program *p;
      char err[512];
      ck_assert_msg(ic_program_from_bytes(bytes, n, NULL, &p, err, sizeof err) == IC_OK, "%s", err);
      ck_assert_uint_eq(p->blocks[0].n_vars, 1);
      ic_program_destroy(p);
    }
    free(bytes);
    ic_builder_destroy(t);
    if (hit) return;
  }
  ck_abort_msg("no name length gave a 123-byte block");
}
END_TEST

START_TEST(test_table_sorted) { ck_assert(ic_pir_json_table_sorted()); }
END_TEST

START_TEST(test_minimal_runs) {
  char *doc = doc_with(NULL);
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_program_from_bytes(doc, strlen(doc), "t.json", &p, err, sizeof err) == IC_OK,
                "%s", err);
  /* scale's constant operand folded into its attribute: no fill_constant */
  ck_assert_uint_eq(p->blocks[0].n_ops, 4); /* feed, scale, relu, fetch */
  ck_assert_str_eq(p->blocks[0].ops[1].type, "scale");
  const ic_attr *a = ic_op_attr(&p->blocks[0].ops[1], "scale");
  ck_assert_ptr_nonnull(a);
  ck_assert(a->f == 2.0);
  ck_assert_str_eq(ic_program_fetch_target(p, 0), "out");
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  ic_tensor *x = tu_f32(2, TU_DIMS(2, 3), (const float[]){-1, 0, 1, 2, -3, 0.25f});
  ic_tensor *out;
  ck_assert_int_eq(tu_run_scope(p, s, 1, TU_NAMES("x"), &x, 1, TU_NAMES("out"), &out, err,
                                sizeof err), IC_OK);
  const double want[] = {0, 0.5, 2.5, 4.5, 0, 1.0};
  tu_assert_close(out, want, 6, 0, 0);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  free(doc);
}
END_TEST

START_TEST(test_truncated) {
  char *doc = doc_with(NULL);
  char err[1024];
  size_t n = strlen(doc);
  /* Every cut is an error, never a crash; the message says where. */
  for (size_t cut = 1; cut < n; cut += 7) {
    ck_assert_int_eq(load_doc(doc, cut, err, sizeof err), IC_ERR_INVALID_PROGRAM);
    tu_assert_msg(err, "t.json", "not valid JSON at line 1, column", NULL);
  }
  free(doc);
}
END_TEST

START_TEST(test_wrong_types) {
  char err[1024];
  char *doc = doc_with("DIMS", "\"2x3\"", NULL);
  ck_assert_int_eq(load_doc(doc, strlen(doc), err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "t.json: op #3 (pd_op.relu) in block 0", "result 0", "dims are a string",
                NULL);
  free(doc);
  doc = doc_with("IN", "\"3\"", NULL);
  ck_assert_int_eq(load_doc(doc, strlen(doc), err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "op #3 (pd_op.relu)", "operand 0", "\"%\" is a string, expected an integer",
                NULL);
  free(doc);
  /* An attribute whose data does not match its type. */
  const char *bad = "{\"base_code\":{\"magic\":\"pir\",\"version\":1},\"program\":{\"regions\":[{"
                    "\"blocks\":[{\"args\":[],\"ops\":[{\"#\":\"1.data\",\"A\":[{\"AT\":{\"#\":"
                    "\"0.a_str\",\"D\":7},\"N\":\"name\"}],\"I\":[],\"O\":[]}]}]}]}}";
  ck_assert_int_eq(load_doc(bad, strlen(bad), err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "op #0 (pd_op.data) in block 0", "attribute 'name'", NULL);
  /* The document itself of the wrong shape. */
  ck_assert_int_eq(load_doc("{\"x\": 1}", 8, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "t.json", "base_code", NULL);
  const char *noops = "{\"base_code\":{\"magic\":\"pir\",\"version\":1},\"program\":{\"regions\":[{"
                      "\"blocks\":[{\"args\":[],\"ops\":3}]}]}}";
  ck_assert_int_eq(load_doc(noops, strlen(noops), err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "block 0", "\"ops\" is an integer, expected an array", NULL);
}
END_TEST

/* A pd_op icore cannot translate loads as an op of its PIR name (its operands in X, its
 * results in Out), which analysis then refuses as an op without a kernel: `icore info` lists
 * such ops all at once, as it lists the unknown ops of a ProgramDesc. */
START_TEST(test_unknown_op) {
  char err[1024];
  char *doc = doc_with("RELU", "frobnicate", NULL);
  ic_program *p = NULL;
  ck_assert_msg(ic_program_from_bytes(doc, strlen(doc), "t.json", &p, err, sizeof err) == IC_OK,
                "%s", err);
  ck_assert_uint_eq(p->blocks[0].n_ops, 4); /* feed, scale, the unknown op, fetch */
  const ic_op *u = &p->blocks[0].ops[2];
  ck_assert_str_eq(u->type, "pd_op.frobnicate");
  const ic_slot *x = ic_op_input(u, "X"), *o = ic_op_output(u, "Out");
  ck_assert(x && x->n == 1 && o && o->n == 1);
  ck_assert_str_eq(x->args[0], p->blocks[0].ops[1].outputs[0].args[0]); /* scale's result */
  ic_tensor *in = tu_f32(2, TU_DIMS(2, 3), (const float[]){-1, 0, 1, 2, -3, 0.25f});
  ic_tensor *out = NULL;
  ck_assert_int_ne(tu_run_scope(p, NULL, 1, TU_NAMES("x"), &in, 1, TU_NAMES("out"), &out, err,
                                sizeof err), IC_OK);
  tu_assert_msg(err, "op #2 (pd_op.frobnicate) in block 0", "has no kernel", NULL);
  ic_program_destroy(p);
  free(doc);
  /* a user's custom op (dialect custom_op, "3."): the same */
  doc = doc_with(NULL);
  char *at = strstr(doc, "\"1.relu\"");
  ck_assert_ptr_nonnull(at);
  memcpy(at, "\"3.gapp\"", 8);
  ck_assert_msg(ic_program_from_bytes(doc, strlen(doc), "t.json", &p, err, sizeof err) == IC_OK,
                "%s", err);
  ck_assert_str_eq(p->blocks[0].ops[2].type, "custom_op.gapp");
  ck_assert_int_ne(tu_run_scope(p, NULL, 1, TU_NAMES("x"), &in, 1, TU_NAMES("out"), &out, err,
                                sizeof err), IC_OK);
  tu_assert_msg(err, "op #2 (custom_op.gapp) in block 0", "has no kernel", NULL);
  ic_tensor_destroy(in);
  ic_program_destroy(p);
  free(doc);
  doc = doc_with("RELU", "relu\",\"x\":\"", NULL); /* still relu: unknown keys are ignored */
  ck_assert_int_eq(load_doc(doc, strlen(doc), err, sizeof err), IC_OK);
  free(doc);
}
END_TEST

START_TEST(test_dangling_and_cycle) {
  char err[1024];
  char *doc = doc_with("IN", "99", NULL);
  ck_assert_int_eq(load_doc(doc, strlen(doc), err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "op #3 (pd_op.relu) in block 0", "operand 0 is value %99", "not defined",
                NULL);
  free(doc);
  /* relu reads its own result: a cycle */
  doc = doc_with("IN", "4", NULL);
  ck_assert_int_eq(load_doc(doc, strlen(doc), err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "op #3 (pd_op.relu)", "value %4", "a cycle", NULL);
  free(doc);
  /* reads a value defined by a later op (the fetch's result) */
  doc = doc_with("IN", "5", NULL);
  ck_assert_int_eq(load_doc(doc, strlen(doc), err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "op #3 (pd_op.relu)", "value %5", NULL);
  free(doc);
}
END_TEST

START_TEST(test_versions) {
  char err[1024];
  for (int v = 0; v <= 4; v++) {
    char vs[8];
    snprintf(vs, sizeof vs, "%d", v);
    char *doc = doc_with("VER", vs, NULL);
    ck_assert_msg(load_doc(doc, strlen(doc), err, sizeof err) == IC_OK, "version %d: %s", v, err);
    free(doc);
  }
  char *doc = doc_with("VER", "7", NULL);
  ck_assert_int_eq(load_doc(doc, strlen(doc), err, sizeof err), IC_ERR_UNSUPPORTED);
  tu_assert_msg(err, "t.json", "version 7", "0 to 4", NULL);
  free(doc);
  doc = doc_with("VER", "\"4\"", NULL);
  ck_assert_int_eq(load_doc(doc, strlen(doc), err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "\"version\" is a string", NULL);
  free(doc);
  /* No fetch op at all (the fuzzer's find: sorting zero fetches). */
  const char *nofetch = "{\"base_code\":{\"magic\":\"pir\",\"version\":1},\"program\":{\"regions\":[{"
                        "\"blocks\":[{\"args\":[],\"ops\":[]}]}]}}";
  ic_program *p;
  ck_assert_msg(ic_program_from_bytes(nofetch, strlen(nofetch), NULL, &p, err, sizeof err) == IC_OK,
                "%s", err);
  ck_assert_uint_eq(ic_program_n_fetch_targets(p), 0);
  ck_assert_uint_eq(p->blocks[0].n_ops, 0);
  ic_program_destroy(p);
  const char *magic = "{\"base_code\":{\"magic\":\"onnx\",\"version\":1},\"program\":{}}";
  ck_assert_int_eq(load_doc(magic, strlen(magic), err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "\"magic\" is \"onnx\", expected \"pir\"", NULL);
}
END_TEST

/* A file that is neither format says which formats icore reads; X.json finds X.pdiparams. */
START_TEST(test_neither_format_and_paths) {
  char err[1024];
  const char junk[] = "PK\003\004 this is a zip file";
  ck_assert_int_eq(load_doc(junk, sizeof junk, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "ProgramDesc", "PIR JSON", ".json", ".pdmodel", NULL);
  char *dir = tu_tmpdir();
  char path[512];
  snprintf(path, sizeof path, "%s/m.json", dir);
  size_t n;
  void *doc = tu_read_file(PIR_DIR "/mlp/model.json", &n);
  ck_assert(tu_write_file(path, doc, n));
  free(doc);
  ic_program *p;
  ic_scope *s;
  ck_assert_int_eq(ic_model_load(path, NULL, 0, &p, &s, err, sizeof err), IC_ERR_NOT_FOUND);
  tu_assert_msg(err, "m.pdiparams", "does not exist", NULL);
  snprintf(path, sizeof path, "%s/m.pdiparams", dir);
  doc = tu_read_file(PIR_DIR "/mlp/model.pdiparams", &n);
  ck_assert(tu_write_file(path, doc, n));
  free(doc);
  snprintf(path, sizeof path, "%s/m.json", dir);
  ck_assert_msg(ic_model_load(path, NULL, 0, &p, &s, err, sizeof err) == IC_OK, "%s", err);
  ck_assert_uint_eq(ic_scope_size(s), 6);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

/* The CLI takes X.json wherever it takes X.pdmodel: info, run (same bytes out), inspect,
 * bench. */
START_TEST(test_cli) {
  char *dir = tu_tmpdir();
  char cmd[2048];
  const char *c = PIR_DIR "/cnn";
  for (int k = 0; k < 2; k++) {
    const char *model = k ? "model.json" : "model.pdmodel";
    snprintf(cmd, sizeof cmd, "%s info %s/%s > %s/info%d.txt 2>&1", IC_CLI_PATH, c, model, dir, k);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s run %s/%s --feed img=%s/in0.npy --no-fuse --out %s/out%d > /dev/null 2>&1",
             IC_CLI_PATH, c, model, c, dir, k);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s inspect %s/%s --feed img=%s/in0.npy > /dev/null 2>&1",
             IC_CLI_PATH, c, model, c);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s bench %s/%s --feed img=%s/in0.npy --iters 2 --warmup 1 > /dev/null 2>&1",
             IC_CLI_PATH, c, model, c);
    ck_assert_int_eq(system(cmd), 0);
  }
  char path[512];
  snprintf(path, sizeof path, "%s/info1.txt", dir);
  char *info = tu_read_file(path, NULL);
  ck_assert_ptr_nonnull(info);
  tu_assert_msg(info, "feed targets", "img", "parameters: 13 tensors", "every op type has one", NULL);
  free(info);
  /* Each fetch (by column: the names differ) is the same bytes from either file. */
  char err[512];
  for (int f = 0; f < 2; f++) {
    ic_tensor *t[2];
    for (int k = 0; k < 2; k++) {
      loaded l = load(k ? PIR_DIR "/cnn/model.json" : PIR_DIR "/cnn/model.pdmodel");
      char name[128];
      snprintf(name, sizeof name, "%s", ic_program_fetch_target(l.prog, (size_t)f));
      for (char *q = name; *q; q++) if (*q == '/') *q = '_';
      snprintf(path, sizeof path, "%s/out%d/%s.npy", dir, k, name);
      ck_assert_msg(ic_npy_load(path, &t[k], err, sizeof err) == IC_OK, "%s", err);
      unload(&l);
    }
    tu_assert_bitwise(t[0], t[1], "icore run fetch");
    ic_tensor_destroy(t[0]);
    ic_tensor_destroy(t[1]);
  }
  /* Neither format: the message names the formats. */
  snprintf(cmd, sizeof cmd, "%s info %s/in0.npy > %s/bad.txt 2>&1", IC_CLI_PATH, c, dir);
  ck_assert_int_ne(system(cmd), 0);
  snprintf(path, sizeof path, "%s/bad.txt", dir);
  info = tu_read_file(path, NULL);
  ck_assert_ptr_nonnull(info);
  tu_assert_msg(info, "icore: error:", "PIR JSON", ".pdmodel", NULL);
  free(info);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

/* k_json_cases runs exactly the cases json_cases.txt lists (a case generated but not added
 * here would otherwise never run). */
START_TEST(test_json_cases_listed) {
  char path[512];
  snprintf(path, sizeof path, "%s/json_cases.txt", PIR_DIR);
  char *text = tu_read_file(path, NULL);
  ck_assert_ptr_nonnull(text);
  size_t listed = 0;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"), listed++) {
    bool found = false;
    for (size_t i = 0; i < sizeof k_json_cases / sizeof k_json_cases[0]; i++) {
      found = found || !strcmp(k_json_cases[i], line);
    }
    ck_assert_msg(found, "json_cases.txt lists %s, which tests/test_pir.c does not run", line);
  }
  ck_assert_uint_eq(listed, sizeof k_json_cases / sizeof k_json_cases[0]);
  free(text);
}
END_TEST

static TCase *tc_pairs(void) {
  TCase *tc = tcase_create("pairs");
  tcase_add_loop_test(tc, test_pair, 0, (int)(sizeof k_cases / sizeof k_cases[0]));
  tcase_add_loop_test(tc, test_json_case, 0, (int)(sizeof k_json_cases / sizeof k_json_cases[0]));
  tcase_add_test(tc, test_json_cases_listed);
  tcase_add_test(tc, test_params_order);
  tcase_add_test(tc, test_params_json_order_differs);
  tcase_add_test(tc, test_minimal_runs);
  tcase_add_test(tc, test_table_sorted);
  tcase_add_test(tc, test_sniff);
  tcase_add_test(tc, test_cli);
  return tc;
}

static TCase *tc_ocr(void) {
  TCase *tc = tcase_create("ocr");
  tcase_add_test(tc, test_ocr_det);
  tcase_add_test(tc, test_cond_blocks);
  tcase_add_test(tc, test_lod_ops);
  tcase_add_test(tc, test_assign_value);
  tcase_add_test(tc, test_random_ops);
  return tc;
}

static TCase *tc_malformed(void) {
  TCase *tc = tcase_create("malformed");
  tcase_add_test(tc, test_truncated);
  tcase_add_test(tc, test_wrong_types);
  tcase_add_test(tc, test_unknown_op);
  tcase_add_test(tc, test_dangling_and_cycle);
  tcase_add_test(tc, test_versions);
  tcase_add_test(tc, test_neither_format_and_paths);
  return tc;
}

TU_MAIN("pir", tc_pairs, tc_ocr, tc_malformed)
