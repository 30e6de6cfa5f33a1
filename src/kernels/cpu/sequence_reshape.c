/* sequence_reshape: X [T, D] with one LoD level becomes Out [T * D / new_dim, new_dim], each
 * sequence keeping its elements: its offsets scale by D / new_dim, so every sequence's
 * length * D must divide by new_dim (Paddle's sequence_reshape_op.h; gone from Paddle 3,
 * kept for programs exported before). Out shares X's buffer. */
#include <string.h>

#include "kernels/kernel.h"

typedef struct reshape_attrs {
  int64_t new_dim;
} reshape_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  reshape_attrs *a = attrs;
  a->new_dim = ic_ar_int_req(r, "new_dim");
  if (!r->st && a->new_dim <= 0) ic_ar_fail(r, "new_dim", "is %lld, expected > 0", (long long)a->new_dim);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const reshape_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  if (x->ndim != 2) return ic_kfail_in(c, 0, 0, "expected rank 2 [rows, width]");
  size_t ns;
  const uint64_t *off = ic_kseq(c, 0, 0, 0, &ns);
  if (!off) return c->err->code;
  if (x->lod->n_levels != 1) return ic_kfail_in(c, 0, 0, "has %zu LoD levels, expected 1", x->lod->n_levels);
  const uint64_t D = (uint64_t)x->dims[1], nd = (uint64_t)a->new_dim;
  size_t len = ns + 1;
  ic_lod *lod = ic_lod_new(1, &len);
  if (!lod) return ic_kset_lod(c, out, NULL, true);
  for (size_t k = 0; k <= ns; k++) {
    if ((off[k] * D) % nd) {
      ic_lod_free(lod);
      return ic_kfail_in(c, 0, 0, "has a sequence ending at row %llu: %llu elements do not divide "
                         "by new_dim %llu", (unsigned long long)off[k],
                         (unsigned long long)(off[k] * D), (unsigned long long)nd);
    }
    lod->offsets[0][k] = off[k] * D / nd;
  }
  ic_tensor_set_meta(out, x->dtype, 2, (int64_t[]){(int64_t)(off[ns] * D / nd), a->new_dim});
  return ic_kset_lod(c, out, lod, true);
}

static ic_status run(ic_kctx *c) {
  ic_tensor *out = ic_out(c, 0, 0);
  int64_t d[2] = {out->dims[0], out->dims[1]};
  ic_tensor_share(out, ic_in(c, 0, 0));
  ic_tensor_set_meta(out, out->dtype, 2, d);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_SHARE}};

const ic_opdef ic_op_sequence_reshape = {
    .name = "sequence_reshape",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(reshape_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
