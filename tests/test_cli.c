/* The `icore` command and the bundled example, run as the built binaries. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "npy.h"
#include "testutil.h"

#define IC_EXAMPLE_DIR IC_BUILD_DIR "/example"

typedef struct cli_result {
  int status;  /* exit status */
  char *out;   /* stdout */
  char *err;   /* stderr */
} cli_result;

static char *slurp(const char *path) {
  size_t n;
  char *d = tu_read_file(path, &n);
  ck_assert_ptr_nonnull(d);
  char *s = malloc(n + 1);
  memcpy(s, d, n);
  s[n] = '\0';
  free(d);
  return s;
}

/* Run "[ENV] icore ARGS" through the shell (the caller quotes). */
static cli_result run_env(const char *env, const char *fmt, ...) {
  char args[8192], cmd[12288];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  char *dir = tu_tmpdir();
  snprintf(cmd, sizeof cmd, "%s %s %s >%s/out 2>%s/err", env ? env : "", IC_CLI_PATH, args, dir,
           dir);
  int st = system(cmd);
  ck_assert_msg(st != -1 && WIFEXITED(st), "cannot run: %s", cmd);
  cli_result r = {.status = WEXITSTATUS(st)};
  char path[4200];
  snprintf(path, sizeof path, "%s/out", dir);
  r.out = slurp(path);
  snprintf(path, sizeof path, "%s/err", dir);
  r.err = slurp(path);
  tu_rmtree(dir);
  free(dir);
  return r;
}

#define run_cli(...) run_env(NULL, __VA_ARGS__)

static void result_free(cli_result *r) {
  free(r->out);
  free(r->err);
}

static void assert_ok(const cli_result *r) {
  ck_assert_msg(r->status == 0, "exit %d, stderr: %s", r->status, r->err);
}

/* A failure: the status, and one stderr line "icore: error: ..." holding every needle. */
static void assert_fails(const cli_result *r, int status, ...) {
  ck_assert_msg(r->status == status, "exit %d, expected %d; stderr: %s", r->status, status,
                r->err);
  ck_assert_msg(strncmp(r->err, "icore: error: ", 14) == 0, "stderr: %s", r->err);
  const char *nl = strchr(r->err, '\n');
  ck_assert_msg(nl && nl[1] == '\0', "not one line: %s", r->err);
  va_list ap;
  va_start(ap, status);
  for (const char *n; (n = va_arg(ap, const char *));) {
    ck_assert_msg(strstr(r->err, n) != NULL, "stderr \"%s\" lacks \"%s\"", r->err, n);
  }
  va_end(ap);
}

START_TEST(version_help_unknown) {
  cli_result r = run_cli("--version");
  assert_ok(&r);
  ck_assert_msg(strstr(r.out, ICORE_VERSION) != NULL, "%s", r.out);
  result_free(&r);
  r = run_cli("help");
  assert_ok(&r);
  tu_assert_msg(r.out, "run", "info", "--version", NULL);
  result_free(&r);
  r = run_cli("run --help");
  assert_ok(&r);
  tu_assert_msg(r.out, "usage: icore run", "--feed", "--fetch", "--out", "--random-params",
                "--mode", "--threads", "--repeat", "--params", NULL);
  result_free(&r);
  r = run_cli("help info");
  assert_ok(&r);
  tu_assert_msg(r.out, "usage: icore info", NULL);
  result_free(&r);
  r = run_cli("frobnicate x");
  assert_fails(&r, 2, "unknown command 'frobnicate'", NULL);
  result_free(&r);
  r = run_cli("");
  ck_assert_int_eq(r.status, 2);
  result_free(&r);
  r = run_cli("info");
  assert_fails(&r, 2, "info expects 1 argument", NULL);
  result_free(&r);
  r = run_cli("info a b");
  assert_fails(&r, 2, "got 2", NULL);
  result_free(&r);
}
END_TEST

/* The op types /work/shared/models/README.md lists per model. */
START_TEST(info_real_models) {
  static const struct {
    const char *rel, *feed, *ops;
  } models[] = {
      {"paddle/mobilenet_v2/inference.pdmodel", "float32[-1, 3, 224, 224]",
       "batch_norm relu6 conv2d depthwise_conv2d elementwise_add softmax scale pool2d matmul "
       "flatten_contiguous_range feed fetch"},
      {"paddle/pphgnet_plate/inference.pdmodel", "float32[",
       "batch_norm elementwise_add relu elementwise_mul conv2d depthwise_conv2d concat pool2d "
       "softmax scale matmul_v2 flatten_contiguous_range feed fetch"},
      {"paddle/ppocr_rec_svtr/inference.pdmodel", "float32[",
       "batch_norm hard_swish conv2d elementwise_add fill_constant matmul_v2 depthwise_conv2d "
       "transpose2 slice reshape2 dropout swish layer_norm softmax shape pool2d scale relu "
       "hard_sigmoid elementwise_mul squeeze2 flatten_contiguous_range concat assign feed fetch"},
      {"paddle/crnn_rec/inference.pdmodel", "float32[-1, 3, 32, -1]",
       "conv2d batch_norm elementwise_add relu hard_swish depthwise_conv2d pool2d hard_sigmoid "
       "elementwise_mul transpose2 fill_constant_batch_size_like squeeze2 softmax scale rnn "
       "matmul feed fetch"},
  };
  for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
    char path[4096];
    ck_assert_msg(tu_shared(models[m].rel, path, sizeof path), "missing %s", models[m].rel);
    cli_result r = run_cli("info %s", path);
    assert_ok(&r);
    tu_assert_msg(r.out, "feed targets:", "fetch targets:", models[m].feed, "op types:",
                  "parameters:", "kernels: every op type has one", NULL);
    /* every op type appears as a line "  TYPE   COUNT" */
    char ops[1024];
    snprintf(ops, sizeof ops, "%s", models[m].ops);
    size_t listed = 0;
    for (char *save, *t = strtok_r(ops, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
      char line[128];
      snprintf(line, sizeof line, "\n  %s ", t);
      ck_assert_msg(strstr(r.out, line) != NULL, "%s: op type %s not listed:\n%s",
                    models[m].rel, t, r.out);
      listed++;
    }
    char count[64];
    snprintf(count, sizeof count, "%zu op types", listed);
    tu_assert_msg(r.out, count, NULL);
    result_free(&r);
  }
  cli_result r = run_cli("info /nonexistent/model.pdmodel");
  assert_fails(&r, 1, "/nonexistent/model.pdmodel", NULL);
  result_free(&r);
}
END_TEST

