/* The resize ops on the GPU (see cpu/interp.c): the host computes the geometry
 * (ic_interp_geometry, which reads the size inputs on the host), then one thread per output
 * element finds its source positions with the CPU kernel's own per-axis functions
 * (interp.h) and sums in the same order, so the results are the CPU's bit for bit
 * (-fmad=false). Equal sizes copy X. nearest moves elements of any width. */
#include <math.h>

#include "kernels/cpu/interp.h"
#include "kernels/cuda/cuda_kit.cuh"
#include "kernels/cuda/cuinterp.h"

IC_INTERP_DEFINE_CUBIC(float)
IC_INTERP_DEFINE_CUBIC(double)

namespace {

struct dgeom {
  int nd;
  int method;
  bool nhwc, align_corners, align_flag;
  int64_t n, c, in[3], out[3];   /* spatial sizes padded to 3 (d, h, w), missing ones 1 */
  float ratio[3];
  int64_t is[5], os[5];          /* element strides of n, c, d, h, w */
};

__device__ inline void unravel(const dgeom &g, int64_t e, int64_t *n, int64_t *ch, int64_t *o) {
  /* output index -> (n, c, d, h, w) in the output's layout */
  if (g.nhwc) {
    *ch = e % g.c;
    e /= g.c;
    o[2] = e % g.out[2];
    e /= g.out[2];
    o[1] = e % g.out[1];
    e /= g.out[1];
    o[0] = e % g.out[0];
    *n = e / g.out[0];
  } else {
    o[2] = e % g.out[2];
    e /= g.out[2];
    o[1] = e % g.out[1];
    e /= g.out[1];
    o[0] = e % g.out[0];
    e /= g.out[0];
    *ch = e % g.c;
    *n = e / g.c;
  }
}

template <typename U>
__global__ void nearest_k(const U *x, U *y, dgeom g, int64_t total) {
  IC_CUDA_FOR(e, total) {
    int64_t n, ch, o[3];
    unravel(g, e, &n, &ch, o);
    int64_t src = n * g.is[0] + ch * g.is[1];
    for (int a = 3 - g.nd; a < 3; a++) {
      src += ic_interp_nearest(g.ratio[a], g.in[a], o[a], g.align_corners) * g.is[2 + a];
    }
    y[e] = x[src];
  }
}

template <typename T>
__global__ void linear_k(const T *x, T *y, dgeom g, int64_t total) {
  IC_CUDA_FOR(e, total) {
    int64_t n, ch, o[3], lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    float w0[3] = {1, 1, 1}, w1[3] = {0, 0, 0};
    unravel(g, e, &n, &ch, o);
    for (int a = 3 - g.nd; a < 3; a++) {
      ic_interp_lin(g.ratio[a], g.in[a], o[a], g.align_flag, &lo[a], &hi[a], &w0[a], &w1[a]);
      lo[a] *= g.is[2 + a];
      hi[a] *= g.is[2 + a];
    }
    const T *xb = x + n * g.is[0] + ch * g.is[1];
    T v;
    if (g.nd == 1) {
      v = xb[lo[2]] * w0[2] + xb[hi[2]] * w1[2];
    } else if (g.nd == 2) {
      const T *r0 = xb + lo[1], *r1 = xb + hi[1];
      v = r0[lo[2]] * w0[1] * w0[2] + r1[lo[2]] * w1[1] * w0[2] + r0[hi[2]] * w0[1] * w1[2] +
          r1[hi[2]] * w1[1] * w1[2];
    } else {
      const T *p00 = xb + lo[0] + lo[1], *p01 = xb + lo[0] + hi[1];
      const T *p10 = xb + hi[0] + lo[1], *p11 = xb + hi[0] + hi[1];
      const int64_t x0 = lo[2], x1 = hi[2];
      v = p00[x0] * w0[0] * w0[1] * w0[2] + p00[x1] * w0[0] * w0[1] * w1[2] +
          p01[x0] * w0[0] * w1[1] * w0[2] + p01[x1] * w0[0] * w1[1] * w1[2] +
          p10[x0] * w1[0] * w0[1] * w0[2] + p10[x1] * w1[0] * w0[1] * w1[2] +
          p11[x0] * w1[0] * w1[1] * w0[2] + p11[x1] * w1[0] * w1[1] * w1[2];
    }
    y[e] = v;
  }
}

template <typename T>
__device__ inline T cubic(T x0, T x1, T x2, T x3, T t);
template <>
__device__ inline float cubic<float>(float x0, float x1, float x2, float x3, float t) {
  return ic_interp_cubic_float(x0, x1, x2, x3, t);
}
template <>
__device__ inline double cubic<double>(double x0, double x1, double x2, double x3, double t) {
  return ic_interp_cubic_double(x0, x1, x2, x3, t);
}

__device__ inline int64_t clampi(int64_t v, int64_t hi) { return v < 0 ? 0 : v > hi ? hi : v; }

template <typename T>
__global__ void bicubic_k(const T *x, T *y, dgeom g, int64_t total) {
  IC_CUDA_FOR(e, total) {
    int64_t n, ch, o[3];
    unravel(g, e, &n, &ch, o);
    const int64_t k = o[1], l = o[2], H = g.in[1], W = g.in[2];
    const float rh = g.ratio[1], rw = g.ratio[2];
    const T yn = g.align_corners ? (T)(rh * (float)k) : (T)(rh * (k + 0.5) - 0.5);
    const int64_t iy = (int64_t)floorf((float)yn);
    const T yt = yn - (T)iy;
    const T xn = g.align_corners ? (T)(rw * (float)l) : (T)(rw * (l + 0.5) - 0.5);
    const int64_t ix = (int64_t)floorf((float)xn);
    const T xt = xn - (T)ix;
    int64_t ax[4];
    for (int q = 0; q < 4; q++) ax[q] = clampi(ix - 1 + q, W - 1) * g.is[4];
    const T *xb = x + n * g.is[0] + ch * g.is[1];
    T cf[4];
    for (int q = 0; q < 4; q++) {
      const T *r = xb + clampi(iy - 1 + q, H - 1) * g.is[3];
      cf[q] = cubic<T>(r[ax[0]], r[ax[1]], r[ax[2]], r[ax[3]], xt);
    }
    y[e] = cubic<T>(cf[0], cf[1], cf[2], cf[3], yt);
  }
}

void strides(bool nhwc, int64_t c, const int64_t sp[3], int64_t s[5]) {
  if (nhwc) {
    s[1] = 1;
    s[4] = c;
    s[3] = sp[2] * c;
    s[2] = sp[1] * sp[2] * c;
    s[0] = sp[0] * sp[1] * sp[2] * c;
  } else {
    s[4] = 1;
    s[3] = sp[2];
    s[2] = sp[1] * sp[2];
    s[1] = sp[0] * sp[1] * sp[2];
    s[0] = c * s[1];
  }
}

}  // namespace

