/* tril_triu: Out = X with the elements outside a triangle of each matrix (the last two dims)
 * set to zero. lower: keeps element (i, j) when j - i <= diagonal (tril); otherwise when
 * j - i >= diagonal (triu). Any dtype (a zero of every icore dtype is all zero bytes); X of
 * rank >= 2 (paddle/phi/kernels/impl/tril_triu_kernel_impl.h, TrilTriuInferMeta). */
#include <string.h>

#include "kernels/kernel.h"

typedef struct tril_triu_attrs {
  int64_t diagonal;
  bool lower;
} tril_triu_attrs;

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  tril_triu_attrs *a = attrs;
  a->diagonal = ic_ar_int(r, "diagonal", 0);
  a->lower = ic_ar_bool(r, "lower", false); /* Paddle's default */
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim < 2) return ic_kfail_in(c, 0, 0, "expected rank >= 2 (the last two dims a matrix)");
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const tril_triu_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t H = x->dims[x->ndim - 2], W = x->dims[x->ndim - 1];
  const int64_t mats = ic_numel(x->ndim - 2, x->dims);
  const char *src = x->data;
  char *dst = ic_out(c, 0, 0)->data;
  for (int64_t m = 0; m < mats; m++) {
    for (int64_t i = 0; i < H; i++) {
      const size_t row = (size_t)((m * H + i) * W) * es;
      /* kept columns: [lo, hi) */
      int64_t lo, hi;
      if (a->lower) {
        lo = 0;
        hi = i + a->diagonal + 1; /* j <= i + diagonal */
      } else {
        lo = i + a->diagonal; /* j >= i + diagonal */
        hi = W;
      }
      lo = lo < 0 ? 0 : lo > W ? W : lo;
      hi = hi < lo ? lo : hi > W ? W : hi;
      memset(dst + row, 0, (size_t)lo * es);
      memcpy(dst + row + (size_t)lo * es, src + row + (size_t)lo * es, (size_t)(hi - lo) * es);
      memset(dst + row + (size_t)hi * es, 0, (size_t)(W - hi) * es);
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_tril_triu = {
    .name = "tril_triu", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(tril_triu_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
