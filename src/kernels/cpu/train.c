/* Helpers shared by the training ops (train.h). */
#include "kernels/cpu/train.h"

#include <math.h>
#include <string.h>

#include "kernels/cpu/reduce.h"
#include "kernels/cpu/shapeops.h"
#include "kernels/cpu/topk.h"

ic_status ic_train_own(ic_kctx *c, ic_tensor *t, const ic_tensor *like) {
  if (!t) return IC_OK;
  if (t != like) ic_tensor_set_meta(t, like->dtype, like->ndim, like->dims);
  /* t may be the very tensor `like` is a snapshot of: allocating replaces its buffer, the
   * snapshot keeps the old one. */
  return ic_tensor_alloc(t, c->env ? c->env->alloc : NULL, c->err);
}

ic_status ic_train_same(ic_kctx *c, size_t s, size_t i, size_t s0) {
  const ic_tensor *t = ic_in(c, s, i), *ref = ic_in(c, s0, 0);
  if (!t) return IC_OK;
  if (t->dtype != ref->dtype || !ic_dims_equal(t->ndim, t->dims, ref->ndim, ref->dims)) {
    char d[128];
    return ic_kfail_in(c, s, i, "expected %s like input %s '%s'",
                       ic_tensor_describe(ref, d, sizeof d), c->def->inputs[s0].name,
                       ic_in_name(c, s0, 0));
  }
  return IC_OK;
}

ic_status ic_train_scalar(ic_kctx *c, size_t s, ic_dtype dt) {
  const ic_tensor *t = ic_in(c, s, 0);
  if (!t) return IC_OK;
  if (t->dtype != dt || ic_tensor_numel_(t) != 1) {
    return ic_kfail_in(c, s, 0, "expected one %s value", ic_dtype_name(dt));
  }
  return IC_OK;
}

bool ic_train_selected_rows(const ic_program *p, const ic_op *op, const char *slot) {
  const ic_slot *g = ic_op_input(op, slot);
  if (!p || !g || g->n != 1) return false;
  const ic_vardesc *d = ic_program_find_var(p, op->block, g->args[0]);
  return d && d->type == IC_VAR_SELECTED_ROWS;
}

ic_status ic_train_dense_grad_resolve(const ic_program *p, const ic_op *op,
                                      const ic_opdef **def, ic_err *err) {
  (void)def;
  if (!ic_train_selected_rows(p, op, "Grad")) return IC_OK;
  char where[160];
  return ic_err_set(err, IC_ERR_UNSUPPORTED,
                    "%s: Grad '%s' is a SelectedRows (an embedding with is_sparse): Paddle's "
                    "%s kernel takes a dense Grad only",
                    ic_op_where(op, where, sizeof where), ic_op_input(op, "Grad")->args[0],
                    op->type);
}

/* ---- elementwise grads ---- */

const ic_slotdef ic_ewgrad_inputs_dims[4] = {
    {"X", IC_SLOT_NO_BUFFER},
    {"Y", IC_SLOT_NO_BUFFER},
    {"Out", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED},
    {"Out@GRAD", 0},
};
const ic_slotdef ic_ewgrad_inputs_values[4] = {
    {"X", 0},
    {"Y", 0},
    {"Out", IC_SLOT_OPTIONAL},
    {"Out@GRAD", 0},
};
const ic_slotdef ic_ewgrad_outputs[2] = {
    {"X@GRAD", IC_SLOT_OPTIONAL},
    {"Y@GRAD", IC_SLOT_OPTIONAL},
};

ic_status ic_ewgrad_infer(ic_kctx *c) {
  const ic_elementwise_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_EWG_X, 0), *y = ic_in(c, IC_EWG_Y, 0),
                  *g = ic_in(c, IC_EWG_DOUT, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IC_EWG_X, 0, IC_DT_FLOAT))) return st;
  if (y->dtype != x->dtype) {
    return ic_kfail_in(c, IC_EWG_Y, 0, "expected the dtype of X (%s)", ic_dtype_name(x->dtype));
  }
  ic_bcast b;
  if ((st = ic_bcast_plan(c, IC_EWG_X, IC_EWG_Y, a->axis, &b))) return st;
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, b.ndim, b.out)) {
    char d[128];
    return ic_kfail_in(c, IC_EWG_DOUT, 0, "expected %s%s, the broadcast of X and Y",
                       ic_dtype_name(x->dtype), ic_dims_str(b.ndim, b.out, d, sizeof d));
  }
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  if (dx) ic_tensor_set_meta(dx, x->dtype, x->ndim, x->dims);
  if (dy) ic_tensor_set_meta(dy, y->dtype, y->ndim, y->dims);
  return IC_OK;
}

