/* randint: Out = integers uniform in [low, high) (attributes; low < high), of `shape` (or
 * ShapeTensor / ShapeTensorList, see fill.h) and `dtype` (int32 or int64, default int64)
 * (paddle/phi/kernels/cpu/randint_kernel.cc, RandintInferMeta). A non-zero `seed` fixes the
 * stream, 0 takes the executor's (philox.h). Element i is low + w mod (high - low), w the 64
 * bits of words 2 (i % 2) and 2 (i % 2) + 1 of Philox block i / 2: uniform up to a bias below
 * (high - low) / 2^64, which no range an int32 or int64 attribute pair gives can make visible
 * short of 2^40 draws. Paddle draws from its mt19937_64, so the values differ from Paddle's. */
#include "kernels/cpu/fill.h"
#include "kernels/cpu/philox.h"

typedef struct randint_attrs {
  const int64_t *shape;
  size_t n_shape;
  int64_t low, high, seed;
  ic_dtype dtype;
} randint_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  randint_attrs *a = attrs;
  ic_ar_ints(r, "shape", false, &a->shape, &a->n_shape);
  a->low = ic_ar_int_req(r, "low");
  a->high = ic_ar_int_req(r, "high");
  a->seed = ic_ar_int(r, "seed", 0);
  ic_fill_parse_dtype(r, "dtype", IC_INT64, IC_DT(IC_INT32) | IC_DT(IC_INT64), &a->dtype);
  if (!r->st && !(a->low < a->high)) {
    ic_ar_fail(r, "low", "is %lld, expected less than attribute 'high' (%lld)", (long long)a->low,
               (long long)a->high);
  }
  if (!r->st && a->dtype == IC_INT32 && (a->low < INT32_MIN || a->high - 1 > INT32_MAX)) {
    ic_ar_fail(r, "high", "and 'low' (%lld, %lld) do not fit the int32 output", (long long)a->high,
               (long long)a->low);
  }
  return r->st;
}

enum { IN_SHAPE, IN_SHAPE_LIST };

static ic_status infer(ic_kctx *c) {
  const randint_attrs *a = c->attrs;
  return ic_fill_infer_shaped(c, IN_SHAPE, IN_SHAPE_LIST, a->shape, a->n_shape, a->dtype);
}

static ic_status run(ic_kctx *c) {
  const randint_attrs *a = c->attrs;
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(o);
  const uint64_t key = ic_philox_key(a->seed, c->env->seed, c->op_key);
  const uint64_t range = (uint64_t)a->high - (uint64_t)a->low;
  for (int64_t i = 0; i < n; i++) {
    const ic_philox4 r = ic_philox_block(key, (uint64_t)(i / 2) * 4);
    const int w = (int)(i % 2) * 2;
    const uint64_t bits = (uint64_t)r.v[w] << 32 | r.v[w + 1];
    const int64_t v = (int64_t)((uint64_t)a->low + bits % range);
    if (o->dtype == IC_INT32) {
      ((int32_t *)o->data)[i] = (int32_t)v;
    } else {
      ((int64_t *)o->data)[i] = v;
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"ShapeTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"ShapeTensorList", IC_SLOT_OPTIONAL | IC_SLOT_VALUE | IC_SLOT_MULTI},
};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_randint = {
    .name = "randint",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(randint_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_RANDOM,
};
