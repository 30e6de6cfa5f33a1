/* einsum: Out = the Einstein sum of one or two Operands by `equation`, as Paddle's EinsumOp
 * computes it (paddle/phi/kernels/impl/einsum_impl.h, EinsumInferMeta): the equation is the
 * explicit form the Python API writes ("bij,bjk->bik": labels 'a'-'z', "..." already replaced
 * by unused letters and the operands unsqueezed to match, "->" always present). A label of
 * size 1 broadcasts against the same label elsewhere; a label repeated within an operand takes
 * its diagonal; a label in one operand only and not in the output is summed over. Labels are
 * typed as Paddle types them: in both operands and the output (batch), in one operand and the
 * output (free), in both and not the output (contraction), in one only (reduction).
 *
 * Each operand is gathered once into [batch, free, contraction] order (the first, with its
 * free labels before the contraction ones) or [batch, contraction, free] (the second), its
 * reduction labels summed in double then rounded, diagonals and broadcasts taken through the
 * strides; then one matrix product per batch index (ic_gemm_run), then the output's order.
 * float32 and float64. InnerCache[o] receives operand o as gathered for the product (Paddle's
 * cache, which einsum_grad reads: [batch, free0, contraction] / [batch, contraction, free1],
 * labels in order of first appearance, then a dim of 1 per label summed away, as Paddle
 * 3.3.1 lays it out); XShape gets the
 * operands' dims only. */
#include <string.h>

#include "kernels/cpu/einsum.h"
#include "kernels/cpu/gemm.h"

static void classify(einsum_attrs *a) {
  bool seen[N_LABELS] = {false};
  for (int o = 0; o < a->n_ops; o++) {
    for (const char *p = a->ops[o]; *p; p++) {
      const int l = *p - 'a';
      if (seen[l]) continue;
      seen[l] = true;
      const bool in0 = strchr(a->ops[0], *p) != NULL;
      const bool both = in0 && a->n_ops == 2 && strchr(a->ops[1], *p) != NULL;
      const bool kept = strchr(a->out, *p) != NULL;
      if (both && kept) a->batch[a->nb++] = l;
      else if (both) a->con[a->nc++] = l;
      else if (kept && in0) a->free0[a->nf0++] = l;
      else if (kept) a->free1[a->nf1++] = l;
      else a->red[o][a->nr[o]++] = l;
    }
  }
}

int ic_einsum_cache_labels(const einsum_attrs *a, int o, int *keep) {
  int n = 0;
  for (int k = 0; k < a->nb; k++) keep[n++] = a->batch[k];
  if (o == 0) {
    for (int k = 0; k < a->nf0; k++) keep[n++] = a->free0[k];
    for (int k = 0; k < a->nc; k++) keep[n++] = a->con[k];
  } else {
    for (int k = 0; k < a->nc; k++) keep[n++] = a->con[k];
    for (int k = 0; k < a->nf1; k++) keep[n++] = a->free1[k];
  }
  return n;
}

enum { IN_OPERANDS };
enum { OUT_OUT, OUT_CACHE, OUT_XSHAPE };

ic_status ic_einsum_parse(ic_attr_reader *r, void *attrs) {
  einsum_attrs *a = attrs;
  const char *eq = ic_ar_str(r, "equation", NULL);
  if (r->st) return r->st;
  if (!eq) return ic_ar_fail(r, "equation", "is missing");
  const char *arrow = strstr(eq, "->");
  if (!arrow || strstr(arrow + 2, "->")) {
    return ic_ar_fail(r, "equation", "is \"%s\", expected one \"->\" (the explicit form)", eq);
  }
  int op = 0, len = 0;
  for (const char *p = eq; p < arrow; p++) {
    if (*p == ',') {
      if (++op >= 2) return ic_ar_fail(r, "equation", "is \"%s\": more than two operands", eq);
      len = 0;
      continue;
    }
    if (*p < 'a' || *p > 'z') {
      return ic_ar_fail(r, "equation", "is \"%s\": '%c' is not a label 'a'-'z'", eq, *p);
    }
    if (len >= IC_MAX_RANK) {
      return ic_ar_fail(r, "equation", "is \"%s\": an operand has more than %d labels", eq,
                        IC_MAX_RANK);
    }
    a->ops[op][len++] = *p;
  }
  a->n_ops = op + 1;
  len = 0;
  for (const char *p = arrow + 2; *p; p++) {
    if (*p < 'a' || *p > 'z') {
      return ic_ar_fail(r, "equation", "is \"%s\": output '%c' is not a label 'a'-'z'", eq, *p);
    }
    if (strchr(a->out, *p)) {
      return ic_ar_fail(r, "equation", "is \"%s\": output label '%c' repeats", eq, *p);
    }
    if (!strchr(a->ops[0], *p) && !strchr(a->ops[1], *p)) {
      return ic_ar_fail(r, "equation", "is \"%s\": output label '%c' is in no operand", eq, *p);
    }
    if (len >= IC_MAX_RANK) {
      return ic_ar_fail(r, "equation", "is \"%s\": the output has more than %d labels", eq,
                        IC_MAX_RANK);
    }
    a->out[len++] = *p;
  }
  classify(a);
  return IC_OK;
}

