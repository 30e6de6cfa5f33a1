/* Paddle's serialized LoDTensor record (format in lodtensor_io.c): a bounded reader over one
 * file and a writer. Internal to icore: parameter files (params.c), model loading
 * (model_load.c), the save / load / save_combine / load_combine ops and single-tensor files
 * use it; the public entry points are in icore.h. */
#ifndef IC_SCOPE_LODTENSOR_IO_H
#define IC_SCOPE_LODTENSOR_IO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/err.h"
#include "program/program.h"
#include "scope/tensor.h"

/* A file open for reading with its size and a cursor, so that every length read can be
 * bounded by the bytes that remain. */
typedef struct ic_lt_src {
  FILE *f;
  const char *path;
  uint64_t size; /* file size in bytes */
  uint64_t off;  /* bytes consumed so far */
  ic_err *err;
} ic_lt_src;

/* Open path for reading and learn its size (var, may be NULL, names the variable the file
 * holds in the error). A missing file is IC_ERR_NOT_FOUND; a directory or anything but a
 * regular file is IC_ERR_IO. */
ic_status ic_lt_open(ic_lt_src *s, const char *path, const char *var, ic_err *err);
void ic_lt_close(ic_lt_src *s);
/* Bytes not yet consumed. */
uint64_t ic_lt_left(const ic_lt_src *s);
/* Fail with "FILE: variable 'x' at byte offset N: message" (no variable when var is NULL). */
ic_status ic_lt_fail(const ic_lt_src *s, const char *var, uint64_t off, ic_status code,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Read one record at the cursor into t (fresh storage from the plain allocator; t is
 * initialized here). When want is given, the stored dtype and dims must agree with it (its
 * -1 dims match anything). */
ic_status ic_lt_read_tensor(ic_lt_src *s, const char *var, const ic_vardesc *want,
                            ic_tensor *t);
/* Fail unless the file ends at the cursor ("N trailing bytes after <after>"). */
ic_status ic_lt_expect_end(const ic_lt_src *s, const char *last_var, const char *after);

/* Append t as one record to f (path and var name the errors). */
ic_status ic_lt_write_tensor(FILE *f, const char *path, const char *var, const ic_tensor *t,
                             ic_err *err);
/* fopen(path, "wb") with an error naming path. */
ic_status ic_lt_create(const char *path, FILE **f, ic_err *err);
/* fclose f; a failure there becomes the error unless st already is one. Returns st. */
ic_status ic_lt_close_out(FILE *f, const char *path, ic_status st, ic_err *err);

/* "float32[2, 3]" for a dtype and dims pair, into buf. */
const char *ic_lt_describe(int dtype, int ndim, const int64_t *dims, char *buf, size_t len);
/* Whether dims match a VarDesc's, where the VarDesc's -1 matches anything; dims of another
 * rank match when they differ only by axes of size 1 ([] for [1], [1, 104] for [104]). */
bool ic_lt_dims_match(const ic_vardesc *v, int ndim, const int64_t *dims);
/* Whether a tensor of dtype `held` may stand for a variable declared `declared`: the same
 * dtype, or int8 for a float one (Paddle's PostTrainingQuantization saves the weights it
 * quantizes as int8 and leaves their VarDesc float32; dequantize_linear reads them). */
bool ic_lt_dtype_match(int declared, int held);

/* Round-to-nearest-even conversions to the storage-only float types. */
uint16_t ic_f32_to_f16(float f);
uint16_t ic_f32_to_bf16(float f);

#endif
