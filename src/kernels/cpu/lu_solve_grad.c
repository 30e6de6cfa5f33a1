/* lu_solve_grad: the gradients of lu_solve's out = op(A)^-1 b, A = P L U given packed (lu,
 * 1-based int32 pivots), as Paddle's LuSolveGradKernel computes them (paddle/phi/kernels/
 * impl/lu_solve_grad_kernel_impl.h), with g = out@GRAD and X = out:
 *   b@GRAD = op'(A)^-1 g, op' the other transposition (trans "N" -> "T", else "N");
 *   trans "N": gR = U^-T (-g X^T), gL = L^-T (gR U^T); lu@GRAD = tril(gL, -1) + triu(gR);
 *   otherwise: gR = L^-1 (-(P^T X) g^T P), gU = U^-1 (L^T gR);
 *              lu@GRAD = tril(gR, -1) + triu(gU).
 * In double for both dtypes (float32 results rounded once; Paddle runs each product and
 * solve in the element type). float32 and float64; b [..., n, k], lu [..., n, n], pivots
 * [..., n] and out, out@GRAD b's dims. Slots b, lu, pivots, out, out@GRAD -> b@GRAD, lu@GRAD
 * (either optional) as Paddle 3.3.1 writes them; attribute trans. */
#include "kernels/cpu/lu_solve.h"

enum { IN_B, IN_LU, IN_PIV, IN_OUT, IN_G };

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_lu_solve_check(c);
  if (st) return st;
  const ic_tensor *b = ic_in(c, IN_B, 0), *lu = ic_in(c, IN_LU, 0);
  for (size_t s = IN_OUT; s <= IN_G; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != b->dtype || !ic_dims_equal(t->ndim, t->dims, b->ndim, b->dims)) {
      return ic_kfail_in(c, s, 0, "expected b's dtype and dims");
    }
  }
  ic_tensor *db = ic_out(c, 0, 0), *dl = ic_out(c, 1, 0);
  if (db) ic_tensor_set_meta(db, b->dtype, b->ndim, b->dims);
  if (dl) ic_tensor_set_meta(dl, lu->dtype, lu->ndim, lu->dims);
  return IC_OK;
}

/* Row-major n x n helpers on the unpacked factors of lu (column-major am, ld n). */
#define LUA(i, j) am[(size_t)(j) * (size_t)n + (size_t)(i)]

