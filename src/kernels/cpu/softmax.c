/* softmax: Out = exp(X - max) / sum(exp(X - max)) along `axis` (phi SoftmaxKernel,
 * funcs/softmax_impl.h, SoftmaxInferMeta).
 *
 * Like Paddle, the shifted logits X - max are clipped from below at -64 before exp, so no
 * output underflows to 0: the smallest is about exp(-64) / n = 1.6e-28 / n. A rank-0 X gives
 * 1. NaN anywhere along the axis makes that whole slice NaN. fp32 exponentials are taken in
 * float by vmath.h's vectorized exp, their sum is accumulated in double (along a contiguous
 * axis in eight interleaved lanes, ic_vsoftmax_rowsf; along a strided one in index order per
 * column), and each
 * output is the exponential times the sum's reciprocal, taken in double and rounded once
 * (Paddle multiplies by the reciprocal too; the fp64 kernel divides). fp32 work is shared across the
 * kernel's threads by rows (contiguous axis) or by blocks of columns (strided): the same bits
 * at any thread count. use_cudnn, use_mkldnn, data_format, is_test and mkldnn_data_type do not change
 * the result on the CPU and are ignored. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "kernels/cpu/softmax.h"
#include "kernels/cpu/vmath.h"
#include "kernels/kernel.h"

ic_status ic_softmax_parse(ic_attr_reader *r, void *attrs) {
  softmax_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", -1);
  return r->st;
}

ic_status ic_softmax_infer(ic_kctx *c) {
  const softmax_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT))) return st;
  int lo = x->ndim ? -x->ndim : -1, hi = x->ndim ? x->ndim : 1; /* rank 0 takes -1 and 0 */
  if (a->axis < lo || a->axis >= hi) {
    return ic_kfail_in(c, 0, 0, "attribute 'axis' is %lld, expected in [%d, %d)",
                       (long long)a->axis, lo, hi);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

/* The fp64 kernel over [outer, n, inner] (libm's exp). `max` and `sum` are scratch of inner
 * elements each, for the strided case. */
#define SOFTMAX_IMPL(NAME, T, EXP)                                                           \
  static void NAME(const T *x, T *y, int64_t outer, int64_t n, int64_t inner, T *max,        \
                   double *sum) {                                                            \
    const T lo = (T)-64;                                                                     \
    for (int64_t o = 0; o < outer; o++, x += n * inner, y += n * inner) {                    \
      if (inner == 1) {                                                                      \
        T m = x[0];                                                                          \
        for (int64_t i = 1; i < n; i++) {                                                    \
          if (x[i] > m || isnan(x[i])) m = x[i];                                             \
        }                                                                                    \
        double s = 0;                                                                        \
        for (int64_t i = 0; i < n; i++) {                                                    \
          T d = x[i] - m;                                                                    \
          y[i] = EXP(d < lo ? lo : d);                                                       \
          s += y[i];                                                                         \
        }                                                                                    \
        for (int64_t i = 0; i < n; i++) y[i] = (T)(y[i] / s);                                \
        continue;                                                                            \
      }                                                                                      \
      for (int64_t j = 0; j < inner; j++) max[j] = x[j];                                     \
      for (int64_t i = 1; i < n; i++) {                                                      \
        const T *xi = x + i * inner;                                                         \
        for (int64_t j = 0; j < inner; j++) {                                                \
          if (xi[j] > max[j] || isnan(xi[j])) max[j] = xi[j];                                \
        }                                                                                    \
      }                                                                                      \
      for (int64_t j = 0; j < inner; j++) sum[j] = 0;                                        \
      for (int64_t i = 0; i < n; i++) {                                                      \
        const T *xi = x + i * inner;                                                         \
        T *yi = y + i * inner;                                                               \
        for (int64_t j = 0; j < inner; j++) {                                                \
          T d = xi[j] - max[j];                                                              \
          yi[j] = EXP(d < lo ? lo : d);                                                      \
          sum[j] += yi[j];                                                                   \
        }                                                                                    \
      }                                                                                      \
      for (int64_t i = 0; i < n; i++) {                                                      \
        T *yi = y + i * inner;                                                               \
        for (int64_t j = 0; j < inner; j++) yi[j] = (T)(yi[j] / sum[j]);                     \
      }                                                                                      \
    }                                                                                        \
  }

SOFTMAX_IMPL(softmax_f64, double, exp)

typedef double v2d __attribute__((vector_size(16)));
typedef float v2f __attribute__((vector_size(8)));

#define PAR_MIN 16384 /* elements below which one thread does it all */
#define COLS 256       /* columns of a strided fp32 slice one task works through */

/* Columns [j0, j0 + nc) (nc <= COLS) of one strided fp32 slice [n, inner], four columns at
 * a time: the maximum with NaN taking over, the shifted logits clipped at -64, their
 * exponentials by vmath's vectorized exp, the sum in double in index order, and each output
 * the exponential times the sum's reciprocal, taken in double and rounded once (Paddle
 * multiplies by the reciprocal too). The columns are independent, so any split of them gives
 * the same bits. */
static void softmax_cols_vf32(const float *x, float *y, int64_t n, int64_t inner, int64_t j0,
                              int64_t nc) {
  ic_v4f max[COLS / 4];
  v2d sum[COLS / 2];
  const int64_t nv = nc / 4, tail = nc % 4;
  x += j0;
  y += j0;
  /* the tail's columns go through the vector lanes too, from a padded copy */
  float tx[4] = {0, 0, 0, 0};
  for (int64_t i = 0; i < n; i++) {
    const float *xi = x + i * inner;
    for (int64_t v = 0; v <= nv && (v < nv || tail); v++) {
      ic_v4f a;
      if (v < nv) a = ic_v4_load(xi + 4 * v);
      else {
        memcpy(tx, xi + 4 * v, (size_t)tail * sizeof(float));
        a = ic_v4_load(tx);
      }
      max[v] = i == 0 ? a : ic_v4_select((a > max[v]) | (a != a), a, max[v]);
    }
  }
  for (int64_t k = 0; k < COLS / 2; k++) sum[k] = (v2d){0, 0};
  const ic_v4f lo = ic_v4_splat(-64.0f);
  float ty[4];
  for (int64_t i = 0; i < n; i++) {
    const float *xi = x + i * inner;
    float *yi = y + i * inner;
    for (int64_t v = 0; v < nv; v++) {
      ic_v4f d = ic_v4_load(xi + 4 * v) - max[v];
      ic_v4_store(yi + 4 * v, ic_v4_select(d < lo, lo, d));
    }
    if (tail) {
      memcpy(tx, xi + 4 * nv, (size_t)tail * sizeof(float));
      ic_v4f d = ic_v4_load(tx) - max[nv];
      ic_v4_store(ty, ic_v4_select(d < lo, lo, d));
      memcpy(yi + 4 * nv, ty, (size_t)tail * sizeof(float));
    }
    ic_vexpf(yi, yi, nc);
    for (int64_t v = 0; v < nv; v++) {
      ic_v4f e = ic_v4_load(yi + 4 * v);
      sum[2 * v] += __builtin_convertvector((v2f){e[0], e[1]}, v2d);
      sum[2 * v + 1] += __builtin_convertvector((v2f){e[2], e[3]}, v2d);
    }
    for (int64_t k = 0; k < tail; k++) sum[2 * nv + k / 2][k % 2] += yi[4 * nv + k];
  }
  for (int64_t k = 0; k < COLS / 2; k++) sum[k] = (v2d){1, 1} / sum[k];
  for (int64_t i = 0; i < n; i++) {
    float *yi = y + i * inner;
    for (int64_t v = 0; v < nv; v++) {
      ic_v4f e = ic_v4_load(yi + 4 * v);
      v2d p0 = __builtin_convertvector((v2f){e[0], e[1]}, v2d) * sum[2 * v];
      v2d p1 = __builtin_convertvector((v2f){e[2], e[3]}, v2d) * sum[2 * v + 1];
      v2f q0 = __builtin_convertvector(p0, v2f), q1 = __builtin_convertvector(p1, v2f);
      ic_v4_store(yi + 4 * v, (ic_v4f){q0[0], q0[1], q1[0], q1[1]});
    }
    for (int64_t k = 0; k < tail; k++) {
      yi[4 * nv + k] = (float)(yi[4 * nv + k] * sum[2 * nv + k / 2][k % 2]);
    }
  }
}

static ic_status run(ic_kctx *c) {
  const softmax_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  int64_t numel = ic_numel(x->ndim, x->dims);
  if (numel == 0) return IC_OK;
  if (x->ndim == 0) {
    if (x->dtype == IC_FP32) *(float *)y->data = 1.0f;
    else *(double *)y->data = 1.0;
    return IC_OK;
  }
  int axis = ic_kaxis(c, a->axis, x->ndim, "axis"); /* infer has checked it */
  if (axis < 0) return c->err->code;
  int64_t outer = 1, inner = 1, n = x->dims[axis];
  for (int i = 0; i < axis; i++) outer *= x->dims[i];
  for (int i = axis + 1; i < x->ndim; i++) inner *= x->dims[i];
  ic_buffer *scratch = NULL;
  size_t es = ic_dtype_size(x->dtype);
  void *max = NULL;
  double *sum = NULL;
  if (inner > 1 && x->dtype != IC_FP32) {
    /* sums first: the double array stays 8-byte aligned */
    if (!(scratch = ic_kscratch(c, (size_t)inner * (sizeof(double) + es)))) return c->err->code;
    sum = scratch->data;
    max = sum + inner;
  }
  if (x->dtype == IC_FP32 && inner == 1) {
    /* Rows are independent: split across the kernel's threads (the same bits). */
    const int nt = numel >= PAR_MIN ? ic_omp_threads(c->env) : 1;
    const int64_t per = (outer + nt - 1) / nt;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int t = 0; t < nt; t++) {
      const int64_t o0 = t * per, o1 = o0 + per < outer ? o0 + per : outer;
      if (o0 < o1) {
        ic_vsoftmax_rowsf((float *)y->data + o0 * n, (const float *)x->data + o0 * n, o1 - o0, n);
      }
    }
  } else if (x->dtype == IC_FP32) {
    /* Tasks of up to COLS columns of one outer slice, shared across the kernel's threads. */
    const int64_t per = (inner + COLS - 1) / COLS, tasks = outer * per;
    const int nt = numel >= PAR_MIN ? ic_omp_threads(c->env) : 1;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t t = 0; t < tasks; t++) {
      const int64_t o = t / per, j0 = (t % per) * COLS;
      const int64_t nc = inner - j0 < COLS ? inner - j0 : COLS;
      softmax_cols_vf32((const float *)x->data + o * n * inner,
                        (float *)y->data + o * n * inner, n, inner, j0, nc);
    }
  } else softmax_f64(x->data, y->data, outer, n, inner, max, sum);
  ic_buffer_release(scratch);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_softmax = {
    .name = "softmax",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(softmax_attrs), .parse = ic_softmax_parse,
    .infer = ic_softmax_infer, .cpu = run,
};
