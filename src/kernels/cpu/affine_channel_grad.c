/* affine_channel_grad (paddle/fluid/operators/affine_channel_op.cc): from Out = X * Scale[c]
 * + Bias[c], with g = Out@GRAD:
 *   X@GRAD = g * Scale[c],   Scale@GRAD[c] = the sum of g * X over channel c,
 *   Bias@GRAD[c] = the sum of g over channel c;
 * each output optional, the sums in double rounded once. data_layout as affine_channel
 * (NCHW: dim 1; otherwise the last dim). float32 or float64. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_SCALE, IN_BIAS, IN_DOUT };
enum { OUT_DX, OUT_DSCALE, OUT_DBIAS };

typedef struct acg_attrs {
  bool nchw;
} acg_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  acg_attrs *a = attrs;
  const char *l = ic_ar_str(r, "data_layout", "AnyLayout");
  if (r->st) return r->st;
  char up[16] = {0};
  for (size_t i = 0; i + 1 < sizeof up && l[i]; i++) up[i] = (char)toupper((unsigned char)l[i]);
  a->nchw = !strcmp(up, "NCHW");
  if (!a->nchw && strcmp(up, "NHWC") && strcmp(up, "ANYLAYOUT")) {
    return ic_ar_fail(r, "data_layout", "is '%s', expected NCHW, NHWC or AnyLayout", l);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const acg_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *s = ic_in(c, IN_SCALE, 0), *g = ic_in(c, IN_DOUT, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim < 2) return ic_kfail_in(c, IN_X, 0, "expected rank >= 2 ([N, C, ...])");
  const int64_t C = a->nchw ? x->dims[1] : x->dims[x->ndim - 1];
  if (s->dtype != x->dtype || s->ndim != 1 || s->dims[0] != C) {
    return ic_kfail_in(c, IN_SCALE, 0, "expected %s[%lld] (one value per channel of X)",
                       ic_dtype_name(x->dtype), (long long)C);
  }
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, x->ndim, x->dims)) {
    char d[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
  }
  if (ic_out(c, OUT_DX, 0)) ic_tensor_set_meta(ic_out(c, OUT_DX, 0), x->dtype, x->ndim, x->dims);
  for (size_t o = OUT_DSCALE; o <= OUT_DBIAS; o++) {
    if (ic_out(c, o, 0)) ic_tensor_set_meta(ic_out(c, o, 0), x->dtype, 1, &C);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const acg_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *s = ic_in(c, IN_SCALE, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, OUT_DX, 0), *ds = ic_out(c, OUT_DSCALE, 0), *db = ic_out(c, OUT_DBIAS, 0);
  const int64_t C = a->nchw ? x->dims[1] : x->dims[x->ndim - 1], n = ic_tensor_numel_(x);
  int64_t inner = 1; /* elements between two channels (NCHW: H * W; otherwise 1) */
  if (a->nchw) {
    for (int d = 2; d < x->ndim; d++) inner *= x->dims[d];
  }
  ic_buffer *b = ic_kscratch(c, (size_t)(2 * C + 1) * sizeof(double));
  if (!b) return c->err->code;
  double *as = b->data, *ab = as + C;
  memset(as, 0, (size_t)(2 * C) * sizeof(double));
  const bool f64 = x->dtype == IC_FP64;
  for (int64_t k = 0; k < n; k++) {
    const int64_t ch = (k / inner) % C;
    const double gv = ic_read_f64(g, k);
    if (dx) {
      if (f64) ((double *)dx->data)[k] = gv * ((const double *)s->data)[ch];
      else ((float *)dx->data)[k] = ((const float *)g->data)[k] * ((const float *)s->data)[ch];
    }
    as[ch] += gv * ic_read_f64(x, k);
    ab[ch] += gv;
  }
  for (int64_t ch = 0; ch < C; ch++) {
    if (ds && f64) ((double *)ds->data)[ch] = as[ch];
    else if (ds) ((float *)ds->data)[ch] = (float)as[ch];
    if (db && f64) ((double *)db->data)[ch] = ab[ch];
    else if (db) ((float *)db->data)[ch] = (float)ab[ch];
  }
  ic_buffer_release(b);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0}, {"Scale", 0}, {"Bias", IC_SLOT_OPTIONAL}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {
    {"X@GRAD", IC_SLOT_OPTIONAL}, {"Scale@GRAD", IC_SLOT_OPTIONAL}, {"Bias@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_affine_channel_grad = {
    .name = "affine_channel_grad",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(acg_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
