/* masked_select_grad: for Y = the elements of X where Mask is true, in row-major order of
 * X and Mask broadcast together (masked_select), X@GRAD = Y@GRAD's elements put back at
 * those places, 0 elsewhere (phi MaskedSelectGradKernel); where X itself was broadcast the
 * places it fed add up. Inputs X (meta only), Mask (bool), Y@GRAD (1-D, one element per true
 * mask place); float32 and float64. */
#include "kernels/cpu/kgrad.h"

enum { IN_X, IN_MASK, IN_DOUT };
static const ic_slotdef k_inputs[3] = {{"X", IC_SLOT_NO_BUFFER}, {"Mask", 0}, {"Y@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

/* The broadcast dims of X and Mask (numpy rules); rank, or -1 if they do not broadcast. */
static int bdims(const ic_tensor *x, const ic_tensor *m, int64_t *d) {
  const int r = x->ndim > m->ndim ? x->ndim : m->ndim;
  for (int i = 0; i < r; i++) {
    const int ix = i - (r - x->ndim), im = i - (r - m->ndim);
    const int64_t a = ix >= 0 ? x->dims[ix] : 1, b = im >= 0 ? m->dims[im] : 1;
    if (a != b && a != 1 && b != 1) return -1;
    d[i] = a == 1 ? b : a;
  }
  return r;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_MASK, 0, IC_DT(IC_BOOL));
  if (st || (st = ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT))) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *m = ic_in(c, IN_MASK, 0), *g = ic_in(c, IN_DOUT, 0);
  int64_t d[IC_MAX_RANK];
  if (bdims(x, m, d) < 0) {
    char s[128];
    return ic_kfail_in(c, IN_MASK, 0, "does not broadcast with X's dims %s",
                       ic_dims_str(x->ndim, x->dims, s, sizeof s));
  }
  if (g->ndim != 1) return ic_kfail_in(c, IN_DOUT, 0, "expected rank 1 (masked_select's Y)");
  kg_out(c, 0, g->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *m = ic_in(c, IN_MASK, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int64_t d[IC_MAX_RANK], xs[IC_MAX_RANK], ms[IC_MAX_RANK], pos[IC_MAX_RANK] = {0};
  const int r = bdims(x, m, d);
  int64_t sx = 1, sm = 1;
  for (int i = r - 1; i >= 0; i--) {
    const int ix = i - (r - x->ndim), im = i - (r - m->ndim);
    const int64_t a = ix >= 0 ? x->dims[ix] : 1, b = im >= 0 ? m->dims[im] : 1;
    xs[i] = a == 1 ? 0 : sx;
    ms[i] = b == 1 ? 0 : sm;
    sx *= a;
    sm *= b;
  }
  const int64_t n = ic_numel(r, d), ng = g->dims[0];
  const uint8_t *mp = m->data;
  int64_t count = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t at = 0;
    for (int j = 0; j < r; j++) at += pos[j] * ms[j];
    count += mp[at] != 0;
    for (int j = r - 1; j >= 0 && ++pos[j] == d[j]; j--) pos[j] = 0;
  }
  if (count != ng) {
    return ic_kfail_in(c, IN_DOUT, 0, "expected %lld elements, one per true Mask place",
                       (long long)count);
  }
  kg_zero(dx);
  memset(pos, 0, sizeof pos);
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t at = 0, xat = 0;
    for (int j = 0; j < r; j++) {
      at += pos[j] * ms[j];
      xat += pos[j] * xs[j];
    }
    if (mp[at]) kg_add(dx, xat, kg_get(g, k++));
    for (int j = r - 1; j >= 0 && ++pos[j] == d[j]; j--) pos[j] = 0;
  }
  return IC_OK;
}

const ic_opdef ic_op_masked_select_grad = {
    .name = "masked_select_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
