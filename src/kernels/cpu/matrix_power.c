/* matrix_power (paddle.linalg.matrix_power; paddle/phi/kernels/impl/
 * matrix_power_kernel_impl.h): Out = X^n for each square matrix in the last two dims of X
 * (rank >= 2), float32 or float64. n 0: the identity; n < 0: the inverse of X (LU in double
 * with partial pivoting, as the inverse op; a singular matrix fails) raised to -n. The
 * products in X's dtype (gemm.h) in Paddle's order: |n| 1, 2 and 3 directly (X, X X,
 * (X X) X), larger |n| by binary powering (Z = X, then Z = Z Z per bit; Out = Out Z for each
 * set bit, from the lowest). */
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/lu.h"

typedef struct matrix_power_attrs {
  int64_t n;
} matrix_power_attrs;

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  matrix_power_attrs *a = attrs;
  a->n = ic_ar_int_req(r, "n");
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim < 2) return ic_kfail_in(c, 0, 0, "has rank %d, expected at least 2", x->ndim);
  if (x->dims[x->ndim - 1] != x->dims[x->ndim - 2]) {
    return ic_kfail_in(c, 0, 0, "its last two dims (%lld, %lld) are not a square matrix",
                       (long long)x->dims[x->ndim - 2], (long long)x->dims[x->ndim - 1]);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

/* c = a b for each of `batch` m x m matrices */
static void mm(ic_kctx *c, const ic_gemm *g, int64_t batch, const char *a, const char *b,
               char *o, size_t mat) {
  for (int64_t i = 0; i < batch; i++) ic_gemm_run(c, g, a + i * mat, b + i * mat, o + i * mat);
}

static ic_status run(ic_kctx *c) {
  const matrix_power_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t m = x->dims[x->ndim - 1], mm2 = m * m;
  if (mm2 == 0) return IC_OK;
  const int64_t batch = ic_tensor_numel_(x) / mm2, total = batch * mm2;
  const bool f32 = x->dtype == IC_FP32;
  const size_t es = f32 ? 4 : 8, mat = (size_t)mm2 * es, all = (size_t)total * es;
  if (a->n == 0) {
    memset(o->data, 0, all);
    for (int64_t b = 0; b < batch; b++) {
      for (int64_t i = 0; i < m; i++) {
        if (f32) ((float *)o->data)[b * mm2 + i * m + i] = 1.0f;
        else ((double *)o->data)[b * mm2 + i * m + i] = 1.0;
      }
    }
    return IC_OK;
  }
  ic_gemm g = {.dtype = x->dtype, .m = m, .n = m, .k = m, .lda = m, .ldb = m, .ldc = m,
               .alpha = 1.0, .beta = 0.0};
  ic_status st = ic_gemm_check(c, &g);
  if (st) return st;
  /* nx (X or its inverse), z, acc, tmp; then the LU work space */
  ic_buffer *buf = ic_kscratch(c, 4 * all + (size_t)mm2 * 2 * sizeof(double) +
                                      (size_t)m * sizeof(int64_t));
  if (!buf) return c->err->code;
  char *nx = buf->data, *z = nx + all, *acc = z + all, *tmp = acc + all;
  double *lu = (double *)(tmp + all), *inv = lu + mm2;
  int64_t *perm = (int64_t *)(inv + mm2);
  if (a->n > 0) {
    memcpy(nx, x->data, all);
  } else {
    for (int64_t b = 0; b < batch && !st; b++) {
      for (int64_t k = 0; k < mm2; k++) {
        lu[k] = f32 ? (double)((const float *)x->data)[b * mm2 + k]
                    : ((const double *)x->data)[b * mm2 + k];
      }
      if (!ic_lu_invert(lu, inv, perm, m)) {
        st = ic_kfail(c, IC_ERR_KERNEL, "input X '%s': matrix %lld of %lld is not invertible "
                      "(singular), so it has no negative power", ic_in_name(c, 0, 0),
                      (long long)b, (long long)batch);
        break;
      }
      for (int64_t k = 0; k < mm2; k++) {
        if (f32) ((float *)nx)[b * mm2 + k] = (float)inv[k];
        else ((double *)nx)[b * mm2 + k] = inv[k];
      }
    }
  }
  if (!st) {
    uint64_t p = a->n > 0 ? (uint64_t)a->n : (uint64_t)0 - (uint64_t)a->n;
    if (p == 1) {
      memcpy(o->data, nx, all);
    } else if (p == 2) {
      mm(c, &g, batch, nx, nx, o->data, mat);
    } else if (p == 3) {
      mm(c, &g, batch, nx, nx, tmp, mat);
      mm(c, &g, batch, tmp, nx, o->data, mat);
    } else {
      bool z_init = false, acc_init = false;
      while (p > 0) {
        const bool bit = p & 1;
        p >>= 1;
        if (z_init) {
          mm(c, &g, batch, z, z, tmp, mat);
          memcpy(z, tmp, all);
        } else {
          memcpy(z, nx, all);
          z_init = true;
        }
        if (bit) {
          if (acc_init) {
            mm(c, &g, batch, acc, z, tmp, mat);
            memcpy(acc, tmp, all);
          } else {
            memcpy(acc, z, all);
            acc_init = true;
          }
        }
      }
      memcpy(o->data, acc, all);
    }
  }
  ic_buffer_release(buf);
  return st;
}

const ic_opdef ic_op_matrix_power = {
    .name = "matrix_power", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(matrix_power_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
