/* lu_unpack: the factors of lu's packed result. X [..., m, n] (float32 or float64, k =
 * min(m, n)) holds L below the diagonal (unit diagonal implied) and U on and above it;
 * Pivots int32 [..., k] the 1-based row swaps (lu's Pivots). With unpack_ludata, L
 * [..., m, k] (unit lower trapezoidal) and U [..., k, n] (upper trapezoidal); with
 * unpack_pivots, Pmat [..., m, m] the permutation with X = Pmat L U (Pmat[p[j]][j] = 1 for
 * the permutation p that applying the swaps in order makes of 0..m-1). An output not
 * unpacked is empty ([0]), as Paddle leaves it. As paddle/phi/kernels/impl/
 * lu_unpack_kernel_impl.h; a pivot outside [1, m] fails as Paddle's. X may also be
 * complex64 or complex128, as Paddle registers. */
#include <string.h>

#include "kernels/cpu/lapack.h"

enum { IN_X, IN_PIV };
enum { OUT_P, OUT_L, OUT_U };
static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Pivots", 0}};
static const ic_slotdef k_outputs[3] = {{"Pmat", 0}, {"L", 0}, {"U", 0}};

typedef struct lu_unpack_attrs {
  bool data, pivots;
} lu_unpack_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lu_unpack_attrs *a = attrs;
  a->data = ic_ar_bool(r, "unpack_ludata", true);
  a->pivots = ic_ar_bool(r, "unpack_pivots", true);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const lu_unpack_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *p = ic_in(c, IN_PIV, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT | IC_DT_COMPLEX);
  if (st) return st;
  if ((st = ic_la_check_size(c, 0))) return st;
  if (x->ndim < 2) return ic_kfail_in(c, IN_X, 0, "expected rank >= 2 ([..., m, n])");
  const int r = x->ndim;
  const int64_t m = x->dims[r - 2], n = x->dims[r - 1], k = m < n ? m : n;
  if (a->pivots) {
    bool ok = p->dtype == IC_INT32 && p->ndim == r - 1 && p->dims[r - 2] == k;
    for (int i = 0; ok && i < r - 2; i++) ok = p->dims[i] == x->dims[i];
    if (!ok) {
      return ic_kfail_in(c, IN_PIV, 0, "expected int32 [..., %lld] (X's batch dims, then "
                         "min(m, n))", (long long)k);
    }
  }
  const int64_t zero[1] = {0};
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)r);
  if (a->data) {
    d[r - 2] = m;
    d[r - 1] = k;
    ic_tensor_set_meta(ic_out(c, OUT_L, 0), x->dtype, r, d);
    d[r - 2] = k;
    d[r - 1] = n;
    ic_tensor_set_meta(ic_out(c, OUT_U, 0), x->dtype, r, d);
  } else {
    ic_tensor_set_meta(ic_out(c, OUT_L, 0), x->dtype, 1, zero);
    ic_tensor_set_meta(ic_out(c, OUT_U, 0), x->dtype, 1, zero);
  }
  if (a->pivots) {
    d[r - 2] = m;
    d[r - 1] = m;
    ic_tensor_set_meta(ic_out(c, OUT_P, 0), x->dtype, r, d);
  } else {
    ic_tensor_set_meta(ic_out(c, OUT_P, 0), x->dtype, 1, zero);
  }
  return IC_OK;
}

/* Element di of dst = element si of src (same dtype), or 0 or 1 (real part) when src is
 * NULL. */
static void put(ic_tensor *dst, int64_t di, const ic_tensor *src, int64_t si, int one) {
  const size_t es = ic_dtype_size(dst->dtype);
  char *d = (char *)dst->data + es * (size_t)di;
  if (src) {
    memcpy(d, (const char *)src->data + es * (size_t)si, es);
    return;
  }
  memset(d, 0, es);
  if (!one) return;
  if (dst->dtype == IC_FP32 || dst->dtype == IC_COMPLEX64) *(float *)d = 1.0f;
  else *(double *)d = 1.0;
}

static ic_status run(ic_kctx *c) {
  const lu_unpack_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *p = ic_in(c, IN_PIV, 0);
  ic_tensor *pm = ic_out(c, OUT_P, 0), *l = ic_out(c, OUT_L, 0), *u = ic_out(c, OUT_U, 0);
  const int64_t m = x->dims[x->ndim - 2], n = x->dims[x->ndim - 1], k = m < n ? m : n;
  const int64_t batch = m > 0 && n > 0 ? ic_tensor_numel_(x) / (m * n) : 0;
  if (a->data) {
    for (int64_t b = 0; b < batch; b++) {
      for (int64_t i = 0; i < m; i++) {
        for (int64_t j = 0; j < k; j++) {
          put(l, (b * m + i) * k + j, i > j ? x : NULL, (b * m + i) * n + j, i == j);
        }
      }
      for (int64_t i = 0; i < k; i++) {
        for (int64_t j = 0; j < n; j++) {
          put(u, (b * k + i) * n + j, j >= i ? x : NULL, (b * m + i) * n + j, 0);
        }
      }
    }
  }
  if (!a->pivots || ic_tensor_numel_(pm) == 0) return IC_OK;
  const int64_t pb = ic_tensor_numel_(pm) / (m * m);
  memset(pm->data, 0, (size_t)ic_tensor_numel_(pm) * ic_dtype_size(pm->dtype));
  ic_buffer *buf = ic_kscratch(c, sizeof(int64_t) * (size_t)m);
  if (!buf) return c->err->code;
  int64_t *perm = buf->data;
  ic_status st = IC_OK;
  for (int64_t b = 0; b < pb && !st; b++) {
    for (int64_t i = 0; i < m; i++) perm[i] = i;
    for (int64_t j = 0; j < k && batch; j++) {
      const int32_t v = ((const int32_t *)p->data)[b * k + j];
      if (v < 1 || v > m) {
        st = ic_kfail_in(c, IN_PIV, 0, "holds %d at [%lld, %lld], expected pivots in [1, %lld] "
                         "(lu's Pivots)", (int)v, (long long)b, (long long)j, (long long)m);
        break;
      }
      const int64_t t = perm[j];
      perm[j] = perm[v - 1];
      perm[v - 1] = t;
    }
    for (int64_t j = 0; j < m; j++) put(pm, (b * m + perm[j]) * m + j, NULL, 0, 1);
  }
  ic_buffer_release(buf);
  return st;
}

const ic_opdef ic_op_lu_unpack = {
    .name = "lu_unpack", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 3,
    .outputs = k_outputs, .attrs_size = sizeof(lu_unpack_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