/* Each label's size: the operands' dims, where a 1 gives way to another size (broadcast). */
static ic_status label_sizes(ic_kctx *c, int64_t size[N_LABELS]) {
  const einsum_attrs *a = c->attrs;
  for (int l = 0; l < N_LABELS; l++) size[l] = -1;
  for (int o = 0; o < a->n_ops; o++) {
    const ic_tensor *t = ic_in(c, IN_OPERANDS, (size_t)o);
    for (int k = 0; k < t->ndim; k++) {
      int64_t *s = &size[a->ops[o][k] - 'a'];
      const int64_t d = t->dims[k];
      if (*s < 0 || *s == 1) {
        *s = d;
      } else if (d != 1 && d != *s) {
        return ic_kfail_in(c, IN_OPERANDS, (size_t)o,
                           "gives label '%c' (dim %d) size %lld where it has %lld elsewhere "
                           "in \"%s\"", a->ops[o][k], k, (long long)d, (long long)*s,
                           a->ops[o]);
      }
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const einsum_attrs *a = c->attrs;
  if (c->in[IN_OPERANDS].n != (size_t)a->n_ops) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                    "the equation has %d operand(s), the op lists %zu in Operands", a->n_ops,
                    c->in[IN_OPERANDS].n);
  }
  const ic_tensor *x0 = ic_in(c, IN_OPERANDS, 0);
  for (int o = 0; o < a->n_ops; o++) {
    ic_status st = ic_kcheck_dtype(c, IN_OPERANDS, (size_t)o, IC_DT_FLOAT);
    if (st) return st;
    const ic_tensor *t = ic_in(c, IN_OPERANDS, (size_t)o);
    if (t->dtype != x0->dtype) {
      return ic_kfail_in(c, IN_OPERANDS, (size_t)o, "expected the dtype of '%s' (%s)",
                         ic_in_name(c, IN_OPERANDS, 0), ic_dtype_name(x0->dtype));
    }
    if ((size_t)t->ndim != strlen(a->ops[o])) {
      return ic_kfail_in(c, IN_OPERANDS, (size_t)o, "expected rank %zu, one dim per label of "
                         "\"%s\"", strlen(a->ops[o]), a->ops[o]);
    }
    for (int k = 0; k < t->ndim; k++) {
      const char *first = strchr(a->ops[o], a->ops[o][k]);
      if (first - a->ops[o] < k && t->dims[first - a->ops[o]] != t->dims[k]) {
        return ic_kfail_in(c, IN_OPERANDS, (size_t)o, "repeats label '%c' (a diagonal) over "
                           "dims of sizes %lld and %lld", a->ops[o][k],
                           (long long)t->dims[first - a->ops[o]], (long long)t->dims[k]);
      }
    }
  }
  int64_t size[N_LABELS];
  ic_status st = label_sizes(c, size);
  if (st) return st;
  const int nd = (int)strlen(a->out);
  int64_t dims[IC_MAX_RANK];
  for (int k = 0; k < nd; k++) dims[k] = size[a->out[k] - 'a'];
  ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x0->dtype, nd, dims);
  for (size_t o = 0; o < c->out[OUT_XSHAPE].n; o++) {
    const ic_tensor *t = ic_in(c, IN_OPERANDS, o < (size_t)a->n_ops ? o : 0);
    ic_tensor_set_meta(ic_out(c, OUT_XSHAPE, o), t->dtype, t->ndim, t->dims);
  }
  for (size_t o = 0; o < c->out[OUT_CACHE].n; o++) {
    /* operand o as the product reads it (einsum_grad's input): see ic_einsum_cache_labels */
    int keep[N_LABELS];
    const int nk = o < (size_t)a->n_ops ? ic_einsum_cache_labels(a, (int)o, keep) : 0;
    /* then a 1 per label summed away, as Paddle's cache keeps them */
    const int nc = nk + (o < (size_t)a->n_ops ? a->nr[o] : 0);
    int64_t cdims[IC_MAX_RANK];
    if (nc > IC_MAX_RANK) {
      return ic_kfail_in(c, IN_OPERANDS, o, "gives InnerCache %d dims, more than %d", nc,
                         IC_MAX_RANK);
    }
    for (int k = 0; k < nc; k++) cdims[k] = k < nk ? size[keep[k]] : 1;
    ic_tensor_set_meta(ic_out(c, OUT_CACHE, o), x0->dtype, nc, cdims);
  }
  return IC_OK;
}

