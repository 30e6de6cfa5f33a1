/* The checkpoint ops save, load, save_combine and load_combine against Paddle 3.3.1
 * (tests/data/ckpt/, written by tools/gen_paddle_ckpt.py): icore runs Paddle's own checkpoint
 * programs and must write byte for byte the files Paddle wrote (combined, combined as
 * float16, one file per variable), read them back into a scope bitwise (values, dtypes, dims
 * and LoD), and ic_params_save must write Paddle's combined file too. Then round trips of
 * icore's own, the float16 conversions, and errors that name op, variable and file. Every
 * program runs in every executor configuration (tu_run_scope). The programs' file paths are
 * relative ("FILE", "DIR/<name>"): each test works in a fresh temporary directory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "npy.h"
#include "testutil.h"

#define N_VARS 5
static const char *const k_vars[N_VARS] = {"fc_0.w_0", "half_0", "moment_0", "seq_0", "step"};

static void data_path(const char *file, char *buf, size_t len) {
  snprintf(buf, len, "%s/tests/data/ckpt/%s", IC_SOURCE_DIR, file);
}

static ic_program *load_program(const char *file) {
  char path[1024], err[1024];
  data_path(file, path, sizeof path);
  ic_program *p = NULL;
  ck_assert_msg(ic_program_from_file(path, &p, err, sizeof err) == IC_OK, "%s", err);
  return p;
}

/* Paddle's values: <name>.npy, seq_0 with its LoD [[0, 2, 5]]. */
static ic_tensor *value_of(const char *name) {
  char file[256], path[1024], err[1024];
  snprintf(file, sizeof file, "%s.npy", name);
  data_path(file, path, sizeof path);
  ic_tensor *t = NULL;
  ck_assert_msg(ic_npy_load(path, &t, err, sizeof err) == IC_OK, "%s", err);
  if (!strcmp(name, "seq_0")) {
    const uint64_t off[] = {0, 2, 5};
    const uint64_t *offs[] = {off};
    ck_assert_int_eq(ic_tensor_set_lod(t, 1, (const size_t[]){3}, offs), IC_OK);
  }
  return t;
}

static ic_scope *paddle_scope(void) {
  ic_scope *s = NULL;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  for (int i = 0; i < N_VARS; i++) {
    ic_tensor *t = value_of(k_vars[i]);
    ck_assert_int_eq(ic_scope_set(s, k_vars[i], t), IC_OK);
    ic_tensor_destroy(t);
  }
  return s;
}

/* Run p on scope in every executor configuration; returns the status and the uncompiled
 * executor's message in err. */
static ic_status run(const ic_program *p, ic_scope *scope, char *err, size_t len) {
  return tu_run_scope(p, scope, 0, NULL, NULL, 0, NULL, NULL, err, len);
}

static void assert_same_file(const char *got_path, const char *paddle_file) {
  char path[1024];
  data_path(paddle_file, path, sizeof path);
  size_t n_got = 0, n_want = 0;
  void *got = tu_read_file(got_path, &n_got), *want = tu_read_file(path, &n_want);
  ck_assert_msg(got != NULL, "%s was not written", got_path);
  ck_assert_ptr_nonnull(want);
  ck_assert_msg(n_got == n_want && memcmp(got, want, n_want) == 0,
                "%s (%zu bytes) differs from Paddle's %s (%zu bytes)", got_path, n_got, path,
                n_want);
  free(got);
  free(want);
}

static void copy_file(const char *paddle_file, const char *to) {
  char path[1024];
  data_path(paddle_file, path, sizeof path);
  size_t n = 0;
  void *d = tu_read_file(path, &n);
  ck_assert_ptr_nonnull(d);
  ck_assert(tu_write_file(to, d, n));
  free(d);
}

static char *enter_tmpdir(void) {
  char *dir = tu_tmpdir();
  ck_assert_int_eq(chdir(dir), 0);
  return dir;
}

static void leave_tmpdir(char *dir) {
  ck_assert_int_eq(chdir("/"), 0);
  tu_rmtree(dir);
  free(dir);
}

