/* hash (fluid.layers.hash; paddle/fluid/operators/hash_op.h): num_hash hashes of each row of
 * X [rows, width] (int32 or int64): Out[i, k, 0] = XXH64(the bytes of row i, seed k) % mod_by,
 * in X's dtype, Out [rows, num_hash, 1] keeping X's LoD. The same xxHash Paddle links. */
#include <xxhash.h>

#include "kernels/kernel.h"

typedef struct hash_attrs {
  int64_t num_hash, mod_by;
} hash_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  hash_attrs *a = attrs;
  a->num_hash = ic_ar_int(r, "num_hash", 1);
  a->mod_by = ic_ar_int(r, "mod_by", 100000);
  if (r->st) return r->st;
  if (a->num_hash < 1) {
    return ic_ar_fail(r, "num_hash", "is %lld, expected >= 1", (long long)a->num_hash);
  }
  if (a->mod_by < 1) return ic_ar_fail(r, "mod_by", "is %lld, expected >= 1", (long long)a->mod_by);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const hash_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->dtype != IC_INT32 && x->dtype != IC_INT64) {
    return ic_kfail_in(c, 0, 0, "expected int32 or int64");
  }
  if (x->ndim != 2) return ic_kfail_in(c, 0, 0, "expected rank 2 [rows, width]");
  ic_tensor *out = ic_out(c, 0, 0);
  ic_tensor_set_meta(out, x->dtype, 3, (int64_t[]){x->dims[0], a->num_hash, 1});
  return ic_kset_lod(c, out, x->lod ? ic_lod_clone(x->lod) : NULL, x->lod != NULL);
}

static ic_status run(ic_kctx *c) {
  const hash_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t rows = x->dims[0];
  const size_t es = ic_dtype_size(x->dtype), row_bytes = (size_t)x->dims[1] * es;
  const char *in = x->data;
  for (int64_t i = 0; i < rows; i++, in += row_bytes) {
    for (int64_t k = 0; k < a->num_hash; k++) {
      const uint64_t h = XXH64(in, row_bytes, (XXH64_hash_t)k) % (uint64_t)a->mod_by;
      if (x->dtype == IC_INT64) ((int64_t *)out->data)[i * a->num_hash + k] = (int64_t)h;
      else ((int32_t *)out->data)[i * a->num_hash + k] = (int32_t)h;
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_hash = {
    .name = "hash",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(hash_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
