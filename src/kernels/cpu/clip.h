/* clip's attributes and bound conversions, shared by its CPU kernel (clip.c) and its CUDA
 * kernel. */
#ifndef IC_KERNELS_CPU_CLIP_H
#define IC_KERNELS_CPU_CLIP_H

#include "kernels/cpu/fill.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct clip_attrs {
  double min, max; /* float attributes, widened */
} clip_attrs;

/* Input slots. */
enum { IC_CLIP_X, IC_CLIP_MIN, IC_CLIP_MAX };

/* A bound from its float attribute: Paddle's Scalar keeps it as a float. */
static inline IC_HD ic_fill_scalar ic_clip_attr_bound(double attr) {
  ic_fill_scalar s = {false, 0, (double)(float)attr};
  return s;
}

/* A bound in X's dtype: converted as Paddle converts it (an int32 X clipped at 1.5 is
 * clipped at 1). */
static inline IC_HD float ic_clip_f32(ic_fill_scalar s) { return (float)s.f; }
static inline IC_HD double ic_clip_f64(ic_fill_scalar s) { return s.f; }
static inline IC_HD int32_t ic_clip_i32(ic_fill_scalar s) {
  return s.is_int ? ic_wrap_i32(s.i) : ic_f64_to_i32(s.f);
}
static inline IC_HD int64_t ic_clip_i64(ic_fill_scalar s) {
  return s.is_int ? s.i : ic_f64_to_i64(s.f);
}

/* When neither Min nor Max is a tensor (both bounds known on the host), fail as the CPU
 * kernel does when min > max in X's dtype; else IC_OK. For kernels that cannot read the
 * bound tensors before computing (CUDA). */
ic_status ic_clip_check_attr_bounds(ic_kctx *c);

#ifdef __cplusplus
}
#endif

#endif
