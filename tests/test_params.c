/* Parameters on disk: Paddle's serialized LoDTensor, the three model layouts, malformed
 * files, synthetic parameters and model loading. Test files are built here byte by byte
 * from the format's description, independently of src/scope/params.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scope/params.h"
#include "scope/scope.h"
#include "testutil.h"

/* ---- bytes built by hand ---- */

typedef struct bytes {
  unsigned char *p;
  size_t n, cap;
} bytes;

static void b_put(bytes *b, const void *p, size_t n) {
  if (b->n + n > b->cap) {
    b->cap = (b->n + n) * 2 + 64;
    b->p = realloc(b->p, b->cap);
    ck_assert_ptr_nonnull(b->p);
  }
  if (n) memcpy(b->p + b->n, p, n);
  b->n += n;
}

static void b_le(bytes *b, uint64_t v, int size) {
  unsigned char c[8];
  for (int i = 0; i < size; i++) c[i] = (unsigned char)(v >> (8 * i));
  b_put(b, c, (size_t)size);
}

static void b_varint(bytes *b, uint64_t v) {
  do {
    unsigned char c = (unsigned char)(v & 0x7F);
    v >>= 7;
    if (v) c |= 0x80;
    b_put(b, &c, 1);
  } while (v);
}

/* VarType.TensorDesc: field 1 data_type (varint), field 2 dims (repeated int64, unpacked). */
static bytes desc_bytes(int dtype, int ndim, const int64_t *dims) {
  bytes d = {0};
  b_varint(&d, 1 << 3 | 0);
  b_varint(&d, (uint64_t)dtype);
  for (int i = 0; i < ndim; i++) {
    b_varint(&d, 2 << 3 | 0);
    b_varint(&d, (uint64_t)dims[i]);
  }
  return d;
}

typedef struct rec {
  uint32_t version, tensor_version;
  size_t n_levels;                 /* LoD */
  const uint64_t *const *levels;
  const size_t *level_lens;
  int dtype, ndim;
  const int64_t *dims;
  const void *data;                /* numel * dtype size bytes */
} rec;

/* One serialized LoDTensor. */
static void b_record(bytes *b, const rec *r) {
  b_le(b, r->version, 4);
  b_le(b, r->n_levels, 8);
  for (size_t l = 0; l < r->n_levels; l++) {
    b_le(b, r->level_lens[l] * 8, 8);
    for (size_t k = 0; k < r->level_lens[l]; k++) b_le(b, r->levels[l][k], 8);
  }
  b_le(b, r->tensor_version, 4);
  bytes d = desc_bytes(r->dtype, r->ndim, r->dims);
  b_le(b, d.n, 4);
  b_put(b, d.p, d.n);
  free(d.p);
  size_t n = ic_dtype_size(r->dtype);
  for (int i = 0; i < r->ndim; i++) n *= (size_t)r->dims[i];
  b_put(b, r->data, n);
}

