/* abs: Out = |X| for float32, float64, int32 and int64. The most negative integer stays
 * itself (two's complement wrap), as in Paddle. A complex X (complex64, complex128) gives its
 * modulus hypot(re, im) in the real dtype (float32, float64). */
#include <math.h>

#include "kernels/cpu/activation.h"
#include "kernels/cpu/complexutil.h"

static ic_status abs_infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->dtype != IC_COMPLEX64 && x->dtype != IC_COMPLEX128) return ic_activation_infer_num(c);
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_complex_part_dtype(x->dtype), x->ndim, x->dims);
  return IC_OK;
}

static ic_status abs_cpu(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  switch (x->dtype) {
    case IC_FP32: IC_UNARY_LOOP(float, x->data, o->data, n, abs_f32(v)); break;
    case IC_FP64: IC_UNARY_LOOP(double, x->data, o->data, n, abs_f64(v)); break;
    case IC_INT32: IC_UNARY_LOOP(int32_t, x->data, o->data, n, abs_i32(v)); break;
    case IC_COMPLEX64:
      for (int64_t i = 0; i < n; i++) {
        const float *z = (const float *)x->data + 2 * i;
        ((float *)o->data)[i] = hypotf(z[0], z[1]);
      }
      break;
    case IC_COMPLEX128:
      for (int64_t i = 0; i < n; i++) {
        const double *z = (const double *)x->data + 2 * i;
        ((double *)o->data)[i] = hypot(z[0], z[1]);
      }
      break;
    default: IC_UNARY_LOOP(int64_t, x->data, o->data, n, abs_i64(v)); break;
  }
  return IC_OK;
}

const ic_opdef ic_op_abs = IC_ACTIVATION_DEF(abs, ic_noattrs, NULL, abs_infer);
