/* cholesky: Out = the Cholesky factor of each symmetric positive-definite matrix in the last
 * two dims of X (float32 or float64, [..., n, n]): lower L with X = L L^T, or with `upper`
 * the upper U with X = U^T U (zeros in the other triangle). Only the triangle named by
 * `upper` is read. As paddle/phi/kernels/cpu/cholesky_kernel.cc (Eigen's LLT), here LAPACK's
 * potrf in double, rounded once for float32; a matrix that is not positive definite fails
 * naming its index in the batch, as Paddle does. */
#include "kernels/cpu/lapack.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

typedef struct cholesky_attrs {
  bool upper;
} cholesky_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((cholesky_attrs *)attrs)->upper = ic_ar_bool(r, "upper", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if ((st = ic_la_check_size(c, 0))) return st;
  if (x->ndim < 2) return ic_kfail_in(c, 0, 0, "expected rank >= 2 ([..., n, n])");
  if (x->dims[x->ndim - 1] != x->dims[x->ndim - 2]) {
    return ic_kfail_in(c, 0, 0, "expected square matrices in the last two dims");
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const cholesky_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = x->dims[x->ndim - 1];
  if (ic_tensor_numel_(x) == 0) return IC_OK;
  const int64_t batch = ic_tensor_numel_(x) / (n * n);
  ic_buffer *buf = ic_kscratch(c, (size_t)(n * n) * sizeof(double));
  if (!buf) return c->err->code;
  double *m = buf->data;
  ic_status st = IC_OK;
  const int ni = (int)n;
  for (int64_t b = 0; b < batch; b++) {
    ic_la_load_cm(x, b, n, n, m);
    int info = 0;
    dpotrf_(a->upper ? "U" : "L", &ni, m, &ni, &info, 1);
    if (info != 0) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input X '%s': Cholesky decomposition was not "
                    "successful: matrix %lld of %lld is not positive definite (leading minor "
                    "%d)", ic_in_name(c, 0, 0), (long long)b, (long long)batch, info);
      break;
    }
    for (int64_t j = 0; j < n; j++) {
      for (int64_t i = 0; i < n; i++) {
        if (a->upper ? i > j : i < j) m[j * n + i] = 0.0;
      }
    }
    ic_la_store_cm(o, b, n, n, m, n);
  }
  ic_buffer_release(buf);
  return st;
}

const ic_opdef ic_op_cholesky = {
    .name = "cholesky", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(cholesky_attrs), .parse = parse, .infer = infer, .cpu = run,
};
