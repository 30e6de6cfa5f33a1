/* PaddlePaddle as the oracle: programs exported by Paddle itself, run by icore on the inputs
 * Paddle ran them on, compared with Paddle's outputs within each case's tolerance.
 *
 * The data is tests/data/paddle_oracle/<case>/ (written by tools/gen_paddle_oracle.py, which
 * documents the case.txt manifest); cases.txt lists the cases. Every case runs in every
 * executor configuration (tu_run_scope checks that they agree bitwise). A case that needs
 * an op type icore lacks fails. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernels/cpu/half.h"
#include "kernels/kernel.h"
#include "npy.h"
#include "program/program.h"
#include "testutil.h"

#ifndef ORACLE_DIR /* test_ctrl_oracle.c reuses this file on another data set */
#define ORACLE_DIR IC_SOURCE_DIR "/tests/data/paddle_oracle"
#define ORACLE_SUITE "paddle_oracle"
#endif
#define MAX_IO 32    /* feeds or fetches per case */
#define MAX_TYPES 64 /* op types per case */

/* ---- messages that grow: every mismatch of a case is reported, not only the first ---- */

typedef struct report {
  char *s;
  size_t n, cap;
  size_t count; /* entries appended */
} report;

static void __attribute__((format(printf, 2, 3))) rep_add(report *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int need = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  ck_assert_int_ge(need, 0);
  if (r->n + (size_t)need + 2 > r->cap) {
    r->cap = (r->n + (size_t)need + 2) * 2;
    r->s = realloc(r->s, r->cap);
    ck_assert_ptr_nonnull(r->s);
  }
  va_start(ap, fmt);
  vsnprintf(r->s + r->n, r->cap - r->n, fmt, ap);
  va_end(ap);
  r->n += (size_t)need;
  r->s[r->n++] = '\n';
  r->s[r->n] = 0;
  r->count++;
}

/* ---- the manifest ---- */

typedef struct manifest {
  char model[256];
  char params[256]; /* "" for `params none` */
  size_t n_feeds, n_fetches;
  char feed_names[MAX_IO][256], feed_files[MAX_IO][256];
  char fetch_names[MAX_IO][256], fetch_files[MAX_IO][256];
  double rtol, atol;
  bool has_params, has_rtol, has_atol;
  size_t n_types;
  char types[MAX_TYPES][64]; /* the `ops` line */
} manifest;

static void case_path(const char *name, const char *file, char *buf, size_t len) {
  snprintf(buf, len, "%s/%s/%s", ORACLE_DIR, name, file);
}

/* Parse <case>/case.txt strictly: an unknown or malformed directive fails, naming the line. */
static void read_manifest(const char *name, manifest *m) {
  memset(m, 0, sizeof *m);
  char path[4096];
  case_path(name, "case.txt", path, sizeof path);
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot open %s: %s (run tools/gen_paddle_oracle.py)", path,
                strerror(errno));
  char line[4096];
  for (int ln = 1; fgets(line, sizeof line, f); ln++) {
    char key[32] = "", a[256] = "", b[256] = "";
    int used = 0;
    if (line[0] == '#' || sscanf(line, "%31s%n", key, &used) != 1) continue;
    const char *rest = line + used;
    int n = sscanf(rest, "%255s %255s", a, b);
    bool ok = true;
    if (!strcmp(key, "model")) {
      ok = n == 1;
      snprintf(m->model, sizeof m->model, "%s", a);
    } else if (!strcmp(key, "params")) {
      ok = (n == 2 && !strcmp(a, "file")) || (n == 1 && !strcmp(a, "none"));
      if (n == 2) snprintf(m->params, sizeof m->params, "%s", b);
      m->has_params = true;
    } else if (!strcmp(key, "feed") || !strcmp(key, "fetch")) {
      bool feed = key[1] == 'e' && key[2] == 'e';
      size_t *cnt = feed ? &m->n_feeds : &m->n_fetches;
      ok = n == 2 && *cnt < MAX_IO;
      if (ok) {
        snprintf(feed ? m->feed_names[*cnt] : m->fetch_names[*cnt], 256, "%s", a);
        snprintf(feed ? m->feed_files[*cnt] : m->fetch_files[*cnt], 256, "%s", b);
        (*cnt)++;
      }
    } else if (!strcmp(key, "rtol") || !strcmp(key, "atol")) {
      char *end;
      double v = strtod(a, &end);
      ok = n == 1 && *end == 0 && v >= 0 && isfinite(v);
      if (key[0] == 'r') m->rtol = v, m->has_rtol = true;
      else m->atol = v, m->has_atol = true;
    } else if (!strcmp(key, "ops")) {
      for (const char *p = rest; ok;) {
        int k = 0;
        char t[64];
        if (sscanf(p, "%63s%n", t, &k) != 1) break;
        ok = m->n_types < MAX_TYPES;
        if (ok) snprintf(m->types[m->n_types++], 64, "%s", t);
        p += k;
      }
    } else {
      ok = false;
    }
    ck_assert_msg(ok, "%s:%d: malformed or unknown directive: %s", path, ln, line);
  }
  fclose(f);
  ck_assert_msg(m->model[0] && m->has_params && m->has_rtol && m->has_atol && m->n_fetches,
                "%s: needs model, params, rtol, atol and at least one fetch", path);
}

