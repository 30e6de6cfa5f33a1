/* tile: Out = X repeated along each dim, the counts from (by Paddle's precedence) the input
 * RepeatTimes (all its elements), the list repeat_times_tensor (one element each), or the
 * attribute `repeat_times`. X's dims and the counts are both padded with leading 1s to the
 * longer of the two; out dim = X dim * count, counts >= 0 (paddle/phi/kernels/impl/
 * tile_kernel_impl.h, TileInferMeta). */
#include "kernels/cpu/repeat.h"
#include "kernels/cpu/shapeops.h"

typedef struct tile_attrs {
  const int64_t *reps;
  size_t n_reps;
} tile_attrs;

enum { IN_X, IN_REPS, IN_LIST };

static const ic_slotdef k_inputs[3] = {
    {"X", 0},
    {"RepeatTimes", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"repeat_times_tensor", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  tile_attrs *a = attrs;
  ic_ar_ints(r, "repeat_times", false, &a->reps, &a->n_reps);
  return r->st;
}

/* Output dims and X's dims padded to the output rank. */
static ic_status plan(ic_kctx *c, int *rank, int64_t *od, int64_t *xd) {
  const tile_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  int64_t t[IC_MAX_RANK + 1];
  size_t n = 0;
  ic_status st = IC_OK;
  const char *from = "attribute 'repeat_times'";
  if (ic_in(c, IN_REPS, 0)) {
    from = "input RepeatTimes";
    st = ic_shapeops_read_ints(c, IN_REPS, false, "repeat times", t, IC_MAX_RANK + 1, &n);
  } else if (c->in[IN_LIST].n > 0) {
    from = "input repeat_times_tensor";
    st = ic_shapeops_read_ints(c, IN_LIST, true, "repeat times", t, IC_MAX_RANK + 1, &n);
  } else {
    n = a->n_reps > IC_MAX_RANK ? IC_MAX_RANK + 1 : a->n_reps;
    for (size_t i = 0; i < n && i < a->n_reps; i++) t[i] = a->reps[i];
  }
  if (st) return st;
  if (n > IC_MAX_RANK) {
    return ic_kfail_in(c, IN_X, 0, "%zu repeat times (%s), at most %d", n, from, IC_MAX_RANK);
  }
  int R = (int)n > x->ndim ? (int)n : x->ndim;
  for (int i = 0; i < R; i++) {
    int ix = i - (R - x->ndim), it = i - (R - (int)n);
    int64_t r = it >= 0 ? t[it] : 1;
    if (r < 0) {
      return ic_kfail_in(c, IN_X, 0, "repeat times %lld at position %d (%s), expected >= 0",
                         (long long)r, it, from);
    }
    xd[i] = ix >= 0 ? x->dims[ix] : 1;
    od[i] = xd[i] * r;
  }
  *rank = R;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  int R = 0;
  int64_t od[IC_MAX_RANK], xd[IC_MAX_RANK];
  ic_status st = plan(c, &R, od, xd);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, IN_X, 0)->dtype, R, od);
  return IC_OK;
}

static ic_status tile_cpu(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t xd[IC_MAX_RANK];
  int off = o->ndim - x->ndim;
  for (int i = 0; i < o->ndim; i++) xd[i] = i >= off ? x->dims[i - off] : 1;
  ic_repeat_copy(o->data, o->dims, x->data, xd, o->ndim, ic_dtype_size(x->dtype));
  return IC_OK;
}

const ic_opdef ic_op_tile = {
    .name = "tile", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(tile_attrs), .parse = parse, .infer = infer, .cpu = tile_cpu,
};
