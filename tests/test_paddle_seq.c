/* One-op programs over LoD tensors exported and run by Paddle 3.3.1 itself
 * (tools/gen_paddle_seq.py, tests/data/paddle_seq/<case>/): icore must give Paddle's values
 * (float within 1e-5, integers exactly) and Paddle's output LoD, in every executor
 * configuration (tu_run_scope). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "kernels/kernel.h"
#include "program/program.h"
#include "testutil.h"

/* Another suite can reuse this file for another directory of cases in this layout
 * (test_ctrl_lod.c): SEQ_DIR, SEQ_SUITE, SEQ_MIN_CASES, SEQ_TOOL, SEQ_MODEL, and
 * SEQ_EXTRA_TCASES for test cases of its own. */
#ifndef SEQ_DIR
#define SEQ_DIR "paddle_seq"
#define SEQ_SUITE "paddle_seq"
#define SEQ_MIN_CASES 20
#define SEQ_TOOL "tools/gen_paddle_seq.py"
#endif
#ifndef SEQ_MODEL /* the program file of a case (test_pir_lod.c: model.json) */
#define SEQ_MODEL "inference.pdmodel"
#endif

#define MAX_IO 16
#define MAX_LEVELS 4

typedef struct io {
  char name[128];
  ic_tensor *t;
  size_t n_levels;
  size_t lens[MAX_LEVELS];
  uint64_t offs[MAX_LEVELS][64];
} io;

static const char *case_path(const char *c, const char *file, char *buf, size_t len) {
  snprintf(buf, len, "%s/tests/data/" SEQ_DIR "/%s/%s", IC_SOURCE_DIR, c, file);
  return buf;
}

static io *find(io *v, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++) {
    if (!strcmp(v[i].name, name)) return &v[i];
  }
  return NULL;
}

