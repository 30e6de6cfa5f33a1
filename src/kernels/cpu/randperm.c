/* randperm: Out = a random permutation of 0 .. n - 1 (attribute n >= 0), in `dtype` (int64
 * default; int32, float32, float64) (paddle/phi/kernels/cpu/randperm_kernel.cc,
 * RandpermInferMeta). A non-zero `seed` attribute fixes the stream, 0 takes the executor's
 * (philox.h). A Fisher-Yates shuffle from the top: step j (n - 1 down to 1) swaps j with
 * w mod (j + 1), w the 64 bits of Philox block j (words 0 and 1); every permutation is
 * reachable, each within a bias below n / 2^64. Paddle shuffles with its mt19937_64, so the
 * permutation differs from Paddle's. */
#include "kernels/cpu/fill.h"
#include "kernels/cpu/philox.h"

typedef struct randperm_attrs {
  int64_t n, seed;
  ic_dtype dtype;
} randperm_attrs;

#define DTYPES (IC_DT(IC_INT32) | IC_DT(IC_INT64) | IC_DT(IC_FP32) | IC_DT(IC_FP64))

static ic_status parse(ic_attr_reader *r, void *attrs) {
  randperm_attrs *a = attrs;
  a->n = ic_ar_int_req(r, "n");
  a->seed = ic_ar_int(r, "seed", 0);
  ic_fill_parse_dtype(r, "dtype", IC_INT64, DTYPES, &a->dtype);
  if (!r->st && a->n < 0) ic_ar_fail(r, "n", "is %lld, expected >= 0", (long long)a->n);
  if (!r->st && a->dtype == IC_INT32 && a->n > (int64_t)INT32_MAX + 1) {
    ic_ar_fail(r, "n", "is %lld, more than an int32 output can count", (long long)a->n);
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const randperm_attrs *a = c->attrs;
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, 1, (int64_t[]){a->n});
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const randperm_attrs *a = c->attrs;
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = a->n;
  if (n == 0) return IC_OK;
  ic_buffer *sb = ic_kscratch(c, (size_t)n * sizeof(int64_t));
  if (!sb) return c->err->code;
  int64_t *p = sb->data;
  for (int64_t i = 0; i < n; i++) p[i] = i;
  const uint64_t key = ic_philox_key(a->seed, c->env->seed, c->op_key);
  for (int64_t j = n - 1; j > 0; j--) {
    const ic_philox4 r = ic_philox_block(key, (uint64_t)j * 4);
    const uint64_t w = (uint64_t)r.v[0] << 32 | r.v[1];
    const int64_t k = (int64_t)(w % (uint64_t)(j + 1)), t = p[j];
    p[j] = p[k];
    p[k] = t;
  }
  for (int64_t i = 0; i < n; i++) {
    switch (o->dtype) {
      case IC_INT32: ((int32_t *)o->data)[i] = (int32_t)p[i]; break;
      case IC_FP32: ((float *)o->data)[i] = (float)p[i]; break;
      case IC_FP64: ((double *)o->data)[i] = (double)p[i]; break;
      default: ((int64_t *)o->data)[i] = p[i]; break;
    }
  }
  ic_buffer_release(sb);
  return IC_OK;
}

static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_randperm = {
    .name = "randperm",
    .n_inputs = 0, .inputs = NULL,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(randperm_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_RANDOM,
};
