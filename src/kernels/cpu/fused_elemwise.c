/* fused_elemwise_activation / fused_elemwise_add_activation (Paddle's phi
 * FusedElemwiseActivationKernel, funcs/fused_elemwise_activation_functor.h,
 * FusedElemwiseActivationInferMeta): functor_list names two functors, one binary
 * (elementwise_add, elementwise_mul) and one unary (scale, relu, tanh, sigmoid, gelu):
 *   [unary, binary]  Out = Unary(Binary(X, Y)),  IntermediateOut = Binary(X, Y)   (Out's shape)
 *   [binary, unary]  Out = Binary(X, Unary(Y)),  IntermediateOut = Unary(Y)       (Y's shape)
 * Only the pairs Paddle's kernel implements are accepted: elementwise_add with scale or relu
 * (either order), elementwise_mul with scale, tanh or sigmoid ([binary, unary]), tanh and gelu
 * with elementwise_add ([unary, binary]).
 *
 * Broadcast, as the fused kernel does it (not the general elementwise rules): equal dims map
 * one to one; otherwise the operand with fewer elements, its trailing 1s dropped, must equal
 * the other's dims from `axis` on (axis -1: rank difference of the untrimmed shapes). Out has
 * X's dims when X's rank is larger, or the ranks match and no dim of X is smaller than Y's;
 * else Y's dims (IsBcastY). Shapes where Paddle's shape inference and kernel would pick
 * different operands are refused.
 *
 * The unary functors compute in the dtype as Paddle's do: relu x * (x > 0 ? 1 : 0); scale
 * x * (T)scale; tanh 2 / (1 + exp(-clip(2x, -40, 13))) - 1; sigmoid 1 / (1 + exp(-clip(x,
 * -40, 13))); gelu the tanh approximation x/2 (1 + tanh(0.79788456 x (1 + 0.044715 x^2))).
 * IntermediateOut is written whenever the program has it (Paddle fills it only with
 * save_intermediate_out; its shape is the same). */
#include <math.h>
#include <string.h>

#include "kernels/cpu/fused_elemwise.h"

enum { IN_X, IN_Y };
enum { OUT_OUT, OUT_INTER };

const ic_slotdef ic_fea_inputs[2] = {{"X", 0}, {"Y", 0}};
const ic_slotdef ic_fea_outputs[2] = {{"Out", 0}, {"IntermediateOut", IC_SLOT_OPTIONAL}};

static int binary_of(const char *s) {
  if (strcmp(s, "elementwise_add") == 0) return IC_FEA_ADD;
  if (strcmp(s, "elementwise_mul") == 0) return IC_FEA_MUL;
  return -1;
}

static int unary_of(const char *s) {
  static const char *const names[] = {"scale", "relu", "tanh", "sigmoid", "gelu"};
  for (int i = 0; i < 5; i++) {
    if (strcmp(s, names[i]) == 0) return i;
  }
  return -1;
}

ic_status ic_fea_parse(ic_attr_reader *r, void *attrs) {
  ic_fea_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", -1);
  a->scale = ic_ar_float(r, "scale", 0.0);
  a->save_intermediate_out = ic_ar_bool(r, "save_intermediate_out", false);
  if (r->st) return r->st;
  const ic_attr *fl = ic_op_attr(r->op, "functor_list");
  if (!fl) return ic_ar_fail(r, "functor_list", "is missing");
  if (fl->type != IC_ATTR_STRINGS || fl->n != 2) {
    return ic_ar_fail(r, "functor_list", "expected a list of two functor names");
  }
  const char *f0 = fl->strings[0], *f1 = fl->strings[1];
  if (binary_of(f1) >= 0) { /* Unary(Binary(X, Y)) */
    a->unary_outer = true;
    a->binary = binary_of(f1);
    a->unary = unary_of(f0);
  } else {
    a->unary_outer = false;
    a->binary = binary_of(f0);
    a->unary = unary_of(f1);
  }
  /* The pairs Paddle's RunFunctors implements. */
  bool ok = false;
  if (a->binary == IC_FEA_ADD) {
    ok = a->unary == IC_FEA_SCALE || a->unary == IC_FEA_RELU ||
         (a->unary_outer && (a->unary == IC_FEA_TANH || a->unary == IC_FEA_GELU));
  } else if (a->binary == IC_FEA_MUL) {
    ok = !a->unary_outer &&
         (a->unary == IC_FEA_SCALE || a->unary == IC_FEA_TANH || a->unary == IC_FEA_SIGMOID);
  }
  if (!ok) {
    return ic_ar_fail(r, "functor_list",
                      "is ['%s', '%s'], expected one of the pairs Paddle implements: "
                      "elementwise_add with scale or relu (either order), "
                      "[elementwise_mul, scale|tanh|sigmoid], [tanh|gelu, elementwise_add]",
                      f0, f1);
  }
  return IC_OK;
}

/* The broadcast plan: out index i reads the small operand at (i / post) % n. */
typedef struct plan {
  bool same, bcast_y;
  int64_t total, n, post;
} plan;