/* A parameter with a -1 dim makes the parameter bytes unknown, and info says so. */
START_TEST(info_unknown_size) {
  ic_builder *b = ic_builder_create();
  ic_builder_var(b, 0, "known", IC_FP64, 2, TU_DIMS(3, 4), true);
  ic_builder_var(b, 0, "dyn", IC_FP32, 2, TU_DIMS(-1, 8), true);
  tu_var(b, "x", IC_INT32, 1, TU_DIMS(-1));
  ic_builder_feed(b, "x");
  ic_builder_fetch(b, "x");
  void *bytes;
  size_t n;
  ck_assert_int_eq(ic_builder_serialize(b, &bytes, &n), IC_OK);
  char *dir = tu_tmpdir(), path[4096];
  snprintf(path, sizeof path, "%s/__model__", dir);
  ck_assert(tu_write_file(path, bytes, n));
  cli_result r = run_cli("info %s", dir);
  assert_ok(&r);
  tu_assert_msg(r.out, "parameters: 2 tensors, 1 with -1 dims (e.g. 'dyn'): size unknown",
                "the others hold 12 elements, 96 bytes", "int32[-1]",
                "kernels: every op type has one", NULL);
  result_free(&r);
  free(bytes);
  ic_builder_destroy(b);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

/* An op whose type has a kernel but whose attribute mode icore lacks (rnn in training mode
 * with dropout between its layers) is reported as unsupported, not covered. */
START_TEST(info_unsupported_mode) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 3, TU_DIMS(-1, -1, 4));
  tu_var(b, "h0", IC_FP32, 3, TU_DIMS(1, -1, 8));
  tu_var(b, "w", IC_FP32, 2, TU_DIMS(24, 4));
  tu_var(b, "y", IC_FP32, 3, TU_DIMS(-1, -1, 8));
  tu_var(b, "h", IC_FP32, 3, TU_DIMS(1, -1, 8));
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "h0");
  ic_builder_feed(b, "w");
  ic_builder_op *op = ic_builder_add_op(b, 0, "rnn");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "PreState", "h0");
  ic_builder_in(op, "WeightList", "w");
  ic_builder_out(op, "Out", "y");
  ic_builder_out(op, "State", "h");
  ic_builder_attr_string(op, "mode", "GRU");
  ic_builder_attr_int(op, "hidden_size", 8);
  ic_builder_attr_int(op, "num_layers", 2);
  ic_builder_attr_float(op, "dropout_prob", 0.25f);
  ic_builder_attr_bool(op, "is_test", false); /* training with dropout: icore does not run it */
  ic_builder_fetch(b, "y");
  void *bytes;
  size_t n;
  ck_assert_int_eq(ic_builder_serialize(b, &bytes, &n), IC_OK);
  char *dir = tu_tmpdir(), path[4096];
  snprintf(path, sizeof path, "%s/__model__", dir);
  ck_assert(tu_write_file(path, bytes, n));
  cli_result r = run_cli("info %s", dir);
  assert_ok(&r);
  tu_assert_msg(r.out, "unsupported mode:", "rnn", "is_test false", "dropout_prob 0.25",
                "2 layers", NULL);
  ck_assert_ptr_null(strstr(r.out, "every op type has one"));
  result_free(&r);
  free(bytes);
  ic_builder_destroy(b);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

/* A model whose fetches need no kernel but feed and fetch: x is fed and fetched, "fc/w" and
 * "steps" are parameters fetched directly. */
typedef struct fixture {
  char *dir;
  char model[4096], params[4096], xnpy[4096];
  ic_tensor *x, *w, *steps;
} fixture;

static void path_of(char *buf, const fixture *f, const char *name) {
  snprintf(buf, 4096, "%s/%s", f->dir, name);
}

static void save_npy(const fixture *f, const char *name, const ic_tensor *t) {
  char p[4096], err[1024];
  path_of(p, f, name);
  ck_assert_msg(ic_npy_save(p, t, err, sizeof err) == IC_OK, "%s", err);
}

static fixture make_fixture(void) {
  fixture f = {.dir = tu_tmpdir()};
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 2, TU_DIMS(-1, 3));
  ic_builder_var(b, 0, "fc/w", IC_FP32, 2, TU_DIMS(2, 2), true);
  ic_builder_var(b, 0, "steps", IC_INT64, 1, TU_DIMS(3), true);
  ic_builder_feed(b, "x");
  ic_builder_fetch(b, "x");
  ic_builder_fetch(b, "fc/w");
  void *bytes;
  size_t n;
  ck_assert_int_eq(ic_builder_serialize(b, &bytes, &n), IC_OK);
  path_of(f.model, &f, "model.pdmodel");
  ck_assert(tu_write_file(f.model, bytes, n));
  /* the same program in the old layout: dir/__model__ and one file per parameter */
  char sep[4096], m2[4200];
  path_of(sep, &f, "sep");
  ck_assert_int_eq(mkdir(sep, 0777), 0);
  snprintf(m2, sizeof m2, "%s/__model__", sep);
  ck_assert(tu_write_file(m2, bytes, n));
  /* and without any parameter file */
  path_of(m2, &f, "bare.pdmodel");
  ck_assert(tu_write_file(m2, bytes, n));
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  f.x = tu_f32(2, TU_DIMS(2, 3), (const float[]){1, 2, 3, 4, 5, 6});
  f.w = tu_f32(2, TU_DIMS(2, 2), (const float[]){0.5f, -1.5f, 2.25f, 8});
  f.steps = tu_i64(1, TU_DIMS(3), (const int64_t[]){7, -2, 1ll << 40});
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  ck_assert_int_eq(ic_scope_set(s, "fc/w", f.w), IC_OK);
  ck_assert_int_eq(ic_scope_set(s, "steps", f.steps), IC_OK);
  path_of(f.params, &f, "model.pdiparams");
  ck_assert_msg(ic_params_save(p, s, f.params, IC_PARAMS_COMBINED, err, sizeof err) == IC_OK,
                "%s", err);
  /* a parameter named "fc/w" lives in a subdirectory of the old layout (created by the save) */
  ck_assert_msg(ic_params_save(p, s, sep, IC_PARAMS_SEPARATE, err, sizeof err) == IC_OK, "%s",
                err);
  path_of(f.xnpy, &f, "x.npy");
  save_npy(&f, "x.npy", f.x);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  free(bytes);
  ic_builder_destroy(b);
  return f;
}

