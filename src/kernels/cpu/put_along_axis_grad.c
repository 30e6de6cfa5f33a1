/* put_along_axis_grad: gradients of put_along_axis (Result = Input with Value[p] put at
 * position p of Index with coordinate Axis replaced by Index[p], by Reduce) as phi
 * PutAlongAxisGradKernel and funcs/gather_scatter_functor.cc compute them; "self" below is
 * the Result/Input place that index position p writes, G = Result@GRAD:
 *   Input@GRAD = G, then
 *     assign, or Include_self false:  0 at every self place written;
 *     add:                            G;
 *     mul / multiply:                 G Result / Input at each self place written;
 *     mean:                           G / (n + 1) where n > 0 writes hit the place;
 *     amax / amin:                    0 where Result != Input, else G / (m + 1) with m the
 *                                     writes whose Value equals Result there;
 *   Value@GRAD[p] (Index's dims) =
 *     assign:        G[self] for the last write to each place (the one that stuck), else 0;
 *     add:           G[self];  mean: G[self] / (writes there + 1 if Include_self);
 *     mul:           G[self] Result[self] / Value[p];
 *     amax / amin:   where Value[p] == Result[self], G[self] divided by the number of such
 *                    writes (+1 when Input there also equals Result), else 0.
 * Inputs Input, Index (int32/int64), Value (Index's rank, dims at least Index's), Result,
 * Result@GRAD (Input's dims); outputs Input@GRAD, Value@GRAD (each optional); attributes
 * Axis, Reduce, Include_self. Float32 and float64. */
#include "kernels/cpu/kgrad.h"

enum { IN_INPUT, IN_INDEX, IN_VALUE, IN_RESULT, IN_DOUT };
static const ic_slotdef k_inputs[5] = {
    {"Input", 0}, {"Index", 0}, {"Value", 0}, {"Result", 0}, {"Result@GRAD", 0}};
static const ic_slotdef k_outputs[2] = {{"Input@GRAD", IC_SLOT_OPTIONAL},
                                        {"Value@GRAD", IC_SLOT_OPTIONAL}};

enum { R_ASSIGN, R_ADD, R_MUL, R_MEAN, R_AMAX, R_AMIN };

