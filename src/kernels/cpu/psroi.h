/* What psroi_pool and psroi_pool_grad share (phi PsroiPoolKernel, PsroiPoolGradKernel): the
 * attributes, the channel check and the bins. X is [N, output_channels * pooled_height *
 * pooled_width, H, W], ROIs [R, 4] boxes (x0, y0, x1, y1) split into images as roi_align does.
 * A box's corners are rounded half away from zero, then scaled by spatial_scale (the ends as
 * round + 1); the region is at least 0.1 wide and high. Bin (c, ph, pw) covers input channel
 * (c * pooled_height + ph) * pooled_width + pw over rows [floor(start + ph * bh),
 * ceil(start + (ph + 1) * bh)) clamped to the map, likewise columns. */
#ifndef IC_KERNELS_CPU_PSROI_H
#define IC_KERNELS_CPU_PSROI_H

#include <math.h>

#include "kernels/cpu/roi_align.h"

typedef struct psroi_attrs {
  ic_roi_align_attrs ra; /* ph, pw, scale as roi_align; sampling and aligned unused */
  int64_t oc;
} psroi_attrs;

enum { IC_PSROI_X, IC_PSROI_ROIS, IC_PSROI_NUM };

/* output_channels must be at least min_oc: Paddle's PsroiPoolInferMeta refuses 1 for the
 * forward op (2), its grad op takes any positive count (1). */
static inline ic_status ic_psroi_parse(ic_attr_reader *r, psroi_attrs *a, int64_t min_oc) {
  a->ra.ph = ic_ar_int(r, "pooled_height", 1);
  a->ra.pw = ic_ar_int(r, "pooled_width", 1);
  a->ra.scale = (float)ic_ar_float(r, "spatial_scale", 1.0);
  a->oc = ic_ar_int(r, "output_channels", 1);
  if (r->st) return r->st;
  if (a->ra.ph <= 0 || a->ra.ph > INT32_MAX) {
    return ic_ar_fail(r, "pooled_height", "is %lld, expected > 0", (long long)a->ra.ph);
  }
  if (a->ra.pw <= 0 || a->ra.pw > INT32_MAX) {
    return ic_ar_fail(r, "pooled_width", "is %lld, expected > 0", (long long)a->ra.pw);
  }
  if (a->oc < min_oc || a->oc > INT32_MAX) {
    return ic_ar_fail(r, "output_channels", "is %lld, expected > %lld", (long long)a->oc,
                      (long long)(min_oc - 1));
  }
  if (!(a->ra.scale > 0)) {
    return ic_ar_fail(r, "spatial_scale", "is %g, expected > 0", a->ra.scale);
  }
  return IC_OK;
}

/* The ROIs (ic_roi_align_check) and X's channel count. */
static inline ic_status ic_psroi_check(ic_kctx *c) {
  const psroi_attrs *a = c->attrs;
  ic_status st = ic_roi_align_check(c);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IC_PSROI_X, 0);
  if (x->dims[1] != a->oc * a->ra.ph * a->ra.pw) {
    return ic_kfail_in(c, IC_PSROI_X, 0,
                       "has %lld channels, expected output_channels x pooled_height x "
                       "pooled_width = %lld x %lld x %lld",
                       (long long)x->dims[1], (long long)a->oc, (long long)a->ra.ph,
                       (long long)a->ra.pw);
  }
  return IC_OK;
}

static inline int64_t ic_psroi_clamp(int64_t v, int64_t hi) { return v < 0 ? 0 : v > hi ? hi : v; }

/* Runs BODY for each bin of one box (a const T[4]) over an H x W map, in Paddle's order, with
 * k the bin's index ((oc * ph + py) * pw + px: also its input channel) and its rows [h0, h1)
 * and columns [w0, w1), possibly empty. T is float or double, with its ROUND, FLOOR, CEIL. */
#define IC_PSROI_BINS(T, ROUND, FLOOR, CEIL, A, BOX, H, W, BODY)                              \
  do {                                                                                       \
    const T sc_ = (T)(float)(A)->ra.scale;                                                   \
    const T x0_ = (T)ROUND((BOX)[0]) * sc_, y0_ = (T)ROUND((BOX)[1]) * sc_;                   \
    const T x1_ = (T)((double)ROUND((BOX)[2]) + 1.) * sc_;                                   \
    const T y1_ = (T)((double)ROUND((BOX)[3]) + 1.) * sc_;                                   \
    const T rh_ = y1_ - y0_ > (T)0.1 ? y1_ - y0_ : (T)0.1;                                   \
    const T rw_ = x1_ - x0_ > (T)0.1 ? x1_ - x0_ : (T)0.1;                                   \
    const int64_t ph_ = (A)->ra.ph, pw_ = (A)->ra.pw;                                        \
    const T bh_ = rh_ / (T)ph_, bw_ = rw_ / (T)pw_;                                          \
    int64_t k = 0;                                                                           \
    for (int64_t oc_ = 0; oc_ < (A)->oc; oc_++) {                                            \
      for (int64_t py_ = 0; py_ < ph_; py_++) {                                              \
        const int64_t h0 = ic_psroi_clamp((int64_t)FLOOR((T)py_ * bh_ + y0_), (H));          \
        const int64_t h1 = ic_psroi_clamp((int64_t)CEIL((T)(py_ + 1) * bh_ + y0_), (H));     \
        for (int64_t px_ = 0; px_ < pw_; px_++, k++) {                                       \
          const int64_t w0 = ic_psroi_clamp((int64_t)FLOOR((T)px_ * bw_ + x0_), (W));        \
          const int64_t w1 = ic_psroi_clamp((int64_t)CEIL((T)(px_ + 1) * bw_ + x0_), (W));   \
          BODY;                                                                              \
        }                                                                                    \
      }                                                                                      \
    }                                                                                        \
  } while (0)

#endif
