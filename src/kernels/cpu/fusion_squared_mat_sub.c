/* fusion_squared_mat_sub (Paddle's phi FusionSquaredMatSubKernel, written by
 * squared_mat_sub_fuse_pass): for X [M, K] and Y [K, N],
 *   SquaredX = X^2, SquaredY = Y^2 (elementwise), SquaredXY = (X Y)^2,
 *   Out = scalar * ((X Y)^2 - X^2 Y^2),
 * each step rounded to the dtype as Paddle's kernel does. float32 or float64. */
#include "kernels/cpu/gemm.h"
#include "kernels/kernel.h"

typedef struct smsub_attrs {
  double scalar;
} smsub_attrs;

enum { IN_X, IN_Y };
enum { OUT_SX, OUT_SY, OUT_SXY, OUT_OUT };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  smsub_attrs *a = attrs;
  a->scalar = ic_ar_float(r, "scalar", 1.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (y->dtype != x->dtype) {
    return ic_kfail_in(c, IN_Y, 0, "expected the dtype of X (%s)", ic_dtype_name(x->dtype));
  }
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 [M, K]");
  if (y->ndim != 2 || y->dims[0] != x->dims[1]) {
    return ic_kfail_in(c, IN_Y, 0, "expected rank 2 [K, N] with K = %lld (X's columns)",
                       (long long)x->dims[1]);
  }
  const int64_t mn[2] = {x->dims[0], y->dims[1]};
  ic_tensor *t;
  if ((t = ic_out(c, OUT_SX, 0))) ic_tensor_set_meta(t, x->dtype, 2, x->dims);
  if ((t = ic_out(c, OUT_SY, 0))) ic_tensor_set_meta(t, x->dtype, 2, y->dims);
  if ((t = ic_out(c, OUT_SXY, 0))) ic_tensor_set_meta(t, x->dtype, 2, mn);
  ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, 2, mn);
  return IC_OK;
}

#define SQUARES(T)                                                                       \
  do {                                                                                   \
    const T *xp = x->data, *yp = y->data;                                                \
    T *sxp = sx, *syp = sy;                                                              \
    for (int64_t i = 0; i < M * K; i++) sxp[i] = xp[i] * xp[i];                          \
    for (int64_t i = 0; i < K * N; i++) syp[i] = yp[i] * yp[i];                          \
  } while (0)

#define FINISH(T)                                                                        \
  do {                                                                                   \
    T *xy = sxy, *o = out->data;                                                         \
    const T s = (T)(float)a->scalar;                                                     \
    for (int64_t i = 0; i < M * N; i++) {                                                \
      xy[i] = xy[i] * xy[i];                                                             \
      o[i] = (T)(xy[i] - o[i]) * s;                                                      \
    }                                                                                    \
  } while (0)

static ic_status run(ic_kctx *c) {
  const smsub_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_tensor *out = ic_out(c, OUT_OUT, 0);
  const int64_t M = x->dims[0], K = x->dims[1], N = y->dims[1];
  const size_t es = ic_dtype_size(x->dtype);
  /* The intermediate outputs, or scratch where the program leaves them out. */
  ic_buffer *scratch = NULL;
  void *bufs[3];
  const int64_t counts[3] = {M * K, K * N, M * N};
  size_t need = 0;
  for (int s = 0; s < 3; s++) {
    if (!ic_out(c, OUT_SX + s, 0)) need += (size_t)counts[s] * es;
  }
  if (need) {
    scratch = ic_kscratch(c, need);
    if (!scratch) return c->err->code;
  }
  char *sp = scratch ? scratch->data : NULL;
  for (int s = 0; s < 3; s++) {
    ic_tensor *t = ic_out(c, OUT_SX + s, 0);
    if (t) {
      bufs[s] = t->data;
    } else {
      bufs[s] = sp;
      sp += (size_t)counts[s] * es;
    }
  }
  void *sx = bufs[0], *sy = bufs[1], *sxy = bufs[2];
  ic_gemm g = {.dtype = x->dtype, .m = M, .n = N, .k = K, .lda = K, .ldb = N, .ldc = N,
               .alpha = 1.0};
  ic_status st = ic_gemm_check(c, &g);
  if (st) goto done;
  if (x->dtype == IC_FP64) SQUARES(double);
  else SQUARES(float);
  ic_gemm_run(c, &g, x->data, y->data, sxy);
  ic_gemm_run(c, &g, sx, sy, out->data);
  if (x->dtype == IC_FP64) FINISH(double);
  else FINISH(float);
done:
  if (scratch) ic_buffer_release(scratch);
  return st;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef outputs[] = {{"SquaredX", IC_SLOT_OPTIONAL},
                                     {"SquaredY", IC_SLOT_OPTIONAL},
                                     {"SquaredXY", IC_SLOT_OPTIONAL},
                                     {"Out", 0}};

const ic_opdef ic_op_fusion_squared_mat_sub = {
    .name = "fusion_squared_mat_sub",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 4, .outputs = outputs,
    .attrs_size = sizeof(smsub_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
