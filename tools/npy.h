/* NumPy .npy files and icore tensors, for the CLI, the example and tests.
 *
 * Reads format versions 1.0, 2.0 and 3.0 in C order, little-endian (or '|' for one-byte
 * types): bool, int8, uint8, int16, int32, int64, float16, float32, float64. Refuses
 * Fortran order, big-endian data, object and other dtypes, malformed headers, and data that
 * is shorter or longer than the header's shape says. Writes version 1.0 (the header of
 * a tensor of at most IC_MAX_RANK dims always fits it) padded so the data starts at a
 * multiple of 64 bytes, as numpy.save does. Messages name the file. */
#ifndef IC_TOOLS_NPY_H
#define IC_TOOLS_NPY_H

#include <stddef.h>

#include "icore/icore.h"

/* Read path into a new tensor (*out is NULL on failure). */
ic_status ic_npy_load(const char *path, ic_tensor **out, char *err, size_t errlen);
/* The same from bytes in memory; origin names them in messages. */
ic_status ic_npy_parse(const void *data, size_t size, const char *origin, ic_tensor **out,
                       char *err, size_t errlen);
/* Write t to path. bfloat16 has no NumPy dtype and is refused. */
ic_status ic_npy_save(const char *path, const ic_tensor *t, char *err, size_t errlen);

#endif
