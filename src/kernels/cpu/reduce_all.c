/* reduce_all: Out (bool) = whether every element of bool X over the axes in `dim` is true
 * (phi AllRawKernel); dim, keep_dim and reduce_all as the other reductions read them (no
 * axis, or reduce_all: every axis; every axis reduced without keep_dim: 0-D). An empty
 * reduction gives true. */
#include <string.h>

#include "kernels/cpu/reduce.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_reduce_parse(r, attrs, IC_REDUCE_MAX);
}

static ic_status axes(ic_kctx *c, bool *red) {
  const ic_reduce_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  int rank = x->ndim;
  memset(red, 0, sizeof(bool) * IC_MAX_RANK);
  if (ic_kcheck_dtype(c, 0, 0, IC_DT(IC_BOOL))) return c->err->code;
  for (size_t k = 0; k < a->n_dim; k++) {
    int64_t d = a->dim[k];
    if (rank == 0 && (d == 0 || d == -1)) continue;
    if (d < -rank || d >= rank) {
      return ic_kfail_in(c, 0, 0, "attribute 'dim' holds %lld, expected in [%d, %d)", (long long)d, -rank, rank);
    }
    red[d < 0 ? d + rank : d] = true;
  }
  if (a->reduce_all || a->n_dim == 0) {
    for (int i = 0; i < rank; i++) red[i] = true;
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_reduce_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  bool red[IC_MAX_RANK];
  ic_status st = axes(c, red);
  if (st) return st;
  int64_t dims[IC_MAX_RANK];
  int n = 0;
  for (int i = 0; i < x->ndim; i++) {
    if (!red[i]) dims[n++] = x->dims[i];
    else if (a->keep_dim) dims[n++] = 1;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_BOOL, n, dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  bool red[IC_MAX_RANK];
  ic_status st = axes(c, red);
  if (st) return st;
  uint8_t *o = out->data;
  int64_t on = ic_tensor_numel_(out);
  for (int64_t k = 0; k < on; k++) o[k] = 1;
  /* output strides over X's axes: 0 for a reduced one */
  int64_t ostr[IC_MAX_RANK], s = 1;
  for (int i = x->ndim - 1; i >= 0; i--) {
    ostr[i] = red[i] ? 0 : s;
    if (!red[i]) s *= x->dims[i];
  }
  const uint8_t *xd = x->data;
  int64_t n = ic_tensor_numel_(x);
  for (int64_t k = 0; k < n; k++) {
    int64_t rem = k, oi = 0;
    for (int i = x->ndim - 1; i >= 0; i--) {
      oi += (rem % x->dims[i]) * ostr[i];
      rem /= x->dims[i];
    }
    if (!xd[k]) o[oi] = 0;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_reduce_all = {
    .name = "reduce_all",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_reduce_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