/* ---- comparison ---- */

static double elem(const ic_tensor *t, int64_t k) {
  const void *d = ic_tensor_cdata(t);
  switch (ic_tensor_dtype(t)) {
    case IC_FP32: return ((const float *)d)[k];
    case IC_FP64: return ((const double *)d)[k];
    case IC_FP16: return ic_f16_to_f32(((const uint16_t *)d)[k]);
    case IC_INT32: return ((const int32_t *)d)[k];
    case IC_INT64: return (double)((const int64_t *)d)[k];
    case IC_INT16: return ((const int16_t *)d)[k];
    case IC_INT8: return ((const int8_t *)d)[k];
    case IC_BOOL:
    case IC_UINT8: return ((const uint8_t *)d)[k];
    default: return NAN;
  }
}

static const char *index_str(const ic_tensor *t, int64_t k, char *buf, size_t len) {
  int64_t idx[IC_MAX_RANK];
  int nd = ic_tensor_ndim(t);
  for (int i = nd - 1; i >= 0; i--) {
    int64_t d = ic_tensor_dims(t)[i];
    idx[i] = d ? k % d : 0;
    k = d ? k / d : 0;
  }
  size_t n = (size_t)snprintf(buf, len, "[");
  for (int i = 0; i < nd && n < len; i++) {
    n += (size_t)snprintf(buf + n, len - n, "%s%lld", i ? ", " : "", (long long)idx[i]);
  }
  if (n < len) snprintf(buf + n, len - n, "]");
  return buf;
}

static const char *dims_str(const ic_tensor *t, char *buf, size_t len) {
  size_t n = (size_t)snprintf(buf, len, "%s[", ic_dtype_name(ic_tensor_dtype(t)));
  for (int i = 0; i < ic_tensor_ndim(t) && n < len; i++) {
    n += (size_t)snprintf(buf + n, len - n, "%s%lld", i ? ", " : "",
                          (long long)ic_tensor_dims(t)[i]);
  }
  if (n < len) snprintf(buf + n, len - n, "]");
  return buf;
}

/* Compare icore's `got` with Paddle's `want`; append what differs to r. Integers and bools
 * must be equal; floats (float16 by its value) within atol + rtol * |want| (NaN matches NaN,
 * an infinity only itself). Returns true when they agree. */
