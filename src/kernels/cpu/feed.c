/* feed: Out = the feed holder's column `col`, sharing the caller's buffer; LoD copied. */
#include "kernels/kernel.h"
#include "scope/scope.h"

typedef struct feed_attrs {
  int64_t col;
} feed_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  feed_attrs *a = attrs;
  a->col = ic_ar_int_req(r, "col");
  if (!r->st && a->col < 0) ic_ar_fail(r, "col", "is %lld, expected >= 0", (long long)a->col);
  return r->st;
}

static const ic_tensor *column(ic_kctx *c) {
  const feed_attrs *a = c->attrs;
  const ic_variable *holder = c->in[0].vars[0];
  if (holder->kind != IC_VK_LIST || (size_t)a->col >= holder->n_list ||
      !holder->list[a->col].data) {
    ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
             "feed target '%s' (column %lld of '%s') was not fed", ic_out_name(c, 0, 0),
             (long long)a->col, ic_in_name(c, 0, 0));
    return NULL;
  }
  return &holder->list[a->col];
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *t = column(c);
  if (!t) return c->err->code;
  ic_tensor *out = ic_out(c, 0, 0);
  ic_tensor_set_meta(out, t->dtype, t->ndim, t->dims);
  if (!t->lod && !out->lod) return IC_OK;
  return ic_kset_lod(c, out, t->lod ? ic_lod_clone(t->lod) : NULL, !!t->lod);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *t = column(c);
  if (!t) return c->err->code;
  ic_tensor_share(ic_out(c, 0, 0), t);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_HOLDER}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_SHARE}};

const ic_opdef ic_op_feed = {
    .name = "feed",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(feed_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_FEED | IC_OP_LOD,
};
