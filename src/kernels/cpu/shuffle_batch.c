/* shuffle_batch: shuffles the rows of X, a row being the last dim's values (paddle/fluid/
 * operators/shuffle_batch_op.h). ShuffleIdx (int64 [rows], rows = numel / last dim) is a
 * permutation and Out[ShuffleIdx[i]] = X[i] (Paddle scatters). The seed is input Seed's value
 * (int64, one element) when Seed holds data, else the attribute startup_seed; 0 takes the
 * executor's stream. SeedOut (int64 [1]) is exactly Paddle's: the first output of
 * std::minstd_rand0 seeded with that seed, the next step's Seed. The permutation itself
 * (Fisher-Yates over icore's Philox stream) is not Paddle's. Any dtype. */
#include <string.h>

#include "kernels/cpu/randutil.h"
#include "kernels/kernel.h"

typedef struct shuffle_batch_attrs {
  int64_t startup_seed;
} shuffle_batch_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  shuffle_batch_attrs *a = attrs;
  a->startup_seed = ic_ar_int(r, "startup_seed", 0);
  return r->st;
}

enum { IN_X, IN_SEED };
enum { OUT_OUT, OUT_IDX, OUT_SEED };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *seed = ic_in(c, IN_SEED, 0);
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  if (seed && seed->data) {
    ic_status st = ic_kcheck_dtype(c, IN_SEED, 0, IC_DT(IC_INT64));
    if (st) return st;
    if (ic_tensor_numel_(seed) < 1) return ic_kfail_in(c, IN_SEED, 0, "expected one value");
  }
  const int64_t last = x->dims[x->ndim - 1];
  const int64_t rows = last ? ic_tensor_numel_(x) / last : 0;
  ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, x->ndim, x->dims);
  ic_tensor_set_meta(ic_out(c, OUT_IDX, 0), IC_INT64, 1, &rows);
  ic_tensor_set_meta(ic_out(c, OUT_SEED, 0), IC_INT64, 1, (int64_t[]){1});
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const shuffle_batch_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *seed = ic_in(c, IN_SEED, 0);
  ic_tensor *o = ic_out(c, OUT_OUT, 0);
  int64_t *idx = ic_out(c, OUT_IDX, 0)->data;
  const int64_t s = seed && seed->data ? ((const int64_t *)seed->data)[0] : a->startup_seed;
  const int64_t rows = ic_out(c, OUT_IDX, 0)->dims[0];
  const size_t row = rows ? (size_t)(ic_tensor_numel_(x) / rows) * ic_dtype_size(x->dtype) : 0;
  for (int64_t i = 0; i < rows; i++) idx[i] = i;
  const uint64_t key = ic_philox_key(s, c->env->seed, c->op_key);
  ic_rstream rs = ic_rstream_at(key, 0);
  for (int64_t i = rows - 1; i > 0; i--) {
    const int64_t j = (int64_t)(ic_rstream_u53(&rs) * (double)(i + 1));
    const int64_t t = idx[i];
    idx[i] = idx[j];
    idx[j] = t;
  }
  for (int64_t i = 0; i < rows; i++) {
    memcpy((char *)o->data + (size_t)idx[i] * row, (const char *)x->data + (size_t)i * row, row);
  }
  /* std::minstd_rand0: state = seed mod (2^31 - 1) (1 when that is 0); output state * 16807 */
  const uint64_t m = 2147483647u;
  uint64_t st = (uint64_t)s % m;
  if (st == 0) st = 1;
  ((int64_t *)ic_out(c, OUT_SEED, 0)->data)[0] = (int64_t)(st * 16807u % m);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Seed", IC_SLOT_OPTIONAL | IC_SLOT_MAYBE_EMPTY}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"ShuffleIdx", 0}, {"SeedOut", 0}};

const ic_opdef ic_op_shuffle_batch = {
    .name = "shuffle_batch", .n_inputs = 2, .inputs = inputs, .n_outputs = 3,
    .outputs = outputs, .attrs_size = sizeof(shuffle_batch_attrs), .parse = parse,
    .infer = infer, .cpu = run, .flags = IC_OP_RANDOM,
};
