/* index_put: out = x with x[indices] = value (accumulate: += value), numpy's advanced-index
 * assignment, as paddle/phi/kernels/cpu/index_put_kernel.cc with funcs/index_put_utils.h:
 * each bool index (rank r) stands for the r int64 coordinate lists of its true elements (in
 * C order); the int indices (int32/int64, negative counts from the end) then broadcast
 * together to dims B and address the first k dims of x (k of them, at most x's rank); the
 * rest R of x's dims is taken whole. value broadcasts (trailing alignment) to B ++ R.
 * Without accumulate a position written twice keeps the last write (C order of B, as the CPU
 * kernel's loop); with it every write adds (bool: or). An index out of its dim is an error.
 * Paddle 3 writes it for `x[:, i] = v` with a one-element int tensor i (after moving the dim
 * first). dtypes: float32, float64, int32, int64, bool. */
#include <string.h>

#include "kernels/kernel.h"
#include "scope/tensor.h"

typedef struct index_put_attrs {
  bool accumulate;
} index_put_attrs;

enum { IN_X, IN_INDICES, IN_VALUE };
static const ic_slotdef k_inputs[3] = {
    {"x", 0}, {"indices", IC_SLOT_MULTI}, {"value", 0}};
static const ic_slotdef k_outputs[1] = {{"out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  index_put_attrs *a = attrs;
  a->accumulate = ic_ar_bool(r, "accumulate", false);
  return r->st;
}

/* The index lists after bool expansion: n lists, list j of dims (nd[j], dims[j]) reading
 * int64 values from vals[j] (NULL: read tensor t[j] as int). */
typedef struct idx_list {
  int n;
  int nd[IC_MAX_RANK];
  int64_t dims[IC_MAX_RANK][IC_MAX_RANK];
  const ic_tensor *t[IC_MAX_RANK];
  int64_t *vals[IC_MAX_RANK];
} idx_list;

static ic_status check_inputs(ic_kctx *c, size_t *n_lists) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *v = ic_in(c, IN_VALUE, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT(IC_FP32) | IC_DT(IC_FP64) | IC_DT(IC_INT32) |
                                                 IC_DT(IC_INT64) | IC_DT(IC_BOOL));
  if (st) return st;
  if (v->dtype != x->dtype) {
    return ic_kfail_in(c, IN_VALUE, 0, "expected x's dtype %s", ic_dtype_name(x->dtype));
  }
  size_t n = 0;
  if (c->in[IN_INDICES].n == 0) return ic_kfail_in(c, IN_X, 0, "index_put has no indices");
  for (size_t i = 0; i < c->in[IN_INDICES].n; i++) {
    const ic_tensor *t = ic_in(c, IN_INDICES, i);
    st = ic_kcheck_dtype(c, IN_INDICES, i, IC_DT(IC_INT32) | IC_DT(IC_INT64) | IC_DT(IC_BOOL));
    if (st) return st;
    n += t->dtype == IC_BOOL ? (size_t)(t->ndim ? t->ndim : 1) : 1;
  }
  if (n > (size_t)x->ndim) {
    return ic_kfail_in(c, IN_INDICES, 0, "index %zu dims of x, which has rank %d", n, x->ndim);
  }
  *n_lists = n;
  return IC_OK;
}

/* Broadcast the lists' dims (trailing alignment) into b; false: they do not broadcast. */
static bool bcast_lists(const idx_list *L, int *nb, int64_t *b) {
  int m = 0;
  for (int j = 0; j < L->n; j++) m = L->nd[j] > m ? L->nd[j] : m;
  for (int d = 0; d < m; d++) b[d] = 1;
  for (int j = 0; j < L->n; j++) {
    for (int d = 0; d < L->nd[j]; d++) {
      int64_t s = L->dims[j][d], *o = &b[m - L->nd[j] + d];
      if (s == *o || s == 1) continue;
      if (*o != 1) return false;
      *o = s;
    }
  }
  *nb = m;
  return true;
}

