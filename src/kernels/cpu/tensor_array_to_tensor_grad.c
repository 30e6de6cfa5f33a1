/* tensor_array_to_tensor_grad: the gradient of tensor_array_to_tensor (Paddle's
 * LoDTensorArray2TensorGradOp; its grad maker emits X (the array), Out@GRAD -> X@GRAD (an
 * array), with axis and use_stack). Element k of X@GRAD is Out@GRAD's part that element k of
 * X filled: the slice of X[k]'s extent along `axis` when concatenating (Paddle runs split),
 * index k along `axis` of Out@GRAD when stacking (unstack). Elements have X[k]'s dims and no
 * LoD. Out@GRAD must have the forward Out's dims. */
#include <string.h>

#include "kernels/kernel.h"
#include "scope/scope.h"

enum { IN_X, IN_DOUT };

typedef struct attrs {
  int64_t axis;
  bool use_stack;
} attrs;

static ic_status parse(ic_attr_reader *r, void *p) {
  attrs *a = p;
  a->axis = ic_ar_int(r, "axis", 0);
  a->use_stack = ic_ar_bool(r, "use_stack", false);
  return r->st;
}

/* Checks X and Out@GRAD; *axis normalized (for Out's rank). */
static ic_status plan(ic_kctx *c, int *axis) {
  const attrs *a = c->attrs;
  const ic_variable *v = c->in[IN_X].vars[0];
  const ic_tensor *g = ic_in(c, IN_DOUT, 0);
  const size_t n = v->kind == IC_VK_ARRAY ? v->n_list : 0;
  if (n == 0) return ic_kfail(c, IC_ERR_SHAPE, "array X '%s' is empty", ic_in_name(c, IN_X, 0));
  const ic_tensor *e0 = &v->list[0];
  const int rank = e0->ndim + (a->use_stack ? 1 : 0);
  if (rank > IC_MAX_RANK) return ic_kfail(c, IC_ERR_SHAPE, "stacked rank %d exceeds %d", rank, IC_MAX_RANK);
  const int ax = ic_kaxis(c, a->axis, rank, "axis");
  if (ax < 0) return c->err->code;
  int64_t od[IC_MAX_RANK];
  if (a->use_stack) {
    for (int j = 0, s = 0; j < rank; j++) od[j] = j == ax ? (int64_t)n : e0->dims[s++];
  } else {
    memcpy(od, e0->dims, (size_t)rank * sizeof *od);
    od[ax] = 0;
  }
  for (size_t k = 0; k < n; k++) {
    const ic_tensor *e = &v->list[k];
    bool ok = e->ndim == e0->ndim;
    for (int j = 0; ok && j < e->ndim; j++) ok = (!a->use_stack && j == ax) || e->dims[j] == e0->dims[j];
    if (!ok) {
      char d0[96], d1[96];
      return ic_kfail(c, IC_ERR_SHAPE, "element %zu of array X '%s' is %s, element 0 is %s: "
                      "expected equal dims (except along axis %d when concatenating)", k,
                      ic_in_name(c, IN_X, 0), ic_tensor_describe(e, d0, sizeof d0),
                      ic_tensor_describe(e0, d1, sizeof d1), ax);
    }
    if (!a->use_stack) od[ax] += e->dims[ax];
  }
  if (!ic_dims_equal(g->ndim, g->dims, rank, od)) {
    char s[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected dims %s (Out: the %zu elements of X '%s' %s "
                       "along axis %d)", ic_dims_str(rank, od, s, sizeof s), n,
                       ic_in_name(c, IN_X, 0), a->use_stack ? "stacked" : "concatenated", ax);
  }
  *axis = ax;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  int ax;
  if (c->out[0].vars[0]->kind == IC_VK_LIST) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "output X@GRAD '%s' is a feed/fetch list, "
                    "expected a tensor array", ic_out_name(c, 0, 0));
  }
  return plan(c, &ax);
}

static ic_status run(ic_kctx *c) {
  const attrs *a = c->attrs;
  int ax;
  ic_status st = plan(c, &ax);
  if (st) return st;
  const ic_variable *v = c->in[IN_X].vars[0];
  const ic_tensor *g = ic_in(c, IN_DOUT, 0);
  const size_t n = v->n_list, es = ic_dtype_size(g->dtype);
  int64_t outer = 1, inner = 1;
  for (int j = 0; j < ax; j++) outer *= g->dims[j];
  for (int j = ax + 1; j < g->ndim; j++) inner *= g->dims[j];
  const int64_t total = g->dims[ax];
  /* the element dims first: X and X@GRAD may be one variable's elements in no case, but
   * read them before the output array is touched */
  int64_t ext[64], *exts = n <= 64 ? ext : malloc(n * sizeof *exts);
  if (!exts) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  for (size_t k = 0; k < n; k++) exts[k] = a->use_stack ? 1 : v->list[k].dims[ax];
  ic_variable *dv = c->out[0].vars[0];
  ic_variable_clear(dv);
  if (!ic_variable_array_at(dv, n - 1)) {
    if (exts != ext) free(exts);
    return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory growing array '%s'", ic_out_name(c, 0, 0));
  }
  int64_t at = 0;
  for (size_t k = 0; k < n && !st; k++) {
    ic_tensor *e = &dv->list[k];
    const ic_tensor *x = &v->list[k];
    ic_tensor_set_meta(e, g->dtype, x->ndim, x->dims);
    if ((st = ic_tensor_alloc(e, c->env ? c->env->alloc : NULL, c->err))) break;
    const size_t chunk = (size_t)(exts[k] * inner) * es;
    for (int64_t r = 0; r < outer && chunk; r++) {
      memcpy((char *)e->data + (size_t)r * chunk,
             (const char *)g->data + (size_t)((r * total + at) * inner) * es, chunk);
    }
    at += exts[k];
  }
  if (exts != ext) free(exts);
  return st;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_ARRAY}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_ARRAY | IC_SLOT_NO_BUFFER}};

const ic_opdef ic_op_tensor_array_to_tensor_grad = {
    .name = "tensor_array_to_tensor_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
