/* Binary elementwise ops with Paddle's broadcasting (elementwise.h's plan, attribute `axis`,
 * default -1) whose scalar operation is not one of elementwise.h's engine ops: fmax, fmin,
 * heaviside, bitwise_and/or/xor. Plain layout only, no blocked paths. An op file defines its
 * loops per dtype with IC_EWS_LOOPS and runs them:
 *
 *   #define FMAX_F32(a, b) fmaxf(a, b)
 *   IC_EWS_LOOPS(fmax_f32, float, FMAX_F32)
 *   static ic_status infer(ic_kctx *c) { return ic_ews_infer(c, IC_DT_NUM); }
 *   static ic_status run(ic_kctx *c) {
 *     static const ic_ew_loop f32[3] = IC_EWS_ROW(fmax_f32);
 *     ... return ic_ews_run(c, loops for X's dtype);
 *   }
 *   const ic_opdef ic_op_elementwise_fmax = IC_EWS_DEF("elementwise_fmax", infer, run); */
#ifndef IC_KERNELS_CPU_EW_SIMPLE_H
#define IC_KERNELS_CPU_EW_SIMPLE_H

#include "kernels/cpu/elementwise.h"

/* loops NAME_vv (X and Y along the row), NAME_vs (Y one value), NAME_sv (X one value) */
#define IC_EWS_LOOPS(NAME, T, F)                                                           \
  static void NAME##_vv(void *o_, const void *x_, const void *y_, int64_t n) {             \
    T *restrict o = o_;                                                                    \
    const T *restrict x = x_, *restrict y = y_;                                            \
    for (int64_t i = 0; i < n; i++) o[i] = F(x[i], y[i]);                                  \
  }                                                                                        \
  static void NAME##_vs(void *o_, const void *x_, const void *y_, int64_t n) {             \
    T *restrict o = o_;                                                                    \
    const T *restrict x = x_;                                                              \
    const T y = *(const T *)y_;                                                            \
    for (int64_t i = 0; i < n; i++) o[i] = F(x[i], y);                                     \
  }                                                                                        \
  static void NAME##_sv(void *o_, const void *x_, const void *y_, int64_t n) {             \
    T *restrict o = o_;                                                                    \
    const T x = *(const T *)x_;                                                            \
    const T *restrict y = y_;                                                              \
    for (int64_t i = 0; i < n; i++) o[i] = F(x, y[i]);                                     \
  }

#define IC_EWS_ROW(NAME) {NAME##_vv, NAME##_vs, NAME##_sv}

/* X of a dtype in `mask`, Y of X's dtype; Out: X's dtype, the broadcast shape. */
static inline ic_status ic_ews_infer(ic_kctx *c, uint64_t mask) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, mask);
  if (st) return st;
  if (y->dtype != x->dtype) return ic_bcast_dtype_mismatch(c);
  const ic_elementwise_attrs *a = c->attrs;
  ic_bcast b;
  if ((st = ic_bcast_plan(c, 0, 1, a->axis, &b))) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, b.ndim, b.out);
  return IC_OK;
}

/* Out = loops over the broadcast of X and Y. */
static inline ic_status ic_ews_run(ic_kctx *c, const ic_ew_loop loops[3]) {
  const ic_elementwise_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  ic_bcast b;
  ic_status st = ic_bcast_plan(c, 0, 1, a->axis, &b);
  if (st || b.numel == 0) return st;
  ic_bcast_run(&b, loops, out->data, x->data, y->data, ic_dtype_size(x->dtype),
               ic_omp_threads(c->env));
  out->layout = IC_LAYOUT_PLAIN;
  return IC_OK;
}

#define IC_EWS_DEF(NAME, INFER, RUN)                                                       \
  {                                                                                        \
    .name = NAME, .n_inputs = 2, .inputs = ic_elementwise_inputs, .n_outputs = 1,          \
    .outputs = ic_elementwise_outputs, .attrs_size = sizeof(ic_elementwise_attrs),         \
    .parse = ic_elementwise_parse, .infer = INFER, .cpu = RUN,                             \
  }

#endif