static double rd(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? (double)((const float *)t->data)[i] : ((const double *)t->data)[i];
}

ic_status ic_ewgrad_run(ic_kctx *c, ic_ew_op op) {
  const ic_elementwise_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_EWG_X, 0), *y = ic_in(c, IC_EWG_Y, 0),
                  *out = ic_in(c, IC_EWG_OUT, 0), *g = ic_in(c, IC_EWG_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  if (op == IC_EW_DIV && dy && !out) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "input Out is needed for Y@GRAD");
  }
  ic_bcast b;
  ic_status st = ic_bcast_plan(c, IC_EWG_X, IC_EWG_Y, a->axis, &b);
  if (st) return st;
  int64_t nx = ic_tensor_numel_(x), ny = ic_tensor_numel_(y);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + ny + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *ax = s->data, *ay = ax + nx;
  memset(ax, 0, (size_t)(nx + ny) * sizeof(double));
  /* Row by row (the last simplified dim), the op chosen once per row: the elements are
   * visited in the same order as one odometer step per element would, so every sum adds in
   * the same order. */
  int64_t idx[IC_MAX_RANK] = {0}, xo = 0, yo = 0;
  const int64_t row = b.dims[b.n - 1], rsx = b.sx[b.n - 1], rsy = b.sy[b.n - 1];
  for (int64_t i = 0; i < b.numel; i += row) {
    switch (op) {
      case IC_EW_ADD:
        for (int64_t j = 0; j < row; j++) {
          double gv = rd(g, i + j);
          ax[xo + j * rsx] += gv;
          ay[yo + j * rsy] += gv;
        }
        break;
      case IC_EW_SUB:
        for (int64_t j = 0; j < row; j++) {
          double gv = rd(g, i + j);
          ax[xo + j * rsx] += gv;
          ay[yo + j * rsy] -= gv;
        }
        break;
      case IC_EW_MUL:
        for (int64_t j = 0; j < row; j++) {
          double gv = rd(g, i + j);
          if (dx) ax[xo + j * rsx] += gv * rd(y, yo + j * rsy);
          if (dy) ay[yo + j * rsy] += gv * rd(x, xo + j * rsx);
        }
        break;
      case IC_EW_MAX:
      case IC_EW_MIN:
        /* Paddle 3.3.1's rule (measured): the larger (max) / smaller (min) side takes dOut,
         * a tie gives each side dOut / 2, a NaN on either side gives neither anything */
        for (int64_t j = 0; j < row; j++) {
          const double gv = rd(g, i + j), xv = rd(x, xo + j * rsx), yv = rd(y, yo + j * rsy);
          const bool xwin = op == IC_EW_MAX ? xv > yv : xv < yv;
          const bool ywin = op == IC_EW_MAX ? yv > xv : yv < xv;
          const double part = xv == yv ? gv * 0.5 : 0.0;
          if (dx) ax[xo + j * rsx] += xwin ? gv : part;
          if (dy) ay[yo + j * rsy] += ywin ? gv : part;
        }
        break;
      case IC_EW_POW:
        /* dX = g y x^(y - 1), dY = g ln(x) x^y (phi PowGradDX / PowGradDY), with Paddle
         * 3.3.1's zeros (measured): dX is 0 where y = 0 (not 0 * x^-1 = NaN at x = 0), dY is
         * 0 where x = 0 and y >= 0 (not -inf * 0 = NaN, nor -inf at y = 0) */
        for (int64_t j = 0; j < row; j++) {
          const double gv = rd(g, i + j), xv = rd(x, xo + j * rsx), yv = rd(y, yo + j * rsy);
          if (dx) ax[xo + j * rsx] += yv == 0 ? 0.0 : gv * yv * pow(xv, yv - 1);
          if (dy) ay[yo + j * rsy] += xv == 0 && yv >= 0 ? 0.0 : gv * log(xv) * pow(xv, yv);
        }
        break;
      default: /* div: dX = g / y, dY = -g * out / y */
        for (int64_t j = 0; j < row; j++) {
          double gv = rd(g, i + j), yv = rd(y, yo + j * rsy);
          if (dx) ax[xo + j * rsx] += gv / yv;
          if (dy) ay[yo + j * rsy] -= gv * rd(out, i + j) / yv;
        }
        break;
    }
    ic_bcast_next_row(&b, idx, &xo, &yo);
  }
  if (dx) ic_store_acc(dx, ax);
  if (dy) ic_store_acc(dy, ay);
  ic_buffer_release(s);
  return IC_OK;
}

