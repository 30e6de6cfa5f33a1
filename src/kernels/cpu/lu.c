/* lu: the LU factorization with partial pivoting (paddle.linalg.lu) of each matrix in the
 * last two dims of X (float32 or float64, [..., m, n], k = min(m, n)): Out [..., m, n] holds
 * L (below the diagonal, unit diagonal implied) and U (on and above it), Pivots int32
 * [..., k] the rows swapped with (1-based, LAPACK's ipiv), Infos int32 [...] (the batch dims:
 * 0-D for one matrix) LAPACK's info, i > 0 when U[i-1][i-1] is exactly 0 (a singular matrix
 * is no error). As paddle/phi/kernels/cpu/lu_kernel.cc (LAPACK getrf), here getrf in double,
 * rounded once for float32; complex64 and complex128 (Paddle registers them) by cgetrf and
 * zgetrf in their own dtype. Attribute pivots: only true (Paddle's CPU kernel refuses
 * false). */
#include <string.h>

#include "kernels/cpu/lapack.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[3] = {{"Out", 0}, {"Pivots", 0}, {"Infos", 0}};

typedef struct lu_attrs {
  bool pivots;
} lu_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lu_attrs *a = attrs;
  a->pivots = ic_ar_bool(r, "pivots", true);
  if (r->st) return r->st;
  if (!a->pivots) {
    return ic_ar_fail(r, "pivots", "is false: LU without pivoting is not implemented on the "
                      "CPU (as Paddle)");
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT | IC_DT_COMPLEX);
  if (st) return st;
  if ((st = ic_la_check_size(c, 0))) return st;
  if (x->ndim < 2) return ic_kfail_in(c, 0, 0, "expected rank >= 2 ([..., m, n])");
  const int r = x->ndim;
  const int64_t m = x->dims[r - 2], n = x->dims[r - 1];
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, r, x->dims);
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)r);
  d[r - 2] = m < n ? m : n;
  ic_tensor_set_meta(ic_out(c, 1, 0), IC_INT32, r - 1, d);
  ic_tensor_set_meta(ic_out(c, 2, 0), IC_INT32, r - 2, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0), *piv = ic_out(c, 1, 0), *inf = ic_out(c, 2, 0);
  const int64_t m = x->dims[x->ndim - 2], n = x->dims[x->ndim - 1], k = m < n ? m : n;
  const int64_t batch = ic_tensor_numel_(inf);
  if (ic_tensor_numel_(x) == 0) {
    if (batch) memset(inf->data, 0, (size_t)batch * sizeof(int32_t));
    return IC_OK;
  }
  const bool cplx = x->dtype == IC_COMPLEX64 || x->dtype == IC_COMPLEX128;
  const size_t es = cplx ? ic_dtype_size(x->dtype) : sizeof(double);
  ic_buffer *buf = ic_kscratch(c, es * (size_t)(m * n) + sizeof(int) * (size_t)k);
  if (!buf) return c->err->code;
  void *am = buf->data;
  int *ip = (int *)((char *)am + es * (size_t)(m * n));
  const int mi = (int)m, ni = (int)n, ld = (int)m;
  for (int64_t b = 0; b < batch; b++) {
    int info = 0;
    if (cplx) {
      ic_la_load_cmt(x, b, m, n, am);
      if (x->dtype == IC_COMPLEX64) cgetrf_(&mi, &ni, am, &ld, ip, &info);
      else zgetrf_(&mi, &ni, am, &ld, ip, &info);
      ic_la_store_cmt(o, b, m, n, am, m);
    } else {
      ic_la_load_cm(x, b, m, n, am);
      dgetrf_(&mi, &ni, am, &ld, ip, &info);
      ic_la_store_cm(o, b, m, n, am, m);
    }
    for (int64_t i = 0; i < k; i++) ((int32_t *)piv->data)[b * k + i] = ip[i];
    ((int32_t *)inf->data)[b] = info;
  }
  ic_buffer_release(buf);
  return IC_OK;
}

const ic_opdef ic_op_lu = {
    .name = "lu", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 3, .outputs = k_outputs,
    .attrs_size = sizeof(lu_attrs), .parse = parse, .infer = infer, .cpu = run,
};
