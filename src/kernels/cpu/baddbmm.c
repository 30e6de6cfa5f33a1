/* baddbmm (paddle.baddbmm; paddle/phi/kernels/impl/baddbmm_kernel_impl.h, BaddbmmInferMeta):
 * Out [B, M, N] = Beta * Input + Alpha * (X [B, M, K] @ Y [B, K, N]) for each batch, float32
 * or float64. Input is [B or 1, M or 1, N or 1] or [B, N] (read as [B, 1, N]), broadcast to
 * Out; one GEMM per batch (gemm.h) over the broadcast Input, as Paddle's BLAS call: with
 * Beta 0 Input is not read. Alpha and Beta are float attributes (default 1). */
#include <string.h>

#include "kernels/cpu/gemm.h"

enum { IN_INPUT, IN_X, IN_Y };
static const ic_slotdef k_inputs[3] = {{"Input", 0}, {"X", 0}, {"Y", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

typedef struct baddbmm_attrs {
  double alpha, beta;
} baddbmm_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  baddbmm_attrs *a = attrs;
  a->alpha = (float)ic_ar_float(r, "Alpha", 1.0);
  a->beta = (float)ic_ar_float(r, "Beta", 1.0);
  return r->st;
}

/* Input's dims as [B', M', N'] */
static void in3(const ic_tensor *in, int64_t *d) {
  if (in->ndim == 2) {
    d[0] = in->dims[0];
    d[1] = 1;
    d[2] = in->dims[1];
  } else {
    memcpy(d, in->dims, 3 * sizeof(int64_t));
  }
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *in = ic_in(c, IN_INPUT, 0), *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (!st) st = ic_kcheck_dtype(c, IN_Y, 0, IC_DT(x->dtype));
  if (!st) st = ic_kcheck_dtype(c, IN_INPUT, 0, IC_DT(x->dtype));
  if (st) return st;
  if (x->ndim != 3) return ic_kfail_in(c, IN_X, 0, "expected rank 3 ([B, M, K])");
  if (y->ndim != 3) return ic_kfail_in(c, IN_Y, 0, "expected rank 3 ([B, K, N])");
  if (y->dims[0] != x->dims[0] || y->dims[1] != x->dims[2]) {
    return ic_kfail_in(c, IN_Y, 0, "expected [%lld, %lld, N] to multiply X '%s'",
                       (long long)x->dims[0], (long long)x->dims[2], ic_in_name(c, IN_X, 0));
  }
  if (in->ndim != 2 && in->ndim != 3) {
    return ic_kfail_in(c, IN_INPUT, 0, "expected rank 2 or 3");
  }
  const int64_t od[3] = {x->dims[0], x->dims[1], y->dims[2]};
  int64_t d[3];
  in3(in, d);
  for (int i = 0; i < 3; i++) {
    if (d[i] != od[i] && d[i] != 1) {
      return ic_kfail_in(c, IN_INPUT, 0, "does not broadcast to [%lld, %lld, %lld]",
                         (long long)od[0], (long long)od[1], (long long)od[2]);
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 3, od);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const baddbmm_attrs *a = c->attrs;
  const ic_tensor *in = ic_in(c, IN_INPUT, 0), *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t B = x->dims[0], m = x->dims[1], k = x->dims[2], n = y->dims[2];
  const bool f32 = x->dtype == IC_FP32;
  const size_t es = f32 ? 4 : 8;
  int64_t d[3];
  in3(in, d);
  /* Out = the broadcast Input (Eigen's broadcast before the GEMM) */
  for (int64_t b = 0; b < B; b++) {
    for (int64_t i = 0; i < m; i++) {
      for (int64_t j = 0; j < n; j++) {
        const int64_t s = ((d[0] == 1 ? 0 : b) * d[1] + (d[1] == 1 ? 0 : i)) * d[2] +
                          (d[2] == 1 ? 0 : j);
        memcpy((char *)o->data + (size_t)((b * m + i) * n + j) * es,
               (const char *)in->data + (size_t)s * es, es);
      }
    }
  }
  if (m == 0 || n == 0) return IC_OK;
  if (k == 0) {
    for (int64_t i = 0; i < B * m * n; i++) {
      if (f32) {
        float *p = (float *)o->data + i;
        *p = a->beta == 0.0 ? 0.0f : *p * (float)a->beta;
      } else {
        double *p = (double *)o->data + i;
        *p = a->beta == 0.0 ? 0.0 : *p * a->beta;
      }
    }
    return IC_OK;
  }
  ic_gemm g = {.dtype = x->dtype, .m = m, .n = n, .k = k, .lda = k, .ldb = n, .ldc = n,
               .alpha = a->alpha, .beta = a->beta};
  ic_status st = ic_gemm_check(c, &g);
  if (st) return st;
  for (int64_t b = 0; b < B; b++) {
    ic_gemm_run(c, &g, (const char *)x->data + (size_t)(b * m * k) * es,
                (const char *)y->data + (size_t)(b * k * n) * es,
                (char *)o->data + (size_t)(b * m * n) * es);
  }
  return IC_OK;
}

const ic_opdef ic_op_baddbmm = {
    .name = "baddbmm", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(baddbmm_attrs), .parse = parse, .infer = infer, .cpu = run,
};
