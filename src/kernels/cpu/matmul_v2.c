/* matmul_v2: Out = op(X) * op(Y) with numpy's matmul rules (phi MatmulKernel and
 * MatMulFunctionImplWithBlas in kernels/impl/matmul_kernel_impl.h, MatmulInferMeta):
 *
 *  - A 1-D X of length K is the row [1, K] and a 1-D Y the column [K, 1]; their transpose
 *    flags are ignored, and the added axis is removed from Out again ([K] x [K] gives a
 *    rank-0 Out).
 *  - The leading (batch) dims broadcast right-aligned. Paddle accepts a pair of batch dims
 *    when they are equal or either is <= 1, and a 0 on either side makes that Out dim 0 (so,
 *    unlike numpy, [0] pairs with [5]).
 *  - Out = broadcast batch dims + [M] (unless X is 1-D) + [N] (unless Y is 1-D).
 *
 * The oneDNN fuse attributes (fused_reshape_*, fused_transpose_*) are refused when not empty;
 * use_mkldnn and mkldnn_data_type are ignored. int32 and int64 run as plain loops that sum in
 * the element type (wrapping), as Paddle's CPU kernel does (oracle case au_int_dtypes). Paddle
 * also takes complex and 16-bit floats, which icore does not have. */
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/matmul_v2.h"
#include "kernels/kernel.h"

enum { IN_X, IN_Y };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  matmul_v2_attrs *a = attrs;
  a->trans_x = ic_ar_bool(r, "trans_x", false);
  a->trans_y = ic_ar_bool(r, "trans_y", false);
  return ic_gemm_refuse_fused(r);
}

typedef ic_matmul_v2_plan plan;

ic_status ic_matmul_v2_make_plan(ic_kctx *c, plan *p) {
  const matmul_v2_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  memset(p, 0, sizeof *p);
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  if (y->ndim < 1) return ic_kfail_in(c, IN_Y, 0, "expected rank >= 1");
  p->x_vec = x->ndim == 1;
  p->y_vec = y->ndim == 1;
  /* Stored rows and cols of one matrix of each side. */
  int64_t xr = p->x_vec ? 1 : x->dims[x->ndim - 2], xc = x->dims[x->ndim - 1];
  int64_t yr = y->dims[y->ndim - (p->y_vec ? 1 : 2)], yc = p->y_vec ? 1 : y->dims[y->ndim - 1];
  bool tx = a->trans_x && !p->x_vec, ty = a->trans_y && !p->y_vec;
  int64_t kx = tx ? xr : xc, ky = ty ? yc : yr;
  if (kx != ky) {
    char xd[128], yd[128];
    return ic_kfail(c, IC_ERR_SHAPE,
                    "input X '%s' %s%s contracts over %lld elements but input Y '%s' %s%s over "
                    "%lld",
                    ic_in_name(c, IN_X, 0), ic_dims_str(x->ndim, x->dims, xd, sizeof xd),
                    tx ? " (transposed)" : "", (long long)kx, ic_in_name(c, IN_Y, 0),
                    ic_dims_str(y->ndim, y->dims, yd, sizeof yd), ty ? " (transposed)" : "",
                    (long long)ky);
  }
  int xn = x->ndim > 2 ? x->ndim - 2 : 0, yn = y->ndim > 2 ? y->ndim - 2 : 0;
  p->nb = xn > yn ? xn : yn;
  p->xcount = p->ycount = p->ocount = 1;
  for (int i = 0; i < p->nb; i++) {
    int xi = i - (p->nb - xn), yi = i - (p->nb - yn);
    p->xb[i] = xi >= 0 ? x->dims[xi] : 1;
    p->yb[i] = yi >= 0 ? y->dims[yi] : 1;
    if (p->xb[i] != p->yb[i] && p->xb[i] > 1 && p->yb[i] > 1) {
      char xd[128], yd[128];
      return ic_kfail(c, IC_ERR_SHAPE,
                      "input X '%s' %s and input Y '%s' %s have batch dims that do not "
                      "broadcast: %lld against %lld",
                      ic_in_name(c, IN_X, 0), ic_dims_str(x->ndim, x->dims, xd, sizeof xd),
                      ic_in_name(c, IN_Y, 0), ic_dims_str(y->ndim, y->dims, yd, sizeof yd),
                      (long long)p->xb[i], (long long)p->yb[i]);
    }
    p->ob[i] = p->xb[i] == 0 || p->yb[i] == 0 ? 0 : p->xb[i] > p->yb[i] ? p->xb[i] : p->yb[i];
    p->xcount *= p->xb[i];
    p->ycount *= p->yb[i];
    p->ocount *= p->ob[i];
  }
  int64_t m = tx ? xc : xr, n = ty ? yr : yc;
  p->g = (ic_gemm){.dtype = x->dtype, .trans_a = tx, .trans_b = ty, .m = m, .n = n, .k = kx,
                   .lda = xc, .ldb = yc, .ldc = n, .alpha = 1.0};
  return IC_OK;
}

