/* roll_grad: for roll (element i along axis a[k] moved to (i + s[k]) mod n; no axes: the
 * flattened tensor by one shift), X@GRAD is Out@GRAD rolled back by the negated shifts
 * (phi RollGradKernel). Inputs X (meta only), ShiftsTensor (optional, int32/int64: the shifts
 * instead of attribute `shifts`), Out@GRAD (X's dims); attributes shifts, axis. Float32 and
 * float64. */
#include "kernels/cpu/kgrad.h"

enum { IN_X, IN_SHIFTS, IN_DOUT };
static const ic_slotdef k_inputs[3] = {
    {"X", IC_SLOT_NO_BUFFER}, {"ShiftsTensor", IC_SLOT_OPTIONAL}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

typedef struct roll_grad_attrs {
  const int64_t *shifts, *axis;
  size_t n_shifts, n_axis;
} roll_grad_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  roll_grad_attrs *a = attrs;
  ic_ar_ints(r, "shifts", false, &a->shifts, &a->n_shifts);
  ic_ar_ints(r, "axis", false, &a->axis, &a->n_axis);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const roll_grad_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *sh = ic_in(c, IN_SHIFTS, 0), *g = ic_in(c, IN_DOUT, 0);
  size_t n = a->n_shifts;
  if (sh) {
    if ((st = ic_kcheck_dtype(c, IN_SHIFTS, 0, IC_DT_INT))) return st;
    if (sh->ndim > 1) return ic_kfail_in(c, IN_SHIFTS, 0, "expected rank 1 (the shifts)");
    n = (size_t)ic_tensor_numel_(sh);
  }
  if (n != (a->n_axis ? a->n_axis : 1)) {
    return ic_kfail_in(c, IN_X, 0, "attribute 'axis' names %zu axes, but there are %zu shifts, "
                       "expected %zu", a->n_axis, n, a->n_axis ? a->n_axis : 1);
  }
  for (size_t k = 0; k < a->n_axis; k++)
    if (ic_kaxis(c, a->axis[k], x->ndim, "axis") < 0) return c->err->code;
  if ((st = kg_expect(c, IN_DOUT, g->dtype, x->ndim, x->dims, "X's"))) return st;
  kg_out(c, 0, g->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const roll_grad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *sh = ic_in(c, IN_SHIFTS, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int rank = x->ndim;
  const int64_t n = ic_tensor_numel_(x);
  if (rank == 0 || n == 0) {
    kg_copy(dx, g);
    return IC_OK;
  }
  /* the net shift per axis (flattened: one "axis" of n elements) */
  int64_t shift[IC_MAX_RANK + 1] = {0};
  const size_t ns = a->n_axis ? a->n_axis : 1;
  for (size_t k = 0; k < ns; k++) {
    const int64_t s = sh ? ic_read_i64(sh, (int64_t)k) : a->shifts[k];
    if (!a->n_axis) {
      shift[0] = n ? s % n : 0;
      continue;
    }
    const int ax = (int)(a->axis[k] < 0 ? a->axis[k] + rank : a->axis[k]);
    const int64_t d = x->dims[ax];
    if (d) shift[ax] = (shift[ax] + s % d) % d;
  }
  if (!a->n_axis) {
    for (int64_t i = 0; i < n; i++) kg_put(dx, i, kg_get(g, ((i + shift[0]) % n + n) % n));
    return IC_OK;
  }
  /* X@GRAD[i] = Out@GRAD[i + shift], coordinate-wise mod each dim */
  int64_t st[IC_MAX_RANK], pos[IC_MAX_RANK] = {0};
  st[rank - 1] = 1;
  for (int i = rank - 2; i >= 0; i--) st[i] = st[i + 1] * x->dims[i + 1];
  for (int64_t i = 0; i < n; i++) {
    int64_t at = 0;
    for (int j = 0; j < rank; j++) {
      const int64_t d = x->dims[j];
      at += (((pos[j] + shift[j]) % d + d) % d) * st[j];
    }
    kg_put(dx, i, kg_get(g, at));
    for (int j = rank - 1; j >= 0 && ++pos[j] == x->dims[j]; j--) pos[j] = 0;
  }
  return IC_OK;
}

const ic_opdef ic_op_roll_grad = {
    .name = "roll_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(roll_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