static bool compare(const char *what, const ic_tensor *got, const ic_tensor *want, double rtol,
                    double atol, report *r) {
  char a[256], b[256];
  if (!got) {
    rep_add(r, "%s: no tensor fetched", what);
    return false;
  }
  bool same_dims = ic_tensor_ndim(got) == ic_tensor_ndim(want) &&
                   !memcmp(ic_tensor_dims(got), ic_tensor_dims(want),
                           sizeof(int64_t) * (size_t)ic_tensor_ndim(want));
  if (ic_tensor_dtype(got) != ic_tensor_dtype(want) || !same_dims) {
    rep_add(r, "%s: icore gives %s, Paddle %s", what, dims_str(got, a, sizeof a),
            dims_str(want, b, sizeof b));
    return false;
  }
  ic_dtype dt = ic_tensor_dtype(want);
  bool is_float = dt == IC_FP32 || dt == IC_FP64 || dt == IC_FP16;
  if (!is_float && dt != IC_INT32 && dt != IC_INT64 && dt != IC_INT16 && dt != IC_INT8 &&
      dt != IC_BOOL && dt != IC_UINT8) {
    rep_add(r, "%s: cannot compare dtype %s", what, ic_dtype_name(dt));
    return false;
  }
  int64_t n = ic_tensor_numel(want), bad = 0, worst = -1;
  double worst_excess = -1;
  for (int64_t k = 0; k < n; k++) {
    double g = elem(got, k), w = elem(want, k);
    bool ok;
    double excess = 0;
    if (!is_float) {
      ok = dt == IC_INT64 ? ((const int64_t *)ic_tensor_cdata(got))[k] ==
                                ((const int64_t *)ic_tensor_cdata(want))[k]
                          : g == w;
      excess = ok ? 0 : 1;
    } else if (isnan(w) || isinf(w)) {
      ok = isnan(w) ? isnan(g) : g == w;
      excess = ok ? 0 : INFINITY;
    } else {
      double tol = atol + rtol * fabs(w);
      ok = fabs(g - w) <= tol; /* false for a NaN g */
      excess = ok ? 0 : isnan(g) ? INFINITY : fabs(g - w) - tol;
    }
    if (!ok) {
      bad++;
      if (excess > worst_excess) worst_excess = excess, worst = k;
    }
  }
  if (bad) {
    double g = elem(got, worst), w = elem(want, worst);
    rep_add(r,
            "%s %s: %lld of %lld elements differ; worst at %s: icore %.9g, Paddle %.9g "
            "(|diff| %.3g, allowed %.3g = atol %g + rtol %g * |Paddle|)",
            what, dims_str(want, a, sizeof a), (long long)bad, (long long)n,
            index_str(want, worst, b, sizeof b), g, w, fabs(g - w), atol + rtol * fabs(w), atol,
            rtol);
  }
  return bad == 0;
}

/* ---- one case ---- */

/* The i-th line of cases.txt (false past the end, or when there is no such file). */
static bool case_name(int i, char *buf, size_t len) {
  FILE *f = fopen(ORACLE_DIR "/cases.txt", "r");
  if (!f) return false;
  char line[512];
  bool found = false;
  for (int k = 0; !found && fgets(line, sizeof line, f);) {
    line[strcspn(line, "\r\n")] = 0;
    if (!line[0]) continue;
    if (k++ == i) {
      snprintf(buf, len, "%s", line);
      found = true;
    }
  }
  fclose(f);
  return found;
}

static int count_cases(void) {
  char name[512];
  int n = 0;
  while (case_name(n, name, sizeof name)) n++;
  return n;
}

/* The op types of block 0, each once; false (with the reason in r) when the manifest's
 * `ops` line disagrees. Sets *missing to the types the registry lacks. */
static bool check_types(const char *name, const ic_program *p, const manifest *m, report *r,
                        char *missing, size_t mlen) {
  const char *seen[MAX_TYPES];
  size_t n_seen = 0;
  missing[0] = 0;
  for (size_t i = 0; i < p->blocks[0].n_ops; i++) {
    const char *t = p->blocks[0].ops[i].type;
    /* the loader gives a slice of a tensor array its own kernel (slice_array) */
    if (!strcmp(t, "slice_array")) t = "slice";
    bool dup = false;
    for (size_t j = 0; j < n_seen && !dup; j++) dup = !strcmp(seen[j], t);
    if (dup) continue;
    ck_assert_uint_lt(n_seen, MAX_TYPES);
    seen[n_seen++] = t;
    if (!ic_registry_find(t)) {
      size_t used = strlen(missing);
      snprintf(missing + used, mlen - used, "%s%s", used ? " " : "", t);
    }
  }
  bool ok = n_seen == m->n_types;
  for (size_t i = 0; i < m->n_types && ok; i++) {
    bool in = false;
    for (size_t j = 0; j < n_seen && !in; j++) in = !strcmp(seen[j], m->types[i]);
    ok = in;
  }
  if (!ok) rep_add(r, "case %s: the program's op types differ from case.txt's ops line", name);
  return ok;
}

