/* einsum_grad: the gradients of einsum's operands (phi EinsumGradKernel), from Out@GRAD and,
 * with two operands, the operands as einsum gathered them for its product (InnerCache[o]:
 * [batch, free0, contraction] / [batch, contraction, free1], labels in order of first
 * appearance, each at its full (broadcast) size, labels only in that operand and not the
 * output already summed, left as trailing dims of 1; einsum.c writes them as Paddle does).
 * With G = Out@GRAD, TA, TB the caches, every sum over the label space, in double, rounded
 * once:
 *   one operand:  A@GRAD[a] = G[c] for every assignment of A's labels (A's own labels not in
 *                 the output take G tiled over them);
 *   two:          A@GRAD[a] += G[c] TB[b'] and B@GRAD[b] += G[c] TA[a'] over the labels of
 *                 the output, the contraction and the operand's own summed labels.
 * A's index a runs through its original dims (x_shape: a dim of 1 where the label is wider
 * was broadcast, so its gradient sums over the label; a repeated label is a diagonal, the
 * gradient 0 off it). Inputs InnerCache (two operands: one per operand), Out@GRAD, x_shape
 * (the operands' dims: einsum's XShape, meta only); output Operands@GRAD (one per operand,
 * each optional); attribute equation. Float32 and float64. */
#include "kernels/cpu/einsum.h"
#include "kernels/cpu/kgrad.h"

enum { IN_CACHE, IN_DOUT, IN_XSHAPE };
static const ic_slotdef k_inputs[3] = {{"InnerCache", IC_SLOT_OPTIONAL | IC_SLOT_MULTI},
                                       {"Out@GRAD", 0},
                                       {"x_shape", IC_SLOT_MULTI | IC_SLOT_NO_BUFFER}};
static const ic_slotdef k_outputs[1] = {{"Operands@GRAD", IC_SLOT_MULTI | IC_SLOT_OPTIONAL}};

/* Each label's size from the operands' dims (x_shape), a 1 giving way to another size. */
static ic_status sizes(ic_kctx *c, int64_t size[N_LABELS]) {
  const einsum_attrs *a = c->attrs;
  for (int l = 0; l < N_LABELS; l++) size[l] = -1;
  for (int o = 0; o < a->n_ops; o++) {
    const ic_tensor *t = ic_in(c, IN_XSHAPE, (size_t)o);
    if ((size_t)t->ndim != strlen(a->ops[o])) {
      return ic_kfail_in(c, IN_XSHAPE, (size_t)o, "expected rank %zu, one dim per label of "
                         "\"%s\"", strlen(a->ops[o]), a->ops[o]);
    }
    for (int k = 0; k < t->ndim; k++) {
      int64_t *s = &size[a->ops[o][k] - 'a'];
      const int64_t d = t->dims[k];
      const char *first = strchr(a->ops[o], a->ops[o][k]);
      if (first - a->ops[o] < k && t->dims[first - a->ops[o]] != d) {
        return ic_kfail_in(c, IN_XSHAPE, (size_t)o, "repeats label '%c' over dims of sizes "
                           "%lld and %lld", a->ops[o][k],
                           (long long)t->dims[first - a->ops[o]], (long long)d);
      }
      if (*s < 0 || *s == 1) *s = d;
      else if (d != 1 && d != *s) {
        return ic_kfail_in(c, IN_XSHAPE, (size_t)o, "gives label '%c' size %lld where it has "
                           "%lld elsewhere", a->ops[o][k], (long long)d, (long long)*s);
      }
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const einsum_attrs *a = c->attrs;
  const size_t n = (size_t)a->n_ops;
  if (c->in[IN_XSHAPE].n != n || c->out[0].n > n) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "einsum_grad: the equation has %zu operand(s); "
                    "x_shape lists %zu and Operands@GRAD %zu, expected one per operand", n,
                    c->in[IN_XSHAPE].n, c->out[0].n);
  }
  ic_status st = ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT);
  if (st) return st;
  int64_t size[N_LABELS];
  if ((st = sizes(c, size))) return st;
  const ic_tensor *g = ic_in(c, IN_DOUT, 0);
  const int no = (int)strlen(a->out);
  int64_t od[IC_MAX_RANK];
  for (int k = 0; k < no; k++) od[k] = size[a->out[k] - 'a'];
  if ((st = kg_expect(c, IN_DOUT, g->dtype, no, od, "einsum's Out"))) return st;
  if (n == 2) {
    if (c->in[IN_CACHE].n != 2) {
      return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "einsum_grad: input InnerCache lists %zu "
                      "variables, expected the 2 einsum wrote (its gathered operands)",
                      c->in[IN_CACHE].n);
    }
    for (int o = 0; o < 2; o++) {
      int keep[N_LABELS];
      const int nk = ic_einsum_cache_labels(a, o, keep);
      int64_t cd[N_LABELS];
      for (int k = 0; k < nk; k++) cd[k] = size[keep[k]];
      if (nk > IC_MAX_RANK) return ic_kfail_in(c, IN_CACHE, (size_t)o, "has too many labels");
      /* Paddle keeps the operand's summed labels as trailing dims of 1 */
      const ic_tensor *t = ic_in(c, IN_CACHE, (size_t)o);
      bool ok = t->dtype == g->dtype && t->ndim >= nk;
      for (int k = 0; ok && k < t->ndim; k++) ok = t->dims[k] == (k < nk ? cd[k] : 1);
      if (!ok) {
        char b[160];
        return ic_kfail_in(c, IN_CACHE, (size_t)o, "expected %s%s (operand %d as einsum "
                           "gathered it)", ic_dtype_name(g->dtype),
                           ic_dims_str(nk, cd, b, sizeof b), o);
      }
    }
  }
  for (size_t o = 0; o < c->out[0].n; o++) {
    ic_tensor *t = ic_out(c, 0, o);
    const ic_tensor *x = ic_in(c, IN_XSHAPE, o);
    if (t) ic_tensor_set_meta(t, g->dtype, x->ndim, x->dims);
  }
  return IC_OK;
}

