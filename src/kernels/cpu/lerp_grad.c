/* lerp_grad: with Out = X + Weight (Y - X) broadcast (numpy rules) to Out@GRAD's dims,
 * X@GRAD = (1 - Weight) Out@GRAD and Y@GRAD = Weight Out@GRAD, each summed over the dims its
 * input was broadcast along (phi LerpGradKernel); the products in the data's type, the sums
 * in double. Inputs X, Y, Weight, Out (unused), Out@GRAD; outputs X@GRAD, Y@GRAD, each
 * optional (Weight gets no gradient from Paddle); float32 and float64. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_Y, IN_W, IN_OUT, IN_G };
static const ic_slotdef k_inputs[5] = {{"X", 0},
                                       {"Y", 0},
                                       {"Weight", 0},
                                       {"Out", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED},
                                       {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[2] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                        {"Y@GRAD", IC_SLOT_OPTIONAL}};

/* Strides (in elements) of t read at each index of dims od (rank n), t's dims right-aligned
 * and broadcast where 1; false if t does not broadcast to od. */
static bool bstrides(int n, const int64_t *od, const ic_tensor *t, int64_t *st) {
  if (t->ndim > n) return false;
  int64_t s = 1;
  for (int d = n - 1; d >= 0; d--) {
    const int td = d - (n - t->ndim);
    const int64_t sz = td >= 0 ? t->dims[td] : 1;
    if (sz != od[d] && sz != 1) return false;
    st[d] = sz == 1 ? 0 : s;
    s *= sz;
  }
  return true;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_G, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *g = ic_in(c, IN_G, 0);
  int64_t strides[IC_MAX_RANK];
  for (size_t s = IN_X; s <= IN_W; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != g->dtype || !bstrides(g->ndim, g->dims, t, strides)) {
      char d[128];
      return ic_kfail_in(c, s, 0, "expected %s broadcasting to Out@GRAD's %s",
                         ic_dtype_name(g->dtype), ic_tensor_describe(g, d, sizeof d));
    }
  }
  for (size_t s = 0; s < 2; s++) {
    ic_tensor *o = ic_out(c, s, 0);
    const ic_tensor *t = ic_in(c, s, 0);
    if (o) ic_tensor_set_meta(o, g->dtype, t->ndim, t->dims);
  }
  return IC_OK;
}

#define LERP_GRAD(T)                                                                       \
  do {                                                                                     \
    const T *wp = w->data, *gp = g->data;                                                  \
    int64_t idx[IC_MAX_RANK] = {0}, ox = 0, oy = 0, ow = 0;                                \
    for (int64_t i = 0; i < n; i++) {                                                      \
      const T wv = wp[ow], gv = gp[i];                                                     \
      if (ax) ax[ox] += (double)((1 - wv) * gv);                                           \
      if (ay) ay[oy] += (double)(wv * gv);                                                 \
      for (int d = g->ndim - 1; d >= 0; d--) {                                             \
        ox += sx[d], oy += sy[d], ow += sw[d];                                             \
        if (++idx[d] < g->dims[d]) break;                                                  \
        ox -= sx[d] * g->dims[d], oy -= sy[d] * g->dims[d], ow -= sw[d] * g->dims[d];      \
        idx[d] = 0;                                                                        \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *w = ic_in(c, IN_W, 0);
  const ic_tensor *g = ic_in(c, IN_G, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  int64_t sx[IC_MAX_RANK], sy[IC_MAX_RANK], sw[IC_MAX_RANK];
  bstrides(g->ndim, g->dims, x, sx);
  bstrides(g->ndim, g->dims, y, sy);
  bstrides(g->ndim, g->dims, w, sw);
  const int64_t n = ic_tensor_numel_(g), nx = ic_tensor_numel_(x), ny = ic_tensor_numel_(y);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + ny + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *ax = dx ? (double *)s->data : NULL, *ay = dy ? (double *)s->data + nx : NULL;
  memset(s->data, 0, (size_t)(nx + ny + 1) * sizeof(double));
  if (g->dtype == IC_FP32) LERP_GRAD(float);
  else LERP_GRAD(double);
  if (dx) ic_store_acc(dx, ax);
  if (dy) ic_store_acc(dy, ay);
  ic_buffer_release(s);
  return IC_OK;
}

const ic_opdef ic_op_lerp_grad = {
    .name = "lerp_grad", .n_inputs = 5, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
