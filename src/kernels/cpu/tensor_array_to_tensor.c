/* tensor_array_to_tensor: the elements of LoDTensorArray X concatenated (use_stack false) or
 * stacked (use_stack true) along `axis` into Out; OutIndex (int32 [n]) holds each element's
 * extent along the axis (1 each when stacking). */
#include <string.h>

#include "kernels/kernel.h"
#include "scope/scope.h"

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

/* Checks the elements; *axis normalized, out dims in od. */
static ic_status plan(ic_kctx *c, int *axis, int *ond, int64_t *od) {
  const attrs *a = c->attrs;
  const ic_variable *v = c->in[0].vars[0];
  size_t n = v->kind == IC_VK_ARRAY ? v->n_list : 0;
  if (n == 0) return ic_kfail(c, IC_ERR_SHAPE, "array X '%s' is empty", ic_in_name(c, 0, 0));
  const ic_tensor *e0 = &v->list[0];
  int rank = e0->ndim + (a->use_stack ? 1 : 0);
  int ax = ic_kaxis(c, a->axis, rank, "axis");
  if (ax < 0) return c->err->code;
  for (size_t k = 0; k < n; k++) {
    const ic_tensor *e = &v->list[k];
    char d0[96], d1[96];
    if (!e->data) return ic_kfail(c, IC_ERR_NOT_FOUND, "element %zu of array X '%s' was never written", k, ic_in_name(c, 0, 0));
    bool ok = e->dtype == e0->dtype && e->ndim == e0->ndim;
    for (int j = 0; ok && j < e->ndim; j++) ok = (!a->use_stack && j == ax) || e->dims[j] == e0->dims[j];
    if (!ok) {
      return ic_kfail(c, IC_ERR_SHAPE, "element %zu of array X '%s' is %s, element 0 is %s: expected equal dtypes and dims (except along axis %d when concatenating)",
                      k, ic_in_name(c, 0, 0), ic_tensor_describe(e, d0, sizeof d0), ic_tensor_describe(e0, d1, sizeof d1), ax);
    }
  }
  *axis = ax;
  *ond = rank;
  if (a->use_stack) {
    for (int j = 0, s = 0; j < rank; j++) od[j] = j == ax ? (int64_t)n : e0->dims[s++];
  } else {
    for (int j = 0; j < rank; j++) od[j] = e0->dims[j];
    od[ax] = 0;
    for (size_t k = 0; k < n; k++) od[ax] += v->list[k].dims[ax];
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  int ax, nd;
  int64_t od[IC_MAX_RANK + 1];
  ic_status st = plan(c, &ax, &nd, od);
  if (st) return st;
  if (nd > IC_MAX_RANK) return ic_kfail(c, IC_ERR_SHAPE, "stacked rank %d exceeds %d", nd, IC_MAX_RANK);
  const ic_variable *v = c->in[0].vars[0];
  ic_tensor_set_meta(ic_out(c, 0, 0), v->list[0].dtype, nd, od);
  if (ic_out(c, 1, 0)) ic_tensor_set_meta(ic_out(c, 1, 0), IC_INT32, 1, (const int64_t[]){(int64_t)v->n_list});
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const attrs *a = c->attrs;
  int ax, nd;
  int64_t od[IC_MAX_RANK + 1];
  ic_status st = plan(c, &ax, &nd, od);
  if (st) return st;
  const ic_variable *v = c->in[0].vars[0];
  ic_tensor *o = ic_out(c, 0, 0);
  size_t es = ic_dtype_size(o->dtype);
  int64_t outer = 1, inner = 1;
  for (int j = 0; j < ax; j++) outer *= od[j];
  for (int j = ax + 1; j < nd; j++) inner *= od[j];
  int64_t total = od[ax];
  char *dst = o->data;
  int64_t at = 0;
  for (size_t k = 0; k < v->n_list; k++) {
    const ic_tensor *e = &v->list[k];
    int64_t ext = a->use_stack ? 1 : e->dims[ax];
    size_t chunk = (size_t)(ext * inner) * es;
    for (int64_t r = 0; r < outer; r++) {
      if (chunk) memcpy(dst + (size_t)((r * total + at) * inner) * es, (const char *)e->data + (size_t)r * chunk, chunk);
    }
    at += ext;
    if (ic_out(c, 1, 0)) ((int32_t *)ic_out(c, 1, 0)->data)[k] = (int32_t)ext;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_ARRAY}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"OutIndex", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_tensor_array_to_tensor = {
    .name = "tensor_array_to_tensor",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