/* ---- reduce grads ---- */

ic_status ic_reduce_grad_infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT))) return st;
  ic_reduce_geom geo;
  if ((st = ic_reduce_geometry(c, &geo))) return st;
  if (g->dtype != x->dtype || ic_tensor_numel_(g) != geo.out_n) {
    return ic_kfail_in(c, 1, 0, "expected %s with %lld elements (X reduced)",
                       ic_dtype_name(x->dtype), (long long)geo.out_n);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

ic_status ic_reduce_grad_run(ic_kctx *c, bool mean) {
  const ic_tensor *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_reduce_geom geo;
  ic_status st = ic_reduce_geometry(c, &geo);
  if (st) return st;
  int64_t count = geo.out_n ? geo.in_n / geo.out_n : 1;
  /* Paddle divides in the tensor's dtype: dx = dout / (T)count */
  if (dx->dtype == IC_FP32) {
    const float *gp = g->data, n = (float)count;
    float *dp = dx->data;
    IC_REDUCE_WALK(geo, dp[i] = mean ? gp[o] / n : gp[o]);
  } else {
    const double *gp = g->data, n = (double)count;
    double *dp = dx->data;
    IC_REDUCE_WALK(geo, dp[i] = mean ? gp[o] / n : gp[o]);
  }
  return IC_OK;
}

/* ---- reduce_max_grad, reduce_min_grad, reduce_prod_grad ---- */

const ic_slotdef ic_reduce_sel_grad_inputs[3] = {{"X", 0}, {"Out", 0}, {"Out@GRAD", 0}};
const ic_slotdef ic_reduce_sel_grad_outputs[1] = {{"X@GRAD", 0}};

ic_status ic_reduce_sel_grad_infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *out = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT))) return st;
  ic_reduce_geom geo;
  if ((st = ic_reduce_geometry(c, &geo))) return st;
  for (size_t s = 1; s < 3; s++) {
    const ic_tensor *t = s == 1 ? out : g;
    if (t->dtype != x->dtype || ic_tensor_numel_(t) != geo.out_n) {
      return ic_kfail_in(c, s, 0, "expected %s with %lld elements (X reduced)",
                         ic_dtype_name(x->dtype), (long long)geo.out_n);
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define IC_RSG_RUN(T)                                                                      \
  do {                                                                                     \
    const T *xp = x->data, *op = out->data, *gp = g->data;                                 \
    T *dp = dx->data;                                                                      \
    if (prod) {                                                                            \
      IC_REDUCE_WALK(geo, dp[i] = gp[o] * op[o] * ((T)1 / xp[i]));                                 \
    } else {                                                                               \
      T *cnt = scratch->data;                                                              \
      for (int64_t k = 0; k < geo.out_n; k++) cnt[k] = 0;                                  \
      IC_REDUCE_WALK(geo, cnt[o] += (T)(xp[i] == op[o]));                                          \
      IC_REDUCE_WALK(geo, dp[i] = gp[o] * (T)(xp[i] == op[o]) / cnt[o]);                           \
    }                                                                                      \
  } while (0)

ic_status ic_reduce_sel_grad_run(ic_kctx *c, bool prod) {
  const ic_tensor *x = ic_in(c, 0, 0), *out = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_reduce_geom geo;
  ic_status st = ic_reduce_geometry(c, &geo);
  if (st) return st;
  ic_buffer *scratch = NULL;
  if (!prod) {
    scratch = ic_kscratch(c, (size_t)(geo.out_n ? geo.out_n : 1) * sizeof(double));
    if (!scratch) return c->err->code;
  }
  if (x->dtype == IC_FP32) IC_RSG_RUN(float);
  else IC_RSG_RUN(double);
  if (scratch) ic_buffer_release(scratch);
  return IC_OK;
}

/* ---- top_k_grad, top_k_v2_grad ---- */

const ic_slotdef ic_topk_grad_inputs[4] = {{"X", IC_SLOT_NO_BUFFER},
                                           {"Indices", 0},
                                           {"K", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED},
                                           {"Out@GRAD", 0}};
const ic_slotdef ic_topk_grad_outputs[1] = {{"X@GRAD", 0}};

static int topk_grad_axis(ic_kctx *c) {
  const topk_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim == 0) return 0;
  return ic_shapeops_axis(c, 0, a->axis, x->ndim, "attribute 'axis'");
}

ic_status ic_topk_grad_infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 1, 0, IC_DT(IC_INT64) | IC_DT(IC_INT32));
  if (st || (st = ic_kcheck_dtype(c, 3, 0, IC_DT_FLOAT))) return st;
  int axis = topk_grad_axis(c);
  if (axis < 0) return IC_ERR_SHAPE;
  const ic_tensor *x = ic_in(c, 0, 0), *idx = ic_in(c, 1, 0), *g = ic_in(c, 3, 0);
  bool ok = g->ndim == x->ndim && ic_dims_equal(idx->ndim, idx->dims, g->ndim, g->dims);
  for (int i = 0; ok && i < x->ndim; i++) {
    ok = i == axis ? g->dims[i] <= x->dims[i] : g->dims[i] == x->dims[i];
  }
  if (!ok) {
    char d[128];
    return ic_kfail_in(c, 3, 0, "expected the dims of Indices, X's %s with at most X's size "
                       "along axis %d", ic_dims_str(x->ndim, x->dims, d, sizeof d), axis);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, x->ndim, x->dims);
  return IC_OK;
}