/* dst (contiguous, keep's labels in order, last fastest) = x summed over red's labels; x's
 * element strides per label in ls (0: broadcast; a repeated label: the sum of its dims'
 * strides, so one index walks the diagonal). */
static void gather(const void *x, bool f64, const int64_t ls[N_LABELS], const int64_t *size,
                   const int *keep, int nk, const int *red, int nr, void *dst) {
  int64_t n = 1, inner = 1;
  for (int k = 0; k < nk; k++) n *= size[keep[k]];
  for (int k = 0; k < nr; k++) inner *= size[red[k]];
  int64_t ki[N_LABELS] = {0}, ri[N_LABELS] = {0};
  int64_t base = 0;
  for (int64_t i = 0; i < n; i++) {
    double acc = 0;
    int64_t off = base;
    for (int64_t j = 0; j < inner; j++) {
      acc += f64 ? ((const double *)x)[off] : (double)((const float *)x)[off];
      for (int k = nr - 1; k >= 0; k--) {
        const int l = red[k];
        off += ls[l];
        if (++ri[k] < size[l]) break;
        off -= ls[l] * size[l];
        ri[k] = 0;
      }
    }
    if (f64) ((double *)dst)[i] = acc;
    else ((float *)dst)[i] = (float)acc;
    for (int k = nk - 1; k >= 0; k--) {
      const int l = keep[k];
      base += ls[l];
      if (++ki[k] < size[l]) break;
      base -= ls[l] * size[l];
      ki[k] = 0;
    }
  }
}

/* Element strides per label of operand t labelled lab (see gather). */
static void label_strides(const ic_tensor *t, const char *lab, int64_t ls[N_LABELS]) {
  memset(ls, 0, N_LABELS * sizeof *ls);
  int64_t s = 1;
  for (int k = t->ndim - 1; k >= 0; k--) {
    if (t->dims[k] != 1) ls[lab[k] - 'a'] += s;
    s *= t->dims[k];
  }
}

static int64_t prod(const int64_t *size, const int *l, int n) {
  int64_t p = 1;
  for (int k = 0; k < n; k++) p *= size[l[k]];
  return p;
}

