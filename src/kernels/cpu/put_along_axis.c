/* put_along_axis: Result = Input, then for every position p of Index (int32/int64, Input's
 * rank) Result[p with dim Axis replaced by Index[p]] is assigned, added or multiplied with
 * Value[p] (paddle/phi/kernels/cpu/put_along_axis_kernel.cc, funcs/gather_scatter_functor.cc,
 * PutAlongAxisInferMeta). Positions are visited in Index's row-major order, so with "assign"
 * the last write to a place wins. Index's dims other than Axis must not exceed Input's;
 * Value has Index's rank and dims at least Index's (read at the same position, by its own
 * strides). An index must lie in [-Input.dims[Axis], Input.dims[Axis]); negative ones count
 * from the end. Reduce is "assign", "add", "mul"/"multiply", "mean", "amax" or "amin":
 * values reach a place in that order and fold into it one at a time, from Input's value
 * (Include_self true) or, with Include_self false, from the first value written there
 * (places no index reaches keep Input's value). "mean" sums, then divides by the count of
 * values (plus one with Include_self), truncating for integers; "amax" keeps the current value
 * unless it is below the new one and "amin" unless the new one is below it, so a NaN already
 * there stays and a NaN arriving later is passed over, as Paddle's kernel does. */
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"

enum { IN_INPUT, IN_INDEX, IN_VALUE };
enum { R_ASSIGN, R_ADD, R_MUL, R_MEAN, R_AMAX, R_AMIN };

typedef struct pa_attrs {
  int64_t axis;
  int reduce;
  bool include_self;
} pa_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  pa_attrs *a = attrs;
  a->axis = ic_ar_int(r, "Axis", 0);
  const char *red = ic_ar_str(r, "Reduce", "assign");
  const bool self = ic_ar_bool(r, "Include_self", true);
  if (r->st) return r->st;
  if (!strcmp(red, "assign")) a->reduce = R_ASSIGN;
  else if (!strcmp(red, "add")) a->reduce = R_ADD;
  else if (!strcmp(red, "mul") || !strcmp(red, "multiply")) a->reduce = R_MUL;
  else if (!strcmp(red, "mean")) a->reduce = R_MEAN;
  else if (!strcmp(red, "amax")) a->reduce = R_AMAX;
  else if (!strcmp(red, "amin")) a->reduce = R_AMIN;
  else {
    return ic_ar_fail(r, "Reduce", "is \"%s\", expected \"assign\", \"add\", \"mul\", "
                      "\"multiply\", \"mean\", \"amax\" or \"amin\"", red);
  }
  a->include_self = self;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const pa_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *idx = ic_in(c, IN_INDEX, 0), *v = ic_in(c, IN_VALUE, 0);
  ic_status st = ic_kcheck_dtype(c, IN_INPUT, 0, IC_DT_NUM);
  if (st || (st = ic_kcheck_dtype(c, IN_INDEX, 0, IC_DT_INT))) return st;
  const int rank = x->ndim;
  if (rank < 1) return ic_kfail_in(c, IN_INPUT, 0, "expected rank >= 1");
  if (a->axis < -rank || a->axis >= rank) {
    return ic_kfail_in(c, IN_INPUT, 0, "has rank %d, attribute 'Axis' is %lld: expected in "
                       "[-%d, %d)", rank, (long long)a->axis, rank, rank);
  }
  const int ax = (int)(a->axis < 0 ? a->axis + rank : a->axis);
  if (idx->ndim != rank) {
    return ic_kfail_in(c, IN_INDEX, 0, "has rank %d, expected Input's rank %d", idx->ndim, rank);
  }
  for (int i = 0; i < rank; i++) {
    if (i != ax && idx->dims[i] > x->dims[i]) {
      return ic_kfail_in(c, IN_INDEX, 0, "has dim %d of %lld, expected at most Input's %lld", i,
                         (long long)idx->dims[i], (long long)x->dims[i]);
    }
  }
  if (v->dtype != x->dtype) return ic_kfail_in(c, IN_VALUE, 0, "expected Input's dtype");
  bool ok = v->ndim == rank;
  for (int i = 0; ok && i < rank; i++) ok = v->dims[i] >= idx->dims[i];
  if (!ok) return ic_kfail_in(c, IN_VALUE, 0, "expected Index's rank and dims at least Index's");
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, rank, x->dims);
  return IC_OK;
}