/* Returns the number of failures, described in report. */
static int run_case(const char *c, char *report, size_t rlen) {
  char path[4096], line[4096], err[1024];
  FILE *f = fopen(case_path(c, "case.txt", path, sizeof path), "r");
  ck_assert_msg(f != NULL, "missing %s: run " SEQ_TOOL, path);
  io in[MAX_IO], out[MAX_IO];
  size_t nin = 0, nout = 0;
  memset(in, 0, sizeof in);
  memset(out, 0, sizeof out);
  while (fgets(line, sizeof line, f)) {
    char kind[16], name[128], file[128];
    int off = 0;
    if (line[0] == '#' || sscanf(line, "%15s %127s%n", kind, name, &off) != 2) continue;
    bool is_in = !strcmp(kind, "feed") || !strcmp(kind, "lod");
    io *v = is_in ? in : out;
    size_t *n = is_in ? &nin : &nout;
    if (!strcmp(kind, "feed") || !strcmp(kind, "fetch")) {
      ck_assert_uint_lt(*n, MAX_IO);
      ck_assert_int_eq(sscanf(line + off, "%127s", file), 1);
      snprintf(v[*n].name, sizeof v[*n].name, "%s", name);
      ck_assert_msg(ic_npy_load(case_path(c, file, path, sizeof path), &v[*n].t, err, sizeof err) == IC_OK,
                    "%s", err);
      (*n)++;
      continue;
    }
    io *t = find(v, *n, name);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_lt(t->n_levels, MAX_LEVELS);
    size_t k = 0;
    unsigned long long x;
    int used;
    while (k < 64 && sscanf(line + off, "%llu%n", &x, &used) == 1) t->offs[t->n_levels][k++] = x, off += used;
    t->lens[t->n_levels++] = k;
  }
  fclose(f);
  for (size_t i = 0; i < nin; i++) {
    if (!in[i].n_levels) continue;
    const uint64_t *lv[MAX_LEVELS];
    for (size_t l = 0; l < in[i].n_levels; l++) lv[l] = in[i].offs[l];
    ck_assert_int_eq(ic_tensor_set_lod(in[i].t, in[i].n_levels, in[i].lens, lv), IC_OK);
  }
  ic_program *p;
  ck_assert_msg(ic_program_from_file(case_path(c, SEQ_MODEL, path, sizeof path), &p, err,
                                     sizeof err) == IC_OK,
                "%s", err);
  const char *fn[MAX_IO], *on[MAX_IO];
  ic_tensor *feeds[MAX_IO], *got[MAX_IO] = {0};
  for (size_t i = 0; i < nin; i++) fn[i] = in[i].name, feeds[i] = in[i].t;
  for (size_t i = 0; i < nout; i++) on[i] = out[i].name;
  int fails = 0;
  size_t at = strlen(report);
#define FAIL(...)                                                   \
  do {                                                              \
    fails++;                                                        \
    if (at < rlen) at += (size_t)snprintf(report + at, rlen - at, __VA_ARGS__); \
  } while (0)
  ic_status st = tu_run_scope(p, NULL, nin, fn, feeds, nout, on, got, err, sizeof err);
  if (st) FAIL("%s: icore fails: %s\n", c, err);
  for (size_t i = 0; !st && i < nout; i++) {
    const ic_tensor *g = got[i], *w = out[i].t;
    if (ic_tensor_dtype(g) != ic_tensor_dtype(w) ||
        !ic_dims_equal(g->ndim, g->dims, w->ndim, w->dims)) {
      char a[128], b[128];
      FAIL("%s: fetch %s is %s, Paddle's %s\n", c, on[i], ic_tensor_describe(g, a, sizeof a),
           ic_tensor_describe(w, b, sizeof b));
      continue;
    }
    double worst = 0;
    int64_t worst_k = 0;
#ifdef SEQ_REL_FLOOR
    /* relative, with a floor of SEQ_REL_FLOOR times the tensor's largest magnitude for the
     * values near zero (float32 sums that cancel keep only their absolute accuracy) */
    double scale = 0;
    for (int64_t k = 0; k < ic_tensor_numel(w); k++) scale = fmax(scale, fabs(ic_read_f64(w, k)));
#endif
    for (int64_t k = 0; k < ic_tensor_numel(w); k++) {
      double gv = ic_read_f64(g, k), wv = ic_read_f64(w, k);
#ifdef SEQ_REL_FLOOR
      double d = fabs(gv - wv) / (fabs(wv) + SEQ_REL_FLOOR * scale + 1e-30);
#else
      double d = fabs(gv - wv) / fmax(1.0, fabs(wv));
#endif
      if (d > worst) worst = d, worst_k = k;
    }
    bool exact = ic_tensor_dtype(w) != IC_FP32 && ic_tensor_dtype(w) != IC_FP64;
#ifdef SEQ_REL_FLOOR
    fprintf(stderr, "%s: %s max error %.3g (|d| / (|paddle| + %g max|paddle|))\n", c, on[i],
            worst, (double)SEQ_REL_FLOOR);
    /* float64: the same computation, so far closer */
    const double tol = ic_tensor_dtype(w) == IC_FP64 ? 1e-10 : 1e-5;
#else
    const double tol = 1e-5;
#endif
    if (exact ? worst != 0 : worst > tol) {
      FAIL("%s: fetch %s differs from Paddle by %g at element %lld (%g vs %g)\n", c, on[i],
           worst, (long long)worst_k, ic_read_f64(g, worst_k), ic_read_f64(w, worst_k));
    }
    if (ic_tensor_lod_levels(g) != out[i].n_levels) {
      FAIL("%s: fetch %s has %zu LoD levels, Paddle's %zu\n", c, on[i], ic_tensor_lod_levels(g),
           out[i].n_levels);
      continue;
    }
    for (size_t l = 0; l < out[i].n_levels; l++) {
      size_t n;
      const uint64_t *o = ic_tensor_lod(g, l, &n);
      if (n != out[i].lens[l] || memcmp(o, out[i].offs[l], n * sizeof *o)) {
        FAIL("%s: fetch %s LoD level %zu differs from Paddle's\n", c, on[i], l);
      }
    }
  }
#ifdef SEQ_EMU
  /* The same on the emulated device emu:0 (SEQ_EMU): bitwise the host's values and LoD. */
  for (int threads = 1; !st && threads <= 2; threads++) {
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
    if (ic_executor_run(e, p, NULL, nin, fn, (const ic_tensor *const *)feeds, nout, on, dev)) {
      FAIL("%s: emu:0 (%d threads) fails: %s\n", c, threads, ic_executor_errmsg(e));
    }
    for (size_t i = 0; i < nout && dev[0]; i++) {
      char what[256];
      snprintf(what, sizeof what, "%s: emu:0 %d threads, fetch %s", c, threads, on[i]);
      tu_assert_bitwise(dev[i], got[i], what);
      if (!ic_lod_equal(dev[i]->lod, got[i]->lod)) FAIL("%s: LoD differs from the host's\n", what);
    }
    for (size_t i = 0; i < nout; i++) ic_tensor_destroy(dev[i]);
    ic_executor_destroy(e);
  }
#endif
#undef FAIL
  for (size_t i = 0; i < nin; i++) ic_tensor_destroy(in[i].t);
  for (size_t i = 0; i < nout; i++) {
    ic_tensor_destroy(out[i].t);
    ic_tensor_destroy(got[i]);
  }
  ic_program_destroy(p);
  return fails;
}

START_TEST(every_case_matches_paddle) {
  char path[4096], name[256];
  snprintf(path, sizeof path, "%s/tests/data/" SEQ_DIR "/cases.txt", IC_SOURCE_DIR);
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "missing %s: run " SEQ_TOOL, path);
  static char report[16384];
  report[0] = 0;
  int fails = 0, cases = 0;
  while (fscanf(f, "%255s", name) == 1) {
    fails += run_case(name, report, sizeof report);
    cases++;
  }
  fclose(f);
  ck_assert_int_ge(cases, SEQ_MIN_CASES);
  if (fails) fputs(report, stderr); /* Check truncates long messages */
  ck_assert_msg(fails == 0, "%d failures in %d cases, listed on stderr", fails, cases);
}
END_TEST

static TCase *tc_cases(void) {
  TCase *tc = tcase_create("paddle");
  tcase_add_test(tc, every_case_matches_paddle);
  return tc;
}

#ifdef SEQ_EXTRA_TCASES /* another suite's own test cases (test_paddle_seq_grad.c) */
TU_MAIN(SEQ_SUITE, tc_cases, SEQ_EXTRA_TCASES)
#else
TU_MAIN(SEQ_SUITE, tc_cases)
#endif
