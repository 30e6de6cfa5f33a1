/* cos_sim_grad: the gradients of fluid's cos_sim (paddle/phi/kernels/impl/
 * cos_sim_grad_kernel_impl.h, funcs/cos_sim_functor.h). From X [N, ...], Y [N or 1, ...]
 * (rows of D), the forward's Out z, XNorm, YNorm and Out@GRAD g, per row i, in the dtype and
 * in Paddle's order:
 *   X@GRAD_i = g_i (y_i / (|x_i| |y_i|) - z_i x_i / |x_i|^2),
 *   Y@GRAD_i = g_i (x_i / (|y_i| |x_i|) - z_i y_i / |y_i|^2)        (Y with N rows),
 *   Y@GRAD   = sum over i of g_i (x_i / (|x_i| |y|) - (z_i / |y|^2) y)  (Y with one row).
 * Either output may be absent. */
#include "kernels/kernel.h"

enum { IN_X, IN_Y, IN_OUT, IN_XNORM, IN_YNORM, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const int64_t n = x->ndim ? x->dims[0] : 0, ny = y->ndim ? y->dims[0] : 0;
  if (y->dtype != x->dtype || y->ndim != x->ndim || (ny != n && ny != 1) ||
      ic_tensor_numel_(y) != ny * (n ? ic_tensor_numel_(x) / n : 0)) {
    return ic_kfail_in(c, IN_Y, 0, "expected X's dtype and row size with %lld rows or 1", (long long)n);
  }
  const size_t slots[] = {IN_OUT, IN_XNORM, IN_YNORM, IN_DOUT};
  const int64_t rows[] = {n, n, ny, n};
  for (int k = 0; k < 4; k++) {
    const ic_tensor *t = ic_in(c, slots[k], 0);
    if (t->dtype != x->dtype || ic_tensor_numel_(t) != rows[k]) {
      return ic_kfail_in(c, slots[k], 0, "expected %s with %lld values (one per row)", ic_dtype_name(x->dtype),
                         (long long)rows[k]);
    }
  }
  if (ic_out(c, 0, 0)) ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  if (ic_out(c, 1, 0)) ic_tensor_set_meta(ic_out(c, 1, 0), y->dtype, y->ndim, y->dims);
  return IC_OK;
}

/* dst_i = g_i (b_i / (na_i nb_i) - z_i a_i / na_i^2) over the rows of a (b_i: b's row i, or
 * its only row). */
#define GRAD_ROWS(T)                                                                          \
  static void grad_rows_##T(const T *a, const T *b, bool b_one, const T *na, const T *nb,     \
                            const T *z, const T *g, int64_t n, int64_t d, T *dst) {           \
    for (int64_t i = 0; i < n; i++) {                                                         \
      const T nsq = na[i] * na[i], prod = na[i] * nb[b_one ? 0 : i], gi = g[i], zi = z[i];    \
      const T *bi = b + (b_one ? 0 : i * d);                                                  \
      for (int64_t j = 0; j < d; j++) {                                                       \
        const T rp = (T)1 / prod, rs = (T)1 / nsq;                                            \
        dst[i * d + j] = gi * (bi[j] * rp - zi * a[i * d + j] * rs);                          \
      }                                                                                       \
    }                                                                                         \
  }                                                                                           \
  static void grad_one_##T(const T *x, const T *y, const T *nx, const T *ny, const T *z,      \
                           const T *g, int64_t n, int64_t d, T *dy) {                         \
    const T ysq = ny[0] * ny[0];                                                              \
    for (int64_t j = 0; j < d; j++) dy[j] = 0;                                                \
    for (int64_t i = 0; i < n; i++) {                                                         \
      const T prod = nx[i] * ny[0], gi = g[i], zy = z[i] / ysq;                               \
      for (int64_t j = 0; j < d; j++) {                                                       \
        const T rp = (T)1 / prod;                                                             \
        dy[j] += gi * (x[i * d + j] * rp - zy * y[j]);                                        \
      }                                                                                       \
    }                                                                                         \
  }
GRAD_ROWS(float)
GRAD_ROWS(double)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  const ic_tensor *z = ic_in(c, IN_OUT, 0), *nx = ic_in(c, IN_XNORM, 0), *ny = ic_in(c, IN_YNORM, 0);
  const ic_tensor *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  const int64_t n = x->dims[0], d = n ? ic_tensor_numel_(x) / n : 0;
  const bool one = y->dims[0] == 1 && n != 1;
  if (x->dtype == IC_FP64) {
    if (dx) grad_rows_double(x->data, y->data, one, nx->data, ny->data, z->data, g->data, n, d, dx->data);
    if (dy && one) grad_one_double(x->data, y->data, nx->data, ny->data, z->data, g->data, n, d, dy->data);
    else if (dy) grad_rows_double(y->data, x->data, false, ny->data, nx->data, z->data, g->data, n, d, dy->data);
  } else {
    if (dx) grad_rows_float(x->data, y->data, one, nx->data, ny->data, z->data, g->data, n, d, dx->data);
    if (dy && one) grad_one_float(x->data, y->data, nx->data, ny->data, z->data, g->data, n, d, dy->data);
    else if (dy) grad_rows_float(y->data, x->data, false, ny->data, nx->data, z->data, g->data, n, d, dy->data);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0},     {"Y", 0},     {"Out", 0},
                                    {"XNorm", 0}, {"YNorm", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL}, {"Y@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_cos_sim_grad = {
    .name = "cos_sim_grad",
    .n_inputs = 6, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .infer = infer, .cpu = run,
};
