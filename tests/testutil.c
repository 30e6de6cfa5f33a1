#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/plan.h"
#include "interp/interp.h"

static ic_tensor *make(ic_dtype dt, int ndim, const int64_t *dims, const void *v) {
  ic_tensor *t;
  ck_assert_int_eq(ic_tensor_create(dt, ndim, dims, &t), IC_OK);
  if (v) memcpy(ic_tensor_data(t), v, ic_tensor_nbytes(t));
  return t;
}

ic_tensor *tu_f32(int ndim, const int64_t *dims, const float *v) { return make(IC_FP32, ndim, dims, v); }
ic_tensor *tu_f64(int ndim, const int64_t *dims, const double *v) { return make(IC_FP64, ndim, dims, v); }
ic_tensor *tu_i32(int ndim, const int64_t *dims, const int32_t *v) { return make(IC_INT32, ndim, dims, v); }
ic_tensor *tu_i64(int ndim, const int64_t *dims, const int64_t *v) { return make(IC_INT64, ndim, dims, v); }

ic_tensor *tu_rand_f32(int ndim, const int64_t *dims, uint64_t seed, float lo, float hi) {
  ic_tensor *t = make(IC_FP32, ndim, dims, NULL);
  float *d = ic_tensor_data(t);
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int64_t i = 0; i < ic_tensor_numel(t); i++) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    d[i] = lo + (hi - lo) * (float)((s >> 40) * (1.0 / 16777216.0));
  }
  return t;
}

void tu_var(ic_builder *b, const char *name, ic_dtype dt, int ndim, const int64_t *dims) {
  ic_builder_var(b, 0, name, dt, ndim, dims, false);
}

/* Executor configurations every tu_run goes through; the first is the reference. */
typedef struct config {
  const char *name;
  ic_mode mode;
  int threads;
  bool serial;
} config;

static const config k_configs[] = {
    {"uncompiled", IC_MODE_UNCOMPILED, 1, true},
    {"compiled serial", IC_MODE_COMPILED, 1, true},
    {"compiled 2 threads", IC_MODE_COMPILED, 2, false},
    {"compiled 4 threads", IC_MODE_COMPILED, 4, false},
};

void tu_run_rewritten(const ic_program *p, ic_scope *scope, size_t n_feeds,
                      const char *const *feed_names, ic_tensor *const *feeds, size_t n_fetches,
                      const char *const *fetch_names, int threads, ic_tensor **out,
                      size_t n_types, const char *const *types, size_t *counts) {
  ic_options o;
  ic_options_default(&o);
  o.fuse = true;
  o.threads = threads;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  ck_assert_msg(ic_executor_run(e, p, scope, n_feeds, feed_names, (const ic_tensor *const *)feeds,
                                n_fetches, fetch_names, out) == IC_OK,
                "%s", ic_executor_errmsg(e));
  const ic_plan *pl = ic_executor_last_plan(e);
  for (size_t k = 0; k < n_types; k++) {
    counts[k] = 0;
    for (size_t i = 0; i < pl->n_instrs; i++) {
      counts[k] += !strcmp(pl->instrs[i].op->type, types[k]);
    }
  }
  ic_executor_destroy(e);
}