ic_status ic_matmul_v2_infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_NUM))) return st;
  if (y->dtype != x->dtype) {
    return ic_kfail_in(c, IN_Y, 0, "expected the dtype of X (%s)", ic_dtype_name(x->dtype));
  }
  plan p;
  if ((st = ic_matmul_v2_make_plan(c, &p))) return st;
  int64_t dims[IC_MAX_RANK];
  int n = 0;
  for (int i = 0; i < p.nb; i++) dims[n++] = p.ob[i];
  if (!p.x_vec) dims[n++] = p.g.m;
  if (!p.y_vec) dims[n++] = p.g.n;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, n, dims);
  return IC_OK;
}

ic_status ic_matmul_v2_run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  plan p;
  ic_status st = ic_matmul_v2_make_plan(c, &p);
  if (st) return st;
  if (p.ocount == 0) return IC_OK;
  ic_gemm g = p.g;
  if (p.ycount == 1 && p.xcount == p.ocount && !g.trans_a) {
    /* Every X matrix meets the same Y: one product with the batches stacked as rows. */
    g.m *= p.xcount;
    p.ocount = 1;
  }
  if ((st = ic_gemm_check(c, &g))) return st;
  size_t es = ic_dtype_size(x->dtype);
  size_t xs = (size_t)(p.g.m * p.g.k) * es, ys = (size_t)(p.g.k * p.g.n) * es;
  size_t os = (size_t)(g.m * g.n) * es;
  const char *xp = x->data, *yp = y->data;
  char *op = ic_out(c, 0, 0)->data;
  if (p.ocount == 1 || (p.xcount == p.ocount && p.ycount == p.ocount)) {
    /* Batches of small products (attention's per-head matrices) are shared across the
     * kernel's threads whole, each product single-threaded: the same calls, so the same
     * bits, at any thread count. */
    int nt = ic_omp_threads(c->env);
    if (nt > p.ocount) nt = (int)p.ocount;
    if (2.0 * (double)g.m * (double)g.n * (double)g.k * (double)p.ocount < IC_GEMM_SPLIT_FLOPS) {
      nt = 1;
    }
    if (nt > 1) { /* each product single-threaded */
      ic_kenv one = *c->env;
      one.intra_threads = 1;
      ic_kctx c1 = *c;
      c1.env = &one;
#pragma omp parallel for num_threads(nt) schedule(static)
      for (int64_t b = 0; b < p.ocount; b++) {
        ic_gemm_run(&c1, &g, xp + (size_t)b * xs, yp + (size_t)b * ys, op + (size_t)b * os);
      }
      return IC_OK;
    }
    /* Not inside an omp region, even an inactive one (`if (0)`): ic_gemm_run's own team
     * would then be a nested one, a second set of libgomp threads beside the caller's
     * spinning team (SVTR batch 1 at 2 threads: its matmuls 0.13 -> 11 ms per run). */
    for (int64_t b = 0; b < p.ocount; b++) {
      ic_gemm_run(c, &g, xp + (size_t)b * xs, yp + (size_t)b * ys, op + (size_t)b * os);
    }
    return IC_OK;
  }
  /* Broadcast batches: walk Out's batch index and step X and Y only along the dims they
   * have (a dim of 1 against a larger one stays put). */
  int64_t xstep[IC_MAX_RANK], ystep[IC_MAX_RANK], idx[IC_MAX_RANK] = {0};
  int64_t xsz = 1, ysz = 1;
  for (int i = p.nb - 1; i >= 0; i--) {
    xstep[i] = p.xb[i] == 1 ? 0 : xsz;
    ystep[i] = p.yb[i] == 1 ? 0 : ysz;
    xsz *= p.xb[i];
    ysz *= p.yb[i];
  }
  int64_t xo = 0, yo = 0;
  for (int64_t b = 0; b < p.ocount; b++) {
    ic_gemm_run(c, &g, xp + (size_t)xo * xs, yp + (size_t)yo * ys, op + (size_t)b * os);
    for (int i = p.nb - 1; i >= 0; i--) {
      if (++idx[i] < p.ob[i]) {
        xo += xstep[i];
        yo += ystep[i];
        break;
      }
      xo -= xstep[i] * (idx[i] - 1);
      yo -= ystep[i] * (idx[i] - 1);
      idx[i] = 0;
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_matmul_v2 = {
    .name = "matmul_v2",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(matmul_v2_attrs), .parse = parse,
    .infer = ic_matmul_v2_infer, .cpu = ic_matmul_v2_run,
};