static ic_status run(ic_kctx *c) {
  const ic_lu_solve_attrs *a = c->attrs;
  const ic_tensor *b = ic_in(c, IN_B, 0), *lu = ic_in(c, IN_LU, 0), *p = ic_in(c, IN_PIV, 0);
  const ic_tensor *x = ic_in(c, IN_OUT, 0), *g = ic_in(c, IN_G, 0);
  ic_tensor *db = ic_out(c, 0, 0), *dl = ic_out(c, 1, 0);
  const int r = b->ndim;
  const int64_t n = b->dims[r - 2], k = b->dims[r - 1];
  if (n == 0) return IC_OK;
  const int64_t batch = ic_numel(lu->ndim, lu->dims) / (n * n);
  ic_status st = ic_lu_solve_check_pivots(c, batch * n, n);
  if (st) return st;
  const int32_t *piv = p->data;
  const size_t nn = (size_t)(n * n), nk = (size_t)(n * k);
  ic_buffer *buf = ic_kscratch(c, sizeof(double) * (nn * 4 + nk * 2) + sizeof(int64_t) * (size_t)n);
  if (!buf) return c->err->code;
  double *am = buf->data, *t1 = am + nn, *t2 = t1 + nn, *t3 = t2 + nn, *xm = t3 + nn,
         *gm = xm + nk;
  int64_t *perm = (int64_t *)(gm + nk);
  const int ni = (int)n, ki = (int)k;
  const bool f32 = b->dtype == IC_FP32;
  for (int64_t bi = 0; bi < batch; bi++) {
    const int32_t *pv = piv + bi * n;
    ic_la_load_cm(lu, bi, n, n, am);
    if (db && k > 0) { /* b@GRAD: the other transposition's solve of g */
      int info = 0;
      ic_la_load_cm(g, bi, n, k, gm);
      dgetrs_(a->trans[0] == 'N' ? "T" : "N", &ni, &ki, am, &ni, pv, gm, &ni, &info, 1);
      ic_la_store_cm(db, bi, n, k, gm, n);
    }
    if (!dl) continue;
    /* X and g row-major n x k */
    for (int64_t i = 0; i < n; i++) {
      for (int64_t j = 0; j < k; j++) {
        xm[i * k + j] = ic_la_at(x->data, f32, bi * n * k + i * k + j);
        gm[i * k + j] = ic_la_at(g->data, f32, bi * n * k + i * k + j);
      }
    }
#define L(i, j) ((i) == (j) ? 1.0 : (i) > (j) ? LUA(i, j) : 0.0)
#define U(i, j) ((i) <= (j) ? LUA(i, j) : 0.0)
    if (a->trans[0] == 'N') {
      /* t1 = psi = -g X^T */
      for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j < n; j++) {
          double s = 0;
          for (int64_t q = 0; q < k; q++) s += gm[i * k + q] * xm[j * k + q];
          t1[i * n + j] = -s;
        }
      }
      /* t2 = gR = U^-T psi: U^T lower, forward substitution by rows */
      for (int64_t j = 0; j < n; j++) {
        for (int64_t i = 0; i < n; i++) {
          double s = t1[i * n + j];
          for (int64_t q = 0; q < i; q++) s -= U(q, i) * t2[q * n + j];
          t2[i * n + j] = s / U(i, i);
        }
      }
      /* t3 = gR U^T */
      for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j < n; j++) {
          double s = 0;
          for (int64_t q = 0; q < n; q++) s += t2[i * n + q] * U(j, q);
          t3[i * n + j] = s;
        }
      }
      /* t1 = gL = L^-T t3: L^T unit upper, back substitution */
      for (int64_t j = 0; j < n; j++) {
        for (int64_t i = n - 1; i >= 0; i--) {
          double s = t3[i * n + j];
          for (int64_t q = i + 1; q < n; q++) s -= L(q, i) * t1[q * n + j];
          t1[i * n + j] = s;
        }
      }
      for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j < n; j++) {
          ic_la_set(dl, bi * n * n + i * n + j, i > j ? t1[i * n + j] : t2[i * n + j]);
        }
      }
    } else {
      /* perm: row i of P^T A is row perm[i] of A (the getrf swaps in order) */
      for (int64_t i = 0; i < n; i++) perm[i] = i;
      for (int64_t i = 0; i < n; i++) {
        const int64_t o = pv[i] - 1, tmp = perm[i];
        perm[i] = perm[o];
        perm[o] = tmp;
      }
      /* t1 = -(P^T X) g^T, then t2 = t1 P */
      for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j < n; j++) {
          double s = 0;
          for (int64_t q = 0; q < k; q++) s += xm[perm[i] * k + q] * gm[j * k + q];
          t1[i * n + j] = -s;
        }
      }
      for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j < n; j++) t2[i * n + perm[j]] = t1[i * n + j];
      }
      /* t1 = gR = L^-1 t2: forward substitution, unit diagonal */
      for (int64_t j = 0; j < n; j++) {
        for (int64_t i = 0; i < n; i++) {
          double s = t2[i * n + j];
          for (int64_t q = 0; q < i; q++) s -= L(i, q) * t1[q * n + j];
          t1[i * n + j] = s;
        }
      }
      /* t3 = L^T gR */
      for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j < n; j++) {
          double s = 0;
          for (int64_t q = 0; q < n; q++) s += L(q, i) * t1[q * n + j];
          t3[i * n + j] = s;
        }
      }
      /* t2 = gU = U^-1 t3: back substitution */
      for (int64_t j = 0; j < n; j++) {
        for (int64_t i = n - 1; i >= 0; i--) {
          double s = t3[i * n + j];
          for (int64_t q = i + 1; q < n; q++) s -= U(i, q) * t2[q * n + j];
          t2[i * n + j] = s / U(i, i);
        }
      }
      for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j < n; j++) {
          ic_la_set(dl, bi * n * n + i * n + j, i > j ? t1[i * n + j] : t2[i * n + j]);
        }
      }
    }
#undef L
#undef U
  }
  ic_buffer_release(buf);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"b", 0}, {"lu", 0}, {"pivots", 0}, {"out", 0}, {"out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"b@GRAD", IC_SLOT_OPTIONAL}, {"lu@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_lu_solve_grad = {
    .name = "lu_solve_grad", .n_inputs = 5, .inputs = inputs, .n_outputs = 2,
    .outputs = outputs, .attrs_size = sizeof(ic_lu_solve_attrs), .parse = ic_lu_solve_parse,
    .infer = infer, .cpu = run,
};
