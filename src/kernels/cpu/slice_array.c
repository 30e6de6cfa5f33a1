/* slice_array: Paddle's slice op when its Input is a LoDTensorArray (what Paddle 2.x's
 * to_static writes for `a_list[k]` and `a_list[i:j]` of a list built in a loop, e.g.
 * PaddleDetection's R-CNN exports); the program loader gives such a slice this type, and
 * Paddle 3's pd_op.slice_array translates to it. Two forms, as Paddle's kernel choice
 * (phi's slice_array_dense and slice_array kernels) follows the output's type:
 *
 *  - Out a tensor (decrease_axis set): element start = starts[0] (+ the array's size when
 *    negative), shared with its LoD; start must lie in the array.
 *  - Out a LoDTensorArray (resolve below): elements [start, end) of the array, copies with
 *    their LoD (an element never written stays empty), from start = starts[0] and end =
 *    ends[0], each + the size when negative, then start >= 0 and 0 <= end <= size; starts
 *    -1 with ends 0 takes the last element (as in Paddle's kernel); end must exceed start.
 *
 * starts and ends may come from their tensor or tensor-list inputs, over the attributes. */
#include <stdlib.h>

#include "kernels/cpu/shapeops.h"
#include "kernels/kernel.h"
#include "scope/scope.h"

typedef struct slice_array_attrs {
  const int64_t *starts, *ends, *decrease;
  size_t n_starts, n_ends, n_decrease;
} slice_array_attrs;

enum { IN_INPUT, IN_STARTS_T, IN_ENDS_T, IN_STARTS_L, IN_ENDS_L };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  slice_array_attrs *a = attrs;
  ic_ar_ints(r, "starts", false, &a->starts, &a->n_starts);
  ic_ar_ints(r, "ends", false, &a->ends, &a->n_ends);
  ic_ar_ints(r, "decrease_axis", false, &a->decrease, &a->n_decrease);
  return r->st;
}

/* The first of the starts (ends: end) from the tensor, the tensor list or the attribute. */
static ic_status first_bound(ic_kctx *c, bool end, int64_t *out) {
  const slice_array_attrs *a = c->attrs;
  const size_t ts = end ? IN_ENDS_T : IN_STARTS_T, ls = end ? IN_ENDS_L : IN_STARTS_L;
  const char *what = end ? "ends" : "starts";
  int64_t v[IC_MAX_RANK];
  size_t k = 0;
  if (c->in[ts].n || c->in[ls].n) {
    size_t s = c->in[ts].n ? ts : ls;
    ic_status st = ic_shapeops_read_ints(c, s, s == ls && c->in[s].n > 1, what, v, IC_MAX_RANK,
                                         &k);
    if (st) return st;
  } else {
    const int64_t *at = end ? a->ends : a->starts;
    const size_t n_at = end ? a->n_ends : a->n_starts;
    for (; k < n_at && k < IC_MAX_RANK; k++) v[k] = at[k];
  }
  if (k == 0) {
    return ic_kfail_in(c, IN_INPUT, 0, "slice of a tensor array has no %s", end ? "end" : "start");
  }
  *out = v[0];
  return IC_OK;
}

static size_t array_size(const ic_variable *arr) {
  return arr && arr->kind == IC_VK_ARRAY ? arr->n_list : 0;
}