ic_status ic_topk_grad_run(ic_kctx *c) {
  int axis = topk_grad_axis(c);
  if (axis < 0) return IC_ERR_SHAPE;
  const ic_tensor *x = ic_in(c, 0, 0), *idx = ic_in(c, 1, 0), *g = ic_in(c, 3, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  memset(dx->data, 0, (size_t)ic_tensor_numel_(dx) * ic_dtype_size(dx->dtype));
  if (x->ndim == 0) {
    if (ic_tensor_numel_(g)) ic_train_row_add(dx->dtype, dx->data, 0, g->data, 0, 1);
    return IC_OK;
  }
  const int64_t outer = ic_numel(axis, x->dims), len = x->dims[axis], k = g->dims[axis];
  const int64_t inner = ic_numel(x->ndim - axis - 1, x->dims + axis + 1);
  for (int64_t r = 0; r < outer; r++) {
    for (int64_t j = 0; j < k; j++) {
      for (int64_t i = 0; i < inner; i++) {
        int64_t at = (r * k + j) * inner + i, p = ic_read_i64(idx, at);
        if (p < 0 || p >= len) {
          return ic_kfail_in(c, 1, 0, "holds %lld at position %lld, expected in [0, %lld)",
                             (long long)p, (long long)at, (long long)len);
        }
        ic_train_row_add(dx->dtype, dx->data, (r * len + p) * inner + i, g->data, at, 1);
      }
    }
  }
  return IC_OK;
}

/* ---- XShape grads ---- */

const ic_slotdef ic_xshape_grad_inputs[2] = {{"XShape", IC_SLOT_NO_BUFFER}, {"Out@GRAD", 0}};
const ic_slotdef ic_xshape_grad_outputs[1] = {{"X@GRAD", IC_SLOT_SHARE}};

ic_status ic_xshape_grad_infer(ic_kctx *c) {
  const ic_tensor *xs = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  if (xs->ndim < 1 || xs->dims[0] != 0) {
    return ic_kfail_in(c, 0, 0, "expected an XShape: dims [0, X's dims...]");
  }
  if (ic_numel(xs->ndim - 1, xs->dims + 1) != ic_tensor_numel_(g)) {
    char d[128];
    return ic_kfail_in(c, 1, 0, "expected %lld elements, those of X %s",
                       (long long)ic_numel(xs->ndim - 1, xs->dims + 1),
                       ic_dims_str(xs->ndim - 1, xs->dims + 1, d, sizeof d));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, xs->ndim - 1, xs->dims + 1);
  return IC_OK;
}

ic_status ic_xshape_grad_run(ic_kctx *c) {
  ic_shapeops_share(c, 0, 1);
  return IC_OK;
}

ic_status ic_norm_grad_outputs(ic_kctx *c, const ic_tensor *x, size_t dy, int64_t C) {
  const ic_tensor *g = ic_in(c, dy, 0);
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, x->ndim, x->dims)) {
    char d[128];
    return ic_kfail_in(c, dy, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
  }
  if (ic_out(c, 0, 0)) ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  for (size_t s = 1; s <= 2; s++) {
    if (ic_out(c, s, 0)) ic_tensor_set_meta(ic_out(c, s, 0), x->dtype, 1, &C);
  }
  return IC_OK;
}