static ic_status make_plan(ic_kctx *c, plan *p) {
  const ic_fea_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  bool bcast_y = x->ndim >= y->ndim;
  if (x->ndim == y->ndim) {
    for (int i = 0; i < x->ndim; i++) {
      if (x->dims[i] < y->dims[i]) {
        bcast_y = false;
        break;
      }
    }
  }
  const ic_tensor *big = bcast_y ? x : y, *small = bcast_y ? y : x;
  p->bcast_y = bcast_y;
  p->total = ic_numel(big->ndim, big->dims);
  p->same = x->ndim == y->ndim && memcmp(x->dims, y->dims, sizeof(int64_t) * x->ndim) == 0;
  p->n = p->post = 1;
  if (p->same) return IC_OK;
  char xd[128], yd[128]; /* formatted for an error only: infer runs before every run */
#define DESCRIBE_XY()                          \
  (ic_dims_str(x->ndim, x->dims, xd, sizeof xd), \
   ic_dims_str(y->ndim, y->dims, yd, sizeof yd))
  const int64_t xn = ic_numel(x->ndim, x->dims), yn = ic_numel(y->ndim, y->dims);
  if ((xn >= yn) != bcast_y) {
    DESCRIBE_XY();
    return ic_kfail(c, IC_ERR_SHAPE,
                    "X %s and Y %s: the operand with more elements must also have the larger "
                    "shape (Paddle's shape inference and kernel broadcast different ones)",
                    xd, yd);
  }
  int64_t axis = a->axis == -1 ? big->ndim - small->ndim : a->axis;
  int len = small->ndim;
  while (len > 0 && small->dims[len - 1] == 1) len--;
  if (len == 0) axis = big->ndim;
  bool ok = axis >= 0 && axis + len <= big->ndim;
  for (int i = 0; ok && i < len; i++) ok = big->dims[axis + i] == small->dims[i];
  if (!ok) {
    DESCRIBE_XY();
    return ic_kfail(c, IC_ERR_SHAPE,
                    "X %s and Y %s with axis %lld: the smaller shape (trailing 1s dropped) "
                    "must equal the larger one's dims from axis on",
                    xd, yd, (long long)a->axis);
  }
#undef DESCRIBE_XY
  p->n = ic_numel(len, small->dims);
  p->post = ic_numel(big->ndim - (int)axis - len, big->dims + axis + len);
  return IC_OK;
}

ic_status ic_fea_infer(ic_kctx *c) {
  const ic_fea_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (y->dtype != x->dtype) {
    return ic_kfail_in(c, IN_Y, 0, "expected the dtype of X (%s)", ic_dtype_name(x->dtype));
  }
  plan p;
  st = make_plan(c, &p);
  if (st) return st;
  const ic_tensor *o = p.bcast_y ? x : y;
  ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, o->ndim, o->dims);
  ic_tensor *inter = ic_out(c, OUT_INTER, 0);
  if (inter) {
    const ic_tensor *s = a->unary_outer ? o : y;
    ic_tensor_set_meta(inter, x->dtype, s->ndim, s->dims);
  }
  return IC_OK;
}

#define FEA_RUN(T, EXP, TANH)                                                              \
  do {                                                                                     \
    const T *xp = x->data, *yp = y->data;                                                  \
    T *op = out->data, *ip = inter ? (T *)inter->data : NULL;                              \
    const T coeff = (T)(float)a->scale;                                                    \
    for (int64_t i = 0; i < p.total; i++) {                                                \
      const int64_t si = p.same ? i : (i / p.post) % p.n;                                  \
      const int64_t xi = p.bcast_y ? i : si, yi = p.bcast_y ? si : i;                      \
      T u = a->unary_outer ? (a->binary == IC_FEA_ADD ? xp[xi] + yp[yi] : xp[xi] * yp[yi]) \
                           : yp[yi];                                                       \
      const T b = u;                                                                       \
      switch (a->unary) {                                                                  \
      case IC_FEA_SCALE: u = b * coeff; break;                                             \
      case IC_FEA_RELU: u = b * (b > (T)0 ? (T)1 : (T)0); break;                           \
      case IC_FEA_TANH: {                                                                  \
        T t = (T)2 * b;                                                                    \
        t = t < (T)-40 ? (T)-40 : (t > (T)13 ? (T)13 : t);                                 \
        u = (T)2 / ((T)1 + EXP(-t)) - (T)1;                                                \
        break;                                                                             \
      }                                                                                    \
      case IC_FEA_SIGMOID: {                                                               \
        const T t = b < (T)-40 ? (T)-40 : (b > (T)13 ? (T)13 : b);                         \
        u = (T)1 / ((T)1 + EXP(-t));                                                       \
        break;                                                                             \
      }                                                                                    \
      default: /* gelu */                                                                  \
        u = b * (T)0.5 * ((T)1 + TANH((T)0.79788456 * b * ((T)1 + (T)0.044715 * b * b))); \
        break;                                                                             \
      }                                                                                    \
      T r, keep;                                                                           \
      if (a->unary_outer) {                                                                \
        r = u;                                                                             \
        keep = b;                                                                          \
      } else {                                                                             \
        r = a->binary == IC_FEA_ADD ? xp[xi] + u : xp[xi] * u;                             \
        keep = u;                                                                          \
      }                                                                                    \
      op[i] = r;                                                                           \
      if (ip) ip[a->unary_outer || p.same || !p.bcast_y ? i : yi] = keep;                  \
    }                                                                                      \
  } while (0)

ic_status ic_fea_run(ic_kctx *c) {
  const ic_fea_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_tensor *out = ic_out(c, OUT_OUT, 0), *inter = ic_out(c, OUT_INTER, 0);
  plan p;
  ic_status st = make_plan(c, &p);
  if (st) return st;
  if (x->dtype == IC_FP64) {
    FEA_RUN(double, exp, tanh);
  } else {
    FEA_RUN(float, expf, tanhf);
  }
  return IC_OK;
}