typedef struct pa_grad_attrs {
  int64_t axis;
  int reduce;
  bool include_self;
} pa_grad_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  pa_grad_attrs *a = attrs;
  a->axis = ic_ar_int(r, "Axis", 0);
  const char *red = ic_ar_str(r, "Reduce", "assign");
  a->include_self = ic_ar_bool(r, "Include_self", true);
  if (r->st) return r->st;
  static const char *const names[] = {"assign", "add", "mul", "mean", "amax", "amin"};
  for (int i = 0; i < 6; i++)
    if (!strcmp(red, names[i])) a->reduce = i;
  if (!strcmp(red, "multiply")) a->reduce = R_MUL;
  else {
    bool ok = false;
    for (int i = 0; i < 6; i++) ok |= !strcmp(red, names[i]);
    if (!ok) {
      return ic_ar_fail(r, "Reduce", "is \"%s\", expected \"assign\", \"add\", \"mul\", "
                        "\"multiply\", \"mean\", \"amax\" or \"amin\"", red);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const pa_grad_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, IN_INPUT, 0, IC_DT_FLOAT);
  if (st || (st = ic_kcheck_dtype(c, IN_INDEX, 0, IC_DT_INT))) return st;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *idx = ic_in(c, IN_INDEX, 0);
  const ic_tensor *v = ic_in(c, IN_VALUE, 0);
  const int rank = x->ndim;
  if (rank < 1) return ic_kfail_in(c, IN_INPUT, 0, "expected rank >= 1");
  const int ax = ic_kaxis(c, a->axis, rank, "Axis");
  if (ax < 0) return c->err->code;
  if (idx->ndim != rank) return ic_kfail_in(c, IN_INDEX, 0, "expected Input's rank %d", rank);
  for (int i = 0; i < rank; i++) {
    if (i != ax && idx->dims[i] > x->dims[i]) {
      return ic_kfail_in(c, IN_INDEX, 0, "has dim %d of %lld, expected at most Input's %lld", i,
                         (long long)idx->dims[i], (long long)x->dims[i]);
    }
  }
  bool ok = v->dtype == x->dtype && v->ndim == rank;
  for (int i = 0; ok && i < rank; i++) ok = v->dims[i] >= idx->dims[i];
  if (!ok) {
    return ic_kfail_in(c, IN_VALUE, 0, "expected Input's dtype, Index's rank and dims at least "
                       "Index's");
  }
  if ((st = kg_expect(c, IN_RESULT, x->dtype, rank, x->dims, "Input's"))) return st;
  if ((st = kg_expect(c, IN_DOUT, x->dtype, rank, x->dims, "Input's"))) return st;
  kg_out(c, 0, x->dtype, rank, x->dims);
  kg_out(c, 1, x->dtype, rank, idx->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const pa_grad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *idx = ic_in(c, IN_INDEX, 0),
                  *v = ic_in(c, IN_VALUE, 0), *out = ic_in(c, IN_RESULT, 0),
                  *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dv = ic_out(c, 1, 0);
  const int ax = (int)(a->axis < 0 ? a->axis + x->ndim : a->axis);
  ic_status st = kg_along_check(c, IN_INDEX, idx, x->dims[ax], ax);
  if (st) return st;
  const int64_t n = ic_tensor_numel_(idx), nx = ic_tensor_numel_(x);
  ic_buffer *b = ic_kscratch(c, (size_t)(2 * n + nx + 1) * sizeof(int64_t));
  if (!b) return c->err->code;
  int64_t *off = b->data, *voff = off + n, *cnt = voff + n;
  kg_along_offsets(idx, ax, x->dims, v->dims, off, voff);
  const int r = a->reduce;
  if (dx) {
    kg_copy(dx, g);
    memset(cnt, 0, (size_t)nx * sizeof(int64_t));
    if (!a->include_self || r == R_ASSIGN) {
      for (int64_t i = 0; i < n; i++) kg_put(dx, off[i], 0);
    } else if (r == R_MUL) {
      for (int64_t i = 0; i < n; i++) {
        if (cnt[off[i]]++) continue;
        kg_put(dx, off[i], kg_get(g, off[i]) * kg_get(out, off[i]) / kg_get(x, off[i]));
      }
    } else if (r == R_AMAX || r == R_AMIN) {
      for (int64_t i = 0; i < n; i++) {
        const double o = kg_get(out, off[i]);
        if (o != kg_get(x, off[i])) kg_put(dx, off[i], 0);
        else if (o == kg_get(v, voff[i])) cnt[off[i]]++;
      }
      for (int64_t i = 0; i < nx; i++) kg_put(dx, i, kg_get(dx, i) / (double)(cnt[i] + 1));
    } else if (r == R_MEAN) {
      for (int64_t i = 0; i < n; i++) cnt[off[i]]++;
      for (int64_t i = 0; i < nx; i++)
        if (cnt[i]) kg_put(dx, i, kg_get(dx, i) / (double)(cnt[i] + 1));
    }
  }
  if (dv) {
    kg_zero(dv);
    memset(cnt, 0, (size_t)nx * sizeof(int64_t));
    if (r == R_ASSIGN) {
      for (int64_t i = n - 1; i >= 0; i--)
        if (!cnt[off[i]]++) kg_put(dv, i, kg_get(g, off[i]));
    } else if (r == R_ADD) {
      for (int64_t i = 0; i < n; i++) kg_put(dv, i, kg_get(g, off[i]));
    } else if (r == R_MEAN) {
      for (int64_t i = 0; i < n; i++) cnt[off[i]]++;
      for (int64_t i = 0; i < n; i++)
        kg_put(dv, i, kg_get(g, off[i]) / (double)(cnt[off[i]] + (a->include_self ? 1 : 0)));
    } else if (r == R_MUL) {
      for (int64_t i = 0; i < n; i++)
        kg_put(dv, i, kg_get(g, off[i]) * (kg_get(out, off[i]) / kg_get(v, voff[i])));
    } else {
      for (int64_t i = 0; i < n; i++)
        if (kg_get(out, off[i]) == kg_get(v, voff[i])) cnt[off[i]]++;
      for (int64_t i = 0; i < n; i++) {
        const double o = kg_get(out, off[i]);
        if (o != kg_get(v, voff[i])) continue;
        const int64_t m = cnt[off[i]] + (o == kg_get(x, off[i]) ? 1 : 0);
        kg_put(dv, i, kg_get(g, off[i]) / (double)m);
      }
    }
  }
  ic_buffer_release(b);
  return IC_OK;
}

const ic_opdef ic_op_put_along_axis_grad = {
    .name = "put_along_axis_grad", .n_inputs = 5, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .attrs_size = sizeof(pa_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