static void fixture_free(fixture *f) {
  ic_tensor_destroy(f->x);
  ic_tensor_destroy(f->w);
  ic_tensor_destroy(f->steps);
  tu_rmtree(f->dir);
  free(f->dir);
}

static ic_tensor *load_out(const fixture *f, const char *rel) {
  char p[4096], err[1024];
  path_of(p, f, rel);
  ic_tensor *t;
  ck_assert_msg(ic_npy_load(p, &t, err, sizeof err) == IC_OK, "%s", err);
  return t;
}

START_TEST(run_feed_fetch) {
  fixture f = make_fixture();
  cli_result r = run_cli("run %s --feed x=%s --out %s/out", f.model, f.xnpy, f.dir);
  assert_ok(&r);
  tu_assert_msg(r.out, "x: float32[2, 3]  min=1 max=6 mean=3.5  first: 1 2 3 4 5 6",
                "fc/w: float32[2, 2]  min=-1.5 max=8 mean=2.3125  first: 0.5 -1.5 2.25 8", NULL);
  ic_tensor *x = load_out(&f, "out/x.npy"), *w = load_out(&f, "out/fc_w.npy");
  tu_assert_bitwise(x, f.x, "x.npy");
  tu_assert_bitwise(w, f.w, "fc_w.npy");
  ic_tensor_destroy(x);
  ic_tensor_destroy(w);
  result_free(&r);
  /* --out creates missing parents (mkdir -p), and names the component it cannot create */
  r = run_cli("run %s --feed x=%s --out %s/deep/er//out/", f.model, f.xnpy, f.dir);
  assert_ok(&r);
  x = load_out(&f, "deep/er/out/x.npy");
  tu_assert_bitwise(x, f.x, "deep/er/out/x.npy");
  ic_tensor_destroy(x);
  result_free(&r);
  r = run_cli("run %s --feed x=%s --out %s/out/x.npy/sub", f.model, f.xnpy, f.dir);
  assert_fails(&r, 1, "cannot create the directory", "out/x.npy: Not a directory", NULL);
  result_free(&r);
  /* an explicit fetch of an integer parameter, other executor settings, --name=value */
  r = run_cli("run %s --feed=x=%s --fetch steps --mode uncompiled --threads 2 --repeat 3",
              f.model, f.xnpy);
  assert_ok(&r);
  tu_assert_msg(r.out, "steps: int64[3]  min=-2 max=1099511627776", "first: 7 -2 1099511627776",
                "time: 3 runs", NULL);
  ck_assert_ptr_null(strstr(r.out, "x: float32"));
  result_free(&r);
  /* the old layout: a directory with __model__ and one file per parameter */
  r = run_cli("run %s/sep --feed x=%s --fetch fc/w", f.dir, f.xnpy);
  assert_ok(&r);
  tu_assert_msg(r.out, "fc/w: float32[2, 2]  min=-1.5 max=8", NULL);
  result_free(&r);
  /* --params given explicitly */
  r = run_cli("run %s/bare.pdmodel --params %s --feed x=%s --fetch steps", f.dir, f.params,
              f.xnpy);
  assert_ok(&r);
  tu_assert_msg(r.out, "steps: int64[3]  min=-2", NULL);
  result_free(&r);
  /* ICORE_* variables reach the executor options */
  r = run_env("ICORE_MODE=uncompiled ICORE_THREADS=3", "run %s --feed x=%s", f.model, f.xnpy);
  assert_ok(&r);
  result_free(&r);
  fixture_free(&f);
}
END_TEST

/* --prune: fetch a value computed before an op icore has no kernel for. Without it the run
 * fails naming the op; with it (or ICORE_PRUNE=1) y is printed. */
START_TEST(run_prune) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(3));
  tu_var(b, "y", IC_FP32, 1, TU_DIMS(3));
  tu_var(b, "z", IC_FP32, 1, TU_DIMS(3));
  tu_var(b, "w", IC_FP32, 1, TU_DIMS(3));
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "w"); /* read only after y: --prune --fetch y needs no w */
  ic_builder_op *op = ic_builder_add_op(b, 0, "relu");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  op = ic_builder_add_op(b, 0, "custom_gap");
  ic_builder_in(op, "X", "y");
  ic_builder_in(op, "Y", "w");
  ic_builder_out(op, "Out", "z");
  ic_builder_fetch(b, "z");
  void *bytes;
  size_t n;
  ck_assert_int_eq(ic_builder_serialize(b, &bytes, &n), IC_OK);
  char *dir = tu_tmpdir(), path[4096];
  snprintf(path, sizeof path, "%s/m.pdmodel", dir);
  ck_assert(tu_write_file(path, bytes, n));
  cli_result r = run_cli("run %s --random-feed x=3 --random-feed w=3 --fetch y", path);
  assert_fails(&r, 1, "custom_gap", NULL);
  result_free(&r);
  r = run_cli("run %s --random-feed x=3 --fetch y", path); /* unpruned, w is required */
  assert_fails(&r, 2, "feed target 'w'", NULL);
  result_free(&r);
  for (int mode = 0; mode < 2; mode++) {
    r = run_cli("run %s --random-feed x=3 --fetch y --prune --mode %s", path,
                mode ? "uncompiled" : "compiled");
    assert_ok(&r);
    tu_assert_msg(r.out, "y: float32[3]", NULL);
    result_free(&r);
  }
  r = run_cli("info %s", path); /* info names the op and a value to fetch before it */
  assert_ok(&r);
  tu_assert_msg(r.out, "no kernel yet for: custom_gap",
                "(custom_gap) in block 0: icore run MODEL --prune --fetch 'y' (one of its inputs)",
                NULL);
  result_free(&r);
  r = run_env("ICORE_PRUNE=1", "run %s --random-feed x=3 --fetch y", path);
  assert_ok(&r);
  result_free(&r);
  r = run_cli("run %s --random-feed x=3 --random-feed w=3 --prune", path); /* z: custom_gap */
  assert_fails(&r, 1, "custom_gap", NULL);
  result_free(&r);
  free(bytes);
  ic_builder_destroy(b);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

