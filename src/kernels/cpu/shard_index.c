/* shard_index: X int32/int64 [..., 1] (rank >= 2) of ids in [0, index_num); with
 * shard_size = ceil(index_num / nshards), Out = id % shard_size where id / shard_size ==
 * shard_id, else ignore_value (default -1). Out keeps X's dims, dtype and LoD
 * (paddle/phi/kernels/cpu/shard_index_kernel.cc, ShardIndexInferMeta). */
#include "kernels/kernel.h"

typedef struct shard_attrs {
  int64_t index_num, nshards, shard_id, ignore;
} shard_attrs;

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  shard_attrs *a = attrs;
  a->index_num = ic_ar_int_req(r, "index_num");
  a->nshards = ic_ar_int_req(r, "nshards");
  a->shard_id = ic_ar_int(r, "shard_id", 0);
  a->ignore = ic_ar_int(r, "ignore_value", -1);
  if (r->st) return r->st;
  if (a->index_num <= 0 || a->index_num > INT32_MAX) {
    return ic_ar_fail(r, "index_num", "is %lld, expected in [1, 2^31)", (long long)a->index_num);
  }
  if (a->nshards <= 0 || a->nshards > INT32_MAX) {
    return ic_ar_fail(r, "nshards", "is %lld, expected in [1, 2^31)", (long long)a->nshards);
  }
  if (a->shard_id < 0 || a->shard_id >= a->nshards) {
    return ic_ar_fail(r, "shard_id", "is %lld, expected in [0, nshards = %lld)",
                      (long long)a->shard_id, (long long)a->nshards);
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_INT);
  if (st) return st;
  if (x->ndim < 2 || x->dims[x->ndim - 1] != 1) {
    return ic_kfail_in(c, 0, 0, "expected rank >= 2 with a last dim of 1");
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const shard_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x), size = (a->index_num + a->nshards - 1) / a->nshards;
  /* ignore_value is an int attribute in Paddle: stored into the id dtype as given. */
  for (int64_t i = 0; i < n; i++) {
    const int64_t id = ic_read_i64(x, i);
    if (id < 0 || id >= a->index_num) {
      return ic_kfail_in(c, 0, 0, "holds %lld at %lld, expected ids in [0, index_num = %lld)",
                         (long long)id, (long long)i, (long long)a->index_num);
    }
    const int64_t v = id / size == a->shard_id ? id % size : a->ignore;
    if (o->dtype == IC_INT32) ((int32_t *)o->data)[i] = (int32_t)v;
    else ((int64_t *)o->data)[i] = v;
  }
  return IC_OK;
}

const ic_opdef ic_op_shard_index = {
    .name = "shard_index", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(shard_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
