/* The copy behind expand, expand_v2, expand_as_v2 and tile on the GPU (cpu/repeat.h on the
 * CPU): Out, its dims set by the op's infer, is X repeated, X's dims padded with leading 1s
 * to Out's rank, out[i] = x[i mod x_dims] per dim. One grid-stride kernel over the output
 * elements, each dividing its index through the (simplified) output dims, moving elements
 * of 1, 2, 4 or 8 bytes by value, in 32-bit index arithmetic when the output has fewer than
 * 2^31 elements. */
#ifndef IC_KERNELS_CUDA_REPEAT_CUH
#define IC_KERNELS_CUDA_REPEAT_CUH

#include "kernels/cuda/cuda_util.cuh"

template <typename I>
struct ic_repeat_geom {
  int n;                       /* dims left after dropping size-1 output dims */
  I od[IC_MAX_RANK], xd[IC_MAX_RANK], xs[IC_MAX_RANK];
};

template <typename T, typename I>
__global__ void ic_repeat_kernel(T *__restrict__ o, const T *__restrict__ x, I n,
                                 ic_repeat_geom<I> g) {
  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (I)blockDim.x * gridDim.x) {
    I rem = i, off = 0;
    for (int d = g.n - 1; d >= 0; d--) {
      I q = rem / g.od[d], r = rem - q * g.od[d];
      off += (r % g.xd[d]) * g.xs[d];
      rem = q;
    }
    o[i] = x[off];
  }
}

template <typename I>
static ic_repeat_geom<I> ic_repeat_geom_of(int R, const int64_t *od, const int64_t *xd) {
  ic_repeat_geom<I> g;
  g.n = 0;
  int64_t stride = 1;
  I xs[IC_MAX_RANK];
  for (int d = R - 1; d >= 0; d--) {
    xs[d] = (I)stride;
    stride *= xd[d];
  }
  for (int d = 0; d < R; d++) {
    if (od[d] == 1) continue;
    g.od[g.n] = (I)od[d];
    g.xd[g.n] = (I)xd[d];
    g.xs[g.n] = xs[d];
    g.n++;
  }
  return g;
}

/* Out (output slot 0) = X (input slot 0) repeated. */
static inline ic_status ic_cuda_repeat(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int R = o->ndim, off = R - x->ndim;
  int64_t xd[IC_MAX_RANK], n = 1;
  for (int d = 0; d < R; d++) {
    xd[d] = d >= off ? x->dims[d - off] : 1;
    n *= o->dims[d];
  }
  if (n == 0) return IC_OK;
  const size_t es = ic_dtype_size(x->dtype);
  const unsigned blocks = ic_cuda_blocks(n);
  cudaStream_t s = ic_cuda_stream(c);
  auto launch = [&](auto z) {
    using T = decltype(z);
    if (n < INT32_MAX) {
      ic_repeat_kernel<T, uint32_t><<<blocks, IC_CUDA_THREADS, 0, s>>>(
          (T *)o->data, (const T *)x->data, (uint32_t)n,
          ic_repeat_geom_of<uint32_t>(R, o->dims, xd));
    } else {
      ic_repeat_kernel<T, int64_t><<<blocks, IC_CUDA_THREADS, 0, s>>>(
          (T *)o->data, (const T *)x->data, n, ic_repeat_geom_of<int64_t>(R, o->dims, xd));
    }
    return ic_cuda_launched(c, c->def->name);
  };
  switch (es) {
    case 1: return launch(uint8_t());
    case 2: return launch(uint16_t());
    case 4: return launch(uint32_t());
    case 8: return launch(uint64_t());
    default:
      return ic_kfail_in(c, 0, 0, "has an element size of %zu bytes, not supported on the GPU",
                         es);
  }
}

#endif
