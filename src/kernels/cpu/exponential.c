/* exponential: Out = draws of the exponential distribution of rate `lambda` (default 1,
 * > 0) in X's dims and dtype (paddle.Tensor.exponential_: Out names X; X's values are not
 * read): -log(1 - u) / lambda for u uniform in [0, 1), from icore's Philox stream seeded by
 * the executor (not Paddle's draws). float32 and float64. Paddle 3's PIR names the attribute
 * lam. */
#include <math.h>

#include "kernels/cpu/randutil.h"
#include "kernels/kernel.h"

typedef struct exponential_attrs {
  double lambda;
} exponential_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  exponential_attrs *a = attrs;
  a->lambda = ic_ar_float(r, "lambda", ic_ar_float(r, "lam", 1.0));
  if (!r->st && !(a->lambda > 0)) return ic_ar_fail(r, "lambda", "is %g, expected > 0", a->lambda);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const exponential_attrs *a = c->attrs;
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(o);
  const uint64_t key = ic_philox_key(0, c->env->seed, c->op_key);
  for (int64_t i = 0; i < n; i++) {
    ic_rstream s = ic_rstream_at(key, (uint64_t)i);
    const double y = -log1p(-ic_rstream_u53(&s)) / a->lambda;
    if (o->dtype == IC_FP32) ((float *)o->data)[i] = (float)y;
    else ((double *)o->data)[i] = y;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_exponential = {
    .name = "exponential", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(exponential_attrs), .parse = parse,
    .infer = infer, .cpu = run, .flags = IC_OP_RANDOM,
};
