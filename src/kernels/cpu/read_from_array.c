/* read_from_array: Out = X[I] for a LoDTensorArray X (Paddle's array_read); Out shares the
 * element's buffer and has its LoD. As write_to_array's gradient (Paddle's grad maker: X the
 * array's gradient, X_W the written tensor), an I past the array's end (no gradient reached
 * that element) gives zeros of X_W's dtype and dims with X_W's LoD, as Paddle's
 * ReadFromArrayOp does; without X_W such an I is an error. */
#include <string.h>

#include "kernels/kernel.h"
#include "scope/scope.h"

enum { IN_X, IN_I, IN_XW };

/* *e: the element, or NULL when I is past the end and X_W gives the zeros' meta. */
static ic_status element(ic_kctx *c, const ic_tensor **e) {
  const ic_tensor *t = ic_in(c, IN_I, 0);
  const ic_variable *a = c->in[IN_X].vars[0];
  if (!t->data || ic_tensor_numel_(t) != 1 || (t->dtype != IC_INT64 && t->dtype != IC_INT32)) {
    return ic_kfail_in(c, 1, 0, "expected one int64 element");
  }
  int64_t i = ic_read_i64(t, 0);
  size_t n = a->kind == IC_VK_ARRAY ? a->n_list : 0;
  if (i >= 0 && (uint64_t)i >= n && ic_in(c, IN_XW, 0)) {
    *e = NULL;
    return IC_OK;
  }
  if (i < 0 || (uint64_t)i >= n) {
    return ic_kfail(c, IC_ERR_SHAPE, "index I '%s' is %lld, but array X '%s' has %zu elements",
                    ic_in_name(c, 1, 0), (long long)i, ic_in_name(c, 0, 0), n);
  }
  *e = &a->list[i];
  if (!(*e)->data) {
    return ic_kfail(c, IC_ERR_NOT_FOUND, "element %lld of array X '%s' was never written",
                    (long long)i, ic_in_name(c, 0, 0));
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *e;
  ic_status st = element(c, &e);
  if (st) return st;
  if (!e) e = ic_in(c, IN_XW, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), e->dtype, e->ndim, e->dims);
  return ic_kset_lod(c, ic_out(c, 0, 0), e->lod ? ic_lod_clone(e->lod) : NULL, e->lod != NULL);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *e;
  ic_status st = element(c, &e);
  if (st) return st;
  ic_tensor *out = ic_out(c, 0, 0);
  if (!e) { /* zeros shaped like X_W (infer gave Out its meta and LoD) */
    if (ic_tensor_alloc(out, c->env ? c->env->alloc : NULL, c->err)) return c->err->code;
    memset(out->data, 0, (size_t)ic_tensor_numel_(out) * ic_dtype_size(out->dtype));
    return IC_OK;
  }
  ic_tensor_share(out, e);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_ARRAY}, {"I", IC_SLOT_VALUE},
                                    {"X_W", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_SHARE}};

const ic_opdef ic_op_read_from_array = {
    .name = "read_from_array",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
