/* eigh: the eigendecomposition of each symmetric matrix in the last two dims of X (float32
 * or float64, [..., n, n]; only the lower triangle is read with UPLO "L", the upper with
 * "U"): Eigenvalues [..., n] ascending, Eigenvectors [..., n, n] orthonormal, one per
 * column. As paddle/phi/kernels/cpu/eigh_kernel.cc (LAPACK syevd in X's dtype: ssyevd for float32,
 * as the float64 routine may choose other signs), so the vectors have Paddle's signs (away
 * from repeated eigenvalues, where they are not unique). A complex64 / complex128 X is
 * Hermitian (LAPACK cheevd / zheevd): real Eigenvalues (float32 / float64), complex
 * Eigenvectors. A failure to converge fails as Paddle's. */
#include <string.h>

#include "kernels/cpu/eigh.h"

#include "kernels/cpu/complexutil.h"
#include "kernels/cpu/lapack.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[2] = {{"Eigenvalues", 0}, {"Eigenvectors", 0}};

ic_status ic_eigh_parse(ic_attr_reader *r, ic_eigh_attrs *a) {
  const char *u = ic_ar_str(r, "UPLO", "L");
  if (r->st) return r->st;
  if (strcmp(u, "L") && strcmp(u, "U")) {
    return ic_ar_fail(r, "UPLO", "is \"%s\", expected \"L\" or \"U\"", u);
  }
  a->lower = !strcmp(u, "L");
  return IC_OK;
}

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_eigh_attrs *a = attrs;
  a->vectors = true;
  return ic_eigh_parse(r, a);
}

ic_status ic_eigh_infer(ic_kctx *c) {
  const ic_eigh_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT | IC_DT_COMPLEX);
  if (st) return st;
  if ((st = ic_la_check_size(c, 0))) return st;
  if (x->ndim < 2 || x->dims[x->ndim - 1] != x->dims[x->ndim - 2]) {
    return ic_kfail_in(c, 0, 0, "expected square matrices [..., n, n] (rank >= 2)");
  }
  const bool cplx = x->dtype == IC_COMPLEX64 || x->dtype == IC_COMPLEX128;
  ic_tensor_set_meta(ic_out(c, 0, 0), cplx ? ic_complex_part_dtype(x->dtype) : x->dtype,
                     x->ndim - 1, x->dims);
  if (a->vectors) ic_tensor_set_meta(ic_out(c, 1, 0), x->dtype, x->ndim, x->dims);
  else ic_tensor_set_meta(ic_out(c, 1, 0), x->dtype, 1, (int64_t[]){0});
  return IC_OK;
}

ic_status ic_eigh_run(ic_kctx *c) {
  const ic_eigh_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *w = ic_out(c, 0, 0), *v = ic_out(c, 1, 0);
  const int64_t n = x->dims[x->ndim - 1];
  if (ic_tensor_numel_(x) == 0) return IC_OK;
  const int64_t batch = ic_tensor_numel_(x) / (n * n);
  const bool f32 = x->dtype == IC_FP32 || x->dtype == IC_COMPLEX64;
  const bool cplx = x->dtype == IC_COMPLEX64 || x->dtype == IC_COMPLEX128;
  const size_t es = f32 ? sizeof(float) : sizeof(double), xs = ic_dtype_size(x->dtype);
  ic_buffer *buf = ic_kscratch(c, xs * (size_t)(n * n) + es * (size_t)n);
  if (!buf) return c->err->code;
  char *am = buf->data, *ev = am + xs * (size_t)(n * n);
  ic_status st = IC_OK;
  for (int64_t b = 0; b < batch; b++) {
    ic_la_load_cmt(x, b, n, n, am);
    const char *uplo = a->lower ? "L" : "U";
    const int info = cplx ? ic_la_heevd(c, f32, a->vectors, uplo, (int)n, am, ev)
                          : ic_la_syevd(c, f32, a->vectors, uplo, (int)n, am, ev);
    if (info == -1000) {
      st = c->err->code;
      break;
    }
    if (info != 0) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input X '%s': matrix %lld: LAPACK syevd %s (info %d)",
                    ic_in_name(c, 0, 0), (long long)b,
                    info > 0 ? "did not converge" : "rejected an argument", info);
      break;
    }
    memcpy((char *)w->data + es * (size_t)(b * n), ev, es * (size_t)n);
    if (a->vectors) ic_la_store_cmt(v, b, n, n, am, n);
  }
  ic_buffer_release(buf);
  return st;
}

const ic_opdef ic_op_eigh = {
    .name = "eigh", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 2, .outputs = k_outputs,
    .attrs_size = sizeof(ic_eigh_attrs), .parse = parse, .infer = ic_eigh_infer,
    .cpu = ic_eigh_run,
};