static ic_status element(ic_kctx *c, const ic_tensor **e) {
  const slice_array_attrs *a = c->attrs;
  const ic_variable *arr = c->in[IN_INPUT].vars[0];
  const size_t n = array_size(arr);
  int64_t v0, start;
  ic_status st = first_bound(c, false, &v0);
  if (st) return st;
  if (a->n_decrease == 0) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "slice of tensor array '%s' without decrease_axis "
                    "writes an array, but output Out '%s' is not declared a LoDTensorArray",
                    ic_in_name(c, IN_INPUT, 0), ic_out_name(c, 0, 0));
  }
  start = v0 < 0 ? v0 + (int64_t)n : v0;
  if (start < 0 || (uint64_t)start >= n) {
    return ic_kfail(c, IC_ERR_SHAPE, "slice start %lld is outside tensor array '%s' of %zu "
                    "elements", (long long)v0, ic_in_name(c, IN_INPUT, 0), n);
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

/* ---- the array-to-array form ---- */

static ic_status range(ic_kctx *c, size_t *lo, size_t *hi) {
  const size_t n = array_size(c->in[IN_INPUT].vars[0]);
  int64_t s0, e0;
  ic_status st = first_bound(c, false, &s0);
  if (!st) st = first_bound(c, true, &e0);
  if (st) return st;
  if (c->out[0].vars[0]->kind == IC_VK_LIST) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                    "output Out '%s' is a feed/fetch list, expected a tensor array",
                    ic_out_name(c, 0, 0));
  }
  int64_t start = s0 < 0 ? s0 + (int64_t)n : s0, end = e0 < 0 ? e0 + (int64_t)n : e0;
  if (start < 0) start = 0;
  if (end < 0) end = 0;
  if (end > (int64_t)n) end = (int64_t)n;
  if (s0 == -1 && end == 0) end = start + 1;
  if (end <= start) {
    return ic_kfail(c, IC_ERR_SHAPE, "slice [%lld:%lld] of tensor array '%s' (%zu elements) is "
                    "empty: it selects [%lld, %lld), and the end must exceed the start",
                    (long long)s0, (long long)e0, ic_in_name(c, IN_INPUT, 0), n,
                    (long long)start, (long long)end);
  }
  *lo = (size_t)start;
  *hi = (size_t)end;
  return IC_OK;
}

static ic_status infer_array(ic_kctx *c) {
  size_t lo, hi;
  return range(c, &lo, &hi);
}

static ic_status run_array(ic_kctx *c) {
  size_t lo, hi;
  ic_status st = range(c, &lo, &hi);
  if (st) return st;
  const ic_variable *arr = c->in[IN_INPUT].vars[0];
  const size_t m = hi - lo;
  ic_tensor *res = calloc(m, sizeof *res);
  if (!res) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  for (size_t j = 0; j < m; j++) ic_tensor_init(&res[j]);
  for (size_t j = 0; j < m && !st; j++) {
    const ic_tensor *e = &arr->list[lo + j];
    if (e->data) st = ic_tensor_copy(&res[j], e, c->env->alloc, c->err);
  }
  ic_variable *ov = c->out[0].vars[0];
  if (!st) {
    /* Every element has been read: Out (perhaps Input itself) can be replaced. */
    ic_variable_clear(ov);
    if (!ic_variable_array_at(ov, m - 1)) {
      st = ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory growing array '%s'",
                    ic_out_name(c, 0, 0));
    }
  }
  for (size_t j = 0; j < m; j++) {
    if (st) ic_tensor_reset(&res[j]);
    else ov->list[j] = res[j]; /* the buffer reference and the LoD move */
  }
  free(res);
  return st;
}

static const ic_slotdef array_inputs[] = {
    {"Input", IC_SLOT_ARRAY},
    {"StartsTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"EndsTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"StartsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"EndsTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
};
static const ic_slotdef array_outputs[] = {{"Out", IC_SLOT_ARRAY | IC_SLOT_NO_BUFFER}};

/* Not in ops.def: reached through ic_op_slice_array's resolve. */
static const ic_opdef slice_array_to_array = {
    .name = "slice_array",
    .n_inputs = 5, .inputs = array_inputs,
    .n_outputs = 1, .outputs = array_outputs,
    .attrs_size = sizeof(slice_array_attrs), .parse = parse,
    .infer = infer_array, .cpu = run_array,
    .flags = IC_OP_LOD,
};

static ic_status resolve(const ic_program *p, const ic_op *op, const ic_opdef **def,
                         ic_err *err) {
  (void)err;
  const ic_slot *o = ic_op_output(op, "Out");
  const ic_vardesc *d = o && o->n == 1 ? ic_program_find_var(p, op->block, o->args[0]) : NULL;
  if (d && d->type == IC_VAR_LOD_TENSOR_ARRAY) *def = &slice_array_to_array;
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
    .resolve = resolve,
};