START_TEST(paddle_case) {
  char name[512], path[4096], ppath[4096], err[1024], missing[1024];
  ck_assert_msg(case_name(_i, name, sizeof name),
                "%s/cases.txt is missing or has no line %d (run tools/gen_paddle_oracle.py)",
                ORACLE_DIR, _i + 1);
  manifest *m = malloc(sizeof *m);
  ck_assert_ptr_nonnull(m);
  read_manifest(name, m);
  report r = {0};

  ic_program *p = NULL;
  ic_scope *params = NULL;
  case_path(name, m->model, path, sizeof path);
  if (m->params[0]) case_path(name, m->params, ppath, sizeof ppath);
  /* `params none`: the loader itself checks that the program declares no parameters. */
  ic_status st = ic_model_load(path, m->params[0] ? ppath : NULL, 0, &p, &params, err,
                               sizeof err);
  ck_assert_msg(st == IC_OK, "case %s: ic_model_load: %s: %s", name, ic_status_name(st), err);

  check_types(name, p, m, &r, missing, sizeof missing);
  if (missing[0]) {
    rep_add(&r, "case %s needs op types icore lacks: %s", name, missing);
  }

  /* Feeds in the manifest's order; they must be exactly the program's feed targets. */
  const char *feed_names[MAX_IO], *fetch_names[MAX_IO];
  ic_tensor *feeds[MAX_IO] = {0}, *want[MAX_IO] = {0}, *got[MAX_IO] = {0};
  if (ic_program_n_feed_targets(p) != m->n_feeds) {
    rep_add(&r, "case %s: the program has %zu feed targets, case.txt %zu", name,
            ic_program_n_feed_targets(p), m->n_feeds);
  }
  for (size_t i = 0; i < m->n_feeds; i++) {
    feed_names[i] = m->feed_names[i];
    case_path(name, m->feed_files[i], path, sizeof path);
    ck_assert_msg(ic_npy_load(path, &feeds[i], err, sizeof err) == IC_OK, "%s", err);
  }
  for (size_t i = 0; i < m->n_fetches; i++) {
    fetch_names[i] = m->fetch_names[i];
    case_path(name, m->fetch_files[i], path, sizeof path);
    ck_assert_msg(ic_npy_load(path, &want[i], err, sizeof err) == IC_OK, "%s", err);
  }
  if (!r.count) {
    st = tu_run_scope(p, params, m->n_feeds, feed_names, feeds, m->n_fetches, fetch_names, got,
                      err, sizeof err);
    if (st != IC_OK) {
      rep_add(&r, "case %s: icore fails: %s: %s", name, ic_status_name(st), err);
    }
    for (size_t i = 0; st == IC_OK && i < m->n_fetches; i++) {
      char what[1024];
      snprintf(what, sizeof what, "case %s: fetch '%s'", name, fetch_names[i]);
      compare(what, got[i], want[i], m->rtol, m->atol, &r);
    }
#ifdef ORACLE_EMU
    /* The same on the emulated device emu:0 (ORACLE_EMU): bitwise what the host gave. */
    for (int threads = 1; st == IC_OK && threads <= 2; threads++) {
      ic_options o;
      ic_options_default(&o);
      o.device = (ic_place){IC_PLACE_EMULATED, 0};
      o.threads = threads;
      o.serial = threads == 1;
      o.fuse = false;
      ic_executor *e;
      ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
      ic_executor_emu_testing(e, 50, true, (uint64_t)threads);
      ic_tensor *dev[MAX_IO] = {0};
      ic_status ds = ic_executor_run(e, p, params, m->n_feeds, feed_names,
                                     (const ic_tensor *const *)feeds, m->n_fetches, fetch_names,
                                     dev);
      if (ds != IC_OK) {
        rep_add(&r, "case %s: emu:0 (%d threads) fails: %s", name, threads, ic_executor_errmsg(e));
      }
      for (size_t i = 0; ds == IC_OK && i < m->n_fetches; i++) {
        char what[1024];
        snprintf(what, sizeof what, "case %s: emu:0 %d threads, fetch '%s'", name, threads,
                 fetch_names[i]);
        tu_assert_bitwise(dev[i], got[i], what);
      }
      for (size_t i = 0; i < MAX_IO; i++) ic_tensor_destroy(dev[i]);
      ic_executor_destroy(e);
    }
#endif
  }
  for (size_t i = 0; i < MAX_IO; i++) {
    ic_tensor_destroy(feeds[i]);
    ic_tensor_destroy(want[i]);
    ic_tensor_destroy(got[i]);
  }
  ic_scope_destroy(params);
  ic_program_destroy(p);
  free(m);
  if (r.count) {
    fprintf(stderr, "%s", r.s);
    ck_abort_msg("%s", r.s);
  }
  free(r.s);
}
END_TEST

