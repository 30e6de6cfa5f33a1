/* repeat_interleave_grad: for Out = X's slices along `dim` each repeated in place (Repeats
 * times, or RepeatsTensor[i] times slice i), X@GRAD's slice i is the sum of Out@GRAD's slices
 * that repeat it (phi RepeatInterleaveGradKernel / RepeatInterleaveWithTensorIndexGradKernel),
 * summed in order in double and rounded once. Inputs X (meta only), RepeatsTensor (optional
 * 1-D int32/int64, one nonnegative count per slice; wins over the attribute), Out@GRAD;
 * attributes Repeats, dim (negative from the end), output_size (unused). Float32, float64. */
#include "kernels/cpu/kgrad.h"

enum { IN_X, IN_REP, IN_DOUT };
static const ic_slotdef k_inputs[3] = {
    {"X", IC_SLOT_NO_BUFFER}, {"RepeatsTensor", IC_SLOT_OPTIONAL}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

typedef struct ri_grad_attrs {
  int64_t repeats, dim;
} ri_grad_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ri_grad_attrs *a = attrs;
  a->repeats = ic_ar_int(r, "Repeats", 0);
  a->dim = ic_ar_int(r, "dim", 0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ri_grad_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *rep = ic_in(c, IN_REP, 0), *g = ic_in(c, IN_DOUT, 0);
  const int rank = x->ndim > 0 ? x->ndim : 1;
  const int ax = ic_kaxis(c, a->dim, rank, "dim");
  if (ax < 0) return c->err->code;
  const int64_t n = x->ndim ? x->dims[ax] : 1;
  if (rep) {
    if ((st = ic_kcheck_dtype(c, IN_REP, 0, IC_DT_INT))) return st;
    if (rep->ndim != 1 || rep->dims[0] != n) {
      return ic_kfail_in(c, IN_REP, 0, "expected [%lld] (one count per slice of X's dim %d)",
                         (long long)n, ax);
    }
  } else if (a->repeats < 0) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "repeat_interleave_grad: attribute 'Repeats' is "
                    "%lld, expected >= 0", (long long)a->repeats);
  }
  if (g->ndim != rank) return ic_kfail_in(c, IN_DOUT, 0, "expected X's rank %d", rank);
  for (int i = 0; i < g->ndim; i++) {
    if (i != ax && g->dims[i] != x->dims[i]) {
      char s[128];
      return ic_kfail_in(c, IN_DOUT, 0, "expected X's dims %s off dim %d",
                         ic_dims_str(x->ndim, x->dims, s, sizeof s), ax);
    }
  }
  kg_out(c, 0, g->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ri_grad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *rep = ic_in(c, IN_REP, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int ax = (int)(a->dim < 0 ? a->dim + g->ndim : a->dim);
  const int64_t n = x->ndim ? x->dims[ax] : 1, m = g->dims[ax];
  int64_t total = 0;
  for (int64_t i = 0; i < n; i++) {
    const int64_t r = rep ? ic_read_i64(rep, i) : a->repeats;
    if (r < 0) {
      return ic_kfail_in(c, IN_REP, 0, "entry %lld is %lld, expected >= 0", (long long)i,
                         (long long)r);
    }
    total += r;
  }
  if (total != m) {
    return ic_kfail_in(c, IN_DOUT, 0, "has %lld slices along dim %d, expected %lld (the repeats' "
                       "total)", (long long)m, ax, (long long)total);
  }
  const int64_t outer = ic_numel(ax, g->dims), inner = ic_numel(g->ndim - ax - 1, g->dims + ax + 1);
  for (int64_t o = 0; o < outer; o++) {
    int64_t src = 0;
    for (int64_t i = 0; i < n; i++) {
      const int64_t r = rep ? ic_read_i64(rep, i) : a->repeats;
      for (int64_t e = 0; e < inner; e++) {
        double s = 0;
        for (int64_t q = 0; q < r; q++) s += kg_get(g, (o * m + src + q) * inner + e);
        kg_put(dx, (o * n + i) * inner + e, s);
      }
      src += r;
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_repeat_interleave_grad = {
    .name = "repeat_interleave_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(ri_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