static ic_status run(ic_kctx *c) {
  const einsum_attrs *a = c->attrs;
  ic_tensor *out = ic_out(c, OUT_OUT, 0);
  const bool f64 = out->dtype == IC_FP64;
  const size_t es = f64 ? sizeof(double) : sizeof(float);
  if (ic_tensor_numel_(out) == 0) {
    for (size_t o = 0; o < c->out[OUT_CACHE].n; o++) {
      ic_tensor *cache = ic_out(c, OUT_CACHE, o);
      if (cache) memset(cache->data, 0, (size_t)ic_tensor_numel_(cache) * es);
    }
    return IC_OK;
  }
  int64_t size[N_LABELS];
  ic_status st = label_sizes(c, size);
  if (st) return st;
  const int *batch = a->batch, *free0 = a->free0, *free1 = a->free1, *con = a->con;
  const int nb = a->nb, nf0 = a->nf0, nf1 = a->nf1, nc = a->nc;
  const int64_t B = prod(size, batch, nb), M = prod(size, free0, nf0);
  const int64_t K = prod(size, con, nc), N = prod(size, free1, nf1);
  int keep[2][N_LABELS], nk[2] = {0, 0};
  /* operand 0: [batch, free0, contraction]; operand 1: [batch, contraction, free1] */
  for (int o = 0; o < a->n_ops; o++) nk[o] = ic_einsum_cache_labels(a, o, keep[o]);
  const size_t n0 = (size_t)(B * M * K), n1 = a->n_ops == 2 ? (size_t)(B * K * N) : 0;
  const size_t nres = a->n_ops == 2 ? (size_t)(B * M * N) : 0;
  ic_buffer *scratch = ic_kscratch(c, (n0 + n1 + nres) * es + 1);
  if (!scratch) return c->err->code;
  char *p0 = scratch->data, *p1 = p0 + n0 * es, *res = p1 + n1 * es;
  int64_t ls[N_LABELS];
  for (int o = 0; o < a->n_ops; o++) {
    const ic_tensor *t = ic_in(c, IN_OPERANDS, (size_t)o);
    label_strides(t, a->ops[o], ls);
    gather(t->data, f64, ls, size, keep[o], nk[o], a->red[o], a->nr[o], o ? p1 : p0);
    /* InnerCache[o]: this gathered operand, which einsum_grad reads (Paddle's cache) */
    ic_tensor *cache = ic_out(c, OUT_CACHE, (size_t)o);
    if (cache) memcpy(cache->data, o ? p1 : p0, (o ? n1 : n0) * es);
  }
  /* The result in [batch, free0, free1] order (one operand: [free0]), then Out's order. */
  int rl[N_LABELS], nrl = 0;
  const char *rdata = p0;
  for (int k = 0; k < nb; k++) rl[nrl++] = batch[k];
  for (int k = 0; k < nf0; k++) rl[nrl++] = free0[k];
  if (a->n_ops == 2) {
    for (int k = 0; k < nf1; k++) rl[nrl++] = free1[k];
    ic_gemm g = {.dtype = out->dtype, .m = M, .n = N, .k = K, .lda = K, .ldb = N, .ldc = N,
                 .alpha = 1.0, .beta = 0.0};
    if ((st = ic_gemm_check(c, &g))) {
      ic_buffer_release(scratch);
      return st;
    }
    for (int64_t b = 0; b < B; b++) {
      ic_gemm_run(c, &g, p0 + (size_t)(b * M * K) * es, p1 + (size_t)(b * K * N) * es,
                  res + (size_t)(b * M * N) * es);
    }
    rdata = res;
  }
  for (size_t o = (size_t)a->n_ops; o < c->out[OUT_CACHE].n; o++) { /* caches past the operands */
    ic_tensor *cache = ic_out(c, OUT_CACHE, o);
    if (cache) memset(cache->data, 0, (size_t)ic_tensor_numel_(cache) * es);
  }
  memset(ls, 0, sizeof ls);
  int64_t s = 1;
  for (int k = nrl - 1; k >= 0; k--) {
    ls[rl[k]] = s;
    s *= size[rl[k]];
  }
  int ol[IC_MAX_RANK];
  const int no = (int)strlen(a->out);
  for (int k = 0; k < no; k++) ol[k] = a->out[k] - 'a';
  gather(rdata, f64, ls, size, ol, no, NULL, 0, out->data);
  ic_buffer_release(scratch);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Operands", IC_SLOT_MULTI}};
static const ic_slotdef outputs[] = {
    {"Out", 0},
    {"InnerCache", IC_SLOT_OPTIONAL | IC_SLOT_MULTI},
    {"XShape", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_NO_BUFFER},
};

const ic_opdef ic_op_einsum = {
    .name = "einsum", .n_inputs = 1, .inputs = inputs, .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(einsum_attrs), .parse = ic_einsum_parse, .infer = infer, .cpu = run,
};
