/* frobenius_norm: Out = sqrt(sum of X^2) over the dims in `dim` (ints, default [0], negative
 * from the end), all of them when reduce_all is set, `dim` is empty or names every dim;
 * keep_dim keeps the reduced dims as 1, otherwise they are dropped (a full reduction gives
 * 0-D). float32 and float64; the sums accumulate in double (Paddle's Eigen reduction is a
 * tree: the last bits may differ) (paddle/phi/kernels/impl/frobenius_norm_kernel_impl.h,
 * ReduceInferMetaBase). */
#include <math.h>

#include "kernels/kernel.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

typedef struct fnorm_attrs {
  const int64_t *dims;
  size_t n;
  bool keep_dim, reduce_all;
} fnorm_attrs;

static const int64_t k_default_dim[1] = {0};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fnorm_attrs *a = attrs;
  if (!ic_ar_ints(r, "dim", false, &a->dims, &a->n)) {
    a->dims = k_default_dim;
    a->n = 1;
  }
  a->keep_dim = ic_ar_bool(r, "keep_dim", false);
  a->reduce_all = ic_ar_bool(r, "reduce_all", false);
  return r->st;
}

/* The reduced dims of x as a mask, or false after failing c. */
static bool reduced(ic_kctx *c, bool red[IC_MAX_RANK]) {
  const fnorm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  for (int d = 0; d < IC_MAX_RANK; d++) red[d] = false;
  bool all = a->reduce_all || a->n == 0;
  for (size_t k = 0; k < a->n && !all; k++) {
    int64_t d = a->dims[k];
    if (d < -x->ndim || d >= x->ndim) {
      ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "attribute dim holds %lld, expected in [%d, %d]",
               (long long)d, -x->ndim, x->ndim - 1);
      return false;
    }
    red[d < 0 ? d + x->ndim : d] = true;
  }
  for (int d = 0; d < x->ndim; d++) {
    if (all) red[d] = true;
  }
  return true;
}

static ic_status infer(ic_kctx *c) {
  const fnorm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  bool red[IC_MAX_RANK];
  if (!reduced(c, red)) return c->err->code;
  int64_t dims[IC_MAX_RANK];
  int nd = 0;
  for (int d = 0; d < x->ndim; d++) {
    if (!red[d]) dims[nd++] = x->dims[d];
    else if (a->keep_dim) dims[nd++] = 1;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, nd, dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  bool red[IC_MAX_RANK];
  if (!reduced(c, red)) return c->err->code;
  const int64_t n = ic_tensor_numel_(x), m = ic_tensor_numel_(o);
  ic_buffer *s = ic_kscratch(c, (size_t)(m ? m : 1) * sizeof(double));
  if (!s) return c->err->code;
  double *acc = s->data;
  for (int64_t j = 0; j < m; j++) acc[j] = 0;
  /* walk X in order, tracking the output index of the kept dims */
  int64_t idx[IC_MAX_RANK] = {0}, ostride[IC_MAX_RANK];
  int64_t st = 1;
  for (int d = x->ndim - 1; d >= 0; d--) {
    ostride[d] = red[d] ? 0 : st;
    if (!red[d]) st *= x->dims[d];
  }
  int64_t oi = 0;
  for (int64_t i = 0; i < n; i++) {
    const double v = ic_read_f64(x, i);
    acc[oi] += v * v;
    for (int d = x->ndim - 1; d >= 0; d--) {
      oi += ostride[d];
      if (++idx[d] < x->dims[d]) break;
      oi -= ostride[d] * x->dims[d];
      idx[d] = 0;
    }
  }
  for (int64_t j = 0; j < m; j++) {
    if (o->dtype == IC_FP32) ((float *)o->data)[j] = (float)sqrt(acc[j]);
    else ((double *)o->data)[j] = sqrt(acc[j]);
  }
  ic_buffer_release(s);
  return IC_OK;
}

const ic_opdef ic_op_frobenius_norm = {
    .name = "frobenius_norm", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(fnorm_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
