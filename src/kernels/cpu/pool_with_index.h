/* Max pooling that also returns where each maximum was, over the last nd (2 or 3) axes of
 * X [N, C, spatial...] (paddle/phi/kernels/funcs/pooling.cc MaxPool2d/3dWithIndexFunctor,
 * MaxPoolWithIndexInferMeta): the engine of max_pool2d_with_index and max_pool3d_with_index
 * (pool_with_index.c).
 *
 * Out and Mask (int32) are [N, C, o...]; Mask holds the flat index of the maximum in its
 * channel's plane or volume ((d * H + h) * W + w; -1 when the window is empty), the first one
 * on ties. global_pooling: the window is the whole plane or volume, paddings 0. adaptive: the
 * output sizes are ksize and window i of an axis of size n covers [floor(i * n / o),
 * ceil((i + 1) * n / o)). Otherwise o = (n - k + 2 * p) / s + 1 (rounded up under ceil_mode)
 * and window i covers [i * s - p, i * s - p + k) clipped to the input; padding never wins, and
 * a window that holds no input gives -FLT_MAX (in X's dtype) and index -1, as in Paddle. */
#ifndef IC_KERNELS_CPU_POOL_WITH_INDEX_H
#define IC_KERNELS_CPU_POOL_WITH_INDEX_H

#include "kernels/kernel.h"

typedef struct ic_mpi_attrs {
  int nd;                        /* spatial axes: 2 or 3 */
  int64_t k[3], s[3], p[3];
  bool global, adaptive, ceil_mode;
} ic_mpi_attrs;

/* ksize, strides, paddings (nd values each), global_pooling, adaptive, ceil_mode. */
ic_status ic_mpi_parse(ic_attr_reader *r, ic_mpi_attrs *a, int nd);
ic_status ic_mpi_infer(ic_kctx *c);
ic_status ic_mpi_run(ic_kctx *c);
/* The grad ops (max_pool2d/3d_with_index_grad): inputs X (dims only), Mask (int32 / int64,
 * the forward's), Out@GRAD; output X@GRAD = Out@GRAD added at the places Mask names. */
ic_status ic_mpi_grad_infer(ic_kctx *c);
ic_status ic_mpi_grad_run(ic_kctx *c);

#endif
