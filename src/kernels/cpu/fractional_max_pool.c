/* The shared kernel of fractional_max_pool2d / 3d: see fractional_max_pool.h. */
#include "kernels/cpu/fractional_max_pool.h"

#include <float.h>
#include <math.h>

#include "kernels/cpu/philox.h"

ic_status ic_fmp_parse(ic_attr_reader *r, ic_fmp_attrs *a, int nd) {
  a->nd = nd;
  const int64_t *v;
  size_t n;
  if (ic_ar_ints(r, "output_size", true, &v, &n)) {
    if (n != (size_t)nd) ic_ar_fail(r, "output_size", "has %zu values, expected %d", n, nd);
    for (int i = 0; i < nd && !r->st; i++) {
      if (v[i] < 1) ic_ar_fail(r, "output_size", "holds %lld, expected >= 1", (long long)v[i]);
      a->out[i] = v[i];
    }
  }
  if (ic_ar_ints(r, "kernel_size", false, &v, &n) && !r->st) {
    if (n != (size_t)nd) ic_ar_fail(r, "kernel_size", "has %zu values, expected %d", n, nd);
    for (int i = 0; i < nd && !r->st; i++) {
      if (v[i] < 0) ic_ar_fail(r, "kernel_size", "holds %lld, expected >= 0", (long long)v[i]);
      a->k[i] = v[i];
    }
  }
  double u = ic_ar_float(r, "random_u", 0.0);
  a->return_mask = ic_ar_bool(r, "return_mask", true);
  if (r->st) return r->st;
  if (!(u >= 0.0 && u < 1.0)) {
    return ic_ar_fail(r, "random_u", "is %g, expected 0 (draw one) or a value in (0, 1)", u);
  }
  a->u = (float)u;
  return IC_OK;
}

ic_status ic_fmp_infer(ic_kctx *c) {
  const ic_fmp_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != a->nd + 2) {
    return ic_kfail_in(c, 0, 0, "expected rank %d (%s)", a->nd + 2, a->nd == 2 ? "NCHW" : "NCDHW");
  }
  int64_t d[5] = {x->dims[0], x->dims[1]};
  for (int i = 0; i < a->nd; i++) {
    const int64_t in = x->dims[2 + i];
    if (in < a->out[i] - 1 + a->k[i]) {
      return ic_kfail_in(c, 0, 0,
                         "has spatial size %lld on axis %d, expected at least output_size - 1 "
                         "+ kernel_size = %lld",
                         (long long)in, 2 + i, (long long)(a->out[i] - 1 + a->k[i]));
    }
    d[2 + i] = a->out[i];
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, d);
  ic_tensor *m = ic_out(c, 1, 0);
  if (m) ic_tensor_set_meta(m, IC_INT32, x->ndim, d);
  return IC_OK;
}

static int64_t f2i(float v) {
  return v >= -9223372036854775808.0f && v < 9223372036854775808.0f ? (int64_t)v : INT64_MIN;
}

/* [start, end) of window i of each axis, clamped to the input. */
static void windows(int64_t in, int64_t out, int64_t k, float u, int64_t *s, int64_t *e) {
  const float alpha = (float)(in - k) / (float)(out - (k > 0 ? 1 : 0));
  if (k == 0) {
    const int64_t base = in / out;
    const float m1 = (float)(base + 2) / alpha - 1.0f;
    const float m2 = (float)(in + 1 - base) / alpha - (float)(out - 1);
    u *= m2 < m1 ? m2 : m1;
  }
  const int64_t off = f2i(u * alpha);
  for (int64_t i = 0; i < out; i++) {
    int64_t st = (int64_t)((uint64_t)f2i(((float)i + u) * alpha) - (uint64_t)off);
    int64_t en = k > 0 ? (int64_t)((uint64_t)st + (uint64_t)k)
                       : (int64_t)((uint64_t)f2i(((float)(i + 1) + u) * alpha) - (uint64_t)off);
    s[i] = st < 0 ? 0 : st;
    e[i] = en > in ? in : en;
  }
}

