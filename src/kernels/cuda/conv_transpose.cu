/* The transposed convolutions on the GPU (conv2d_transpose, depthwise_conv2d_transpose) with
 * the geometry of cpu/conv_transpose.c (ic_convt_geometry: groups, strides, dilations,
 * paddings and padding_algorithm, output_padding, output_size):
 *
 *   Output[n, g*og + o, oy, ox] = Bias[g*og + o] + sum over i < cg, ky, kx with
 *       oy = iy*sh - pt + ky*dh, ox = ix*sw - pl + kx*dw (iy, ix inside the input) of
 *       Input[n, g*cg + i, iy, ix] * Filter[g*cg + i, o, ky, kx]
 *
 * A direct kernel, one thread per output element (grid-stride), gathering its terms: for
 * each tap (ky, kx) the input position is (oy + pt - ky*dh) / sh when that divides exactly
 * and lands inside the input. Sums in the output's type in the order i, ky, kx, so the
 * results differ from the CPU's (a GEMM then a col2im, another order) by rounding only.
 * NCHW and NHWC are read and written in place (no layout copies). No cuDNN: the geometry
 * Paddle allows (output_padding, output_size, any groups) maps onto it directly. */
#include "kernels/cpu/conv_transpose.h"
#include "kernels/cuda/cuconvt.h"
#include "kernels/cuda/cuda_util.cuh"

namespace {

struct convt_dev {
  int64_t n, c, h, w, oc, og, kh, kw, oh, ow, sh, sw, dh, dw, pt, pl, g;
  bool nhwc;
};

template <typename T>
__global__ void convt_kernel(T *__restrict__ y, const T *__restrict__ x,
                             const T *__restrict__ f, const T *__restrict__ bias, int64_t total,
                             convt_dev g) {
  const int64_t cg = g.c / g.g;
  IC_CUDA_FOR(e, total) {
    int64_t n, o, oy, ox;
    if (g.nhwc) {
      o = e % g.oc;
      int64_t t = e / g.oc;
      ox = t % g.ow;
      t /= g.ow;
      oy = t % g.oh;
      n = t / g.oh;
    } else {
      ox = e % g.ow;
      int64_t t = e / g.ow;
      oy = t % g.oh;
      t /= g.oh;
      o = t % g.oc;
      n = t / g.oc;
    }
    const int64_t gi = o / g.og, oo = o - gi * g.og;
    T acc = bias ? bias[o] : T(0);
    for (int64_t i = 0; i < cg; i++) {
      const int64_t ci = gi * cg + i;
      for (int64_t ky = 0; ky < g.kh; ky++) {
        const int64_t ty = oy + g.pt - ky * g.dh;
        if (ty < 0 || ty % g.sh != 0) continue;
        const int64_t iy = ty / g.sh;
        if (iy >= g.h) continue;
        for (int64_t kx = 0; kx < g.kw; kx++) {
          const int64_t tx = ox + g.pl - kx * g.dw;
          if (tx < 0 || tx % g.sw != 0) continue;
          const int64_t ix = tx / g.sw;
          if (ix >= g.w) continue;
          const int64_t xi = g.nhwc ? ((n * g.h + iy) * g.w + ix) * g.c + ci
                                    : ((n * g.c + ci) * g.h + iy) * g.w + ix;
          acc += x[xi] * f[((ci * g.og + oo) * g.kh + ky) * g.kw + kx];
        }
      }
    }
    y[e] = acc;
  }
}

}  // namespace

ic_status ic_cuconvt_run(ic_kctx *c) {
  const ic_convt_attrs *a = (const ic_convt_attrs *)c->attrs;
  if (a->act != IC_ACT_NONE) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED,
                    "a fused activation (fuse_activation) on a transposed convolution runs on "
                    "the CPU only; icore's rewrites add it on CPU plans");
  }
  ic_convt_geom g;
  ic_status st = ic_convt_geometry(c, &g);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IC_CONVT_INPUT, 0), *f = ic_in(c, IC_CONVT_FILTER, 0);
  const ic_tensor *b = ic_in(c, IC_CONVT_BIAS, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  const int64_t total = g.n * g.oc * g.oh * g.ow;
  if (total == 0) return IC_OK;
  const convt_dev d = {g.n,  g.c,  g.h,  g.w,  g.oc, g.og, g.kh, g.kw, g.oh,
                       g.ow, g.sh, g.sw, g.dh, g.dw, g.pt, g.pl, g.g,  a->nhwc};
  cudaStream_t s = ic_cuda_stream(c);
  return ic_cuda_dispatch_float(c, x->dtype, [&](auto z) {
    using T = decltype(z);
    convt_kernel<T><<<ic_cuda_blocks(total), IC_CUDA_THREADS, 0, s>>>(
        (T *)y->data, (const T *)x->data, (const T *)f->data,
        b ? (const T *)b->data : (const T *)nullptr, total, d);
    return ic_cuda_launched(c, c->def->name);
  });
}