/* The scope's variable equals Paddle's value bitwise, LoD included. */
static void assert_value(const ic_scope *s, const char *name) {
  const ic_tensor *got = ic_scope_get(s, name);
  ck_assert_msg(got != NULL, "'%s' was not loaded", name);
  ic_tensor *want = value_of(name);
  tu_assert_bitwise(got, want, name);
  ck_assert_uint_eq(ic_tensor_lod_levels(got), ic_tensor_lod_levels(want));
  if (ic_tensor_lod_levels(want)) {
    size_t ng, nw;
    const uint64_t *g = ic_tensor_lod(got, 0, &ng), *w = ic_tensor_lod(want, 0, &nw);
    ck_assert_uint_eq(ng, nw);
    ck_assert(memcmp(g, w, nw * sizeof *w) == 0);
  }
  ic_tensor_destroy(want);
}

START_TEST(paddle_save_combine_bytes) {
  char *dir = enter_tmpdir(), err[1024];
  ic_scope *s = paddle_scope();
  ic_program *p = load_program("save_combine.pdmodel");
  ck_assert_msg(run(p, s, err, sizeof err) == IC_OK, "%s", err);
  assert_same_file("FILE", "combined.pdiparams");
  ic_program_destroy(p);
  /* save_as_fp16 (the float32 variables) */
  p = load_program("save_combine_fp16.pdmodel");
  ck_assert_msg(run(p, s, err, sizeof err) == IC_OK, "%s", err);
  assert_same_file("FILE", "combined_fp16.pdiparams");
  ic_program_destroy(p);
  /* ic_params_save writes the same combined file (the program's persistables sorted) */
  p = load_program("load_combine.pdmodel");
  ck_assert_msg(ic_params_save(p, s, "api.pdiparams", IC_PARAMS_COMBINED, err, sizeof err) ==
                    IC_OK, "%s", err);
  assert_same_file("api.pdiparams", "combined.pdiparams");
  ic_program_destroy(p);
  ic_scope_destroy(s);
  leave_tmpdir(dir);
}
END_TEST

START_TEST(paddle_save_per_variable_bytes) {
  char *dir = enter_tmpdir(), err[1024];
  ic_scope *s = paddle_scope();
  ic_program *p = load_program("save.pdmodel");
  ck_assert_msg(run(p, s, err, sizeof err) == IC_OK, "%s", err); /* creates DIR/ */
  for (int i = 0; i < N_VARS; i++) {
    char got[256], want[256];
    snprintf(got, sizeof got, "DIR/%s", k_vars[i]);
    snprintf(want, sizeof want, "vars/%s", k_vars[i]);
    assert_same_file(got, want);
  }
  ic_program_destroy(p);
  ic_scope_destroy(s);
  leave_tmpdir(dir);
}
END_TEST

START_TEST(paddle_load_combine_and_load) {
  char *dir = enter_tmpdir(), err[1024];
  /* Paddle's combined file through Paddle's load_combine program */
  copy_file("combined.pdiparams", "FILE");
  ic_scope *s = NULL;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  ic_program *p = load_program("load_combine.pdmodel");
  ck_assert_msg(run(p, s, err, sizeof err) == IC_OK, "%s", err);
  for (int i = 0; i < N_VARS; i++) assert_value(s, k_vars[i]);
  ic_program_destroy(p);
  ic_scope_destroy(s);
  /* Paddle's per-variable files through its load program */
  ck_assert_int_eq(mkdir("DIR", 0777), 0);
  for (int i = 0; i < N_VARS; i++) {
    char from[256], to[256];
    snprintf(from, sizeof from, "vars/%s", k_vars[i]);
    snprintf(to, sizeof to, "DIR/%s", k_vars[i]);
    copy_file(from, to);
  }
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  p = load_program("load.pdmodel");
  ck_assert_msg(run(p, s, err, sizeof err) == IC_OK, "%s", err);
  for (int i = 0; i < N_VARS; i++) assert_value(s, k_vars[i]);
  ic_program_destroy(p);
  ic_scope_destroy(s);
  leave_tmpdir(dir);
}
END_TEST

/* ---- programs built here ---- */

typedef struct ck_var {
  const char *name;
  ic_dtype dt;
} ck_var;

/* One op `type` over the variables (X for the save ops, Out for the load ops). */
static ic_program *ckpt_program(const char *type, size_t n, const ck_var *vars, const char *path,
                                bool flag, bool overwrite) {
  ic_builder *b = ic_builder_create();
  const char *names[8];
  for (size_t i = 0; i < n; i++) {
    ic_builder_var(b, 0, vars[i].name, vars[i].dt, 1, TU_DIMS(-1), true);
    names[i] = vars[i].name;
  }
  ic_builder_op *op = ic_builder_add_op(b, 0, type);
  bool save = !strncmp(type, "save", 4);
  if (save) ic_builder_input(op, "X", n, names);
  else ic_builder_output(op, "Out", n, names);
  ic_builder_attr_string(op, "file_path", path);
  ic_builder_attr_bool(op, save ? "save_as_fp16" : "load_as_fp16", flag);
  if (save) ic_builder_attr_bool(op, "overwrite", overwrite);
  ic_program *p = NULL;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  return p;
}

