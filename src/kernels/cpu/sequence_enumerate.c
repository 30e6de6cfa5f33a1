/* sequence_enumerate: X int32/int64 [N, 1] with LoD (its first level covering the N rows);
 * Out [N, win_size] row i = the win_size ids from X[i] on, those past the end of i's
 * sequence replaced by pad_value (default 0). Out keeps X's LoD
 * (paddle/fluid/operators/sequence_ops/sequence_enumerate_op.h). */
#include "kernels/kernel.h"

typedef struct enum_attrs {
  int64_t win, pad;
} enum_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  enum_attrs *a = attrs;
  a->win = ic_ar_int_req(r, "win_size");
  a->pad = ic_ar_int(r, "pad_value", 0);
  if (!r->st && (a->win < 1 || a->win > INT32_MAX)) {
    ic_ar_fail(r, "win_size", "is %lld, expected a positive int", (long long)a->win);
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const enum_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_INT);
  if (st) return st;
  if (x->ndim != 2 || x->dims[1] != 1) return ic_kfail_in(c, 0, 0, "expected [N, 1]");
  if (!x->lod || x->lod->n_levels == 0) return ic_kfail_in(c, 0, 0, "expected a LoD");
  const uint64_t *lo = x->lod->offsets[0];
  const size_t n = x->lod->lens[0];
  if (lo[n - 1] != (uint64_t)x->dims[0]) {
    return ic_kfail_in(c, 0, 0, "has a first LoD level of %llu rows, expected %lld",
                       (unsigned long long)lo[n - 1], (long long)x->dims[0]);
  }
  ic_tensor *out = ic_out(c, 0, 0);
  ic_tensor_set_meta(out, x->dtype, 2, (int64_t[]){x->dims[0], a->win});
  return ic_kset_lod(c, out, ic_lod_clone(x->lod), true);
}

static ic_status run(ic_kctx *c) {
  const enum_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const uint64_t *lo = x->lod->offsets[0];
  const size_t ns = x->lod->lens[0] - 1;
  const int64_t W = a->win;
  for (size_t s = 0; s < ns; s++) {
    for (uint64_t i = lo[s]; i < lo[s + 1]; i++) {
      for (int64_t k = 0; k < W; k++) {
        const int64_t v = i + (uint64_t)k < lo[s + 1] ? ic_read_i64(x, (int64_t)i + k) : a->pad;
        if (x->dtype == IC_INT32) ((int32_t *)out->data)[(int64_t)i * W + k] = (int32_t)v;
        else ((int64_t *)out->data)[(int64_t)i * W + k] = v;
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_sequence_enumerate = {
    .name = "sequence_enumerate", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(enum_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_LOD,
};