static void b_free(bytes *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

static char *path_in(const char *dir, const char *name) {
  char *p = malloc(strlen(dir) + strlen(name) + 2);
  sprintf(p, "%s/%s", dir, name);
  return p;
}

static void write_path(const char *dir, const char *name, const void *p, size_t n) {
  char *f = path_in(dir, name);
  ck_assert_msg(tu_write_file(f, p, n), "cannot write %s", f);
  free(f);
}

/* ---- the real Paddle file ---- */

START_TEST(real_fc_bias) {
  char path[4096], err[1024];
  ck_assert(tu_shared("paddle-format/fc_2.b_0", path, sizeof path));
  ic_tensor *t;
  ck_assert_msg(ic_tensor_load_file(path, &t, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_shape(t, IC_FP32, 1, TU_DIMS(10));
  /* The values /work/shared/models/README.md lists, exactly. */
  static const double want[10] = {
      -0.003757175523787737, -0.009389221668243408, -0.01911419816315174, 0.00803594384342432,
      -0.0017575117526575923, -0.0013778632273897529, -0.01625104248523712,
      -0.022380320355296135, 0.05900618061423302, -0.0011365171521902084};
  const float *v = ic_tensor_cdata(t);
  for (int i = 0; i < 10; i++) {
    ck_assert_msg(v[i] == (float)want[i], "value %d is %.17g, expected %.17g", i, v[i], want[i]);
  }
  /* Saving it again gives the file Paddle wrote, byte for byte. */
  char *dir = tu_tmpdir(), *copy = path_in(dir, "fc_2.b_0");
  ck_assert_msg(ic_tensor_save_file(t, copy, err, sizeof err) == IC_OK, "%s", err);
  size_t n1, n2;
  void *a = tu_read_file(path, &n1), *b = tu_read_file(copy, &n2);
  ck_assert(a && b && n1 == 64 && n1 == n2 && memcmp(a, b, n1) == 0);
  free(a);
  free(b);
  free(copy);
  tu_rmtree(dir);
  free(dir);
  ic_tensor_destroy(t);
}
END_TEST

/* ---- a model written by Paddle in each layout ---- */

static const char *pp_dir(const char *rel, char *buf, size_t len) {
  snprintf(buf, len, "%s/tests/data/paddle_params%s%s", IC_SOURCE_DIR, rel[0] ? "/" : "", rel);
  return buf;
}

/* Every parameter against expected/manifest.txt, expected/<name>.raw and <name>.lod. */
static void check_paddle_params(const ic_scope *s) {
  char path[4096];
  FILE *f = fopen(pp_dir("expected/manifest.txt", path, sizeof path), "r");
  ck_assert_ptr_nonnull(f);
  char line[512];
  size_t count = 0;
  while (fgets(line, sizeof line, f)) {
    char name[128], dt[32];
    int used = 0;
    if (sscanf(line, "%127s %31s%n", name, dt, &used) != 2) continue;
    int64_t dims[IC_MAX_RANK];
    int ndim = 0;
    for (char *p = line + used, *end; ndim < IC_MAX_RANK; p = end) {
      long long d = strtoll(p, &end, 10);
      if (end == p) break;
      dims[ndim++] = d;
    }
    const ic_tensor *t = ic_scope_get(s, name);
    ck_assert_msg(t != NULL, "parameter %s missing", name);
    ck_assert_str_eq(ic_dtype_name(ic_tensor_dtype(t)), dt);
    tu_assert_shape(t, ic_tensor_dtype(t), ndim, dims);
    char rel[256];
    snprintf(rel, sizeof rel, "expected/%s.raw", name);
    size_t n;
    void *raw = tu_read_file(pp_dir(rel, path, sizeof path), &n);
    ck_assert_ptr_nonnull(raw);
    ck_assert_uint_eq(n, ic_tensor_nbytes(t));
    ck_assert_msg(memcmp(raw, ic_tensor_cdata(t), n) == 0, "%s: values differ", name);
    free(raw);
    snprintf(rel, sizeof rel, "expected/%s.lod", name);
    FILE *lf = fopen(pp_dir(rel, path, sizeof path), "r");
    if (lf) {
      ck_assert_ptr_nonnull(t->lod);
      size_t level = 0;
      char l2[512];
      while (fgets(l2, sizeof l2, lf)) {
        ck_assert_uint_lt(level, t->lod->n_levels);
        size_t k = 0;
        for (char *p = l2, *end;; p = end, k++) {
          unsigned long long o = strtoull(p, &end, 10);
          if (end == p) break;
          ck_assert_uint_lt(k, t->lod->lens[level]);
          ck_assert_uint_eq(t->lod->offsets[level][k], o);
        }
        ck_assert_uint_eq(k, t->lod->lens[level]);
        level++;
      }
      ck_assert_uint_eq(level, t->lod->n_levels);
      fclose(lf);
    } else {
      ck_assert_msg(t->lod == NULL || t->lod->n_levels == 0, "%s: unexpected LoD", name);
    }
    count++;
  }
  fclose(f);
  ck_assert_uint_eq(count, 5);
  /* feed and fetch holders are persistable too, but are not parameters */
  ck_assert_uint_eq(ic_scope_size(s), count);
}

START_TEST(paddle_written_layouts) {
  static const char *const layouts[] = {"model.pdmodel", "separate", "combined",
                                        "separate/__model__"};
  for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
    char path[4096], err[1024];
    ic_program *p;
    ic_scope *s;
    ck_assert_msg(ic_model_load(pp_dir(layouts[i], path, sizeof path), NULL, 0, &p, &s, err,
                                sizeof err) == IC_OK,
                  "%s: %s", layouts[i], err);
    check_paddle_params(s);
    ic_scope_destroy(s);
    ic_program_destroy(p);
  }
}
END_TEST

/* icore writes what Paddle writes, byte for byte, in both layouts. */
START_TEST(paddle_written_resave_identical) {
  char path[4096], err[1024];
  ic_program *p;
  ic_scope *s;
  ck_assert_msg(ic_model_load(pp_dir("model.pdmodel", path, sizeof path), NULL, 0, &p, &s, err,
                              sizeof err) == IC_OK,
                "%s", err);
  char *dir = tu_tmpdir(), *file = path_in(dir, "x.pdiparams"), *sep = path_in(dir, "sep");
  ck_assert_msg(ic_params_save(p, s, file, IC_PARAMS_COMBINED, err, sizeof err) == IC_OK, "%s",
                err);
  size_t n1, n2;
  void *a = tu_read_file(pp_dir("model.pdiparams", path, sizeof path), &n1);
  void *b = tu_read_file(file, &n2);
  ck_assert(a && b && n1 == n2 && memcmp(a, b, n1) == 0);
  free(a);
  free(b);
  ck_assert_msg(ic_params_save(p, s, sep, IC_PARAMS_SEPARATE, err, sizeof err) == IC_OK, "%s",
                err);
  static const char *const names[] = {"counter_i64", "fc_0.b_0", "fc_0.w_0", "half_w",
                                      "scale_f64"};
  /* ic_params_names lists exactly those, in the combined file's order */
  const char **listed;
  size_t n_listed;
  ck_assert_int_eq(ic_params_names(p, &listed, &n_listed), IC_OK);
  ck_assert_uint_eq(n_listed, 5);
  for (size_t i = 0; i < 5; i++) ck_assert_str_eq(listed[i], names[i]);
  free(listed);
  ck_assert_int_eq(ic_params_names(p, NULL, &n_listed), IC_ERR_INVALID_ARGUMENT);
  for (size_t i = 0; i < 5; i++) {
    char rel[128];
    snprintf(rel, sizeof rel, "separate/%s", names[i]);
    char *mine = path_in(sep, names[i]);
    a = tu_read_file(pp_dir(rel, path, sizeof path), &n1);
    b = tu_read_file(mine, &n2);
    ck_assert_msg(a && b && n1 == n2 && memcmp(a, b, n1) == 0, "%s differs", names[i]);
    free(a);
    free(b);
    free(mine);
  }
  free(file);
  free(sep);
  tu_rmtree(dir);
  free(dir);
  ic_scope_destroy(s);
  ic_program_destroy(p);
}
END_TEST

/* ---- round trips through icore's own writer ---- */

typedef struct pspec {
  const char *name;
  ic_dtype dt;
  int ndim;
  int64_t dims[3];
} pspec;

static const pspec k_specs[] = {
    {"w_fp32", IC_FP32, 2, {3, 5}},   {"b_fp64", IC_FP64, 1, {7}},
    {"ids_i64", IC_INT64, 2, {2, 3}}, {"n_i32", IC_INT32, 1, {5}},
    {"h_fp16", IC_FP16, 2, {3, 3}},   {"bf", IC_BF16, 1, {4}},
    {"flag", IC_BOOL, 1, {3}},        {"q_i8", IC_INT8, 1, {9}},
    {"u8", IC_UINT8, 2, {1, 1}},      {"s_i16", IC_INT16, 1, {2}},
    {"scalar", IC_FP32, 0, {0}},      {"empty", IC_FP32, 2, {0, 4}},
};
#define N_SPECS (sizeof k_specs / sizeof k_specs[0])

/* A program declaring every spec as a parameter (in reverse name order, so the file order
 * is not the declaration order), plus feed and fetch. */
static ic_builder *spec_builder(void) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(-1));
  for (size_t i = N_SPECS; i-- > 0;) {
    ic_builder_var(b, 0, k_specs[i].name, k_specs[i].dt, k_specs[i].ndim, k_specs[i].dims, true);
  }
  ic_builder_feed(b, "x");
  ic_builder_fetch(b, "w_fp32");
  return b;
}

static ic_scope *spec_scope(void) {
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  for (size_t i = 0; i < N_SPECS; i++) {
    ic_tensor *t;
    ck_assert_int_eq(ic_tensor_create(k_specs[i].dt, k_specs[i].ndim, k_specs[i].dims, &t),
                     IC_OK);
    unsigned char *d = ic_tensor_data(t);
    for (size_t k = 0; k < ic_tensor_nbytes(t); k++) d[k] = (unsigned char)(k * 37 + i * 11 + 1);
    if (k_specs[i].dt == IC_BOOL) {
      for (size_t k = 0; k < ic_tensor_nbytes(t); k++) d[k] &= 1;
    }
    ck_assert_int_eq(ic_scope_set(s, k_specs[i].name, t), IC_OK);
    ic_tensor_destroy(t);
  }
  /* a two-level LoD on the int64 ids */
  ic_variable *v = ic_scope_find(s, "ids_i64");
  ic_lod *lod = calloc(1, sizeof *lod);
  lod->n_levels = 2;
  lod->lens = calloc(2, sizeof *lod->lens);
  lod->offsets = calloc(2, sizeof *lod->offsets);
  lod->lens[0] = 2;
  lod->offsets[0] = malloc(2 * sizeof(uint64_t));
  lod->offsets[0][0] = 0;
  lod->offsets[0][1] = 1;
  lod->lens[1] = 3;
  lod->offsets[1] = malloc(3 * sizeof(uint64_t));
  lod->offsets[1][0] = 0;
  lod->offsets[1][1] = 1;
  lod->offsets[1][2] = 2;
  v->tensor.lod = lod;
  return s;
}

