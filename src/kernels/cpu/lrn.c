/* lrn: local response normalization across channels (AlexNet, GoogLeNet). With pre = (n - 1) / 2,
 * MidOut[c] = k + alpha * sum over c' in [c - pre, c - pre + n) of X[c']^2 (channels outside
 * [0, C) add nothing) and Out = X * MidOut^-beta. alpha is not divided by n. As Paddle's CPU
 * functor (paddle/phi/kernels/cpu/lrn_kernel.cc) the window sum runs along the channels, each
 * channel's from the previous one's plus the entering square and minus the leaving one, in
 * the dtype; NCHW or NHWC (data_format; AnyLayout = NCHW). float32, float64. */
#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

typedef struct lrn_attrs {
  int64_t n;
  double k, alpha, beta;
  bool nhwc;
} lrn_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lrn_attrs *a = attrs;
  a->n = ic_ar_int(r, "n", 5);
  a->k = (float)ic_ar_float(r, "k", 2.0);
  a->alpha = (float)ic_ar_float(r, "alpha", 1e-4);
  a->beta = (float)ic_ar_float(r, "beta", 0.75);
  const char *f = ic_ar_str(r, "data_format", "AnyLayout");
  (void)ic_ar_bool(r, "is_test", false);
  if (r->st) return r->st;
  if (a->n < 1 || a->n % 2 == 0) {
    return ic_ar_fail(r, "n", "is %lld, expected an odd size >= 1", (long long)a->n);
  }
  a->nhwc = !strcmp(f, "NHWC");
  if (!a->nhwc && strcmp(f, "NCHW") && strcmp(f, "AnyLayout")) {
    return ic_ar_fail(r, "data_format", "is \"%s\", expected NCHW or NHWC", f);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4");
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, x->dims);
  if (ic_out(c, 1, 0)) ic_tensor_set_meta(ic_out(c, 1, 0), x->dtype, 4, x->dims);
  return IC_OK;
}

#define LRN_BODY(T, POW)                                                                     \
  do {                                                                                       \
    const T *xd = x->data;                                                                   \
    T *od = o->data, *md = mid;                                                              \
    const T k = (T)a->k, al = (T)a->alpha, nb = (T)-a->beta;                                 \
    for (int64_t b = 0; b < N; b++) {                                                        \
      for (int64_t p = 0; p < HW; p++) {                                                     \
        /* element (b, c, p) at base + c * cs */                                             \
        const int64_t base = a->nhwc ? (b * HW + p) * C : b * C * HW + p;                    \
        const int64_t cs = a->nhwc ? 1 : HW;                                                 \
        T m = k;                                                                             \
        for (int64_t s = 0; s < a->n; s++) {                                                 \
          const int64_t ch = s - pre;                                                        \
          if (ch >= 0 && ch < C) {                                                           \
            const T v = xd[base + ch * cs];                                                  \
            m = m + al * (T)(v * v);                                                         \
          }                                                                                  \
        }                                                                                    \
        md[base] = m;                                                                        \
        for (int64_t ch = 1; ch < C; ch++) {                                                 \
          const int64_t in = ch + a->n - 1 - pre, out = ch - 1 - pre;                        \
          if (in >= 0 && in < C) {                                                           \
            const T v = xd[base + in * cs];                                                  \
            m = m + al * (T)(v * v);                                                         \
          }                                                                                  \
          if (out >= 0 && out < C) {                                                         \
            const T v = xd[base + out * cs];                                                 \
            m = m + (-al) * (T)(v * v);                                                      \
          }                                                                                  \
          md[base + ch * cs] = m;                                                            \
        }                                                                                    \
        for (int64_t ch = 0; ch < C; ch++) {                                                 \
          const int64_t at = base + ch * cs;                                                 \
          od[at] = (T)POW(md[at], nb) * xd[at];                                              \
        }                                                                                    \
      }                                                                                      \
    }                                                                                        \
  } while (0)

static ic_status run(ic_kctx *c) {
  const lrn_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0), *mo = ic_out(c, 1, 0);
  const int64_t N = x->dims[0], C = a->nhwc ? x->dims[3] : x->dims[1];
  const int64_t HW = a->nhwc ? x->dims[1] * x->dims[2] : x->dims[2] * x->dims[3];
  const int64_t pre = (a->n - 1) / 2;
  ic_buffer *scr = NULL;
  void *mid = mo ? mo->data : NULL;
  if (!mid) {
    scr = ic_kscratch(c, (size_t)ic_tensor_numel_(x) * ic_dtype_size(x->dtype));
    if (!scr) return c->err->code;
    mid = scr->data;
  }
  if (x->dtype == IC_FP32) LRN_BODY(float, powf);
  else LRN_BODY(double, pow);
  if (scr) ic_buffer_release(scr);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"MidOut", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_lrn = {
    .name = "lrn", .n_inputs = 1, .inputs = inputs, .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(lrn_attrs), .parse = parse, .infer = infer, .cpu = run,
};