ic_status tu_run_scope(const ic_program *p, ic_scope *scope, size_t n_feeds,
                       const char *const *feed_names, ic_tensor *const *feeds, size_t n_fetches,
                       const char *const *fetch_names, ic_tensor **out, char *errbuf,
                       size_t errlen) {
  ic_status ref = IC_OK;
  for (size_t c = 0; c < sizeof k_configs / sizeof k_configs[0]; c++) {
    ic_options o;
    ic_options_default(&o);
    o.mode = k_configs[c].mode;
    o.threads = k_configs[c].threads;
    o.serial = k_configs[c].serial;
    o.fuse = false; /* rewrites change the last bits; they have tests of their own */
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ic_tensor **got = calloc(n_fetches + 1, sizeof *got);
    ic_status st = ic_executor_run(e, p, scope, n_feeds, feed_names,
                                   (const ic_tensor *const *)feeds, n_fetches, fetch_names, got);
    if (c == 0) {
      ref = st;
      if (errbuf && errlen) snprintf(errbuf, errlen, "%s", ic_executor_errmsg(e));
      for (size_t i = 0; i < n_fetches; i++) out[i] = got[i];
    } else {
      ck_assert_msg(st == ref, "%s returned %s, uncompiled %s: %s", k_configs[c].name,
                    ic_status_name(st), ic_status_name(ref), ic_executor_errmsg(e));
      for (size_t i = 0; i < n_fetches; i++) {
        if (st == IC_OK) tu_assert_bitwise(got[i], out[i], k_configs[c].name);
        ic_tensor_destroy(got[i]);
      }
    }
    if (st != IC_OK) {
      for (size_t i = 0; i < n_fetches; i++) ck_assert_ptr_null(got[i]);
    }
    free(got);
    ic_executor_destroy(e);
  }
  return ref;
}

ic_program *tu_build(ic_builder *b) {
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  return p;
}

ic_status tu_run(const ic_builder *b, size_t n_feeds, const char *const *feed_names,
                 ic_tensor *const *feeds, size_t n_fetches, const char *const *fetch_names,
                 ic_tensor **out, char *errbuf, size_t errlen) {
  ic_program *p;
  char err[1024];
  ic_status st = ic_builder_build(b, &p, err, sizeof err);
  if (st) {
    if (errbuf && errlen) snprintf(errbuf, errlen, "%s", err);
    for (size_t i = 0; i < n_fetches; i++) out[i] = NULL;
    return st;
  }
  st = tu_run_scope(p, NULL, n_feeds, feed_names, feeds, n_fetches, fetch_names, out, errbuf,
                    errlen);
  ic_program_destroy(p);
  return st;
}

void tu_assert_shape(const ic_tensor *t, ic_dtype dt, int ndim, const int64_t *dims) {
  ck_assert_ptr_nonnull(t);
  ck_assert_msg(ic_tensor_dtype(t) == dt, "dtype %s, expected %s",
                ic_dtype_name(ic_tensor_dtype(t)), ic_dtype_name(dt));
  ck_assert_int_eq(ic_tensor_ndim(t), ndim);
  for (int i = 0; i < ndim; i++) {
    ck_assert_msg(ic_tensor_dims(t)[i] == dims[i], "dim %d is %lld, expected %lld", i,
                  (long long)ic_tensor_dims(t)[i], (long long)dims[i]);
  }
}

void tu_assert_close(const ic_tensor *t, const double *ref, size_t n, double rtol, double atol) {
  ck_assert_ptr_nonnull(t);
  ck_assert_msg((size_t)ic_tensor_numel(t) == n, "numel %lld, expected %zu",
                (long long)ic_tensor_numel(t), n);
  for (size_t k = 0; k < n; k++) {
    double v;
    switch (ic_tensor_dtype(t)) {
      case IC_FP32: v = ((const float *)ic_tensor_cdata(t))[k]; break;
      case IC_FP64: v = ((const double *)ic_tensor_cdata(t))[k]; break;
      case IC_INT32: v = ((const int32_t *)ic_tensor_cdata(t))[k]; break;
      case IC_INT64: v = (double)((const int64_t *)ic_tensor_cdata(t))[k]; break;
      case IC_BOOL: case IC_UINT8: v = ((const uint8_t *)ic_tensor_cdata(t))[k]; break;
      case IC_INT8: v = ((const int8_t *)ic_tensor_cdata(t))[k]; break;
      case IC_INT16: v = ((const int16_t *)ic_tensor_cdata(t))[k]; break;
      default: ck_abort_msg("tu_assert_close: dtype %s", ic_dtype_name(ic_tensor_dtype(t))); return;
    }
    bool ok = (isnan(ref[k]) && isnan(v)) || (isinf(ref[k]) && v == ref[k]) ||
              fabs(v - ref[k]) <= atol + rtol * fabs(ref[k]);
    ck_assert_msg(ok, "element %zu is %.9g, expected %.9g", k, v, ref[k]);
  }
}

