/* multi_dot (paddle.linalg.multi_dot; paddle/phi/kernels/impl/multi_dot_kernel_impl.h,
 * MultiDotInferMeta): the product of the matrices X[0] .. X[n-1] (n >= 2, float32 or
 * float64, one dtype); X[0] may be 1-D (a row, [1, K]) and X[n-1] 1-D (a column, [K, 1]),
 * the others 2-D. Out [rows of X[0], cols of X[n-1]] without the dims of 1-D ends (0-D when
 * both are). Products in X's dtype (gemm.h) in Paddle's order: n 3 by comparing the two
 * costs ((AB)C when M_a N_b (K_a + N_c) < K_a N_c (N_b + M_a), else A(BC)), n > 3 by the
 * classic matrix chain order (the first split of least cost). */
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/gemm.h"

static const ic_slotdef k_inputs[1] = {{"X", IC_SLOT_MULTI}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

#define MD_MAX 64

static void mat_dims(const ic_kctx *c, size_t i, size_t n, int64_t *r, int64_t *k) {
  const ic_tensor *t = ic_in(c, 0, i);
  if (t->ndim == 1) {
    if (i == 0) {
      *r = 1;
      *k = t->dims[0];
    } else {
      *r = t->dims[0];
      *k = 1;
    }
  } else {
    *r = t->dims[0];
    *k = t->dims[1];
  }
  (void)n;
}

static ic_status infer(ic_kctx *c) {
  const size_t n = c->in[0].n;
  if (n < 2) return ic_kfail(c, IC_ERR_SHAPE, "multi_dot: X holds %zu tensors, expected >= 2", n);
  if (n > MD_MAX) return ic_kfail(c, IC_ERR_UNSUPPORTED, "multi_dot: more than %d inputs", MD_MAX);
  const ic_tensor *x0 = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  int64_t prev = -1;
  for (size_t i = 0; i < n; i++) {
    const ic_tensor *t = ic_in(c, 0, i);
    if ((st = ic_kcheck_dtype(c, 0, i, IC_DT(x0->dtype)))) return st;
    const bool end = i == 0 || i == n - 1;
    if (t->ndim != 2 && !(end && t->ndim == 1)) {
      return ic_kfail_in(c, 0, i, "expected rank 2%s", end ? " (or 1 at an end)" : "");
    }
    int64_t r, k;
    mat_dims(c, i, n, &r, &k);
    if (i > 0 && r != prev) {
      return ic_kfail_in(c, 0, i, "has %lld rows, expected %lld (the columns before it)",
                         (long long)r, (long long)prev);
    }
    prev = k;
  }
  const ic_tensor *xl = ic_in(c, 0, n - 1);
  int64_t d[2];
  int nd = 0;
  if (x0->ndim == 2) d[nd++] = x0->dims[0];
  if (xl->ndim == 2) d[nd++] = xl->dims[1];
  ic_tensor_set_meta(ic_out(c, 0, 0), x0->dtype, nd, d);
  return IC_OK;
}

typedef struct md_ctx {
  ic_kctx *c;
  size_t n;
  int64_t p[MD_MAX + 1];
  size_t order[MD_MAX * MD_MAX];
  size_t es;
  ic_dtype dt;
} md_ctx;

static void gemm(md_ctx *m, int64_t rows, int64_t k, int64_t cols, const void *a, const void *b,
                 void *o) {
  if (k == 0) {
    memset(o, 0, (size_t)(rows * cols) * m->es);
    return;
  }
  ic_gemm g = {.dtype = m->dt, .m = rows, .n = cols, .k = k, .lda = k, .ldb = cols,
               .ldc = cols, .alpha = 1.0, .beta = 0.0};
  ic_gemm_run(m->c, &g, a, b, o);
}

/* The product of X[i..j] into a fresh buffer (*held, released by the caller; NULL for a
 * single input, whose data is returned). NULL return: out of memory. */
static const void *chain(md_ctx *m, size_t i, size_t j, ic_buffer **held) {
  *held = NULL;
  if (i == j) return ic_in(m->c, 0, i)->data;
  const size_t k = m->order[i * m->n + j];
  ic_buffer *ha, *hb;
  const void *a = chain(m, i, k, &ha);
  if (!a) return NULL;
  const void *b = chain(m, k + 1, j, &hb);
  if (!b) {
    if (ha) ic_buffer_release(ha);
    return NULL;
  }
  ic_buffer *o = ic_kscratch(m->c, (size_t)(m->p[i] * m->p[j + 1]) * m->es + 1);
  if (o) gemm(m, m->p[i], m->p[k + 1], m->p[j + 1], a, b, o->data);
  if (ha) ic_buffer_release(ha);
  if (hb) ic_buffer_release(hb);
  *held = o;
  return o ? o->data : NULL;
}

static ic_status run(ic_kctx *c) {
  md_ctx *m = calloc(1, sizeof *m);
  if (!m) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "multi_dot: out of memory");
  m->c = c;
  m->n = c->in[0].n;
  m->dt = ic_in(c, 0, 0)->dtype;
  m->es = m->dt == IC_FP32 ? 4 : 8;
  const size_t n = m->n;
  for (size_t i = 0; i < n; i++) {
    int64_t r, k;
    mat_dims(c, i, n, &r, &k);
    m->p[i] = r;
    if (i == n - 1) m->p[n] = k;
  }
  for (size_t i = 0; i < n; i++) {
    int64_t r, k;
    mat_dims(c, i, n, &r, &k);
    ic_gemm g = {.dtype = m->dt, .m = m->p[0], .n = k, .k = r, .lda = r, .ldb = k, .ldc = k};
    ic_status st = ic_gemm_check(c, &g);
    if (st) {
      free(m);
      return st;
    }
  }
  if (n == 3) {
    const uint64_t Ma = (uint64_t)m->p[0], Ka = (uint64_t)m->p[1], Nb = (uint64_t)m->p[2],
                   Nc = (uint64_t)m->p[3];
    m->order[0 * n + 2] = Ma * Nb * (Ka + Nc) < Ka * Nc * (Nb + Ma) ? 1 : 0;
    m->order[0 * n + 1] = 0;
    m->order[1 * n + 2] = 1;
  } else if (n > 3) {
    uint64_t *cost = calloc(n * n, sizeof(uint64_t));
    if (!cost) {
      free(m);
      return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "multi_dot: out of memory");
    }
    for (size_t l = 1; l < n; l++) {
      for (size_t i = 0; i + l < n; i++) {
        const size_t j = i + l;
        cost[i * n + j] = 0xffffffffu;
        for (size_t k = i; k < j; k++) {
          const uint64_t q = cost[i * n + k] + cost[(k + 1) * n + j] +
                             (uint64_t)m->p[i] * (uint64_t)m->p[k + 1] * (uint64_t)m->p[j + 1];
          if (q < cost[i * n + j]) {
            cost[i * n + j] = q;
            m->order[i * n + j] = k;
          }
        }
      }
    }
    free(cost);
  } else {
    m->order[1] = 0;
  }
  ic_buffer *held;
  const void *r = chain(m, 0, n - 1, &held);
  ic_status st = IC_OK;
  if (!r) {
    st = c->err->code ? c->err->code : ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "multi_dot: out of memory");
  } else {
    memcpy(ic_out(c, 0, 0)->data, r, (size_t)(m->p[0] * m->p[n]) * m->es);
  }
  if (held) ic_buffer_release(held);
  free(m);
  return st;
}

const ic_opdef ic_op_multi_dot = {
    .name = "multi_dot", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