static void assert_same_params(const ic_scope *a, const ic_scope *b) {
  for (size_t i = 0; i < N_SPECS; i++) {
    const ic_tensor *x = ic_scope_get(a, k_specs[i].name), *y = ic_scope_get(b, k_specs[i].name);
    ck_assert_msg(y != NULL, "%s missing", k_specs[i].name);
    tu_assert_bitwise(x, y, k_specs[i].name);
    bool lx = x->lod && x->lod->n_levels, ly = y->lod && y->lod->n_levels;
    ck_assert_int_eq(lx, ly);
    if (!lx) continue;
    ck_assert_uint_eq(x->lod->n_levels, y->lod->n_levels);
    for (size_t l = 0; l < x->lod->n_levels; l++) {
      ck_assert_uint_eq(x->lod->lens[l], y->lod->lens[l]);
      ck_assert(memcmp(x->lod->offsets[l], y->lod->offsets[l], x->lod->lens[l] * 8) == 0);
    }
  }
}

START_TEST(roundtrip_all_layouts) {
  ic_builder *b = spec_builder();
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_scope *src = spec_scope();
  char *dir = tu_tmpdir();
  void *model;
  size_t model_n;
  ck_assert_int_eq(ic_builder_serialize(b, &model, &model_n), IC_OK);

  /* X.pdmodel + X.pdiparams */
  char *pd = path_in(dir, "m.pdmodel"), *pi = path_in(dir, "m.pdiparams");
  ck_assert(tu_write_file(pd, model, model_n));
  ck_assert_msg(ic_params_save(p, src, pi, IC_PARAMS_AUTO, err, sizeof err) == IC_OK, "%s", err);
  /* __model__ + one file per variable */
  char *sep = path_in(dir, "sep");
  ck_assert_msg(ic_params_save(p, src, sep, IC_PARAMS_SEPARATE, err, sizeof err) == IC_OK, "%s",
                err);
  write_path(sep, "__model__", model, model_n);
  /* __model__ + __params__ */
  char *comb = path_in(dir, "comb");
  ck_assert_int_eq(mkdir(comb, 0777), 0);
  write_path(comb, "__model__", model, model_n);
  char *cp = path_in(comb, "__params__");
  ck_assert_msg(ic_params_save(p, src, cp, IC_PARAMS_COMBINED, err, sizeof err) == IC_OK, "%s",
                err);
  /* The combined file holds the records sorted by name: its length is their sum. */
  size_t n;
  void *all = tu_read_file(pi, &n);
  size_t expect = 0;
  for (size_t i = 0; i < N_SPECS; i++) {
    bytes r = {0};
    const pspec *s = &k_specs[i];
    const ic_tensor *t = ic_scope_get(src, s->name);
    rec rc = {.dtype = s->dt, .ndim = s->ndim, .dims = s->dims,
              .data = t ? ic_tensor_cdata(t) : NULL};
    b_record(&r, &rc);
    expect += r.n + (strcmp(s->name, "ids_i64") == 0 ? 8 + 16 + 8 + 24 : 0);
    b_free(&r);
  }
  ck_assert_uint_eq(n, expect);
  free(all);

  const char *loads[] = {pd, sep, comb};
  for (size_t i = 0; i < 3; i++) {
    ic_program *q;
    ic_scope *s;
    ck_assert_msg(ic_model_load(loads[i], NULL, 0, &q, &s, err, sizeof err) == IC_OK, "%s: %s",
                  loads[i], err);
    assert_same_params(src, s);
    ck_assert_uint_eq(ic_scope_size(s), N_SPECS);
    ic_scope_destroy(s);
    ic_program_destroy(q);
  }
  /* ic_params_load on its own, with AUTO telling the layouts apart */
  const char *direct[] = {pi, sep, cp};
  for (size_t i = 0; i < 3; i++) {
    ic_scope *s;
    ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
    ck_assert_msg(ic_params_load(p, direct[i], IC_PARAMS_AUTO, s, err, sizeof err) == IC_OK,
                  "%s", err);
    assert_same_params(src, s);
    ic_scope_destroy(s);
  }
  /* an explicit parameter path overrides the one beside the model */
  ic_program *q;
  ic_scope *s;
  ck_assert_msg(ic_model_load(pd, sep, 0, &q, &s, err, sizeof err) == IC_OK, "%s", err);
  assert_same_params(src, s);
  ic_scope_destroy(s);
  ic_program_destroy(q);

  free(pd);
  free(pi);
  free(sep);
  free(comb);
  free(cp);
  free(model);
  tu_rmtree(dir);
  free(dir);
  ic_scope_destroy(src);
  ic_program_destroy(p);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(tensor_file_roundtrip) {
  char *dir = tu_tmpdir(), *f = path_in(dir, "t"), err[1024];
  ic_tensor *t = tu_rand_f32(3, TU_DIMS(2, 3, 5), 7, -1, 1), *u;
  ck_assert_msg(ic_tensor_save_file(t, f, err, sizeof err) == IC_OK, "%s", err);
  ck_assert_msg(ic_tensor_load_file(f, &u, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_bitwise(t, u, "tensor file");
  ic_tensor_destroy(u);
  /* hand-built bytes with a LoD load too */
  static const uint64_t l0[] = {0, 2, 3};
  const uint64_t *levels[] = {l0};
  const size_t lens[] = {3};
  int64_t v[3] = {-1, 1ll << 50, 3};
  bytes b = {0};
  rec r = {.n_levels = 1, .levels = levels, .level_lens = lens, .dtype = IC_INT64, .ndim = 1,
           .dims = TU_DIMS(3), .data = v};
  b_record(&b, &r);
  ck_assert(tu_write_file(f, b.p, b.n));
  ck_assert_msg(ic_tensor_load_file(f, &u, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_shape(u, IC_INT64, 1, TU_DIMS(3));
  ck_assert(memcmp(ic_tensor_cdata(u), v, sizeof v) == 0);
  ck_assert(u->lod && u->lod->n_levels == 1 && u->lod->lens[0] == 3 && u->lod->offsets[0][1] == 2);
  ic_tensor_destroy(u);
  b_free(&b);
  ic_tensor_destroy(t);
  free(f);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

/* ---- malformed files ---- */

/* Parameters "b" float32[3] and "w" float32[2, 2]: "b" comes first in a combined file. */
static ic_program *two_params(void) {
  ic_builder *b = ic_builder_create();
  ic_builder_var(b, 0, "w", IC_FP32, 2, TU_DIMS(2, 2), true);
  ic_builder_var(b, 0, "b", IC_FP32, 1, TU_DIMS(3), true);
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(3));
  ic_builder_feed(b, "x");
  ic_builder_fetch(b, "w");
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  return p;
}

static const float k_b[3] = {1, 2, 3}, k_w[4] = {4, 5, 6, 7};

static void good_b(bytes *out) {
  rec r = {.dtype = IC_FP32, .ndim = 1, .dims = TU_DIMS(3), .data = k_b};
  b_record(out, &r);
}

static void good_w(bytes *out) {
  rec r = {.dtype = IC_FP32, .ndim = 2, .dims = TU_DIMS(2, 2), .data = k_w};
  b_record(out, &r);
}

/* Load a combined file with the given bytes; expect failure with code; return the message. */
static void expect_bad(const ic_program *p, const bytes *file, ic_status code, char *err,
                       size_t errlen, char **path_out) {
  static char path[4096];
  char *dir = tu_tmpdir();
  snprintf(path, sizeof path, "%s/params.bin", dir);
  ck_assert(tu_write_file(path, file->p, file->n));
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  ic_status st = ic_params_load(p, path, IC_PARAMS_COMBINED, s, err, errlen);
  ck_assert_msg(st == code, "got %s, expected %s: %s", ic_status_name(st), ic_status_name(code),
                err);
  /* a failed load leaves the scope untouched */
  ck_assert_uint_eq(ic_scope_size(s), 0);
  tu_assert_msg(err, path, NULL);
  ic_scope_destroy(s);
  tu_rmtree(dir);
  free(dir);
  if (path_out) *path_out = path;
}

START_TEST(good_combined_by_hand) {
  ic_program *p = two_params();
  bytes f = {0};
  good_b(&f);
  good_w(&f);
  char *dir = tu_tmpdir(), *path = path_in(dir, "p"), err[1024];
  ck_assert(tu_write_file(path, f.p, f.n));
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  ck_assert_msg(ic_params_load(p, path, IC_PARAMS_COMBINED, s, err, sizeof err) == IC_OK, "%s",
                err);
  tu_assert_close(ic_scope_get(s, "b"), (const double[]){1, 2, 3}, 3, 0, 0);
  tu_assert_close(ic_scope_get(s, "w"), (const double[]){4, 5, 6, 7}, 4, 0, 0);
  /* records in declaration order instead of name order are a dims mismatch on "b" */
  bytes g = {0};
  good_w(&g);
  good_b(&g);
  ic_scope *s2;
  ck_assert_int_eq(ic_scope_create(NULL, &s2), IC_OK);
  ck_assert(tu_write_file(path, g.p, g.n));
  ck_assert_int_eq(ic_params_load(p, path, IC_PARAMS_COMBINED, s2, err, sizeof err),
                   IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, path, "variable 'b'", "float32[2, 2]", "float32[3]", NULL);
  ic_scope_destroy(s2);
  b_free(&g);
  ic_scope_destroy(s);
  b_free(&f);
  free(path);
  tu_rmtree(dir);
  free(dir);
  ic_program_destroy(p);
}
END_TEST

START_TEST(truncated_everywhere) {
  ic_program *p = two_params();
  bytes f = {0};
  good_b(&f);
  size_t first = f.n;
  good_w(&f);
  char err[1024];
  for (size_t cut = 0; cut < f.n; cut++) {
    bytes t = {.p = f.p, .n = cut};
    expect_bad(p, &t, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
    tu_assert_msg(err, "truncated", "byte offset", cut < first ? "variable 'b'" : "variable 'w'",
                  NULL);
  }
  /* cut inside w's data: the message gives the offset where the data starts */
  bytes t = {.p = f.p, .n = f.n - 1};
  expect_bad(p, &t, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
  char off[64];
  snprintf(off, sizeof off, "byte offset %zu", f.n - 16);
  tu_assert_msg(err, off, "16 bytes", "only 15 remain", NULL);
  b_free(&f);
  ic_program_destroy(p);
}
END_TEST

START_TEST(trailing_bytes) {
  ic_program *p = two_params();
  bytes f = {0};
  good_b(&f);
  good_w(&f);
  size_t end = f.n;
  b_put(&f, "xyz", 3);
  char err[1024], off[64];
  expect_bad(p, &f, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
  snprintf(off, sizeof off, "byte offset %zu", end);
  tu_assert_msg(err, "variable 'w'", off, "3 trailing bytes", NULL);
  b_free(&f);
  ic_program_destroy(p);
}
END_TEST

START_TEST(dtype_and_dims_mismatch) {
  ic_program *p = two_params();
  char err[1024];
  /* b stored as float64 */
  bytes f = {0};
  const double bd[3] = {1, 2, 3};
  rec r = {.dtype = IC_FP64, .ndim = 1, .dims = TU_DIMS(3), .data = bd};
  b_record(&f, &r);
  good_w(&f);
  expect_bad(p, &f, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
  tu_assert_msg(err, "variable 'b'", "byte offset 20", "float64[3]", "float32[3]", NULL);
  b_free(&f);
  /* w stored as [4] */
  good_b(&f);
  size_t at = f.n;
  rec r2 = {.dtype = IC_FP32, .ndim = 1, .dims = TU_DIMS(4), .data = k_w};
  b_record(&f, &r2);
  expect_bad(p, &f, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
  char off[64];
  snprintf(off, sizeof off, "byte offset %zu", at + 20);
  tu_assert_msg(err, "variable 'w'", off, "float32[4]", "float32[2, 2]", NULL);
  b_free(&f);
  ic_program_destroy(p);
}
END_TEST

/* What Paddle 2.6's PostTrainingQuantization (onnx_format) saves, which Paddle's loader takes
 * as the file has it: a value declared [1] saved 0-D (its @scale variables; and declared 0-D
 * saved [1]), per-channel scales declared [3] saved [1, 3], and weights declared float32
 * saved int8. [2] for a declared 0-D, or int8 for a declared int32, is still refused. */
START_TEST(quantized_save_dims_dtypes) {
  ic_builder *b = ic_builder_create();
  ic_builder_var(b, 0, "s1", IC_FP32, 1, TU_DIMS(1), true);
  ic_builder_var(b, 0, "s0", IC_FP32, 0, NULL, true);
  ic_builder_var(b, 0, "t3", IC_FP32, 1, TU_DIMS(3), true);
  ic_builder_var(b, 0, "w8", IC_FP32, 2, TU_DIMS(2, 2), true);
  ic_builder_var(b, 0, "z8", IC_INT32, 1, TU_DIMS(2), true);
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(3));
  ic_builder_feed(b, "x");
  ic_builder_fetch(b, "s1");
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  const float v0 = 0.5f, v1 = 2.0f, v2[2] = {1, 2}, v3[3] = {3, 4, 5};
  const int8_t w8[4] = {-3, 1, 0, 127};
  const int32_t z[2] = {1, 2};
  bytes f = {0}, tail = {0};
  rec r0 = {.dtype = IC_FP32, .ndim = 1, .dims = TU_DIMS(1), .data = &v0}; /* s0 held [1] */
  rec r1 = {.dtype = IC_FP32, .ndim = 0, .dims = NULL, .data = &v1};       /* s1 held [] */
  rec r3 = {.dtype = IC_FP32, .ndim = 2, .dims = TU_DIMS(1, 3), .data = v3}; /* t3 held [1, 3] */
  rec r4 = {.dtype = IC_INT8, .ndim = 2, .dims = TU_DIMS(2, 2), .data = w8}; /* w8 held int8 */
  rec r5 = {.dtype = IC_INT32, .ndim = 1, .dims = TU_DIMS(2), .data = z};
  b_record(&f, &r0);
  b_record(&f, &r1);
  b_record(&tail, &r3);
  b_record(&tail, &r4);
  b_record(&tail, &r5);
  b_put(&f, tail.p, tail.n);
  char *dir = tu_tmpdir(), *path = path_in(dir, "p");
  ck_assert(tu_write_file(path, f.p, f.n));
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  ck_assert_msg(ic_params_load(p, path, IC_PARAMS_COMBINED, s, err, sizeof err) == IC_OK, "%s",
                err);
  tu_assert_shape(ic_scope_get(s, "s0"), IC_FP32, 1, TU_DIMS(1));
  tu_assert_shape(ic_scope_get(s, "s1"), IC_FP32, 0, NULL);
  tu_assert_close(ic_scope_get(s, "s1"), (const double[]){2}, 1, 0, 0);
  tu_assert_shape(ic_scope_get(s, "t3"), IC_FP32, 2, TU_DIMS(1, 3));
  tu_assert_shape(ic_scope_get(s, "w8"), IC_INT8, 2, TU_DIMS(2, 2));
  ck_assert(memcmp(ic_tensor_cdata(ic_scope_get(s, "w8")), w8, 4) == 0);
  ic_scope_destroy(s);
  b_free(&f);
  rec r2 = {.dtype = IC_FP32, .ndim = 1, .dims = TU_DIMS(2), .data = v2}; /* s0 held [2] */
  b_record(&f, &r2);
  b_record(&f, &r1);
  b_put(&f, tail.p, tail.n);
  expect_bad(p, &f, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
  tu_assert_msg(err, "variable 's0'", "float32[2]", "float32[]", NULL);
  b_free(&f);
  const int8_t z8[2] = {1, 2};
  rec r6 = {.dtype = IC_INT8, .ndim = 1, .dims = TU_DIMS(2), .data = z8}; /* z8: int8 for int32 */
  b_record(&f, &r0);
  b_record(&f, &r1);
  b_record(&f, &r3);
  b_record(&f, &r4);
  b_record(&f, &r6);
  expect_bad(p, &f, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
  tu_assert_msg(err, "variable 'z8'", "int8[2]", "int32[2]", NULL);
  b_free(&f);
  b_free(&tail);
  free(path);
  tu_rmtree(dir);
  free(dir);
  ic_program_destroy(p);
}
END_TEST

/* The header of b's record with a given TensorDesc, then w intact. */
static void with_desc(bytes *f, const bytes *desc, int32_t desc_len) {
  b_le(f, 0, 4);
  b_le(f, 0, 8);
  b_le(f, 0, 4);
  b_le(f, (uint32_t)desc_len, 4);
  b_put(f, desc->p, desc->n);
  b_put(f, k_b, sizeof k_b);
  good_w(f);
}

START_TEST(bad_tensor_desc) {
  ic_program *p = two_params();
  char err[1024];
  bytes f = {0}, d = {0};
  /* negative length */
  with_desc(&f, &d, -1);
  expect_bad(p, &f, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
  tu_assert_msg(err, "variable 'b'", "byte offset 16", "TensorDesc length is -1", NULL);
  b_free(&f);
  /* a length past the end of the file */
  d = desc_bytes(IC_FP32, 1, TU_DIMS(3));
  with_desc(&f, &d, 1 << 30);
  expect_bad(p, &f, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
  tu_assert_msg(err, "variable 'b'", "byte offset 20", "truncated", "TensorDesc", NULL);
  b_free(&f);
  b_free(&d);
  /* bytes that are no TensorDesc (a varint that never ends) */
  unsigned char junk[6] = {0x08, 0xff, 0xff, 0xff, 0xff, 0xff};
  b_put(&d, junk, sizeof junk);
  with_desc(&f, &d, (int32_t)d.n);
  expect_bad(p, &f, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
  tu_assert_msg(err, "variable 'b'", "byte offset 20", "does not parse", NULL);
  b_free(&f);
  b_free(&d);
  /* a TensorDesc without its required data_type */
  b_varint(&d, 2 << 3);
  b_varint(&d, 3);
  with_desc(&f, &d, (int32_t)d.n);
  expect_bad(p, &f, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
  tu_assert_msg(err, "variable 'b'", "does not parse", NULL);
  b_free(&f);
  b_free(&d);
  /* a negative dim */
  d = desc_bytes(IC_FP32, 1, TU_DIMS(-5));
  with_desc(&f, &d, (int32_t)d.n);
  expect_bad(p, &f, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
  tu_assert_msg(err, "variable 'b'", "byte offset 20", "dim 0 is -5", NULL);
  b_free(&f);
  b_free(&d);
  /* an unsupported data type (SIZE_T) */
  d = desc_bytes(19, 1, TU_DIMS(3));
  with_desc(&f, &d, (int32_t)d.n);
  expect_bad(p, &f, IC_ERR_UNSUPPORTED, err, sizeof err, NULL);
  tu_assert_msg(err, "variable 'b'", "data type 19", NULL);
  b_free(&f);
  b_free(&d);
  ic_program_destroy(p);
}
END_TEST

START_TEST(element_count_overflow) {
  /* A lone tensor (no VarDesc to compare with): dims whose product overflows int64, and
   * dims that fit int64 but whose byte size exceeds what the file holds. */
  char *dir = tu_tmpdir(), *path = path_in(dir, "t"), err[1024];
  ic_tensor *t;
  const int64_t huge[2] = {1ll << 40, 1ll << 40};
  bytes f = {0}, d = desc_bytes(IC_FP32, 2, huge);
  b_le(&f, 0, 4);
  b_le(&f, 0, 8);
  b_le(&f, 0, 4);
  b_le(&f, d.n, 4);
  b_put(&f, d.p, d.n);
  ck_assert(tu_write_file(path, f.p, f.n));
  ck_assert_int_eq(ic_tensor_load_file(path, &t, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  ck_assert_ptr_null(t);
  tu_assert_msg(err, path, "byte offset 20", "overflows", NULL);
  b_free(&f);
  b_free(&d);
  const int64_t big[2] = {1ll << 20, 1ll << 20};
  d = desc_bytes(IC_FP64, 2, big);
  b_le(&f, 0, 4);
  b_le(&f, 0, 8);
  b_le(&f, 0, 4);
  b_le(&f, d.n, 4);
  b_put(&f, d.p, d.n);
  ck_assert(tu_write_file(path, f.p, f.n));
  ck_assert_int_eq(ic_tensor_load_file(path, &t, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, path, "truncated", "8796093022208 bytes", NULL);
  b_free(&f);
  b_free(&d);
  /* a lone tensor with trailing bytes */
  rec r = {.dtype = IC_FP32, .ndim = 1, .dims = TU_DIMS(3), .data = k_b};
  b_record(&f, &r);
  size_t end = f.n;
  b_put(&f, "!", 1);
  ck_assert(tu_write_file(path, f.p, f.n));
  ck_assert_int_eq(ic_tensor_load_file(path, &t, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  char off[64];
  snprintf(off, sizeof off, "byte offset %zu", end);
  tu_assert_msg(err, path, off, "1 trailing bytes", NULL);
  b_free(&f);
  /* a file that does not exist */
  ck_assert_int_eq(ic_tensor_load_file("/nonexistent/icore/t", &t, err, sizeof err),
                   IC_ERR_NOT_FOUND);
  tu_assert_msg(err, "/nonexistent/icore/t", NULL);
  free(path);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

START_TEST(bad_versions_and_lod) {
  ic_program *p = two_params();
  char err[1024];
  bytes f = {0};
  /* LoDTensor version 1 on w */
  good_b(&f);
  size_t at = f.n;
  rec r = {.version = 1, .dtype = IC_FP32, .ndim = 2, .dims = TU_DIMS(2, 2), .data = k_w};
  b_record(&f, &r);
  expect_bad(p, &f, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
  char off[64];
  snprintf(off, sizeof off, "byte offset %zu", at);
  tu_assert_msg(err, "variable 'w'", off, "LoDTensor version is 1, expected 0", NULL);
  b_free(&f);
  /* tensor version 2 on b */
  rec r2 = {.tensor_version = 2, .dtype = IC_FP32, .ndim = 1, .dims = TU_DIMS(3), .data = k_b};
  b_record(&f, &r2);
  good_w(&f);
  expect_bad(p, &f, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
  tu_assert_msg(err, "variable 'b'", "byte offset 12", "tensor version is 2, expected 0", NULL);
  b_free(&f);
  /* a huge LoD level count */
  b_le(&f, 0, 4);
  b_le(&f, 1ull << 60, 8);
  good_w(&f);
  expect_bad(p, &f, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
  tu_assert_msg(err, "variable 'b'", "byte offset 4", "1152921504606846976 LoD levels", NULL);
  b_free(&f);
  /* a huge LoD level length */
  b_le(&f, 0, 4);
  b_le(&f, 1, 8);
  b_le(&f, 1ull << 60, 8);
  good_w(&f);
  expect_bad(p, &f, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
  tu_assert_msg(err, "variable 'b'", "byte offset 20", "truncated", "LoD level 0", NULL);
  b_free(&f);
  /* a LoD level length that is not a multiple of 8 */
  b_le(&f, 0, 4);
  b_le(&f, 1, 8);
  b_le(&f, 12, 8);
  b_le(&f, 0, 8);
  b_le(&f, 0, 4);
  good_w(&f);
  expect_bad(p, &f, IC_ERR_INVALID_PROGRAM, err, sizeof err, NULL);
  tu_assert_msg(err, "variable 'b'", "byte offset 12", "12 bytes long", "multiple of 8", NULL);
  b_free(&f);
  ic_program_destroy(p);
}
END_TEST

START_TEST(separate_layout_errors) {
  ic_program *p = two_params();
  char *dir = tu_tmpdir(), err[1024];
  bytes b = {0}, w = {0};
  good_b(&b);
  good_w(&w);
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  /* "w" is missing */
  write_path(dir, "b", b.p, b.n);
  ck_assert_int_eq(ic_params_load(p, dir, IC_PARAMS_SEPARATE, s, err, sizeof err),
                   IC_ERR_NOT_FOUND);
  char *wp = path_in(dir, "w");
  tu_assert_msg(err, wp, "variable 'w'", NULL);
  ck_assert_uint_eq(ic_scope_size(s), 0);
  /* "w" with trailing bytes */
  b_put(&w, "\0\0", 2);
  write_path(dir, "w", w.p, w.n);
  ck_assert_int_eq(ic_params_load(p, dir, IC_PARAMS_SEPARATE, s, err, sizeof err),
                   IC_ERR_INVALID_PROGRAM);
  char off[64];
  snprintf(off, sizeof off, "byte offset %zu", w.n - 2);
  tu_assert_msg(err, wp, "variable 'w'", off, "2 trailing bytes", NULL);
  /* fixed, it loads */
  write_path(dir, "w", w.p, w.n - 2);
  ck_assert_msg(ic_params_load(p, dir, IC_PARAMS_SEPARATE, s, err, sizeof err) == IC_OK, "%s",
                err);
  ck_assert_uint_eq(ic_scope_size(s), 2);
  /* a directory given where a combined file is expected, and vice versa */
  ck_assert_int_eq(ic_params_load(p, dir, IC_PARAMS_COMBINED, s, err, sizeof err), IC_ERR_IO);
  tu_assert_msg(err, dir, "directory", NULL);
  ck_assert_int_eq(ic_params_load(p, wp, IC_PARAMS_SEPARATE, s, err, sizeof err), IC_ERR_IO);
  tu_assert_msg(err, wp, "directory", NULL);
  free(wp);
  ic_scope_destroy(s);
  b_free(&b);
  b_free(&w);
  tu_rmtree(dir);
  free(dir);
  ic_program_destroy(p);
}
END_TEST

START_TEST(model_load_paths) {
  char *dir = tu_tmpdir(), err[1024];
  ic_builder *b = ic_builder_create();
  ic_builder_var(b, 0, "w", IC_FP32, 1, TU_DIMS(2), true);
  ic_builder_fetch(b, "w");
  void *model;
  size_t n;
  ck_assert_int_eq(ic_builder_serialize(b, &model, &n), IC_OK);
  char *pd = path_in(dir, "m.pdmodel"), *pi = path_in(dir, "m.pdiparams");
  ck_assert(tu_write_file(pd, model, n));
  ic_program *p;
  ic_scope *s;
  /* no X.pdiparams beside the model: an error naming the expected file */
  ck_assert_int_eq(ic_model_load(pd, NULL, 0, &p, &s, err, sizeof err), IC_ERR_NOT_FOUND);
  ck_assert(p == NULL && s == NULL);
  tu_assert_msg(err, pi, "1 parameters", NULL);
  /* the program alone */
  ck_assert_msg(ic_model_load(pd, NULL, IC_LOAD_NO_PARAMS, &p, &s, err, sizeof err) == IC_OK,
                "%s", err);
  ck_assert_uint_eq(ic_scope_size(s), 0);
  /* then parameters by hand, saved, and loaded with the model; fetched directly */
  ic_tensor *w = tu_f32(1, TU_DIMS(2), (const float[]){1.5f, -2});
  ck_assert_int_eq(ic_scope_set(s, "w", w), IC_OK);
  ck_assert_msg(ic_params_save(p, s, pi, IC_PARAMS_COMBINED, err, sizeof err) == IC_OK, "%s",
                err);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  ck_assert_msg(ic_model_load(pd, NULL, 0, &p, &s, err, sizeof err) == IC_OK, "%s", err);
  ic_tensor *out[1];
  ck_assert_msg(tu_run_scope(p, s, 0, NULL, NULL, 1, TU_NAMES("w"), out, err, sizeof err) == IC_OK,
                "%s", err);
  tu_assert_bitwise(out[0], w, "fetched parameter");
  ic_tensor_destroy(out[0]);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  /* an explicit parameter path that does not exist */
  ck_assert_int_eq(ic_model_load(pd, "/nonexistent/p", 0, &p, &s, err, sizeof err),
                   IC_ERR_NOT_FOUND);
  tu_assert_msg(err, "/nonexistent/p", NULL);
  /* a model path that does not exist */
  ck_assert_int_eq(ic_model_load("/nonexistent/m.pdmodel", NULL, 0, &p, &s, err, sizeof err),
                   IC_ERR_NOT_FOUND);
  tu_assert_msg(err, "/nonexistent/m.pdmodel", NULL);
  /* a directory without __model__ */
  char *empty = path_in(dir, "empty");
  ck_assert_int_eq(mkdir(empty, 0777), 0);
  ck_assert_int_ne(ic_model_load(empty, NULL, 0, &p, &s, err, sizeof err), IC_OK);
  tu_assert_msg(err, "__model__", NULL);
  /* a model without parameters needs no parameter file */
  ic_builder *b2 = ic_builder_create();
  tu_var(b2, "x", IC_FP32, 1, TU_DIMS(2));
  ic_builder_feed(b2, "x");
  ic_builder_fetch(b2, "x");
  void *m2;
  size_t n2;
  ck_assert_int_eq(ic_builder_serialize(b2, &m2, &n2), IC_OK);
  char *pd2 = path_in(dir, "noparams.pdmodel");
  ck_assert(tu_write_file(pd2, m2, n2));
  ck_assert_msg(ic_model_load(pd2, NULL, 0, &p, &s, err, sizeof err) == IC_OK, "%s", err);
  ck_assert_uint_eq(ic_scope_size(s), 0);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  /* saving a parameter the scope lacks, or of the wrong shape, is refused */
  ck_assert_msg(ic_model_load(pd, NULL, IC_LOAD_NO_PARAMS, &p, &s, err, sizeof err) == IC_OK,
                "%s", err);
  char *other = path_in(dir, "other.pdiparams");
  ck_assert_int_eq(ic_params_save(p, s, other, IC_PARAMS_COMBINED, err, sizeof err),
                   IC_ERR_NOT_FOUND);
  tu_assert_msg(err, "'w'", NULL);
  ic_tensor *w3 = tu_f32(1, TU_DIMS(3), NULL);
  ck_assert_int_eq(ic_scope_set(s, "w", w3), IC_OK);
  ck_assert_int_eq(ic_params_save(p, s, other, IC_PARAMS_COMBINED, err, sizeof err),
                   IC_ERR_INVALID_ARGUMENT);
  tu_assert_msg(err, "'w'", "float32[3]", "float32[2]", NULL);
  ic_tensor_destroy(w3);
  ic_scope_destroy(s);
  ic_program_destroy(p);

  free(other);
  free(pd2);
  free(m2);
  ic_builder_destroy(b2);
  free(empty);
  ic_tensor_destroy(w);
  free(pd);
  free(pi);
  free(model);
  ic_builder_destroy(b);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

/* ---- synthetic parameters ---- */

static double elem(const ic_tensor *t, int64_t k) {
  const void *d = ic_tensor_cdata(t);
  switch (ic_tensor_dtype(t)) {
    case IC_FP32: return ((const float *)d)[k];
    case IC_FP64: return ((const double *)d)[k];
    case IC_INT32: return ((const int32_t *)d)[k];
    case IC_INT64: return (double)((const int64_t *)d)[k];
    default: return NAN;
  }
}

START_TEST(random_real_models) {
  static const char *const models[] = {
      "paddle/mobilenet_v2/inference.pdmodel", "paddle/pphgnet_plate/inference.pdmodel",
      "paddle/ppocr_rec_svtr/inference.pdmodel", "paddle/crnn_rec/inference.pdmodel"};
  for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
    char path[4096], err[1024];
    ck_assert_msg(tu_shared(models[m], path, sizeof path), "missing %s", models[m]);
    ic_program *p;
    ic_scope *s;
    ck_assert_msg(ic_model_load(path, NULL, IC_LOAD_NO_PARAMS, &p, &s, err, sizeof err) == IC_OK,
                  "%s", err);
    ck_assert_uint_eq(ic_scope_size(s), 0);
    ck_assert_msg(ic_params_random(p, 1, s, err, sizeof err) == IC_OK, "%s", err);
    /* the batch_norm variances, found here independently */
    const ic_block *b0 = &p->blocks[0];
    size_t n_params = 0, n_var = 0;
    for (size_t i = 0; i < b0->n_vars; i++) {
      const ic_vardesc *v = &b0->vars[i];
      if (!v->persistable || v->type != IC_VAR_LOD_TENSOR) continue;
      n_params++;
      const ic_tensor *t = ic_scope_get(s, v->name);
      ck_assert_msg(t != NULL, "%s: %s has no tensor", models[m], v->name);
      tu_assert_shape(t, v->dtype, v->ndim, v->dims);
      bool is_var = false;
      for (size_t o = 0; o < b0->n_ops && !is_var; o++) {
        const ic_op *op = &b0->ops[o];
        const ic_slot *sl = strcmp(op->type, "batch_norm") ? NULL : ic_op_input(op, "Variance");
        is_var = sl && sl->n == 1 && strcmp(sl->args[0], v->name) == 0;
      }
      n_var += is_var;
      bool is_float = v->dtype == IC_FP32 || v->dtype == IC_FP64;
      double lo = is_var ? 0.5 : is_float ? -0.1 : 0, hi = is_var ? 1.5 : is_float ? 0.1 : 0;
      double mn = INFINITY, mx = -INFINITY;
      for (int64_t k = 0; k < ic_tensor_numel(t); k++) {
        double x = elem(t, k);
        if (!(x >= lo && x <= hi)) {
          ck_abort_msg("%s: %s[%lld] = %g outside [%g, %g]", models[m], v->name, (long long)k, x,
                       lo, hi);
        }
        mn = fmin(mn, x);
        mx = fmax(mx, x);
      }
      /* not constant: the values really are spread over the range */
      if (is_float && ic_tensor_numel(t) >= 16) {
        ck_assert_msg(mx - mn > (hi - lo) / 2, "%s: %s spans only [%g, %g]", models[m], v->name,
                      mn, mx);
      }
    }
    ck_assert_uint_eq(ic_scope_size(s), n_params);
    ck_assert_msg(n_params > 100, "%s: only %zu parameters", models[m], n_params);
    ck_assert_msg(n_var > 0, "%s: no batch_norm variances found", models[m]);
    ic_scope_destroy(s);
    ic_program_destroy(p);
  }
}
END_TEST

static ic_program *order_program(bool reversed, bool with_unknown_dim) {
  ic_builder *b = ic_builder_create();
  const char *names[] = {"alpha", "beta", "gamma"};
  for (int i = 0; i < 3; i++) {
    int k = reversed ? 2 - i : i;
    ic_builder_var(b, 0, names[k], k == 2 ? IC_FP64 : IC_FP32, 2, TU_DIMS(3, 7), true);
  }
  ic_builder_var(b, 0, "steps", IC_INT64, 1, TU_DIMS(4), true);
  ic_builder_var(b, 0, "h", IC_FP16, 1, TU_DIMS(64), true);
  if (with_unknown_dim) ic_builder_var(b, 0, "dyn", IC_FP32, 2, TU_DIMS(-1, 3), true);
  ic_builder_fetch(b, "alpha");
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  return p;
}

/* float16 bits to double, written out here for the check */
static double half_value(uint16_t h) {
  int e = (h >> 10) & 0x1F, m = h & 0x3FF;
  double v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
  return h & 0x8000 ? -v : v;
}

START_TEST(random_deterministic) {
  ic_program *p = order_program(false, false), *q = order_program(true, false);
  ic_scope *s1, *s2, *s3, *s4;
  char err[1024];
  ck_assert_int_eq(ic_scope_create(NULL, &s1), IC_OK);
  ck_assert_int_eq(ic_scope_create(NULL, &s2), IC_OK);
  ck_assert_int_eq(ic_scope_create(NULL, &s3), IC_OK);
  ck_assert_int_eq(ic_scope_create(NULL, &s4), IC_OK);
  ck_assert_msg(ic_params_random(p, 42, s1, err, sizeof err) == IC_OK, "%s", err);
  ck_assert_msg(ic_params_random(p, 42, s2, err, sizeof err) == IC_OK, "%s", err);
  ck_assert_msg(ic_params_random(q, 42, s3, err, sizeof err) == IC_OK, "%s", err);
  ck_assert_msg(ic_params_random(p, 43, s4, err, sizeof err) == IC_OK, "%s", err);
  const char *names[] = {"alpha", "beta", "gamma", "steps", "h"};
  for (int i = 0; i < 5; i++) {
    const ic_tensor *a = ic_scope_get(s1, names[i]);
    tu_assert_bitwise(a, ic_scope_get(s2, names[i]), "same seed");
    tu_assert_bitwise(a, ic_scope_get(s3, names[i]), "other declaration order");
    if (i < 3 || i == 4) {
      ck_assert_msg(memcmp(ic_tensor_cdata(a), ic_tensor_cdata(ic_scope_get(s4, names[i])),
                           ic_tensor_nbytes(a)) != 0,
                    "%s: another seed gives the same values", names[i]);
    }
  }
  /* different names give different streams */
  ck_assert(memcmp(ic_tensor_cdata(ic_scope_get(s1, "alpha")),
                   ic_tensor_cdata(ic_scope_get(s1, "beta")), 21 * 4) != 0);
  /* integers are zero; float16 values are in range */
  const ic_tensor *st = ic_scope_get(s1, "steps");
  for (int k = 0; k < 4; k++) ck_assert_int_eq(((const int64_t *)ic_tensor_cdata(st))[k], 0);
  const ic_tensor *h = ic_scope_get(s1, "h");
  for (int k = 0; k < 64; k++) {
    double v = half_value(((const uint16_t *)ic_tensor_cdata(h))[k]);
    ck_assert_msg(fabs(v) <= 0.1 + 1e-4, "h[%d] = %g", k, v);
  }
  ic_scope_destroy(s1);
  ic_scope_destroy(s2);
  ic_scope_destroy(s3);
  ic_scope_destroy(s4);
  ic_program_destroy(p);
  ic_program_destroy(q);
  /* a parameter with a -1 dim cannot be synthesized */
  p = order_program(false, true);
  ck_assert_int_eq(ic_scope_create(NULL, &s1), IC_OK);
  ck_assert_int_eq(ic_params_random(p, 1, s1, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'dyn'", "float32[-1, 3]", NULL);
  ic_scope_destroy(s1);
  ic_program_destroy(p);
}
END_TEST

START_TEST(params_list_sorted) {
  char path[4096], err[1024];
  ck_assert(tu_shared("paddle/mobilenet_v2/inference.pdmodel", path, sizeof path));
  ic_program *p;
  ck_assert_msg(ic_program_from_file(path, &p, err, sizeof err) == IC_OK, "%s", err);
  const ic_vardesc **vars;
  size_t n;
  ic_err e;
  ck_assert_int_eq(ic_params_list(p, &vars, &n, &e), IC_OK);
  ck_assert_uint_gt(n, 100);
  for (size_t i = 1; i < n; i++) ck_assert_int_lt(strcmp(vars[i - 1]->name, vars[i]->name), 0);
  for (size_t i = 0; i < n; i++) {
    ck_assert(strcmp(vars[i]->name, "feed") != 0 && strcmp(vars[i]->name, "fetch") != 0);
  }
  free(vars);
  ic_program_destroy(p);
}
END_TEST

static TCase *tc_format(void) {
  TCase *tc = tcase_create("format");
  tcase_add_test(tc, real_fc_bias);
  tcase_add_test(tc, paddle_written_layouts);
  tcase_add_test(tc, paddle_written_resave_identical);
  tcase_add_test(tc, roundtrip_all_layouts);
  tcase_add_test(tc, tensor_file_roundtrip);
  tcase_add_test(tc, good_combined_by_hand);
  tcase_add_test(tc, params_list_sorted);
  return tc;
}

static TCase *tc_malformed(void) {
  TCase *tc = tcase_create("malformed");
  tcase_add_test(tc, truncated_everywhere);
  tcase_add_test(tc, trailing_bytes);
  tcase_add_test(tc, dtype_and_dims_mismatch);
  tcase_add_test(tc, quantized_save_dims_dtypes);
  tcase_add_test(tc, bad_tensor_desc);
  tcase_add_test(tc, element_count_overflow);
  tcase_add_test(tc, bad_versions_and_lod);
  tcase_add_test(tc, separate_layout_errors);
  return tc;
}

static TCase *tc_model(void) {
  TCase *tc = tcase_create("model");
  tcase_add_test(tc, model_load_paths);
  tcase_add_test(tc, random_real_models);
  tcase_add_test(tc, random_deterministic);
  return tc;
}

TU_MAIN("params", tc_format, tc_malformed, tc_model)