#define FMP_LOOP(NAME, T)                                                                  \
  static void NAME(const T *x, T *y, int32_t *mask, int64_t planes, const int64_t *in,     \
                   const int64_t *out, int64_t *const *s, int64_t *const *e, int nt) {     \
    const int64_t is = in[0] * in[1] * in[2], os = out[0] * out[1] * out[2];               \
    _Pragma("omp parallel for num_threads(nt) schedule(static) if (nt > 1)")               \
    for (int64_t p = 0; p < planes; p++) {                                                 \
      const T *xp = x + p * is;                                                            \
      for (int64_t od = 0; od < out[0]; od++)                                              \
        for (int64_t oh = 0; oh < out[1]; oh++)                                            \
          for (int64_t ow = 0; ow < out[2]; ow++) {                                        \
            T best = (T)-FLT_MAX;                                                          \
            int64_t at = -1;                                                               \
            for (int64_t d = s[0][od]; d < e[0][od]; d++)                                  \
              for (int64_t h = s[1][oh]; h < e[1][oh]; h++)                                \
                for (int64_t w = s[2][ow]; w < e[2][ow]; w++) {                            \
                  const int64_t k = (d * in[1] + h) * in[2] + w;                           \
                  if (best < xp[k]) {                                                      \
                    best = xp[k];                                                          \
                    at = k;                                                                \
                  }                                                                        \
                }                                                                          \
            const int64_t o = p * os + (od * out[1] + oh) * out[2] + ow;                   \
            y[o] = best;                                                                   \
            if (mask) mask[o] = (int32_t)at;                                               \
          }                                                                                \
    }                                                                                      \
  }
FMP_LOOP(fmp_f32, float)
FMP_LOOP(fmp_f64, double)

ic_status ic_fmp_cpu(ic_kctx *c) {
  const ic_fmp_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *y = ic_out(c, 0, 0), *m = ic_out(c, 1, 0);
  /* spatial axes as 3 (a 2-D pool is a 3-D one of depth 1) */
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {0, 0, 0};
  for (int i = 0; i < a->nd; i++) {
    in[3 - a->nd + i] = x->dims[2 + i];
    out[3 - a->nd + i] = a->out[i];
    k[3 - a->nd + i] = a->k[i];
  }
  float u = a->u;
  if (u == 0.0f) {
    const uint64_t key = ic_philox_key(0, c->env->seed, c->op_key);
    u = ic_philox_u24(ic_philox_block(key, 0).v[0]);
  }
  const size_t nw = (size_t)(out[0] + out[1] + out[2]);
  ic_buffer *buf = ic_kscratch(c, 2 * nw * sizeof(int64_t));
  if (!buf) return c->err->code;
  int64_t *sv = buf->data, *ev = sv + nw;
  int64_t *s[3], *e[3];
  size_t at = 0;
  for (int i = 0; i < 3; i++) {
    s[i] = sv + at;
    e[i] = ev + at;
    at += (size_t)out[i];
    if (i < 3 - a->nd) { /* the padding depth axis: one window over the one plane */
      s[i][0] = 0;
      e[i][0] = 1;
    } else {
      windows(in[i], out[i], k[i], u, s[i], e[i]);
    }
  }
  const int64_t planes = x->dims[0] * x->dims[1];
  const int nt = ic_numel(y->ndim, y->dims) >= 4096 ? ic_omp_threads(c->env) : 1;
  int32_t *mask = m ? (int32_t *)m->data : NULL;
  if (x->dtype == IC_FP32) fmp_f32(x->data, y->data, mask, planes, in, out, s, e, nt);
  else fmp_f64(x->data, y->data, mask, planes, in, out, s, e, nt);
  ic_buffer_release(buf);
  return IC_OK;
}