/* A scope holding a float32 [5] "a", int64 [3] "b" and float64 [2] "c". */
static ic_scope *own_scope(void) {
  ic_scope *s = NULL;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  ic_tensor *a = tu_f32(1, TU_DIMS(5), (const float[]){1.0f, 0.1f, -2.5f, 65504.0f, 1e6f});
  ic_tensor *b = tu_i64(1, TU_DIMS(3), (const int64_t[]){-1, 0, 1LL << 40});
  ic_tensor *c = tu_f64(1, TU_DIMS(2), (const double[]){3.141592653589793, -0.0});
  ck_assert_int_eq(ic_scope_set(s, "a", a), IC_OK);
  ck_assert_int_eq(ic_scope_set(s, "b", b), IC_OK);
  ck_assert_int_eq(ic_scope_set(s, "c", c), IC_OK);
  ic_tensor_destroy(a), ic_tensor_destroy(b), ic_tensor_destroy(c);
  return s;
}

static const ck_var k_own[3] = {{"c", IC_FP64}, {"a", IC_FP32}, {"b", IC_INT64}};

START_TEST(round_trips) {
  char *dir = enter_tmpdir(), err[1024];
  ic_scope *src = own_scope();
  /* save_combine in a program, load_combine in another: bitwise equal (input order c, a, b,
   * not sorted) */
  ic_program *sp = ckpt_program("save_combine", 3, k_own, "ckpt/all.bin", false, true);
  ck_assert_msg(run(sp, src, err, sizeof err) == IC_OK, "%s", err);
  ic_program *lp = ckpt_program("load_combine", 3, k_own, "ckpt/all.bin", false, true);
  ic_scope *dst = NULL;
  ck_assert_int_eq(ic_scope_create(NULL, &dst), IC_OK);
  ck_assert_msg(run(lp, dst, err, sizeof err) == IC_OK, "%s", err);
  for (int i = 0; i < 3; i++) {
    tu_assert_bitwise(ic_scope_get(dst, k_own[i].name), ic_scope_get(src, k_own[i].name),
                      k_own[i].name);
  }
  ic_program_destroy(sp), ic_program_destroy(lp);
  ic_scope_destroy(dst);
  /* per variable: save and load, one op each */
  for (int i = 0; i < 3; i++) {
    char path[64];
    snprintf(path, sizeof path, "one/%s", k_own[i].name);
    sp = ckpt_program("save", 1, &k_own[i], path, false, true);
    lp = ckpt_program("load", 1, &k_own[i], path, false, true);
    ck_assert_msg(run(sp, src, err, sizeof err) == IC_OK, "%s", err);
    ck_assert_int_eq(ic_scope_create(NULL, &dst), IC_OK);
    ck_assert_msg(run(lp, dst, err, sizeof err) == IC_OK, "%s", err);
    tu_assert_bitwise(ic_scope_get(dst, k_own[i].name), ic_scope_get(src, k_own[i].name),
                      k_own[i].name);
    ic_program_destroy(sp), ic_program_destroy(lp);
    ic_scope_destroy(dst);
  }
  /* float16 both ways: save_as_fp16 then a plain load, and a plain save then load_as_fp16,
   * give float16 rounded to nearest even (0.1 -> 0x2E66, 65504 the largest, 1e6 -> inf) */
  const uint16_t want[5] = {0x3C00, 0x2E66, 0xC100, 0x7BFF, 0x7C00};
  for (int mode = 0; mode < 2; mode++) {
    sp = ckpt_program("save", 1, &k_own[1], "a16", mode == 0, true);
    lp = ckpt_program("load", 1, &k_own[1], "a16", mode == 1, true);
    ck_assert_msg(run(sp, src, err, sizeof err) == IC_OK, "%s", err);
    ck_assert_int_eq(ic_scope_create(NULL, &dst), IC_OK);
    ck_assert_msg(run(lp, dst, err, sizeof err) == IC_OK, "%s", err);
    const ic_tensor *h = ic_scope_get(dst, "a");
    tu_assert_shape(h, IC_FP16, 1, TU_DIMS(5));
    ck_assert(memcmp(ic_tensor_cdata(h), want, sizeof want) == 0);
    ic_program_destroy(sp), ic_program_destroy(lp);
    ic_scope_destroy(dst);
  }
  ic_scope_destroy(src);
  leave_tmpdir(dir);
}
END_TEST

