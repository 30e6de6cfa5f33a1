/* complex (paddle.complex; phi ComplexKernel): Out = X + i Y from real X and Y (float32 ->
 * complex64, float64 -> complex128), broadcast against each other as elementwise ops do
 * (dims aligned at the end). */
#include <string.h>

#include "kernels/cpu/complexutil.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  if (ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT)) return c->err->code;
  if (y->dtype != x->dtype) return ic_kfail_in(c, 1, 0, "expected %s like X", ic_dtype_name(x->dtype));
  const int nd = x->ndim > y->ndim ? x->ndim : y->ndim;
  int64_t d[IC_MAX_RANK];
  for (int i = 0; i < nd; i++) {
    const int ix = i - (nd - x->ndim), iy = i - (nd - y->ndim);
    const int64_t a = ix >= 0 ? x->dims[ix] : 1, b = iy >= 0 ? y->dims[iy] : 1;
    if (a != b && a != 1 && b != 1) {
      return ic_kfail_in(c, 1, 0, "does not broadcast against X (dim %d: %lld and %lld)", i,
                         (long long)a, (long long)b);
    }
    d[i] = a == 1 ? b : a;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_complex_of(x->dtype), nd, d);
  return IC_OK;
}

/* The element of t (rank <= nd, aligned at the end) that output index idx reads. */
static double at(const ic_tensor *t, int nd, const int64_t *idx) {
  int64_t off = 0;
  for (int i = nd - t->ndim; i < nd; i++) {
    const int64_t dim = t->dims[i - (nd - t->ndim)];
    off = off * dim + (dim == 1 ? 0 : idx[i]);
  }
  return ic_read_f64(t, off);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int nd = o->ndim;
  const int64_t n = ic_tensor_numel_(o);
  int64_t idx[IC_MAX_RANK] = {0};
  for (int64_t k = 0; k < n; k++) {
    const double re = at(x, nd, idx), im = at(y, nd, idx);
    if (o->dtype == IC_COMPLEX64) {
      ((float *)o->data)[2 * k] = (float)re;
      ((float *)o->data)[2 * k + 1] = (float)im;
    } else {
      ((double *)o->data)[2 * k] = re;
      ((double *)o->data)[2 * k + 1] = im;
    }
    for (int i = nd - 1; i >= 0; i--) {
      if (++idx[i] < o->dims[i]) break;
      idx[i] = 0;
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_complex = {
    .name = "complex", .n_inputs = 2, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