void tu_assert_bitwise(const ic_tensor *a, const ic_tensor *b, const char *what) {
  ck_assert_ptr_nonnull(a);
  ck_assert_ptr_nonnull(b);
  ck_assert_msg(ic_tensor_dtype(a) == ic_tensor_dtype(b), "%s: dtypes differ", what);
  ck_assert_msg(ic_tensor_ndim(a) == ic_tensor_ndim(b), "%s: ranks differ", what);
  ck_assert_msg(memcmp(ic_tensor_dims(a), ic_tensor_dims(b),
                       sizeof(int64_t) * (size_t)ic_tensor_ndim(a)) == 0,
                "%s: dims differ", what);
  ck_assert_msg(memcmp(ic_tensor_cdata(a), ic_tensor_cdata(b), ic_tensor_nbytes(a)) == 0,
                "%s: values differ bitwise", what);
  ck_assert_msg(ic_tensor_lod_levels(a) == ic_tensor_lod_levels(b), "%s: LoD levels differ", what);
  for (size_t l = 0; l < ic_tensor_lod_levels(a); l++) {
    size_t na, nb;
    const uint64_t *oa = ic_tensor_lod(a, l, &na), *ob = ic_tensor_lod(b, l, &nb);
    ck_assert_msg(na == nb && memcmp(oa, ob, na * sizeof *oa) == 0, "%s: LoD level %zu differs",
                  what, l);
  }
}

void tu_assert_msg(const char *msg, ...) {
  va_list ap;
  va_start(ap, msg);
  for (const char *n; (n = va_arg(ap, const char *));) {
    ck_assert_msg(strstr(msg, n) != NULL, "message \"%s\" lacks \"%s\"", msg, n);
  }
  va_end(ap);
}

const char *tu_shared(const char *rel, char *buf, size_t len) {
  /* ICORE_SHARED_DIR overrides the build's path (tools/gpu_run.sh carries the programs). */
  const char *dir = getenv("ICORE_SHARED_DIR");
  snprintf(buf, len, "%s/models/%s", dir && dir[0] ? dir : IC_SHARED_DIR, rel);
  return access(buf, R_OK) == 0 ? buf : NULL;
}

char *tu_tmpdir(void) {
  char tmpl[] = "/tmp/icore-test-XXXXXX";
  char *d = mkdtemp(tmpl);
  ck_assert_ptr_nonnull(d);
  return strdup(d);
}

void tu_rmtree(const char *path) {
  DIR *d = opendir(path);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      char p[4096];
      snprintf(p, sizeof p, "%s/%s", path, e->d_name);
      struct stat st;
      if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) tu_rmtree(p);
      else unlink(p);
    }
    closedir(d);
  }
  rmdir(path);
}

bool tu_write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

void *tu_read_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fseek(f, 0, SEEK_SET);
  /* One byte more, NUL: callers search text files with strstr. */
  char *buf = malloc(sz > 0 ? (size_t)sz + 1 : 1);
  if (buf && fread(buf, 1, (size_t)sz, f) != (size_t)sz) {
    free(buf);
    buf = NULL;
  }
  if (buf) buf[sz > 0 ? sz : 0] = '\0';
  fclose(f);
  if (buf && n) *n = (size_t)sz;
  return buf;
}

int tu_main(const char *suite, TCase *(*const *cases)(void), size_t n) {
  Suite *s = suite_create(suite);
  for (size_t i = 0; i < n; i++) suite_add_tcase(s, cases[i]());
  SRunner *r = srunner_create(s);
  srunner_run_all(r, CK_NORMAL);
  int failed = srunner_ntests_failed(r);
  srunner_free(r);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