START_TEST(run_random_params) {
  fixture f = make_fixture();
  /* no parameter file beside bare.pdmodel: an error naming it, unless synthesized */
  cli_result r = run_cli("run %s/bare.pdmodel --feed x=%s", f.dir, f.xnpy);
  assert_fails(&r, 1, "bare.pdiparams", NULL);
  result_free(&r);
  r = run_cli("run %s/bare.pdmodel --random-params 5 --feed x=%s --out %s/rnd", f.dir, f.xnpy,
              f.dir);
  assert_ok(&r);
  ic_tensor *w = load_out(&f, "rnd/fc_w.npy");
  tu_assert_shape(w, IC_FP32, 2, TU_DIMS(2, 2));
  const float *v = ic_tensor_cdata(w);
  for (int k = 0; k < 4; k++) ck_assert(v[k] >= -0.1f && v[k] <= 0.1f && v[k] != 0);
  result_free(&r);
  /* the same seed gives the same values */
  r = run_cli("run %s/bare.pdmodel --random-params 5 --feed x=%s --out %s/rnd2", f.dir, f.xnpy,
              f.dir);
  assert_ok(&r);
  ic_tensor *w2 = load_out(&f, "rnd2/fc_w.npy");
  tu_assert_bitwise(w, w2, "same seed");
  ic_tensor_destroy(w2);
  ic_tensor_destroy(w);
  result_free(&r);
  r = run_cli("run %s --random-params 5 --params %s --feed x=%s", f.model, f.params, f.xnpy);
  assert_fails(&r, 2, "--random-params", NULL);
  result_free(&r);
  r = run_cli("run %s --random-params -3 --feed x=%s", f.model, f.xnpy);
  assert_fails(&r, 2, "--random-params '-3'", NULL);
  result_free(&r);
  fixture_free(&f);
}
END_TEST

START_TEST(run_errors) {
  fixture f = make_fixture();
  /* a feed target that is not given */
  cli_result r = run_cli("run %s", f.model);
  assert_fails(&r, 2, "feed target 'x'", "float32[-1, 3]", "--feed x=", NULL);
  result_free(&r);
  /* the wrong dtype and the wrong rank: expected and received */
  ic_tensor *x64 = tu_f64(2, TU_DIMS(2, 3), NULL), *x24 = tu_f32(3, TU_DIMS(2, 4, 1), NULL);
  save_npy(&f, "x64.npy", x64);
  save_npy(&f, "x24.npy", x24);
  r = run_cli("run %s --feed x=%s/x64.npy", f.model, f.dir);
  assert_fails(&r, 1, "feed 'x'", "expected float32[-1, 3]", "received float64[2, 3]", NULL);
  result_free(&r);
  r = run_cli("run %s --feed x=%s/x24.npy", f.model, f.dir);
  assert_fails(&r, 1, "feed 'x'", "expected float32[-1, 3]", "received float32[2, 4, 1]", NULL);
  result_free(&r);
  ic_tensor_destroy(x64);
  ic_tensor_destroy(x24);
  /* a feed file that does not exist, and one that is no .npy */
  r = run_cli("run %s --feed x=%s/nope.npy", f.model, f.dir);
  assert_fails(&r, 1, "feed 'x'", "nope.npy", NULL);
  result_free(&r);
  char bad[4096];
  path_of(bad, &f, "bad.npy");
  ck_assert(tu_write_file(bad, "not numpy at all", 16));
  r = run_cli("run %s --feed x=%s", f.model, bad);
  assert_fails(&r, 1, bad, "not a .npy file", NULL);
  result_free(&r);
  /* an unknown fetch */
  r = run_cli("run %s --feed x=%s --fetch nope", f.model, f.xnpy);
  assert_fails(&r, 1, "'nope'", NULL);
  result_free(&r);
  /* malformed command lines */
  r = run_cli("run %s --feed x", f.model);
  assert_fails(&r, 2, "NAME=FILE.npy", NULL);
  result_free(&r);
  r = run_cli("run %s --feed x=%s --feed x=%s", f.model, f.xnpy, f.xnpy);
  assert_fails(&r, 2, "twice", NULL);
  result_free(&r);
  r = run_cli("run %s --bogus", f.model);
  assert_fails(&r, 2, "unknown option '--bogus'", NULL);
  result_free(&r);
  r = run_cli("run %s --feed x=%s --out", f.model, f.xnpy);
  assert_fails(&r, 2, "--out needs a value", NULL);
  result_free(&r);
  r = run_cli("run %s --feed x=%s --mode fast", f.model, f.xnpy);
  assert_fails(&r, 2, "--mode 'fast'", NULL);
  result_free(&r);
  r = run_cli("run %s --feed x=%s --threads -1", f.model, f.xnpy);
  assert_fails(&r, 2, "--threads '-1'", NULL);
  result_free(&r);
  r = run_cli("run %s --feed x=%s --repeat 0", f.model, f.xnpy);
  assert_fails(&r, 2, "--repeat '0'", NULL);
  result_free(&r);
  r = run_env("ICORE_MODE=bogus", "run %s --feed x=%s", f.model, f.xnpy);
  assert_fails(&r, 2, "ICORE_MODE", NULL);
  result_free(&r);
  /* a model that does not exist, and a corrupt parameter file */
  r = run_cli("run %s/missing.pdmodel --feed x=%s", f.dir, f.xnpy);
  assert_fails(&r, 1, "missing.pdmodel", NULL);
  result_free(&r);
  ck_assert(tu_write_file(f.params, "\0\0\0\0", 4));
  r = run_cli("run %s --feed x=%s", f.model, f.xnpy);
  assert_fails(&r, 1, f.params, "variable 'fc/w'", "byte offset 4", "truncated", NULL);
  result_free(&r);
  fixture_free(&f);
}
END_TEST

/* ---- the bundled example ---- */