/* Fill the lists (bool indices expanded into scratch from buf, which holds room for them). */
static void build_lists(ic_kctx *c, idx_list *L, int64_t *buf) {
  L->n = 0;
  for (size_t i = 0; i < c->in[IN_INDICES].n; i++) {
    const ic_tensor *t = ic_in(c, IN_INDICES, i);
    if (t->dtype != IC_BOOL) {
      L->nd[L->n] = t->ndim;
      memcpy(L->dims[L->n], t->dims, sizeof(int64_t) * (size_t)t->ndim);
      L->t[L->n] = t;
      L->vals[L->n++] = NULL;
      continue;
    }
    const int r = t->ndim ? t->ndim : 1;
    const int64_t numel = ic_tensor_numel_(t);
    const uint8_t *m = t->data;
    int64_t nnz = 0;
    for (int64_t k = 0; k < numel; k++) nnz += m[k] != 0;
    for (int d = 0; d < r; d++) {
      L->nd[L->n + d] = 1;
      L->dims[L->n + d][0] = nnz;
      L->t[L->n + d] = NULL;
      L->vals[L->n + d] = buf + (int64_t)d * nnz;
    }
    int64_t w = 0;
    for (int64_t k = 0; k < numel; k++) {
      if (!m[k]) continue;
      int64_t rem = k;
      for (int d = r - 1; d >= 0; d--) {
        const int64_t s = t->ndim ? t->dims[d] : 1;
        L->vals[L->n + d][w] = rem % s;
        rem /= s;
      }
      w++;
    }
    buf += (int64_t)r * nnz;
    L->n += r;
  }
}

static int64_t bool_room(const ic_kctx *c) {
  int64_t room = 0;
  for (size_t i = 0; i < c->in[IN_INDICES].n; i++) {
    const ic_tensor *t = ic_in(c, IN_INDICES, i);
    if (t->dtype == IC_BOOL) room += ic_tensor_numel_(t) * (t->ndim ? t->ndim : 1);
  }
  return room;
}

