/* round: to the nearest whole number, halves to even (2.5 -> 2, as Paddle 3.3 computes); with
 * `decimals` d != 0 (default 0), rint(X 10^d) / 10^d, as Paddle's RoundFunctor
 * (paddle/phi/kernels/funcs/activation_functor.h). Integers (int32, int64) pass unchanged. */
#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  round_attrs *a = attrs;
  int64_t d = ic_ar_int(r, "decimals", 0);
  if (r->st == IC_OK && (d < -300 || d > 300)) {
    return ic_ar_fail(r, "decimals", "must be in [-300, 300], got %lld", (long long)d);
  }
  a->decimals = (int)d;
  return r->st;
}

static ic_status round_cpu(ic_kctx *c) {
  const round_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  switch (x->dtype) {
    case IC_FP32: IC_UNARY_LOOP(float, x->data, o->data, n, round_f32(v, a)); break;
    case IC_FP64: IC_UNARY_LOOP(double, x->data, o->data, n, round_f64(v, a)); break;
    case IC_INT32: IC_UNARY_LOOP(int32_t, x->data, o->data, n, v); break;
    default: IC_UNARY_LOOP(int64_t, x->data, o->data, n, v); break;
  }
  return IC_OK;
}

const ic_opdef ic_op_round = IC_ACTIVATION_DEF(round, round_attrs, parse, ic_activation_infer_num);