/* ---- the data set ---- */

START_TEST(every_directory_is_a_listed_case) {
  int n = count_cases();
  ck_assert_msg(n > 0, "%s/cases.txt lists no case", ORACLE_DIR);
  DIR *d = opendir(ORACLE_DIR);
  ck_assert_msg(d != NULL, "cannot open %s", ORACLE_DIR);
  int dirs = 0;
  for (struct dirent *e; (e = readdir(d));) {
    char path[4096], name[512];
    struct stat s;
    snprintf(path, sizeof path, "%s/%s", ORACLE_DIR, e->d_name);
    if (e->d_name[0] == '.' || stat(path, &s) != 0 || !S_ISDIR(s.st_mode)) continue;
    dirs++;
    bool listed = false;
    for (int i = 0; i < n && !listed; i++) {
      listed = case_name(i, name, sizeof name) && !strcmp(name, e->d_name);
    }
    ck_assert_msg(listed, "%s is not listed in cases.txt", path);
  }
  closedir(d);
  ck_assert_int_eq(dirs, n); /* and every listed case has its directory */
}
END_TEST

/* The comparison can fail: shapes, dtypes, values just outside the tolerance, NaN. */
START_TEST(compare_rejects_mismatches) {
  const float v[4] = {1.0f, -2.0f, 0.0f, 1000.0f};
  ic_tensor *want = tu_f32(2, TU_DIMS(2, 2), v);
  report r = {0};
  ic_tensor *same = tu_f32(2, TU_DIMS(2, 2), v);
  ck_assert(compare("same", same, want, 0, 0, &r));
  float near[4] = {1.0f + 5e-5f, -2.0f, 1e-6f, 1000.0f};
  ic_tensor *t = tu_f32(2, TU_DIMS(2, 2), near);
  ck_assert(compare("within", t, want, 1e-4, 2e-6, &r));
  ck_assert(!compare("outside", t, want, 1e-4, 5e-7, &r));
  tu_assert_msg(r.s, "outside", "1 of 4 elements differ", "worst at [1, 0]", NULL);
  ck_assert(!compare("exact", t, want, 0, 0, &r));
  ((float *)ic_tensor_data(t))[0] = NAN;
  ck_assert(!compare("nan", t, want, 1, 1, &r));
  ic_tensor *flat = tu_f32(1, TU_DIMS(4), v);
  ck_assert(!compare("dims", flat, want, 1, 1, &r));
  tu_assert_msg(r.s, "icore gives float32[4], Paddle float32[2, 2]", NULL);
  ic_tensor *i32 = tu_i32(2, TU_DIMS(2, 2), (const int32_t[]){1, -2, 0, 1000});
  ck_assert(!compare("dtype", i32, want, 1, 1, &r));
  ic_tensor *i32b = tu_i32(2, TU_DIMS(2, 2), (const int32_t[]){1, -2, 0, 1001});
  ck_assert(!compare("ints", i32b, i32, 1, 1, &r)); /* integers ignore the tolerance */
  ck_assert(!compare("none", NULL, want, 1, 1, &r));
  ck_assert_uint_eq(r.count, 7);
  free(r.s);
  ic_tensor *all[] = {want, same, t, flat, i32, i32b};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) ic_tensor_destroy(all[i]);
}
END_TEST

static TCase *tc_cases(void) {
  TCase *tc = tcase_create("cases");
  tcase_set_timeout(tc, 600);
  int n = count_cases();
  /* An empty or missing list still runs one iteration, which fails saying why. */
  tcase_add_loop_test(tc, paddle_case, 0, n > 0 ? n : 1);
  return tc;
}

static TCase *tc_data(void) {
  TCase *tc = tcase_create("data");
  tcase_add_test(tc, every_directory_is_a_listed_case);
  tcase_add_test(tc, compare_rejects_mismatches);
  return tc;
}

TU_MAIN(ORACLE_SUITE, tc_data, tc_cases)