/* dims of B ++ R and the check that value broadcasts to them. */
static ic_status plan(ic_kctx *c, idx_list *L, int64_t *buf, int *nt, int64_t *tdims, int *nb) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *v = ic_in(c, IN_VALUE, 0);
  build_lists(c, L, buf);
  int64_t b[IC_MAX_RANK];
  if (!bcast_lists(L, nb, b)) return ic_kfail_in(c, IN_INDICES, 0, "the indices do not broadcast together");
  int n = *nb + (x->ndim - L->n);
  if (n > IC_MAX_RANK) return ic_kfail_in(c, IN_INDICES, 0, "indexing gives more than %d dims", IC_MAX_RANK);
  memcpy(tdims, b, sizeof(int64_t) * (size_t)*nb);
  memcpy(tdims + *nb, x->dims + L->n, sizeof(int64_t) * (size_t)(x->ndim - L->n));
  *nt = n;
  if (v->ndim > n) return ic_kfail_in(c, IN_VALUE, 0, "has rank %d, more than the %d dims it is put into", v->ndim, n);
  for (int d = 0; d < v->ndim; d++) {
    const int64_t s = v->dims[d], o = tdims[n - v->ndim + d];
    if (s != o && s != 1) {
      return ic_kfail_in(c, IN_VALUE, 0, "does not broadcast to the indexed dims (dim %d is %lld, expected %lld or 1)",
                         d, (long long)s, (long long)o);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  size_t n;
  ic_status st = check_inputs(c, &n);
  if (st) return st;
  /* shapes only: bool index dims are known after counting, so check what can be checked */
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const index_put_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *v = ic_in(c, IN_VALUE, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const size_t es = ic_dtype_size(x->dtype);
  if (o->data != x->data) memcpy(o->data, x->data, (size_t)ic_tensor_numel_(x) * es);
  const int64_t room = bool_room(c);
  ic_buffer *buf = ic_kscratch(c, (size_t)(room ? room : 1) * sizeof(int64_t));
  if (!buf) return c->err->code;
  idx_list L;
  int nt = 0, nb = 0;
  int64_t td[IC_MAX_RANK];
  ic_status st = plan(c, &L, buf->data, &nt, td, &nb);
  if (st) {
    ic_buffer_release(buf);
    return st;
  }
  /* strides: x's, each list's (broadcast over B), value's (broadcast over B ++ R) */
  int64_t xs[IC_MAX_RANK], ls[IC_MAX_RANK][IC_MAX_RANK], vs[IC_MAX_RANK];
  int64_t acc = 1;
  for (int d = x->ndim - 1; d >= 0; d--) { xs[d] = acc; acc *= x->dims[d]; }
  for (int j = 0; j < L.n; j++) {
    int64_t s = 1;
    for (int d = nb - 1; d >= 0; d--) {
      const int k = d - (nb - L.nd[j]);
      if (k < 0) { ls[j][d] = 0; continue; }
      ls[j][d] = L.dims[j][k] == 1 ? 0 : s;
      s *= L.dims[j][k];
    }
  }
  acc = 1;
  for (int d = nt - 1; d >= 0; d--) {
    const int k = d - (nt - v->ndim);
    if (k < 0) { vs[d] = 0; continue; }
    vs[d] = v->dims[k] == 1 ? 0 : acc;
    acc *= v->dims[k];
  }
  int64_t nbn = 1, nr = 1;
  for (int d = 0; d < nb; d++) nbn *= td[d];
  for (int d = nb; d < nt; d++) nr *= td[d];
  int64_t bi[IC_MAX_RANK] = {0};
  for (int64_t p = 0; p < nbn && !st; p++) {
    int64_t base = 0, voff0 = 0;
    for (int j = 0; j < L.n; j++) {
      int64_t off = 0;
      for (int d = 0; d < nb; d++) off += bi[d] * ls[j][d];
      int64_t idx = L.vals[j] ? L.vals[j][off] : ic_read_i64(L.t[j], off);
      const int64_t dim = x->dims[j];
      if (idx < -dim || idx >= dim) {
        st = ic_kfail_in(c, IN_INDICES, 0, "index %lld is out of dim %d of x (size %lld)",
                         (long long)idx, j, (long long)dim);
        break;
      }
      if (idx < 0) idx += dim;
      base += idx * xs[j];
    }
    if (st) break;
    for (int d = 0; d < nb; d++) voff0 += bi[d] * vs[d];
    int64_t ri[IC_MAX_RANK] = {0};
    for (int64_t r = 0; r < nr; r++) {
      int64_t voff = voff0;
      for (int d = nb; d < nt; d++) voff += ri[d - nb] * vs[d];
      const int64_t xo = base + r;
      char *dst = (char *)o->data + (size_t)xo * es;
      const char *src = (const char *)v->data + (size_t)voff * es;
      if (!a->accumulate) {
        memcpy(dst, src, es);
      } else {
        switch (x->dtype) {
          case IC_FP32: *(float *)dst += *(const float *)src; break;
          case IC_FP64: *(double *)dst += *(const double *)src; break;
          case IC_INT32: *(int32_t *)dst = (int32_t)((uint32_t)*(int32_t *)dst + (uint32_t)*(const int32_t *)src); break;
          case IC_INT64: *(int64_t *)dst = (int64_t)((uint64_t)*(int64_t *)dst + (uint64_t)*(const int64_t *)src); break;
          default: *(uint8_t *)dst = (uint8_t)(*(uint8_t *)dst || *(const uint8_t *)src); break;
        }
      }
      for (int d = nt - nb - 1; d >= 0; d--) {
        if (++ri[d] < td[nb + d]) break;
        ri[d] = 0;
      }
    }
    for (int d = nb - 1; d >= 0; d--) {
      if (++bi[d] < td[d]) break;
      bi[d] = 0;
    }
  }
  ic_buffer_release(buf);
  return st;
}

const ic_opdef ic_op_index_put = {
    .name = "index_put", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(index_put_attrs), .parse = parse, .infer = infer, .cpu = run,
};
