/* write_to_array: Out[I] = X for a LoDTensorArray Out, growing it to I + 1 elements when I
 * is past its end (Paddle's array_write). The element shares X's buffer and has its LoD. */
#include "kernels/kernel.h"
#include "scope/scope.h"

static ic_status index_of(ic_kctx *c, int64_t *i) {
  const ic_tensor *t = ic_in(c, 1, 0);
  if (!t->data || ic_tensor_numel_(t) != 1 || (t->dtype != IC_INT64 && t->dtype != IC_INT32)) {
    return ic_kfail_in(c, 1, 0, "expected one int64 element");
  }
  *i = ic_read_i64(t, 0);
  if (*i < 0 || *i > (int64_t)1 << 30) return ic_kfail_in(c, 1, 0, "holds %lld, expected an index >= 0", (long long)*i);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  int64_t i;
  ic_status st = index_of(c, &i);
  if (st) return st;
  if (c->out[0].vars[0]->kind == IC_VK_LIST) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "output Out '%s' is a feed/fetch list, expected a tensor array",
                    ic_out_name(c, 0, 0));
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  int64_t i;
  ic_status st = index_of(c, &i);
  if (st) return st;
  ic_tensor *e = ic_variable_array_at(c->out[0].vars[0], (size_t)i);
  if (!e) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory growing array '%s'", ic_out_name(c, 0, 0));
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_lod *lod = x->lod ? ic_lod_clone(x->lod) : NULL;
  if (x->lod && !lod) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory for a LoD");
  ic_tensor_share(e, x);
  ic_tensor_take_lod(e, lod);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"I", IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_ARRAY | IC_SLOT_NO_BUFFER}};

const ic_opdef ic_op_write_to_array = {
    .name = "write_to_array",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