#define APPLY(T, U)                                                                            \
  do {                                                                                         \
    T *d = (T *)o->data + at;                                                                  \
    const T s = ((const T *)v->data)[vat];                                                     \
    if (a->reduce == R_ASSIGN || (cnt && cnt[at] == 0 && !a->include_self)) *d = s;            \
    else if (a->reduce == R_ADD || a->reduce == R_MEAN) *d = (T)((U)*d + (U)s);                \
    else if (a->reduce == R_MUL) *d = (T)((U)*d * (U)s);                                       \
    else if (a->reduce == R_AMAX) *d = *d < s ? s : *d;                                        \
    else *d = s < *d ? s : *d;                                                                 \
    if (cnt) cnt[at]++;                                                                        \
  } while (0)

#define MEAN(T)                                                                                \
  do {                                                                                         \
    T *d = o->data;                                                                            \
    for (int64_t e = 0; e < m; e++) {                                                          \
      if (cnt[e]) d[e] = d[e] / (T)(cnt[e] + (a->include_self ? 1 : 0));                       \
    }                                                                                          \
  } while (0)

static ic_status run(ic_kctx *c) {
  const pa_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *idx = ic_in(c, IN_INDEX, 0), *v = ic_in(c, IN_VALUE, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int rank = x->ndim, ax = (int)(a->axis < 0 ? a->axis + rank : a->axis);
  const int64_t n = ic_tensor_numel_(idx), dax = x->dims[ax];
  for (int64_t i = 0; i < n; i++) {
    const int64_t k = ic_read_i64(idx, i);
    if (k < -dax || k >= dax) {
      return ic_kfail_in(c, IN_INDEX, 0, "entry %lld is %lld, expected in [%lld, %lld) (dim %d "
                         "of Input)", (long long)i, (long long)k, (long long)-dax, (long long)dax, ax);
    }
  }
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t m = ic_tensor_numel_(x);
  if (o->data != x->data) memcpy(o->data, x->data, (size_t)m * es);
  /* how many values reached each place: for mean, and for Include_self false */
  int64_t *cnt = NULL;
  if (a->reduce == R_MEAN || (!a->include_self && a->reduce != R_ASSIGN)) {
    cnt = calloc(m ? (size_t)m : 1, sizeof *cnt);
    if (!cnt) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  }
  int64_t xs[IC_MAX_RANK], vs[IC_MAX_RANK], pos[IC_MAX_RANK] = {0};
  xs[rank - 1] = vs[rank - 1] = 1;
  for (int i = rank - 2; i >= 0; i--) {
    xs[i] = xs[i + 1] * x->dims[i + 1];
    vs[i] = vs[i + 1] * v->dims[i + 1];
  }
  for (int64_t i = 0; i < n; i++) {
    int64_t k = ic_read_i64(idx, i);
    if (k < 0) k += dax;
    int64_t at = 0, vat = 0;
    for (int j = 0; j < rank; j++) {
      at += (j == ax ? k : pos[j]) * xs[j];
      vat += pos[j] * vs[j];
    }
    switch (x->dtype) {
      case IC_FP32: APPLY(float, float); break;
      case IC_FP64: APPLY(double, double); break;
      case IC_INT32: APPLY(int32_t, uint32_t); break;
      default: APPLY(int64_t, uint64_t); break;
    }
    for (int j = rank - 1; j >= 0 && ++pos[j] == idx->dims[j]; j--) pos[j] = 0;
  }
  if (a->reduce == R_MEAN) {
    switch (x->dtype) {
      case IC_FP32: MEAN(float); break;
      case IC_FP64: MEAN(double); break;
      case IC_INT32: MEAN(int32_t); break;
      default: MEAN(int64_t); break;
    }
  }
  free(cnt);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", 0}, {"Index", 0}, {"Value", 0}};
static const ic_slotdef outputs[] = {{"Result", 0}};

const ic_opdef ic_op_put_along_axis = {
    .name = "put_along_axis",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(pa_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
