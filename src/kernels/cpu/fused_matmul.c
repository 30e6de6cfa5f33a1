/* fused_matmul: matmul_v2 with what Paddle's oneDNN passes fold into it
 * (matmul_activation / matmul_elementwise_add / matmul_transpose_reshape /
 * reshape_transpose_matmul / scale_matmul fuse passes; phi/kernels/fusion/onednn/
 * fused_matmul_kernel.cc, FusedMatmulInferMeta). float32:
 *   X' = transpose(reshape(X, fused_reshape_X), fused_transpose_X) when both are given (reshape
 *        with 0 copying the dim and -1 taking the rest), else X; Y' likewise;
 *   R  = matmul_v2(X', Y') with trans_x / trans_y (numpy broadcasting of the batch dims; a
 *        1-D operand is a row / column whose axis is dropped again);
 *   R' = transpose(R, [0, 2, 1, 3]) reshaped to fused_reshape_Out when fused_reshape_Out and
 *        fused_transpose_Out are given (Paddle's kernel writes that permutation whatever
 *        fused_transpose_Out says, so only [0, 2, 1, 3] and a 4-D R are accepted), else R;
 *   Out = act(matmul_alpha * R' + ResidualData) * fused_output_scale,
 * act the oneDNN post-op fuse_activation (onednn_act.h), ResidualData (optional) holding
 * Out's element count in Out's order. The int8 scales (Scale_x, Scale_y, Scale_out) must be 1
 * and Scale_in_eltwise 0 with ResidualData (its oneDNN sum reads the output buffer); the
 * products run through icore's matmul_v2, the epilogue in double, rounded once. */
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/matmul_v2.h"
#include "kernels/cpu/onednn_act.h"
#include "kernels/kernel.h"

enum { IN_X, IN_Y, IN_RES };

typedef struct fmm_attrs {
  bool trans_x, trans_y;
  double alpha, out_scale;
  ic_oda act;
  const int64_t *rs[3], *tr[3]; /* fused_reshape_ / fused_transpose_ of X, Y, Out */
  size_t nrs[3], ntr[3];
} fmm_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fmm_attrs *a = attrs;
  static const char *const rs[3] = {"fused_reshape_X", "fused_reshape_Y", "fused_reshape_Out"};
  static const char *const tr[3] = {"fused_transpose_X", "fused_transpose_Y",
                                    "fused_transpose_Out"};
  a->trans_x = ic_ar_bool(r, "trans_x", false);
  a->trans_y = ic_ar_bool(r, "trans_y", false);
  a->alpha = (float)ic_ar_float(r, "matmul_alpha", 1.0);
  a->out_scale = (float)ic_ar_float(r, "fused_output_scale", 1.0);
  for (int i = 0; i < 3; i++) {
    ic_ar_ints(r, rs[i], false, &a->rs[i], &a->nrs[i]);
    ic_ar_ints(r, tr[i], false, &a->tr[i], &a->ntr[i]);
    if (!a->nrs[i] || !a->ntr[i]) a->nrs[i] = a->ntr[i] = 0; /* fused only with both */
  }
  static const char *const scales[3] = {"Scale_x", "Scale_y", "Scale_out"};
  for (int i = 0; i < 3; i++) {
    const double s = ic_ar_float(r, scales[i], 1.0);
    if (!r->st && (float)s != 1.0f) {
      return ic_ar_fail(r, scales[i], "is %g: the int8 scales must be 1 (float32 only)", s);
    }
  }
  if (r->st) return r->st;
  if (a->ntr[2]) {
    static const int64_t want[4] = {0, 2, 1, 3};
    if (a->ntr[2] != 4 || memcmp(a->tr[2], want, sizeof want) != 0) {
      return ic_ar_fail(r, "fused_transpose_Out",
                        "must be [0, 2, 1, 3], the permutation Paddle's kernel applies");
    }
  }
  return ic_oda_parse(r, &a->act);
}

/* Paddle's DDim::reshape: 0 copies the input dim at that index, one -1 takes the rest. */
static bool ddim_reshape(const int64_t *in, int nin, const int64_t *shape, size_t n,
                         int64_t *out) {
  if (n > IC_MAX_RANK) return false;
  const int64_t numel = ic_numel(nin, in);
  int64_t known = 1;
  int at = -1;
  for (size_t i = 0; i < n; i++) {
    int64_t v = shape[i];
    if (v == 0) {
      if ((int)i >= nin) return false;
      v = in[i];
    }
    if (v == -1 && at < 0) at = (int)i;
    else if (v < 0) return false;
    else known *= v;
    out[i] = v;
  }
  if (at >= 0) {
    if (known == 0 || numel % known) return false;
    out[at] = numel / known;
  } else if (known != numel) {
    return false;
  }
  return true;
}

/* Operand s after its fused reshape + transpose: dims and the permutation of the reshaped
 * dims (perm NULL: not fused). */