START_TEST(errors_name_op_variable_file) {
  char *dir = enter_tmpdir(), err[1024];
  ic_scope *src = own_scope(), *dst = NULL;
  ck_assert_int_eq(ic_scope_create(NULL, &dst), IC_OK);
  /* a missing file */
  ic_program *p = ckpt_program("load", 1, &k_own[0], "nowhere/c", false, true);
  ck_assert_int_eq(run(p, dst, err, sizeof err), IC_ERR_NOT_FOUND);
  tu_assert_msg(err, "load", "nowhere/c", "'c'", NULL);
  ic_program_destroy(p);
  /* a file with two tensors where load_combine expects three: the third is missing */
  ic_program *sp = ckpt_program("save_combine", 2, k_own, "two.bin", false, true);
  ck_assert_msg(run(sp, src, err, sizeof err) == IC_OK, "%s", err);
  ic_program_destroy(sp);
  p = ckpt_program("load_combine", 3, k_own, "two.bin", false, true);
  ck_assert_int_eq(run(p, dst, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "load_combine", "two.bin", "'b'", "truncated", NULL);
  ic_program_destroy(p);
  /* three tensors where load_combine expects two: refused, nothing partial */
  sp = ckpt_program("save_combine", 3, k_own, "three.bin", false, true);
  ck_assert_msg(run(sp, src, err, sizeof err) == IC_OK, "%s", err);
  ic_program_destroy(sp);
  p = ckpt_program("load_combine", 2, k_own, "three.bin", false, true);
  ck_assert_int_eq(run(p, dst, err, sizeof err), IC_ERR_INVALID_ARGUMENT);
  tu_assert_msg(err, "load_combine", "three.bin", "bytes remain", "more variables", NULL);
  ic_program_destroy(p);
  /* a cut file: the data of 'a' ends early */
  size_t n = 0;
  void *bytes = tu_read_file("three.bin", &n);
  ck_assert(tu_write_file("cut.bin", bytes, n - 30));
  free(bytes);
  p = ckpt_program("load_combine", 3, k_own, "cut.bin", false, true);
  ck_assert_int_eq(run(p, dst, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "load_combine", "cut.bin", "variable 'b'", "truncated", NULL);
  ic_program_destroy(p);
  /* overwrite false and the file exists */
  sp = ckpt_program("save", 1, &k_own[0], "three.bin", false, false);
  ck_assert_int_eq(run(sp, src, err, sizeof err), IC_ERR_IO);
  tu_assert_msg(err, "save", "three.bin", "exists", "overwrite is false", NULL);
  ic_program_destroy(sp);
  /* save_as_fp16 of an int64 */
  sp = ckpt_program("save", 1, &k_own[2], "b16", true, true);
  ck_assert_int_eq(run(sp, src, err, sizeof err), IC_ERR_UNSUPPORTED);
  tu_assert_msg(err, "save", "'b'", "int64", "float16", NULL);
  ic_program_destroy(sp);
  /* a file path whose directory cannot be made (a file is in the way) */
  sp = ckpt_program("save", 1, &k_own[0], "three.bin/c", false, true);
  ck_assert_int_ne(run(sp, src, err, sizeof err), IC_OK);
  tu_assert_msg(err, "save", "three.bin", NULL);
  ic_program_destroy(sp);
  ic_scope_destroy(src);
  ic_scope_destroy(dst);
  leave_tmpdir(dir);
}
END_TEST

static TCase *tc_paddle(void) {
  TCase *tc = tcase_create("paddle");
  tcase_add_test(tc, paddle_save_combine_bytes);
  tcase_add_test(tc, paddle_save_per_variable_bytes);
  tcase_add_test(tc, paddle_load_combine_and_load);
  return tc;
}

static TCase *tc_own(void) {
  TCase *tc = tcase_create("own");
  tcase_add_test(tc, round_trips);
  tcase_add_test(tc, errors_name_op_variable_file);
  return tc;
}

TU_MAIN("checkpoint", tc_paddle, tc_own)
