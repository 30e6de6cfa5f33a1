/* dropout: X -> Out (and Mask). Attributes dropout_prob p (default 0.5, in [0, 1]), is_test
 * (default false), dropout_implementation ("downgrade_in_infer", the default, or
 * "upscale_in_train"), fix_seed and seed.
 *
 * Inference (is_test, as every exported model has it): downgrade_in_infer gives X * (1 - p),
 * upscale_in_train gives X. Training: each element is dropped (Out 0, Mask 0) when its
 * uniform draw u in [0, 1) is below p, else kept (Mask 1) as X, or X / (1 - p) with
 * upscale_in_train; p = 1 drops everything. Like paddle/phi/kernels/cpu/dropout_kernel.cc,
 * training needs the Mask output: without it the op computes the inference result. The
 * stream's seed is input Seed's value, else `seed` when fix_seed, else 0, which means the
 * executor's (philox.h); icore's masks differ from Paddle's draws.
 *
 * Mask is uint8 with X's shape. It is IC_SLOT_NO_BUFFER: the executor never allocates it,
 * so inference (where Paddle leaves it unset too) costs nothing for it; a training run
 * allocates it here. A later op reading Mask after an inference dropout fails as reading an
 * unset variable. */
#include <string.h>

#include "kernels/cpu/dropout.h"
#include "kernels/cpu/philox.h"
#include "kernels/kernel.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  dropout_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "dropout_prob", 0.5);
  a->is_test = ic_ar_bool(r, "is_test", false);
  const char *impl = ic_ar_str(r, "dropout_implementation", "downgrade_in_infer");
  bool fix_seed = ic_ar_bool(r, "fix_seed", false);
  int64_t seed = ic_ar_int(r, "seed", 0);
  if (r->st) return r->st;
  a->seed = fix_seed ? seed : 0;
  if (!(a->p >= 0.0f && a->p <= 1.0f)) {
    return ic_ar_fail(r, "dropout_prob", "is %g, expected in [0, 1]", (double)a->p);
  }
  if (!strcmp(impl, "upscale_in_train")) {
    a->upscale = true;
  } else if (strcmp(impl, "downgrade_in_infer") != 0) {
    return ic_ar_fail(r, "dropout_implementation",
                      "is '%s', expected 'downgrade_in_infer' or 'upscale_in_train'", impl);
  }
  return r->st;
}

enum { IN_X = IC_DROPOUT_X, IN_SEED = IC_DROPOUT_SEED };
enum { OUT_OUT = IC_DROPOUT_OUT, OUT_MASK = IC_DROPOUT_MASK };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *seed = ic_in(c, IN_SEED, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (seed) {
    if ((st = ic_kcheck_dtype(c, IN_SEED, 0, IC_DT_INT))) return st;
    if (ic_tensor_numel_(seed) < 1) return ic_kfail_in(c, IN_SEED, 0, "expected one value");
  }
  ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, x->ndim, x->dims);
  ic_tensor *mask = ic_out(c, OUT_MASK, 0);
  if (mask) ic_tensor_set_meta(mask, IC_UINT8, x->ndim, x->dims);
  return IC_OK;
}

#define INFER_LOOP(T)                                                                      \
  do {                                                                                     \
    const T *restrict xp = x->data;                                                        \
    T *restrict op = o->data, k = (T)(1.0f - a->p);                                        \
    if (a->upscale) memcpy(op, xp, (size_t)n * sizeof(T));                                 \
    else for (int64_t i = 0; i < n; i++) op[i] = xp[i] * k;                                \
  } while (0)

#define TRAIN_LOOP(T)                                                                      \
  do {                                                                                     \
    const T *restrict xp = x->data;                                                        \
    T *restrict op = o->data, keep = (T)(1.0f - a->p);                                     \
    for (int64_t i = 0; i < n; i += 4) {                                                   \
      ic_philox4 r = ic_philox_block(key, (uint64_t)i);                                    \
      for (int64_t j = i; j < n && j < i + 4; j++) {                                       \
        bool drop = ic_philox_u24(r.v[j - i]) < a->p;                                      \
        mp[j] = !drop;                                                                     \
        op[j] = drop ? (T)0 : a->upscale ? xp[j] / keep : xp[j];                           \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const dropout_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *seed = ic_in(c, IN_SEED, 0);
  ic_tensor *o = ic_out(c, OUT_OUT, 0), *mask = ic_out(c, OUT_MASK, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  if (a->is_test || !mask) {
    if (x->dtype == IC_FP32) INFER_LOOP(float);
    else INFER_LOOP(double);
    return IC_OK;
  }
  ic_status st = ic_tensor_alloc(mask, c->env->alloc, c->err);
  if (st) return st;
  uint8_t *mp = mask->data;
  if (a->p == 1.0f) { /* everything dropped, without drawing */
    memset(mp, 0, (size_t)n);
    memset(o->data, 0, (size_t)n * ic_dtype_size(o->dtype));
    return IC_OK;
  }
  uint64_t key = ic_philox_key(seed ? ic_read_i64(seed, 0) : a->seed, c->env->seed, c->op_key);
  if (x->dtype == IC_FP32) TRAIN_LOOP(float);
  else TRAIN_LOOP(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Seed", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"Mask", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER}};

const ic_opdef ic_op_dropout = {
    .name = "dropout",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(dropout_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_RANDOM,
};
