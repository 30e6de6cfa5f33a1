/* hierarchical_sigmoid_grad (phi HSigmoidLossGradKernel): from the forward's PreOut (after
 * softrelu, so 1 - 1 / exp(PreOut) is the sigmoid of the clipped pre-activation),
 *   G[i][j] = (1 - 1 / exp(PreOut[i][j]) - bit(i, j)) * Out@GRAD[i]   for j < len(i)
 * (hsigmoid.h's paths; the clip's subgradient is ignored, as Paddle's is), then
 *   Bias@GRAD[index] += G[i][j], W@GRAD[index] += G[i][j] X[i], X@GRAD[i] += G[i][j] W[index]
 * in sample then path order, in X's precision. With is_sparse Paddle's W@GRAD is a
 * SelectedRows of the rows the paths touch; icore writes the same values dense (rows no path
 * touches are zero); Paddle's sparse kernel only takes a custom tree, and icore refuses
 * is_sparse without PathTable as it does. Every output is optional. float32 and float64. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/hsigmoid.h"

enum { IN_X, IN_W, IN_LABEL, IN_TABLE, IN_CODE, IN_BIAS, IN_PRE, IN_DOUT };
enum { OUT_DX, OUT_DW, OUT_DB };

static ic_status infer(ic_kctx *c) {
  const hs_attrs *a = c->attrs;
  int64_t width = 0;
  ic_status st = hs_check(c, a, IN_X, IN_W, IN_LABEL, IN_TABLE, IN_CODE, IN_BIAS, &width);
  if (st) return st;
  if (a->is_sparse && !ic_in(c, IN_TABLE, 0)) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED,
                    "hierarchical_sigmoid_grad: is_sparse needs a custom tree (PathTable and "
                    "PathCode), as Paddle's sparse kernel does");
  }
  const ic_tensor *x = ic_in(c, IN_X, 0), *w = ic_in(c, IN_W, 0), *pre = ic_in(c, IN_PRE, 0),
                  *g = ic_in(c, IN_DOUT, 0), *b = ic_in(c, IN_BIAS, 0);
  const int64_t pd[2] = {x->dims[0], width};
  if (pre->dtype != x->dtype || !ic_dims_equal(pre->ndim, pre->dims, 2, pd)) {
    return ic_kfail_in(c, IN_PRE, 0, "expected %s [%lld, %lld] (X's dtype, the forward's PreOut)",
                       ic_dtype_name(x->dtype), (long long)pd[0], (long long)pd[1]);
  }
  if (g->dtype != x->dtype || ic_tensor_numel_(g) != x->dims[0]) {
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s with %lld elements (one per row of X)",
                       ic_dtype_name(x->dtype), (long long)x->dims[0]);
  }
  if (ic_out(c, OUT_DX, 0)) ic_tensor_set_meta(ic_out(c, OUT_DX, 0), x->dtype, 2, x->dims);
  if (ic_out(c, OUT_DW, 0)) ic_tensor_set_meta(ic_out(c, OUT_DW, 0), w->dtype, w->ndim, w->dims);
  if (ic_out(c, OUT_DB, 0)) {
    if (!b) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                      "hierarchical_sigmoid_grad: Bias@GRAD '%s' is asked for without a Bias",
                      ic_out_name(c, OUT_DB, 0));
    }
    ic_tensor_set_meta(ic_out(c, OUT_DB, 0), b->dtype, b->ndim, b->dims);
  }
  return IC_OK;
}

#define BACKWARD(T, EXP)                                                                   \
  do {                                                                                     \
    const T *xp = x->data, *wp = w->data, *pp = pre->data, *gp = g->data;                  \
    T *dx = ic_out(c, OUT_DX, 0) ? ic_out(c, OUT_DX, 0)->data : NULL;                      \
    T *dw = ic_out(c, OUT_DW, 0) ? ic_out(c, OUT_DW, 0)->data : NULL;                      \
    T *db = ic_out(c, OUT_DB, 0) ? ic_out(c, OUT_DB, 0)->data : NULL;                      \
    if (dx) memset(dx, 0, sizeof(T) * (size_t)(N * D));                                   \
    if (dw) memset(dw, 0, sizeof(T) * (size_t)(R * D));                                   \
    if (db) memset(db, 0, sizeof(T) * (size_t)R);                                         \
    for (int64_t i = 0; i < N; i++) {                                                      \
      hs_path p;                                                                           \
      st = hs_get_path(c, a, IN_LABEL, IN_TABLE, IN_CODE, i, width, R, &p);                \
      if (st) return st;                                                                   \
      for (int j = 0; j < p.len; j++) {                                                    \
        T e = (T)1 / EXP(pp[i * width + j]);                                               \
        T v = (T)1 - e;                                                                    \
        if (hs_bit(&p, j)) v -= (T)1;                                                      \
        v *= gp[i];                                                                        \
        const int64_t r = hs_index(&p, j);                                                 \
        if (db) db[r] += v;                                                                \
        if (dw)                                                                            \
          for (int64_t k = 0; k < D; k++) dw[r * D + k] += v * xp[i * D + k];              \
        if (dx)                                                                            \
          for (int64_t k = 0; k < D; k++) dx[i * D + k] += v * wp[r * D + k];              \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const hs_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *w = ic_in(c, IN_W, 0), *pre = ic_in(c, IN_PRE, 0),
                  *g = ic_in(c, IN_DOUT, 0);
  int64_t width = 0;
  ic_status st = hs_check(c, a, IN_X, IN_W, IN_LABEL, IN_TABLE, IN_CODE, IN_BIAS, &width);
  if (st) return st;
  const int64_t N = x->dims[0], D = x->dims[1], R = w->dims[0];
  if (x->dtype == IC_FP32) BACKWARD(float, expf);
  else BACKWARD(double, exp);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0},         {"W", 0},    {"Label", 0},   {"PathTable", IC_SLOT_OPTIONAL},
    {"PathCode", IC_SLOT_OPTIONAL}, {"Bias", IC_SLOT_OPTIONAL}, {"PreOut", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                     {"W@GRAD", IC_SLOT_OPTIONAL},
                                     {"Bias@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_hierarchical_sigmoid_grad = {
    .name = "hierarchical_sigmoid_grad",
    .n_inputs = 8, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(hs_attrs), .parse = hs_parse,
    .infer = infer, .cpu = run,
};
