/* fill_diagonal_tensor (paddle.Tensor.fill_diagonal_tensor; paddle/phi/kernels/cpu/
 * fill_diagonal_tensor_kernel.cc): Out = X with the diagonal of dims (dim1, dim2) at
 * `offset` (above for > 0, below for < 0) replaced by Y. Y's last dim runs along the
 * diagonal (its length min(X[dim1], X[dim2] - offset) for offset >= 0, min(X[dim1] + offset,
 * X[dim2]) otherwise) and its other dims, flattened, over X's remaining dims in order (their
 * product must match, as Paddle checks). dim1/dim2 negative count from the end. Any dtype
 * (bytes are copied). */
#include <string.h>

#include "kernels/kernel.h"

typedef struct fdt_attrs {
  int64_t offset, dim1, dim2;
} fdt_attrs;

enum { IN_X, IN_Y };
static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fdt_attrs *a = attrs;
  a->offset = ic_ar_int(r, "offset", 0);
  a->dim1 = ic_ar_int(r, "dim1", 0);
  a->dim2 = ic_ar_int(r, "dim2", 1);
  return r->st;
}

typedef struct fdt_geom {
  int d1, d2;
  int64_t batch, diag, base, step;
} fdt_geom;

static ic_status geom(ic_kctx *c, fdt_geom *g) {
  const fdt_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  const int R = x->ndim;
  if (R < 2) return ic_kfail_in(c, IN_X, 0, "expected rank >= 2");
  if (a->dim1 < -R || a->dim1 >= R || a->dim2 < -R || a->dim2 >= R) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                    "fill_diagonal_tensor: dim1 %lld / dim2 %lld out of range [%d, %d)",
                    (long long)a->dim1, (long long)a->dim2, -R, R);
  }
  g->d1 = (int)(a->dim1 < 0 ? a->dim1 + R : a->dim1);
  g->d2 = (int)(a->dim2 < 0 ? a->dim2 + R : a->dim2);
  if (g->d1 == g->d2) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "fill_diagonal_tensor: dim1 and dim2 are both dim %d",
                    g->d1);
  }
  int64_t stride[IC_MAX_RANK];
  stride[R - 1] = 1;
  for (int i = R - 2; i >= 0; i--) stride[i] = stride[i + 1] * x->dims[i + 1];
  g->batch = 1;
  for (int i = 0; i < R; i++) {
    if (i != g->d1 && i != g->d2) g->batch *= x->dims[i];
  }
  if (a->offset >= 0) {
    const int64_t m = x->dims[g->d2] - a->offset;
    g->diag = x->dims[g->d1] < m ? x->dims[g->d1] : m;
    g->base = a->offset * stride[g->d2];
  } else {
    const int64_t m = x->dims[g->d1] + a->offset;
    g->diag = m < x->dims[g->d2] ? m : x->dims[g->d2];
    g->base = -a->offset * stride[g->d1];
  }
  g->step = stride[g->d1] + stride[g->d2];
  const ic_tensor *y = ic_in(c, IN_Y, 0);
  int64_t yb = 1;
  for (int i = 0; i + 1 < y->ndim; i++) yb *= y->dims[i];
  if (y->ndim < 1 || yb != g->batch || y->dims[y->ndim - 1] != g->diag) {
    return ic_kfail_in(c, IN_Y, 0, "expected %lld x %lld elements (the other dims, then the "
                       "diagonal's length)", (long long)g->batch, (long long)g->diag);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_status st = ic_kcheck_dtype(c, IN_Y, 0, IC_DT(x->dtype));
  if (st) return st;
  fdt_geom g;
  if ((st = geom(c, &g))) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  fdt_geom g;
  ic_status st = geom(c, &g);
  if (st) return st;
  const size_t es = ic_dtype_size(x->dtype);
  if (o->data != x->data) memmove(o->data, x->data, (size_t)ic_tensor_numel_(x) * es);
  const int R = x->ndim;
  int64_t stride[IC_MAX_RANK], bstride[IC_MAX_RANK], bdims[IC_MAX_RANK], coord[IC_MAX_RANK] = {0};
  stride[R - 1] = 1;
  for (int i = R - 2; i >= 0; i--) stride[i] = stride[i + 1] * x->dims[i + 1];
  int nb = 0;
  for (int i = 0; i < R; i++) {
    if (i != g.d1 && i != g.d2) {
      bdims[nb] = x->dims[i];
      bstride[nb++] = stride[i];
    }
  }
  char *dst = o->data;
  const char *src = y->data;
  for (int64_t b = 0; b < g.batch && g.diag > 0; b++) {
    int64_t off = g.base;
    for (int i = 0; i < nb; i++) off += coord[i] * bstride[i];
    for (int64_t j = 0; j < g.diag; j++) {
      memcpy(dst + (size_t)(off + j * g.step) * es, src + (size_t)(b * g.diag + j) * es, es);
    }
    for (int i = nb - 1; i >= 0; i--) {
      if (++coord[i] < bdims[i]) break;
      coord[i] = 0;
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_fill_diagonal_tensor = {
    .name = "fill_diagonal_tensor", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(fdt_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
