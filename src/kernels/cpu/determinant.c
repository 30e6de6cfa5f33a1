/* determinant (paddle.linalg.det; paddle/phi/kernels/impl/determinant_kernel_impl.h,
 * DeterminantInferMeta): Out [batch dims] = the determinant of each square matrix in the
 * last two dims of Input (rank >= 2; rank 2 gives a 0-D Out), float32 or float64. LU with
 * partial pivoting in double (lu.h), rounded once (Paddle's Eigen works in the dtype: float32
 * differs in the last bits); a singular matrix gives 0. */
#include "kernels/cpu/lu.h"

static const ic_slotdef k_inputs[1] = {{"Input", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim < 2) return ic_kfail_in(c, 0, 0, "has rank %d, expected at least 2", x->ndim);
  if (x->dims[x->ndim - 1] != x->dims[x->ndim - 2]) {
    return ic_kfail_in(c, 0, 0, "its last two dims (%lld, %lld) are not a square matrix",
                       (long long)x->dims[x->ndim - 2], (long long)x->dims[x->ndim - 1]);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim - 2, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = x->dims[x->ndim - 1], nn = n * n;
  const int64_t batch = ic_tensor_numel_(o);
  ic_buffer *buf = ic_kscratch(c, (size_t)(nn ? nn : 1) * sizeof(double));
  if (!buf) return c->err->code;
  double *a = buf->data;
  for (int64_t b = 0; b < batch; b++) {
    for (int64_t k = 0; k < nn; k++) a[k] = ic_read_f64(x, b * nn + k);
    double s, l;
    ic_lu_slogdet(a, n, &s, &l);
    const double d = s == 0.0 ? 0.0 : s * exp(l);
    if (o->dtype == IC_FP32) ((float *)o->data)[b] = (float)d;
    else ((double *)o->data)[b] = d;
  }
  ic_buffer_release(buf);
  return IC_OK;
}

const ic_opdef ic_op_determinant = {
    .name = "determinant", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