static ic_status operand(ic_kctx *c, int s, int *nd, int64_t *dims, int64_t *rdims,
                         int *perm, bool *fused) {
  const fmm_attrs *a = c->attrs;
  const ic_tensor *t = ic_in(c, s, 0);
  *fused = a->nrs[s] > 0;
  if (!*fused) {
    *nd = t->ndim;
    memcpy(dims, t->dims, sizeof(int64_t) * (size_t)t->ndim);
    return IC_OK;
  }
  if (!ddim_reshape(t->dims, t->ndim, a->rs[s], a->nrs[s], rdims)) {
    return ic_kfail_in(c, s, 0, "cannot take fused_reshape_%s", s == IN_X ? "X" : "Y");
  }
  const int n = (int)a->nrs[s];
  bool seen[IC_MAX_RANK] = {false};
  if (a->ntr[s] != (size_t)n) {
    return ic_kfail_in(c, s, 0, "fused_transpose_%s has %zu entries, expected %d",
                       s == IN_X ? "X" : "Y", a->ntr[s], n);
  }
  for (int i = 0; i < n; i++) {
    const int64_t p = a->tr[s][i];
    if (p < 0 || p >= n || seen[p]) {
      return ic_kfail_in(c, s, 0, "fused_transpose_%s is not a permutation",
                         s == IN_X ? "X" : "Y");
    }
    seen[p] = true;
    perm[i] = (int)p;
    dims[i] = rdims[p];
  }
  *nd = n;
  return IC_OK;
}

/* dst = src (dims, row-major) with its axes permuted: dst.dims[i] = dims[perm[i]]. */
static void permute_f32(float *dst, const float *src, int rank, const int64_t *dims,
                        const int *perm) {
  int64_t stride[IC_MAX_RANK], od[IC_MAX_RANK], idx[IC_MAX_RANK] = {0}, s = 1;
  for (int i = rank - 1; i >= 0; i--) {
    stride[i] = s;
    s *= dims[i];
  }
  for (int i = 0; i < rank; i++) od[i] = dims[perm[i]];
  const int64_t n = ic_numel(rank, od);
  int64_t off = 0;
  for (int64_t k = 0; k < n; k++) {
    dst[k] = src[off];
    for (int d = rank - 1; d >= 0; d--) {
      off += stride[perm[d]];
      if (++idx[d] < od[d]) break;
      off -= stride[perm[d]] * od[d];
      idx[d] = 0;
    }
  }
}

typedef struct fmm_shapes {
  int xn, yn, rn, on;
  int64_t xd[IC_MAX_RANK], yd[IC_MAX_RANK], xr[IC_MAX_RANK], yr[IC_MAX_RANK];
  int64_t rd[IC_MAX_RANK], od[IC_MAX_RANK];
  int xp[IC_MAX_RANK], yp[IC_MAX_RANK];
  bool xf, yf, of;
} fmm_shapes;

/* A context for icore's matmul_v2 over tensors tx, ty -> tr. */
static void mm_ctx(ic_kctx *c, ic_kctx *c2, matmul_v2_attrs *ma, ic_tensor **tin,
                   ic_kslot *in, ic_kslot *out, ic_tensor **tout) {
  const fmm_attrs *a = c->attrs;
  ma->trans_x = a->trans_x;
  ma->trans_y = a->trans_y;
  for (int i = 0; i < 2; i++) {
    in[i] = (ic_kslot){.n = 1, .t = &tin[i], .names = c->in[i].names};
  }
  out[0] = (ic_kslot){.n = 1, .t = tout, .names = c->out[0].names};
  *c2 = *c;
  c2->in = in;
  c2->out = out;
  c2->attrs = ma;
}

