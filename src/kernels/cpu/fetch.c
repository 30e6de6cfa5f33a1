/* fetch: the fetch holder's column `col` = X, sharing X's buffer; LoD copied. */
#include "kernels/kernel.h"
#include "scope/scope.h"

typedef struct fetch_attrs {
  int64_t col;
} fetch_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fetch_attrs *a = attrs;
  a->col = ic_ar_int_req(r, "col");
  if (!r->st && a->col < 0) ic_ar_fail(r, "col", "is %lld, expected >= 0", (long long)a->col);
  return r->st;
}

static ic_status infer(ic_kctx *c) { return IC_OK; }

static ic_status run(ic_kctx *c) {
  const fetch_attrs *a = c->attrs;
  ic_variable *holder = c->out[0].vars[0];
  if (holder->kind != IC_VK_LIST || (size_t)a->col >= holder->n_list) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "fetch column %lld of '%s' does not exist",
                    (long long)a->col, ic_out_name(c, 0, 0));
  }
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *col = &holder->list[a->col];
  ic_tensor_share(col, x);
  if (!x->lod && !col->lod) return IC_OK;
  return ic_kset_lod(c, col, x->lod ? ic_lod_clone(x->lod) : NULL, !!x->lod);
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_HOLDER}};

const ic_opdef ic_op_fetch = {
    .name = "fetch",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(fetch_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_FETCH | IC_OP_LOD,
};
