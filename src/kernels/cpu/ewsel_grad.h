/* Shared by elementwise_fmax_grad, elementwise_fmin_grad and elementwise_heaviside_grad: inputs
 * X, Y, Out@GRAD with Paddle's broadcasting (axis attribute, default -1, as the forward ops),
 * outputs X@GRAD and Y@GRAD (each optional) of X's and Y's dims, every element's share of
 * Out@GRAD summed over the dims its input was broadcast along (in double, rounded once).
 * The per-element rules are phi's (paddle/phi/kernels/funcs/elementwise_functor.h):
 *   fmax:      dX = g * ((x >= y) || isnan(y)),  dY = g * !((x >= y) || isnan(y))
 *   fmin:      dX = g * ((x <= y) || isnan(y)),  dY = g * !((x <= y) || isnan(y))
 *   heaviside: dX = g * 0,                       dY = g * (x == 0)
 * so a tie gives X everything, and a NaN Y gives X everything; each product in the data's
 * type. float32 and float64. */
#ifndef IC_KERNELS_CPU_EWSEL_GRAD_H
#define IC_KERNELS_CPU_EWSEL_GRAD_H

#include <math.h>
#include <string.h>

#include "kernels/cpu/elementwise.h"

enum { IC_EWSEL_FMAX, IC_EWSEL_FMIN, IC_EWSEL_HEAVISIDE };

static const ic_slotdef ic_ewsel_inputs[3] = {{"X", 0}, {"Y", 0}, {"Out@GRAD", 0}};
static const ic_slotdef ic_ewsel_outputs[2] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                               {"Y@GRAD", IC_SLOT_OPTIONAL}};

static inline ic_status ic_ewsel_infer(ic_kctx *c) {
  const ic_elementwise_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  if (y->dtype != x->dtype) return ic_bcast_dtype_mismatch(c);
  ic_bcast b;
  if ((st = ic_bcast_plan(c, 0, 1, a->axis, &b))) return st;
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, b.ndim, b.out)) {
    char d[96];
    return ic_kfail_in(c, 2, 0, "expected %s%s (X and Y broadcast)", ic_dtype_name(x->dtype),
                       ic_dims_str(b.ndim, b.out, d, sizeof d));
  }
  for (size_t s = 0; s < 2; s++) {
    ic_tensor *o = ic_out(c, s, 0);
    const ic_tensor *t = ic_in(c, s, 0);
    if (o) ic_tensor_set_meta(o, x->dtype, t->ndim, t->dims);
  }
  return IC_OK;
}

#define IC_EWSEL_ROW(T)                                                                    \
  do {                                                                                     \
    const T *xp = x->data, *yp = y->data, *gp = g->data;                                   \
    for (int64_t j = 0; j < row; j++) {                                                    \
      const T xv = xp[xo + j * rsx], yv = yp[yo + j * rsy], gv = gp[i + j];                \
      T vx, vy;                                                                            \
      if (kind == IC_EWSEL_HEAVISIDE) {                                                    \
        vx = gv * (T)0;                                                                    \
        vy = gv * (T)(xv == 0);                                                            \
      } else {                                                                             \
        const bool xs = (kind == IC_EWSEL_FMAX ? xv >= yv : xv <= yv) || isnan(yv);        \
        vx = gv * (T)xs;                                                                   \
        vy = gv * (T)!xs;                                                                  \
      }                                                                                    \
      ax[xo + j * rsx] += (double)vx;                                                      \
      ay[yo + j * rsy] += (double)vy;                                                      \
    }                                                                                      \
  } while (0)

static inline ic_status ic_ewsel_run(ic_kctx *c, int kind) {
  const ic_elementwise_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  ic_bcast b;
  ic_status st = ic_bcast_plan(c, 0, 1, a->axis, &b);
  if (st) return st;
  const int64_t nx = ic_tensor_numel_(x), ny = ic_tensor_numel_(y);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + ny + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *ax = s->data, *ay = ax + nx;
  memset(ax, 0, (size_t)(nx + ny) * sizeof(double));
  int64_t idx[IC_MAX_RANK] = {0}, xo = 0, yo = 0;
  const int64_t row = b.dims[b.n - 1], rsx = b.sx[b.n - 1], rsy = b.sy[b.n - 1];
  for (int64_t i = 0; i < b.numel; i += row) {
    if (x->dtype == IC_FP32) IC_EWSEL_ROW(float);
    else IC_EWSEL_ROW(double);
    ic_bcast_next_row(&b, idx, &xo, &yo);
  }
  if (dx) ic_store_acc(dx, ax);
  if (dy) ic_store_acc(dy, ay);
  ic_buffer_release(s);
  return IC_OK;
}

#define IC_EWSEL_DEF(NAME, RUN)                                                            \
  {                                                                                        \
    .name = NAME, .n_inputs = 3, .inputs = ic_ewsel_inputs, .n_outputs = 2,                \
    .outputs = ic_ewsel_outputs, .attrs_size = sizeof(ic_elementwise_attrs),               \
    .parse = ic_elementwise_parse, .infer = ic_ewsel_infer, .cpu = RUN,                    \
  }

#endif
