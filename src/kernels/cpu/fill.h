/* Shared by the ops that create a tensor from attributes (fill_constant, uniform_random,
 * gaussian_random): the output shape from Paddle's three sources, the dtype attribute, and
 * storing one value in any dtype. */
#ifndef IC_KERNELS_CPU_FILL_H
#define IC_KERNELS_CPU_FILL_H

#include "kernels/kernel.h"

/* The output shape, by Paddle's precedence: input ShapeTensor (slot s_tensor: a 1-D int32
 * or int64 tensor of the dims) if present, else input ShapeTensorList (slot s_list: int32
 * or int64 tensors of one element each) if non-empty, else the attribute (n_attr values).
 * Every dim must be >= 0 and the rank at most IC_MAX_RANK; failures name the source. */
ic_status ic_fill_shape(ic_kctx *c, size_t s_tensor, size_t s_list, const int64_t *attr,
                        size_t n_attr, int *ndim, int64_t *dims);

/* Read a Paddle VarType data type attribute into *dt; fails the reader for one icore does
 * not have (complex, strings) or that is not in `allowed` (IC_DT bits). */
void ic_fill_parse_dtype(ic_attr_reader *r, const char *name, int64_t dflt, uint64_t allowed,
                         ic_dtype *dt);

/* A scalar before conversion to the output dtype: integers are kept exact (int64 values
 * beyond 2^53 survive), everything else is a double. */
typedef struct ic_fill_scalar {
  bool is_int;
  int64_t i; /* when is_int */
  double f;  /* otherwise; also (double)i when is_int */
} ic_fill_scalar;

/* Element 0 of a numeric tensor as a scalar (integers exact). */
ic_fill_scalar ic_fill_scalar_of(const ic_tensor *t);

/* Store v converted to dt (Paddle's static_cast: floats to integers truncate, see
 * convert.h; to bool is v != 0; to float16/bfloat16 rounds to nearest even) into n
 * elements at data. */
void ic_fill_store(void *data, ic_dtype dt, int64_t n, ic_fill_scalar v);

#endif
