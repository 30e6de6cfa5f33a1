/* affine_channel: Out = X * Scale[c] + Bias[c] per channel c, in X's dtype (float32 or
 * float64; Scale and Bias of X's dtype, rank 1, one value per channel). data_layout "NCHW":
 * the channel is dim 1; anything else Paddle knows ("NHWC", and the default "AnyLayout"): the
 * last dim, as Paddle's kernel reads it (paddle/fluid/operators/affine_channel_op.cc). */
#include <ctype.h>
#include <string.h>

#include "kernels/kernel.h"

typedef struct affine_channel_attrs {
  bool nchw;
} affine_channel_attrs;

enum { IN_X, IN_SCALE, IN_BIAS };
static const ic_slotdef k_inputs[3] = {{"X", 0}, {"Scale", 0}, {"Bias", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static bool same_nocase(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    if (toupper((unsigned char)*a) != toupper((unsigned char)*b)) return false;
  }
  return *a == *b;
}

static ic_status parse(ic_attr_reader *r, void *attrs) {
  affine_channel_attrs *a = attrs;
  const char *l = ic_ar_str(r, "data_layout", "AnyLayout");
  if (r->st) return r->st;
  a->nchw = same_nocase(l, "NCHW");
  if (!a->nchw && !same_nocase(l, "NHWC") && !same_nocase(l, "AnyLayout")) {
    ic_ar_fail(r, "data_layout", "is '%s', expected NCHW, NHWC or AnyLayout", l);
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const affine_channel_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if (x->ndim < 2) return ic_kfail_in(c, IN_X, 0, "expected rank >= 2 ([N, C, ...])");
  const int64_t C = a->nchw ? x->dims[1] : x->dims[x->ndim - 1];
  for (size_t s = IN_SCALE; s <= IN_BIAS; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != x->dtype || t->ndim != 1 || t->dims[0] != C) {
      return ic_kfail_in(c, s, 0, "expected %s[%lld] (one value per channel of X '%s')",
                         ic_dtype_name(x->dtype), (long long)C, ic_in_name(c, IN_X, 0));
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define AFFINE(T)                                                              \
  do {                                                                         \
    const T *xp = x->data, *sp = ic_in(c, IN_SCALE, 0)->data,                  \
            *bp = ic_in(c, IN_BIAS, 0)->data;                                  \
    T *op = ic_out(c, 0, 0)->data;                                             \
    for (int64_t o = 0; o < outer; o++) {                                      \
      for (int64_t ch = 0; ch < C; ch++) {                                     \
        const T s = sp[ch], b = bp[ch];                                        \
        const int64_t base = (o * C + ch) * inner;                             \
        for (int64_t k = 0; k < inner; k++) op[base + k] = xp[base + k] * s + b; \
      }                                                                        \
    }                                                                          \
  } while (0)

static ic_status run(ic_kctx *c) {
  const affine_channel_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  const int cd = a->nchw ? 1 : x->ndim - 1;
  const int64_t C = x->dims[cd];
  const int64_t outer = ic_numel(cd, x->dims);
  const int64_t inner = ic_numel(x->ndim - cd - 1, x->dims + cd + 1);
  if (x->dtype == IC_FP32) {
    AFFINE(float);
  } else {
    AFFINE(double);
  }
  return IC_OK;
}

const ic_opdef ic_op_affine_channel = {
    .name = "affine_channel", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(affine_channel_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
