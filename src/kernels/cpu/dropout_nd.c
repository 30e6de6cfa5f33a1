/* dropout_nd: dropout whose drop decisions are shared along the axes not listed in `axis`
 * (paddle.nn.functional.dropout with axis; phi DropoutNdKernel, DropoutNdInferMeta).
 * Attributes dropout_prob p (default 0.5, in [0, 1]), is_test, dropout_implementation
 * ("downgrade_in_infer", the default, or "upscale_in_train"), axis (distinct axes of X),
 * and fix_seed / seed when a program has them.
 *
 * Inference (is_test): X * (1 - p) under downgrade_in_infer, X under upscale_in_train; Mask
 * is left unset, as Paddle leaves it. Training: Mask (uint8) has X's dims on the axes in
 * `axis` and 1 elsewhere (an empty axis: a single decision for the whole tensor, as in
 * Paddle); each of its elements is 0 (dropped) when its uniform draw is below p, else 1; Out
 * = X times Mask broadcast to X's dims, divided by 1 - p under upscale_in_train; p = 1
 * drops everything. The stream's seed is input Seed's value, else `seed` when fix_seed, else
 * the executor's (philox.h): icore's draws are not Paddle's. Without a Mask output the op
 * computes the inference result. */
#include <string.h>

#include "kernels/cpu/philox.h"
#include "kernels/kernel.h"

typedef struct dropout_nd_attrs {
  float p;
  bool is_test, upscale;
  int64_t seed;
  uint32_t axes; /* bit d: axis d keeps its own decisions */
  const int64_t *axis;
  size_t n_axis;
} dropout_nd_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  dropout_nd_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "dropout_prob", 0.5);
  a->is_test = ic_ar_bool(r, "is_test", false);
  const char *impl = ic_ar_str(r, "dropout_implementation", "downgrade_in_infer");
  const bool fix_seed = ic_ar_bool(r, "fix_seed", false);
  const int64_t seed = ic_ar_int(r, "seed", 0);
  ic_ar_ints(r, "axis", false, &a->axis, &a->n_axis);
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
  for (size_t i = 0; i < a->n_axis; i++) {
    if (a->axis[i] < 0 || a->axis[i] >= IC_MAX_RANK) {
      return ic_ar_fail(r, "axis", "holds %lld, expected an axis in [0, %d)",
                        (long long)a->axis[i], IC_MAX_RANK);
    }
    a->axes |= 1u << a->axis[i];
  }
  return IC_OK;
}

enum { IN_X, IN_SEED };
enum { OUT_OUT, OUT_MASK };

static ic_status infer(ic_kctx *c) {
  const dropout_nd_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *seed = ic_in(c, IN_SEED, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (a->n_axis > (size_t)x->ndim) {
    return ic_kfail_in(c, IN_X, 0, "has rank %d, fewer than the %zu entries of attribute "
                       "'axis'", x->ndim, a->n_axis);
  }
  for (size_t i = 0; i < a->n_axis; i++) {
    if (a->axis[i] >= x->ndim) {
      return ic_kfail_in(c, IN_X, 0, "has rank %d, too low for axis %lld of attribute 'axis'",
                         x->ndim, (long long)a->axis[i]);
    }
  }
  if (seed) {
    if ((st = ic_kcheck_dtype(c, IN_SEED, 0, IC_DT_INT))) return st;
    if (ic_tensor_numel_(seed) != 1) return ic_kfail_in(c, IN_SEED, 0, "expected one value");
  }
  ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, x->ndim, x->dims);
  ic_tensor *mask = ic_out(c, OUT_MASK, 0);
  if (mask) {
    int64_t d[IC_MAX_RANK];
    for (int i = 0; i < x->ndim; i++) d[i] = (a->axes >> i) & 1u ? x->dims[i] : 1;
    ic_tensor_set_meta(mask, IC_UINT8, x->ndim, d);
  }
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
    int64_t idx[IC_MAX_RANK] = {0};                                                        \
    for (int64_t i = 0; i < n; i++) {                                                      \
      int64_t mi = 0;                                                                      \
      for (int d = 0; d < x->ndim; d++) mi = mi * mask->dims[d] + (mask->dims[d] > 1 ? idx[d] : 0); \
      op[i] = !mp[mi] ? (T)0 : a->upscale ? xp[i] / keep : xp[i];                          \
      for (int d = x->ndim - 1; d >= 0 && ++idx[d] == x->dims[d]; d--) idx[d] = 0;         \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const dropout_nd_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *seed = ic_in(c, IN_SEED, 0);
  ic_tensor *o = ic_out(c, OUT_OUT, 0), *mask = ic_out(c, OUT_MASK, 0);
  const int64_t n = ic_numel(x->ndim, x->dims);
  if (a->is_test || !mask) {
    if (x->dtype == IC_FP32) INFER_LOOP(float);
    else INFER_LOOP(double);
    return IC_OK;
  }
  ic_status st = ic_tensor_alloc(mask, c->env->alloc, c->err);
  if (st) return st;
  uint8_t *mp = mask->data;
  const int64_t nm = ic_numel(mask->ndim, mask->dims);
  if (a->p == 1.0f) {
    memset(mp, 0, (size_t)nm);
  } else {
    const uint64_t key =
        ic_philox_key(seed ? ic_read_i64(seed, 0) : a->seed, c->env->seed, c->op_key);
    for (int64_t i = 0; i < nm; i += 4) {
      const ic_philox4 r = ic_philox_block(key, (uint64_t)i);
      for (int64_t j = i; j < nm && j < i + 4; j++) mp[j] = !(ic_philox_u24(r.v[j - i]) < a->p);
    }
  }
  if (x->dtype == IC_FP32) TRAIN_LOOP(float);
  else TRAIN_LOOP(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Seed", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"Mask", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER}};

const ic_opdef ic_op_dropout_nd = {
    .name = "dropout_nd",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(dropout_nd_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_RANDOM,
};