static void check_example_dir(const char *dir) {
  char path[4096], err[1024];
  snprintf(path, sizeof path, "%s/mlp.pdmodel", dir);
  ic_program *p;
  ic_scope *s;
  ck_assert_msg(ic_model_load(path, NULL, 0, &p, &s, err, sizeof err) == IC_OK, "%s", err);
  ck_assert_uint_eq(ic_scope_size(s), 4);
  static const struct {
    const char *name;
    int ndim;
    int64_t dims[2];
  } params[] = {{"fc1.w", 2, {16, 32}}, {"fc1.b", 1, {32}}, {"fc2.w", 2, {32, 10}},
                {"fc2.b", 1, {10}}};
  for (size_t i = 0; i < 4; i++) {
    const ic_tensor *t = ic_scope_get(s, params[i].name);
    ck_assert_msg(t != NULL, "%s missing", params[i].name);
    tu_assert_shape(t, IC_FP32, params[i].ndim, params[i].dims);
    const float *v = ic_tensor_cdata(t);
    bool nonzero = false;
    for (int64_t k = 0; k < ic_tensor_numel(t); k++) {
      ck_assert(v[k] > -0.6f && v[k] < 0.6f);
      nonzero |= v[k] != 0;
    }
    ck_assert(nonzero);
  }
  ck_assert_str_eq(ic_program_feed_target(p, 0), "x");
  ck_assert_str_eq(ic_program_fetch_target(p, 0), "softmax.tmp_0");
  snprintf(path, sizeof path, "%s/x.npy", dir);
  ic_tensor *x;
  ck_assert_msg(ic_npy_load(path, &x, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_shape(x, IC_FP32, 2, TU_DIMS(4, 16));
  ic_tensor_destroy(x);
  ic_scope_destroy(s);
  ic_program_destroy(p);
}

START_TEST(example_files) {
  /* what the build wrote */
  check_example_dir(IC_BUILD_DIR "/example");
  /* written again: the same bytes (deterministic) */
  char *dir = tu_tmpdir(), cmd[8192];
  snprintf(cmd, sizeof cmd, "%s %s", IC_MAKE_EXAMPLE_PATH, dir);
  ck_assert_int_eq(system(cmd), 0);
  check_example_dir(dir);
  static const char *const files[] = {"mlp.pdmodel", "mlp.pdiparams", "x.npy"};
  for (size_t i = 0; i < 3; i++) {
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s/example/%s", IC_BUILD_DIR, files[i]);
    snprintf(b, sizeof b, "%s/%s", dir, files[i]);
    size_t na, nb;
    void *da = tu_read_file(a, &na), *db = tu_read_file(b, &nb);
    ck_assert_msg(da && db && na == nb && memcmp(da, db, na) == 0, "%s differs", files[i]);
    free(da);
    free(db);
  }
  /* icore info describes it */
  cli_result r = run_cli("info %s/mlp.pdmodel", dir);
  assert_ok(&r);
  tu_assert_msg(r.out, "x ", "float32[-1, 16]", "softmax.tmp_0", "float32[-1, 10]", "\n  mul ",
                "\n  elementwise_add ", "\n  relu ", "\n  softmax ",
                "parameters: 4 tensors, 874 elements, 3496 bytes", NULL);
  result_free(&r);
  ck_assert_int_ne(system(IC_MAKE_EXAMPLE_PATH " >/dev/null 2>&1"), 0);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

/* The example MLP: bench alternates the two executors and says they agree. */
START_TEST(bench_example) {
  char *dir = tu_tmpdir(), json[512];
  snprintf(json, sizeof json, "%s/b.json", dir);
  cli_result r = run_cli("bench %s/mlp.pdmodel --feed x=%s/x.npy --iters 5 --warmup 1 --threads 1 "
                         "--json %s",
                         IC_EXAMPLE_DIR, IC_EXAMPLE_DIR, json);
  assert_ok(&r);
  tu_assert_msg(r.out, "uncompiled", "compiled", "median (ms)", "p90 (ms)", "first run (ms)",
                "speed-up", "outputs: bitwise equal", NULL);
  char *j = slurp(json);
  tu_assert_msg(j, "\"uncompiled\": {\"median_ms\"", "\"compiled\"", "\"speedup\"",
                "\"bitwise_equal\": true", NULL);
  free(j);
  result_free(&r);
  r = run_cli("bench %s/mlp.pdmodel --feed x=%s/x.npy --iters 0", IC_EXAMPLE_DIR, IC_EXAMPLE_DIR);
  assert_fails(&r, 2, "--iters", NULL);
  result_free(&r);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

/* inspect: the plan, edges, lifetimes, shapes and peak bytes with feeds, a DOT file; and
 * with a device, streams and events. */
START_TEST(inspect_example) {
  char *dir = tu_tmpdir(), dot[512];
  snprintf(dot, sizeof dot, "%s/plan.dot", dir);
  cli_result r = run_cli("inspect %s/mlp.pdmodel --feed x=%s/x.npy --dot %s", IC_EXAMPLE_DIR,
                         IC_EXAMPLE_DIR, dot);
  assert_ok(&r);
  tu_assert_msg(r.out, "plan: ", "edges: ", "before pruning", "critical path", "maximum width",
                "instructions:", "softmax", "variables:", "float32[4, 10]",
                "peak live bytes", NULL);
  char *d = slurp(dot);
  tu_assert_msg(d, "digraph plan", "->", "softmax", NULL);
  free(d);
  result_free(&r);
  r = run_cli("inspect %s/mlp.pdmodel --device emu:0 --streams per-backend", IC_EXAMPLE_DIR);
  assert_ok(&r);
  tu_assert_msg(r.out, "device emu:0: 3 streams", "memcpy_h2d", "memcpy_d2h", "stream 0",
                "waits on", NULL);
  result_free(&r);
  r = run_cli("inspect %s/mlp.pdmodel --streams sideways", IC_EXAMPLE_DIR);
  assert_fails(&r, 2, "--streams", "sideways", NULL);
  result_free(&r);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

/* inspect on a program with nested while loops: every block's sub-plan (outer variables by
 * index, marked ^), and the sub-blocks as DOT clusters. */
START_TEST(inspect_control_flow) {
  char *dir = tu_tmpdir(), dot[512];
  snprintf(dot, sizeof dot, "%s/plan.dot", dir);
  const char *m = IC_SOURCE_DIR "/tests/data/paddle_ctrl/while_loop_nested";
  cli_result r = run_cli("inspect %s/model.pdmodel --feed x=%s/in0.npy --dot %s", m, m, dot);
  assert_ok(&r);
  tu_assert_msg(r.out, "sub-plan of #5 (while): block 1", "of outer blocks, by index",
                "sub-plan of block 1 #3 (while): block 2", "^x", "[releases", NULL);
  char *d = slurp(dot);
  tu_assert_msg(d, "subgraph cluster_n5 {", "label=\"block 1\"", "subgraph cluster_n5_3 {",
                "label=\"block 2\"", "n5 -> n5_0 [style=dotted]", NULL);
  free(d);
  result_free(&r);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

/* run --profile writes a Chrome trace; --device emu:0 gives the CPU's answer. */
START_TEST(run_profile_and_device) {
  char *dir = tu_tmpdir(), trace[512];
  snprintf(trace, sizeof trace, "%s/t.json", dir);
  cli_result cpu = run_cli("run %s/mlp.pdmodel --feed x=%s/x.npy --profile %s --threads 2",
                           IC_EXAMPLE_DIR, IC_EXAMPLE_DIR, trace);
  assert_ok(&cpu);
  char *t = slurp(trace);
  /* the example's mul, bias add (and relu) run as one fc (fuse_linear.c) */
  tu_assert_msg(t, "\"traceEvents\"", "\"ph\":\"X\"", "\"fc\"", "\"softmax\"", "\"analysis\"", NULL);
  free(t);
  cli_result emu = run_cli("run %s/mlp.pdmodel --feed x=%s/x.npy --device emu:0", IC_EXAMPLE_DIR,
                           IC_EXAMPLE_DIR);
  assert_ok(&emu);
  ck_assert_str_eq(emu.out, cpu.out);
  result_free(&emu);
  result_free(&cpu);
  cli_result r = run_cli("run %s/mlp.pdmodel --feed x=%s/x.npy --profile %s --mode uncompiled",
                         IC_EXAMPLE_DIR, IC_EXAMPLE_DIR, trace);
  assert_fails(&r, 2, "--profile", NULL);
  result_free(&r);
  r = run_cli("run %s/mlp.pdmodel --feed x=%s/x.npy --device tpu:0", IC_EXAMPLE_DIR, IC_EXAMPLE_DIR);
  assert_fails(&r, 2, "--device", "tpu:0", NULL);
  result_free(&r);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

/* --lod gives a feed LoD levels (';' or a repeated flag for more); run prints fetched LoD. */
START_TEST(run_lod) {
  fixture f = make_fixture();
  cli_result r = run_cli("run %s --feed x=%s --lod x=0,1,2", f.model, f.xnpy);
  assert_ok(&r);
  tu_assert_msg(r.out, "x: float32[2, 3]", "x: lod [[0, 1, 2]]", NULL);
  result_free(&r);
  r = run_cli("run %s --feed x=%s --lod 'x=0,1;0,2' --mode uncompiled --out %s/o", f.model,
              f.xnpy, f.dir);
  assert_ok(&r);
  tu_assert_msg(r.out, "x: lod [[0, 1], [0, 2]]", NULL);
  result_free(&r);
  char lodf[4200];
  snprintf(lodf, sizeof lodf, "%s/o/x.lod", f.dir);
  char *lodtxt = slurp(lodf);
  ck_assert_str_eq(lodtxt, "0 1\n0 2\n");
  free(lodtxt);
  r = run_cli("run %s --feed x=%s --lod x=0,2 --lod x=0,0,2", f.model, f.xnpy);
  assert_ok(&r);
  tu_assert_msg(r.out, "x: lod [[0, 2], [0, 0, 2]]", NULL);
  result_free(&r);
  r = run_cli("run %s --feed x=%s --lod x=0,1,3", f.model, f.xnpy);
  assert_fails(&r, 2, "--lod x=[[0, 1, 3]]", "ends at 3, expected 2", "2 rows", NULL);
  result_free(&r);
  r = run_cli("run %s --feed x=%s --lod x=0,1,a", f.model, f.xnpy);
  assert_fails(&r, 2, "--lod x", "expected offsets like 0,3,7", NULL);
  result_free(&r);
  r = run_cli("run %s --feed x=%s --lod y=0,2", f.model, f.xnpy);
  assert_fails(&r, 2, "--lod 'y=0,2'", "no --feed or --random-feed of that name", NULL);
  result_free(&r);
  r = run_cli("run %s --feed x=%s --lod x", f.model, f.xnpy);
  assert_fails(&r, 2, "--lod 'x'", "expected NAME=0,3,7", NULL);
  result_free(&r);
  fixture_free(&f);
  /* a real LoD program: the nlp_hh_youth text classifier, end to end */
  char model[4096], ids[4096];
  ck_assert(tu_shared("paddle-zoo/nlp_hh_youth/__model__", model, sizeof model));
  snprintf(ids, sizeof ids, "%s/tests/data/zoo/nlp_hh_youth/in_words.npy", IC_SOURCE_DIR);
  *strrchr(model, '/') = 0;
  r = run_cli("run %s --feed words=%s --lod words=0,4,5,11", model, ids);
  assert_ok(&r);
  tu_assert_msg(r.out, "fc_0.tmp_4: float32[3, 10]", NULL);
  result_free(&r);
  r = run_cli("run %s --feed words=%s", model, ids);
  assert_fails(&r, 1, "sequence_conv", "0 LoD level(s)", "--lod", NULL);
  result_free(&r);
}
END_TEST

/* icore train on Paddle's fc + SGD example (tests/data/train/seed): losses and trained
 * parameters match Paddle's, from --params or from the startup program. */
START_TEST(train_seed_example) {
  char d[1024], path[1200], err[1024], *tmp = tu_tmpdir();
  snprintf(d, sizeof d, "%s/tests/data/train/seed", IC_SOURCE_DIR);
  ic_tensor *x = NULL, *loss = NULL, *xs = NULL, *got = NULL;
  snprintf(path, sizeof path, "%s/X.npy", d);
  ck_assert_msg(ic_npy_load(path, &x, err, sizeof err) == IC_OK, "%s", err);
  /* [80, 1] -> [20, 4, 1]: one batch of 4 per step */
  ck_assert_int_eq(ic_tensor_create(IC_FP32, 3, TU_DIMS(20, 4, 1), &xs), IC_OK);
  memcpy(ic_tensor_data(xs), ic_tensor_cdata(x), ic_tensor_nbytes(x));
  snprintf(path, sizeof path, "%s/xs.npy", tmp);
  ck_assert_msg(ic_npy_save(path, xs, err, sizeof err) == IC_OK, "%s", err);

  cli_result r = run_cli("train %s/main.pdmodel --params %s/init.pdiparams --feed X=%s/xs.npy "
                         "--steps 20 --fetch mean_0.tmp_0 --out %s/out --save %s/trained",
                         d, d, tmp, tmp, tmp);
  assert_ok(&r);
  ck_assert_ptr_nonnull(strstr(r.out, "step 0 mean_0.tmp_0: float32[]"));
  ck_assert_ptr_nonnull(strstr(r.out, "step 19 mean_0.tmp_0: float32[]"));
  result_free(&r);
  snprintf(path, sizeof path, "%s/loss.npy", d);
  ck_assert_msg(ic_npy_load(path, &loss, err, sizeof err) == IC_OK, "%s", err);
  snprintf(path, sizeof path, "%s/out/mean_0.tmp_0.npy", tmp);
  ck_assert_msg(ic_npy_load(path, &got, err, sizeof err) == IC_OK, "%s", err);
  ck_assert_int_eq(ic_tensor_numel(got), 20);
  double ref[20];
  for (int k = 0; k < 20; k++) ref[k] = ((const float *)ic_tensor_cdata(loss))[k];
  tu_assert_close(got, ref, 20, 1e-5, 1e-7);

  /* the saved file holds Paddle's final parameters */
  ic_program *p = NULL;
  ic_scope *mine = NULL, *paddle = NULL;
  snprintf(path, sizeof path, "%s/main.pdmodel", d);
  ck_assert_msg(ic_program_from_file(path, &p, err, sizeof err) == IC_OK, "%s", err);
  ck_assert_int_eq(ic_scope_create(NULL, &mine), IC_OK);
  ck_assert_int_eq(ic_scope_create(NULL, &paddle), IC_OK);
  snprintf(path, sizeof path, "%s/trained", tmp);
  ck_assert_msg(ic_params_load(p, path, IC_PARAMS_COMBINED, mine, err, sizeof err) == IC_OK,
                "%s", err);
  snprintf(path, sizeof path, "%s/final.pdiparams", d);
  ck_assert_msg(ic_params_load(p, path, IC_PARAMS_COMBINED, paddle, err, sizeof err) == IC_OK,
                "%s", err);
  const char *names[] = {"fc_0.w_0", "fc_0.b_0", "learning_rate_0"};
  for (int i = 0; i < 3; i++) {
    const ic_tensor *w = ic_scope_get(paddle, names[i]);
    double v[16];
    for (int64_t k = 0; k < ic_tensor_numel(w); k++) v[k] = ((const float *)ic_tensor_cdata(w))[k];
    tu_assert_close(ic_scope_get(mine, names[i]), v, (size_t)ic_tensor_numel(w), 1e-4, 1e-6);
  }

  /* from the startup program, saving one file per variable into a directory */
  snprintf(path, sizeof path, "%s/dir", tmp);
  ck_assert_int_eq(mkdir(path, 0777), 0);
  r = run_cli("train %s/main.pdmodel --startup %s/startup.pdmodel --feed X=%s/xs.npy "
              "--steps 20 --fetch mean_0.tmp_0 --save %s/dir --mode uncompiled", d, d, tmp, tmp);
  assert_ok(&r);
  result_free(&r);
  snprintf(path, sizeof path, "%s/dir/fc_0.w_0", tmp);
  ic_tensor *w = NULL;
  ck_assert_msg(ic_tensor_load_file(path, &w, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_shape(w, IC_FP32, 2, TU_DIMS(1, 10));
  ic_tensor_destroy(w);

  /* errors */
  r = run_cli("train %s/main.pdmodel --feed X=%s/xs.npy --steps 2", d, tmp);
  assert_fails(&r, 2, "--startup", "--params", NULL);
  result_free(&r);
  r = run_cli("train %s/main.pdmodel --params %s/init.pdiparams --steps 2 --fetch mean_0.tmp_0",
              d, d);
  assert_fails(&r, 1, "step 0", "'X'", NULL);
  result_free(&r);
  r = run_cli("train %s/main.pdmodel --params %s/init.pdiparams --feed X=%s/xs.npy --steps 0",
              d, d, tmp);
  assert_fails(&r, 2, "--steps", NULL);
  result_free(&r);

  ic_scope_destroy(mine);
  ic_scope_destroy(paddle);
  ic_program_destroy(p);
  ic_tensor_destroy(x);
  ic_tensor_destroy(xs);
  ic_tensor_destroy(loss);
  ic_tensor_destroy(got);
  tu_rmtree(tmp);
  free(tmp);
}
END_TEST

/* Save rows of a [steps * batch, ...] npy file as [steps, batch, ...] into tmp/NAME. */
static void restack(const char *src, int steps, const char *tmp, const char *name) {
  char err[1024], path[1200];
  ic_tensor *t = NULL, *u = NULL;
  ck_assert_msg(ic_npy_load(src, &t, err, sizeof err) == IC_OK, "%s", err);
  int nd = ic_tensor_ndim(t);
  int64_t dims[8] = {steps, ic_tensor_dims(t)[0] / steps};
  for (int i = 1; i < nd; i++) dims[i + 1] = ic_tensor_dims(t)[i];
  ck_assert_int_eq(ic_tensor_create(ic_tensor_dtype(t), nd + 1, dims, &u), IC_OK);
  memcpy(ic_tensor_data(u), ic_tensor_cdata(t), ic_tensor_nbytes(t));
  snprintf(path, sizeof path, "%s/%s", tmp, name);
  ck_assert_msg(ic_npy_save(path, u, err, sizeof err) == IC_OK, "%s", err);
  ic_tensor_destroy(t);
  ic_tensor_destroy(u);
}

static ic_tensor *load_npy2(const char *dir, const char *file) {
  char path[1200], err[1024];
  ic_tensor *t = NULL;
  snprintf(path, sizeof path, "%s/%s", dir, file);
  ck_assert_msg(ic_npy_load(path, &t, err, sizeof err) == IC_OK, "%s", err);
  return t;
}

/* Learning-rate schedules with icore train (tests/data/train/lr_*, see test_train):
 * a paddle.optimizer.lr scheduler's learning_rate_0 fed per step from a float32[20] file
 * reproduces Paddle's losses; a legacy piecewise_decay program computes Paddle's learning
 * rate of every step itself. --progress prints a line per step on stderr. */
START_TEST(train_lr_schedules) {
  char d[1024], src[1200], *tmp = tu_tmpdir();
  snprintf(d, sizeof d, "%s/tests/data/train/lr_scheduler", IC_SOURCE_DIR);
  snprintf(src, sizeof src, "%s/x.npy", d);
  restack(src, 20, tmp, "x.npy");
  snprintf(src, sizeof src, "%s/y.npy", d);
  restack(src, 20, tmp, "y.npy");
  cli_result r = run_cli("train %s/main.pdmodel --params %s/init.pdiparams --feed x=%s/x.npy "
                         "--feed y=%s/y.npy --feed learning_rate_0=%s/lr.npy --steps 20 "
                         "--fetch mean_0.tmp_0 --fetch learning_rate_0 --out %s/out --progress "
                         "--save %s/trained",
                         d, d, tmp, tmp, d, tmp, tmp);
  assert_ok(&r);
  tu_assert_msg(r.err, "step 1/20  mean_0.tmp_0 ", "step 20/20  mean_0.tmp_0 ", "steps/s", NULL);
  result_free(&r);
  ic_tensor *loss = load_npy2(d, "loss.npy"), *lr = load_npy2(d, "lr.npy");
  snprintf(src, sizeof src, "%s/out", tmp);
  ic_tensor *got = load_npy2(src, "mean_0.tmp_0.npy"), *got_lr = load_npy2(src, "learning_rate_0.npy");
  double ref[20];
  for (int k = 0; k < 20; k++) ref[k] = ((const float *)ic_tensor_cdata(loss))[k];
  tu_assert_close(got, ref, 20, 1e-5, 1e-7);
  tu_assert_bitwise(got_lr, lr, "fed learning rate");
  /* --save writes the fed learning rate as Paddle's scope held it after the last step */
  {
    char path[1300], err[1024];
    ic_program *p = NULL;
    ic_scope *mine = NULL, *paddle = NULL;
    snprintf(path, sizeof path, "%s/main.pdmodel", d);
    ck_assert_msg(ic_program_from_file(path, &p, err, sizeof err) == IC_OK, "%s", err);
    ck_assert_int_eq(ic_scope_create(NULL, &mine), IC_OK);
    ck_assert_int_eq(ic_scope_create(NULL, &paddle), IC_OK);
    snprintf(path, sizeof path, "%s/trained", tmp);
    ck_assert_msg(ic_params_load(p, path, IC_PARAMS_COMBINED, mine, err, sizeof err) == IC_OK,
                  "%s", err);
    snprintf(path, sizeof path, "%s/final.pdiparams", d);
    ck_assert_msg(ic_params_load(p, path, IC_PARAMS_COMBINED, paddle, err, sizeof err) == IC_OK,
                  "%s", err);
    const ic_tensor *want = ic_scope_get(paddle, "learning_rate_0");
    ck_assert_float_eq(((const float *)ic_tensor_cdata(want))[0],
                       ((const float *)ic_tensor_cdata(lr))[19]);
    tu_assert_bitwise(ic_scope_get(mine, "learning_rate_0"), want, "saved learning rate");
    ic_scope_destroy(mine);
    ic_scope_destroy(paddle);
    ic_program_destroy(p);
  }
  ic_tensor_destroy(loss);
  ic_tensor_destroy(lr);
  ic_tensor_destroy(got);
  ic_tensor_destroy(got_lr);

  /* a learning rate of the wrong dtype or rank is refused with the declared one */
  r = run_cli("train %s/main.pdmodel --params %s/init.pdiparams --feed x=%s/x.npy "
              "--feed y=%s/y.npy --feed learning_rate_0=%s/x.npy --steps 20", d, d, tmp, tmp, tmp);
  assert_fails(&r, 1, "step 0", "feed 'learning_rate_0'", "expected float32[]", "rank",
               "received float32[4, 4]", NULL);
  result_free(&r);

  /* no --progress, not a terminal: no progress line */
  snprintf(d, sizeof d, "%s/tests/data/train/lr_piecewise", IC_SOURCE_DIR);
  snprintf(src, sizeof src, "%s/x.npy", d);
  restack(src, 20, tmp, "x.npy");
  snprintf(src, sizeof src, "%s/y.npy", d);
  restack(src, 20, tmp, "y.npy");
  r = run_cli("train %s/main.pdmodel --params %s/init.pdiparams --feed x=%s/x.npy "
              "--feed y=%s/y.npy --steps 20 --fetch mean_0.tmp_0 --fetch learning_rate "
              "--out %s/out2", d, d, tmp, tmp, tmp);
  assert_ok(&r);
  ck_assert_msg(strstr(r.err, "steps/s") == NULL, "stderr: %s", r.err);
  result_free(&r);
  loss = load_npy2(d, "loss.npy");
  lr = load_npy2(d, "lr.npy");
  snprintf(src, sizeof src, "%s/out2", tmp);
  got = load_npy2(src, "mean_0.tmp_0.npy");
  got_lr = load_npy2(src, "learning_rate.npy");
  for (int k = 0; k < 20; k++) ref[k] = ((const float *)ic_tensor_cdata(loss))[k];
  tu_assert_close(got, ref, 20, 1e-5, 1e-7);
  tu_assert_bitwise(got_lr, lr, "piecewise_decay's learning rate");
  ic_tensor_destroy(loss);
  ic_tensor_destroy(lr);
  ic_tensor_destroy(got);
  ic_tensor_destroy(got_lr);
  tu_rmtree(tmp);
  free(tmp);
}
END_TEST

static TCase *tc_cli(void) {
  TCase *tc = tcase_create("cli");
  tcase_add_test(tc, version_help_unknown);
  tcase_add_test(tc, info_real_models);
  tcase_add_test(tc, info_unknown_size);
  tcase_add_test(tc, info_unsupported_mode);
  tcase_add_test(tc, run_feed_fetch);
  tcase_add_test(tc, run_random_params);
  tcase_add_test(tc, run_prune);
  tcase_add_test(tc, run_errors);
  tcase_add_test(tc, run_lod);
  tcase_add_test(tc, bench_example);
  tcase_add_test(tc, inspect_example);
  tcase_add_test(tc, inspect_control_flow);
  tcase_add_test(tc, run_profile_and_device);
  tcase_add_test(tc, train_seed_example);
  tcase_add_test(tc, train_lr_schedules);
  return tc;
}

static TCase *tc_example(void) {
  TCase *tc = tcase_create("example");
  tcase_add_test(tc, example_files);
  return tc;
}

TU_MAIN("cli", tc_cli, tc_example)