/* Element strides per label (0 where absent) of a tensor labelled lab with dims d: a dim of 1
 * is broadcast (stride 0); a repeated label adds its dims' strides (the diagonal). */
static void strides(const char *lab, int nd, const int64_t *d, int64_t st[N_LABELS]) {
  memset(st, 0, N_LABELS * sizeof *st);
  int64_t s = 1;
  for (int k = nd - 1; k >= 0; k--) {
    if (d[k] != 1) st[lab[k] - 'a'] += s;
    s *= d[k];
  }
}

/* acc[target] += G[out] (other ? other[...] : 1) over every assignment of labels u[0..nu). */
static void accumulate(double *acc, const int64_t *ts, const ic_tensor *g, const int64_t *gs,
                       const ic_tensor *other, const int64_t *os, const int *u, int nu,
                       const int64_t *size) {
  int64_t idx[N_LABELS] = {0}, total = 1;
  for (int k = 0; k < nu; k++) total *= size[u[k]];
  int64_t t = 0, go = 0, oo = 0;
  for (int64_t i = 0; i < total; i++) {
    acc[t] += kg_get(g, go) * (other ? kg_get(other, oo) : 1.0);
    for (int k = nu - 1; k >= 0; k--) {
      const int l = u[k];
      t += ts[l];
      go += gs[l];
      oo += os[l];
      if (++idx[k] < size[l]) break;
      t -= ts[l] * size[l];
      go -= gs[l] * size[l];
      oo -= os[l] * size[l];
      idx[k] = 0;
    }
  }
}

static ic_status run(ic_kctx *c) {
  const einsum_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, IN_DOUT, 0);
  int64_t size[N_LABELS], gs[N_LABELS];
  ic_status st = sizes(c, size);
  if (st) return st;
  int64_t od[IC_MAX_RANK];
  const int no = (int)strlen(a->out);
  for (int k = 0; k < no; k++) od[k] = size[a->out[k] - 'a'];
  strides(a->out, no, od, gs);
  for (size_t o = 0; o < c->out[0].n; o++) {
    ic_tensor *dx = ic_out(c, 0, o);
    if (!dx) continue;
    const ic_tensor *x = ic_in(c, IN_XSHAPE, o);
    const int64_t nx = ic_tensor_numel_(x);
    int64_t ts[N_LABELS], os[N_LABELS] = {0};
    strides(a->ops[o], x->ndim, x->dims, ts);
    /* the labels summed over: the output's, then (two operands) the contraction's and this
     * operand's own reduced ones; unary: this operand's reduced ones */
    int u[N_LABELS], nu = 0;
    bool in_u[N_LABELS] = {false};
    for (int k = 0; k < no; k++) in_u[u[nu++] = a->out[k] - 'a'] = true;
    for (int k = 0; k < a->nc; k++)
      if (!in_u[a->con[k]]) in_u[u[nu++] = a->con[k]] = true;
    for (int k = 0; k < a->nr[o]; k++)
      if (!in_u[a->red[o][k]]) in_u[u[nu++] = a->red[o][k]] = true;
    const ic_tensor *other = NULL;
    if (a->n_ops == 2) {
      other = ic_in(c, IN_CACHE, 1 - o);
      int keep[N_LABELS];
      const int nk = ic_einsum_cache_labels(a, (int)(1 - o), keep);
      int64_t s = 1;
      for (int k = nk - 1; k >= 0; k--) {
        os[keep[k]] = s;
        s *= size[keep[k]];
      }
    }
    ic_buffer *b = ic_kscratch(c, (size_t)(nx + 1) * sizeof(double));
    if (!b) return c->err->code;
    double *acc = b->data;
    memset(acc, 0, (size_t)nx * sizeof(double));
    if (ic_tensor_numel_(g) > 0) accumulate(acc, ts, g, gs, other, os, u, nu, size);
    ic_store_acc(dx, acc);
    ic_buffer_release(b);
  }
  return IC_OK;
}

const ic_opdef ic_op_einsum_grad = {
    .name = "einsum_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(einsum_attrs), .parse = ic_einsum_parse,
    .infer = infer, .cpu = run,
};
