/* slice_array: Paddle's slice op when its Input is a LoDTensorArray (what Paddle 2.x's
 * to_static writes for `a_list[k]` of a list built in a loop, e.g. PaddleDetection's R-CNN
 * exports); the program loader gives such a slice this type. As the fluid slice kernel's
 * tensor-array branch: start = starts[0] (+ the array's size when negative),
 * and with decrease_axis set Out is that element (shared, with its LoD); start must lie in the
 * array. The array-to-array form (no decrease_axis) is refused: no program needed it yet.
 * starts may come from StartsTensor or StartsTensorList, over the attribute. */
#include "kernels/cpu/shapeops.h"
#include "kernels/kernel.h"
#include "scope/scope.h"

typedef struct slice_array_attrs {
  const int64_t *starts, *decrease;
  size_t n_starts, n_decrease;
} slice_array_attrs;

enum { IN_INPUT, IN_STARTS_T, IN_ENDS_T, IN_STARTS_L, IN_ENDS_L };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  slice_array_attrs *a = attrs;
  ic_ar_ints(r, "starts", false, &a->starts, &a->n_starts);
  ic_ar_ints(r, "decrease_axis", false, &a->decrease, &a->n_decrease);
  return r->st;
}

static ic_status element(ic_kctx *c, const ic_tensor **e) {
  const slice_array_attrs *a = c->attrs;
  const ic_variable *arr = c->in[IN_INPUT].vars[0];
  const size_t n = arr && arr->kind == IC_VK_ARRAY ? arr->n_list : 0;
  int64_t v[IC_MAX_RANK], start;
  size_t k = 0;
  if (c->in[IN_STARTS_T].n || c->in[IN_STARTS_L].n) {
    size_t s = c->in[IN_STARTS_T].n ? IN_STARTS_T : IN_STARTS_L;
    ic_status st = ic_shapeops_read_ints(c, s, s == IN_STARTS_L && c->in[s].n > 1, "starts", v,
                                         IC_MAX_RANK, &k);
    if (st) return st;
  } else {
    for (; k < a->n_starts && k < IC_MAX_RANK; k++) v[k] = a->starts[k];
  }
  if (k == 0) return ic_kfail_in(c, IN_INPUT, 0, "slice of a tensor array has no start");
  if (a->n_decrease == 0) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "slice of tensor array '%s' into an array (no "
                    "decrease_axis) is not supported", ic_in_name(c, IN_INPUT, 0));
  }
  start = v[0] < 0 ? v[0] + (int64_t)n : v[0];
  if (start < 0 || (uint64_t)start >= n) {
    return ic_kfail(c, IC_ERR_SHAPE, "slice start %lld is outside tensor array '%s' of %zu "
                    "elements", (long long)v[0], ic_in_name(c, IN_INPUT, 0), n);
  }
  *e = &arr->list[start];
  if (!(*e)->data) {
    return ic_kfail(c, IC_ERR_NOT_FOUND, "element %lld of tensor array '%s' was never written",
                    (long long)start, ic_in_name(c, IN_INPUT, 0));
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *e;
  ic_status st = element(c, &e);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), e->dtype, e->ndim, e->dims);
  return ic_kset_lod(c, ic_out(c, 0, 0), e->lod ? ic_lod_clone(e->lod) : NULL, e->lod != NULL);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *e;
  ic_status st = element(c, &e);
  if (st) return st;
  ic_tensor_share(ic_out(c, 0, 0), e);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Input", IC_SLOT_ARRAY},
    {"StartsTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"EndsTensor", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
    {"StartsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"EndsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_NO_BUFFER},
};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_SHARE}};

const ic_opdef ic_op_slice_array = {
    .name = "slice_array",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(slice_array_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
