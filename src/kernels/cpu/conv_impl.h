/* What the three parts of the 2-D convolution share (conv.c: attributes, geometry, shapes,
 * activations and the entry point; conv_dnnl.c: the oneDNN path; conv_ref.c: the reference
 * path). Private to them. */
#ifndef IC_KERNELS_CPU_CONV_IMPL_H
#define IC_KERNELS_CPU_CONV_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "kernels/cpu/conv.h"

/* The fused affines: after the activation (ic_AffineScale, ic_AffineBias) and before it
 * (ic_PreAffineScale, ic_PreAffineBias); absent inputs are 1 and 0. */
typedef struct ic_conv_affine {
  bool on, pre_on;
  double scale, bias, pre_scale, pre_bias;
} ic_conv_affine;

ic_conv_affine ic_conv_affine_of(const ic_kctx *c);

/* Output's logical dims: the convolution's, or with a fused depthwise convolution its
 * output's (conv.c). */
void ic_conv_out_dims(const ic_conv_attrs *a, const ic_conv_geom *g, int64_t d[4]);

/* Output += ResidualData (res, when given), then the affine before the activation, the
 * activation, the affine after it (f may be NULL), over n elements in any layout. */
void ic_conv_epilogue_f32(const ic_conv_attrs *a, const ic_conv_affine *f, float *y,
                          const float *res, size_t n);
void ic_conv_epilogue_f64(const ic_conv_attrs *a, const ic_conv_affine *f, double *y,
                          const double *res, size_t n);

/* The reference path (conv_ref.c): float32 over any input layout (unpacked first), float64
 * over plain x and res. */
ic_status ic_conv_ref_plain(ic_kctx *c, const ic_conv_geom *g);
ic_status ic_conv_ref_f64(ic_kctx *c, const ic_conv_geom *g, const double *x, const double *res,
                          double *out);

/* The oneDNN path (conv_dnnl.c), float32, with oneDNN's threads already set to `threads`:
 * *ran false (and IC_OK) where oneDNN has no thread-invariant implementation, for the
 * reference path to run instead. pad_room: Output's storage has room for nChw16c with padded
 * channels. */
ic_status ic_conv_dnnl_run(ic_kctx *c, const ic_conv_geom *g, int threads, bool pad_room,
                           bool *ran);

/* ic_InScale: whether the kernel scales the filter (else the Input); see conv_dnnl.c. */
bool ic_conv_in_scale_filter(const ic_conv_geom *g);

#endif