extern "C" ic_status ic_cuinterp_run(ic_kctx *c) {
  const ic_interp_attrs *a = (const ic_interp_attrs *)c->attrs;
  ic_status st = ic_cuda_need_env(c, false);
  if (st) return st;
  ic_interp_geom hg;
  if ((st = ic_interp_geometry(c, &hg))) return st;
  const ic_tensor *x = ic_in(c, IC_INTERP_X, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  if (a->method != IC_INTERP_NEAREST && x->dtype == IC_UINT8) {
    return ic_kfail_in(c, IC_INTERP_X, 0,
                       "is uint8, which the CUDA kernel resizes only by nearest (the CPU "
                       "kernel does the others)");
  }
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t total = ic_numel(out->ndim, out->dims);
  if (total == 0) return IC_OK;
  bool same = true;
  for (int i = 0; i < hg.nd; i++) same = same && hg.in[i] == hg.out[i];
  if (same) {
    return ic_cuda_check(c, cudaMemcpyAsync(out->data, x->data, (size_t)total * es,
                                            cudaMemcpyDeviceToDevice, ic_cuda_stream(c)),
                         "resize copy");
  }
  dgeom g;
  g.nd = hg.nd;
  g.method = (int)a->method;
  g.nhwc = a->nhwc;
  g.align_corners = a->align_corners;
  g.align_flag = a->align_mode == 0 && !a->align_corners;
  g.n = hg.n;
  g.c = hg.c;
  for (int i = 0; i < 3; i++) {
    g.in[i] = g.out[i] = 1;
    g.ratio[i] = 0;
  }
  for (int i = 0; i < hg.nd; i++) {
    g.in[3 - hg.nd + i] = hg.in[i];
    g.out[3 - hg.nd + i] = hg.out[i];
    g.ratio[3 - hg.nd + i] = hg.ratio[i];
  }
  strides(g.nhwc, g.c, g.in, g.is);
  strides(g.nhwc, g.c, g.out, g.os);
  const unsigned blocks = ic_cuda_blocks(total);
  cudaStream_t s = ic_cuda_stream(c);
  const bool f64 = x->dtype == IC_FP64;
  const void *xp = x->data;
  void *yp = out->data;
  switch (a->method) {
    case IC_INTERP_NEAREST:
      if (es == 1) {
        nearest_k<uint8_t><<<blocks, IC_CUDA_THREADS, 0, s>>>((const uint8_t *)xp,
                                                              (uint8_t *)yp, g, total);
      } else if (es == 2) {
        nearest_k<uint16_t><<<blocks, IC_CUDA_THREADS, 0, s>>>((const uint16_t *)xp,
                                                               (uint16_t *)yp, g, total);
      } else if (es == 4) {
        nearest_k<uint32_t><<<blocks, IC_CUDA_THREADS, 0, s>>>((const uint32_t *)xp,
                                                               (uint32_t *)yp, g, total);
      } else {
        nearest_k<uint64_t><<<blocks, IC_CUDA_THREADS, 0, s>>>((const uint64_t *)xp,
                                                               (uint64_t *)yp, g, total);
      }
      return ic_cuda_launched(c, "nearest_k");
    case IC_INTERP_BICUBIC:
      if (f64) {
        bicubic_k<double><<<blocks, IC_CUDA_THREADS, 0, s>>>((const double *)xp,
                                                             (double *)yp, g, total);
      } else {
        bicubic_k<float><<<blocks, IC_CUDA_THREADS, 0, s>>>((const float *)xp, (float *)yp, g,
                                                            total);
      }
      return ic_cuda_launched(c, "bicubic_k");
    default:
      if (f64) {
        linear_k<double><<<blocks, IC_CUDA_THREADS, 0, s>>>((const double *)xp, (double *)yp,
                                                            g, total);
      } else {
        linear_k<float><<<blocks, IC_CUDA_THREADS, 0, s>>>((const float *)xp, (float *)yp, g,
                                                           total);
      }
      return ic_cuda_launched(c, "linear_k");
  }
}
