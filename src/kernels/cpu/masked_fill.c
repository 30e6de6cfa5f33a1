/* masked_fill (Paddle 3's pd_op.masked_fill, paddle.masked_fill): Out = Mask ? Value : X
 * elementwise, X, Mask (bool) and Value (X's dtype; the Python API makes a scalar value a
 * 0-d tensor) broadcast together by the usual right-aligned rules; Out has the broadcast
 * dims and X's dtype. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_MASK, IN_VALUE };

static const ic_slotdef k_inputs[3] = {{"X", 0}, {"Mask", 0}, {"Value", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

/* The broadcast dims of the three inputs into dims (rank *nd), or -1 with the slot that does
 * not fit. */
static int broadcast(ic_kctx *c, int64_t *dims, int *nd) {
  int r = 0;
  for (size_t s = 0; s < 3; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->ndim > r) r = t->ndim;
  }
  for (int k = 0; k < r; k++) dims[k] = 1;
  for (size_t s = 0; s < 3; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    for (int k = 0; k < t->ndim; k++) {
      int64_t *d = &dims[r - t->ndim + k];
      const int64_t v = t->dims[k];
      if (v == *d || v == 1) continue;
      if (*d != 1) return (int)s;
      *d = v;
    }
  }
  *nd = r;
  return -1;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_MASK, 0, IC_DT(IC_BOOL));
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *v = ic_in(c, IN_VALUE, 0);
  if (v->dtype != x->dtype) {
    return ic_kfail_in(c, IN_VALUE, 0, "expected the dtype of X '%s' (%s)", ic_in_name(c, IN_X, 0),
                       ic_dtype_name(x->dtype));
  }
  int64_t dims[IC_MAX_RANK];
  int nd = 0;
  int bad = broadcast(c, dims, &nd);
  if (bad >= 0) {
    return ic_kfail_in(c, (size_t)bad, 0, "does not broadcast with the other inputs of "
                       "masked_fill (X '%s', Mask '%s', Value '%s')", ic_in_name(c, IN_X, 0),
                       ic_in_name(c, IN_MASK, 0), ic_in_name(c, IN_VALUE, 0));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, nd, dims);
  return IC_OK;
}

/* Element strides of t in the broadcast index space of rank nd (0 where t broadcasts). */
static void strides(const ic_tensor *t, int nd, int64_t *st) {
  int64_t s = 1;
  for (int k = nd - 1; k >= 0; k--) {
    const int tk = k - (nd - t->ndim);
    if (tk < 0 || t->dims[tk] == 1) {
      st[k] = 0;
    } else {
      st[k] = s;
    }
    if (tk >= 0) s *= t->dims[tk];
  }
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *m = ic_in(c, IN_MASK, 0), *v = ic_in(c, IN_VALUE, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int nd = o->ndim;
  const int64_t n = ic_numel(nd, o->dims);
  if (n == 0) return IC_OK;
  const size_t es = ic_dtype_size(o->dtype);
  int64_t sx[IC_MAX_RANK], sm[IC_MAX_RANK], sv[IC_MAX_RANK], idx[IC_MAX_RANK] = {0};
  strides(x, nd, sx);
  strides(m, nd, sm);
  strides(v, nd, sv);
  const char *xp = x->data, *vp = v->data;
  const uint8_t *mp = m->data;
  char *op = o->data;
  int64_t ix = 0, im = 0, iv = 0;
  for (int64_t i = 0; i < n; i++) {
    memcpy(op + (size_t)i * es, mp[im] ? vp + (size_t)iv * es : xp + (size_t)ix * es, es);
    /* next index, odometer style */
    for (int k = nd - 1; k >= 0; k--) {
      ix += sx[k], im += sm[k], iv += sv[k];
      if (++idx[k] < o->dims[k]) break;
      ix -= sx[k] * o->dims[k], im -= sm[k] * o->dims[k], iv -= sv[k] * o->dims[k];
      idx[k] = 0;
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_masked_fill = {
    .name = "masked_fill", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
