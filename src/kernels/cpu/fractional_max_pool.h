/* fractional_max_pool2d and fractional_max_pool3d (Paddle 3's F.fractional_max_pool2d /
 * 3d; phi FractionalMaxPool{2,3}dFunctor in paddle/phi/kernels/funcs/pooling.cc and
 * FractionalRationalU / FractionalStartIndex / FractionalEndIndex in funcs/pooling.h),
 * shared by the two op files. x is NCHW (NCDHW); out [N, C, output_size...] of x's dtype
 * (float32, float64) and mask the same dims, int32: per channel, the flat index in the
 * spatial input of each window's first maximum (-1 for a window without any value above
 * -FLT_MAX, whose out is -FLT_MAX; NaN is never taken, as `ele < x` is false).
 *
 * Per spatial axis, in float as Paddle computes: alpha = (in - k) / (out - (k > 0)), with
 * k = kernel_size (0: disjoint windows); u = random_u, or when random_u is 0 one uniform
 * draw in [0, 1) per run (icore's Philox stream, not Paddle's generator: only the
 * deterministic mode can match Paddle). For k = 0, u is scaled by min((in / out + 2) / alpha
 * - 1, (in + 1 - in / out) / alpha - (out - 1)) (in / out an integer division). Window i
 * spans [int((i + u) alpha) - int(u alpha), int((i + 1 + u) alpha) - int(u alpha)), or that
 * start + k when k > 0, clamped to [0, in). Float to int64 conversions give INT64_MIN out of
 * range (NaN, inf) as x86 does for Paddle's casts. Paddle requires in >= out - 1 + k on
 * every axis; icore also requires output_size >= 1 and kernel_size >= 0. */
#ifndef IC_KERNELS_CPU_FRACTIONAL_MAX_POOL_H
#define IC_KERNELS_CPU_FRACTIONAL_MAX_POOL_H

#include "kernels/kernel.h"

typedef struct ic_fmp_attrs {
  int nd; /* 2 or 3 spatial axes */
  int64_t out[3], k[3];
  float u;
  bool return_mask;
} ic_fmp_attrs;

ic_status ic_fmp_parse(ic_attr_reader *r, ic_fmp_attrs *a, int nd);
ic_status ic_fmp_infer(ic_kctx *c);
ic_status ic_fmp_cpu(ic_kctx *c);

#endif