static ic_status shapes(ic_kctx *c, fmm_shapes *s) {
  const fmm_attrs *a = c->attrs;
  memset(s, 0, sizeof *s);
  ic_status st;
  if ((st = operand(c, IN_X, &s->xn, s->xd, s->xr, s->xp, &s->xf))) return st;
  if ((st = operand(c, IN_Y, &s->yn, s->yd, s->yr, s->yp, &s->yf))) return st;
  if ((s->xn == 1 && a->trans_x) || (s->yn == 1 && a->trans_y)) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED,
                    "trans_x / trans_y on a 1-D operand (Paddle's oneDNN kernel transposes "
                    "the padded vector, which icore does not follow)");
  }
  ic_tensor tx = *ic_in(c, IN_X, 0), ty = *ic_in(c, IN_Y, 0), tr;
  tx.ndim = s->xn;
  memcpy(tx.dims, s->xd, sizeof tx.dims);
  ty.ndim = s->yn;
  memcpy(ty.dims, s->yd, sizeof ty.dims);
  ic_tensor_init(&tr);
  ic_tensor *tin[2] = {&tx, &ty}, *tout = &tr;
  ic_kslot in[2], out[1];
  matmul_v2_attrs ma;
  ic_kctx c2;
  mm_ctx(c, &c2, &ma, tin, in, out, &tout);
  ic_matmul_v2_plan p;
  if ((st = ic_matmul_v2_make_plan(&c2, &p))) return st;
  for (int i = 0; i < p.nb; i++) s->rd[s->rn++] = p.ob[i];
  if (!p.x_vec) s->rd[s->rn++] = p.g.m;
  if (!p.y_vec) s->rd[s->rn++] = p.g.n;
  s->of = a->nrs[2] > 0;
  if (!s->of) {
    s->on = s->rn;
    memcpy(s->od, s->rd, sizeof s->od);
    return IC_OK;
  }
  if (s->rn != 4) {
    return ic_kfail(c, IC_ERR_SHAPE, "fused_reshape_Out / fused_transpose_Out need a 4-D "
                    "product, this one has rank %d", s->rn);
  }
  const int64_t t[4] = {s->rd[0], s->rd[2], s->rd[1], s->rd[3]};
  if (!ddim_reshape(t, 4, a->rs[2], a->nrs[2], s->od)) {
    return ic_kfail(c, IC_ERR_SHAPE, "the product cannot take fused_reshape_Out");
  }
  s->on = (int)a->nrs[2];
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *res = ic_in(c, IN_RES, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT(IC_FP32));
  if (st) return st;
  if (y->dtype != IC_FP32) return ic_kfail_in(c, IN_Y, 0, "expected float32 like X");
  fmm_shapes s;
  if ((st = shapes(c, &s))) return st;
  if (res && (res->dtype != IC_FP32 || ic_tensor_numel_(res) != ic_numel(s.on, s.od))) {
    return ic_kfail_in(c, IN_RES, 0, "expected float32 with Out's %lld elements",
                       (long long)ic_numel(s.on, s.od));
  }
  if (res) {
    double sie = 0;
    const ic_attr *at = ic_op_attr(c->op, "Scale_in_eltwise");
    if (at) sie = at->type == IC_ATTR_INT || at->type == IC_ATTR_LONG ? (double)at->i : at->f;
    if ((float)sie != 0.0f) {
      return ic_kfail(c, IC_ERR_UNSUPPORTED, "Scale_in_eltwise %g with ResidualData (an int8 "
                      "sum post-op) is not supported", sie);
    }
  }
  (void)x;
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_FP32, s.on, s.od);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const fmm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *res = ic_in(c, IN_RES, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  fmm_shapes s;
  ic_status st = shapes(c, &s);
  if (st) return st;
  const int64_t xn = ic_tensor_numel_(x), yn = ic_tensor_numel_(y), rn = ic_numel(s.rn, s.rd);
  const size_t need = (size_t)((s.xf ? xn : 0) + (s.yf ? yn : 0) + (s.of ? rn : 0) + 1);
  ic_buffer *buf = ic_kscratch(c, need * sizeof(float));
  if (!buf) return c->err->code;
  float *at = buf->data;
  ic_tensor tx = *x, ty = *y, tr;
  tx.ndim = s.xn;
  memcpy(tx.dims, s.xd, sizeof tx.dims);
  ty.ndim = s.yn;
  memcpy(ty.dims, s.yd, sizeof ty.dims);
  if (s.xf) {
    permute_f32(at, x->data, s.xn, s.xr, s.xp);
    tx.data = at;
    at += xn;
  }
  if (s.yf) {
    permute_f32(at, y->data, s.yn, s.yr, s.yp);
    ty.data = at;
    at += yn;
  }
  ic_tensor_init(&tr);
  tr.dtype = IC_FP32;
  tr.ndim = s.rn;
  memcpy(tr.dims, s.rd, sizeof tr.dims);
  tr.data = s.of ? (void *)at : out->data;
  ic_tensor *tin[2] = {&tx, &ty}, *tout = &tr;
  ic_kslot in[2], os[1];
  matmul_v2_attrs ma;
  ic_kctx c2;
  mm_ctx(c, &c2, &ma, tin, in, os, &tout);
  if ((st = ic_matmul_v2_run(&c2))) goto done;
  if (s.of) {
    static const int perm[4] = {0, 2, 1, 3};
    permute_f32(out->data, at, 4, s.rd, perm);
  }
  float *o = out->data;
  const float *rp = res ? (const float *)res->data : NULL;
  const int64_t n = ic_numel(s.on, s.od);
  for (int64_t i = 0; i < n; i++) {
    double v = a->alpha * (double)o[i];
    if (rp) v += rp[i];
    v = ic_oda_apply(&a->act, v);
    o[i] = (float)(v * a->out_scale);
  }
done:
  ic_buffer_release(buf);
  return st;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}, {"ResidualData", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_fused_matmul = {
    .name = "fused_matmul",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(fmm_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
