/* Helpers for the Check suites: tensors from literals, one-op programs run through the
 * executors, and comparisons against references. */
#ifndef IC_TESTUTIL_H
#define IC_TESTUTIL_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "icore/icore.h"

#define TU_DIMS(...) ((const int64_t[]){__VA_ARGS__})
#define TU_NAMES(...) ((const char *const[]){__VA_ARGS__})

/* A float32 / float64 / int32 / int64 tensor with the given dims and values (n = numel). */
ic_tensor *tu_f32(int ndim, const int64_t *dims, const float *v);
ic_tensor *tu_f64(int ndim, const int64_t *dims, const double *v);
ic_tensor *tu_i32(int ndim, const int64_t *dims, const int32_t *v);
ic_tensor *tu_i64(int ndim, const int64_t *dims, const int64_t *v);
/* A float32 tensor filled with deterministic pseudo-random values in [lo, hi). */
ic_tensor *tu_rand_f32(int ndim, const int64_t *dims, uint64_t seed, float lo, float hi);

/* Run block 0 of the program built by b with the given feeds and fetches in every executor
 * configuration (uncompiled; compiled serial and with 2 and 4 threads; rewrites off),
 * assert that all give bitwise-equal results, and return the uncompiled results in out.
 * Returns the status (the same in every configuration); on failure errbuf holds the
 * uncompiled executor's message. */
ic_status tu_run(const ic_builder *b, size_t n_feeds, const char *const *feed_names,
                 ic_tensor *const *feeds, size_t n_fetches, const char *const *fetch_names,
                 ic_tensor **out, char *errbuf, size_t errlen);
/* Same, with a parameter scope. */
ic_status tu_run_scope(const ic_program *p, ic_scope *scope, size_t n_feeds,
                       const char *const *feed_names, ic_tensor *const *feeds, size_t n_fetches,
                       const char *const *fetch_names, ic_tensor **out, char *errbuf,
                       size_t errlen);

/* Run p once on a compiled executor with the inference rewrites (options.fuse) at `threads`,
 * the fetches in out (the test fails if the run does); counts[k] is the number of the plan's
 * instructions whose op type is types[k] (n_types of them). */
void tu_run_rewritten(const ic_program *p, ic_scope *scope, size_t n_feeds,
                      const char *const *feed_names, ic_tensor *const *feeds, size_t n_fetches,
                      const char *const *fetch_names, int threads, ic_tensor **out,
                      size_t n_types, const char *const *types, size_t *counts);

/* Declare a float32 (or other dtype) variable in block 0. */
void tu_var(ic_builder *b, const char *name, ic_dtype dt, int ndim, const int64_t *dims);
/* The program b describes (the test fails with the builder's message if it is invalid); b is
 * destroyed. */
ic_program *tu_build(ic_builder *b);

/* Assert t has the dtype and dims given. */
void tu_assert_shape(const ic_tensor *t, ic_dtype dt, int ndim, const int64_t *dims);
/* Assert every element of float tensor t is within atol + rtol*|ref| of ref[k] (n elements). */
void tu_assert_close(const ic_tensor *t, const double *ref, size_t n, double rtol, double atol);
/* Assert two tensors are bitwise equal (dtype, dims, bytes). */
void tu_assert_bitwise(const ic_tensor *a, const ic_tensor *b, const char *what);
/* Assert msg contains every one of the NULL-terminated needles. */
void tu_assert_msg(const char *msg, ...);

/* ../shared/models/<rel>, or NULL when absent (the caller then fails loudly, not skips). */
const char *tu_shared(const char *rel, char *buf, size_t len);
/* A fresh temporary directory (removed by tu_rmtree). */
char *tu_tmpdir(void);
void tu_rmtree(const char *path);
/* Write bytes to a file; returns false on failure. */
bool tu_write_file(const char *path, const void *data, size_t n);
/* Read a whole file (malloc'd, with a NUL after its n bytes); NULL on failure. */
void *tu_read_file(const char *path, size_t *n);

/* Run a suite built from the given TCase constructors; returns the process exit code. */
int tu_main(const char *suite, TCase *(*const *cases)(void), size_t n);
#define TU_MAIN(suite, ...)                                                        \
  int main(void) {                                                                 \
    TCase *(*const cases_[])(void) = {__VA_ARGS__};                                \
    return tu_main(suite, cases_, sizeof cases_ / sizeof cases_[0]);               \
  }

#endif
